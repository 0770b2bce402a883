// SPDX-License-Identifier: Apache-2.0
/* Schedule perturbation (build option WEFT_PERTURB; see perturb.h).
 *
 * At each race point a thread is, with probability p, held up for a
 * moment: a sched_yield, a short spin or a few microseconds' sleep, chosen
 * at random.  On 2 cores with many workers that lets other threads run
 * through the window the point marks, which a normal run almost never
 * does.  p and the seed come from WEFT_PERTURB=<p>[,<seed>] (default
 * 0.05, seed from the clock); a test hook replaces all of this.
 */
#include "runtime/perturb.h"

#include "runtime/diagnostics.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/rng.h"

#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdlib.h>

static const char *const point_names[WEFT_RP_COUNT] = {
    [WEFT_RP_THIEF_BEFORE_CLAIM] = "THIEF_BEFORE_CLAIM",
    [WEFT_RP_THIEF_CLAIMED] = "THIEF_CLAIMED",
    [WEFT_RP_THIEF_LOST] = "THIEF_LOST",
    [WEFT_RP_THIEF_BEFORE_ASK] = "THIEF_BEFORE_ASK",
    [WEFT_RP_OWNER_BEFORE_PUBLISH] = "OWNER_BEFORE_PUBLISH",
    [WEFT_RP_OWNER_PUBLISHED] = "OWNER_PUBLISHED",
    [WEFT_RP_OWNER_BEFORE_RECLAIM] = "OWNER_BEFORE_RECLAIM",
    [WEFT_RP_OWNER_RECLAIMED] = "OWNER_RECLAIMED",
    [WEFT_RP_OWNER_STOLEN_JOINED] = "OWNER_STOLEN_JOINED",
    [WEFT_RP_STEAL_TAKEN] = "STEAL_TAKEN",
    [WEFT_RP_BEFORE_DONE] = "BEFORE_DONE",
    [WEFT_RP_AFTER_DONE] = "AFTER_DONE",
    [WEFT_RP_JOIN_POLL] = "JOIN_POLL",
    [WEFT_RP_SLEEP_BEFORE_ANNOUNCE] = "SLEEP_BEFORE_ANNOUNCE",
    [WEFT_RP_SLEEP_ANNOUNCED] = "SLEEP_ANNOUNCED",
    [WEFT_RP_SLEEP_WILL_WAIT] = "SLEEP_WILL_WAIT",
    [WEFT_RP_WAKE_PEEKED] = "WAKE_PEEKED",
    [WEFT_RP_WAKE_CLAIMED] = "WAKE_CLAIMED",
    [WEFT_RP_INTERRUPT_LEAVE] = "INTERRUPT_LEAVE",
};

const char *weft__race_point_name(weft_race_point_id id)
{
    return (unsigned)id < WEFT_RP_COUNT && point_names[id] ? point_names[id] : "?";
}

/* Probability as a threshold on 32 random bits (0: never), and the seed.
 * Written once by the constructor below, before main and any thread. */
static uint64_t threshold;
static uint64_t seed;
/* Relaxed (load and store): set while no worker runs; thread creation
 * orders it before every worker's loads. */
static _Atomic(weft_race_hook_fn) hook;
/* Relaxed: only makes each thread's seed different. */
static _Atomic uint64_t threads_seeded;

void weft__race_set_hook(weft_race_hook_fn fn)
{
    atomic_store_explicit(&hook, fn, memory_order_relaxed); /* see `hook`: no worker runs */
}

/* WEFT_PERTURB=<p>[,<seed>].  A malformed value is left at the default
 * here; weft_start refuses it with a message (config.c), so no worker runs
 * with it. */
__attribute__((constructor)) static void read_environment(void)
{
    double p = 0.05;
    seed = weft_now_ns();
    const char *s = getenv("WEFT_PERTURB");
    if (s && *s >= '0' && *s <= '9') {
        char *end;
        errno = 0;
        double q = strtod(s, &end);
        bool ok = errno == 0 && end != s && q >= 0.0 && q <= 1.0;
        uint64_t sd = seed;
        if (ok && *end == ',') {
            const char *num = end + 1;
            errno = 0;
            sd = strtoull(num, &end, 10);
            ok = errno == 0 && end != num && *num >= '0' && *num <= '9';
        }
        if (ok && *end == '\0') {
            p = q;
            seed = sd;
        }
    }
    threshold = (uint64_t)(p * 4294967296.0);
}


void weft__race_point(weft_race_point_id id)
{
    weft_race_hook_fn fn = atomic_load_explicit(&hook, memory_order_relaxed); /* see `hook` */
    if (fn) {
        fn(id);
        return;
    }
    static __thread uint64_t rng;
    static __thread bool seeded;
    if (!seeded) {
        uint64_t n = atomic_fetch_add_explicit(&threads_seeded, 1,
                                               memory_order_relaxed); /* see threads_seeded */
        rng = seed ^ (n * 0xD1B54A32D192ED03ULL);
        seeded = true;
    }
    uint64_t r = weft_splitmix64(&rng);
    if ((r & 0xFFFFFFFFu) >= threshold)
        return;
    switch ((r >> 32) & 3) {
    case 0:
    case 1:
        sched_yield(); /* let another runnable thread through the window */
        break;
    case 2:
        for (unsigned i = 0, n = (unsigned)(r >> 40) & 1023; i < n; i++)
            weft_cpu_relax(); /* a short stall that keeps the core */
        break;
    default: {
        /* 1-64 us off the CPU: long enough for the other core to run a
         * whole steal or sync through the window. */
        struct timespec ts = {0, 1000 * (long)(1 + ((r >> 40) & 63))};
        nanosleep(&ts, NULL);
        break;
    }
    }
}
