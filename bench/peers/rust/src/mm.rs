// SPDX-License-Identifier: Apache-2.0
//! mm (Wool's dense matrix multiply, bench/mm): C = A B for n x n doubles
//! with the textbook inner-product loop, one task per row (the row range
//! halved down to single rows), repeated r times one after the other.
//! Small integer inputs make every result exact; same checks as mm.h.

use rayon::prelude::*;

use crate::common::{check, print_time, timed, Prog, SplitMix64};

const MAX_N: i64 = 4096;
const MAX_REPETITIONS: i64 = 1 << 30;
const FULL_CHECK_MAX_N: usize = 512;

/// Row i of C = A B: the inner-product loop down a column of B.
fn row(a: &[f64], b: &[f64], crow: &mut [f64], n: usize, i: usize) {
    let arow = &a[i * n..(i + 1) * n];
    for (j, cij) in crow.iter_mut().enumerate() {
        let mut s = 0.0;
        for (k, &aik) in arow.iter().enumerate() {
            s += aik * b[k * n + j];
        }
        *cij = s;
    }
}

/// The exact integer a double of C must hold, or a failed check.
fn exact(v: f64, i: usize, j: usize) -> i64 {
    check(
        !v.is_nan() && v > -9.0e15 && v < 9.0e15 && v == (v as i64) as f64,
        || format!("C[{i}][{j}] = {v} is not an integer"),
    );
    v as i64
}

fn matvec_exact(m: &[f64], x: &[i64], n: usize) -> Vec<i64> {
    (0..n)
        .map(|i| (0..n).map(|j| exact(m[i * n + j], i, j) * x[j]).sum())
        .collect()
}

fn report(a: &[f64], b: &[f64], c: &[f64], n: usize, r: i64) {
    let checksum: i64 = (0..n * n).map(|e| exact(c[e], e / n, e % n)).sum();
    println!("mm({n}, {r}): checksum {checksum}");
    if n <= FULL_CHECK_MAX_N {
        let mut want = vec![0i64; n];
        for i in 0..n {
            want.fill(0);
            for k in 0..n {
                let aik = a[i * n + k] as i64;
                for j in 0..n {
                    want[j] += aik * b[k * n + j] as i64;
                }
            }
            for j in 0..n {
                let got = exact(c[i * n + j], i, j);
                check(got == want[j], || {
                    format!("C[{i}][{j}] = {got}, expected {}", want[j])
                });
            }
        }
    }
    for seed in 3..=4u64 {
        let mut random = SplitMix64(seed);
        let x: Vec<i64> = (0..n)
            .map(|_| (random.next() % 2001) as i64 - 1000)
            .collect();
        let bx = matvec_exact(b, &x, n);
        let abx: Vec<i64> = (0..n)
            .map(|i| (0..n).map(|k| a[i * n + k] as i64 * bx[k]).sum())
            .collect();
        let cx = matvec_exact(c, &x, n);
        for i in 0..n {
            check(cx[i] == abx[i], || {
                format!(
                    "(C x)[{i}] = {} but (A (B x))[{i}] = {} (x seed {seed})",
                    cx[i], abx[i]
                )
            });
        }
    }
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 2 {
        prog.usage(&format!(
            "<n> <repetitions>\n  n: matrix order in [1, {MAX_N}]\n  repetitions: products run one after the other, in [1, {MAX_REPETITIONS}]"
        ));
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N) as usize;
    let r = prog.arg_long("repetitions", &args[1], 1, MAX_REPETITIONS);
    let small_ints = |seed| {
        let mut random = SplitMix64(seed);
        (0..n * n)
            .map(|_| ((random.next() % 17) as i32 - 8) as f64)
            .collect::<Vec<f64>>()
    };
    let (a, b) = (small_ints(1), small_ints(2));
    let mut c = vec![f64::NAN; n * n]; // an entry no task wrote fails the check

    // The repetitions run inside the pool; each is a parallel loop over
    // the rows split in halves down to one row (with_max_len(1)), as
    // mm-weft's n - 1 spawns.
    let ((), seconds) = timed(|| {
        pool.install(|| {
            for _ in 0..r {
                c.par_chunks_mut(n)
                    .enumerate()
                    .with_max_len(1)
                    .for_each(|(i, crow)| row(&a, &b, crow, n, i));
            }
        })
    });

    report(&a, &b, &c, n, r);
    print_time(seconds);
}
