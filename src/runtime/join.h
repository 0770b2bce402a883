// SPDX-License-Identifier: Apache-2.0
/* A SYNC whose task was stolen (join.c), and a SYNC or DROP with nothing
 * to join.  Both are services the schedulers call, so sched_services.h
 * declares them (weft__join_stolen, weft_sync_slot_check).  Not
 * installed. */
#ifndef WEFT_RUNTIME_JOIN_H
#define WEFT_RUNTIME_JOIN_H

#include <weft/weft.h>

#include "runtime/sched_services.h"

#endif
