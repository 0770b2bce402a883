// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** cholesky (Cilk-5's sparse Cholesky, bench/cholesky): A = L L^T on a
 *  quad tree of 4 x 4 leaves, the two block rows of a triangular solve and
 *  the quadrants of an update as parallel tasks, and copying the tree in
 *  parallel too (freeing is the garbage collector's); each repetition
 *  copies the input and factors the copy.  Every entry is computed by the
 *  operations of cholesky.h in the same order, so L matches the sequential
 *  factor bit for bit (checked, as cholesky-weft does) and the checksum
 *  matches C's. */
public final class Cholesky implements Workload {
    static final int LEAF = 4;
    static final int MAX_N = 16384, FULL_CHECK_MAX_N = 512;
    static final long MAX_NONZEROS = 100000000L, MAX_REPETITIONS = 1L << 30;

    /** A block of order LEAF holds entries (row-major), a larger one its
     *  quadrants 00, 01, 10, 11 (null when all zero). */
    static final class Block {
        final double[] e;
        final Block[] quad;

        Block(int order) {
            e = order == LEAF ? new double[LEAF * LEAF] : null;
            quad = order == LEAF ? null : new Block[4];
        }

        Block(double[] e) {
            this.e = e;
            this.quad = null;
        }

        Block(Block[] quad) {
            this.e = null;
            this.quad = quad;
        }
    }

    /* ---- the leaf kernels ---- */

    static void leafFactor(double[] m) {
        for (int j = 0; j < LEAF; j++) {
            double d = m[j * LEAF + j];
            for (int k = 0; k < j; k++)
                d -= m[j * LEAF + k] * m[j * LEAF + k];
            double ljj = Math.sqrt(d); /* d <= 0 leaves a NaN the checks catch */
            m[j * LEAF + j] = ljj;
            for (int i = j + 1; i < LEAF; i++) {
                double s = m[i * LEAF + j];
                for (int k = 0; k < j; k++)
                    s -= m[i * LEAF + k] * m[j * LEAF + k];
                m[i * LEAF + j] = s / ljj;
            }
        }
    }

    static void leafSolve(double[] m, double[] l) {
        for (int r = 0; r < LEAF; r++)
            for (int j = 0; j < LEAF; j++) {
                double s = m[r * LEAF + j];
                for (int k = 0; k < j; k++)
                    s -= m[r * LEAF + k] * l[j * LEAF + k];
                m[r * LEAF + j] = s / l[j * LEAF + j];
            }
    }

    static void leafUpdate(double[] m, double[] a, double[] b, boolean lower) {
        for (int r = 0; r < LEAF; r++)
            for (int col = 0; col < (lower ? r + 1 : LEAF); col++) {
                double s = 0;
                for (int k = 0; k < LEAF; k++)
                    s += a[r * LEAF + k] * b[col * LEAF + k];
                m[r * LEAF + col] -= s;
            }
    }

    /* ---- the factorisation; par false gives the sequential reference ---- */

    /** Runs the tasks: in parallel (all but the last forked, the last run
     *  here, the others joined newest first) or one after the other. */
    static void runAll(boolean par, RecursiveAction[] tasks, int count) {
        if (!par) {
            for (int i = 0; i < count; i++)
                tasks[i].invoke();
            return;
        }
        for (int i = 0; i + 1 < count; i++)
            tasks[i].fork();
        if (count > 0)
            tasks[count - 1].invoke();
        for (int i = count - 2; i >= 0; i--)
            tasks[i].join();
    }

    /** C - A B^T (only C's lower triangle when lower); a missing C is
     *  allocated, and dropped again if it received no product. */
    static Block update(Block c, Block a, Block b, int order, boolean lower, boolean par) {
        if (a == null || b == null)
            return c;
        boolean fresh = c == null;
        if (fresh)
            c = new Block(order);
        if (order == LEAF) {
            leafUpdate(c.e, a.e, b.e, lower);
            return c;
        }
        /* A task per quadrant with a product to do (lower skips 01). */
        RecursiveAction[] tasks = new RecursiveAction[4];
        int count = 0;
        for (int q = 0; q < 4; q++) {
            int r = q >> 1, col = q & 1;
            boolean work = (a.quad[2 * r] != null && b.quad[2 * col] != null)
                           || (a.quad[2 * r + 1] != null && b.quad[2 * col + 1] != null);
            if (!(lower && q == 1) && work)
                tasks[count++] = new UpdateQuadrant(c, a, b, q, order / 2, lower, par);
        }
        runAll(par, tasks, count);
        if (fresh && c.quad[0] == null && c.quad[1] == null && c.quad[2] == null
            && c.quad[3] == null)
            return null;
        return c;
    }

    /** Quadrant q of C gets both of its products, in order; quadrant tasks
     *  of one C write different slots. */
    static final class UpdateQuadrant extends RecursiveAction {
        final Block c, a, b;
        final int q, half;
        final boolean lower, par;

        UpdateQuadrant(Block c, Block a, Block b, int q, int half, boolean lower, boolean par) {
            this.c = c;
            this.a = a;
            this.b = b;
            this.q = q;
            this.half = half;
            this.lower = lower;
            this.par = par;
        }

        @Override
        protected void compute() {
            int r = q >> 1, col = q & 1;
            boolean shape = lower && (q == 0 || q == 3);
            Block cq = c.quad[q];
            cq = update(cq, a.quad[2 * r], b.quad[2 * col], half, shape, par);
            cq = update(cq, a.quad[2 * r + 1], b.quad[2 * col + 1], half, shape, par);
            c.quad[q] = cq;
        }
    }

    /** Block row r of X L^-T: X_r0 L_00^-T, then X_r1 minus X_r0 L_10^T,
     *  then times L_11^-T.  The two rows write different slots of x. */
    static final class SolveRow extends RecursiveAction {
        final Block x, l;
        final int r, half;
        final boolean par;

        SolveRow(Block x, Block l, int r, int half, boolean par) {
            this.x = x;
            this.l = l;
            this.r = r;
            this.half = half;
            this.par = par;
        }

        @Override
        protected void compute() {
            Block left = solve(x.quad[2 * r], l.quad[0], half, par);
            Block right = update(x.quad[2 * r + 1], left, l.quad[2], half, false, par);
            right = solve(right, l.quad[3], half, par);
            x.quad[2 * r] = left;
            x.quad[2 * r + 1] = right;
        }
    }

    /** X L^-T, X off the diagonal, L on it. */
    static Block solve(Block x, Block l, int order, boolean par) {
        if (x == null)
            return null;
        if (order == LEAF) {
            leafSolve(x.e, l.e);
            return x;
        }
        boolean top = x.quad[0] != null || x.quad[1] != null;
        boolean bottom = x.quad[2] != null || x.quad[3] != null;
        if (top && bottom)
            runAll(par, new RecursiveAction[] { new SolveRow(x, l, 0, order / 2, par),
                                                new SolveRow(x, l, 1, order / 2, par) }, 2);
        else
            new SolveRow(x, l, top ? 0 : 1, order / 2, par).invoke();
        return x;
    }

    /** A = L L^T in place, A on the diagonal. */
    static void factor(Block a, int order, boolean par) {
        if (order == LEAF) {
            leafFactor(a.e);
            return;
        }
        int half = order / 2;
        Block[] q = a.quad;
        factor(q[0], half, par);
        q[2] = solve(q[2], q[0], half, par);
        q[3] = update(q[3], q[2], q[2], half, true, par);
        factor(q[3], half, par);
    }

    /** A copy of the tree, a task per quadrant. */
    static final class Copy extends RecursiveAction {
        final Block b;
        final int order;
        Block result;

        Copy(Block b, int order) {
            this.b = b;
            this.order = order;
        }

        @Override
        protected void compute() {
            if (b == null)
                return;
            if (order == LEAF) {
                result = new Block(b.e.clone());
                return;
            }
            Copy[] parts = new Copy[4];
            for (int q = 0; q < 4; q++)
                parts[q] = new Copy(b.quad[q], order / 2);
            runAll(true, parts, 4);
            result = new Block(new Block[] { parts[0].result, parts[1].result, parts[2].result,
                                             parts[3].result });
        }
    }

    /** Every repetition copies the input and factors the copy; returns
     *  the last factor. */
    static final class Repeat extends RecursiveAction {
        final Block input;
        final int order;
        final long repetitions;
        Block result;

        Repeat(Block input, int order, long repetitions) {
            this.input = input;
            this.order = order;
            this.repetitions = repetitions;
        }

        @Override
        protected void compute() {
            for (long r = 0; r < repetitions; r++) {
                Copy copy = new Copy(input, order);
                copy.invoke();
                factor(copy.result, order, true);
                result = copy.result;
            }
        }
    }

    /* ---- input ---- */

    /** The leaf holding entry (i, j), allocating the blocks on its path;
     *  the entry's index in it is (i % 4) * 4 + j % 4. */
    static Block leafOf(Block root, int order, int i, int j) {
        Block b = root;
        while (order > LEAF) {
            order /= 2;
            int q = (i >= order ? 2 : 0) + (j >= order ? 1 : 0);
            if (b.quad[q] == null)
                b.quad[q] = new Block(order);
            b = b.quad[q];
            i %= order;
            j %= order;
        }
        return b;
    }

    static double get(Block b, int order, int i, int j) {
        while (b != null && order > LEAF) {
            order /= 2;
            b = b.quad[(i >= order ? 2 : 0) + (j >= order ? 1 : 0)];
            i %= order;
            j %= order;
        }
        return b != null ? b.e[i * LEAF + j] : 0.0;
    }

    /** The input matrix of cholesky.h's chol_setup. */
    static Block input(int n, long nonzeros, int order) {
        Block root = new Block(order);
        double[] offdiagonal = new double[n];
        SplitMix random = new SplitMix(1);
        for (long placed = 0; placed < nonzeros - n;) {
            int i = (int) Long.remainderUnsigned(random.next(), n);
            int j = (int) Long.remainderUnsigned(random.next(), n);
            long z = random.next();
            double v = (double) ((z >>> 11) + 1) * 0x1.0p-53;
            if ((z & 1) != 0)
                v = -v;
            if (i == j)
                continue;
            int row = Math.max(i, j), col = Math.min(i, j);
            Block leaf = leafOf(root, order, row, col);
            int e = (row % LEAF) * LEAF + col % LEAF;
            if (leaf.e[e] != 0.0)
                continue;
            leaf.e[e] = v;
            offdiagonal[row] += Math.abs(v);
            offdiagonal[col] += Math.abs(v);
            placed++;
        }
        for (int i = 0; i < order; i++)
            leafOf(root, order, i, i).e[(i % LEAF) * LEAF + i % LEAF] =
                i < n ? 1.0 + offdiagonal[i] : 1.0;
        return root;
    }

    /* ---- checks ---- */

    interface Visitor {
        void visit(int row, int col, double v);
    }

    /** Every stored entry, depth first in quadrant order, entries row-major. */
    static void visit(Block b, int order, int row0, int col0, Visitor f) {
        if (b == null)
            return;
        if (order == LEAF) {
            for (int r = 0; r < LEAF; r++)
                for (int c = 0; c < LEAF; c++)
                    f.visit(row0 + r, col0 + c, b.e[r * LEAF + c]);
            return;
        }
        int half = order / 2;
        for (int q = 0; q < 4; q++)
            visit(b.quad[q], half, row0 + (q >> 1) * half, col0 + (q & 1) * half, f);
    }

    static long countLeaves(Block b, int order) {
        if (b == null)
            return 0;
        if (order == LEAF)
            return 1;
        long n = 0;
        for (Block q : b.quad)
            n += countLeaves(q, order / 2);
        return n;
    }

    /** y = M x (M^T x if transpose; the symmetric matrix whose lower
     *  triangle is stored if symmetric) and mag = |M| |x|; returns the
     *  number of nonzero entries stored above the diagonal. */
    static int matvec(Block m, int order, double[] x, double[] y, double[] mag, boolean transpose,
                      boolean symmetric) {
        java.util.Arrays.fill(y, 0.0);
        java.util.Arrays.fill(mag, 0.0);
        int[] upper = { 0 };
        visit(m, order, 0, 0, (r, c, v) -> {
            if (c > r) {
                if (v != 0.0)
                    upper[0]++;
                return;
            }
            int to = transpose ? c : r, from = transpose ? r : c;
            y[to] += v * x[from];
            mag[to] += Math.abs(v) * Math.abs(x[from]);
            if (symmetric && r != c) {
                y[c] += v * x[r];
                mag[c] += Math.abs(v) * Math.abs(x[r]);
            }
        });
        return upper[0];
    }

    static boolean differ(Block x, Block y, int order) {
        if (x == null || y == null)
            return x != y;
        if (order == LEAF) {
            for (int i = 0; i < LEAF * LEAF; i++)
                if (Double.doubleToRawLongBits(x.e[i]) != Double.doubleToRawLongBits(y.e[i]))
                    return true;
            return false;
        }
        for (int q = 0; q < 4; q++)
            if (differ(x.quad[q], y.quad[q], order / 2))
                return true;
        return false;
    }

    static void report(Block input, Block l, int n, long nonzeros, long r, int order) {
        double[] checksum = { 0.0 };
        visit(l, order, 0, 0, (row, col, v) -> checksum[0] += v);
        System.out.println("cholesky(" + n + ", " + nonzeros + ", " + r + "): N = " + order
                           + ", blocks " + countLeaves(l, order) + ", checksum "
                           + Prog.formatG17(checksum[0]));

        double gamma = 4.0 * (order + 1) * Math.ulp(1.0);
        double[] x = new double[order], ltX = new double[order], lltX = new double[order],
                 aX = new double[order], mag1 = new double[order], mag2 = new double[order],
                 magA = new double[order], ignored = new double[order];
        for (long seed = 11; seed <= 13; seed++) {
            SplitMix random = new SplitMix(seed);
            for (int i = 0; i < order; i++)
                x[i] = random.uniform();
            int upper = matvec(l, order, x, ltX, mag1, true, false);
            Prog.check(upper == 0, () -> "L has " + upper + " nonzero entries above the diagonal");
            matvec(l, order, ltX, lltX, ignored, false, false);
            matvec(l, order, mag1, ignored, mag2, false, false);
            matvec(input, order, x, aX, magA, false, true);
            for (int i = 0; i < order; i++) {
                double tol = gamma * (mag2[i] + magA[i]) + Double.MIN_NORMAL;
                int at = i;
                long s = seed;
                Prog.check(Math.abs(lltX[i] - aX[i]) <= tol,
                           () -> "(L L^T x)[" + at + "] = " + Prog.formatG17(lltX[at])
                                 + " but (A x)[" + at + "] = " + Prog.formatG17(aX[at])
                                 + " (tolerance " + tol + ", x seed " + s + ")");
            }
        }
        if (order > FULL_CHECK_MAX_N)
            return;
        double[] dense = new double[order * order];
        visit(l, order, 0, 0, (row, col, v) -> dense[row * order + col] = v);
        for (int row = 0; row < order; row++)
            for (int col = 0; col <= row; col++) {
                double s = 0, mag = 0;
                for (int k = 0; k <= col; k++) {
                    double p = dense[row * order + k] * dense[col * order + k];
                    s += p;
                    mag += Math.abs(p);
                }
                double a = get(input, order, row, col), tol = gamma * mag + Double.MIN_NORMAL,
                       got = s;
                int rr = row, cc = col;
                Prog.check(Math.abs(s - a) <= tol,
                           () -> "(L L^T)[" + rr + "][" + cc + "] = " + Prog.formatG17(got)
                                 + " but A[" + rr + "][" + cc + "] = " + Prog.formatG17(a)
                                 + " (tolerance " + tol + ")");
            }
    }

    /** N: the smallest power of two >= max(n, LEAF). */
    static int paddedOrder(int n) {
        int order = LEAF;
        while (order < n)
            order *= 2;
        return order;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 2 && args.length != 3)
            prog.usage("<n> <nonzeros> [repetitions]\n  n: matrix rows, in [1, " + MAX_N + "]\n"
                       + "  nonzeros: stored entries of the lower triangle with the diagonal,\n"
                       + "            in [n, n(n+1)/2] and at most " + MAX_NONZEROS + "\n"
                       + "  repetitions: factorisations run one after the other, in [1, "
                       + MAX_REPETITIONS + "] (default 1)");
        int n = (int) prog.argLong("n", args[0], 1, MAX_N);
        long most = Math.min((long) n * (n + 1) / 2, MAX_NONZEROS);
        long nonzeros = prog.argLong("nonzeros", args[1], n, most);
        long r = args.length == 3 ? prog.argLong("repetitions", args[2], 1, MAX_REPETITIONS) : 1;
        int order = paddedOrder(n);
        Block a = input(n, nonzeros, order);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> pool.invoke(new Repeat(a, order, Math.max(1, r / 8))));

        Repeat job = new Repeat(a, order, r);
        double t0 = Prog.now();
        pool.invoke(job);
        double seconds = Prog.now() - t0;

        report(a, job.result, n, nonzeros, r, order);
        /* The same factorisation, sequentially (untimed): must be identical. */
        Copy reference = new Copy(a, order);
        pool.invoke(reference);
        factor(reference.result, order, false);
        Prog.check(!differ(job.result, reference.result, order),
                   () -> "the parallel factor differs from the sequential one");
        Prog.printTime(seconds);
    }
}
