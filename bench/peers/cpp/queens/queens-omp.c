// SPDX-License-Identifier: Apache-2.0
/* queens on OpenMP tasks (the recursion of bench/queens/queens.h): a task
 * node builds and checks every extension of its board, then runs each
 * legal one -- all but the last as tasks, the last called directly -- and
 * sums their counts after taskwait.  The children's boards and counts live
 * in this frame until then.  No cut-off (no if/final clause). */
#include "queens.h"
#include "queens-peer.h"

static long queens(int n, int row, const signed char *board)
{
    if (row == n)
        return 1;
    signed char boards[QUEENS_MAX_N][QUEENS_MAX_N]; /* one copy per column */
    const signed char *legal[QUEENS_MAX_N];
    int k = 0;
    for (int c = 0; c < n; c++) {
        signed char *b = boards[c];
        memcpy(b, board, (size_t)row);
        b[row] = (signed char)c;
        if (queens_ok(row + 1, b))
            legal[k++] = b;
    }
    if (k == 0)
        return 0;
    long counts[QUEENS_MAX_N];
    for (int i = 0; i < k - 1; i++) {
#pragma omp task shared(counts, legal) firstprivate(i, n, row)
        counts[i] = queens(n, row + 1, legal[i]);
    }
    counts[k - 1] = queens(n, row + 1, legal[k - 1]);
#pragma omp taskwait
    long sum = 0;
    for (int i = 0; i < k; i++)
        sum += counts[i];
    return sum;
}

long queens_parallel(int n)
{
    long r = 0;
#pragma omp parallel shared(r) firstprivate(n)
    {
#pragma omp single
        {
            signed char board[QUEENS_MAX_N] = {0};
            r = queens(n, 0, board);
        }
    }
    return r;
}
