// SPDX-License-Identifier: Apache-2.0
//! cilksort (Cilk-5, bench/cilksort): merge sort of u64 keys whose four
//! quarter sorts run in parallel and whose merges split at the middle of
//! the longer run (binary search in the other) into parallel halves.
//! Same cut-offs, input, output line and check as cilksort.h.

use crate::common::{check, print_time, splitmix_mix, timed, Prog};

const SEED: u64 = 0x5EEDC11C5027;
const QUICK_CUTOFF: usize = 2048; // sort sizes below this sequentially
const MERGE_CUTOFF: usize = 2048; // merge totals below this sequentially
const INSERTION_CUTOFF: usize = 20; // quicksort hands over below this
const MAX_N: i64 = 4_000_000_000;

fn insertion_sort(a: &mut [u64]) {
    for p in 1..a.len() {
        let k = a[p];
        let mut q = p;
        while q > 0 && a[q - 1] > k {
            a[q] = a[q - 1];
            q -= 1;
        }
        a[q] = k;
    }
}

/// Median-of-three Hoare quicksort, as cs_quicksort: the three sampled
/// keys are put in order first, so a[0] <= pivot <= a[len-1] stop both
/// scans inside the slice; recurses on the smaller part, loops on the
/// larger.
fn quicksort(mut a: &mut [u64]) {
    while a.len() > INSERTION_CUTOFF {
        let (lo, hi) = (0, a.len());
        let mid = hi / 2;
        if a[mid] < a[lo] {
            a.swap(mid, lo);
        }
        if a[hi - 1] < a[mid] {
            a.swap(hi - 1, mid);
            if a[mid] < a[lo] {
                a.swap(mid, lo);
            }
        }
        let pivot = a[mid];
        // Hoare's scans (cs_quicksort's do-while loops, with the step
        // after a swap written out).
        let (mut i, mut j) = (0, hi - 1);
        loop {
            while a[i] < pivot {
                i += 1;
            }
            while a[j] > pivot {
                j -= 1;
            }
            if i >= j {
                break;
            }
            a.swap(i, j);
            i += 1;
            j -= 1;
        }
        let split = j + 1; // a[..split] <= pivot <= a[split..]
        let (left, right) = std::mem::take(&mut a).split_at_mut(split);
        if left.len() < right.len() {
            quicksort(left);
            a = right;
        } else {
            quicksort(right);
            a = left;
        }
    }
    insertion_sort(a);
}

fn seq_merge(run1: &[u64], run2: &[u64], dest: &mut [u64]) {
    let (mut i, mut j, mut d) = (0, 0, 0);
    while i < run1.len() && j < run2.len() {
        if run2[j] < run1[i] {
            dest[d] = run2[j];
            j += 1;
        } else {
            dest[d] = run1[i];
            i += 1;
        }
        d += 1;
    }
    dest[d..d + run1.len() - i].copy_from_slice(&run1[i..]);
    d += run1.len() - i;
    dest[d..].copy_from_slice(&run2[j..]);
}

/// Merges two sorted runs into dest (dest.len() = the sum of theirs).
fn merge<'a>(mut run1: &'a [u64], mut run2: &'a [u64], dest: &mut [u64]) {
    if run1.len() < run2.len() {
        std::mem::swap(&mut run1, &mut run2); // run1 is the longer one
    }
    if run1.len() + run2.len() < MERGE_CUTOFF {
        seq_merge(run1, run2, dest);
        return;
    }
    let s1 = run1.len() / 2;
    let s2 = run2.partition_point(|&k| k < run1[s1]); // first >= run1[s1]
    let (d1, d2) = dest.split_at_mut(s1 + s2);
    // The second closure is offered to thieves: the first part, which
    // cilksort-weft spawns.
    rayon::join(
        || merge(&run1[s1..], &run2[s2..], d2),
        || merge(&run1[..s1], &run2[..s2], d1),
    );
}

/// Sorts a, with tmp (same length) as scratch.
fn sort(a: &mut [u64], tmp: &mut [u64]) {
    let n = a.len();
    if n < QUICK_CUTOFF {
        quicksort(a);
        return;
    }
    let q = n / 4;
    let (a01, a23) = a.split_at_mut(2 * q);
    let (t01, t23) = tmp.split_at_mut(2 * q);
    {
        let (a0, a1) = a01.split_at_mut(q);
        let (a2, a3) = a23.split_at_mut(q);
        let (t0, t1) = t01.split_at_mut(q);
        let (t2, t3) = t23.split_at_mut(q);
        // Four quarter sorts, as four tasks: one join of two joins.
        rayon::join(
            || rayon::join(|| sort(a3, t3), || sort(a2, t2)),
            || rayon::join(|| sort(a1, t1), || sort(a0, t0)),
        );
    }
    {
        let (a0, a1) = a01.split_at(q);
        let (a2, a3) = a23.split_at(q);
        rayon::join(|| merge(a2, a3, t23), || merge(a0, a1, t01));
    }
    merge(t01, t23, a);
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 1 {
        prog.usage(&format!(
            "<n>\n  n: number of keys to sort, in [1, {MAX_N}]"
        ));
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N) as usize;
    let mut state = SEED;
    let mut a: Vec<u64> = (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E3779B97F4A7C15);
            splitmix_mix(state)
        })
        .collect();
    let mut tmp = vec![0u64; n];
    let input = fingerprint(&a);

    let ((), seconds) = timed(|| pool.install(|| sort(&mut a, &mut tmp)));

    println!(
        "cilksort({n}): first {:016x} median {:016x} last {:016x}",
        a[0],
        a[n / 2],
        a[n - 1]
    );
    for i in 1..n {
        check(a[i - 1] <= a[i], || {
            format!(
                "not sorted: key[{}] = {:016x} > key[{i}] = {:016x}",
                i - 1,
                a[i - 1],
                a[i]
            )
        });
    }
    let out = fingerprint(&a);
    check(out == input, || {
        format!(
            "output is not a permutation of the input (fingerprint {:016x}/{:016x}/{:016x}, expected {:016x}/{:016x}/{:016x})",
            out.0, out.1, out.2, input.0, input.1, input.2
        )
    });
    print_time(seconds);
}

/// The multiset fingerprint of cs_fingerprint_of: wrapping sum of the
/// keys, wrapping sum and xor of their mixes.
fn fingerprint(a: &[u64]) -> (u64, u64, u64) {
    a.iter()
        .fold((0u64, 0u64, 0u64), |(sum, mix_sum, mix_xor), &k| {
            let h = splitmix_mix(k);
            (sum.wrapping_add(k), mix_sum.wrapping_add(h), mix_xor ^ h)
        })
}
