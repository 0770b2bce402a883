// SPDX-License-Identifier: Apache-2.0
//! knapsack (Cilk-5, BOTS; bench/knapsack): 0/1 knapsack by branch and
//! bound, the "skip item i" branch a task, pruning against a shared
//! best-so-far.  Same instance, bound and dynamic-programming check as
//! knapsack.h.

use std::sync::atomic::{AtomicI64, Ordering};

use crate::common::{check, print_time, timed, Prog, SplitMix64};

const MAX_WEIGHT: u64 = 1000;
const VALUE_BONUS: i64 = 100;
const MAX_ITEMS: i64 = 200;
const PRUNED: i64 = -1;

#[derive(Clone, Copy)]
struct Item {
    weight: i64,
    value: i64,
}

struct Problem {
    items: Vec<Item>, // by decreasing value/weight, ties by generation order
    capacity: i64,
}

fn instance(items: usize, seed: u64) -> Problem {
    let mut random = SplitMix64(seed);
    let mut list: Vec<(Item, usize)> = (0..items)
        .map(|j| {
            let weight = 1 + (random.next() % MAX_WEIGHT) as i64;
            (
                Item {
                    weight,
                    value: weight + VALUE_BONUS,
                },
                j,
            )
        })
        .collect();
    let capacity = list.iter().map(|(it, _)| it.weight).sum::<i64>() / 2;
    // Denser first, compared exactly (value_a weight_b vs value_b weight_a).
    list.sort_by(|(a, ia), (b, ib)| {
        (b.value * a.weight)
            .cmp(&(a.value * b.weight))
            .then(ia.cmp(ib))
    });
    Problem {
        items: list.into_iter().map(|(it, _)| it).collect(),
        capacity,
    }
}

/// Raises the best-so-far to value.  Relaxed: it is only a pruning hint;
/// every value stored is one a complete choice reached and returns up the
/// tree, so pruning against any value read, stale or not, never loses the
/// optimum (the answer itself comes back through join).
/// The read first keeps the common case (nothing to raise) free of a
/// locked instruction, as knapsack-weft's CAS loop does.
fn raise_best(best: &AtomicI64, value: i64) {
    // Relaxed load and max: they order nothing but the word itself.
    if value > best.load(Ordering::Relaxed) {
        best.fetch_max(value, Ordering::Relaxed);
    }
}

fn search(p: &Problem, best: &AtomicI64, i: usize, capacity: i64, value: i64) -> i64 {
    if i == p.items.len() || capacity == 0 {
        raise_best(best, value);
        return value;
    }
    let item = p.items[i];
    // Relaxed: a stale best-so-far only prunes less (see raise_best).
    if value + capacity * item.value / item.weight <= best.load(Ordering::Relaxed) {
        return PRUNED;
    }
    let skip = || search(p, best, i + 1, capacity, value);
    if item.weight <= capacity {
        // "take" runs here, "skip" is offered to thieves (knapsack-weft
        // spawns skip and calls take).
        let (take, skip) = rayon::join(
            || search(p, best, i + 1, capacity - item.weight, value + item.value),
            skip,
        );
        take.max(skip)
    } else {
        skip()
    }
}

/// The optimum by dynamic programming over capacities 0..=capacity.
fn optimum(p: &Problem) -> i64 {
    let mut table = vec![0i64; p.capacity as usize + 1];
    for it in &p.items {
        let w = it.weight as usize;
        for c in (w..table.len()).rev() {
            table[c] = table[c].max(table[c - w] + it.value);
        }
    }
    table[p.capacity as usize]
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    if args.len() != 2 {
        prog.usage(&format!(
            "<items> <seed>\n  items: number of items in [1, {MAX_ITEMS}]; seed: instance seed, a non-negative integer"
        ));
    }
    let items = prog.arg_long("items", &args[0], 1, MAX_ITEMS) as usize;
    let seed = prog.arg_long("seed", &args[1], 0, i64::MAX);
    let p = instance(items, seed as u64);
    let best_so_far = AtomicI64::new(0);

    let (best, seconds) = timed(|| pool.install(|| search(&p, &best_so_far, 0, p.capacity, 0)));

    println!(
        "knapsack({items}, {seed}): capacity {} best {best}",
        p.capacity
    );
    let opt = optimum(&p);
    check(best == opt, || {
        format!("best value {best}, but the optimum is {opt}")
    });
    print_time(seconds);
}
