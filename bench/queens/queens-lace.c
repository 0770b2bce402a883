// SPDX-License-Identifier: Apache-2.0
/* N-queens written against Lace's API (<lace.h>): the same program as
 * queens-weft.c, run through weft's Lace layer. */
#include "queens.h"

#include <lace.h>

TASK_3(long, queens, int, n, int, row, const signed char *, board)
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
            SPAWN(queens, n, row + 1, b);
            spawned++;
        }
    }
    long sum = 0;
    while (spawned-- > 0)
        sum += SYNC(queens);
    return sum;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int count;
    int n = queens_args(argc, argv, "[-w workers] <n>", 0, &count);
    lace_start(workers, 0);
    printf("workers: %u\n", lace_workers());
    signed char board[QUEENS_MAX_N] = {0};
    double t0 = bench_now();
    long r = RUN(queens, n, 0, board);
    double t1 = bench_now();
    printf("queens(%d) = %ld\n", n, r);
    queens_check(n, r);
    bench_print_time(t1 - t0);
    lace_count_report_file(stdout);
    lace_stop();
    return 0;
}
