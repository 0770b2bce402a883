// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** dfor (bench/dfor): a divide-and-conquer parallel for loop over a small
 *  fixed body, split in halves down to a grain (default 1), repeated r
 *  times one after the other.  Same output and check as dfor.h. */
public final class Dfor implements Workload {
    static final long MUL = 0xD6E8FEB86659FD93L;
    static final long MAX_N = 1L << 31;
    static final long MAX_ITERATIONS = 100000000, MAX_REPETITIONS = 100000000;
    static final long JAVA_MAX_N = Integer.MAX_VALUE - 8; /* largest Java array */

    static long body(long x, long i, long iterations) {
        for (long k = 0; k < iterations; k++) {
            x ^= x >>> 29;
            x = x * MUL + i;
        }
        return x;
    }

    /** The body on a[lo..hi): the upper half forked, the lower computed here. */
    static final class For extends RecursiveAction {
        final long[] a;
        final int lo, hi, grain;
        final long iterations;

        For(long[] a, int lo, int hi, long iterations, int grain) {
            this.a = a;
            this.lo = lo;
            this.hi = hi;
            this.iterations = iterations;
            this.grain = grain;
        }

        @Override
        protected void compute() {
            if (hi - lo <= grain) {
                for (int i = lo; i < hi; i++)
                    a[i] = body(a[i], i, iterations);
                return;
            }
            int mid = lo + (hi - lo) / 2;
            For upper = new For(a, mid, hi, iterations, grain);
            upper.fork();
            new For(a, lo, mid, iterations, grain).compute();
            upper.join();
        }
    }

    /** The loops one after the other, inside the pool. */
    static final class Repeat extends RecursiveAction {
        final long[] a;
        final long iterations, repetitions;
        final int grain;

        Repeat(long[] a, long iterations, long repetitions, int grain) {
            this.a = a;
            this.iterations = iterations;
            this.repetitions = repetitions;
            this.grain = grain;
        }

        @Override
        protected void compute() {
            for (long r = 0; r < repetitions; r++)
                new For(a, 0, a.length, iterations, grain).compute();
        }
    }

    static long[] identity(int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++)
            a[i] = i;
        return a;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 3 && args.length != 4)
            prog.usage("<n> <iterations-per-body> <repetitions> [grain]\n"
                       + "  n: loop length; iterations: body steps per index; repetitions: loops\n"
                       + "  run one after the other; grain: indices per leaf task (default 1)");
        long nl = prog.argLong("n", args[0], 1, MAX_N);
        long iterations = prog.argLong("iterations-per-body", args[1], 0, MAX_ITERATIONS);
        long repetitions = prog.argLong("repetitions", args[2], 1, MAX_REPETITIONS);
        long grainl = args.length == 4 ? prog.argLong("grain", args[3], 1, MAX_N) : 1;
        if (nl > JAVA_MAX_N)
            prog.badArg("n = " + nl + " exceeds the largest Java array (" + JAVA_MAX_N + ")");
        int n = (int) nl, grain = (int) Math.min(grainl, JAVA_MAX_N);
        /* JIT warm-up on a smaller input, untimed. */
        long warmUpRepetitions = Math.max(1, repetitions / 8);
        Prog.warmUp(() -> pool.invoke(new Repeat(identity(n), iterations, warmUpRepetitions,
                                                 grain)));

        long[] a = identity(n);
        double t0 = Prog.now();
        pool.invoke(new Repeat(a, iterations, repetitions, grain));
        double seconds = Prog.now() - t0;

        long sum = 0;
        for (long x : a)
            sum += x;
        System.out.println(String.format("dfor(%d, %d, %d): checksum %016x", n, iterations,
                                         repetitions, sum));
        for (int i = 0; i < n; i++) {
            long x = i;
            for (long r = 0; r < repetitions; r++)
                x = body(x, i, iterations);
            long want = x, got = a[i];
            int at = i;
            Prog.check(got == want,
                       () -> String.format("a[%d] = %016x, expected %016x", at, got, want));
        }
        Prog.printTime(seconds);
    }
}
