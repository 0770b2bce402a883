// SPDX-License-Identifier: Apache-2.0
/* Calling a function on another stack: a RUN from a thread outside the
 * pool runs its task on a stack of weft's (docs/sleep.md, "RUN on the
 * calling thread"), so that nothing depends on the caller's stack size.
 * Not installed. */
#ifndef WEFT_SYS_STACK_CALL_H
#define WEFT_SYS_STACK_CALL_H

#include <stddef.h>

/* Calls fn(arg) with the stack pointer at the top of [stack_lo, stack_lo +
 * size) and returns when fn returns, back on the caller's stack.  The
 * callee may not leave by longjmp.  Tells AddressSanitizer about both
 * switches (its fake stacks and no-return handling need the bounds). */
void weft__call_on_stack(void (*fn)(void *), void *arg, void *stack_lo, size_t size);

#endif
