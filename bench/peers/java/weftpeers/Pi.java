// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/** pi (bench/pi): Monte Carlo estimate of pi with a counter-based
 *  generator, the samples split in halves down to a grain.  Same count,
 *  output line and checks as pi.h. */
public final class Pi implements Workload {
    static final long SEED = 0x5EED00003141592L;
    static final long MAX_SAMPLES = 1L << 50;
    static final long CHECK_MIN_SAMPLES = 1000000;
    static final double TOLERANCE = 1e-2;

    static long hit(long k) {
        long z = SplitMix.mix(SEED + (k + 1) * 0x9E3779B97F4A7C15L);
        long x = z >>> 33, y = z & 0x7FFFFFFFL;
        return x * x + y * y < (1L << 62) ? 1 : 0;
    }

    static long count(long lo, long hi) {
        long hits = 0;
        for (long k = lo; k < hi; k++)
            hits += hit(k);
        return hits;
    }

    /** Hits among samples [lo, hi). */
    static final class Count extends RecursiveAction {
        final long lo, hi, grain;
        long hits;

        Count(long lo, long hi, long grain) {
            this.lo = lo;
            this.hi = hi;
            this.grain = grain;
        }

        @Override
        protected void compute() {
            if (hi - lo <= grain) {
                hits = count(lo, hi);
                return;
            }
            long mid = lo + (hi - lo) / 2;
            Count upper = new Count(mid, hi, grain);
            upper.fork(); /* pi-weft spawns the upper half */
            Count lower = new Count(lo, mid, grain);
            lower.compute();
            upper.join();
            hits = lower.hits + upper.hits;
        }
    }

    static long hits(ForkJoinPool pool, long samples, long grain) {
        Count root = new Count(0, samples, grain);
        pool.invoke(root);
        return root.hits;
    }

    @Override
    public void run(Prog prog, String[] args, ForkJoinPool pool) {
        if (args.length != 2)
            prog.usage("<samples> <grain>\n  samples in [1, " + MAX_SAMPLES
                       + "]; grain: samples per leaf task, >= 1");
        long samples = prog.argLong("samples", args[0], 1, MAX_SAMPLES);
        long grain = prog.argLong("grain", args[1], 1, MAX_SAMPLES);
        /* JIT warm-up on a smaller input, untimed. */
        Prog.warmUp(() -> hits(pool, Math.max(1, Math.min(samples / 8, 1L << 24)), grain));

        double t0 = Prog.now();
        long hits = hits(pool, samples, grain);
        double seconds = Prog.now() - t0;

        double estimate = 4.0 * (double) hits / (double) samples;
        System.out.println("pi(" + samples + "): hits " + hits + " estimate "
                           + Prog.formatFixed(estimate, 9));
        long expected = count(0, samples);
        Prog.check(hits == expected,
                   () -> hits + " hits, but a sequential count gives " + expected);
        Prog.check(hits >= 0 && hits <= samples, () -> hits + " hits out of " + samples + " samples");
        if (samples >= CHECK_MIN_SAMPLES)
            Prog.check(Math.abs(estimate - Math.PI) <= TOLERANCE,
                       () -> "estimate " + Prog.formatFixed(estimate, 9) + " is not within "
                         + TOLERANCE + " of pi");
        Prog.printTime(seconds);
    }
}
