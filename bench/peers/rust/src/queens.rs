// SPDX-License-Identifier: Apache-2.0
//! N-queens, the Cilk/Lace nqueens of bench/queens: a board with queens on
//! rows 0..row tries every column of row `row` on a fresh copy, checks the
//! whole board pairwise, and every legal copy becomes a task; no cut-off.
//! The copies live in the parent's frame until its joins return.

use crate::common::{check, print_time, timed, Prog};

/// Solutions for N = 0..=MAX_N (OEIS A000170), as in queens.h.
const MAX_N: usize = 18;
const KNOWN: [i64; MAX_N + 1] = [
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624,
];

type Board = [i8; MAX_N];

/// No two of the queens a[0..k] (a[i] = column of row i) attack each other.
fn queens_ok(a: &[i8]) -> bool {
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            let d = (j - i) as i8;
            if a[j] == a[i] || a[j] == a[i] - d || a[j] == a[i] + d {
                return false;
            }
        }
    }
    true
}

fn queens(n: usize, row: usize, board: &Board) -> i64 {
    if row == n {
        return 1;
    }
    let mut legal = [[0i8; MAX_N]; MAX_N];
    let mut k = 0;
    for c in 0..n {
        let b = &mut legal[k];
        b[..row].copy_from_slice(&board[..row]);
        b[row] = c as i8;
        if queens_ok(&b[..=row]) {
            k += 1;
        }
    }
    sum_tasks(n, row + 1, &legal[..k])
}

/// One task per board: halves joined down to single boards, so every
/// board can be stolen as weft's spawned tasks can.
fn sum_tasks(n: usize, row: usize, boards: &[Board]) -> i64 {
    match boards {
        [] => 0,
        [one] => queens(n, row, one),
        _ => {
            let (left, right) = boards.split_at(boards.len() / 2);
            let (a, b) = rayon::join(|| sum_tasks(n, row, left), || sum_tasks(n, row, right));
            a + b
        }
    }
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 1 {
        prog.usage("<n>");
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N as i64) as usize;
    let board = [0i8; MAX_N];
    let (r, seconds) = timed(|| pool.install(|| queens(n, 0, &board)));
    println!("queens({n}) = {r}");
    check(r == KNOWN[n], || {
        format!("queens({n}) = {r}, expected {}", KNOWN[n])
    });
    print_time(seconds);
}
