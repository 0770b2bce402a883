// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** cilksort (Cilk-5, bench/cilksort): merge sort of unsigned 64-bit keys
 *  whose four quarter sorts run in parallel and whose merges split at the
 *  middle of the longer run (binary search in the other) into parallel
 *  halves.  Same cut-offs, input, output line and check as cilksort.h. */
public final class Cilksort implements Workload {
    static final long SEED = 0x5EEDC11C5027L;
    static final int QUICK_CUTOFF = 2048;    /* sort sizes below this sequentially */
    static final int MERGE_CUTOFF = 2048;    /* merge totals below this sequentially */
    static final int INSERTION_CUTOFF = 20;  /* quicksort hands over below this */
    static final long MAX_N = 4000000000L;
    static final long JAVA_MAX_N = Integer.MAX_VALUE - 8; /* largest Java array */

    /** Keys compare as unsigned integers. */
    static boolean less(long x, long y) {
        return x + Long.MIN_VALUE < y + Long.MIN_VALUE;
    }

    static void insertionSort(long[] a, int lo, int hi) {
        for (int p = lo + 1; p < hi; p++) {
            long k = a[p];
            int q = p;
            for (; q > lo && less(k, a[q - 1]); q--)
                a[q] = a[q - 1];
            a[q] = k;
        }
    }

    static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    /** cs_quicksort on a[lo..hi): median of three put in order (so both
     *  Hoare scans stop inside), recursion on the smaller part. */
    static void quicksort(long[] a, int lo, int hi) {
        while (hi - lo > INSERTION_CUTOFF) {
            int mid = lo + (hi - lo) / 2;
            if (less(a[mid], a[lo]))
                swap(a, mid, lo);
            if (less(a[hi - 1], a[mid])) {
                swap(a, hi - 1, mid);
                if (less(a[mid], a[lo]))
                    swap(a, mid, lo);
            }
            long pivot = a[mid];
            int i = lo - 1, j = hi;
            for (;;) {
                do
                    i++;
                while (less(a[i], pivot));
                do
                    j--;
                while (less(pivot, a[j]));
                if (i >= j)
                    break;
                swap(a, i, j);
            }
            int split = j + 1;
            if (split - lo < hi - split) {
                quicksort(a, lo, split);
                lo = split;
            } else {
                quicksort(a, split, hi);
                hi = split;
            }
        }
        insertionSort(a, lo, hi);
    }

    static void seqMerge(long[] s, int l1, int h1, int l2, int h2, long[] dest, int d) {
        while (l1 < h1 && l2 < h2)
            dest[d++] = less(s[l2], s[l1]) ? s[l2++] : s[l1++];
        while (l1 < h1)
            dest[d++] = s[l1++];
        while (l2 < h2)
            dest[d++] = s[l2++];
    }

    /** The first position in the sorted s[lo..hi) whose key is >= k. */
    static int lowerBound(long[] s, int lo, int hi, long k) {
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (less(s[mid], k))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    }

    /** Merges the sorted runs s[l1..h1) and s[l2..h2) into dest from d. */
    static final class Merge extends RecursiveAction {
        final long[] s, dest;
        final int l1, h1, l2, h2, d;

        Merge(long[] s, int l1, int h1, int l2, int h2, long[] dest, int d) {
            this.s = s;
            this.dest = dest;
            if (h1 - l1 < h2 - l2) { /* run1 is the longer one */
                this.l1 = l2;
                this.h1 = h2;
                this.l2 = l1;
                this.h2 = h1;
            } else {
                this.l1 = l1;
                this.h1 = h1;
                this.l2 = l2;
                this.h2 = h2;
            }
            this.d = d;
        }

        @Override
        protected void compute() {
            if ((h1 - l1) + (h2 - l2) < MERGE_CUTOFF) {
                seqMerge(s, l1, h1, l2, h2, dest, d);
                return;
            }
            int s1 = l1 + (h1 - l1) / 2;
            int s2 = lowerBound(s, l2, h2, s[s1]);
            /* The two parts write disjoint ranges of dest. */
            Merge first = new Merge(s, l1, s1, l2, s2, dest, d);
            first.fork();
            new Merge(s, s1, h1, s2, h2, dest, d + (s1 - l1) + (s2 - l2)).compute();
            first.join();
        }
    }

    /** Sorts a[off..off+n) with tmp[off..off+n) as scratch. */
    static final class Sort extends RecursiveAction {
        final long[] a, tmp;
        final int off, n;

        Sort(long[] a, long[] tmp, int off, int n) {
            this.a = a;
            this.tmp = tmp;
            this.off = off;
            this.n = n;
        }

        @Override
        protected void compute() {
            if (n < QUICK_CUTOFF) {
                quicksort(a, off, off + n);
                return;
            }
            int q = n / 4;
            Sort s0 = new Sort(a, tmp, off, q), s1 = new Sort(a, tmp, off + q, q),
                 s2 = new Sort(a, tmp, off + 2 * q, q);
            s0.fork();
            s1.fork();
            s2.fork();
            new Sort(a, tmp, off + 3 * q, n - 3 * q).compute();
            s2.join();
            s1.join();
            s0.join();
            Merge m = new Merge(a, off, off + q, off + q, off + 2 * q, tmp, off);
            m.fork();
            new Merge(a, off + 2 * q, off + 3 * q, off + 3 * q, off + n, tmp, off + 2 * q).compute();
            m.join();
            new Merge(tmp, off, off + 2 * q, off + 2 * q, off + n, a, off).compute();
        }
    }

    static long[] input(int n) {
        long[] a = new long[n];
        SplitMix random = new SplitMix(SEED);
        for (int i = 0; i < n; i++)
            a[i] = random.next();
        return a;
    }

    /** The multiset fingerprint of cs_fingerprint_of. */
    static long[] fingerprint(long[] a) {
        long sum = 0, mixSum = 0, mixXor = 0;
        for (long k : a) {
            long h = SplitMix.mix(k);
            sum += k;
            mixSum += h;
            mixXor ^= h;
        }
        return new long[] { sum, mixSum, mixXor };
    }

    /** Sorts a on the pool; returns the seconds it took. */
    static double sort(ForkJoinPool pool, long[] a) {
        long[] tmp = new long[a.length];
        double t0 = Prog.now();
        pool.invoke(new Sort(a, tmp, 0, a.length));
        return Prog.now() - t0;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 1)
            prog.usage("<n>\n  n: number of keys to sort, in [1, " + MAX_N + "]");
        long nl = prog.argLong("n", args[0], 1, MAX_N);
        if (nl > JAVA_MAX_N)
            prog.badArg("n = " + nl + " exceeds the largest Java array (" + JAVA_MAX_N + ")");
        int n = (int) nl;
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> sort(pool, input(Math.max(1, Math.min(n / 2, 1 << 20)))));

        long[] a = input(n);
        long[] in = fingerprint(a);
        double seconds = sort(pool, a);

        System.out.println(String.format("cilksort(%d): first %016x median %016x last %016x", n,
                                         a[0], a[n / 2], a[n - 1]));
        for (int i = 1; i < n; i++) {
            int at = i;
            Prog.check(!less(a[i], a[i - 1]),
                       () -> String.format("not sorted: key[%d] = %016x > key[%d] = %016x", at - 1,
                                           a[at - 1], at, a[at]));
        }
        long[] out = fingerprint(a);
        Prog.check(out[0] == in[0] && out[1] == in[1] && out[2] == in[2],
                   () -> String.format("output is not a permutation of the input (fingerprint "
                                       + "%016x/%016x/%016x, expected %016x/%016x/%016x)",
                                       out[0], out[1], out[2], in[0], in[1], in[2]));
        Prog.printTime(seconds);
    }
}
