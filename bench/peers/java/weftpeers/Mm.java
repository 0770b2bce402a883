// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** mm (Wool's dense matrix multiply, bench/mm): C = A B for n x n doubles
 *  with the textbook inner-product loop, one task per row (the row range
 *  halved down to single rows), repeated r times one after the other.
 *  Small integer inputs make every result exact; same checks as mm.h. */
public final class Mm implements Workload {
    static final int MAX_N = 4096, FULL_CHECK_MAX_N = 512;
    static final long MAX_REPETITIONS = 1L << 30;

    /** Row i of C = A B: the inner-product loop down a column of B. */
    static void row(double[] a, double[] b, double[] c, int n, int i) {
        int ai = i * n;
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += a[ai + k] * b[k * n + j];
            c[ai + j] = s;
        }
    }

    /** Rows [lo, hi): the lower half forked, the upper computed here. */
    static final class Rows extends RecursiveAction {
        final double[] a, b, c;
        final int n, lo, hi;

        Rows(double[] a, double[] b, double[] c, int n, int lo, int hi) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.n = n;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected void compute() {
            if (hi - lo == 1) {
                row(a, b, c, n, lo);
                return;
            }
            int mid = lo + (hi - lo) / 2;
            Rows lower = new Rows(a, b, c, n, lo, mid);
            lower.fork();
            new Rows(a, b, c, n, mid, hi).compute();
            lower.join();
        }
    }

    /** The r products, one after the other, inside the pool. */
    static final class Repeat extends RecursiveAction {
        final double[] a, b, c;
        final int n;
        final long repetitions;

        Repeat(double[] a, double[] b, double[] c, int n, long repetitions) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.n = n;
            this.repetitions = repetitions;
        }

        @Override
        protected void compute() {
            for (long r = 0; r < repetitions; r++)
                new Rows(a, b, c, n, 0, n).compute();
        }
    }

    static double[] smallInts(int n, long seed) {
        SplitMix r = new SplitMix(seed);
        double[] x = new double[n * n];
        for (int i = 0; i < x.length; i++)
            x[i] = r.smallInt();
        return x;
    }

    /** The exact integer a double of C must hold, or a failed check. */
    static long exact(double v, int i, int j) {
        Prog.check(v == v && v > -9.0e15 && v < 9.0e15 && v == (double) (long) v,
                   () -> "C[" + i + "][" + j + "] = " + Prog.formatG17(v) + " is not an integer");
        return (long) v;
    }

    static long[] matvecExact(double[] m, long[] x, int n) {
        long[] y = new long[n];
        for (int i = 0; i < n; i++) {
            long s = 0;
            for (int j = 0; j < n; j++)
                s += exact(m[i * n + j], i, j) * x[j];
            y[i] = s;
        }
        return y;
    }

    static void report(double[] a, double[] b, double[] c, int n, long r) {
        long checksum = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                checksum += exact(c[i * n + j], i, j);
        System.out.println("mm(" + n + ", " + r + "): checksum " + checksum);
        if (n <= FULL_CHECK_MAX_N) {
            long[] want = new long[n];
            for (int i = 0; i < n; i++) {
                Arrays.fill(want, 0);
                for (int k = 0; k < n; k++) {
                    long aik = (long) a[i * n + k];
                    for (int j = 0; j < n; j++)
                        want[j] += aik * (long) b[k * n + j];
                }
                for (int j = 0; j < n; j++) {
                    long got = exact(c[i * n + j], i, j), w = want[j];
                    int row = i, col = j;
                    Prog.check(got == w, () -> "C[" + row + "][" + col + "] = " + got
                                               + ", expected " + w);
                }
            }
        }
        for (long seed = 3; seed <= 4; seed++) {
            SplitMix random = new SplitMix(seed);
            long[] x = new long[n];
            for (int j = 0; j < n; j++)
                x[j] = Long.remainderUnsigned(random.next(), 2001) - 1000;
            long[] bx = matvecExact(b, x, n);
            long[] abx = new long[n];
            for (int i = 0; i < n; i++) {
                long s = 0;
                for (int k = 0; k < n; k++)
                    s += (long) a[i * n + k] * bx[k];
                abx[i] = s;
            }
            long[] cx = matvecExact(c, x, n);
            for (int i = 0; i < n; i++) {
                int at = i;
                long s = seed;
                Prog.check(cx[i] == abx[i], () -> "(C x)[" + at + "] = " + cx[at] + " but (A (B x))["
                                                  + at + "] = " + abx[at] + " (x seed " + s + ")");
            }
        }
    }

    /** C full of NaNs, so an entry no task wrote fails the check. */
    static double[] unwritten(int n) {
        double[] c = new double[n * n];
        Arrays.fill(c, Double.NaN);
        return c;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 2)
            prog.usage("<n> <repetitions>\n  n: matrix order in [1, " + MAX_N + "]\n"
                       + "  repetitions: products run one after the other, in [1, "
                       + MAX_REPETITIONS + "]");
        int n = (int) prog.argLong("n", args[0], 1, MAX_N);
        long r = prog.argLong("repetitions", args[1], 1, MAX_REPETITIONS);
        double[] a = smallInts(n, 1), b = smallInts(n, 2);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> pool.invoke(new Repeat(a, b, unwritten(n), n, Math.max(1, r / 8))));

        double[] c = unwritten(n);
        double t0 = Prog.now();
        pool.invoke(new Repeat(a, b, c, n, r));
        double seconds = Prog.now() - t0;
        report(a, b, c, n, r);
        Prog.printTime(seconds);
    }
}
