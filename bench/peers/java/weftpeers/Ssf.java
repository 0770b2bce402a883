// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** ssf (Wool's sub-string finder, bench/ssf): for every position of the
 *  Fibonacci word of order k, the longest repeat elsewhere in it (length
 *  and first position), one task per position (the range halved down to
 *  single positions), repeated r times.  Same output and checks as ssf.h. */
public final class Ssf implements Workload {
    static final int MAX_K = 25;
    static final long MAX_REPETITIONS = 1L << 30;
    /** Independently computed {k, total length, checksum}, from ssf.h. */
    static final long[][] KNOWN_TOTALS = { { 5, 17, 707 }, { 8, 384, 195093 },
                                           { 12, 19052, 412172794 },
                                           { 16, 901929, 903845346554L } };
    static final int[] KNOWN_LEN5 = { 3, 2, 1, 3, 2, 3, 2, 1 };
    static final int[] KNOWN_POS5 = { 3, 4, 0, 0, 1, 0, 1, 0 };

    /** s_0 = "a", s_1 = "b", s_k = s_{k-1} s_{k-2}. */
    static byte[] fibonacciWord(int k) {
        StringBuilder before = new StringBuilder("a"), word = new StringBuilder("b");
        if (k == 0)
            return "a".getBytes();
        for (int i = 2; i <= k; i++) {
            StringBuilder next = new StringBuilder(word).append(before);
            before = word;
            word = next;
        }
        return word.toString().getBytes();
    }

    /** The search for position i: the definition, pair by pair. */
    static void position(byte[] s, int i, int[] len, int[] pos) {
        int n = s.length, best = 0, where = -1;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            int limit = n - Math.max(i, j);
            int l = 0;
            while (l < limit && s[i + l] == s[j + l])
                l++;
            if (l > best) {
                best = l;
                where = j;
            }
        }
        len[i] = best;
        pos[i] = where;
    }

    /** Positions [lo, hi): the lower half forked, the upper computed here. */
    static final class Positions extends RecursiveAction {
        final byte[] s;
        final int[] len, pos;
        final int lo, hi;

        Positions(byte[] s, int[] len, int[] pos, int lo, int hi) {
            this.s = s;
            this.len = len;
            this.pos = pos;
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        protected void compute() {
            if (hi - lo == 1) {
                position(s, lo, len, pos);
                return;
            }
            int mid = lo + (hi - lo) / 2;
            Positions lower = new Positions(s, len, pos, lo, mid);
            lower.fork();
            new Positions(s, len, pos, mid, hi).compute();
            lower.join();
        }
    }

    /** The r searches, one after the other, inside the pool. */
    static final class Repeat extends RecursiveAction {
        final byte[] s;
        final int[] len, pos;
        final long repetitions;

        Repeat(byte[] s, int[] len, int[] pos, long repetitions) {
            this.s = s;
            this.len = len;
            this.pos = pos;
            this.repetitions = repetitions;
        }

        @Override
        protected void compute() {
            for (long r = 0; r < repetitions; r++)
                new Positions(s, len, pos, 0, s.length).compute();
        }
    }

    /** len and pos by the lcp-table recurrence (ssf_reference). */
    static void reference(byte[] s, int[] refLen, int[] refPos) {
        int n = s.length;
        int[] nextRow = new int[n + 1], row = new int[n + 1];
        for (int i = n - 1; i >= 0; i--) {
            int best = 0, where = -1;
            for (int j = 0; j < n; j++) {
                row[j] = s[i] == s[j] ? nextRow[j + 1] + 1 : 0;
                if (j != i && row[j] > best) {
                    best = row[j];
                    where = j;
                }
            }
            row[n] = 0;
            refLen[i] = best;
            refPos[i] = where;
            int[] t = row;
            row = nextRow;
            nextRow = t;
        }
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 2)
            prog.usage("<k> <repetitions>\n  k: order of the Fibonacci word, in [0, " + MAX_K
                       + "]\n  repetitions: searches run one after the other, in [1, "
                       + MAX_REPETITIONS + "]");
        int k = (int) prog.argLong("k", args[0], 0, MAX_K);
        long r = prog.argLong("repetitions", args[1], 1, MAX_REPETITIONS);
        byte[] s = fibonacciWord(k);
        int n = s.length;
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> pool.invoke(new Repeat(s, new int[n], new int[n],
                                                 Math.max(1, r / 8))));

        int[] len = new int[n], pos = new int[n];
        Arrays.fill(len, -1); /* impossible values: an unsearched position fails */
        Arrays.fill(pos, -2);
        double t0 = Prog.now();
        pool.invoke(new Repeat(s, len, pos, r));
        double seconds = Prog.now() - t0;

        long total = 0, checksum = 0;
        for (int i = 0; i < n; i++) {
            int at = i;
            Prog.check(len[i] >= 0 && pos[i] >= -1 && pos[i] < n,
                       () -> "position " + at + " was not searched (len " + len[at] + ", pos "
                             + pos[at] + ")");
            total += len[i];
            checksum += (long) (i + 1) * ((long) len[i] * (n + 1) + (pos[i] + 1));
        }
        System.out.println("ssf(" + k + ", " + r + "): N = " + n + ", total length " + total
                           + ", checksum " + Long.toUnsignedString(checksum));
        int[] refLen = new int[n], refPos = new int[n];
        reference(s, refLen, refPos);
        for (int i = 0; i < n; i++) {
            int at = i;
            Prog.check(len[i] == refLen[i] && pos[i] == refPos[i],
                       () -> "position " + at + ": longest repeat " + len[at] + " at " + pos[at]
                             + ", the lcp table says " + refLen[at] + " at " + refPos[at]);
        }
        if (k == 5)
            for (int i = 0; i < n; i++) {
                int at = i;
                Prog.check(len[i] == KNOWN_LEN5[i] && pos[i] == KNOWN_POS5[i],
                           () -> "k = 5, position " + at + ": " + len[at] + " at " + pos[at]
                                 + ", known " + KNOWN_LEN5[at] + " at " + KNOWN_POS5[at]);
            }
        for (long[] known : KNOWN_TOTALS)
            if (known[0] == k) {
                long t = total, c = checksum;
                Prog.check(t == known[1] && c == known[2],
                           () -> "k = " + k + ": total " + t + ", checksum "
                                 + Long.toUnsignedString(c) + "; known " + known[1] + ", "
                                 + known[2]);
            }
        Prog.printTime(seconds);
    }
}
