/* Memory for deques and stacks, and the explanation of a stack overflow
 * (memory.c): shared by the fork-join runtime and the work pool.  Not
 * installed. */
#ifndef WEFT_RUNTIME_MEMORY_H
#define WEFT_RUNTIME_MEMORY_H

#include <stddef.h>

/* The PROT_NONE guard below a stack of stack_size bytes: as large as the
 * stack, within these bounds (docs/configuration.md). */
#define WEFT_MIN_STACK_GUARD ((size_t)1 << 20)
#define WEFT_MAX_STACK_GUARD ((size_t)1 << 30)
size_t weft_stack_guard(size_t stack_size);
/* The mapping of a deque of `slots` usable slots (one more, page-rounded). */
size_t weft_deque_bytes(size_t slots);
void *weft_map(size_t bytes, size_t guard_below, size_t guard_above, int placement);
void weft_unmap(void *usable, size_t bytes, size_t guard_below, size_t guard_above);
size_t weft_page_size(void);
/* The SIGSEGV handler that explains stack overflows: counted, shared by
 * the fork-join pool and work pool runs (the first install installs it,
 * the last remove restores the previous one); forget: in a forked child. */
int weft_overflow_handler_install(void);
void weft_overflow_handler_remove(void);
void weft_overflow_handler_forget(void);
/* A thread other than a fork-join worker that runs on a stack of weft's
 * (a work pool worker): while weft_tls_stack points to its record, an
 * overflow into the guard is explained as on `who` `id`, with `raise`
 * saying how to make the stack larger. */
typedef struct weft_thread_stack {
    void *guard_lo, *lo; /* the guard is [guard_lo, lo), the stack [lo, lo + size) */
    size_t size;
    const char *who;
    unsigned id;
    const char *raise;
} weft_thread_stack;
extern __thread const weft_thread_stack *weft_tls_stack __attribute__((tls_model("initial-exec")));
int weft_altstack_setup(void **mem);
void weft_altstack_teardown(void *mem);

#endif
