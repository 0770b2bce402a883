// SPDX-License-Identifier: Apache-2.0
package weftpeers;

/** splitmix64, the generator every workload's input comes from. */
public final class SplitMix {
    private long state;

    public SplitMix(long seed) {
        state = seed;
    }

    /** splitmix64's output function, applied to a state. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public long next() {
        state += 0x9E3779B97F4A7C15L;
        return mix(state);
    }

    /** Uniform in [-1, 1): the top 53 bits over 2^52, minus one. */
    public double uniform() {
        return (double) (next() >>> 11) * 0x1.0p-52 - 1.0;
    }

    /** (z mod 17) - 8, z unsigned: an integer in [-8, 8]. */
    public double smallInt() {
        return (double) ((int) Long.remainderUnsigned(next(), 17) - 8);
    }
}
