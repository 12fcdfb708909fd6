/* Reference point for the benchmark: libxml2's HTML parser with no-op SAX callbacks, the
 * same options as AgroHTML. Prints the seconds taken to parse every file REPEATS times. */
#include <libxml/HTMLparser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void start(void *c, const xmlChar *n, const xmlChar **a) { (void)c; (void)n; (void)a; }
static void end(void *c, const xmlChar *n) { (void)c; (void)n; }
static void chars(void *c, const xmlChar *s, int l) { (void)c; (void)s; (void)l; }

int main(int argc, char **argv) {
    int repeats = atoi(argv[1]);
    int n = argc - 2;
    char **bufs = calloc(n, sizeof *bufs);
    long *lens = calloc(n, sizeof *lens);
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(argv[i + 2], "rb");
        fseek(f, 0, SEEK_END);
        lens[i] = ftell(f);
        fseek(f, 0, SEEK_SET);
        bufs[i] = malloc(lens[i]);
        if (fread(bufs[i], 1, lens[i], f) != (size_t)lens[i]) return 1;
        fclose(f);
    }
    htmlSAXHandler h;
    memset(&h, 0, sizeof h);
    h.startElement = start;
    h.endElement = end;
    h.characters = chars;
    h.ignorableWhitespace = chars;
    h.cdataBlock = chars;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int r = 0; r < repeats; r++)
        for (int i = 0; i < n; i++) {
            htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
            *ctxt->sax = h;
            htmlDocPtr d = htmlCtxtReadMemory(ctxt, bufs[i], (int)lens[i], NULL, "UTF-8",
                HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET |
                XML_PARSE_HUGE | HTML_PARSE_IGNORE_ENC);
            if (d) xmlFreeDoc(d);
            htmlFreeParserCtxt(ctxt);
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
    return 0;
}
