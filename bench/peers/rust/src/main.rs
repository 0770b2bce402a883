// SPDX-License-Identifier: Apache-2.0
//! weft-rayon: Rayon peers of weft's benchmarks.
//!
//!     weft-rayon <binary> -w <workers> <arguments of <binary>-seq>
//!
//! Each workload is the algorithm of bench/<binary>/<binary>-seq.c with
//! rayon::join where weft spawns, the same input, the same answer check
//! (`FAILED: ...` and exit 1 on a wrong answer) and the same `Time:` line
//! for the timed part only.  The pool has exactly <workers> threads.

// The kernels index as their C originals do, so a reader can compare them
// line by line.
#![allow(clippy::needless_range_loop)]

mod cholesky;
mod cilksort;
mod common;
mod dfor;
mod fib;
mod knapsack;
mod matmul;
mod mm;
mod pi;
mod queens;
mod sort;
mod ssf;
mod stack;
mod strassen;
mod stress;
mod uts;

use std::process::exit;

use common::Prog;

/// A workload's entry point: given the program name for messages, its
/// positional arguments and the pool, it parses, runs, prints and checks.
type Entry = fn(&Prog, &[String], &rayon::ThreadPool);

/// The workloads by binary name (bench/<name>/).
const WORKLOADS: &[(&str, Entry)] = &[
    ("fib", fib::main),
    ("queens", queens::main),
    ("uts", uts::main),
    ("matmul", matmul::main),
    ("cilksort", cilksort::main),
    ("stress", stress::main),
    ("knapsack", knapsack::main),
    ("pi", pi::main),
    ("strassen", strassen::main),
    ("mm", mm::main),
    ("dfor", dfor::main),
    ("ssf", ssf::main),
    ("cholesky", cholesky::main),
    ("sort", sort::main),
];

fn usage() -> ! {
    let names: Vec<&str> = WORKLOADS.iter().map(|w| w.0).collect();
    eprintln!("usage: weft-rayon <binary> [-w workers] <arguments>");
    eprintln!("  binaries: {}", names.join(", "));
    exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        usage();
    }
    let Some(&(name, entry)) = WORKLOADS.iter().find(|w| w.0 == args[1]) else {
        eprintln!("weft-rayon: unknown binary '{}'", args[1]);
        usage();
    };
    let prog = Prog::new(name);
    let mut rest = &args[2..];

    // `-w <n>` first, as bench_take_workers; 0 or absent: one per CPU.
    let mut workers = 0usize;
    if rest.first().map(String::as_str) == Some("-w") {
        let Some(text) = rest.get(1) else {
            prog.bad_arg("-w needs a worker count");
        };
        workers = prog.arg_long("worker count", text, 0, 4096) as usize;
        rest = &rest[2..];
    }
    if workers == 0 {
        workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .stack_size(stack::WORKER_STACK_BYTES)
        .start_handler(|_| stack::mark_thread_top())
        .build()
        .unwrap_or_else(|e| {
            eprintln!("{}: cannot start {workers} threads: {e}", prog.name);
            exit(1)
        });
    println!("workers: {}", pool.current_num_threads());
    entry(&prog, rest, &pool);
}
