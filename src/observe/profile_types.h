// SPDX-License-Identifier: Apache-2.0
/* The profiler's task types (profile_types.c); the registration,
 * weft__profile_register, is declared in weft/bits/observe.h for the
 * inline hooks.  Not installed. */
#ifndef WEFT_OBSERVE_PROFILE_TYPES_H
#define WEFT_OBSERVE_PROFILE_TYPES_H

#include <stdint.h>

#include <weft/weft.h>

#if WEFT_PROFILE
/* The name of type id (NULL: none registered with it). */
const char *weft__profile_type_name(uint32_t id);
/* The number of type ids in use (all of them once the last, for the types
 * past the table, is). */
uint32_t weft__profile_types_in_use(void);
/* In a child after fork(): the lock is re-initialised. */
void weft__profile_types_forget_in_child(void);
#endif

#endif
