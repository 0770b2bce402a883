// SPDX-License-Identifier: Apache-2.0
//! ssf (Wool's sub-string finder, bench/ssf): for every position of the
//! Fibonacci word of order k, the longest repeat elsewhere in it (length
//! and first position), one task per position (the range halved down to
//! single positions), repeated r times.  Same output and checks as ssf.h.

use rayon::prelude::*;

use crate::common::{check, print_time, timed, Prog};

const MAX_K: i64 = 25;
const MAX_REPETITIONS: i64 = 1 << 30;

/// Independently computed (total length, checksum) per k, from ssf.h.
const KNOWN_TOTALS: [(i64, u64, u64); 4] = [
    (5, 17, 707),
    (8, 384, 195093),
    (12, 19052, 412172794),
    (16, 901929, 903845346554),
];
const KNOWN_LEN5: [i32; 8] = [3, 2, 1, 3, 2, 3, 2, 1];
const KNOWN_POS5: [i32; 8] = [3, 4, 0, 0, 1, 0, 1, 0];

/// s_0 = "a", s_1 = "b", s_k = s_{k-1} s_{k-2}.
fn fibonacci_word(k: i64) -> Vec<u8> {
    let (mut before, mut word) = (b"a".to_vec(), b"b".to_vec());
    if k == 0 {
        return before;
    }
    for _ in 2..=k {
        let next = [word.as_slice(), before.as_slice()].concat();
        before = std::mem::replace(&mut word, next);
    }
    word
}

/// The longest common prefix of the suffixes at i and j, the best over
/// j != i in increasing j (first j on ties); (0, -1) if none.
fn position(s: &[u8], i: usize) -> (i32, i32) {
    let (mut best, mut at) = (0usize, -1i32);
    for j in 0..s.len() {
        if j == i {
            continue;
        }
        let l = s[i..]
            .iter()
            .zip(&s[j..])
            .take_while(|(x, y)| x == y)
            .count();
        if l > best {
            best = l;
            at = j as i32;
        }
    }
    (best as i32, at)
}

/// len and pos by the lcp-table recurrence (ssf_reference).
fn reference(s: &[u8]) -> Vec<(i32, i32)> {
    let n = s.len();
    let (mut next_row, mut row) = (vec![0i32; n + 1], vec![0i32; n + 1]);
    let mut out = vec![(0, -1); n];
    for i in (0..n).rev() {
        let (mut best, mut at) = (0, -1);
        for j in 0..n {
            row[j] = if s[i] == s[j] { next_row[j + 1] + 1 } else { 0 };
            if j != i && row[j] > best {
                best = row[j];
                at = j as i32;
            }
        }
        row[n] = 0;
        out[i] = (best, at);
        std::mem::swap(&mut row, &mut next_row);
    }
    out
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 2 {
        prog.usage(&format!(
            "<k> <repetitions>\n  k: order of the Fibonacci word, in [0, {MAX_K}]\n  repetitions: searches run one after the other, in [1, {MAX_REPETITIONS}]"
        ));
    }
    let k = prog.arg_long("k", &args[0], 0, MAX_K);
    let r = prog.arg_long("repetitions", &args[1], 1, MAX_REPETITIONS);
    let s = fibonacci_word(k);
    let n = s.len();
    let mut result = vec![(-1i32, -2i32); n]; // impossible: unsearched positions fail

    // One task per position: the range halved down to single positions
    // (with_max_len(1)), as ssf-weft's N - 1 spawns per repetition.
    let ((), seconds) = timed(|| {
        pool.install(|| {
            for _ in 0..r {
                result
                    .par_iter_mut()
                    .enumerate()
                    .with_max_len(1)
                    .for_each(|(i, out)| *out = position(&s, i));
            }
        })
    });

    let (mut total, mut checksum) = (0u64, 0u64);
    for (i, &(len, pos)) in result.iter().enumerate() {
        check(len >= 0 && pos >= -1 && pos < n as i32, || {
            format!("position {i} was not searched (len {len}, pos {pos})")
        });
        total += len as u64;
        checksum = checksum.wrapping_add(
            (i as u64 + 1).wrapping_mul(len as u64 * (n as u64 + 1) + (pos + 1) as u64),
        );
    }
    println!("ssf({k}, {r}): N = {n}, total length {total}, checksum {checksum}");
    for (i, (got, want)) in result.iter().zip(reference(&s)).enumerate() {
        check(*got == want, || {
            format!(
                "position {i}: longest repeat {} at {}, the lcp table says {} at {}",
                got.0, got.1, want.0, want.1
            )
        });
    }
    if k == 5 {
        for (i, got) in result.iter().enumerate() {
            check(*got == (KNOWN_LEN5[i], KNOWN_POS5[i]), || {
                format!(
                    "k = 5, position {i}: {} at {}, known {} at {}",
                    got.0, got.1, KNOWN_LEN5[i], KNOWN_POS5[i]
                )
            });
        }
    }
    if let Some(&(_, t, c)) = KNOWN_TOTALS.iter().find(|e| e.0 == k) {
        check(total == t && checksum == c, || {
            format!("k = {k}: total {total}, checksum {checksum}; known {t}, {c}")
        });
    }
    print_time(seconds);
}
