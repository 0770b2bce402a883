// SPDX-License-Identifier: Apache-2.0
/* cholesky (the sparse Cholesky factorisation of the Cilk-5 distribution,
 * as used by Wool, Faxén 2010, section IV-A), shared by cholesky-seq.c and
 * cholesky-weft.c: the quad-tree matrix, input generation, the sequential
 * factorisation (the baseline, and the reference the weft version is
 * compared with), the command line and the answer checks.
 *
 *   cholesky-seq  <n> <nonzeros> [repetitions]
 *   cholesky-weft -w <workers> <n> <nonzeros> [repetitions]
 *
 * The algorithm, precisely (a port must give the same answer):
 *
 * Representation.  The n x n matrix is padded to N x N, N the smallest
 * power of two >= max(n, CHOL_LEAF), and stored as a quad tree: a block of
 * order s > CHOL_LEAF has four quadrants (00, 01, 10, 11, each of order
 * s/2, NULL when all zero); a block of order CHOL_LEAF (4) is a dense 4 x 4
 * array.  Only the lower triangle is stored: in a block on the diagonal,
 * quadrant 01 is always NULL and the strict upper triangle of a diagonal
 * leaf is 0.
 *
 * Input (splitmix64, chol_splitmix below, one generator seeded with 1).
 * `nonzeros` counts the stored entries, i.e. the lower triangle with the
 * diagonal: n <= nonzeros <= n(n+1)/2.  Off-diagonal entries are drawn
 * until nonzeros - n distinct ones exist; each attempt draws three numbers
 * z1, z2, z3 in this order: i = z1 mod n, j = z2 mod n, and the value
 * v = ((z3 >> 11) + 1) * 2^-53, negated when z3 is odd (so 0 < |v| <= 1).
 * The attempt is discarded when i == j or when the entry (max(i,j),
 * min(i,j)) already exists; otherwise A[max][min] = v.  Then every diagonal
 * entry is A[i][i] = 1 + sum over j != i of |A[i][j]| (both triangles),
 * which makes A strictly diagonally dominant, so symmetric positive
 * definite.  The padding rows n..N-1 have 1 on the diagonal, 0 elsewhere.
 *
 * Factorisation, A = L L^T in place, recursively on blocks (X_rc is
 * quadrant rc of X; every step below is done in exactly this order, which
 * fixes the floating-point result):
 *   factor(A), A on the diagonal:
 *     leaf: the textbook column Cholesky of the 4 x 4 lower triangle, for
 *       j = 0..3: d = A[j][j] - sum_{k<j} L[j][k]^2 (k ascending),
 *       L[j][j] = sqrt(d); for i = j+1..3: L[i][j] = (A[i][j] -
 *       sum_{k<j} L[i][k] L[j][k]) / L[j][j].
 *     else: factor(A_00); A_10 = solve(A_10, A_00);
 *       A_11 = update(A_11, A_10, A_10, lower); factor(A_11).
 *   solve(X, L) = X L^-T (X off the diagonal, L on it; NULL stays NULL):
 *     leaf: for every row r, for j = 0..3: X[r][j] = (X[r][j] -
 *       sum_{k<j} X[r][k] L[j][k]) / L[j][j].
 *     else, for each row r = 0, 1 of quadrants (the two are independent:
 *       run in parallel): X_r0 = solve(X_r0, L_00);
 *       X_r1 = update(X_r1, X_r0, L_10, full); X_r1 = solve(X_r1, L_11).
 *   update(C, A, B, shape) = C - A B^T (shape lower: C on the diagonal,
 *     only its lower triangle computed; full: C off the diagonal):
 *     A or B NULL: C unchanged.  C NULL: a zero block is allocated first
 *     (fill-in).
 *     leaf: C[r][c] -= sum_k A[r][k] B[c][k] for k = 0..3 accumulated into
 *       a temporary starting at 0, then subtracted (only c <= r if lower).
 *     else, for each quadrant rc of C (00, 10, 11 if lower; 00, 01, 10, 11
 *       if full; independent: run in parallel): C_rc = update(C_rc, A_r0,
 *       B_c0, s); then C_rc = update(C_rc, A_r1, B_c1, s), where s is lower
 *       for 00 and 11 of a lower C, full otherwise.  A block allocated here
 *       whose four quadrants all stay NULL is freed again (returns NULL).
 *
 * Repetitions: each one copies the input tree, factors the copy and frees
 * it (the last one is kept for the checks); "Time:" covers all of it.
 *
 * Output: "cholesky(n, nonzeros, r): N = <N>, blocks <leaf blocks of L>,
 * checksum <c>" where c is the sum of every stored entry of L, leaves
 * visited depth first in quadrant order 00, 01, 10, 11, entries row-major
 * (in double, printed %.17g).  Checks: for three random vectors x
 * (splitmix64 seeded 11, 12, 13; x_i = (z >> 11) 2^-52 - 1),
 * |L (L^T x) - A x| <= 4 (N+1) eps (|L| |L^T| |x| + |A| |x|) entrywise; for
 * N <= CHOL_FULL_CHECK_MAX_N every entry of L L^T against A with the
 * entrywise bound 4 (N+1) eps (|L| |L^T|)_rc; the strict upper triangle of
 * L is zero.  The weft version also factors the input sequentially
 * (untimed) and requires the identical tree, bit for bit.
 */
#ifndef WEFT_BENCH_CHOLESKY_H
#define WEFT_BENCH_CHOLESKY_H

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define CHOL_LEAF 4 /* leaves are 4 x 4 dense blocks */
#define CHOL_MAX_N 16384
#define CHOL_MAX_NONZEROS 100000000L
#define CHOL_MAX_REPETITIONS (1L << 30)
#define CHOL_FULL_CHECK_MAX_N 512

/* One block of the quad tree: an inner block's quadrants or a leaf's
 * entries, told apart by the block's order, which the caller knows. */
typedef struct chol_block {
    union {
        struct chol_block *quad[4]; /* 00, 01, 10, 11 */
        double entry[CHOL_LEAF][CHOL_LEAF];
    } u;
} chol_block;

enum { CHOL_Q00 = 0, CHOL_Q01 = 1, CHOL_Q10 = 2, CHOL_Q11 = 3 };

static inline chol_block *chol_new_block(void)
{
    chol_block *b = calloc(1, sizeof *b);
    BENCH_CHECK(b != NULL, "cannot allocate a matrix block");
    return b;
}

static inline void chol_free(chol_block *b, int order)
{
    if (b == NULL)
        return;
    if (order > CHOL_LEAF)
        for (int q = 0; q < 4; q++)
            chol_free(b->u.quad[q], order / 2);
    free(b);
}

static inline chol_block *chol_copy(const chol_block *b, int order)
{
    if (b == NULL)
        return NULL;
    chol_block *c = chol_new_block();
    if (order == CHOL_LEAF) {
        *c = *b;
        return c;
    }
    for (int q = 0; q < 4; q++)
        c->u.quad[q] = chol_copy(b->u.quad[q], order / 2);
    return c;
}

/* ---- the leaf kernels ---- */

static inline void chol_leaf_factor(chol_block *a)
{
    double(*m)[CHOL_LEAF] = a->u.entry;
    for (int j = 0; j < CHOL_LEAF; j++) {
        double d = m[j][j];
        for (int k = 0; k < j; k++)
            d -= m[j][k] * m[j][k];
        /* d <= 0 means A was not positive definite: the NaN or inf this
         * leaves fails the checks. */
        double ljj = sqrt(d);
        m[j][j] = ljj;
        for (int i = j + 1; i < CHOL_LEAF; i++) {
            double s = m[i][j];
            for (int k = 0; k < j; k++)
                s -= m[i][k] * m[j][k];
            m[i][j] = s / ljj;
        }
    }
}

static inline void chol_leaf_solve(chol_block *x, const chol_block *l)
{
    double(*m)[CHOL_LEAF] = x->u.entry;
    const double(*lm)[CHOL_LEAF] = (const double(*)[CHOL_LEAF])l->u.entry;
    for (int r = 0; r < CHOL_LEAF; r++)
        for (int j = 0; j < CHOL_LEAF; j++) {
            double s = m[r][j];
            for (int k = 0; k < j; k++)
                s -= m[r][k] * lm[j][k];
            m[r][j] = s / lm[j][j];
        }
}

static inline void chol_leaf_update(chol_block *c, const chol_block *a, const chol_block *b,
                                    int lower)
{
    double(*m)[CHOL_LEAF] = c->u.entry;
    for (int r = 0; r < CHOL_LEAF; r++)
        for (int col = 0; col < (lower ? r + 1 : CHOL_LEAF); col++) {
            double s = 0.0;
            for (int k = 0; k < CHOL_LEAF; k++)
                s += a->u.entry[r][k] * b->u.entry[col][k];
            m[r][col] -= s;
        }
}

/* The quadrants an update computes, and whether each is on the diagonal
 * (a lower update skips 01). */
static inline int chol_update_quadrant_shape(int lower, int q)
{
    return lower && (q == CHOL_Q00 || q == CHOL_Q11);
}

/* A freshly allocated block that received no product is dropped again. */
static inline chol_block *chol_drop_if_empty(chol_block *c, int fresh)
{
    if (fresh && !c->u.quad[0] && !c->u.quad[1] && !c->u.quad[2] && !c->u.quad[3]) {
        free(c);
        return NULL;
    }
    return c;
}

/* ---- the sequential factorisation (see the top of this file) ---- */

static inline chol_block *chol_update_seq(chol_block *c, const chol_block *a, const chol_block *b,
                                          int order, int lower)
{
    if (a == NULL || b == NULL)
        return c;
    int fresh = (c == NULL);
    if (fresh)
        c = chol_new_block();
    if (order == CHOL_LEAF) {
        chol_leaf_update(c, a, b, lower);
        return c;
    }
    int half = order / 2;
    for (int q = 0; q < 4; q++) {
        if (lower && q == CHOL_Q01)
            continue;
        int r = q >> 1, col = q & 1, shape = chol_update_quadrant_shape(lower, q);
        c->u.quad[q] =
            chol_update_seq(c->u.quad[q], a->u.quad[2 * r], b->u.quad[2 * col], half, shape);
        c->u.quad[q] = chol_update_seq(c->u.quad[q], a->u.quad[2 * r + 1], b->u.quad[2 * col + 1],
                                       half, shape);
    }
    return chol_drop_if_empty(c, fresh);
}

static inline chol_block *chol_solve_seq(chol_block *x, const chol_block *l, int order)
{
    if (x == NULL)
        return NULL;
    if (order == CHOL_LEAF) {
        chol_leaf_solve(x, l);
        return x;
    }
    int half = order / 2;
    for (int r = 0; r < 2; r++) {
        chol_block **left = &x->u.quad[2 * r], **right = &x->u.quad[2 * r + 1];
        *left = chol_solve_seq(*left, l->u.quad[CHOL_Q00], half);
        *right = chol_update_seq(*right, *left, l->u.quad[CHOL_Q10], half, 0);
        *right = chol_solve_seq(*right, l->u.quad[CHOL_Q11], half);
    }
    return x;
}

static inline void chol_factor_seq(chol_block *a, int order)
{
    if (order == CHOL_LEAF) {
        chol_leaf_factor(a);
        return;
    }
    int half = order / 2;
    chol_block **q = a->u.quad;
    chol_factor_seq(q[CHOL_Q00], half);
    q[CHOL_Q10] = chol_solve_seq(q[CHOL_Q10], q[CHOL_Q00], half);
    q[CHOL_Q11] = chol_update_seq(q[CHOL_Q11], q[CHOL_Q10], q[CHOL_Q10], half, 1);
    chol_factor_seq(q[CHOL_Q11], half);
}

/* ---- input ---- */

static inline uint64_t chol_splitmix(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The address of entry (i, j) of the tree, allocating blocks on the way. */
static inline double *chol_entry(chol_block **root, int order, int i, int j)
{
    chol_block **b = root;
    while (1) {
        if (*b == NULL)
            *b = chol_new_block();
        if (order == CHOL_LEAF)
            return &(*b)->u.entry[i][j];
        order /= 2;
        int q = (i >= order ? 2 : 0) + (j >= order ? 1 : 0);
        b = &(*b)->u.quad[q];
        i %= order;
        j %= order;
    }
}

/* Entry (i, j) or 0 when its block is absent. */
static inline double chol_get(const chol_block *b, int order, int i, int j)
{
    while (b != NULL && order > CHOL_LEAF) {
        order /= 2;
        b = b->u.quad[(i >= order ? 2 : 0) + (j >= order ? 1 : 0)];
        i %= order;
        j %= order;
    }
    return b ? b->u.entry[i][j] : 0.0;
}

typedef struct chol_problem {
    int n, order; /* rows, padded order N */
    long nonzeros, repetitions;
    chol_block *input;  /* A, never modified */
    chol_block *result; /* L */
} chol_problem;

static inline chol_problem chol_setup(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 2, 3, usage,
                      "  n: matrix rows, in [1, %d]\n"
                      "  nonzeros: stored entries of the lower triangle with the diagonal,\n"
                      "            in [n, n(n+1)/2] and at most %ld\n"
                      "  repetitions: factorisations run one after the other, in [1, %ld]"
                      " (default 1)\n",
                      CHOL_MAX_N, CHOL_MAX_NONZEROS, CHOL_MAX_REPETITIONS);
    chol_problem p;
    p.n = (int)bench_arg_long(argv[0], "n", argv[1], 1, CHOL_MAX_N);
    long most = (long)p.n * (p.n + 1) / 2;
    p.nonzeros = bench_arg_long(argv[0], "nonzeros", argv[2], p.n,
                                most < CHOL_MAX_NONZEROS ? most : CHOL_MAX_NONZEROS);
    p.repetitions =
        argc == 4 ? bench_arg_long(argv[0], "repetitions", argv[3], 1, CHOL_MAX_REPETITIONS) : 1;
    p.order = CHOL_LEAF;
    while (p.order < p.n)
        p.order *= 2;
    p.input = NULL;
    p.result = NULL;

    double *offdiagonal_sum = calloc((size_t)p.n, sizeof(double));
    BENCH_CHECK(offdiagonal_sum != NULL, "cannot allocate %d doubles", p.n);
    uint64_t seed = 1;
    for (long placed = 0; placed < p.nonzeros - p.n;) {
        int i = (int)(chol_splitmix(&seed) % (uint64_t)p.n);
        int j = (int)(chol_splitmix(&seed) % (uint64_t)p.n);
        uint64_t z = chol_splitmix(&seed);
        double v = (double)((z >> 11) + 1) * 0x1.0p-53;
        if (z & 1)
            v = -v;
        if (i == j)
            continue;
        int row = i > j ? i : j, col = i > j ? j : i;
        double *e = chol_entry(&p.input, p.order, row, col);
        if (*e != 0.0)
            continue;
        *e = v;
        offdiagonal_sum[row] += fabs(v);
        offdiagonal_sum[col] += fabs(v);
        placed++;
    }
    for (int i = 0; i < p.order; i++)
        *chol_entry(&p.input, p.order, i, i) = i < p.n ? 1.0 + offdiagonal_sum[i] : 1.0;
    free(offdiagonal_sum);
    return p;
}

/* ---- checks ---- */

/* Calls visit(ctx, row, col, value) for every stored entry, depth first in
 * quadrant order, entries row-major. */
typedef void (*chol_visit_fn)(void *ctx, int row, int col, double value);
static inline void chol_visit(const chol_block *b, int order, int row0, int col0,
                              chol_visit_fn visit, void *ctx)
{
    if (b == NULL)
        return;
    if (order == CHOL_LEAF) {
        for (int r = 0; r < CHOL_LEAF; r++)
            for (int c = 0; c < CHOL_LEAF; c++)
                visit(ctx, row0 + r, col0 + c, b->u.entry[r][c]);
        return;
    }
    int half = order / 2;
    for (int q = 0; q < 4; q++)
        chol_visit(b->u.quad[q], half, row0 + (q >> 1) * half, col0 + (q & 1) * half, visit, ctx);
}

static inline long chol_count_leaves(const chol_block *b, int order)
{
    if (b == NULL)
        return 0;
    if (order == CHOL_LEAF)
        return 1;
    long n = 0;
    for (int q = 0; q < 4; q++)
        n += chol_count_leaves(b->u.quad[q], order / 2);
    return n;
}

typedef struct chol_vectors {
    const double *x;
    double *y, *mag;   /* result and its magnitude bound */
    int transpose;     /* y += M^T x instead of M x */
    int symmetric;     /* the stored lower triangle stands for a symmetric M */
    int upper_entries; /* nonzero entries found above the diagonal */
    double sum;
} chol_vectors;

static inline void chol_visit_matvec(void *ctx, int r, int c, double v)
{
    chol_vectors *m = ctx;
    if (c > r) {
        m->upper_entries += (v != 0.0);
        return;
    }
    if (m->transpose) {
        m->y[c] += v * m->x[r];
        m->mag[c] += fabs(v) * fabs(m->x[r]);
    } else {
        m->y[r] += v * m->x[c];
        m->mag[r] += fabs(v) * fabs(m->x[c]);
    }
    if (m->symmetric && r != c) {
        m->y[c] += v * m->x[r];
        m->mag[c] += fabs(v) * fabs(m->x[r]);
    }
}

/* y = M x (or M^T x, or the symmetric matrix's) and mag = |M| |x|.
 * Returns the number of nonzero entries stored above the diagonal. */
static inline int chol_matvec(const chol_block *m, int order, const double *x, double *y,
                              double *mag, int transpose, int symmetric)
{
    memset(y, 0, (size_t)order * sizeof(double));
    memset(mag, 0, (size_t)order * sizeof(double));
    chol_vectors ctx = {x, y, mag, transpose, symmetric, 0, 0.0};
    chol_visit(m, order, 0, 0, chol_visit_matvec, &ctx);
    return ctx.upper_entries;
}

static inline void chol_visit_sum(void *ctx, int r, int c, double v)
{
    (void)r;
    (void)c;
    *(double *)ctx += v;
}

typedef struct chol_dense_matrix {
    double *entry;
    int order;
} chol_dense_matrix;

static inline void chol_visit_dense(void *ctx, int r, int c, double v)
{
    chol_dense_matrix *d = ctx;
    d->entry[(size_t)r * (size_t)d->order + (size_t)c] = v;
}

static inline double *chol_dense(const chol_block *b, int order)
{
    chol_dense_matrix d = {calloc((size_t)order * order, sizeof(double)), order};
    BENCH_CHECK(d.entry != NULL, "cannot allocate a %d x %d check matrix", order, order);
    chol_visit(b, order, 0, 0, chol_visit_dense, &d);
    return d.entry;
}

/* Prints the result line and checks L against A (see the top). */
static inline void chol_report(const chol_problem *p)
{
    const int order = p->order;
    double checksum = 0.0;
    chol_visit(p->result, order, 0, 0, chol_visit_sum, &checksum);
    printf("cholesky(%d, %ld, %ld): N = %d, blocks %ld, checksum %.17g\n", p->n, p->nonzeros,
           p->repetitions, order, chol_count_leaves(p->result, order), checksum);

    const double gamma = 4.0 * (order + 1) * DBL_EPSILON;
    double *x = malloc((size_t)order * sizeof(double));
    double *lt_x = malloc((size_t)order * sizeof(double));
    double *llt_x = malloc((size_t)order * sizeof(double));
    double *a_x = malloc((size_t)order * sizeof(double));
    double *mag1 = malloc((size_t)order * sizeof(double));
    double *mag2 = malloc((size_t)order * sizeof(double));
    double *mag_a = malloc((size_t)order * sizeof(double));
    double *ignored = malloc((size_t)order * sizeof(double));
    BENCH_CHECK(x && lt_x && llt_x && a_x && mag1 && mag2 && mag_a && ignored,
                "cannot allocate the check vectors");
    for (uint64_t seed0 = 11; seed0 <= 13; seed0++) {
        uint64_t seed = seed0;
        for (int i = 0; i < order; i++)
            x[i] = (double)(chol_splitmix(&seed) >> 11) * 0x1.0p-52 - 1.0;
        int upper = chol_matvec(p->result, order, x, lt_x, mag1, 1, 0); /* L^T x, |L^T| |x| */
        BENCH_CHECK(upper == 0, "L has %d nonzero entries above the diagonal", upper);
        chol_matvec(p->result, order, lt_x, llt_x, ignored, 0, 0); /* L L^T x */
        chol_matvec(p->result, order, mag1, ignored, mag2, 0, 0);  /* |L| |L^T| |x| */
        chol_matvec(p->input, order, x, a_x, mag_a, 0, 1);         /* A x, |A| |x| */
        for (int i = 0; i < order; i++) {
            double tol = gamma * (mag2[i] + mag_a[i]) + DBL_MIN;
            BENCH_CHECK(fabs(llt_x[i] - a_x[i]) <= tol,
                        "(L L^T x)[%d] = %.17g but (A x)[%d] = %.17g (tolerance %g, x seed %" PRIu64
                        ")",
                        i, llt_x[i], i, a_x[i], tol, seed0);
        }
    }
    free(x);
    free(lt_x);
    free(llt_x);
    free(a_x);
    free(mag1);
    free(mag2);
    free(mag_a);
    free(ignored);

    if (order > CHOL_FULL_CHECK_MAX_N)
        return;
    double *l = chol_dense(p->result, order);
    for (int r = 0; r < order; r++)
        for (int c = 0; c <= r; c++) {
            double s = 0.0, mag = 0.0;
            for (int k = 0; k <= c; k++) {
                s += l[(size_t)r * order + k] * l[(size_t)c * order + k];
                mag += fabs(l[(size_t)r * order + k] * l[(size_t)c * order + k]);
            }
            double a = chol_get(p->input, order, r, c);
            double tol = gamma * mag + DBL_MIN;
            BENCH_CHECK(fabs(s - a) <= tol,
                        "(L L^T)[%d][%d] = %.17g but A[%d][%d] = %.17g (tolerance %g)", r, c, s, r,
                        c, a, tol);
        }
    free(l);
}

/* Nonzero when the two trees differ in shape or in any bit of an entry. */
static inline int chol_differ(const chol_block *x, const chol_block *y, int order)
{
    if (x == NULL || y == NULL)
        return x != y;
    if (order == CHOL_LEAF)
        return memcmp(x->u.entry, y->u.entry, sizeof x->u.entry) != 0;
    for (int q = 0; q < 4; q++)
        if (chol_differ(x->u.quad[q], y->u.quad[q], order / 2))
            return 1;
    return 0;
}

static inline void chol_problem_free(chol_problem *p)
{
    chol_free(p->input, p->order);
    chol_free(p->result, p->order);
}

#endif
