// SPDX-License-Identifier: Apache-2.0
/* What the C and C++ halves of the API-mixing tests share: the expected
 * answers, and the C++ half's entry (test_lace_mixing_*, test_lace2_mixing).
 * Every scenario enters one API from a task of another with tasks of the
 * outer API still pending beneath, calls in again after a further SPAWN,
 * and nests the two APIs several levels deep, so that a layer that ran at a
 * stale deque head would overwrite a pending task or join the wrong one. */
#ifndef WEFT_TESTS_MIXING_H
#define WEFT_TESTS_MIXING_H

/* The fib argument of every leaf and the depth of the alternating chains. */
#define MIX_N 14
#define MIX_DEPTH 4

#ifdef __cplusplus
extern "C" {
#endif
static inline long mix_fib(int n) { return n < 2 ? n : mix_fib(n - 1) + mix_fib(n - 2); }
/* An alternating chain of depth d, each level with one task pending
 * beneath the call into the other API and one spawned after it: the
 * answer every scenario's chain computes. */
static inline long mix_chain(int d)
{
    if (d == 0)
        return mix_fib(MIX_N);
    return mix_fib(MIX_N) + 2 * mix_chain(d - 1) + mix_fib(MIX_N - 1);
}
/* The C++ half: the C++ API and the Lace API of this program nested in
 * each other in both orders, on the pool that is running; 0 if every
 * answer was right, else the number of wrong ones (each also printed). */
int mixing_cpp_with_lace(void);
#ifdef __cplusplus
}
#endif

#endif
