// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** N-queens, the Cilk/Lace nqueens of bench/queens: a board with queens on
 *  rows 0..row-1 tries every column of row `row` on a fresh copy, checks
 *  the whole board pairwise, and every legal copy becomes a task; no
 *  cut-off. */
public final class Queens implements Workload {
    /** Solutions for N = 0..MAX_N (OEIS A000170), as in queens.h. */
    static final int MAX_N = 18;
    static final long[] KNOWN = {
        1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
        14772512, 95815104, 666090624L,
    };

    /** No two of the queens a[0..k-1] (a[i] = column of row i) attack each other. */
    static boolean ok(int k, byte[] a) {
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++) {
                int d = j - i;
                if (a[j] == a[i] || a[j] == a[i] - d || a[j] == a[i] + d)
                    return false;
            }
        return true;
    }

    /** The search below a board with queens on rows 0..row-1; the result
     *  is kept in the task rather than boxed. */
    static final class Task extends RecursiveAction {
        final int n, row;
        final byte[] board;
        long result;

        Task(int n, int row, byte[] board) {
            this.n = n;
            this.row = row;
            this.board = board;
        }

        @Override
        protected void compute() {
            if (row == n) {
                result = 1;
                return;
            }
            Task[] children = new Task[n];
            int k = 0;
            for (int c = 0; c < n; c++) {
                byte[] b = Arrays.copyOf(board, row + 1);
                b[row] = (byte) c;
                if (ok(row + 1, b))
                    children[k++] = new Task(n, row + 1, b);
            }
            /* Fork all but the last, compute that one here, then join the
             * forked ones newest first (each is usually still in this
             * worker's deque and is popped and run here). */
            if (k == 0)
                return;
            for (int i = 0; i < k - 1; i++)
                children[i].fork();
            children[k - 1].compute();
            long sum = children[k - 1].result;
            for (int i = k - 2; i >= 0; i--) {
                children[i].join();
                sum += children[i].result;
            }
            result = sum;
        }
    }

    static long queens(ForkJoinPool pool, int n) {
        Task t = new Task(n, 0, new byte[0]);
        pool.invoke(t);
        return t.result;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 1)
            prog.usage("<n>");
        int n = (int) prog.argLong("n", args[0], 1, MAX_N);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> queens(pool, Math.max(1, Math.min(n - 2, 11))));
        double t0 = Prog.now();
        long r = queens(pool, n);
        double t1 = Prog.now();
        System.out.println("queens(" + n + ") = " + r);
        Prog.check(r == KNOWN[n], () -> "queens(" + n + ") = " + r + ", expected " + KNOWN[n]);
        Prog.printTime(t1 - t0);
    }
}
