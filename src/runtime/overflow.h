// SPDX-License-Identifier: Apache-2.0
/* Explaining a stack overflow (overflow.c): shared by the fork-join
 * runtime and the work pool.  Not installed. */
#ifndef WEFT_RUNTIME_OVERFLOW_H
#define WEFT_RUNTIME_OVERFLOW_H

#include <stddef.h>
#include "sys/tls.h" /* WEFT__TLS_MODEL */

/* The SIGSEGV handler that explains stack overflows: counted, shared by
 * the fork-join pool and work pool runs (the first install installs it,
 * the last remove restores the previous one); forget: in a forked child. */
int weft__overflow_handler_install(void);
void weft__overflow_handler_remove(void);
void weft__overflow_handler_forget(void);
/* A thread other than a fork-join worker that runs on a stack of weft's
 * (a work pool worker): while weft__tls_stack points to its record, an
 * overflow into the guard is explained as on `who` `id`, with `raise`
 * saying how to make the stack larger. */
typedef struct weft_thread_stack {
    void *guard_lo, *lo; /* the guard is [guard_lo, lo), the stack [lo, lo + size) */
    size_t size;
    const char *who;
    unsigned id;
    const char *raise;
} weft_thread_stack;
extern __thread const weft_thread_stack *weft__tls_stack WEFT__TLS_MODEL;
int weft__altstack_setup(void **mem);
void weft__altstack_teardown(void *mem);

#endif
