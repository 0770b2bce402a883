// SPDX-License-Identifier: Apache-2.0
/* queens with a task per legal board and no cut-off (the Cilk/Lace
 * nqueens; see queens.h).
 *
 *   queens-weft [-w workers] <n>
 */
#include "queens.h"

#include <weft/weft.h>

WEFT_TASK_3(long, queens, int, n, int, row, const signed char *, board)
{
    if (row == n)
        return 1;
    /* The children's boards stay in this frame until they are synced. */
    signed char boards[QUEENS_MAX_N][QUEENS_MAX_N];
    int spawned = 0;
    for (int c = 0; c < n; c++) {
        signed char *b = boards[c];
        memcpy(b, board, (size_t)row);
        b[row] = (signed char)c;
        if (queens_ok(row + 1, b)) {
            WEFT_SPAWN(queens, n, row + 1, b);
            spawned++;
        }
    }
    long sum = 0;
    while (spawned-- > 0)
        sum += WEFT_SYNC(queens);
    return sum;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int count;
    int n = queens_args(argc, argv, "[-w workers] <n>", 0, &count);
    printf("workers: %u\n", bench_weft_start(workers));
    signed char board[QUEENS_MAX_N] = {0};
    double t0 = bench_now();
    long r = WEFT_RUN(queens, n, 0, board);
    double seconds = bench_seconds_since(t0);
    printf("queens(%d) = %ld\n", n, r);
    queens_check(n, r);
    bench_weft_finish(seconds);
    return 0;
}
