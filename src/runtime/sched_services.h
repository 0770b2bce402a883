// SPDX-License-Identifier: Apache-2.0
/* What the runtime offers a scheduler: the reverse half of the seam
 * (sched.h is what a scheduler implements for the runtime, and
 * include/weft/bits/sched.h its owner-side fast paths).  A scheduler in
 * src/sched/<name>/ includes this header and nothing else of the
 * runtime's; the modules it names are these:
 *   diagnostics.h  weft__fatal, for misuse
 *   perturb.h      WEFT_RACE_POINT, at every racy step
 *   join.h         weft__join_stolen, from the SYNC slow path
 *   sleep.h        waking sleepers when tasks become stealable, the sleep
 *                  words of workers a scheduler hands work to
 *   steal.h        running a task taken from another worker
 *   state.h        the pool's workers
 * and sys/ for the clock, the CPU and random numbers.  Not installed. */
#ifndef WEFT_RUNTIME_SCHED_SERVICES_H
#define WEFT_RUNTIME_SCHED_SERVICES_H

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/join.h"
#include "runtime/perturb.h"
#include "runtime/sched.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "runtime/steal.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/rng.h"

#endif
