// SPDX-License-Identifier: Apache-2.0
// queens with weft::task_group: a node runs every legal extension of its
// board on a group and sums the counts after wait(), as queens-weft spawns
// and syncs them.  The children's boards live in this frame until then
// (the callables hold a pointer, as queens-weft's tasks and the oneTBB
// peer's do).  No cut-off.
#include <cstring>

#include <weft/weft.hpp>

#include "queens-peer.h"
#include "queens.h"

namespace {

long queens(int n, int row, const signed char *board)
{
    if (row == n)
        return 1;
    signed char boards[QUEENS_MAX_N][QUEENS_MAX_N]; // one copy per column
    long counts[QUEENS_MAX_N];
    int k = 0;
    weft::task_group g;
    for (int c = 0; c < n; c++) {
        signed char *next = boards[c];
        std::memcpy(next, board, static_cast<size_t>(row));
        next[row] = static_cast<signed char>(c);
        if (queens_ok(row + 1, next)) {
            long *count = &counts[k++];
            g.run([n, row, next, count] { *count = queens(n, row + 1, next); });
        }
    }
    g.wait();
    long sum = 0;
    for (int i = 0; i < k; i++)
        sum += counts[i];
    return sum;
}

} // namespace

long queens_parallel(int n)
{
    return weft::run([n] {
        signed char board[QUEENS_MAX_N] = {0};
        return queens(n, 0, board);
    });
}
