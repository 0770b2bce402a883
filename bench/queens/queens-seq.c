/* queens, sequential baseline: the same recursion as queens-weft.c with a
 * plain call where the parallel version spawns.
 *
 *   queens-seq [-c] <n>
 *
 * -c also counts, in a separate untimed pass, the tasks queens-weft spawns
 * for this n (one per legal board with at least one queen; the root is
 * RUN, not spawned).  Lace's paper gives 171,129,071 for n = 15. */
#include "queens.h"

static long queens(int n, int row, const signed char *board, long *tasks)
{
    if (row == n)
        return 1;
    signed char boards[QUEENS_MAX_N][QUEENS_MAX_N]; /* one copy per column */
    long sum = 0;
    for (int c = 0; c < n; c++) {
        signed char *b = boards[c];
        memcpy(b, board, (size_t)row);
        b[row] = (signed char)c;
        if (queens_ok(row + 1, b)) {
            if (tasks)
                ++*tasks;
            sum += queens(n, row + 1, b, tasks);
        }
    }
    return sum;
}

int main(int argc, char **argv)
{
    int count;
    int n = queens_args(argc, argv, "[-c] <n>", 1, &count);
    signed char board[QUEENS_MAX_N] = {0};
    double t0 = bench_now();
    long r = queens(n, 0, board, NULL);
    double t1 = bench_now();
    printf("queens(%d) = %ld\n", n, r);
    queens_check(n, r);
    bench_print_time(t1 - t0);
    if (count) {
        long tasks = 0;
        queens(n, 0, board, &tasks);
        printf("Tasks: %ld\n", tasks);
    }
    return 0;
}
