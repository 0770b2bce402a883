// SPDX-License-Identifier: Apache-2.0
/* weft's C API and a Lace API nested in each other on one worker, in both
 * orders, at 1, 2 and 3 workers; the C++ API and the Lace API likewise
 * (lace_mixing.cpp).  Built once against Lace 1's lace.h (1.6) and once
 * against Lace 2's (a program links one of them).  A Lace task run from a
 * weft task (weft SPAWNs pending beneath it) must run at the top of the
 * deque and, in Lace 2, leave the worker's record as it found it for the
 * Lace task further out; a weft RUN from a Lace task must run above the
 * Lace SPAWNs pending beneath it. */
#include <lace.h>

#include <weft/weft.h>

#include "check.h"
#include "mixing/mixing.h"

WEFT_TASK_1(long, wfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(wfib, n - 1);
    long b = WEFT_CALL(wfib, n - 2);
    return WEFT_SYNC(wfib) + b;
}

#if LACE_VERSION_MAJOR >= 2
/* Lace 2: a body takes the worker; NAME() runs a task from anywhere. */
#define LACE_ENTER(NAME, ...) NAME(__VA_ARGS__)
#define LACE_DECLARE(NAME, T) TASK(long, NAME, T, a_)
#define LACE_DEFINE(NAME, T, a) long NAME##_CALL(lace_worker *lw, T a)
#define LSPAWN(NAME, ...) NAME##_SPAWN(lw, __VA_ARGS__)
#define LCALL(NAME, ...) NAME##_CALL(lw, __VA_ARGS__)
#define LSYNC(NAME) NAME##_SYNC(lw)
#else
/* Lace 1: SPAWN, CALL and SYNC with the hidden context; RUN from anywhere. */
#define LACE_ENTER(NAME, ...) RUN(NAME, __VA_ARGS__)
#define LACE_DECLARE(NAME, T) TASK_DECL_1(long, NAME, T);
#define LACE_DEFINE(NAME, T, a) TASK_IMPL_1(long, NAME, T, a)
#define LSPAWN(NAME, ...) SPAWN(NAME, __VA_ARGS__)
#define LCALL(NAME, ...) CALL(NAME, __VA_ARGS__)
#define LSYNC(NAME) SYNC(NAME)
#endif

LACE_DECLARE(lfib, int)
LACE_DEFINE(lfib, int, n)
{
    if (n < 2)
        return n;
    LSPAWN(lfib, n - 1);
    long b = LCALL(lfib, n - 2);
    return LSYNC(lfib) + b;
}

/* Lace inside weft: the Lace task with one, then two weft tasks pending. */
WEFT_TASK_1(long, weft_calls_lace, int, n)
{
    long a = LACE_ENTER(lfib, n);
    WEFT_SPAWN(wfib, n);
    long b = LACE_ENTER(lfib, n);
    WEFT_SPAWN(wfib, n - 1);
    long c = LACE_ENTER(lfib, n);
    long d = WEFT_SYNC(wfib);
    return a + b + c + d + WEFT_SYNC(wfib);
}

/* weft inside Lace: RUN with one, then two Lace tasks pending. */
LACE_DECLARE(lace_calls_weft, int)
LACE_DEFINE(lace_calls_weft, int, n)
{
    long a = WEFT_RUN(wfib, n);
    LSPAWN(lfib, n);
    long b = WEFT_RUN(wfib, n);
    LSPAWN(lfib, n - 1);
    long c = WEFT_RUN(wfib, n);
    long d = LSYNC(lfib);
    return a + b + c + d + LSYNC(lfib);
}

/* The two alternating, d levels deep: each level has a task of its own API
 * pending beneath the call into the other and spawns one after it. */
LACE_DECLARE(lace_chain, int)
WEFT_TASK_1(long, weft_chain, int, d)
{
    if (d == 0)
        return LACE_ENTER(lfib, MIX_N);
    WEFT_SPAWN(wfib, MIX_N);
    long a = LACE_ENTER(lace_chain, d - 1);
    WEFT_SPAWN(wfib, MIX_N - 1);
    long b = LACE_ENTER(lace_chain, d - 1);
    long c = WEFT_SYNC(wfib);
    return a + b + c + WEFT_SYNC(wfib);
}

LACE_DEFINE(lace_chain, int, d)
{
    if (d == 0)
        return WEFT_RUN(wfib, MIX_N);
    LSPAWN(lfib, MIX_N);
    long a = WEFT_RUN(weft_chain, d - 1);
    LSPAWN(lfib, MIX_N - 1);
    long b = WEFT_RUN(weft_chain, d - 1);
    long c = LSYNC(lfib);
    return a + b + c + LSYNC(lfib);
}

/* The API's "head of this worker" from a weft task is the deque's top. */
WEFT_TASK_0(int, head_under_weft)
{
    WEFT_SPAWN(wfib, 3);
#if LACE_VERSION_MAJOR >= 2
    int ok = (weft_task *)lace_get_head() == weft_head;
#else
    int ok = (weft_task *)lace_get_head(lace_get_worker()) == weft_head;
#endif
    WEFT_SYNC(wfib);
    return ok;
}

int main(void)
{
    long n3 = 3 * mix_fib(MIX_N) + mix_fib(MIX_N) + mix_fib(MIX_N - 1);
    long chain = mix_chain(MIX_DEPTH);
    for (unsigned workers = 1; workers <= 3; workers++) {
#if LACE_VERSION_MAJOR >= 2
        lace_start(workers, 0, 0);
#else
        lace_start(workers, 0);
#endif
        for (int round = 0; round < 3; round++) {
            long got = WEFT_RUN(weft_calls_lace, MIX_N);
            CHECK(got == n3, "%u workers: Lace inside weft: %ld, want %ld", workers, got, n3);
            got = LACE_ENTER(lace_calls_weft, MIX_N);
            CHECK(got == n3, "%u workers: weft inside Lace: %ld, want %ld", workers, got, n3);
            got = WEFT_RUN(weft_chain, MIX_DEPTH);
            CHECK(got == chain, "%u workers: weft-Lace chain: %ld, want %ld", workers, got, chain);
            got = LACE_ENTER(lace_chain, MIX_DEPTH);
            CHECK(got == chain, "%u workers: Lace-weft chain: %ld, want %ld", workers, got, chain);
            CHECK(WEFT_RUN(head_under_weft) == 1, "%u workers: the head under a weft task",
                  workers);
        }
        CHECK(mixing_cpp_with_lace() == 0, "%u workers: the C++ API and the Lace API", workers);
        lace_stop();
        printf("ok: %u workers\n", workers);
    }
    printf("test_lace_mixing: all passed\n");
    return 0;
}
