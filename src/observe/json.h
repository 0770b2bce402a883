/* JSON helpers shared by the profiler's and the tracer's files.  Not
 * installed. */
#ifndef WEFT_OBSERVE_JSON_H
#define WEFT_OBSERVE_JSON_H

#include <stdio.h>

/* s as a JSON string, quoted and escaped. */
void weft__json_string(FILE *out, const char *s);

#endif
