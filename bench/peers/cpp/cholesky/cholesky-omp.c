// SPDX-License-Identifier: Apache-2.0
/* cholesky on OpenMP tasks (the recursion of bench/cholesky/cholesky.h,
 * with cholesky-weft's tasks): an update runs its quadrants that have
 * work as tasks (the last called), each doing its two products in order;
 * a solve runs its two block rows in parallel when both have work; the
 * steps of a factorisation stay in order; copying and freeing the tree
 * run per quadrant.  Every entry gets the same operations in the same
 * order as sequentially, so the factor is identical bit for bit. */
#include "cholesky.h"
#include "cholesky-peer.h"

static chol_block *update(chol_block *c, const chol_block *a, const chol_block *b, int order,
                          int lower);

/* Quadrant q of C (of order 2 half) gets both of its products, in order.
 * Quadrant tasks of one C write different slots c->u.quad[q]. */
static void update_quadrant(chol_block *c, const chol_block *a, const chol_block *b, int q,
                            int half, int lower)
{
    int r = q >> 1, col = q & 1, shape = chol_update_quadrant_shape(lower, q);
    chol_block *cq = c->u.quad[q];
    cq = update(cq, a->u.quad[2 * r], b->u.quad[2 * col], half, shape);
    cq = update(cq, a->u.quad[2 * r + 1], b->u.quad[2 * col + 1], half, shape);
    c->u.quad[q] = cq;
}

static int quadrant_has_work(const chol_block *a, const chol_block *b, int q)
{
    int r = q >> 1, col = q & 1;
    return (a->u.quad[2 * r] && b->u.quad[2 * col]) ||
           (a->u.quad[2 * r + 1] && b->u.quad[2 * col + 1]);
}

static chol_block *update(chol_block *c, const chol_block *a, const chol_block *b, int order,
                          int lower)
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
    int busy[4], count = 0;
    for (int q = 0; q < 4; q++)
        if (!(lower && q == CHOL_Q01) && quadrant_has_work(a, b, q))
            busy[count++] = q;
    for (int i = 0; i + 1 < count; i++) {
        int q = busy[i];
#pragma omp task firstprivate(c, a, b, q, order, lower)
        update_quadrant(c, a, b, q, order / 2, lower);
    }
    if (count > 0) {
        update_quadrant(c, a, b, busy[count - 1], order / 2, lower);
#pragma omp taskwait
    }
    return chol_drop_if_empty(c, fresh);
}

static chol_block *solve(chol_block *x, const chol_block *l, int order);

/* Block row r of X L^-T; the two rows write different slots of x. */
static void solve_row(chol_block *x, const chol_block *l, int r, int half)
{
    chol_block *left = x->u.quad[2 * r], *right = x->u.quad[2 * r + 1];
    left = solve(left, l->u.quad[CHOL_Q00], half);
    right = update(right, left, l->u.quad[CHOL_Q10], half, 0);
    right = solve(right, l->u.quad[CHOL_Q11], half);
    x->u.quad[2 * r] = left;
    x->u.quad[2 * r + 1] = right;
}

static chol_block *solve(chol_block *x, const chol_block *l, int order)
{
    if (x == NULL)
        return NULL;
    if (order == CHOL_LEAF) {
        chol_leaf_solve(x, l);
        return x;
    }
    int top_has_work = x->u.quad[CHOL_Q00] || x->u.quad[CHOL_Q01];
    int bottom_has_work = x->u.quad[CHOL_Q10] || x->u.quad[CHOL_Q11];
    if (top_has_work && bottom_has_work) {
#pragma omp task firstprivate(x, l, order)
        solve_row(x, l, 0, order / 2);
        solve_row(x, l, 1, order / 2);
#pragma omp taskwait
    } else {
        solve_row(x, l, top_has_work ? 0 : 1, order / 2);
    }
    return x;
}

static void factor(chol_block *a, int order)
{
    if (order == CHOL_LEAF) {
        chol_leaf_factor(a);
        return;
    }
    int half = order / 2;
    chol_block **q = a->u.quad;
    factor(q[CHOL_Q00], half);
    q[CHOL_Q10] = solve(q[CHOL_Q10], q[CHOL_Q00], half);
    q[CHOL_Q11] = update(q[CHOL_Q11], q[CHOL_Q10], q[CHOL_Q10], half, 1);
    factor(q[CHOL_Q11], half);
}

static chol_block *copy(const chol_block *b, int order)
{
    if (b == NULL || order == CHOL_LEAF)
        return chol_copy(b, order);
    chol_block *c = chol_new_block();
    for (int q = 0; q < 3; q++) {
#pragma omp task firstprivate(c, b, q, order)
        c->u.quad[q] = copy(b->u.quad[q], order / 2);
    }
    c->u.quad[3] = copy(b->u.quad[3], order / 2);
#pragma omp taskwait
    return c;
}

static void free_tree(chol_block *b, int order)
{
    if (b == NULL || order == CHOL_LEAF) {
        free(b);
        return;
    }
    for (int q = 0; q < 3; q++) {
#pragma omp task firstprivate(b, q, order)
        free_tree(b->u.quad[q], order / 2);
    }
    free_tree(b->u.quad[3], order / 2);
#pragma omp taskwait
    free(b);
}

chol_block *cholesky_parallel(const chol_block *input, int order, long repetitions)
{
    chol_block *work = NULL;
#pragma omp parallel shared(work) firstprivate(input, order, repetitions)
    {
#pragma omp single
        for (long r = 0; r < repetitions; r++) {
            if (work != NULL)
                free_tree(work, order);
            work = copy(input, order);
            factor(work, order);
        }
    }
    return work;
}
