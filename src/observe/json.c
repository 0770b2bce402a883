// SPDX-License-Identifier: Apache-2.0
/* Text helpers shared by the profiler's and the tracer's files. */
#include "observe/json.h"

#include <string.h>

/* The length of the well-formed UTF-8 character at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_char(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) /* (a NUL ends the check too) */
            return 0;
    return n;
}

void weft__json_string(FILE *out, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    fputc('"', out);
    while (*u) {
        unsigned char ch = *u;
        size_t n = utf8_char(u);
        if (n == 0) {
            fputs("\\ufffd", out);
            u++;
            continue;
        }
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            fwrite(u, 1, n, out);
        u += n;
    }
    fputc('"', out);
}

size_t weft__utf8_copy(char *dst, size_t size, const char *src)
{
    size_t len = strlen(src);
    if (len >= size) {
        len = size - 1;
        /* Back over continuation bytes to the start of the character
         * that the cut splits, if it does. */
        size_t start = len;
        while (start > 0 && ((unsigned char)src[start] & 0xc0) == 0x80)
            start--;
        len = start;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
    return len;
}
