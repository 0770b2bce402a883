// SPDX-License-Identifier: Apache-2.0
/* pi: Monte Carlo estimate of pi from points in the unit square, the
 * samples split recursively into tasks down to a grain.  Shared by
 * pi-seq.c and pi-weft.c.
 *
 *   pi-seq <samples> <grain>
 *   pi-weft [-w workers] <samples> <grain>
 *
 * Random numbers are counter-based, so the count does not depend on how
 * the samples are split: sample k (k = 0 .. samples-1) is the k-th output
 * of splitmix64 started from state PI_SEED, computed directly from k:
 *     z = PI_SEED + (k + 1) * 0x9E3779B97F4A7C15;          (mod 2^64)
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *     z = z ^ (z >> 31);
 *     x = z >> 33;  y = z & 0x7FFFFFFF;                  (31 bits each)
 * and it is a hit when x*x + y*y < 2^62, i.e. (x, y) / 2^31 lies inside
 * the quarter circle; integer arithmetic, so every port counts the same.
 * The estimate is 4 * hits / samples.
 *
 * pi-weft: a range of more than `grain` samples is split at its middle,
 * the upper half spawned and the lower half called; leaves count their
 * samples in a loop and the counts are added on the way up.  pi-seq
 * counts all samples in one loop (it accepts and checks the grain so both
 * take the same command line).
 *
 * Output line: "pi(<samples>): hits <hits> estimate <4*hits/samples, %.9f>".
 *
 * Check: pi-weft's hit count equals a sequential recount (untimed); for
 * samples >= PI_CHECK_MIN_SAMPLES the estimate is within 1e-2 of pi
 * (more than 6 standard deviations at that size).  Otherwise "FAILED: ..."
 * and exit 1.
 */
#ifndef WEFT_BENCH_PI_H
#define WEFT_BENCH_PI_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define PI_SEED UINT64_C(0x5EED00003141592)
#define PI_MAX_SAMPLES (1L << 50)
#define PI_CHECK_MIN_SAMPLES 1000000L
#define PI_TOLERANCE 1e-2

typedef struct pi_params {
    long samples, grain;
} pi_params;

/* 1 if sample k falls inside the quarter circle. */
static inline long pi_hit(uint64_t k)
{
    uint64_t z = PI_SEED + (k + 1) * UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    z ^= z >> 31;
    uint64_t x = z >> 33, y = z & UINT64_C(0x7FFFFFFF);
    return x * x + y * y < (UINT64_C(1) << 62);
}

/* Hits among samples [lo, hi): a leaf. */
static inline long pi_count(long lo, long hi)
{
    long hits = 0;
    for (long k = lo; k < hi; k++)
        hits += pi_hit((uint64_t)k);
    return hits;
}

static inline pi_params pi_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 2, 2, usage,
                      "  samples in [1, %ld]; grain: samples per leaf task, >= 1\n",
                      PI_MAX_SAMPLES);
    pi_params p;
    p.samples = bench_arg_long(argv[0], "samples", argv[1], 1, PI_MAX_SAMPLES);
    p.grain = bench_arg_long(argv[0], "grain", argv[2], 1, PI_MAX_SAMPLES);
    return p;
}

static inline double pi_estimate(const pi_params *p, long hits)
{
    return 4.0 * (double)hits / (double)p->samples;
}

static inline void pi_print(const pi_params *p, long hits)
{
    printf("pi(%ld): hits %ld estimate %.9f\n", p->samples, hits, pi_estimate(p, hits));
}

/* The estimate is close to pi for many samples. */
static inline void pi_check_estimate(const pi_params *p, long hits)
{
    BENCH_CHECK(hits >= 0 && hits <= p->samples, "%ld hits out of %ld samples", hits, p->samples);
    if (p->samples >= PI_CHECK_MIN_SAMPLES)
        BENCH_CHECK(fabs(pi_estimate(p, hits) - M_PI) <= PI_TOLERANCE,
                    "estimate %.9f is not within %g of pi", pi_estimate(p, hits), PI_TOLERANCE);
}

/* The count equals a sequential recount, and the estimate is close. */
static inline void pi_check(const pi_params *p, long hits)
{
    long expected = pi_count(0, p->samples);
    BENCH_CHECK(hits == expected, "%ld hits, but a sequential count gives %ld", hits, expected);
    pi_check_estimate(p, hits);
}

#endif
