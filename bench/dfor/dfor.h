// SPDX-License-Identifier: Apache-2.0
/* dfor: a divide-and-conquer parallel for loop (as Acar, Charguéraud and
 * Rainey schedule parallel loops: split the index range in halves down to
 * a grain, rather than cutting it into 8P static chunks), over a small
 * fixed loop body.  Shared by dfor-seq.c and dfor-weft.c.
 *
 *   dfor-seq <n> <iterations-per-body> <repetitions> [grain]
 *   dfor-weft [-w workers] <n> <iterations-per-body> <repetitions> [grain]
 *
 * Data: an array a[0..n) of unsigned 64-bit words, a[i] = i initially.
 * One repetition applies the body to every index:
 *     a[i] = body(a[i], i)
 * where body runs `iterations-per-body` steps of
 *     x = x ^ (x >> 29);
 *     x = x * 0xD6E8FEB86659FD93 + i;      (wrapping, mod 2^64)
 * (four arithmetic operations a step, one dependent chain per index).
 * The repetitions run one after the other; within one, every index is
 * independent.  dfor-weft runs each repetition as parallel_for(0, n):
 * a range longer than the grain (default 1: a task per index) is split at
 * its middle, the upper half spawned and the lower half called.  dfor-seq
 * runs each repetition as a plain loop (what a parallel for loop
 * compiles to without a scheduler); it accepts and checks the grain so
 * both take the same command line.
 *
 * Output line: "dfor(<n>, <iterations>, <repetitions>): checksum <hex>",
 * the wrapping sum of a[i] over all i as 16 hex digits.
 *
 * Check: every a[i] equals the value computed index by index (all
 * repetitions of index i in a row, a different loop order from the timed
 * run); a difference prints "FAILED: a[i] = ..., expected ..." and exits 1.
 */
#ifndef WEFT_BENCH_DFOR_H
#define WEFT_BENCH_DFOR_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define DFOR_MUL UINT64_C(0xD6E8FEB86659FD93)
#define DFOR_MAX_N (1L << 31)
#define DFOR_MAX_ITERATIONS 100000000L
#define DFOR_MAX_REPETITIONS 100000000L

typedef struct dfor_params {
    long n, iterations, repetitions, grain;
} dfor_params;

/* The loop body for index i, applied to its current value x. */
static inline uint64_t dfor_body(uint64_t x, uint64_t i, long iterations)
{
    for (long k = 0; k < iterations; k++) {
        x ^= x >> 29;
        x = x * DFOR_MUL + i;
    }
    return x;
}

/* Applies the body to a[lo..hi): a leaf of the parallel loop. */
static inline void dfor_leaf(uint64_t *a, long lo, long hi, long iterations)
{
    for (long i = lo; i < hi; i++)
        a[i] = dfor_body(a[i], (uint64_t)i, iterations);
}

static inline dfor_params dfor_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 3, 4, usage,
                      "  n: loop length; iterations: body steps per index; repetitions: loops\n"
                      "  run one after the other; grain: indices per leaf task (default 1)\n");
    dfor_params p;
    p.n = bench_arg_long(argv[0], "n", argv[1], 1, DFOR_MAX_N);
    p.iterations = bench_arg_long(argv[0], "iterations-per-body", argv[2], 0, DFOR_MAX_ITERATIONS);
    p.repetitions = bench_arg_long(argv[0], "repetitions", argv[3], 1, DFOR_MAX_REPETITIONS);
    p.grain = argc == 5 ? bench_arg_long(argv[0], "grain", argv[4], 1, DFOR_MAX_N) : 1;
    return p;
}

static inline uint64_t *dfor_setup(long n)
{
    uint64_t *a = bench_alloc((size_t)n, sizeof(uint64_t), "words");
    for (long i = 0; i < n; i++)
        a[i] = (uint64_t)i;
    return a;
}

static inline void dfor_print(const uint64_t *a, const dfor_params *p)
{
    uint64_t sum = 0;
    for (long i = 0; i < p->n; i++)
        sum += a[i];
    printf("dfor(%ld, %ld, %ld): checksum %016" PRIx64 "\n", p->n, p->iterations, p->repetitions,
           sum);
}

static inline void dfor_check(const uint64_t *a, const dfor_params *p)
{
    for (long i = 0; i < p->n; i++) {
        uint64_t x = (uint64_t)i;
        for (long r = 0; r < p->repetitions; r++)
            x = dfor_body(x, (uint64_t)i, p->iterations);
        BENCH_CHECK(a[i] == x, "a[%ld] = %016" PRIx64 ", expected %016" PRIx64, i, a[i], x);
    }
}

#endif
