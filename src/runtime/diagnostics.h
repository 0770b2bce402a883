// SPDX-License-Identifier: Apache-2.0
/* Messages for the user, shared by the fork-join runtime and the work
 * pool: every one is a line on stderr that starts with "weft: ".  Not
 * installed. */
#ifndef WEFT_RUNTIME_DIAGNOSTICS_H
#define WEFT_RUNTIME_DIAGNOSTICS_H

#include <weft/bits/lang.h>

/* Exported from a shared libweft: the Lace and dist libraries call these. */
WEFT_BEGIN_DECLS

/* Reports and goes on. */
void weft__warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports and aborts: for misuse that would otherwise corrupt memory. */
__attribute__((noreturn)) void weft__fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
WEFT_END_DECLS

#endif
