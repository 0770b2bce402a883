// SPDX-License-Identifier: Apache-2.0
//! pi (bench/pi): Monte Carlo estimate of pi with a counter-based
//! generator, the samples split in halves down to a grain.  Same count,
//! output line and checks as pi.h.

use rayon::prelude::*;

use crate::common::{check, print_time, splitmix_mix, timed, Prog};

const SEED: u64 = 0x5EED00003141592;
const MAX_SAMPLES: i64 = 1 << 50;
const CHECK_MIN_SAMPLES: i64 = 1_000_000;
const TOLERANCE: f64 = 1e-2;

/// Sample k is a hit when its point lies inside the quarter circle.
#[inline]
fn hit(k: u64) -> i64 {
    let z = splitmix_mix(SEED.wrapping_add((k + 1).wrapping_mul(0x9E3779B97F4A7C15)));
    let (x, y) = (z >> 33, z & 0x7FFF_FFFF);
    (x * x + y * y < 1 << 62) as i64
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 2 {
        prog.usage(&format!(
            "<samples> <grain>\n  samples in [1, {MAX_SAMPLES}]; grain: samples per leaf task, >= 1"
        ));
    }
    let samples = prog.arg_long("samples", &args[0], 1, MAX_SAMPLES);
    let grain = prog.arg_long("grain", &args[1], 1, MAX_SAMPLES);

    // A parallel iterator split in halves down to `grain` samples per
    // leaf (with_max_len), as pi-weft splits: without it Rayon would stop
    // splitting after a few levels unless work is stolen, a cut-off the
    // weft version does not have.
    let (hits, seconds) = timed(|| {
        pool.install(|| {
            (0..samples as usize)
                .into_par_iter()
                .with_max_len(grain as usize)
                .map(|k| hit(k as u64))
                .sum::<i64>()
        })
    });

    let estimate = 4.0 * hits as f64 / samples as f64;
    println!("pi({samples}): hits {hits} estimate {estimate:.9}");
    let expected: i64 = (0..samples as u64).map(hit).sum();
    check(hits == expected, || {
        format!("{hits} hits, but a sequential count gives {expected}")
    });
    check((0..=samples).contains(&hits), || {
        format!("{hits} hits out of {samples} samples")
    });
    if samples >= CHECK_MIN_SAMPLES {
        check((estimate - std::f64::consts::PI).abs() <= TOLERANCE, || {
            format!("estimate {estimate:.9} is not within {TOLERANCE} of pi")
        });
    }
    print_time(seconds);
}
