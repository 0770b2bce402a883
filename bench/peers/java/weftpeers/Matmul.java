// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** Rectangular matrix multiplication (Cilk-5's matmul, bench/matmul): C =
 *  A B for row-major n x n floats, halving the largest of m, n, p until
 *  m + n + p <= 64.  Halves that write disjoint rows (m) or columns (p) of
 *  C are forked; halves of n write the same block and run one after the
 *  other, the second adding to the first.  Same input, base case and
 *  checks as matmul.h. */
public final class Matmul implements Workload {
    static final int MIN_N = 16, MAX_N = 8192;
    static final int REF_MAX_N = 256; /* full reference product up to here */

    /** One call: an m x n block of A at aOff times an n x p block of B at
     *  bOff into the m x p block of C at cOff, all with row stride ld;
     *  C's block is overwritten unless add. */
    static final class Task extends RecursiveAction {
        final float[] a, b, c;
        final int aOff, bOff, cOff, m, n, p, ld;
        final boolean add;

        Task(float[] a, float[] b, float[] c, int aOff, int bOff, int cOff, int m, int n, int p,
             int ld, boolean add) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.aOff = aOff;
            this.bOff = bOff;
            this.cOff = cOff;
            this.m = m;
            this.n = n;
            this.p = p;
            this.ld = ld;
            this.add = add;
        }

        @Override
        protected void compute() {
            if (m + n + p <= 64) {
                base();
            } else if (m >= n && n >= p) { /* disjoint rows of C */
                int h = m >> 1;
                Task first = new Task(a, b, c, aOff, bOff, cOff, h, n, p, ld, add);
                first.fork(); /* matmul-weft spawns the first half */
                new Task(a, b, c, aOff + h * ld, bOff, cOff + h * ld, m - h, n, p, ld, add)
                    .compute();
                first.join();
            } else if (n >= m && n >= p) { /* same block of C: one after the other */
                int h = n >> 1;
                new Task(a, b, c, aOff, bOff, cOff, m, h, p, ld, add).compute();
                new Task(a, b, c, aOff + h, bOff + h * ld, cOff, m, n - h, p, ld, true).compute();
            } else { /* disjoint columns of C */
                int h = p >> 1;
                Task first = new Task(a, b, c, aOff, bOff, cOff, m, n, h, ld, add);
                first.fork();
                new Task(a, b, c, aOff, bOff + h, cOff + h, m, n, p - h, ld, add).compute();
                first.join();
            }
        }

        /** The inner-product loop of mm_base, accumulating in float. */
        private void base() {
            for (int i = 0; i < m; i++)
                for (int k = 0; k < p; k++) {
                    float s = 0;
                    for (int j = 0; j < n; j++)
                        s += a[aOff + i * ld + j] * b[bOff + j * ld + k];
                    int at = cOff + i * ld + k;
                    if (add)
                        c[at] += s;
                    else
                        c[at] = s;
                }
        }
    }

    static float[] filled(int n, long seed) {
        SplitMix random = new SplitMix(seed);
        float[] m = new float[n * n];
        for (int i = 0; i < m.length; i++)
            m[i] = (float) random.uniform();
        return m;
    }

    static final double EPS = Math.ulp(1.0f); /* FLT_EPSILON */

    /** Every entry against a dot product in double (mm_check_full). */
    static void checkFull(float[] a, float[] b, float[] c, int n) {
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++) {
                double s = 0, mag = 0;
                for (int j = 0; j < n; j++) {
                    float prod = a[i * n + j] * b[j * n + k];
                    s += prod;
                    mag += Math.abs(prod);
                }
                double got = c[i * n + k], want = s;
                double tol = 2.0 * n * EPS * mag + Double.MIN_NORMAL;
                int row = i, col = k;
                Prog.check(Math.abs(got - s) <= tol,
                           () -> "C[" + row + "][" + col + "] = " + Prog.formatG17(got)
                                 + ", expected " + Prog.formatG17(want) + " (tolerance " + tol + ")");
            }
    }

    /** y = M x, and |M| |x| into mag if not null (mm_matvec). */
    static void matvec(float[] m, double[] x, double[] y, double[] mag, int n) {
        for (int i = 0; i < n; i++) {
            double s = 0, abs = 0;
            for (int j = 0; j < n; j++) {
                s += m[i * n + j] * x[j];
                abs += Math.abs((double) m[i * n + j]) * Math.abs(x[j]);
            }
            y[i] = s;
            if (mag != null)
                mag[i] = abs;
        }
    }

    /** Freivalds' check, C x = A (B x) within rounding (mm_check_random). */
    static void checkRandom(float[] a, float[] b, float[] c, int n, long seed) {
        SplitMix random = new SplitMix(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++)
            x[i] = random.uniform();
        double[] bx = new double[n], absBx = new double[n], abx = new double[n];
        double[] cx = new double[n], mag = new double[n], ignore = new double[n];
        matvec(b, x, bx, absBx, n);
        matvec(a, bx, abx, null, n);
        matvec(c, x, cx, null, n);
        matvec(a, absBx, ignore, mag, n);
        for (int i = 0; i < n; i++) {
            double tol = 4.0 * n * EPS * mag[i] + Double.MIN_NORMAL;
            int row = i;
            Prog.check(Math.abs(cx[i] - abx[i]) <= tol,
                       () -> "(C x)[" + row + "] = " + Prog.formatG17(cx[row]) + " but (A (B x))["
                             + row + "] = " + Prog.formatG17(abx[row]) + " (tolerance " + tol + ")");
        }
    }

    /** The inputs, the product and the time the multiplication took. */
    record Product(float[] a, float[] b, float[] c, double seconds) {}

    /** Multiplies fresh n x n inputs on the pool; only the multiplication is timed. */
    static Product multiply(ForkJoinPool pool, int n) {
        float[] a = filled(n, 1), b = filled(n, 2), c = new float[n * n];
        /* NaNs everywhere, so an entry the multiplication never writes fails. */
        Arrays.fill(c, Float.intBitsToFloat(-1));
        double t0 = Prog.now();
        pool.invoke(new Task(a, b, c, 0, 0, 0, n, n, n, n, false));
        double seconds = Prog.now() - t0;
        return new Product(a, b, c, seconds);
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 1)
            prog.usage("<n>\n  n: a power of two in [" + MIN_N + ", " + MAX_N + "]");
        int n = (int) prog.argLong("n", args[0], MIN_N, MAX_N);
        if ((n & (n - 1)) != 0)
            prog.badArg("n must be a power of two, got " + n);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> multiply(pool, Math.max(MIN_N, Math.min(n / 2, 256))));
        Product r = multiply(pool, n);
        double checksum = 0;
        for (float v : r.c())
            checksum += v;
        System.out.println("matmul(" + n + "): checksum " + Prog.formatG17(checksum));
        if (n <= REF_MAX_N)
            checkFull(r.a(), r.b(), r.c(), n);
        else
            checkRandom(r.a(), r.b(), r.c(), n, 0x5eed0003L);
        Prog.printTime(r.seconds());
    }
}
