// SPDX-License-Identifier: Apache-2.0
// cholesky on oneTBB (the recursion of bench/cholesky/cholesky.h, with
// cholesky-weft's tasks): an update runs its quadrants that have work in
// a task_group (the last called), each doing its two products in order; a
// solve runs its two block rows in parallel when both have work; the
// steps of a factorisation stay in order; copying and freeing the tree
// run per quadrant.  Every entry gets the same operations in the same
// order as sequentially, so the factor is identical bit for bit.
#include <cstdlib>

#include <tbb/task_group.h>

#include "cholesky-peer.h"
#include "peer-tbb.hpp"

namespace {

enum { q00 = 0, q01 = 1, q10 = 2, q11 = 3 }; // cholesky.h's CHOL_Q..
constexpr int leaf = CHOL_PEER_LEAF;

chol_block *update(chol_block *c, const chol_block *a, const chol_block *b, int order, int lower);

// Quadrant q of C (of order 2 half) gets both of its products, in order.
// Quadrant tasks of one C write different slots c->u.quad[q].
void update_quadrant(chol_block *c, const chol_block *a, const chol_block *b, int q, int half,
                     int lower)
{
    int r = q >> 1, col = q & 1, shape = chol_peer_update_quadrant_shape(lower, q);
    chol_block *cq = c->u.quad[q];
    cq = update(cq, a->u.quad[2 * r], b->u.quad[2 * col], half, shape);
    cq = update(cq, a->u.quad[2 * r + 1], b->u.quad[2 * col + 1], half, shape);
    c->u.quad[q] = cq;
}

bool quadrant_has_work(const chol_block *a, const chol_block *b, int q)
{
    int r = q >> 1, col = q & 1;
    return (a->u.quad[2 * r] && b->u.quad[2 * col]) ||
           (a->u.quad[2 * r + 1] && b->u.quad[2 * col + 1]);
}

chol_block *update(chol_block *c, const chol_block *a, const chol_block *b, int order, int lower)
{
    if (a == nullptr || b == nullptr)
        return c;
    int fresh = (c == nullptr);
    if (fresh)
        c = chol_peer_new_block();
    if (order == leaf) {
        chol_peer_leaf_update(c, a, b, lower);
        return c;
    }
    int busy[4], count = 0;
    for (int q = 0; q < 4; q++)
        if (!(lower && q == q01) && quadrant_has_work(a, b, q))
            busy[count++] = q;
    if (count > 0) {
        tbb::task_group g;
        for (int i = 0; i + 1 < count; i++) {
            int q = busy[i];
            g.run([=] { update_quadrant(c, a, b, q, order / 2, lower); });
        }
        update_quadrant(c, a, b, busy[count - 1], order / 2, lower);
        g.wait();
    }
    return chol_peer_drop_if_empty(c, fresh);
}

chol_block *solve(chol_block *x, const chol_block *l, int order);

// Block row r of X L^-T; the two rows write different slots of x.
void solve_row(chol_block *x, const chol_block *l, int r, int half)
{
    chol_block *left = x->u.quad[2 * r], *right = x->u.quad[2 * r + 1];
    left = solve(left, l->u.quad[q00], half);
    right = update(right, left, l->u.quad[q10], half, 0);
    right = solve(right, l->u.quad[q11], half);
    x->u.quad[2 * r] = left;
    x->u.quad[2 * r + 1] = right;
}

chol_block *solve(chol_block *x, const chol_block *l, int order)
{
    if (x == nullptr)
        return nullptr;
    if (order == leaf) {
        chol_peer_leaf_solve(x, l);
        return x;
    }
    bool top_has_work = x->u.quad[q00] || x->u.quad[q01];
    bool bottom_has_work = x->u.quad[q10] || x->u.quad[q11];
    if (top_has_work && bottom_has_work) {
        tbb::task_group g;
        g.run([=] { solve_row(x, l, 0, order / 2); });
        solve_row(x, l, 1, order / 2);
        g.wait();
    } else {
        solve_row(x, l, top_has_work ? 0 : 1, order / 2);
    }
    return x;
}

void factor(chol_block *a, int order)
{
    if (order == leaf) {
        chol_peer_leaf_factor(a);
        return;
    }
    int half = order / 2;
    chol_block **q = a->u.quad;
    factor(q[q00], half);
    q[q10] = solve(q[q10], q[q00], half);
    q[q11] = update(q[q11], q[q10], q[q10], half, 1);
    factor(q[q11], half);
}

chol_block *copy(const chol_block *b, int order)
{
    if (b == nullptr || order == leaf)
        return chol_peer_copy(b, order);
    chol_block *c = chol_peer_new_block();
    tbb::task_group g;
    for (int q = 0; q < 3; q++)
        g.run([=] { c->u.quad[q] = copy(b->u.quad[q], order / 2); });
    c->u.quad[3] = copy(b->u.quad[3], order / 2);
    g.wait();
    return c;
}

void free_tree(chol_block *b, int order)
{
    if (b == nullptr || order == leaf) {
        std::free(b);
        return;
    }
    tbb::task_group g;
    for (int q = 0; q < 3; q++)
        g.run([=] { free_tree(b->u.quad[q], order / 2); });
    free_tree(b->u.quad[3], order / 2);
    g.wait();
    std::free(b);
}

} // namespace

chol_block *cholesky_parallel(const chol_block *input, int order, long repetitions)
{
    return peer_tbb_run([=] {
        chol_block *work = nullptr;
        for (long r = 0; r < repetitions; r++) {
            if (work != nullptr)
                free_tree(work, order);
            work = copy(input, order);
            factor(work, order);
        }
        return work;
    });
}
