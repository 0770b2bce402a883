// SPDX-License-Identifier: Apache-2.0
/* Memory for deques and stacks (memory.c): address space with guard
 * pages, shared by the fork-join runtime and the work pool.  Not
 * installed. */
#ifndef WEFT_RUNTIME_MEMORY_H
#define WEFT_RUNTIME_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/limits.h" /* WEFT_MIN_STACK_SIZE, WEFT_MAX_STACK_SIZE */

/* The PROT_NONE guard below a stack of stack_size bytes: as large as the
 * stack, within these bounds (docs/configuration.md). */
#define WEFT_MIN_STACK_GUARD ((size_t)1 << 20)
#define WEFT_MAX_STACK_GUARD ((size_t)1 << 30)
/* A worker's stack, fork-join pool's and work pool's alike: the default
 * (address space; only touched pages cost memory); limits.h has the range
 * accepted. */
#define WEFT_DEFAULT_STACK_SIZE ((size_t)64 << 20)
size_t weft__stack_guard(size_t stack_size);
/* The mapping of a deque of `slots` usable slots (two more: the floor
 * below dq and end; page-rounded). */
size_t weft__deque_bytes(size_t slots);
void *weft__map(size_t bytes, size_t guard_below, size_t guard_above, int placement);
void weft__unmap(void *usable, size_t bytes, size_t guard_below, size_t guard_above);
size_t weft__page_size(void);
/* The table of weft's guards, and of the ranges below adopted threads'
 * own stacks where they overflow (memory.c): note, forget (the range a
 * note gave; note returns ENOMEM when the table cannot grow; 0 bytes:
 * nothing), and whether an address lies in one.  weft__guard_holds is async-signal-safe
 * and reads no thread-local: the SIGSEGV handler's first question. */
int weft__guard_note(void *lo, size_t bytes);
void weft__guard_forget(void *lo, size_t bytes);
bool weft__guard_holds(const void *addr);

#endif
