// SPDX-License-Identifier: Apache-2.0
/* A guard for deep recursion on runtime-made threads.  UTS's flags can
 * describe trees deeper than any stack; uts-seq stops with a message
 * rather than crash, and so do the peers: a kernel compares its frame
 * address with the lowest address its thread may use. */
#ifndef WEFT_PEER_STACK_H
#define WEFT_PEER_STACK_H

#include <stdint.h>

#include "peer.h"

/* Space kept free below the guard for the runtime's own frames (a thread
 * waiting for a join runs other tasks, scheduler frames included). */
#define PEER_STACK_MARGIN ((uintptr_t)1 << 20)

PEER_BEGIN_DECLS

/* The lowest frame address the calling thread may use: its stack's lowest
 * address plus PEER_STACK_MARGIN.  Stacks grow down on every platform
 * weft targets.  Exits with a message if the stack cannot be found.  A
 * kernel caches it per thread (it costs a system call). */
uintptr_t peer_stack_floor(void);

/* Prints that a tree is deeper than the worker stacks allow, and exits 1. */
void peer_too_deep(const char *what, long depth);

PEER_END_DECLS

#endif
