#ifndef AGRO_CCURLSHIM_H
#define AGRO_CCURLSHIM_H

#include <curl/curl.h>

/// Typed wrappers of libcurl's variadic calls, which Swift cannot make.
CURLcode agro_curl_set_long(CURL *curl, CURLoption option, long value);
CURLcode agro_curl_set_off_t(CURL *curl, CURLoption option, curl_off_t value);
CURLcode agro_curl_set_string(CURL *curl, CURLoption option, const char *value);
CURLcode agro_curl_set_pointer(CURL *curl, CURLoption option, void *value);
CURLcode agro_curl_set_write_function(CURL *curl, size_t (*function)(char *, size_t, size_t, void *));
CURLcode agro_curl_set_header_function(CURL *curl, size_t (*function)(char *, size_t, size_t, void *));
CURLcode agro_curl_set_xferinfo_function(
    CURL *curl, int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode agro_curl_get_long(CURL *curl, CURLINFO info, long *value);
CURLcode agro_curl_get_off_t(CURL *curl, CURLINFO info, curl_off_t *value);
CURLcode agro_curl_get_string(CURL *curl, CURLINFO info, char **value);

/// curl_global_init(CURL_GLOBAL_DEFAULT): the flags are a macro expression Swift does not import.
CURLcode agro_curl_global_init(void);

#endif
