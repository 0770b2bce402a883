// SPDX-License-Identifier: Apache-2.0
//! cholesky (Cilk-5's sparse Cholesky, bench/cholesky): A = L L^T on a
//! quad tree of 4 x 4 leaves, the two block rows of a triangular solve
//! and the quadrants of an update as parallel tasks, copying and freeing
//! the tree in parallel too; each repetition copies the input, factors
//! the copy and frees it.  Every entry is computed by the operations of
//! cholesky.h in the same order, so L matches the sequential factor bit
//! for bit (checked, as cholesky-weft does) and the checksum matches C's.

use crate::common::{check, format_g17, print_time, timed, Prog, SplitMix64};

const LEAF: usize = 4;
const MAX_N: i64 = 16384;
const MAX_NONZEROS: i64 = 100_000_000;
const MAX_REPETITIONS: i64 = 1 << 30;
const FULL_CHECK_MAX_N: usize = 512;

type Entries = [[f64; LEAF]; LEAF];

/// A block of order LEAF holds entries; a larger one its quadrants 00,
/// 01, 10, 11 (None when all zero).
#[derive(Clone, PartialEq)]
enum Block {
    Leaf(Entries),
    Inner([Tree; 4]),
}

type Tree = Option<Box<Block>>;

impl Block {
    fn new(order: usize) -> Box<Block> {
        Box::new(if order == LEAF {
            Block::Leaf([[0.0; LEAF]; LEAF])
        } else {
            Block::Inner(Default::default())
        })
    }

    fn entries(&self) -> &Entries {
        match self {
            Block::Leaf(e) => e,
            Block::Inner(_) => unreachable!("a leaf was expected"),
        }
    }

    fn entries_mut(&mut self) -> &mut Entries {
        match self {
            Block::Leaf(e) => e,
            Block::Inner(_) => unreachable!("a leaf was expected"),
        }
    }

    fn quads(&self) -> &[Tree; 4] {
        match self {
            Block::Inner(q) => q,
            Block::Leaf(_) => unreachable!("an inner block was expected"),
        }
    }

    fn quads_mut(&mut self) -> &mut [Tree; 4] {
        match self {
            Block::Inner(q) => q,
            Block::Leaf(_) => unreachable!("an inner block was expected"),
        }
    }
}

/// Runs f and g, in parallel (rayon::join, g offered to thieves) or, for
/// the sequential reference, one after the other.
fn both<A: Send, B: Send>(
    par: bool,
    f: impl FnOnce() -> A + Send,
    g: impl FnOnce() -> B + Send,
) -> (A, B) {
    if par {
        rayon::join(f, g)
    } else {
        (f(), g())
    }
}

/// Runs `each` on every item, in parallel when par: the list halved by
/// join down to single items, so each item is a task.
fn for_each_task<T: Send>(par: bool, items: &mut [T], each: &(impl Fn(&mut T) + Sync)) {
    match items {
        [] => {}
        [one] => each(one),
        _ => {
            let (left, right) = items.split_at_mut(items.len() / 2);
            both(
                par,
                || for_each_task(par, right, each),
                || for_each_task(par, left, each),
            );
        }
    }
}

// ---- the leaf kernels ----

fn leaf_factor(m: &mut Entries) {
    for j in 0..LEAF {
        let mut d = m[j][j];
        for k in 0..j {
            d -= m[j][k] * m[j][k];
        }
        // d <= 0 (A not positive definite) leaves a NaN the checks catch.
        let ljj = d.sqrt();
        m[j][j] = ljj;
        for i in j + 1..LEAF {
            let mut s = m[i][j];
            for k in 0..j {
                s -= m[i][k] * m[j][k];
            }
            m[i][j] = s / ljj;
        }
    }
}

fn leaf_solve(m: &mut Entries, l: &Entries) {
    for r in 0..LEAF {
        for j in 0..LEAF {
            let mut s = m[r][j];
            for k in 0..j {
                s -= m[r][k] * l[j][k];
            }
            m[r][j] = s / l[j][j];
        }
    }
}

fn leaf_update(m: &mut Entries, a: &Entries, b: &Entries, lower: bool) {
    for r in 0..LEAF {
        for col in 0..if lower { r + 1 } else { LEAF } {
            let mut s = 0.0;
            for k in 0..LEAF {
                s += a[r][k] * b[col][k];
            }
            m[r][col] -= s;
        }
    }
}

// ---- the factorisation ----

/// C - A B^T (only C's lower triangle when lower); a missing C is
/// allocated, and dropped again if it received no product.
fn update(
    c: Tree,
    a: Option<&Block>,
    b: Option<&Block>,
    order: usize,
    lower: bool,
    par: bool,
) -> Tree {
    let (Some(a), Some(b)) = (a, b) else { return c };
    let fresh = c.is_none();
    let mut c = c.unwrap_or_else(|| Block::new(order));
    if order == LEAF {
        leaf_update(c.entries_mut(), a.entries(), b.entries(), lower);
        return Some(c);
    }
    let half = order / 2;
    let (aq, bq) = (a.quads(), b.quads());
    let has_work = |q: usize| {
        let (r, col) = (q >> 1, q & 1);
        (aq[2 * r].is_some() && bq[2 * col].is_some())
            || (aq[2 * r + 1].is_some() && bq[2 * col + 1].is_some())
    };
    // A task per quadrant with a product to do (lower skips 01); each
    // writes its own slot of C.
    let mut busy: [Option<(usize, &mut Tree)>; 4] = Default::default();
    let mut count = 0;
    for (q, slot) in c.quads_mut().iter_mut().enumerate() {
        if !(lower && q == 1) && has_work(q) {
            busy[count] = Some((q, slot));
            count += 1;
        }
    }
    for_each_task(par, &mut busy[..count], &|item| {
        let (q, slot) = item.as_mut().expect("listed quadrant");
        let (r, col) = (*q >> 1, *q & 1);
        let shape = lower && (*q == 0 || *q == 3);
        let mut cq = slot.take();
        cq = update(
            cq,
            aq[2 * r].as_deref(),
            bq[2 * col].as_deref(),
            half,
            shape,
            par,
        );
        cq = update(
            cq,
            aq[2 * r + 1].as_deref(),
            bq[2 * col + 1].as_deref(),
            half,
            shape,
            par,
        );
        **slot = cq;
    });
    if fresh && c.quads().iter().all(Option::is_none) {
        return None;
    }
    Some(c)
}

/// Block row (left, right) of X L^-T: left L_00^-T, then right minus
/// left L_10^T, then times L_11^-T.
fn solve_row(left: &mut Tree, right: &mut Tree, lq: &[Tree; 4], half: usize, par: bool) {
    let l00 = lq[0].as_deref().expect("diagonal blocks are never empty");
    let l11 = lq[3].as_deref().expect("diagonal blocks are never empty");
    *left = solve(left.take(), l00, half, par);
    let r = update(
        right.take(),
        left.as_deref(),
        lq[2].as_deref(),
        half,
        false,
        par,
    );
    *right = solve(r, l11, half, par);
}

/// X L^-T, X off the diagonal, L on it.
fn solve(x: Tree, l: &Block, order: usize, par: bool) -> Tree {
    let mut x = x?;
    if order == LEAF {
        leaf_solve(x.entries_mut(), l.entries());
        return Some(x);
    }
    let half = order / 2;
    let lq = l.quads();
    let [x00, x01, x10, x11] = x.quads_mut();
    let top = x00.is_some() || x01.is_some();
    let bottom = x10.is_some() || x11.is_some();
    if top && bottom {
        both(
            par,
            || solve_row(x10, x11, lq, half, par),
            || solve_row(x00, x01, lq, half, par),
        );
    } else if top {
        solve_row(x00, x01, lq, half, par);
    } else {
        solve_row(x10, x11, lq, half, par);
    }
    Some(x)
}

/// A = L L^T in place, A on the diagonal.
fn factor(a: &mut Block, order: usize, par: bool) {
    if order == LEAF {
        leaf_factor(a.entries_mut());
        return;
    }
    let half = order / 2;
    let [q00, _, q10, q11] = a.quads_mut();
    let q00 = q00.as_deref_mut().expect("diagonal blocks are never empty");
    factor(q00, half, par);
    *q10 = solve(q10.take(), q00, half, par);
    *q11 = update(q11.take(), q10.as_deref(), q10.as_deref(), half, true, par);
    factor(
        q11.as_deref_mut().expect("diagonal blocks are never empty"),
        half,
        par,
    );
}

/// A copy of the tree, a task per quadrant.
fn copy(b: Option<&Block>, order: usize) -> Tree {
    let b = b?;
    if order == LEAF {
        return Some(Box::new(b.clone()));
    }
    let q = b.quads();
    let half = order / 2;
    let ((q0, q1), (q2, q3)) = rayon::join(
        || {
            rayon::join(
                || copy(q[0].as_deref(), half),
                || copy(q[1].as_deref(), half),
            )
        },
        || {
            rayon::join(
                || copy(q[2].as_deref(), half),
                || copy(q[3].as_deref(), half),
            )
        },
    );
    Some(Box::new(Block::Inner([q0, q1, q2, q3])))
}

/// Frees the tree, a task per quadrant.
fn free(t: Tree) {
    let Some(mut b) = t else { return };
    if let Block::Inner(q) = b.as_mut() {
        let [q0, q1, q2, q3] = std::mem::take(q);
        rayon::join(
            || rayon::join(|| free(q0), || free(q1)),
            || rayon::join(|| free(q2), || free(q3)),
        );
    }
}

// ---- input ----

/// Entry (i, j), allocating the blocks on its path.
fn entry_mut(t: &mut Tree, order: usize, i: usize, j: usize) -> &mut f64 {
    let b = t.get_or_insert_with(|| Block::new(order));
    if order == LEAF {
        return &mut b.entries_mut()[i][j];
    }
    let half = order / 2;
    let q = if i >= half { 2 } else { 0 } + if j >= half { 1 } else { 0 };
    entry_mut(&mut b.quads_mut()[q], half, i % half, j % half)
}

/// Entry (i, j), 0 where its block is absent.
fn get(t: Option<&Block>, order: usize, i: usize, j: usize) -> f64 {
    match t {
        None => 0.0,
        Some(b) if order == LEAF => b.entries()[i][j],
        Some(b) => {
            let half = order / 2;
            let q = if i >= half { 2 } else { 0 } + if j >= half { 1 } else { 0 };
            get(b.quads()[q].as_deref(), half, i % half, j % half)
        }
    }
}

/// The input matrix of cholesky.h's chol_setup.
fn input(n: usize, nonzeros: usize, order: usize) -> Tree {
    let mut t: Tree = None;
    let mut offdiagonal = vec![0.0f64; n];
    let mut random = SplitMix64(1);
    let mut placed = 0;
    while placed < nonzeros - n {
        let i = (random.next() % n as u64) as usize;
        let j = (random.next() % n as u64) as usize;
        let z = random.next();
        let mut v = ((z >> 11) + 1) as f64 * f64::from_bits(0x3CA0000000000000); // 2^-53
        if z & 1 == 1 {
            v = -v;
        }
        if i == j {
            continue;
        }
        let (row, col) = (i.max(j), i.min(j));
        let e = entry_mut(&mut t, order, row, col);
        if *e != 0.0 {
            continue;
        }
        *e = v;
        offdiagonal[row] += v.abs();
        offdiagonal[col] += v.abs();
        placed += 1;
    }
    for i in 0..order {
        *entry_mut(&mut t, order, i, i) = if i < n { 1.0 + offdiagonal[i] } else { 1.0 };
    }
    t
}

// ---- checks ----

/// Every stored entry, depth first in quadrant order, entries row-major.
fn visit(
    t: Option<&Block>,
    order: usize,
    row0: usize,
    col0: usize,
    f: &mut impl FnMut(usize, usize, f64),
) {
    let Some(b) = t else { return };
    if order == LEAF {
        for (r, row) in b.entries().iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                f(row0 + r, col0 + c, v);
            }
        }
        return;
    }
    let half = order / 2;
    for (q, sub) in b.quads().iter().enumerate() {
        visit(
            sub.as_deref(),
            half,
            row0 + (q >> 1) * half,
            col0 + (q & 1) * half,
            f,
        );
    }
}

fn count_leaves(t: Option<&Block>, order: usize) -> u64 {
    match t {
        None => 0,
        Some(_) if order == LEAF => 1,
        Some(b) => b
            .quads()
            .iter()
            .map(|q| count_leaves(q.as_deref(), order / 2))
            .sum(),
    }
}

/// y = M x (M^T x if transpose; the symmetric matrix whose lower triangle
/// is stored if symmetric) and mag = |M| |x|; returns the number of
/// nonzero entries stored above the diagonal.
fn matvec(
    m: Option<&Block>,
    order: usize,
    x: &[f64],
    y: &mut [f64],
    mag: &mut [f64],
    transpose: bool,
    symmetric: bool,
) -> usize {
    y.fill(0.0);
    mag.fill(0.0);
    let mut upper = 0;
    visit(m, order, 0, 0, &mut |r, c, v| {
        if c > r {
            upper += (v != 0.0) as usize;
            return;
        }
        let (to, from) = if transpose { (c, r) } else { (r, c) };
        y[to] += v * x[from];
        mag[to] += v.abs() * x[from].abs();
        if symmetric && r != c {
            y[c] += v * x[r];
            mag[c] += v.abs() * x[r].abs();
        }
    });
    upper
}

fn report(
    input: Option<&Block>,
    l: Option<&Block>,
    n: usize,
    nonzeros: usize,
    r: i64,
    order: usize,
) {
    let mut checksum = 0.0;
    visit(l, order, 0, 0, &mut |_, _, v| checksum += v);
    println!(
        "cholesky({n}, {nonzeros}, {r}): N = {order}, blocks {}, checksum {}",
        count_leaves(l, order),
        format_g17(checksum)
    );

    let gamma = 4.0 * (order + 1) as f64 * f64::EPSILON;
    let v = || vec![0.0f64; order];
    let (mut x, mut lt_x, mut llt_x, mut a_x) = (v(), v(), v(), v());
    let (mut mag1, mut mag2, mut mag_a, mut ignored) = (v(), v(), v(), v());
    for seed in 11..=13u64 {
        let mut random = SplitMix64(seed);
        x.iter_mut().for_each(|e| *e = random.uniform());
        let upper = matvec(l, order, &x, &mut lt_x, &mut mag1, true, false);
        check(upper == 0, || {
            format!("L has {upper} nonzero entries above the diagonal")
        });
        matvec(l, order, &lt_x, &mut llt_x, &mut ignored, false, false);
        matvec(l, order, &mag1, &mut ignored, &mut mag2, false, false);
        matvec(input, order, &x, &mut a_x, &mut mag_a, false, true);
        for i in 0..order {
            let tol = gamma * (mag2[i] + mag_a[i]) + f64::MIN_POSITIVE;
            check((llt_x[i] - a_x[i]).abs() <= tol, || {
                format!(
                    "(L L^T x)[{i}] = {} but (A x)[{i}] = {} (tolerance {tol:e}, x seed {seed})",
                    format_g17(llt_x[i]),
                    format_g17(a_x[i])
                )
            });
        }
    }
    if order > FULL_CHECK_MAX_N {
        return;
    }
    let mut dense = vec![0.0f64; order * order];
    visit(l, order, 0, 0, &mut |r, c, v| dense[r * order + c] = v);
    for r in 0..order {
        for c in 0..=r {
            let (mut s, mut mag) = (0.0f64, 0.0f64);
            for k in 0..=c {
                let p = dense[r * order + k] * dense[c * order + k];
                s += p;
                mag += p.abs();
            }
            let a = get(input, order, r, c);
            let tol = gamma * mag + f64::MIN_POSITIVE;
            check((s - a).abs() <= tol, || {
                format!(
                    "(L L^T)[{r}][{c}] = {} but A[{r}][{c}] = {} (tolerance {tol:e})",
                    format_g17(s),
                    format_g17(a)
                )
            });
        }
    }
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 2 && args.len() != 3 {
        prog.usage(&format!(
            "<n> <nonzeros> [repetitions]\n  n: matrix rows, in [1, {MAX_N}]\n  nonzeros: stored entries of the lower triangle with the diagonal,\n            in [n, n(n+1)/2] and at most {MAX_NONZEROS}\n  repetitions: factorisations run one after the other, in [1, {MAX_REPETITIONS}] (default 1)"
        ));
    }
    let n = prog.arg_long("n", &args[0], 1, MAX_N);
    let most = (n * (n + 1) / 2).min(MAX_NONZEROS);
    let nonzeros = prog.arg_long("nonzeros", &args[1], n, most) as usize;
    let r = match args.get(2) {
        Some(text) => prog.arg_long("repetitions", text, 1, MAX_REPETITIONS),
        None => 1,
    };
    let n = n as usize;
    let mut order = LEAF;
    while order < n {
        order *= 2;
    }
    let a = input(n, nonzeros, order);

    // Every repetition frees the previous factor, copies the input and
    // factors the copy; the last factor is kept for the checks.
    let (l, seconds) = timed(|| {
        pool.install(|| {
            let mut work: Tree = None;
            for _ in 0..r {
                free(work.take());
                work = copy(a.as_deref(), order);
                factor(
                    work.as_deref_mut().expect("the diagonal is stored"),
                    order,
                    true,
                );
            }
            work
        })
    });

    report(a.as_deref(), l.as_deref(), n, nonzeros, r, order);
    // The same factorisation, sequentially (untimed): must be identical.
    let mut reference = a.clone();
    factor(
        reference.as_deref_mut().expect("the diagonal is stored"),
        order,
        false,
    );
    check(l == reference, || {
        "the parallel factor differs from the sequential one".to_string()
    });
    print_time(seconds);
}
