// SPDX-License-Identifier: Apache-2.0
/* Address-based waiting on a 32-bit atomic word (Linux futex): every
 * sleeper in weft (idle workers, RUN callers, barriers, the work pool)
 * blocks through these.  Not installed. */
#ifndef WEFT_SYS_FUTEX_H
#define WEFT_SYS_FUTEX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Sleeps while *word == expected.  May return spuriously: callers re-check
 * their condition and loop. */
void weft__futex_wait(_Atomic uint32_t *word, uint32_t expected);

/* The same, for at most timeout_ns nanoseconds.  Returns false if the time
 * ran out, true otherwise (woken, spurious, or *word != expected). */
bool weft__futex_wait_for(_Atomic uint32_t *word, uint32_t expected, uint64_t timeout_ns);

/* Wakes up to count threads waiting on word (INT_MAX: all). */
void weft__futex_wake(_Atomic uint32_t *word, int count);

#endif
