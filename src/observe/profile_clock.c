// SPDX-License-Identifier: Apache-2.0
/* The profiler's clocks (profile_clock.h): the cycle counter calibrated
 * against the monotonic clock, and the thread's CPU clock, which long
 * strands are checked against so that time off the CPU is not counted as
 * work.  The inline hooks (include/weft/bits/observe.h) call
 * weft__profile_sync and weft__profile_long_strand. */
#include "observe/profile_clock.h"

#include "sys/clock.h"
#include "observe/count.h"

#include <pthread.h>
#include <time.h>

#if WEFT_PROFILE

static pthread_once_t calibrate_once = PTHREAD_ONCE_INIT;
static uint64_t calib_cycles0, calib_ns0;
static double calib_ticks_per_ns = 1.0;

/* A reading of both clocks at one moment: the cycle counter read on both
 * sides of the monotonic clock, the closest pair of a few (a thread that
 * loses its CPU between two reads would otherwise skew the rate by the
 * time it waited). */
static void clock_pair(uint64_t *cycles, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    *cycles = *ns = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t c1 = weft_cycles(), n = weft_now_ns(), c2 = weft_cycles();
        if (c2 - c1 < best) {
            best = c2 - c1;
            *cycles = c1 + (c2 - c1) / 2;
            *ns = n;
        }
    }
}

/* Counts cycles against the monotonic clock for a few milliseconds, once
 * per process: enough to convert a burden and the CPU clock to cycles at
 * start; reports use the whole time since (ticks_per_ns). */
static void calibrate(void)
{
    clock_pair(&calib_cycles0, &calib_ns0);
    uint64_t ns = 0, cycles = 0;
    do
        clock_pair(&cycles, &ns);
    while (ns - calib_ns0 < 5000000u);
    calib_ticks_per_ns = (double)(cycles - calib_cycles0) / (double)(ns - calib_ns0);
    if (!(calib_ticks_per_ns > 0.0))
        calib_ticks_per_ns = 1.0;
}

double weft__profile_ticks_per_ns(void)
{
    pthread_once(&calibrate_once, calibrate);
    uint64_t ns = 0, cycles = 0;
    clock_pair(&cycles, &ns);
    if (ns - calib_ns0 < 100000000u) /* under 0.1 s: the first measurement */
        return calib_ticks_per_ns;
    return (double)(cycles - calib_cycles0) / (double)(ns - calib_ns0);
}

double weft__profile_calibrated(void)
{
    pthread_once(&calibrate_once, calibrate);
    return calib_ticks_per_ns;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Names the thread whose CPU clock a worker's sync reading is (a thread
 * outside the pool may run a RUN as a borrowed worker). */
static __thread char cpu_clock_tag;

/* The pair of readings is the CPU clock and the cycle count read before
 * it (`now`, or read here when 0), and the next strand starts there: a
 * thread the kernel deschedules in the CPU clock's system call (on a busy
 * machine, where a pending preemption is taken: the next system call after
 * a long strand) waits after both readings, inside the next strand, whose
 * check then finds and takes off that wait.  Paired with a cycle count
 * read after the CPU clock, the wait fell between the readings and was
 * taken off the strand that had ended before it. */
void weft__profile_sync(weft_profile_worker *p, uint64_t now)
{
    if (now == 0)
        now = weft_cycles();
    p->sync_cpu_ns = thread_cpu_ns();
    p->sync_cycles = now;
    p->sync_thread = &cpu_clock_tag;
    weft__count_update_burden(p);
}

/* After a pause no strand ended where the reading is made, so none is
 * charged it: the next starts after it, at the cycle count the reading is
 * paired with.  Its own time (a system call, 0.7 us on a KVM guest) and a
 * descheduling in it fall before the pair, on no strand; paired with
 * `now` instead, a RUN from outside of a task of a few nanoseconds read
 * as a microsecond of work. */
uint64_t weft__profile_sync_resume(weft_profile_worker *p, uint64_t now)
{
    weft__profile_sync(p, now);
    p->sync_cycles = weft_cycles();
    return p->sync_cycles;
}

/* Since the last reading of the CPU clock (a long strand's end or a long
 * pause's), the thread ran only strands shorter than long_cycles and
 * pauses shorter than that: the wall time it spent off the CPU since then
 * was spent in this strand, short of at most those short pieces. */
uint64_t weft__profile_long_strand(weft_profile_worker *p, uint64_t now, uint64_t d)
{
    (void)now;
    uint64_t cpu_then = p->sync_cpu_ns, cycles_then = p->sync_cycles;
    bool known = p->sync_thread == &cpu_clock_tag && cpu_then != 0;
    weft__profile_sync(p, now);
    uint64_t cpu = p->sync_cpu_ns, cycles = p->sync_cycles;
    if (!known || cpu < cpu_then || cycles < cycles_then)
        return d; /* no earlier reading on this thread: nothing to compare */
    uint64_t wall = cycles - cycles_then;
    uint64_t on = (uint64_t)((double)(cpu - cpu_then) * calib_ticks_per_ns);
    if (on >= wall)
        return d;
    uint64_t off = wall - on;
    if (off > d)
        off = d;
    weft_profile_owner_add(&p->off_cpu, off);
    weft_profile_owner_add(&p->off_cpu_strands, 1);
    return d - off;
}

bool weft__profile_clock_is_this_threads(const weft_profile_worker *p)
{
    return p->sync_thread == &cpu_clock_tag;
}

#endif
