// SPDX-License-Identifier: Apache-2.0
/* The runtime side of the fork-join core (fork_join.c): declared where
 * the inline code that calls it is, in weft/bits/fork_join.h. Not
 * installed. */
#ifndef WEFT_RUNTIME_FORK_JOIN_H
#define WEFT_RUNTIME_FORK_JOIN_H

#include <weft/bits/fork_join.h>

#endif
