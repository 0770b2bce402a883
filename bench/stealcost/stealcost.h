// SPDX-License-Identifier: Apache-2.0
/* stealcost: the steal-cost micro-benchmark of Wool's Table III (Faxén
 * 2010, section IV-D1, "methodology of Podobas et al."), shared by
 * stealcost-seq.c and stealcost-weft.c: the leaf computation, clocks,
 * medians and the command line.
 *
 *   stealcost-seq  <leaf-iterations> <repetitions>
 *   stealcost-weft -w <workers> <leaf-iterations> <repetitions>
 *
 * Steal + join.  A computation C (stealcost_leaf: leaf-iterations dependent
 * additions in a register, as in stress) is timed alone on one worker, and
 * then a binary tree of tasks of height k = floor(log2 workers) whose 2^k
 * leaves each run C (leaf j computes stealcost_leaf(n, j)) is timed on the
 * pool.  With every leaf on its own worker the tree would take as long as
 * C; what it takes beyond that is the cost of distributing the leaves
 * (steals) and joining them.  At 2 workers (k = 1) that is one steal plus
 * one join: Table III's column "2".  Each repetition times C alone and
 * then the tree, back to back inside one task (so the other workers are
 * searching for work, not asleep); the report is the median over the
 * repetitions in which the 2^k leaves did run on 2^k different workers
 * (their number is printed too).
 *
 * Inlined spawn + sync (Table III's "Inlined" column, Table II's method):
 * on a pool of one worker, a loop of STEALCOST_INLINED_PAIRS spawn/sync
 * pairs of a task whose body calls a trivial non-inlined function, minus
 * the same loop calling that function directly; per pair, median over the
 * repetitions.
 *
 * The sequential binary times C alone, repetitions times.
 * Output lines: "leaf: <ns> ns, <cycles> cycles" (median C alone),
 * "steal+join: <ns> ns, <cycles> cycles" and "inlined spawn+sync: <ns> ns,
 * <cycles> cycles" (weft only), "Time: <seconds>" (all repetitions of the
 * timed loop).  Cycles are time-stamp-counter ticks (__rdtsc, x86 only;
 * elsewhere "cycles: n/a").
 * Checks: every C returns j + n(n-1)/2 (modulo 2^64); a tree returns the
 * sum over its leaves; the inlined loops return their iteration count.
 */
#ifndef WEFT_BENCH_STEALCOST_H
#define WEFT_BENCH_STEALCOST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define STEALCOST_HAVE_TSC 1
static inline uint64_t stealcost_ticks(void) { return __rdtsc(); }
#else
#define STEALCOST_HAVE_TSC 0
static inline uint64_t stealcost_ticks(void) { return 0; }
#endif

#define STEALCOST_MAX_LEAF_ITERATIONS (1L << 32)
#define STEALCOST_MAX_REPETITIONS 1000000L
#define STEALCOST_INLINED_PAIRS 16384

/* C: n dependent additions in a register; the empty asm keeps the loop
 * from being folded into its closed form. */
static inline uint64_t stealcost_leaf(uint64_t n, uint64_t j)
{
    uint64_t x = j;
    for (uint64_t i = 0; i < n; i++) {
        x += i;
        __asm__ __volatile__("" : "+r"(x));
    }
    return x;
}

/* What stealcost_leaf(n, j) returns: j + n(n-1)/2 modulo 2^64. */
static inline uint64_t stealcost_leaf_expected(uint64_t n, uint64_t j)
{
    uint64_t triangle = (n == 0) ? 0 : (n % 2 == 0) ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
    return j + triangle;
}

static inline uint64_t stealcost_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef struct stealcost_args {
    uint64_t leaf_iterations;
    long repetitions;
} stealcost_args;

static inline stealcost_args stealcost_parse(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 2, 2, usage,
                      "  leaf-iterations: additions in the computation C, in [1, %ld]\n"
                      "  repetitions: timings to take the median of, in [1, %ld]\n",
                      STEALCOST_MAX_LEAF_ITERATIONS, STEALCOST_MAX_REPETITIONS);
    stealcost_args a;
    a.leaf_iterations = (uint64_t)bench_arg_long(argv[0], "leaf-iterations", argv[1], 1,
                                                 STEALCOST_MAX_LEAF_ITERATIONS);
    a.repetitions = bench_arg_long(argv[0], "repetitions", argv[2], 1, STEALCOST_MAX_REPETITIONS);
    return a;
}

static inline int stealcost_compare(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median of v[0..n-1] (sorts v); n >= 1. */
static inline double stealcost_median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, stealcost_compare);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static inline double *stealcost_samples(long n)
{
    double *v = malloc((size_t)n * sizeof(double));
    BENCH_CHECK(v != NULL, "cannot allocate %ld samples", n);
    return v;
}

/* Prints "<what>: <ns> ns, <cycles> cycles" (cycles "n/a" without a TSC). */
static inline void stealcost_print(const char *what, double ns, double cycles, int decimals)
{
    if (STEALCOST_HAVE_TSC)
        printf("%s: %.*f ns, %.*f cycles\n", what, decimals, ns, decimals, cycles);
    else
        printf("%s: %.*f ns, cycles: n/a\n", what, decimals, ns);
}

#endif
