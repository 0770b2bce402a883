// SPDX-License-Identifier: Apache-2.0
package weftpeers;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** What every workload shares with bench/common/bench.h: argument checks
 *  that exit 2 with a message, the answer check that prints "FAILED: ..."
 *  and exits 1, and the `Time:` line. */
public final class Prog {
    /** The program name used in messages, e.g. fib-java. */
    public final String name;

    public Prog(String name) {
        this.name = name;
    }

    /** Prints "usage: <prog> [-w workers] <text>" and exits 2. */
    public void usage(String text) {
        System.err.println("usage: " + name + " [-w workers] " + text);
        System.exit(2);
    }

    /** Prints "<prog>: <message>" and exits 2 (bad input, not a wrong answer). */
    public void badArg(String message) {
        System.out.flush();
        System.err.println(name + ": " + message);
        System.exit(2);
    }

    /** strtol's decimal form with nothing left over: leading white space,
     *  an optional sign, digits. */
    private static final Pattern C_LONG = Pattern.compile("\\s*[+-]?[0-9]+");
    /** strtod's decimal form (no hex, no Java suffixes like 1.0f). */
    private static final Pattern C_DOUBLE = Pattern.compile(
        "\\s*[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    /** The value of text if it is a C long, else null. */
    public static Long parseCLong(String text) {
        if (!C_LONG.matcher(text).matches())
            return null;
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return null; /* out of range */
        }
    }

    /** The value of text if it is a decimal number, else null. */
    public static Double parseCDouble(String text) {
        if (!C_DOUBLE.matcher(text).matches())
            return null;
        return Double.parseDouble(text.strip());
    }

    /** A decimal integer in [lo, hi], like bench_arg_long. */
    public long argLong(String what, String text, long lo, long hi) {
        Long v = parseCLong(text);
        if (v == null || v < lo || v > hi)
            badArg(what + " must be an integer in [" + lo + ", " + hi + "], got '" + text + "'");
        return v;
    }

    /** BENCH_CHECK: a wrong answer prints "FAILED: ..." and exits 1. */
    public static void check(boolean ok, Supplier<String> message) {
        if (!ok) {
            System.out.flush();
            System.err.println("FAILED: " + message.get());
            System.exit(1);
        }
    }

    /** JIT warm-up: runs once untimed, again until half a second has
     *  passed, so that even a tiny warm-up input gets its hot methods
     *  compiled by C2 before the timed run. */
    public static void warmUp(Runnable once) {
        double t0 = now();
        do
            once.run();
        while (now() - t0 < 0.5);
    }

    public static double now() {
        return System.nanoTime() * 1e-9;
    }

    /** bench_print_time: "Time: %f". */
    public static void printTime(double seconds) {
        System.out.println(String.format(Locale.ROOT, "Time: %.6f", seconds));
    }

    /** C's "%.<digits>f": the exact value rounded (Java's %f rounds the
     *  shortest decimal form instead, which can differ in the last digit). */
    public static String formatFixed(double x, int digits) {
        if (Double.isNaN(x) || Double.isInfinite(x))
            return formatG17(x);
        String s = new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
        return (x < 0 || (x == 0 && 1 / x < 0)) && !s.startsWith("-") ? "-" + s : s;
    }

    /** C's "%.17g": 17 significant digits of the exact value, trailing zeros
     *  dropped, exponent form below 1e-4 or from 1e17 on; so checksums print
     *  as the C versions print them.  (Java's %g pads and rounds differently.) */
    public static String formatG17(double x) {
        if (Double.isNaN(x))
            return "nan";
        if (Double.isInfinite(x))
            return x > 0 ? "inf" : "-inf";
        if (x == 0)
            return 1 / x < 0 ? "-0" : "0";
        BigDecimal r = new BigDecimal(x).round(new MathContext(17, RoundingMode.HALF_EVEN));
        String digits = r.unscaledValue().abs().toString();
        int exp = digits.length() - 1 - r.scale(); /* of the first digit */
        digits = digits.replaceAll("0+$", "");
        String sign = x < 0 ? "-" : "";
        if (exp < -4 || exp >= 17) {
            String rest = digits.substring(1);
            return String.format(Locale.ROOT, "%s%c%s%se%c%02d", sign, digits.charAt(0),
                                 rest.isEmpty() ? "" : ".", rest, exp < 0 ? '-' : '+',
                                 Math.abs(exp));
        }
        if (exp < 0)
            return sign + "0." + "0".repeat(-exp - 1) + digits;
        if (digits.length() <= exp + 1)
            return sign + digits + "0".repeat(exp + 1 - digits.length());
        return sign + digits.substring(0, exp + 1) + "." + digits.substring(exp + 1);
    }
}
