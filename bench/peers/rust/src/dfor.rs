// SPDX-License-Identifier: Apache-2.0
//! dfor (bench/dfor): a divide-and-conquer parallel for loop over a small
//! fixed body, split in halves down to a grain (default 1), repeated r
//! times one after the other.  Same output and check as dfor.h.

use rayon::prelude::*;

use crate::common::{check, print_time, timed, Prog};

const MUL: u64 = 0xD6E8FEB86659FD93;
const MAX_N: i64 = 1 << 31;
const MAX_ITERATIONS: i64 = 100_000_000;
const MAX_REPETITIONS: i64 = 100_000_000;

/// The loop body for index i, applied to its current value x.
#[inline]
fn body(mut x: u64, i: u64, iterations: i64) -> u64 {
    for _ in 0..iterations {
        x ^= x >> 29;
        x = x.wrapping_mul(MUL).wrapping_add(i);
    }
    x
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 3 && args.len() != 4 {
        prog.usage("<n> <iterations-per-body> <repetitions> [grain]\n  n: loop length; iterations: body steps per index; repetitions: loops\n  run one after the other; grain: indices per leaf task (default 1)");
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N) as usize;
    let iterations = prog.arg_long("iterations-per-body", &args[1], 0, MAX_ITERATIONS);
    let repetitions = prog.arg_long("repetitions", &args[2], 1, MAX_REPETITIONS);
    let grain = match args.get(3) {
        Some(text) => prog.arg_long("grain", text, 1, MAX_N) as usize,
        None => 1,
    };
    let mut a: Vec<u64> = (0..n as u64).collect();

    // Each repetition is a parallel for split in halves down to `grain`
    // indices (with_max_len), as dfor-weft splits: without it Rayon would
    // stop splitting after a few levels unless work is stolen, a cut-off
    // the weft version does not have.
    let ((), seconds) = timed(|| {
        pool.install(|| {
            for _ in 0..repetitions {
                a.par_iter_mut()
                    .enumerate()
                    .with_max_len(grain)
                    .for_each(|(i, x)| *x = body(*x, i as u64, iterations));
            }
        })
    });

    let sum = a.iter().fold(0u64, |s, &x| s.wrapping_add(x));
    println!("dfor({n}, {iterations}, {repetitions}): checksum {sum:016x}");
    for (i, &got) in a.iter().enumerate() {
        let want = (0..repetitions).fold(i as u64, |x, _| body(x, i as u64, iterations));
        check(got == want, || {
            format!("a[{i}] = {got:016x}, expected {want:016x}")
        });
    }
    print_time(seconds);
}
