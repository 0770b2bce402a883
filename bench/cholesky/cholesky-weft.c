// SPDX-License-Identifier: Apache-2.0
/* cholesky with tasks on the quad-tree blocks (see cholesky.h): the two
 * block rows of a triangular solve and the quadrants of an update run in
 * parallel, and so do copying and freeing the tree; the steps of one
 * factorisation depend on each other and stay in order.  Every entry is
 * computed by the same operations in the same order as in the sequential
 * version, so L is identical bit for bit (checked).
 *
 *   cholesky-weft [-w workers] <n> <nonzeros> [repetitions]
 */
#include "cholesky.h"

#include <weft/weft.h>

WEFT_TASK_DECL_5(chol_block *, chol_update, chol_block *, const chol_block *, const chol_block *,
                 int, int)

/* Quadrant q of C (of order 2 half) gets both of its products, in order:
 * C_rc -= A_r0 B_c0^T, then C_rc -= A_r1 B_c1^T.  Quadrant tasks of one C
 * write different slots c->u.quad[q]. */
WEFT_VOID_TASK_6(chol_update_quadrant, chol_block *, c, const chol_block *, a, const chol_block *,
                 b, int, q, int, half, int, lower)
{
    int r = q >> 1, col = q & 1, shape = chol_update_quadrant_shape(lower, q);
    chol_block *cq = c->u.quad[q];
    cq = WEFT_CALL(chol_update, cq, a->u.quad[2 * r], b->u.quad[2 * col], half, shape);
    cq = WEFT_CALL(chol_update, cq, a->u.quad[2 * r + 1], b->u.quad[2 * col + 1], half, shape);
    c->u.quad[q] = cq;
}

/* True if quadrant q of an update has at least one product to do. */
static int chol_quadrant_has_work(const chol_block *a, const chol_block *b, int q)
{
    int r = q >> 1, col = q & 1;
    return (a->u.quad[2 * r] && b->u.quad[2 * col]) ||
           (a->u.quad[2 * r + 1] && b->u.quad[2 * col + 1]);
}

WEFT_TASK_IMPL_5(chol_block *, chol_update, chol_block *, c, const chol_block *, a,
                 const chol_block *, b, int, order, int, lower)
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
    /* A task per quadrant with work (one with none would be a no-op);
     * the last one is called, the others spawned. */
    int busy[4], count = 0;
    for (int q = 0; q < 4; q++)
        if (!(lower && q == CHOL_Q01) && chol_quadrant_has_work(a, b, q))
            busy[count++] = q;
    for (int i = 0; i + 1 < count; i++)
        WEFT_SPAWN(chol_update_quadrant, c, a, b, busy[i], order / 2, lower);
    if (count > 0)
        WEFT_CALL(chol_update_quadrant, c, a, b, busy[count - 1], order / 2, lower);
    for (int i = 0; i + 1 < count; i++)
        WEFT_SYNC(chol_update_quadrant);
    return chol_drop_if_empty(c, fresh);
}

WEFT_TASK_DECL_3(chol_block *, chol_solve, chol_block *, const chol_block *, int)

/* Block row r of X L^-T: X_r0 L_00^-T, then X_r1 minus X_r0 L_10^T, then
 * times L_11^-T.  The two rows write different slots of x. */
WEFT_VOID_TASK_4(chol_solve_row, chol_block *, x, const chol_block *, l, int, r, int, half)
{
    chol_block *left = x->u.quad[2 * r], *right = x->u.quad[2 * r + 1];
    left = WEFT_CALL(chol_solve, left, l->u.quad[CHOL_Q00], half);
    right = WEFT_CALL(chol_update, right, left, l->u.quad[CHOL_Q10], half, 0);
    right = WEFT_CALL(chol_solve, right, l->u.quad[CHOL_Q11], half);
    x->u.quad[2 * r] = left;
    x->u.quad[2 * r + 1] = right;
}

WEFT_TASK_IMPL_3(chol_block *, chol_solve, chol_block *, x, const chol_block *, l, int, order)
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
        WEFT_SPAWN(chol_solve_row, x, l, 0, order / 2);
        WEFT_CALL(chol_solve_row, x, l, 1, order / 2);
        WEFT_SYNC(chol_solve_row);
    } else {
        WEFT_CALL(chol_solve_row, x, l, top_has_work ? 0 : 1, order / 2);
    }
    return x;
}

WEFT_VOID_TASK_2(chol_factor, chol_block *, a, int, order)
{
    if (order == CHOL_LEAF) {
        chol_leaf_factor(a);
        return;
    }
    int half = order / 2;
    chol_block **q = a->u.quad;
    WEFT_CALL(chol_factor, q[CHOL_Q00], half);
    q[CHOL_Q10] = WEFT_CALL(chol_solve, q[CHOL_Q10], q[CHOL_Q00], half);
    q[CHOL_Q11] = WEFT_CALL(chol_update, q[CHOL_Q11], q[CHOL_Q10], q[CHOL_Q10], half, 1);
    WEFT_CALL(chol_factor, q[CHOL_Q11], half);
}

/* Copy and free: a task per quadrant (a NULL one returns at once). */
WEFT_TASK_2(chol_block *, chol_copy_task, const chol_block *, b, int, order)
{
    if (b == NULL || order == CHOL_LEAF)
        return chol_copy(b, order);
    chol_block *c = chol_new_block();
    for (int q = 0; q < 3; q++)
        WEFT_SPAWN(chol_copy_task, b->u.quad[q], order / 2);
    c->u.quad[3] = WEFT_CALL(chol_copy_task, b->u.quad[3], order / 2);
    for (int q = 2; q >= 0; q--)
        c->u.quad[q] = WEFT_SYNC(chol_copy_task);
    return c;
}

WEFT_VOID_TASK_2(chol_free_task, chol_block *, b, int, order)
{
    if (b == NULL || order == CHOL_LEAF) {
        free(b);
        return;
    }
    for (int q = 0; q < 3; q++)
        WEFT_SPAWN(chol_free_task, b->u.quad[q], order / 2);
    WEFT_CALL(chol_free_task, b->u.quad[3], order / 2);
    for (int q = 0; q < 3; q++)
        WEFT_SYNC(chol_free_task);
    free(b);
}

/* The timed part: every repetition copies, factors and (but the last)
 * frees; returns the last factor. */
WEFT_TASK_3(chol_block *, chol_repeat, const chol_block *, input, int, order, long, repetitions)
{
    chol_block *work = NULL;
    for (long r = 0; r < repetitions; r++) {
        if (work != NULL)
            WEFT_CALL(chol_free_task, work, order);
        work = WEFT_CALL(chol_copy_task, input, order);
        WEFT_CALL(chol_factor, work, order);
    }
    return work;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    chol_problem p = chol_setup(argc, argv, "[-w workers] <n> <nonzeros> [repetitions]");
    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    p.result = WEFT_RUN(chol_repeat, p.input, p.order, p.repetitions);
    double seconds = bench_seconds_since(t0);
    chol_report(&p);

    /* The same factorisation, sequentially (untimed): must be identical. */
    chol_block *reference = chol_copy(p.input, p.order);
    chol_factor_seq(reference, p.order);
    BENCH_CHECK(!chol_differ(p.result, reference, p.order),
                "the parallel factor differs from the sequential one");
    chol_free(reference, p.order);

    bench_weft_finish(seconds);
    chol_problem_free(&p);
    return 0;
}
