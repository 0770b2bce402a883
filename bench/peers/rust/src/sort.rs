// SPDX-License-Identifier: Apache-2.0
//! sort (bench/sort): n random ints sorted ascending by Rayon's own
//! parallel sort, `par_sort` (a stable parallel merge sort), as sort-tbb
//! is oneTBB's tbb::parallel_sort: the library's sort, not a port of
//! weft's.  Same input, output line and check as sort.h.

use rayon::slice::ParallelSliceMut;

use crate::common::{check, print_time, splitmix_mix, timed, Prog};

const SEED: u64 = 0x5EEDC11C5027;
const MAX_N: i64 = 2_000_000_000;

/// sort.h's sort_input: the high 32 bits of splitmix64's outputs from
/// SORT_SEED, as signed ints.
fn input(n: usize) -> Vec<i32> {
    let mut state = SEED;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E3779B97F4A7C15);
            (splitmix_mix(state) >> 32) as u32 as i32
        })
        .collect()
}

/// sort_fingerprint_of: wrapping sum, sum of squares and xor of the values
/// widened to 64 bits.
fn fingerprint(a: &[i32]) -> (u64, u64, u64) {
    a.iter()
        .fold((0u64, 0u64, 0u64), |(sum, squares, xor), &x| {
            let v = x as i64 as u64;
            (
                sum.wrapping_add(v),
                squares.wrapping_add(v.wrapping_mul(v)),
                xor ^ v,
            )
        })
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 1 {
        prog.usage(&format!(
            "<n>\n  n: number of ints to sort, in [1, {MAX_N}]"
        ));
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N) as usize;
    let mut a = input(n);
    let before = fingerprint(&a);

    let ((), seconds) = timed(|| pool.install(|| a.par_sort()));

    println!(
        "sort({n}): first {} median {} last {}",
        a[0],
        a[n / 2],
        a[n - 1]
    );
    for i in 1..n {
        check(a[i - 1] <= a[i], || {
            format!("sort: a[{}] = {} > a[{i}] = {}", i - 1, a[i - 1], a[i])
        });
    }
    check(fingerprint(&a) == before, || {
        "sort: the output is not a permutation of the input".to_string()
    });
    print_time(seconds);
}
