// SPDX-License-Identifier: Apache-2.0
/* weft's Java peers: the benchmarks of bench/ on a ForkJoinPool.
 *
 *   java -Xss512m -cp build-peers-java WeftPeers <binary> -w <workers> <arguments>
 *
 * Each workload is the algorithm of bench/<binary>/<binary>-seq.c with
 * fork/compute/join where weft spawns, the same input, the same answer
 * check ("FAILED: ..." and exit 1 on a wrong answer) and the same `Time:`
 * line for the timed part only.  The pool is new ForkJoinPool(workers).
 * Before the timed run each workload runs once, untimed, on a smaller
 * input, so that the JIT has compiled it (see Workload).
 */
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

import weftpeers.Cholesky;
import weftpeers.Cilksort;
import weftpeers.Dfor;
import weftpeers.Fib;
import weftpeers.Knapsack;
import weftpeers.Matmul;
import weftpeers.Mm;
import weftpeers.Pi;
import weftpeers.Prog;
import weftpeers.Queens;
import weftpeers.Sort;
import weftpeers.Ssf;
import weftpeers.Strassen;
import weftpeers.Stress;
import weftpeers.Uts;
import weftpeers.Workload;

public final class WeftPeers {
    private static final Map<String, Workload> WORKLOADS = new LinkedHashMap<>();

    static {
        WORKLOADS.put("fib", new Fib());
        WORKLOADS.put("queens", new Queens());
        WORKLOADS.put("uts", new Uts());
        WORKLOADS.put("matmul", new Matmul());
        WORKLOADS.put("cilksort", new Cilksort());
        WORKLOADS.put("stress", new Stress());
        WORKLOADS.put("knapsack", new Knapsack());
        WORKLOADS.put("pi", new Pi());
        WORKLOADS.put("strassen", new Strassen());
        WORKLOADS.put("mm", new Mm());
        WORKLOADS.put("dfor", new Dfor());
        WORKLOADS.put("ssf", new Ssf());
        WORKLOADS.put("cholesky", new Cholesky());
        WORKLOADS.put("sort", new Sort());
    }

    private static void usage() {
        System.err.println("usage: java WeftPeers <binary> [-w workers] <arguments>");
        System.err.println("  binaries: " + String.join(", ", WORKLOADS.keySet()));
        System.exit(2);
    }

    public static void main(String[] args) {
        if (args.length < 1)
            usage();
        Workload workload = WORKLOADS.get(args[0]);
        if (workload == null) {
            System.err.println("WeftPeers: unknown binary '" + args[0] + "'");
            usage();
        }
        Prog prog = new Prog(args[0] + "-java");
        int first = 1;
        int workers = 0; /* as bench_take_workers: 0 or absent = one per CPU */
        if (args.length > 1 && args[1].equals("-w")) {
            if (args.length < 3)
                prog.badArg("-w needs a worker count");
            workers = (int) prog.argLong("worker count", args[2], 0, 4096);
            first = 3;
        }
        if (workers == 0)
            workers = Runtime.getRuntime().availableProcessors();
        String[] rest = java.util.Arrays.copyOfRange(args, first, args.length);

        /* Arrays.parallelSort (sort) splits its work as finely as the common
         * pool's parallelism says, and sorts sequentially when that is 1:
         * the common pool is given the worker count too, before anything
         * creates it.  Its forks run on `pool`, which invokes it. */
        System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism",
                           Integer.toString(workers));
        ForkJoinPool pool = new ForkJoinPool(workers);
        System.out.println("workers: " + pool.getParallelism());
        try {
            workload.run(prog, rest, pool);
        } catch (StackOverflowError e) {
            /* Legal UTS flags can describe trees deeper than any stack. */
            System.out.flush();
            System.err.println(prog.name + ": recursion deeper than the thread stack allows"
                               + " (run with a larger -Xss)");
            System.exit(1);
        }
        System.out.flush();
        pool.shutdown();
        System.exit(0);
    }
}
