// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** strassen (Cilk-5, BOTS; bench/strassen): Strassen's multiplication with
 *  the seven half-size products as tasks (each forms its operand sums in
 *  fresh buffers and recurses) and C's four quadrants combined as tasks,
 *  down to a cut-off where the i-k-j loop takes over.  Integer inputs make
 *  the arithmetic exact, so the checks are exact, as in strassen.h. */
public final class Strassen implements Workload {
    static final long SEED_A = 0x5EED57A55E0AL, SEED_B = 0x5EED57A55E0BL,
                      SEED_CHECK = 0x5EED57A55E0CL;
    static final int MAX_N = 8192, DEFAULT_CUTOFF = 64, FULL_CHECK_MAX_N = 256, SAMPLES = 1024;

    /* The products' operands: quadrant q1, or q1 + sign q2 when q2 >= 0.
     * Quadrants: 0 = X11, 1 = X12, 2 = X21, 3 = X22. */
    static final int[][] LEFT = { { 0, 3, 1 }, { 2, 3, 1 }, { 0, -1, 0 }, { 3, -1, 0 },
                                  { 0, 1, 1 }, { 2, 0, -1 }, { 1, 3, -1 } };
    static final int[][] RIGHT = { { 0, 3, 1 }, { 0, -1, 0 }, { 1, 3, -1 }, { 2, 0, -1 },
                                   { 3, -1, 0 }, { 0, 1, 1 }, { 2, 3, 1 } };

    /** A block: entries of an array from off, with row stride ld. */
    record Block(double[] m, int off, int ld) {
        Block quadrant(int h, int q) {
            return new Block(m, off + (q >> 1) * h * ld + (q & 1) * h, ld);
        }
    }

    /** Base case: C = A B by the i-k-j loop (the inner loop runs along rows). */
    static void base(Block a, Block b, Block c, int n) {
        double[] am = a.m(), bm = b.m(), cm = c.m();
        int ao = a.off(), lda = a.ld(), bo = b.off(), ldb = b.ld(), co = c.off(), ldc = c.ld();
        for (int i = 0; i < n; i++) {
            int ci = co + i * ldc, ai = ao + i * lda;
            Arrays.fill(cm, ci, ci + n, 0.0);
            for (int k = 0; k < n; k++) {
                double aik = am[ai + k];
                int bk = bo + k * ldb;
                for (int j = 0; j < n; j++)
                    cm[ci + j] += aik * bm[bk + j];
            }
        }
    }

    /** The operand of a product: the quadrant itself, or the sum written to
     *  buf from off (h x h, stride h). */
    static Block operand(Block x, int h, int[] op, double[] buf, int off) {
        Block q1 = x.quadrant(h, op[0]);
        if (op[1] < 0)
            return q1;
        Block q2 = x.quadrant(h, op[1]);
        double sign = op[2];
        for (int i = 0; i < h; i++)
            for (int j = 0; j < h; j++)
                buf[off + i * h + j] = q1.m()[q1.off() + i * q1.ld() + j]
                                       + sign * q2.m()[q2.off() + i * q2.ld() + j];
        return new Block(buf, off, h);
    }

    /** C = A B for blocks of order n. */
    static final class Multiply extends RecursiveAction {
        final Block a, b, c;
        final int n, cutoff;

        Multiply(Block a, Block b, Block c, int n, int cutoff) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.n = n;
            this.cutoff = cutoff;
        }

        @Override
        protected void compute() {
            if (n <= cutoff) {
                base(a, b, c, n);
                return;
            }
            int h = n / 2, hh = h * h;
            double[] m = new double[7 * hh];
            /* The products only read A and B and write their own M_k. */
            Product[] products = new Product[7];
            for (int k = 0; k < 7; k++)
                products[k] = new Product(a, b, new Block(m, k * hh, h), n, k, cutoff);
            for (int k = 0; k < 6; k++)
                products[k].fork();
            products[6].compute();
            for (int k = 5; k >= 0; k--)
                products[k].join();
            /* The quadrants of C are disjoint. */
            Combine[] quadrants = new Combine[4];
            for (int q = 0; q < 4; q++)
                quadrants[q] = new Combine(c, h, m, q);
            for (int q = 0; q < 3; q++)
                quadrants[q].fork();
            quadrants[3].compute();
            for (int q = 2; q >= 0; q--)
                quadrants[q].join();
        }
    }

    /** Product k of the step on A, B: forms its operand sums, then recurses. */
    static final class Product extends RecursiveAction {
        final Block a, b, m;
        final int n, k, cutoff;

        Product(Block a, Block b, Block m, int n, int k, int cutoff) {
            this.a = a;
            this.b = b;
            this.m = m;
            this.n = n;
            this.k = k;
            this.cutoff = cutoff;
        }

        @Override
        protected void compute() {
            int h = n / 2;
            double[] buf = new double[2 * h * h];
            Block l = operand(a, h, LEFT[k], buf, 0);
            Block r = operand(b, h, RIGHT[k], buf, h * h);
            new Multiply(l, r, m, h, cutoff).compute();
        }
    }

    /** Quadrant q of C from the products M (each h x h, stride h). */
    static final class Combine extends RecursiveAction {
        final Block c;
        final int h, q;
        final double[] m;

        Combine(Block c, int h, double[] m, int q) {
            this.c = c;
            this.h = h;
            this.m = m;
            this.q = q;
        }

        @Override
        protected void compute() {
            int hh = h * h;
            Block cq = c.quadrant(h, q);
            double[] cm = cq.m();
            for (int i = 0; i < h; i++) {
                int row = cq.off() + i * cq.ld(), o = i * h;
                for (int j = 0; j < h; j++) {
                    int e = o + j;
                    double m1 = m[e], m2 = m[hh + e], m3 = m[2 * hh + e], m4 = m[3 * hh + e],
                           m5 = m[4 * hh + e], m6 = m[5 * hh + e], m7 = m[6 * hh + e];
                    switch (q) {
                    case 0: cm[row + j] = m1 + m4 - m5 + m7; break;
                    case 1: cm[row + j] = m3 + m5; break;
                    case 2: cm[row + j] = m2 + m4; break;
                    default: cm[row + j] = m1 - m2 + m3 + m6; break;
                    }
                }
            }
        }
    }

    static double[] filled(int n, long seed) {
        SplitMix r = new SplitMix(seed);
        double[] x = new double[n * n];
        for (int i = 0; i < x.length; i++)
            x[i] = r.smallInt();
        return x;
    }

    static double dot(double[] a, double[] b, int n, int i, int j) {
        double s = 0;
        for (int k = 0; k < n; k++)
            s += a[i * n + k] * b[k * n + j];
        return s;
    }

    static void checkEntry(double[] a, double[] b, double[] c, int n, int i, int j) {
        double want = dot(a, b, n, i, j), got = c[i * n + j];
        Prog.check(got == want, () -> "C[" + i + "][" + j + "] = " + Prog.formatG17(got)
                                      + ", expected " + Prog.formatG17(want));
    }

    static double[] matvec(double[] m, double[] x, int n) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++)
                s += m[i * n + j] * x[j];
            y[i] = s;
        }
        return y;
    }

    /** Exact checks of strassen.h's sm_check. */
    static void checkProduct(double[] a, double[] b, double[] c, int n) {
        if (n <= FULL_CHECK_MAX_N) {
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    checkEntry(a, b, c, n, i, j);
            return;
        }
        SplitMix random = new SplitMix(SEED_CHECK);
        for (int round = 0; round < 2; round++) {
            double[] x = new double[n];
            for (int i = 0; i < n; i++)
                x[i] = random.smallInt();
            double[] abx = matvec(a, matvec(b, x, n), n), cx = matvec(c, x, n);
            for (int i = 0; i < n; i++) {
                int at = i;
                Prog.check(cx[i] == abx[i], () -> "(C x)[" + at + "] = " + Prog.formatG17(cx[at])
                                                  + " but (A (B x))[" + at + "] = "
                                                  + Prog.formatG17(abx[at]));
            }
        }
        for (int s = 0; s < SAMPLES; s++) {
            long z = random.next();
            checkEntry(a, b, c, n, (int) Long.remainderUnsigned(z, n),
                       (int) Long.remainderUnsigned(z >>> 32, n));
        }
    }

    record Result(double[] a, double[] b, double[] c, double seconds) {}

    static Result multiply(ForkJoinPool pool, int n, int cutoff) {
        double[] a = filled(n, SEED_A), b = filled(n, SEED_B), c = new double[n * n];
        Arrays.fill(c, Double.NaN); /* an entry never written fails the check */
        double t0 = Prog.now();
        pool.invoke(new Multiply(new Block(a, 0, n), new Block(b, 0, n), new Block(c, 0, n), n,
                                 cutoff));
        return new Result(a, b, c, Prog.now() - t0);
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length < 1 || args.length > 2)
            prog.usage("<n> [cutoff]\n  n: a power of two in [1, " + MAX_N + "]; cutoff: multiply"
                       + " directly at n <= cutoff, in [1, " + MAX_N + "] (default "
                       + DEFAULT_CUTOFF + ")");
        int n = (int) prog.argLong("n", args[0], 1, MAX_N);
        if ((n & (n - 1)) != 0)
            prog.badArg("n must be a power of two, got " + n);
        int cutoff = args.length == 2 ? (int) prog.argLong("cutoff", args[1], 1, MAX_N)
                                      : DEFAULT_CUTOFF;
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> multiply(pool, Math.max(1, Math.min(n / 2, 512)), cutoff));

        Result r = multiply(pool, n, cutoff);
        double sum = 0;
        for (double v : r.c())
            sum += v;
        System.out.println("strassen(" + n + ", " + cutoff + "): checksum "
                           + Prog.formatFixed(sum, 0));
        checkProduct(r.a(), r.b(), r.c(), n);
        Prog.printTime(r.seconds());
    }
}
