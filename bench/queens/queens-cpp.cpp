// queens with weft::task_group: a node runs every legal extension of its
// board on a group (the callable holds the board by value: no allocation)
// and sums the counts after wait(), as queens-weft spawns and syncs them.
// No cut-off.
#include <cstring>

#include <weft/weft.hpp>

#include "queens-peer.h"
#include "queens.h"

namespace {

// A board of up to QUEENS_MAX_N rows, copied into the task.
struct board {
    signed char row[QUEENS_MAX_N];
};

long queens(int n, int row, const board &b)
{
    if (row == n)
        return 1;
    long counts[QUEENS_MAX_N];
    int k = 0;
    weft::task_group g;
    for (int c = 0; c < n; c++) {
        board next = b;
        next.row[row] = static_cast<signed char>(c);
        if (queens_ok(row + 1, next.row)) {
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
    return weft::run([n] { return queens(n, 0, board{}); });
}
