// SPDX-License-Identifier: Apache-2.0
//! What every workload shares with bench/common/bench.h: argument checks
//! that exit 2 with a usage message, the answer check that prints
//! `FAILED: ...` and exits 1, the clock and the `Time:` line.

use std::process::exit;
use std::time::Instant;

/// The program name used in messages, e.g. `fib-rayon`.
pub struct Prog {
    pub name: String,
}

impl Prog {
    pub fn new(binary: &str) -> Prog {
        Prog {
            name: format!("{binary}-rayon"),
        }
    }

    /// Prints `usage: <prog> <text>` and exits 2.
    pub fn usage(&self, text: &str) -> ! {
        eprintln!("usage: {} [-w workers] {}", self.name, text);
        exit(2)
    }

    /// Prints `<prog>: <message>` and exits 2 (bad input, not a wrong answer).
    pub fn bad_arg(&self, message: &str) -> ! {
        eprintln!("{}: {}", self.name, message);
        exit(2)
    }

    /// A decimal integer in [lo, hi], like bench_arg_long.
    pub fn arg_long(&self, what: &str, text: &str, lo: i64, hi: i64) -> i64 {
        match parse_c_long(text) {
            Some(v) if v >= lo && v <= hi => v,
            _ => self.bad_arg(&format!(
                "{what} must be an integer in [{lo}, {hi}], got '{text}'"
            )),
        }
    }
}

/// strtol(text, &end, 10) with nothing left over: optional leading white
/// space and sign, then digits (Rust's parse already takes a '+').
pub fn parse_c_long(text: &str) -> Option<i64> {
    text.trim_start_matches(C_SPACE).parse::<i64>().ok()
}

const C_SPACE: [char; 6] = [' ', '\t', '\n', '\r', '\x0b', '\x0c'];

/// strtod on decimal input with nothing left over.
pub fn parse_c_double(text: &str) -> Option<f64> {
    text.trim_start_matches(C_SPACE).parse::<f64>().ok()
}

/// BENCH_CHECK: a wrong answer prints `FAILED: ...` and exits 1.
pub fn check(ok: bool, message: impl FnOnce() -> String) {
    if !ok {
        eprintln!("FAILED: {}", message());
        exit(1);
    }
}

/// Prints `Time: <seconds>` like bench_print_time (`%f`).
pub fn print_time(seconds: f64) {
    println!("Time: {seconds:.6}");
}

/// Seconds spent in `f`, and its result.
pub fn timed<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let t0 = Instant::now();
    let r = f();
    (r, t0.elapsed().as_secs_f64())
}

/// splitmix64's output function, applied to a state.
pub fn splitmix_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

/// The splitmix64 generator every workload's input comes from.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        splitmix_mix(self.0)
    }

    /// Uniform in [-1, 1): the top 53 bits over 2^52, minus one.
    pub fn uniform(&mut self) -> f64 {
        (self.next() >> 11) as f64 * f64::from_bits(0x3CB0000000000000) - 1.0
    }
}

/// C's `%.17g`: 17 significant digits, trailing zeros dropped, exponent
/// form below 1e-4 or from 1e17 on; so checksums print as the C versions
/// print them and can be compared by eye.
pub fn format_g17(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let sci = format!("{x:.16e}"); // d.dddddddddddddddde<exp>, correctly rounded
    let (mantissa, exp) = sci.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("integer exponent");
    if (-4..17).contains(&exp) {
        // Fixed notation with 16 - exp decimals: 17 significant digits.
        let fixed = format!("{:.*}", (16 - exp) as usize, x);
        if fixed.contains('.') {
            fixed
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        } else {
            fixed
        }
    } else {
        let sign = if mantissa.starts_with('-') { "-" } else { "" };
        let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
        let mut m = digits[..1].to_string();
        let rest = digits[1..].trim_end_matches('0');
        if !rest.is_empty() {
            m.push('.');
            m.push_str(rest);
        }
        format!(
            "{sign}{m}e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g17_matches_printf() {
        assert_eq!(format_g17(0.1), "0.10000000000000001");
        assert_eq!(format_g17(1.0), "1");
        assert_eq!(format_g17(-2.5), "-2.5");
        assert_eq!(format_g17(1e17), "1e+17");
        assert_eq!(format_g17(123456.0), "123456");
        assert_eq!(format_g17(1.5e-5), "1.5e-05");
        assert_eq!(format_g17(1e-300), "1e-300");
        assert_eq!(format_g17(2f64.powi(70)), "1.1805916207174113e+21");
        assert_eq!(format_g17(-1259.2617261949927), "-1259.2617261949927");
        assert_eq!(format_g17(0.0001), "0.0001");
    }

    #[test]
    fn c_long() {
        assert_eq!(parse_c_long("42"), Some(42));
        assert_eq!(parse_c_long("+42"), Some(42));
        assert_eq!(parse_c_long("-3"), Some(-3));
        assert_eq!(parse_c_long(" 7"), Some(7));
        assert_eq!(parse_c_long("7 "), None);
        assert_eq!(parse_c_long(""), None);
        assert_eq!(parse_c_long("+-1"), None);
        assert_eq!(parse_c_long("x"), None);
    }
}
