// SPDX-License-Identifier: Apache-2.0
/* Rectangular matrix multiplication (Cilk-5's matmul.cilk, as used in the
 * Lace benchmarks), shared by matmul-seq.c and matmul-weft.c: the split
 * rule, the base case, input generation and the result checks.
 *
 * C = A * B for row-major N x N doubles (leading dimension ld = N).  The
 * recursion is cache-oblivious: a call multiplies an m x n block of A by an
 * n x p block of B into an m x p block of C and halves the largest of m, n,
 * p until m + n + p <= 64 (for square power-of-two inputs the leaves are
 * 16 x 16 x 32).
 *   - m largest: the two halves write disjoint rows of C: spawn one.
 *   - p largest: the two halves write disjoint columns of C: spawn one.
 *   - n largest: both halves write the same block of C, so they run one
 *     after the other, the second adding to the first (add = 1): two
 *     plain calls, no task.
 * `add` says whether the block of C is overwritten (the first product into
 * it) or accumulated into, so C needs no zeroing.
 * That gives 3,595,117 spawned tasks for N = 4096 (the Lace paper's count).
 *
 * As in the Cilk/Lace benchmark, elements are floats and the base case is
 * the textbook inner-product loop (C[i][k] = sum_j A[i][j] B[j][k]), so the
 * work per task, and so the figures, compare with the paper's.
 */
#ifndef WEFT_BENCH_MATMUL_H
#define WEFT_BENCH_MATMUL_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define MATMUL_MIN_N 16      /* one base case: 16 + 16 + 16 <= 64 */
#define MATMUL_MAX_N 8192    /* 3 x 512 MB */
#define MATMUL_REF_MAX_N 256 /* full reference product up to here */

typedef float mm_real; /* Lace's REAL */

/* The shape of one call: kept in one struct so a task's arguments are
 * A, B, C and this (44 bytes). */
typedef struct mm_dims {
    int m, n, p; /* A block m x n, B block n x p, C block m x p */
    int ld;      /* row stride of all three matrices */
    int add;     /* 1: C += A*B, 0: C = A*B */
} mm_dims;

enum mm_step { MM_BASE, MM_SPLIT_M, MM_SPLIT_N, MM_SPLIT_P };

static inline enum mm_step mm_step(const mm_dims *d)
{
    if (d->m + d->n + d->p <= 64)
        return MM_BASE;
    if (d->m >= d->n && d->n >= d->p)
        return MM_SPLIT_M;
    if (d->n >= d->m && d->n >= d->p)
        return MM_SPLIT_N;
    return MM_SPLIT_P;
}

/* Base case: the inner-product loop, accumulating in mm_real like the
 * reference; C's block is overwritten unless add. */
static inline void mm_base(const mm_real *restrict A, const mm_real *restrict B,
                           mm_real *restrict C, const mm_dims *d)
{
    const int m = d->m, n = d->n, p = d->p, ld = d->ld;
    for (int i = 0; i < m; i++)
        for (int k = 0; k < p; k++) {
            mm_real c = 0;
            for (int j = 0; j < n; j++)
                c += A[(size_t)i * ld + j] * B[(size_t)j * ld + k];
            if (d->add)
                C[(size_t)i * ld + k] += c;
            else
                C[(size_t)i * ld + k] = c;
        }
}

/* Tasks spawned for a call of this shape (the root itself not counted),
 * following mm_step: the analytic count, without multiplying. */
static inline long mm_count_spawns(int m, int n, int p)
{
    mm_dims d = {m, n, p, 0, 0};
    switch (mm_step(&d)) {
    case MM_BASE: return 0;
    case MM_SPLIT_M: return 1 + mm_count_spawns(m >> 1, n, p) + mm_count_spawns(m - (m >> 1), n, p);
    case MM_SPLIT_N: return mm_count_spawns(m, n >> 1, p) + mm_count_spawns(m, n - (n >> 1), p);
    case MM_SPLIT_P: return 1 + mm_count_spawns(m, n, p >> 1) + mm_count_spawns(m, n, p - (p >> 1));
    }
    return -1;
}

/* ---- input, command line ---- */

static inline uint64_t mm_splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1), deterministic for a seed. */
static inline double mm_uniform(uint64_t *s)
{
    return (double)(mm_splitmix(s) >> 11) * 0x1.0p-52 - 1.0;
}

static inline mm_real *mm_alloc(int n)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(mm_real);
    mm_real *p = aligned_alloc(64, bytes);
    if (p == NULL) {
        fprintf(stderr, "FAILED: cannot allocate %zu bytes\n", bytes);
        exit(1);
    }
    return p;
}

static inline void mm_fill(mm_real *M, int n, uint64_t seed)
{
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        M[i] = (mm_real)mm_uniform(&seed);
}

/* A and B filled from fixed seeds; C full of NaNs, so an entry the
 * multiplication never writes fails the check. */
static inline void mm_setup(int n, mm_real **A, mm_real **B, mm_real **C)
{
    *A = mm_alloc(n);
    *B = mm_alloc(n);
    *C = mm_alloc(n);
    mm_fill(*A, n, 1);
    mm_fill(*B, n, 2);
    memset(*C, 0xff, (size_t)n * n * sizeof(mm_real));
}

/* Parses <n> (after -w was taken out by the caller), optionally preceded
 * by -c where allow_count.  Exits with usage on anything else. */
static inline int mm_args(int argc, char **argv, const char *usage, int allow_count, int *count)
{
    *count = allow_count && bench_take_flag(&argc, &argv, "-c");
    bench_expect_args(argc, argv, 1, 1, usage, "  n: a power of two in [%d, %d]\n", MATMUL_MIN_N,
                      MATMUL_MAX_N);
    long n = bench_arg_long(argv[0], "n", argv[1], MATMUL_MIN_N, MATMUL_MAX_N);
    if ((n & (n - 1)) != 0) {
        fprintf(stderr, "%s: n must be a power of two, got %ld\n", argv[0], n);
        exit(2);
    }
    return (int)n;
}

/* ---- checks ---- */

/* Sum of all entries: identical in matmul-seq and matmul-weft (every entry
 * is accumulated in the same order whatever the schedule). */
static inline double mm_checksum(const mm_real *C, int n)
{
    double s = 0.0;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        s += C[i];
    return s;
}

/* Relative precision of mm_real. */
#define MM_EPS ((double)FLT_EPSILON)

/* Small n: every entry against a dot product computed in double.  C's sum
 * was rounded in mm_real: it is within n * eps * sum_j |A[i][j] B[j][k]| of
 * the exact value (eps of mm_real), and the double sum far closer, so twice
 * that bounds their difference. */
static inline void mm_check_full(const mm_real *A, const mm_real *B, const mm_real *C, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double s = 0.0, mag = 0.0;
            for (int j = 0; j < n; j++) {
                s += A[(size_t)i * n + j] * B[(size_t)j * n + k];
                mag += fabs(A[(size_t)i * n + j] * B[(size_t)j * n + k]);
            }
            double got = C[(size_t)i * n + k];
            double tol = 2.0 * n * MM_EPS * mag + DBL_MIN;
            BENCH_CHECK(fabs(got - s) <= tol, "C[%d][%d] = %.17g, expected %.17g (tolerance %g)", i,
                        k, got, s, tol);
        }
}

/* y = M x, and |M| |x| into mag if mag != NULL. */
static inline void mm_matvec(const mm_real *M, const double *x, double *y, double *mag, int n)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0, a = 0.0;
        for (int j = 0; j < n; j++) {
            s += M[(size_t)i * n + j] * x[j];
            a += fabs(M[(size_t)i * n + j]) * fabs(x[j]);
        }
        y[i] = s;
        if (mag)
            mag[i] = a;
    }
}

/* Large n, O(n^2) (Freivalds' check with a random real vector): C x must
 * equal A (B x), both computed in double.  C's entries carry the rounding
 * of mm_real sums, about n eps |A| |B| entrywise, so (C x)_i may be off by
 * n eps (|A| |B| |x|)_i; any real error in C exceeds that bound (times 4). */
static inline void mm_check_random(const mm_real *A, const mm_real *B, const mm_real *C, int n,
                                   uint64_t seed)
{
    double *x = malloc((size_t)n * sizeof(double));
    double *bx = malloc((size_t)n * sizeof(double));
    double *abx = malloc((size_t)n * sizeof(double));
    double *cx = malloc((size_t)n * sizeof(double));
    double *absbx = malloc((size_t)n * sizeof(double));
    double *mag = malloc((size_t)n * sizeof(double));
    double *ignore = malloc((size_t)n * sizeof(double));
    BENCH_CHECK(x && bx && abx && cx && absbx && mag && ignore, "cannot allocate check vectors");
    for (int i = 0; i < n; i++)
        x[i] = mm_uniform(&seed);
    mm_matvec(B, x, bx, absbx, n); /* absbx = |B| |x| */
    mm_matvec(A, bx, abx, NULL, n);
    mm_matvec(C, x, cx, NULL, n);
    /* mag = |A| (|B| |x|) */
    mm_matvec(A, absbx, ignore, mag, n);
    for (int i = 0; i < n; i++) {
        double tol = 4.0 * n * MM_EPS * mag[i] + DBL_MIN;
        BENCH_CHECK(fabs(cx[i] - abx[i]) <= tol,
                    "(C x)[%d] = %.17g but (A (B x))[%d] = %.17g (tolerance %g)", i, cx[i], i,
                    abx[i], tol);
    }
    free(x);
    free(bx);
    free(abx);
    free(cx);
    free(absbx);
    free(mag);
    free(ignore);
}

static inline void mm_check(const mm_real *A, const mm_real *B, const mm_real *C, int n)
{
    if (n <= MATMUL_REF_MAX_N)
        mm_check_full(A, B, C, n);
    else
        mm_check_random(A, B, C, n, UINT64_C(0x5eed0003));
}

#endif
