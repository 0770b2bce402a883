// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** stress (Wool's load-balancing micro-benchmark, bench/stress): r
 *  balanced binary task trees of height h, one after the other, whose
 *  leaves each run n dependent additions.  Same answer (closed form) as
 *  stress.h.  The JIT keeps the leaf loop (HotSpot does not replace a sum
 *  by its closed form, and there is no memory to vectorise): the time
 *  grows linearly with n (checked by hand: n = 4096, 16384, 65536). */
public final class Stress implements Workload {
    static long leaf(long n, long j) {
        long x = j;
        for (long i = 0; i < n; i++)
            x += i;
        return x;
    }

    /** The tree of height h whose leaves are numbered from first. */
    static final class Tree extends RecursiveAction {
        final int height;
        final long first, n;
        long result;

        Tree(int height, long first, long n) {
            this.height = height;
            this.first = first;
            this.n = n;
        }

        @Override
        protected void compute() {
            if (height == 0) {
                result = leaf(n, first);
                return;
            }
            long half = 1L << (height - 1);
            Tree left = new Tree(height - 1, first, n);
            left.fork(); /* stress-weft spawns the left subtree */
            Tree right = new Tree(height - 1, first + half, n);
            right.compute();
            left.join();
            result = left.result + right.result;
        }
    }

    /** The r trees, one after the other, inside the pool. */
    static final class Repeat extends RecursiveAction {
        final int height;
        final long n, repetitions;
        long sum;

        Repeat(int height, long n, long repetitions) {
            this.height = height;
            this.n = n;
            this.repetitions = repetitions;
        }

        @Override
        protected void compute() {
            for (long r = 0; r < repetitions; r++) {
                Tree t = new Tree(height, 0, n);
                t.compute();
                sum += t.result;
            }
        }
    }

    static long triangle(long n) {
        if (n == 0)
            return 0;
        return n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
    }

    static long stress(ForkJoinPool pool, int h, long n, long r) {
        Repeat job = new Repeat(h, n, r);
        pool.invoke(job);
        return job.sum;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 3)
            prog.usage("<leaf-iterations> <height> <repetitions>\n"
                       + "  leaf-iterations: additions per leaf, in [0, 1073741824]\n"
                       + "  height: the tree has 2^height leaves, height in [0, 30]\n"
                       + "  repetitions: trees run one after the other, in [1, 1099511627776]");
        long n = prog.argLong("leaf-iterations", args[0], 0, 1L << 30);
        int h = (int) prog.argLong("height", args[1], 0, 30);
        long r = prog.argLong("repetitions", args[2], 1, 1L << 40);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> stress(pool, h, n, Math.max(1, Math.min(r / 8, 8192))));

        double t0 = Prog.now();
        long sum = stress(pool, h, n, r);
        double seconds = Prog.now() - t0;

        System.out.println("stress(" + n + ", " + h + ", " + r + ") = " + Long.toUnsignedString(sum));
        long leaves = 1L << h;
        long want = r * (triangle(leaves) + leaves * triangle(n));
        Prog.check(sum == want, () -> "stress sum is " + Long.toUnsignedString(sum) + ", expected "
                                      + Long.toUnsignedString(want));
        Prog.printTime(seconds);
    }
}
