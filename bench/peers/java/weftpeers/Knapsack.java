// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicLong;

/** knapsack (Cilk-5, BOTS; bench/knapsack): 0/1 knapsack by branch and
 *  bound, the "skip item i" branch a task, pruning against a shared
 *  best-so-far.  Same instance, bound and dynamic-programming check as
 *  knapsack.h. */
public final class Knapsack implements Workload {
    static final long MAX_WEIGHT = 1000;
    static final long VALUE_BONUS = 100;
    static final int MAX_ITEMS = 200;
    static final long PRUNED = -1;

    /** Items by decreasing value/weight (ties by generation order). */
    static final class Problem {
        final long[] weight, value;
        final long capacity;

        Problem(int items, long seed) {
            SplitMix random = new SplitMix(seed);
            long[][] list = new long[items][];
            long total = 0;
            for (int j = 0; j < items; j++) {
                long w = 1 + Long.remainderUnsigned(random.next(), MAX_WEIGHT);
                list[j] = new long[] { w, w + VALUE_BONUS, j };
                total += w;
            }
            capacity = total / 2;
            /* Denser first, compared exactly (value_a weight_b vs value_b weight_a). */
            Arrays.sort(list, (a, b) -> {
                int c = Long.compare(b[1] * a[0], a[1] * b[0]);
                return c != 0 ? c : Long.compare(a[2], b[2]);
            });
            weight = new long[items];
            value = new long[items];
            for (int j = 0; j < items; j++) {
                weight[j] = list[j][0];
                value[j] = list[j][1];
            }
        }
    }

    /** Best value reachable from item i with this capacity and value so
     *  far, or PRUNED.  The best-so-far is only a pruning hint: any value
     *  stored was reached by a complete choice, so pruning against a stale
     *  one never loses the optimum; the answer itself comes back through
     *  join. */
    static final class Search extends RecursiveAction {
        final Problem p;
        final AtomicLong best;
        final int i;
        final long capacity, value;
        long result;

        Search(Problem p, AtomicLong best, int i, long capacity, long value) {
            this.p = p;
            this.best = best;
            this.i = i;
            this.capacity = capacity;
            this.value = value;
        }

        @Override
        protected void compute() {
            if (i == p.weight.length || capacity == 0) {
                long seen = best.get();
                while (value > seen && !best.weakCompareAndSetVolatile(seen, value))
                    seen = best.get();
                result = value;
                return;
            }
            if (value + capacity * p.value[i] / p.weight[i] <= best.get()) {
                result = PRUNED;
                return;
            }
            Search skip = new Search(p, best, i + 1, capacity, value);
            if (p.weight[i] > capacity) {
                skip.compute();
                result = skip.result;
                return;
            }
            skip.fork(); /* knapsack-weft spawns "skip" and calls "take" */
            Search take = new Search(p, best, i + 1, capacity - p.weight[i], value + p.value[i]);
            take.compute();
            skip.join();
            result = Math.max(take.result, skip.result);
        }
    }

    static long optimum(Problem p) {
        long[] table = new long[(int) p.capacity + 1];
        for (int j = 0; j < p.weight.length; j++) {
            int w = (int) p.weight[j];
            for (int c = (int) p.capacity; c >= w; c--)
                table[c] = Math.max(table[c], table[c - w] + p.value[j]);
        }
        return table[(int) p.capacity];
    }

    static long solve(ForkJoinPool pool, Problem p) {
        Search root = new Search(p, new AtomicLong(0), 0, p.capacity, 0);
        pool.invoke(root);
        return root.result;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 2)
            prog.usage("<items> <seed>\n  items: number of items in [1, " + MAX_ITEMS
                       + "]; seed: instance seed, a non-negative integer");
        int items = (int) prog.argLong("items", args[0], 1, MAX_ITEMS);
        long seed = prog.argLong("seed", args[1], 0, Long.MAX_VALUE);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> solve(pool, new Problem(Math.max(1, items - 6), seed)));

        Problem p = new Problem(items, seed);
        double t0 = Prog.now();
        long best = solve(pool, p);
        double seconds = Prog.now() - t0;

        System.out.println("knapsack(" + items + ", " + seed + "): capacity " + p.capacity
                           + " best " + best);
        long opt = optimum(p);
        Prog.check(best == opt, () -> "best value " + best + ", but the optimum is " + opt);
        Prog.printTime(seconds);
    }
}
