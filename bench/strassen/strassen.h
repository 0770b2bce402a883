// SPDX-License-Identifier: Apache-2.0
/* strassen (Cilk-5, BOTS): Strassen's matrix multiplication with the seven
 * half-size products as tasks, down to a cut-off where a plain triple loop
 * takes over.  Shared by strassen-seq.c and strassen-weft.c: the operand
 * table, the base case, input generation and the check.
 *
 *   strassen-seq <n> [cutoff]
 *   strassen-weft [-w workers] <n> [cutoff]
 *
 * C = A * B for row-major n x n doubles, n a power of two; cutoff
 * (default 64) the largest size multiplied directly.  A's entries are the
 * splitmix64 outputs from state STRASSEN_SEED_A, B's from STRASSEN_SEED_B,
 * in row-major order (each call: state += 0x9E3779B97F4A7C15; z = state;
 * z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) *
 * 0x94D049BB133111EB; z ^= z >> 31), mapped to the integer (z % 17) - 8.
 * With integer entries in [-8, 8] every intermediate of the algorithm is
 * an integer below 2^36 for n <= 8192, so the arithmetic is exact and
 * the result equals the naive product bit for bit, whatever the order of
 * additions.
 *
 * One step, n > cutoff, h = n / 2, quadrants X11 X12 X21 X22:
 *     M1 = (A11 + A22)(B11 + B22)     M5 = (A11 + A12) B22
 *     M2 = (A21 + A22) B11            M6 = (A21 - A11)(B11 + B12)
 *     M3 = A11 (B12 - B22)            M7 = (A12 - A22)(B21 + B22)
 *     M4 = A22 (B21 - B11)
 *     C11 = M1 + M4 - M5 + M7         C12 = M3 + M5
 *     C21 = M2 + M4                   C22 = M1 - M2 + M3 + M6
 * Each product is one task: it forms its operand sums into fresh h x h
 * buffers and recurses; the parent then combines the M's into C's four
 * quadrants (one task per quadrant in strassen-weft).  n <= cutoff:
 * C = A * B by the i-k-j loop.
 *
 * Output line: "strassen(<n>, <cutoff>): checksum <sum of all entries of
 * C, an exact integer>".
 *
 * Check (exact equality, as the arithmetic is exact): n <= 128, every
 * entry against the naive product; larger n, C x == A (B x) for two
 * random integer vectors x (Freivalds) and 1024 sampled entries against
 * their dot products.  A difference prints "FAILED: ..." and exits 1.
 */
#ifndef WEFT_BENCH_STRASSEN_H
#define WEFT_BENCH_STRASSEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define STRASSEN_SEED_A UINT64_C(0x5EED57A55E0A)
#define STRASSEN_SEED_B UINT64_C(0x5EED57A55E0B)
#define STRASSEN_SEED_CHECK UINT64_C(0x5EED57A55E0C)
#define STRASSEN_MAX_N 8192
#define STRASSEN_DEFAULT_CUTOFF 64
#define STRASSEN_FULL_CHECK_MAX_N 128
#define STRASSEN_SAMPLES 1024

/* Where a product's operands and result live: a block is a pointer plus
 * a row stride.  Kept in one struct so a task's arguments fit. */
typedef struct sm_dims {
    int n; /* the block is n x n */
    int lda, ldb, ldc;
    int cutoff; /* multiply directly at n <= cutoff */
} sm_dims;

/* The seven products: each operand is quadrant q1, or q1 + sign * q2 when
 * q2 >= 0.  Quadrants: 0 = X11, 1 = X12, 2 = X21, 3 = X22. */
typedef struct sm_operand {
    signed char q1, q2, sign;
} sm_operand;

static const sm_operand sm_left[7] = {
    {0, 3, 1}, {2, 3, 1}, {0, -1, 0}, {3, -1, 0}, {0, 1, 1}, {2, 0, -1}, {1, 3, -1},
};
static const sm_operand sm_right[7] = {
    {0, 3, 1}, {0, -1, 0}, {1, 3, -1}, {2, 0, -1}, {3, -1, 0}, {0, 1, 1}, {2, 3, 1},
};

static inline const double *sm_quadrant(const double *X, int ld, int h, int q)
{
    return X + (size_t)(q >> 1) * h * ld + (size_t)(q & 1) * h;
}

static inline double *sm_alloc(size_t entries)
{
    return bench_alloc(entries, sizeof(double), "doubles");
}

/* The operand of a product as a block: the quadrant itself, or the sum
 * written to buf (h x h, stride h). */
static inline const double *sm_operand_block(const double *X, int ld, int h, sm_operand op,
                                             double *buf, int *ld_out)
{
    const double *x = sm_quadrant(X, ld, h, op.q1);
    if (op.q2 < 0) {
        *ld_out = ld;
        return x;
    }
    const double *y = sm_quadrant(X, ld, h, op.q2);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < h; j++)
            buf[(size_t)i * h + j] = x[(size_t)i * ld + j] + op.sign * y[(size_t)i * ld + j];
    *ld_out = h;
    return buf;
}

/* Base case: C = A * B by the i-k-j loop (the inner loop runs along rows
 * of B and C). */
static inline void sm_base(const double *restrict A, const double *restrict B, double *restrict C,
                           sm_dims d)
{
    for (int i = 0; i < d.n; i++) {
        double *c = C + (size_t)i * d.ldc;
        for (int j = 0; j < d.n; j++)
            c[j] = 0.0;
        for (int k = 0; k < d.n; k++) {
            double a = A[(size_t)i * d.lda + k];
            const double *b = B + (size_t)k * d.ldb;
            for (int j = 0; j < d.n; j++)
                c[j] += a * b[j];
        }
    }
}

/* Quadrant q of C from the products M[0..6] (each h x h, stride h). */
static inline void sm_combine(double *C, int ldc, int h, const double *M, int q)
{
    const size_t hh = (size_t)h * h;
    const double *m1 = M, *m2 = M + hh, *m3 = M + 2 * hh, *m4 = M + 3 * hh, *m5 = M + 4 * hh,
                 *m6 = M + 5 * hh, *m7 = M + 6 * hh;
    double *c = (double *)sm_quadrant(C, ldc, h, q);
    for (int i = 0; i < h; i++) {
        double *row = c + (size_t)i * ldc;
        size_t o = (size_t)i * h;
        for (int j = 0; j < h; j++) {
            switch (q) {
            case 0: row[j] = m1[o + j] + m4[o + j] - m5[o + j] + m7[o + j]; break;
            case 1: row[j] = m3[o + j] + m5[o + j]; break;
            case 2: row[j] = m2[o + j] + m4[o + j]; break;
            default: row[j] = m1[o + j] - m2[o + j] + m3[o + j] + m6[o + j]; break;
            }
        }
    }
}

/* ---- input, command line ---- */

static inline uint64_t sm_splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline double sm_small_int(uint64_t *state)
{
    return (double)(int)(sm_splitmix(state) % 17) - 8.0;
}

static inline void sm_fill(double *X, int n, uint64_t seed)
{
    for (size_t i = 0; i < (size_t)n * n; i++)
        X[i] = sm_small_int(&seed);
}

static inline sm_dims sm_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 1, 2, usage,
                      "  n: a power of two in [1, %d]; cutoff: multiply directly at "
                      "n <= cutoff, in [1, %d] (default %d)\n",
                      STRASSEN_MAX_N, STRASSEN_MAX_N, STRASSEN_DEFAULT_CUTOFF);
    long n = bench_arg_long(argv[0], "n", argv[1], 1, STRASSEN_MAX_N);
    if ((n & (n - 1)) != 0) {
        fprintf(stderr, "%s: n must be a power of two, got %ld\n", argv[0], n);
        exit(2);
    }
    long cutoff = argc == 3 ? bench_arg_long(argv[0], "cutoff", argv[2], 1, STRASSEN_MAX_N)
                            : STRASSEN_DEFAULT_CUTOFF;
    return (sm_dims){(int)n, (int)n, (int)n, (int)n, (int)cutoff};
}

/* A and B from their seeds; C full of NaNs so an unwritten entry fails. */
static inline void sm_setup(int n, double **A, double **B, double **C)
{
    *A = sm_alloc((size_t)n * n);
    *B = sm_alloc((size_t)n * n);
    *C = sm_alloc((size_t)n * n);
    sm_fill(*A, n, STRASSEN_SEED_A);
    sm_fill(*B, n, STRASSEN_SEED_B);
    memset(*C, 0xff, (size_t)n * n * sizeof(double));
}

/* ---- check ---- */

static inline void sm_print(const double *C, sm_dims d)
{
    double sum = 0.0;
    for (size_t i = 0; i < (size_t)d.n * d.n; i++)
        sum += C[i];
    printf("strassen(%d, %d): checksum %.0f\n", d.n, d.cutoff, sum);
}

static inline double sm_dot(const double *A, const double *B, int n, int i, int j)
{
    double s = 0.0;
    for (int k = 0; k < n; k++)
        s += A[(size_t)i * n + k] * B[(size_t)k * n + j];
    return s;
}

static inline void sm_check_entry(const double *A, const double *B, const double *C, int n, int i,
                                  int j)
{
    double want = sm_dot(A, B, n, i, j), got = C[(size_t)i * n + j];
    BENCH_CHECK(got == want, "C[%d][%d] = %.17g, expected %.17g", i, j, got, want);
}

/* y = M x */
static inline void sm_matvec(const double *M, const double *x, double *y, int n)
{
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += M[(size_t)i * n + j] * x[j];
        y[i] = s;
    }
}

static inline void sm_check(const double *A, const double *B, const double *C, int n)
{
    if (n <= STRASSEN_FULL_CHECK_MAX_N) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                sm_check_entry(A, B, C, n, i, j);
        return;
    }
    uint64_t state = STRASSEN_SEED_CHECK;
    double *x = sm_alloc((size_t)n), *bx = sm_alloc((size_t)n), *abx = sm_alloc((size_t)n),
           *cx = sm_alloc((size_t)n);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < n; i++)
            x[i] = sm_small_int(&state);
        sm_matvec(B, x, bx, n);
        sm_matvec(A, bx, abx, n);
        sm_matvec(C, x, cx, n);
        for (int i = 0; i < n; i++)
            BENCH_CHECK(cx[i] == abx[i], "(C x)[%d] = %.17g but (A (B x))[%d] = %.17g", i, cx[i], i,
                        abx[i]);
    }
    for (int s = 0; s < STRASSEN_SAMPLES; s++) {
        uint64_t z = sm_splitmix(&state);
        sm_check_entry(A, B, C, n, (int)(z % (uint64_t)n), (int)((z >> 32) % (uint64_t)n));
    }
    free(x);
    free(bx);
    free(abx);
    free(cx);
}

#endif
