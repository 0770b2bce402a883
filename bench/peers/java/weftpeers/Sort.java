// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/** sort (bench/sort): n random ints sorted ascending by Java's own parallel
 *  sort, Arrays.parallelSort (a parallel dual-pivot quicksort and merge on
 *  fork/join), run inside the pool so that its subtasks are the pool's.
 *  Same input, output line and check as sort.h. */
public final class Sort implements Workload {
    static final long SEED = 0x5EEDC11C5027L;
    static final long MAX_N = 2000000000L;
    static final long JAVA_MAX_N = Integer.MAX_VALUE - 8; /* largest Java array */

    /** a[i]: the high 32 bits of splitmix64's i-th output, as a signed int. */
    static int[] input(int n) {
        int[] a = new int[n];
        SplitMix random = new SplitMix(SEED);
        for (int i = 0; i < n; i++)
            a[i] = (int) (random.next() >>> 32);
        return a;
    }

    /** sort_fingerprint_of: wrapping sum, sum of squares and xor of the
     *  values widened to 64 bits. */
    static long[] fingerprint(int[] a) {
        long sum = 0, squares = 0, xor = 0;
        for (int x : a) {
            long v = x;
            sum += v;
            squares += v * v;
            xor ^= v;
        }
        return new long[] { sum, squares, xor };
    }

    /** Sorts a on the pool; returns the seconds it took. */
    static double sort(ForkJoinPool pool, int[] a) {
        double t0 = Prog.now();
        pool.invoke(ForkJoinTask.adapt(() -> Arrays.parallelSort(a)));
        return Prog.now() - t0;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 1)
            prog.usage("<n>\n  n: number of ints to sort, in [1, " + MAX_N + "]");
        long nl = prog.argLong("n", args[0], 1, MAX_N);
        if (nl > JAVA_MAX_N)
            prog.badArg("n = " + nl + " exceeds the largest Java array (" + JAVA_MAX_N + ")");
        int n = (int) nl;
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> sort(pool, input(Math.max(1, Math.min(n / 2, 1 << 20)))));
        int[] a = input(n);
        long[] in = fingerprint(a);
        double seconds = sort(pool, a);
        System.out.println(String.format("sort(%d): first %d median %d last %d", n, a[0], a[n / 2],
                                         a[n - 1]));
        for (int i = 1; i < n; i++) {
            int at = i;
            Prog.check(a[i - 1] <= a[i], () -> String.format("sort: a[%d] = %d > a[%d] = %d",
                                                             at - 1, a[at - 1], at, a[at]));
        }
        long[] out = fingerprint(a);
        Prog.check(out[0] == in[0] && out[1] == in[1] && out[2] == in[2],
                   () -> "sort: the output is not a permutation of the input");
        Prog.printTime(seconds);
    }
}
