// SPDX-License-Identifier: Apache-2.0
//! strassen (Cilk-5, BOTS; bench/strassen): Strassen's multiplication
//! with the seven half-size products as tasks (each forms its operand
//! sums in fresh buffers and recurses) and C's four quadrants combined as
//! tasks, down to a cut-off where the i-k-j loop takes over.  Integer
//! inputs make the arithmetic exact, so the checks are exact, as in
//! strassen.h.

use rayon::prelude::*;

use crate::common::{check, format_g17, print_time, timed, Prog, SplitMix64};

const SEED_A: u64 = 0x5EED57A55E0A;
const SEED_B: u64 = 0x5EED57A55E0B;
const SEED_CHECK: u64 = 0x5EED57A55E0C;
const MAX_N: i64 = 8192;
const DEFAULT_CUTOFF: i64 = 64;
const FULL_CHECK_MAX_N: usize = 256;
const SAMPLES: usize = 1024;

/// The products' operands: quadrant q1, or q1 + sign q2 when q2 is given.
/// Quadrants: 0 = X11, 1 = X12, 2 = X21, 3 = X22.
type Operand = (usize, Option<usize>, f64);
const LEFT: [Operand; 7] = [
    (0, Some(3), 1.0),
    (2, Some(3), 1.0),
    (0, None, 0.0),
    (3, None, 0.0),
    (0, Some(1), 1.0),
    (2, Some(0), -1.0),
    (1, Some(3), -1.0),
];
const RIGHT: [Operand; 7] = [
    (0, Some(3), 1.0),
    (0, None, 0.0),
    (1, Some(3), -1.0),
    (2, Some(0), -1.0),
    (3, None, 0.0),
    (0, Some(1), 1.0),
    (2, Some(3), 1.0),
];

/// A read-only block: its corner and row stride.  A raw pointer, because
/// the quadrants of a block are interleaved runs of its rows.
#[derive(Clone, Copy)]
struct Block {
    p: *const f64,
    ld: usize,
}

/// A block written by exactly one task at a time.
#[derive(Clone, Copy)]
struct BlockMut {
    p: *mut f64,
    ld: usize,
}

// SAFETY: blocks point into matrices and buffers that outlive every task
// using them (each is freed after the joins that use it); A, B and the
// operand buffers are only read by the tasks that share them, and every
// block written in parallel (a product's M_k, a quadrant of C) is written
// by one task only.
unsafe impl Send for Block {}
unsafe impl Sync for Block {}
unsafe impl Send for BlockMut {}
unsafe impl Sync for BlockMut {}

impl Block {
    /// Quadrant q of this block, h = half its order.
    fn quadrant(self, h: usize, q: usize) -> Block {
        // SAFETY: stays inside the block (q < 4, h = half its order).
        Block {
            p: unsafe { self.p.add((q >> 1) * h * self.ld + (q & 1) * h) },
            ld: self.ld,
        }
    }

    /// Row i, n entries.
    ///
    /// SAFETY: i < the block's order and n <= it; nobody writes the row
    /// while the slice lives.
    unsafe fn row<'a>(self, i: usize, n: usize) -> &'a [f64] {
        std::slice::from_raw_parts(self.p.add(i * self.ld), n)
    }
}

impl BlockMut {
    fn quadrant(self, h: usize, q: usize) -> BlockMut {
        // SAFETY: stays inside the block.
        BlockMut {
            p: unsafe { self.p.add((q >> 1) * h * self.ld + (q & 1) * h) },
            ld: self.ld,
        }
    }

    /// SAFETY: as Block::row, and only the caller touches the row.
    unsafe fn row_mut<'a>(self, i: usize, n: usize) -> &'a mut [f64] {
        std::slice::from_raw_parts_mut(self.p.add(i * self.ld), n)
    }
}

/// Base case: C = A B by the i-k-j loop (the inner loop runs along rows).
unsafe fn base(a: Block, b: Block, c: BlockMut, n: usize) {
    for i in 0..n {
        let crow = c.row_mut(i, n);
        crow.fill(0.0);
        let arow = a.row(i, n);
        for (k, &aik) in arow.iter().enumerate() {
            for (cij, &bkj) in crow.iter_mut().zip(b.row(k, n)) {
                *cij += aik * bkj;
            }
        }
    }
}

/// The operand of a product: the quadrant itself, or the sum written to
/// buf (h x h, stride h).
unsafe fn operand(x: Block, h: usize, op: Operand, buf: &mut [f64]) -> Block {
    let q1 = x.quadrant(h, op.0);
    let Some(q2) = op.1 else { return q1 };
    let q2 = x.quadrant(h, q2);
    for i in 0..h {
        for ((out, &u), &v) in buf[i * h..(i + 1) * h]
            .iter_mut()
            .zip(q1.row(i, h))
            .zip(q2.row(i, h))
        {
            *out = u + op.2 * v;
        }
    }
    Block {
        p: buf.as_ptr(),
        ld: h,
    }
}

/// Product k of the step on a, b (order n) into m (h x h, stride h).
unsafe fn product(a: Block, b: Block, m: &mut [f64], n: usize, k: usize, cutoff: usize) {
    let h = n / 2;
    let mut buf = vec![0.0; 2 * h * h];
    let (lbuf, rbuf) = buf.split_at_mut(h * h);
    let l = operand(a, h, LEFT[k], lbuf);
    let r = operand(b, h, RIGHT[k], rbuf);
    multiply(
        l,
        r,
        BlockMut {
            p: m.as_mut_ptr(),
            ld: h,
        },
        h,
        cutoff,
    );
}

/// Quadrant q of C from the seven products (each h x h, stride h).
unsafe fn combine(c: BlockMut, h: usize, m: &[f64], q: usize) {
    let hh = h * h;
    let mk = |k: usize, i: usize| &m[k * hh + i * h..k * hh + (i + 1) * h];
    let cq = c.quadrant(h, q);
    for i in 0..h {
        let row = cq.row_mut(i, h);
        let (m1, m2, m3, m4, m5, m6, m7) = (
            mk(0, i),
            mk(1, i),
            mk(2, i),
            mk(3, i),
            mk(4, i),
            mk(5, i),
            mk(6, i),
        );
        for j in 0..h {
            row[j] = match q {
                0 => m1[j] + m4[j] - m5[j] + m7[j],
                1 => m3[j] + m5[j],
                2 => m2[j] + m4[j],
                _ => m1[j] - m2[j] + m3[j] + m6[j],
            };
        }
    }
}

/// C = A B for blocks of order n.
///
/// SAFETY: the blocks hold n x n entries at their strides, and no other
/// task touches C meanwhile.
unsafe fn multiply(a: Block, b: Block, c: BlockMut, n: usize, cutoff: usize) {
    if n <= cutoff {
        base(a, b, c, n);
        return;
    }
    let h = n / 2;
    let hh = h * h;
    let mut m = vec![0.0; 7 * hh];
    // Seven tasks, one per product (with_max_len(1): no coarsening); each
    // reads A and B and writes its own M_k.
    m.par_chunks_mut(hh)
        .enumerate()
        .with_max_len(1)
        .for_each(|(k, mk)| {
            product(a, b, mk, n, k, cutoff);
        });
    // Four tasks, one per (disjoint) quadrant of C.
    let m = &m;
    (0..4usize)
        .into_par_iter()
        .with_max_len(1)
        .for_each(|q| combine(c, h, m, q));
}

fn small_int(random: &mut SplitMix64) -> f64 {
    (random.next() % 17) as i32 as f64 - 8.0
}

fn dot(a: &[f64], b: &[f64], n: usize, i: usize, j: usize) -> f64 {
    (0..n).fold(0.0, |s, k| s + a[i * n + k] * b[k * n + j])
}

fn check_entry(a: &[f64], b: &[f64], c: &[f64], n: usize, i: usize, j: usize) {
    let (want, got) = (dot(a, b, n, i, j), c[i * n + j]);
    check(got == want, || {
        format!(
            "C[{i}][{j}] = {}, expected {}",
            format_g17(got),
            format_g17(want)
        )
    });
}

fn matvec(m: &[f64], x: &[f64], n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| (0..n).fold(0.0, |s, j| s + m[i * n + j] * x[j]))
        .collect()
}

/// Exact checks of strassen.h's sm_check.
fn check_product(a: &[f64], b: &[f64], c: &[f64], n: usize) {
    if n <= FULL_CHECK_MAX_N {
        for i in 0..n {
            for j in 0..n {
                check_entry(a, b, c, n, i, j);
            }
        }
        return;
    }
    let mut random = SplitMix64(SEED_CHECK);
    for _ in 0..2 {
        let x: Vec<f64> = (0..n).map(|_| small_int(&mut random)).collect();
        let abx = matvec(a, &matvec(b, &x, n), n);
        let cx = matvec(c, &x, n);
        for i in 0..n {
            check(cx[i] == abx[i], || {
                format!(
                    "(C x)[{i}] = {} but (A (B x))[{i}] = {}",
                    format_g17(cx[i]),
                    format_g17(abx[i])
                )
            });
        }
    }
    for _ in 0..SAMPLES {
        let z = random.next();
        check_entry(
            a,
            b,
            c,
            n,
            (z % n as u64) as usize,
            ((z >> 32) % n as u64) as usize,
        );
    }
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.is_empty() || args.len() > 2 {
        prog.usage(&format!(
            "<n> [cutoff]\n  n: a power of two in [1, {MAX_N}]; cutoff: multiply directly at n <= cutoff, in [1, {MAX_N}] (default {DEFAULT_CUTOFF})"
        ));
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N);
    if n & (n - 1) != 0 {
        prog.bad_arg(&format!("n must be a power of two, got {n}"));
    }
    let cutoff = match args.get(1) {
        Some(text) => prog.arg_long("cutoff", text, 1, MAX_N),
        None => DEFAULT_CUTOFF,
    };
    let (n, cutoff) = (n as usize, cutoff as usize);
    let mut random = SplitMix64(SEED_A);
    let a: Vec<f64> = (0..n * n).map(|_| small_int(&mut random)).collect();
    let mut random = SplitMix64(SEED_B);
    let b: Vec<f64> = (0..n * n).map(|_| small_int(&mut random)).collect();
    let mut c = vec![f64::NAN; n * n]; // an entry never written fails the check

    let (ab, cb) = (
        (
            Block {
                p: a.as_ptr(),
                ld: n,
            },
            Block {
                p: b.as_ptr(),
                ld: n,
            },
        ),
        BlockMut {
            p: c.as_mut_ptr(),
            ld: n,
        },
    );
    // SAFETY: a, b and c are n x n and outlive the call.
    let ((), seconds) = timed(|| pool.install(|| unsafe { multiply(ab.0, ab.1, cb, n, cutoff) }));

    let sum: f64 = c.iter().sum();
    println!("strassen({n}, {cutoff}): checksum {sum:.0}");
    check_product(&a, &b, &c, n);
    print_time(seconds);
}
