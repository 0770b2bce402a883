// SPDX-License-Identifier: Apache-2.0
/* Explaining a stack overflow (overflow.c): shared by the fork-join
 * runtime and the work pool.  Not installed. */
#ifndef WEFT_RUNTIME_OVERFLOW_H
#define WEFT_RUNTIME_OVERFLOW_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "sys/tls.h" /* WEFT__TLS_MODEL */

/* The SIGSEGV handler that explains stack overflows: counted, shared by
 * the fork-join pool and work pool runs (the first install installs it,
 * the last remove restores the previous one); forget: in a forked child.
 * An install that fails says why, and that overflows go unexplained. */
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
/* An alternate signal stack of weft's for the calling thread, installed
 * (*mem: its memory), and taken down; of: its description, to install it
 * again. */
int weft__altstack_setup(void **mem);
void weft__altstack_teardown(void *mem);
stack_t weft__altstack_of(void *mem);
/* Whether the calling thread has an alternate signal stack of its own
 * large enough for the handler (the kernel's signal frame for this CPU
 * and the report's calls); *own is what it has (SS_DISABLE: none).  One
 * that is too small is replaced by weft's while the thread runs on
 * weft's stacks: the report would not fit. */
bool weft__altstack_own_fits(stack_t *own);
/* SIGSEGV unblocked on the calling thread, which is about to run on a
 * stack of weft's: a fault while it is blocked kills the process without
 * calling any handler.  Threads inherit the mask of the thread that made
 * them, and programs often block every signal before they start theirs.
 * Returns whether it was blocked (weft__segv_reblock puts it back). */
bool weft__segv_unblock(void);
void weft__segv_reblock(bool was_blocked);
/* Whether the calling thread blocks SIGSEGV now. */
bool weft__segv_blocked(void);

#endif
