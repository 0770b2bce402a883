// SPDX-License-Identifier: Apache-2.0
/* mm (Wool's dense matrix multiply, Faxén 2010, section IV-A), shared by
 * mm-seq.c and mm-weft.c: input generation, the row kernel, the command
 * line and the answer check.
 *
 *   mm-seq  <n> <repetitions>
 *   mm-weft -w <workers> <n> <repetitions>
 *
 * The algorithm, precisely (a port must give the same answer):
 *   - A, B, C are n x n row-major doubles.  A[i][k] and B[i][k] are small
 *     integers drawn in row-major order (i outer, k inner) from splitmix64
 *     (mm_splitmix below) seeded with 1 for A and 2 for B:
 *     value = (int)(z % 17) - 8, i.e. in [-8, 8].
 *   - One row: for j = 0 .. n-1: s = 0.0; for k = 0 .. n-1:
 *     s += A[i][k] * B[k][j]; C[i][j] = s.  The textbook, unblocked
 *     inner-product loop: B is read down a column.
 *   - One repetition computes every row i = 0 .. n-1 of C.  The parallel
 *     version splits the row range [lo, hi) in halves recursively, spawning
 *     the lower half and calling the upper one, down to one row per task:
 *     n - 1 spawns per repetition ("63 tasks ... one iteration of the
 *     outermost loop each" for n = 64 in the paper).  The sequential
 *     version is the plain loop over i.
 *   - The whole product is repeated r times, one repetition after the other
 *     (each overwrites C with the same values).
 *   - The answer: every product and partial sum is an integer of magnitude
 *     at most 64 n < 2^53, so the doubles are exact and C must equal the
 *     integer product exactly, whatever the order of evaluation.  For
 *     n <= MM_FULL_CHECK_MAX_N every entry is compared with an int64
 *     product; for every n, C x == A (B x) exactly in int64 for two vectors
 *     x with entries drawn from splitmix64 (seeds 3 and 4) as
 *     (int)(z % 2001) - 1000.  The output line "mm(n, r): checksum <sum>"
 *     is the sum of all entries of C (exact, an integer).
 * Output: the checksum line, then "Time: <seconds>" for the r repetitions.
 */
#ifndef WEFT_BENCH_MM_H
#define WEFT_BENCH_MM_H

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define MM_MAX_N 4096
#define MM_MAX_REPETITIONS (1L << 30)
#define MM_FULL_CHECK_MAX_N 512

static inline uint64_t mm_splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

typedef struct mm_problem {
    int n;
    long repetitions;
    double *a, *b, *c;
} mm_problem;

static inline double *mm_alloc(int n)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    BENCH_CHECK(p != NULL, "cannot allocate %zu bytes", bytes);
    return p;
}

/* Parses <n> <repetitions> (after -w was taken out by the caller), builds
 * A and B and fills C with NaNs, so that an entry no task wrote fails the
 * check. */
static inline mm_problem mm_setup(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 2, 2, usage,
                      "  n: matrix order in [1, %d]\n"
                      "  repetitions: products run one after the other, in [1, %ld]\n",
                      MM_MAX_N, MM_MAX_REPETITIONS);
    mm_problem p;
    p.n = (int)bench_arg_long(argv[0], "n", argv[1], 1, MM_MAX_N);
    p.repetitions = bench_arg_long(argv[0], "repetitions", argv[2], 1, MM_MAX_REPETITIONS);
    p.a = mm_alloc(p.n);
    p.b = mm_alloc(p.n);
    p.c = mm_alloc(p.n);
    size_t cells = (size_t)p.n * (size_t)p.n;
    uint64_t seed_a = 1, seed_b = 2;
    for (size_t i = 0; i < cells; i++)
        p.a[i] = (double)((int)(mm_splitmix(&seed_a) % 17) - 8);
    for (size_t i = 0; i < cells; i++)
        p.b[i] = (double)((int)(mm_splitmix(&seed_b) % 17) - 8);
    for (size_t i = 0; i < cells; i++)
        p.c[i] = NAN;
    return p;
}

/* Row i of C = A B: the inner-product loop over a column of B. */
static inline void mm_row(const double *restrict a, const double *restrict b, double *restrict c,
                          int n, int i)
{
    const double *arow = a + (size_t)i * n;
    double *crow = c + (size_t)i * n;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)
            s += arow[k] * b[(size_t)k * n + j];
        crow[j] = s;
    }
}

/* Exact integer value of a double that must hold one (checked). */
static inline int64_t mm_exact(double v, int i, int j)
{
    BENCH_CHECK(v == v && v > -9.0e15 && v < 9.0e15 && v == (double)(int64_t)v,
                "C[%d][%d] = %.17g is not an integer", i, j, v);
    return (int64_t)v;
}

/* y = M x in int64, M holding integer-valued doubles (no overflow: entries
 * of C are at most 64 n, of x 1000, so |y| <= 64000 n^2 < 2^31 n^2). */
static inline void mm_matvec_exact(const double *m, const int64_t *x, int64_t *y, int n)
{
    for (int i = 0; i < n; i++) {
        int64_t s = 0;
        for (int j = 0; j < n; j++)
            s += mm_exact(m[(size_t)i * n + j], i, j) * x[j];
        y[i] = s;
    }
}

/* Prints the checksum line and checks C (see the top of this file). */
static inline void mm_report(const mm_problem *p)
{
    const int n = p->n;
    int64_t checksum = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            checksum += mm_exact(p->c[(size_t)i * n + j], i, j);
    printf("mm(%d, %ld): checksum %" PRId64 "\n", n, p->repetitions, checksum);

    if (n <= MM_FULL_CHECK_MAX_N) {
        int64_t *row = malloc((size_t)n * sizeof(int64_t));
        BENCH_CHECK(row != NULL, "cannot allocate the check row");
        for (int i = 0; i < n; i++) {
            /* i-k-j order: a different summation order from the kernel's,
             * harmless because everything is exact. */
            for (int j = 0; j < n; j++)
                row[j] = 0;
            for (int k = 0; k < n; k++) {
                int64_t aik = (int64_t)p->a[(size_t)i * n + k];
                for (int j = 0; j < n; j++)
                    row[j] += aik * (int64_t)p->b[(size_t)k * n + j];
            }
            for (int j = 0; j < n; j++) {
                int64_t got = mm_exact(p->c[(size_t)i * n + j], i, j);
                BENCH_CHECK(got == row[j], "C[%d][%d] = %" PRId64 ", expected %" PRId64, i, j, got,
                            row[j]);
            }
        }
        free(row);
    }
    int64_t *x = malloc((size_t)n * sizeof(int64_t));
    int64_t *bx = malloc((size_t)n * sizeof(int64_t));
    int64_t *abx = malloc((size_t)n * sizeof(int64_t));
    int64_t *cx = malloc((size_t)n * sizeof(int64_t));
    BENCH_CHECK(x && bx && abx && cx, "cannot allocate the check vectors");
    for (uint64_t seed0 = 3; seed0 <= 4; seed0++) {
        uint64_t seed = seed0;
        for (int j = 0; j < n; j++)
            x[j] = (int64_t)(mm_splitmix(&seed) % 2001) - 1000;
        mm_matvec_exact(p->b, x, bx, n);
        /* A (B x): B x is an int64 vector, not a matrix of doubles. */
        for (int i = 0; i < n; i++) {
            int64_t s = 0;
            for (int k = 0; k < n; k++)
                s += (int64_t)p->a[(size_t)i * n + k] * bx[k];
            abx[i] = s;
        }
        mm_matvec_exact(p->c, x, cx, n);
        for (int i = 0; i < n; i++)
            BENCH_CHECK(cx[i] == abx[i],
                        "(C x)[%d] = %" PRId64 " but (A (B x))[%d] = %" PRId64 " (x seed %" PRIu64
                        ")",
                        i, cx[i], i, abx[i], seed0);
    }
    free(x);
    free(bx);
    free(abx);
    free(cx);
}

static inline void mm_free(mm_problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
}

#endif
