// SPDX-License-Identifier: Apache-2.0
/* The Chase-Lev protocol of <weft/bits/chase_lev.h> (used by the work
 * pool's Chase-Lev queues and by the Chase-Lev scheduler) under x86-TSO,
 * simulated: the header's own functions run with their atomic operations
 * replaced by a model in which each simulated thread has a FIFO store
 * buffer.  A plain store waits in its thread's buffer, invisible to the
 * others, until a seq_cst fence or a locked instruction (CAS, seq_cst
 * store) drains it or the machine drains it on its own; a load sees the
 * thread's own newest buffered store first.  This is the one reordering
 * x86 makes (a store passing a later load), and the one the take's
 * seq_cst fence exists for: without it, the owner's lowered bottom can
 * wait in its buffer while two thieves, still seeing the old bottom, steal
 * the entry the owner takes without a CAS.
 *
 * Every interleaving of the owner's take (two steps: lower bottom and read
 * top; then claim or restore), two thieves' steals and the owner's buffer
 * draining on its own at any point is run on deques of 1 to 3 entries;
 * each must hand every entry to at most one taker, and leave top and
 * bottom agreeing with what was taken.  The model check of the same
 * protocol under weaker orders is verification/chase_lev.pml. */
#include <weft/bits/lang.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "check.h"

enum { OWNER, THIEF_A, THIEF_B, N_THREADS };
enum { BUFFER_CAP = 4 };

typedef struct {
    WEFT_ATOMIC(int64_t) * where;
    int64_t value;
} buffered_store;

static int running; /* the simulated thread whose step runs now */
static buffered_store buffers[N_THREADS][BUFFER_CAP];
static int buffered[N_THREADS];

/* The simulation is single-threaded: the real operations below only move
 * values; relaxed suffices for all of them. */
static void drain(int thread)
{
    for (int i = 0; i < buffered[thread]; i++)
        atomic_store_explicit(buffers[thread][i].where, buffers[thread][i].value,
                              memory_order_relaxed); /* the simulated memory */
    buffered[thread] = 0;
}

/* The simulated memory itself, seen from outside every thread. */
static void memory_set(WEFT_ATOMIC(int64_t) * where, int64_t value)
{
    atomic_store_explicit(where, value, memory_order_relaxed); /* the simulated memory */
}

static int64_t memory_get(WEFT_ATOMIC(int64_t) * where)
{
    return atomic_load_explicit(where, memory_order_relaxed); /* the simulated memory */
}

static void tso_store(WEFT_ATOMIC(int64_t) * where, int64_t value, memory_order order)
{
    if (order == memory_order_seq_cst) { /* a locked store: drains first */
        drain(running);
        atomic_store_explicit(where, value, memory_order_relaxed); /* the simulated memory */
        return;
    }
    CHECK(buffered[running] < BUFFER_CAP, "store buffer of thread %d full", running);
    buffers[running][buffered[running]++] = (buffered_store){where, value};
}

static int64_t tso_load(WEFT_ATOMIC(int64_t) * where)
{
    for (int i = buffered[running] - 1; i >= 0; i--)
        if (buffers[running][i].where == where)
            return buffers[running][i].value;
    return atomic_load_explicit(where, memory_order_relaxed); /* the simulated memory */
}

static void tso_fence(memory_order order)
{
    if (order == memory_order_seq_cst) /* mfence; the others cost nothing on x86 */
        drain(running);
}

static bool tso_cas(WEFT_ATOMIC(int64_t) * where, int64_t *expected, int64_t desired)
{
    drain(running); /* lock cmpxchg drains the buffer */
    /* The simulated memory; the simulation has one real thread. */
    return atomic_compare_exchange_strong_explicit(where, expected, desired, memory_order_relaxed,
                                                   memory_order_relaxed);
}

/* The header below uses these in place of <stdatomic.h>'s. */
#undef atomic_store_explicit
#undef atomic_load_explicit
#undef atomic_thread_fence
#undef atomic_compare_exchange_strong_explicit
#define atomic_store_explicit(where, value, order) tso_store((where), (value), (order))
#define atomic_load_explicit(where, order) ((void)(order), tso_load(where))
#define atomic_thread_fence(order) tso_fence(order)
#define atomic_compare_exchange_strong_explicit(where, expected, desired, success, failure) \
    ((void)(success), (void)(failure), tso_cas((where), (expected), (desired)))

#include <weft/bits/chase_lev.h>

/* ---- one deque, its takers, and the steps of one interleaving ---- */

enum { MAX_ENTRIES = 3 };

static WEFT_ATOMIC(int64_t) top, bottom;
static int taken_by[MAX_ENTRIES][N_THREADS]; /* entry -> how often each took it */

/* The owner's take, in two steps; what step one decided is kept here. */
static int64_t take_b, take_t;

static void owner_take_begin(void)
{
    running = OWNER;
    take_b = tso_load(&bottom) - 1;
    take_t = weft__cl_take_begin(&bottom, &top, take_b);
}

static void owner_take_end(void)
{
    running = OWNER;
    if (take_b < take_t) { /* empty: a thief took the last entry */
        weft__cl_restore(&bottom, take_b + 1);
    } else if (take_b == take_t) { /* the last entry: race the thieves for it */
        int64_t t = take_t;
        if (weft__cl_claim(&top, &t, t + 1))
            taken_by[take_b][OWNER]++;
        weft__cl_restore(&bottom, take_b + 1);
    } else { /* more than one left: the entry is the owner's without a CAS */
        taken_by[take_b][OWNER]++;
    }
}

static void thief_steal(int thief)
{
    running = thief;
    int64_t t;
    int64_t b = weft__cl_steal_window(&top, &bottom, &t);
    if (t < b && weft__cl_claim(&top, &t, t + 1))
        taken_by[t][thief]++;
}

/* The events of one interleaving: the owner's two steps in order, each
 * thief's steal, and the owner's buffer draining on its own (only useful
 * after the owner stored). */
enum { EV_TAKE_BEGIN, EV_TAKE_END, EV_STEAL_A, EV_STEAL_B, EV_DRAIN, N_EVENTS };

static unsigned long interleavings, failures;

static void run_one(int entries, const int *order)
{
    memory_set(&top, 0);
    memory_set(&bottom, entries);
    memset(taken_by, 0, sizeof taken_by);
    memset(buffered, 0, sizeof buffered);
    for (int i = 0; i < N_EVENTS; i++) {
        switch (order[i]) {
        case EV_TAKE_BEGIN: owner_take_begin(); break;
        case EV_TAKE_END: owner_take_end(); break;
        case EV_STEAL_A: thief_steal(THIEF_A); break;
        case EV_STEAL_B: thief_steal(THIEF_B); break;
        case EV_DRAIN: drain(OWNER); break;
        }
    }
    for (int th = 0; th < N_THREADS; th++)
        drain(th);
    interleavings++;
    int taken = 0;
    bool ok = true;
    for (int e = 0; e < entries; e++) {
        int times = 0;
        for (int th = 0; th < N_THREADS; th++)
            times += taken_by[e][th];
        if (times > 1) {
            ok = false;
            fprintf(stderr, "%d entries, events", entries);
            for (int i = 0; i < N_EVENTS; i++)
                fprintf(stderr, " %d", order[i]);
            fprintf(stderr, ": entry %d taken %d times (owner %d, thieves %d and %d)\n", e, times,
                    taken_by[e][OWNER], taken_by[e][THIEF_A], taken_by[e][THIEF_B]);
        }
        taken += times;
    }
    /* Thieves take from the top, the owner from the bottom: what is left
     * is [top, bottom), and nothing taken is counted there. */
    int64_t t = memory_get(&top);
    int64_t b = memory_get(&bottom);
    int64_t left = b > t ? b - t : 0;
    if (ok && left + taken != entries) {
        ok = false;
        fprintf(stderr, "%d entries: %d taken, top %lld bottom %lld\n", entries, taken,
                (long long)t, (long long)b);
    }
    failures += !ok;
}

/* Every order of the events with the owner's begin before its end. */
static void permute(int entries, int *order, int k)
{
    if (k == N_EVENTS) {
        int begin = -1, end = -1;
        for (int i = 0; i < N_EVENTS; i++) {
            if (order[i] == EV_TAKE_BEGIN)
                begin = i;
            if (order[i] == EV_TAKE_END)
                end = i;
        }
        if (begin < end)
            run_one(entries, order);
        return;
    }
    for (int i = k; i < N_EVENTS; i++) {
        int swap = order[k];
        order[k] = order[i];
        order[i] = swap;
        permute(entries, order, k + 1);
        order[i] = order[k];
        order[k] = swap;
    }
}

int main(void)
{
    for (int entries = 1; entries <= MAX_ENTRIES; entries++) {
        int order[N_EVENTS];
        for (int i = 0; i < N_EVENTS; i++)
            order[i] = i;
        permute(entries, order, 0);
    }
    CHECK(failures == 0, "%lu of %lu interleavings under TSO hand an entry to two takers", failures,
          interleavings);
    printf("ok: %lu interleavings under simulated TSO, each entry taken at most once\n",
           interleavings);
    return 0;
}
