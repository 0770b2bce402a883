// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** fib with a task per call and no cut-off (bench/fib): the spawn/sync
 *  overhead test. */
public final class Fib implements Workload {
    /** The result is kept in the task (as in Doug Lea's own Fib loop
     *  test), not returned boxed from a RecursiveTask&lt;Long&gt;: one
     *  allocation per call instead of two. */
    static final class Task extends RecursiveAction {
        final int n;
        long result;

        Task(int n) {
            this.n = n;
        }

        @Override
        protected void compute() {
            if (n < 2) {
                result = n;
                return;
            }
            /* fib-weft spawns fib(n - 1) and calls fib(n - 2). */
            Task a = new Task(n - 1);
            a.fork();
            Task b = new Task(n - 2);
            b.compute();
            a.join();
            result = a.result + b.result;
        }
    }

    static long fibIter(int n) {
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    static long fib(ForkJoinPool pool, int n) {
        Task t = new Task(n);
        pool.invoke(t);
        return t.result;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 1)
            prog.usage("<n>");
        int n = (int) prog.argLong("n", args[0], 0, 60);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> fib(pool, Math.max(0, Math.min(n - 3, 30))));
        double t0 = Prog.now();
        long r = fib(pool, n);
        double t1 = Prog.now();
        System.out.println("fib(" + n + ") = " + r);
        long expected = fibIter(n);
        Prog.check(r == expected, () -> "fib(" + n + ") = " + r + ", expected " + expected);
        Prog.printTime(t1 - t0);
    }
}
