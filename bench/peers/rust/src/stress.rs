// SPDX-License-Identifier: Apache-2.0
//! stress (Wool's load-balancing micro-benchmark, bench/stress): r
//! balanced binary task trees of height h, one after the other, whose
//! leaves each run n dependent additions.  Same answer (closed form) as
//! stress.h.

use crate::common::{check, print_time, timed, Prog};

/// x = j; x += i for i in 0..n, wrapping.  The empty asm claims to change
/// x after every addition, as stress.h's does, so the loop is neither
/// replaced by its closed form nor vectorised: one add per iteration.
#[inline]
fn leaf(n: u64, j: u64) -> u64 {
    let mut x = j;
    for i in 0..n {
        x = x.wrapping_add(i);
        opaque(&mut x);
    }
    x
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn opaque(x: &mut u64) {
    // SAFETY: an empty instruction sequence; it only claims to modify x.
    unsafe {
        std::arch::asm!(
            "/* {0} */",
            inout(reg) * x,
            options(nomem, nostack, preserves_flags)
        )
    };
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn opaque(x: &mut u64) {
    *x = std::hint::black_box(*x);
}

fn tree(height: u32, first_leaf: u64, n: u64) -> u64 {
    if height == 0 {
        return leaf(n, first_leaf);
    }
    let half = 1u64 << (height - 1);
    // stress-weft spawns the left subtree and calls the right one; join
    // offers its second closure to thieves.
    let (right, left) = rayon::join(
        || tree(height - 1, first_leaf + half, n),
        || tree(height - 1, first_leaf, n),
    );
    left.wrapping_add(right)
}

/// n(n-1)/2 modulo 2^64, halving the even factor first.
fn triangle(n: u64) -> u64 {
    if n == 0 {
        0
    } else if n.is_multiple_of(2) {
        (n / 2).wrapping_mul(n - 1)
    } else {
        n.wrapping_mul((n - 1) / 2)
    }
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 3 {
        prog.usage(
            "<leaf-iterations> <height> <repetitions>\n  leaf-iterations: additions per leaf, in [0, 1073741824]\n  height: the tree has 2^height leaves, height in [0, 30]\n  repetitions: trees run one after the other, in [1, 1099511627776]",
        );
    }
    let n = prog.arg_long("leaf-iterations", &args[0], 0, 1 << 30) as u64;
    let h = prog.arg_long("height", &args[1], 0, 30) as u32;
    let r = prog.arg_long("repetitions", &args[2], 1, 1 << 40) as u64;

    // The repetitions run inside the pool, one tree after the other.
    let (sum, seconds) =
        timed(|| pool.install(|| (0..r).fold(0u64, |sum, _| sum.wrapping_add(tree(h, 0, n)))));

    println!("stress({n}, {h}, {r}) = {sum}");
    let leaves = 1u64 << h;
    let want = r.wrapping_mul(triangle(leaves).wrapping_add(leaves.wrapping_mul(triangle(n))));
    check(sum == want, || {
        format!("stress sum is {sum}, expected {want}")
    });
    print_time(seconds);
}
