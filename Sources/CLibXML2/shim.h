#ifndef AGRO_CLIBXML2_SHIM_H
#define AGRO_CLIBXML2_SHIM_H
// libxml2's headers pull in ICU when it is enabled, and ICU's headers clash with the ones
// Foundation ships: read the configuration first, then switch ICU off before the rest.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
#include <libxml/uri.h>
#endif
