// SPDX-License-Identifier: Apache-2.0
/* Text helpers shared by the profiler's and the tracer's files.  Not
 * installed. */
#ifndef WEFT_OBSERVE_JSON_H
#define WEFT_OBSERVE_JSON_H

#include <stddef.h>
#include <stdio.h>

/* s as a JSON string, quoted and escaped; a byte that does not belong to
 * a well-formed UTF-8 character is written as U+FFFD, so the file is
 * valid whatever s holds. */
void weft__json_string(FILE *out, const char *s);

/* Copies as much of src into dst[size] (size > 0) as fits with its NUL,
 * cut at a character boundary: a multibyte UTF-8 character that does not
 * fit whole is left out.  Returns the bytes copied. */
size_t weft__utf8_copy(char *dst, size_t size, const char *src);

#endif
