// SPDX-License-Identifier: Apache-2.0
// queens on oneTBB (the recursion of bench/queens/queens.h): a task node
// builds and checks every extension of its board, then runs each legal
// one in a task_group -- all but the last as tasks, the last called
// directly -- and sums their counts after wait().
// The children's boards and counts live in this frame until then.  No
// cut-off.
#include <cstring>

#include <tbb/task_group.h>

#include "peer-tbb.hpp"
#include "queens-peer.h"
#include "queens.h"

static long queens(int n, int row, const signed char *board)
{
    if (row == n)
        return 1;
    signed char boards[QUEENS_MAX_N][QUEENS_MAX_N]; // one copy per column
    const signed char *legal[QUEENS_MAX_N];
    int k = 0;
    for (int c = 0; c < n; c++) {
        signed char *b = boards[c];
        std::memcpy(b, board, static_cast<size_t>(row));
        b[row] = static_cast<signed char>(c);
        if (queens_ok(row + 1, b))
            legal[k++] = b;
    }
    if (k == 0)
        return 0;
    long counts[QUEENS_MAX_N];
    tbb::task_group g;
    for (int i = 0; i < k - 1; i++)
        g.run([&counts, &legal, i, n, row] { counts[i] = queens(n, row + 1, legal[i]); });
    counts[k - 1] = queens(n, row + 1, legal[k - 1]);
    g.wait();
    long sum = 0;
    for (int i = 0; i < k; i++)
        sum += counts[i];
    return sum;
}

long queens_parallel(int n)
{
    return peer_tbb_run([n] {
        signed char board[QUEENS_MAX_N] = {0};
        return queens(n, 0, board);
    });
}
