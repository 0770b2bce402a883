// SPDX-License-Identifier: Apache-2.0
//! Rectangular matrix multiplication (Cilk-5's matmul, bench/matmul): C =
//! A B for row-major n x n floats, halving the largest of m, n, p until
//! m + n + p <= 64.  Halves that write disjoint rows (m) or columns (p) of
//! C are joined; halves of n write the same block and run one after the
//! other, the second adding to the first.  Same input, base case and
//! checks as matmul.h.

use std::alloc::{alloc, dealloc, Layout};

use crate::common::{check, format_g17, print_time, timed, Prog, SplitMix64};

const MIN_N: i64 = 16;
const MAX_N: i64 = 8192;
const REF_MAX_N: usize = 256; // full reference product up to here

/// The shape of one call (matmul.h's mm_dims).
#[derive(Clone, Copy)]
struct Dims {
    m: usize, // A block m x n, B block n x p, C block m x p
    n: usize,
    p: usize,
    ld: usize, // row stride of all three matrices
    add: bool, // C += A B, else C = A B
}

enum Step {
    Base,
    SplitM,
    SplitN,
    SplitP,
}

fn step(d: &Dims) -> Step {
    if d.m + d.n + d.p <= 64 {
        Step::Base
    } else if d.m >= d.n && d.n >= d.p {
        Step::SplitM
    } else if d.n >= d.m && d.n >= d.p {
        Step::SplitN
    } else {
        Step::SplitP
    }
}

/// The corners of the three blocks of one call.  Raw pointers because the
/// two halves of a p split are interleaved column blocks of C, which no
/// pair of slices can describe.
#[derive(Clone, Copy)]
struct Blocks {
    a: *const f32,
    b: *const f32,
    c: *mut f32,
}

// SAFETY: the matrices outlive the multiplication (it returns before they
// are freed); calls that run concurrently write disjoint rows (m split) or
// columns (p split) of C, and A and B are only read.
unsafe impl Send for Blocks {}

/// The inner-product loop of mm_base, accumulating in f32.
///
/// SAFETY: the blocks of `x` must hold m x n, n x p and m x p elements at
/// stride ld, and no other thread may touch C's block meanwhile.
unsafe fn base(x: Blocks, d: &Dims) {
    let ld = d.ld;
    for i in 0..d.m {
        for k in 0..d.p {
            let mut c = 0f32;
            for j in 0..d.n {
                c += *x.a.add(i * ld + j) * *x.b.add(j * ld + k);
            }
            let out = x.c.add(i * ld + k);
            if d.add {
                *out += c;
            } else {
                *out = c;
            }
        }
    }
}

/// SAFETY: as for `base`.
unsafe fn matmul(x: Blocks, mut d: Dims) {
    let mut h = d; // first half
    match step(&d) {
        Step::Base => base(x, &d),
        Step::SplitM => {
            h.m = d.m >> 1;
            d.m -= h.m;
            let off = h.m * d.ld;
            let rest = Blocks {
                a: x.a.add(off),
                b: x.b,
                c: x.c.add(off),
            };
            // The second closure is the one offered to thieves; matmul-weft
            // spawns the first half and calls the second: same split.
            rayon::join(move || matmul(rest, d), move || matmul(x, h));
        }
        Step::SplitN => {
            h.n = d.n >> 1;
            d.n -= h.n;
            d.add = true;
            matmul(x, h);
            matmul(
                Blocks {
                    a: x.a.add(h.n),
                    b: x.b.add(h.n * d.ld),
                    c: x.c,
                },
                d,
            );
        }
        Step::SplitP => {
            h.p = d.p >> 1;
            d.p -= h.p;
            let rest = Blocks {
                a: x.a,
                b: x.b.add(h.p),
                c: x.c.add(h.p),
            };
            rayon::join(move || matmul(rest, d), move || matmul(x, h));
        }
    }
}

/// n x n floats aligned to 64 bytes, as mm_alloc.
struct Matrix {
    ptr: *mut f32,
    layout: Layout,
    len: usize,
}

impl Matrix {
    fn new(n: usize) -> Matrix {
        let len = n * n;
        let layout = Layout::from_size_align(len * 4, 64).expect("matrix layout");
        // SAFETY: the layout has a non-zero size (n >= 16).
        let ptr = unsafe { alloc(layout) } as *mut f32;
        if ptr.is_null() {
            eprintln!("FAILED: cannot allocate {} bytes", len * 4);
            std::process::exit(1);
        }
        Matrix { ptr, layout, len }
    }

    fn as_slice(&self) -> &[f32] {
        // SAFETY: ptr holds len floats, initialised by `new`'s callers
        // before any read (fill or the NaN pattern).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    fn as_mut_slice(&mut self) -> &mut [f32] {
        // SAFETY: as above, and &mut self makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for Matrix {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr as *mut u8, self.layout) }
    }
}

fn fill(m: &mut [f32], seed: u64) {
    let mut random = SplitMix64(seed);
    for x in m {
        *x = random.uniform() as f32;
    }
}

const EPS: f64 = f32::EPSILON as f64;

/// Every entry against a dot product in double (mm_check_full).
fn check_full(a: &[f32], b: &[f32], c: &[f32], n: usize) {
    for i in 0..n {
        for k in 0..n {
            let (mut s, mut mag) = (0f64, 0f64);
            for j in 0..n {
                let prod = (a[i * n + j] * b[j * n + k]) as f64;
                s += prod;
                mag += prod.abs();
            }
            let got = c[i * n + k] as f64;
            let tol = 2.0 * n as f64 * EPS * mag + f64::MIN_POSITIVE;
            check((got - s).abs() <= tol, || {
                format!(
                    "C[{i}][{k}] = {}, expected {} (tolerance {tol:e})",
                    format_g17(got),
                    format_g17(s)
                )
            });
        }
    }
}

/// y = M x, and |M| |x| into mag if given (mm_matvec).
fn matvec(m: &[f32], x: &[f64], y: &mut [f64], mut mag: Option<&mut [f64]>, n: usize) {
    for i in 0..n {
        let (mut s, mut abs) = (0f64, 0f64);
        for j in 0..n {
            s += m[i * n + j] as f64 * x[j];
            abs += (m[i * n + j] as f64).abs() * x[j].abs();
        }
        y[i] = s;
        if let Some(mag) = mag.as_deref_mut() {
            mag[i] = abs;
        }
    }
}

/// Freivalds' check, C x = A (B x) within rounding (mm_check_random).
fn check_random(a: &[f32], b: &[f32], c: &[f32], n: usize, seed: u64) {
    let mut random = SplitMix64(seed);
    let x: Vec<f64> = (0..n).map(|_| random.uniform()).collect();
    let (mut bx, mut abs_bx, mut abx, mut cx) =
        (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let (mut mag, mut ignore) = (vec![0.0; n], vec![0.0; n]);
    matvec(b, &x, &mut bx, Some(&mut abs_bx), n);
    matvec(a, &bx, &mut abx, None, n);
    matvec(c, &x, &mut cx, None, n);
    matvec(a, &abs_bx, &mut ignore, Some(&mut mag), n);
    for i in 0..n {
        let tol = 4.0 * n as f64 * EPS * mag[i] + f64::MIN_POSITIVE;
        check((cx[i] - abx[i]).abs() <= tol, || {
            format!(
                "(C x)[{i}] = {} but (A (B x))[{i}] = {} (tolerance {tol:e})",
                format_g17(cx[i]),
                format_g17(abx[i])
            )
        });
    }
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 1 {
        prog.usage(&format!("<n>\n  n: a power of two in [{MIN_N}, {MAX_N}]"));
    }
    let n = prog.arg_long("n", &args[0], MIN_N, MAX_N);
    if n & (n - 1) != 0 {
        prog.bad_arg(&format!("n must be a power of two, got {n}"));
    }
    let n = n as usize;
    let (mut a, mut b, mut c) = (Matrix::new(n), Matrix::new(n), Matrix::new(n));
    fill(a.as_mut_slice(), 1);
    fill(b.as_mut_slice(), 2);
    // NaNs everywhere, so an entry the multiplication never writes fails.
    c.as_mut_slice().fill(f32::from_bits(u32::MAX));

    let blocks = Blocks {
        a: a.ptr,
        b: b.ptr,
        c: c.ptr,
    };
    let dims = Dims {
        m: n,
        n,
        p: n,
        ld: n,
        add: false,
    };
    // SAFETY: the three matrices are n x n and outlive the call.
    let ((), seconds) = timed(|| pool.install(move || unsafe { matmul(blocks, dims) }));

    let checksum: f64 = c.as_slice().iter().map(|&v| v as f64).sum();
    println!("matmul({n}): checksum {}", format_g17(checksum));
    if n <= REF_MAX_N {
        check_full(a.as_slice(), b.as_slice(), c.as_slice(), n);
    } else {
        check_random(a.as_slice(), b.as_slice(), c.as_slice(), n, 0x5eed0003);
    }
    print_time(seconds);
}
