// SPDX-License-Identifier: Apache-2.0
/* queens, sequential baseline: the same recursion as queens-weft.c with a
 * plain call where the parallel version spawns.
 *
 *   queens-seq [-c] <n>
 *
 * -c also counts, in a separate untimed pass, the tasks queens-weft spawns
 * for this n (one per legal board with at least one queen; the root is
 * RUN, not spawned).  Lace's paper gives 171,129,071 for n = 15. */
#include "queens.h"

/* Same shape as the task: first build and check every extension, then
 * recurse on the legal ones, last first (where the task spawns, then
 * syncs).  Recursing right after each check instead is ~20% slower here:
 * the child re-reads the board bytes just stored, a store-forwarding
 * stall that the parallel version does not have. */
static long queens(int n, int row, const signed char *board)
{
    if (row == n)
        return 1;
    signed char boards[QUEENS_MAX_N][QUEENS_MAX_N]; /* one copy per column */
    signed char *legal[QUEENS_MAX_N];
    int k = 0;
    for (int c = 0; c < n; c++) {
        signed char *b = boards[c];
        memcpy(b, board, (size_t)row);
        b[row] = (signed char)c;
        if (queens_ok(row + 1, b))
            legal[k++] = b;
    }
    long sum = 0;
    while (k-- > 0)
        sum += queens(n, row + 1, legal[k]);
    return sum;
}

/* The same walk, counting the calls below this one (= spawns in the weft
 * version).  Separate from queens() so the timed code carries no counter. */
static long queens_tasks(int n, int row, const signed char *board)
{
    if (row == n)
        return 0;
    signed char b[QUEENS_MAX_N];
    long tasks = 0;
    for (int c = 0; c < n; c++) {
        memcpy(b, board, (size_t)row);
        b[row] = (signed char)c;
        if (queens_ok(row + 1, b))
            tasks += 1 + queens_tasks(n, row + 1, b);
    }
    return tasks;
}

int main(int argc, char **argv)
{
    int count;
    int n = queens_args(argc, argv, "[-c] <n>", 1, &count);
    signed char board[QUEENS_MAX_N] = {0};
    double t0 = bench_now();
    long r = queens(n, 0, board);
    double seconds = bench_seconds_since(t0);
    printf("queens(%d) = %ld\n", n, r);
    queens_check(n, r);
    bench_print_time(seconds);
    if (count)
        printf("Tasks: %ld\n", queens_tasks(n, 0, board));
    return 0;
}
