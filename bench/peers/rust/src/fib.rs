// SPDX-License-Identifier: Apache-2.0
//! fib with a join per call and no cut-off (bench/fib): the spawn/sync
//! overhead test.

use crate::common::{check, print_time, timed, Prog};

fn fib(n: i32) -> i64 {
    if n < 2 {
        return n as i64;
    }
    // join offers its second closure to thieves: fib(n - 1), the one
    // fib-weft spawns, while this thread runs fib(n - 2).
    let (b, a) = rayon::join(|| fib(n - 2), || fib(n - 1));
    a + b
}

fn fib_iter(n: i32) -> i64 {
    let (mut a, mut b) = (0i64, 1i64);
    for _ in 0..n {
        (a, b) = (b, a + b);
    }
    a
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 1 {
        prog.usage("<n>");
    }
    let n = prog.arg_long("n", &args[0], 0, 60) as i32;
    let (r, seconds) = timed(|| pool.install(|| fib(n)));
    println!("fib({n}) = {r}");
    let expected = fib_iter(n);
    check(r == expected, || {
        format!("fib({n}) = {r}, expected {expected}")
    });
    print_time(seconds);
}
