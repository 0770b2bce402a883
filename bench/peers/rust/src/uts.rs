// SPDX-License-Identifier: Apache-2.0
//! UTS, the Unbalanced Tree Search (bench/uts): one task per tree node,
//! every child joined with no cut-off.  The tree is the reference UTS 2.1
//! tree of bench/uts/uts_tree.c, bit for bit: a child's 20-byte state is
//! the SHA-1 of its parent's state and its index (big-endian), and a
//! node's child count comes from its own state through the same double
//! arithmetic in the same order.  So the published sample trees' node,
//! leaf and depth counts check the traversal, as in uts-seq.

use sha1::digest::generic_array::GenericArray;

use crate::common::{check, parse_c_double, parse_c_long, print_time, timed, Prog};
use crate::stack;

// Tree types (-t) and GEO shapes (-a): the reference's numbers.
const BIN: i32 = 0;
const GEO: i32 = 1;
const HYBRID: i32 = 2;
const BALANCED: i32 = 3;
const LINEAR: i32 = 0;
const EXPDEC: i32 = 1;
const CYCLIC: i32 = 2;
const FIXED: i32 = 3;

/// Child-count cap for every node but a BIN root (and BALANCED trees).
const MAX_CHILDREN: i32 = 100;

/// The tree parameters (uts_params), with the reference defaults.
#[derive(Clone, PartialEq)]
struct Params {
    tree_type: i32,     // -t
    b_0: f64,           // -b root branching factor
    root_seed: i32,     // -r
    shape_fn: i32,      // -a GEO shape
    gen_mx: i32,        // -d GEO/BALANCED depth parameter
    non_leaf_prob: f64, // -q BIN: probability of a non-leaf
    non_leaf_bf: i32,   // -m BIN: children of a non-leaf
    shift_depth: f64,   // -f HYBRID: GEO above shift_depth * gen_mx
    granularity: i32,   // -g SHA-1 evaluations per child
}

impl Default for Params {
    fn default() -> Params {
        Params {
            tree_type: GEO,
            b_0: 4.0,
            root_seed: 0,
            shape_fn: LINEAR,
            gen_mx: 6,
            non_leaf_prob: 15.0 / 64.0,
            non_leaf_bf: 4,
            shift_depth: 0.5,
            granularity: 1,
        }
    }
}

struct Node {
    tree_type: i32,
    height: i32,
    state: [u8; 20],
}

#[derive(Clone, Copy, PartialEq, Debug)]
struct Count {
    nodes: u64,
    leaves: u64,
    max_depth: u64,
}

impl Count {
    fn add(self, sub: Count) -> Count {
        Count {
            nodes: self.nodes + sub.nodes,
            leaves: self.leaves + sub.leaves,
            max_depth: self.max_depth.max(sub.max_depth),
        }
    }
}

// ---- the splittable RNG -------------------------------------------------

const SHA1_INIT: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];

/// SHA-1 of a message of at most 55 bytes: one block, padded here and fed
/// to the block function, as uts_tree.c drives OpenSSL's.
fn sha1_short(msg: &[u8]) -> [u8; 20] {
    assert!(msg.len() <= 55, "one-block SHA-1 message too long");
    let mut block = [0u8; 64];
    block[..msg.len()].copy_from_slice(msg);
    block[msg.len()] = 0x80;
    block[56..].copy_from_slice(&(msg.len() as u64 * 8).to_be_bytes());
    let mut h = SHA1_INIT;
    sha1::compress(&mut h, &[GenericArray::from(block)]);
    let mut digest = [0u8; 20];
    for (out, word) in digest.chunks_exact_mut(4).zip(h) {
        out.copy_from_slice(&word.to_be_bytes());
    }
    digest
}

/// Root state: SHA-1 of 16 zero bytes and the seed, big-endian.
fn rng_init(seed: i32) -> [u8; 20] {
    let mut msg = [0u8; 20];
    msg[16..].copy_from_slice(&(seed as u32).to_be_bytes());
    sha1_short(&msg)
}

/// Child state: SHA-1 of the parent's state and the spawn number.
fn rng_spawn(parent: &[u8; 20], spawn_number: i32) -> [u8; 20] {
    let mut msg = [0u8; 24];
    msg[..20].copy_from_slice(parent);
    msg[20..].copy_from_slice(&(spawn_number as u32).to_be_bytes());
    sha1_short(&msg)
}

/// The last four state bytes, big-endian, sign bit cleared.
fn rng_rand(state: &[u8; 20]) -> i32 {
    (u32::from_be_bytes([state[16], state[17], state[18], state[19]]) & 0x7fff_ffff) as i32
}

fn rng_to_prob(n: i32) -> f64 {
    n as f64 / 2147483648.0
}

// ---- tree shape (operation order as uts_tree.c: the tree depends on it) --

fn num_children_bin(p: &Params, node: &Node) -> i32 {
    let d = rng_to_prob(rng_rand(&node.state));
    if d < p.non_leaf_prob {
        p.non_leaf_bf
    } else {
        0
    }
}

fn num_children_geo(p: &Params, node: &Node) -> i32 {
    let b_0 = p.b_0;
    let mut b_i = b_0;
    let depth = node.height;
    if depth > 0 {
        b_i = match p.shape_fn {
            EXPDEC => b_0 * (depth as f64).powf(-b_0.ln() / (p.gen_mx as f64).ln()),
            CYCLIC => {
                if depth as f64 > 5.0 * p.gen_mx as f64 {
                    0.0
                } else {
                    b_0.powf((2.0 * std::f64::consts::PI * depth as f64 / p.gen_mx as f64).sin())
                }
            }
            FIXED => {
                if depth < p.gen_mx {
                    b_0
                } else {
                    0.0
                }
            }
            _ => b_0 * (1.0 - depth as f64 / p.gen_mx as f64), // LINEAR
        };
    }
    // Inverse CDF of the geometric distribution with mean b_i.
    let prob = 1.0 / (1.0 + b_i);
    let u = rng_to_prob(rng_rand(&node.state));
    let n = ((1.0 - u).ln() / (1.0 - prob).ln()).floor();
    // NaN or negative: a leaf; oversized: capped by the caller.
    if n.is_nan() || n < 0.0 {
        0
    } else if n > i32::MAX as f64 {
        i32::MAX
    } else {
        n as i32
    }
}

fn num_children(p: &Params, node: &Node) -> i32 {
    let mut n = match p.tree_type {
        BIN => {
            if node.height == 0 {
                p.b_0.floor() as i32
            } else {
                num_children_bin(p, node)
            }
        }
        GEO => num_children_geo(p, node),
        HYBRID => {
            if (node.height as f64) < p.shift_depth * p.gen_mx as f64 {
                num_children_geo(p, node)
            } else {
                num_children_bin(p, node)
            }
        }
        _ => {
            if node.height < p.gen_mx {
                p.b_0 as i32 // BALANCED
            } else {
                0
            }
        }
    };
    if node.height == 0 && node.tree_type == BIN {
        n = n.min(p.b_0.ceil() as i32);
    } else if p.tree_type != BALANCED {
        n = n.min(MAX_CHILDREN);
    }
    n
}

fn root(p: &Params) -> Node {
    Node {
        tree_type: p.tree_type,
        height: 0,
        state: rng_init(p.root_seed),
    }
}

fn child(p: &Params, parent: &Node, i: i32) -> Node {
    let tree_type = if p.tree_type == HYBRID {
        if (parent.height as f64) < p.shift_depth * p.gen_mx as f64 {
            GEO
        } else {
            BIN
        }
    } else {
        p.tree_type
    };
    let mut state = rng_spawn(&parent.state, i);
    // -g repeats the same hash to make nodes costlier.
    for _ in 1..p.granularity {
        state = rng_spawn(std::hint::black_box(&parent.state), i);
    }
    Node {
        tree_type,
        height: parent.height + 1,
        state,
    }
}

// ---- the search ------------------------------------------------------

fn search(p: &Params, node: &Node) -> Count {
    stack::guard("uts-rayon", || {
        format!("tree depth {} reached", node.height)
    });
    let n = num_children(p, node);
    let own = Count {
        nodes: 1,
        leaves: (n == 0) as u64,
        max_depth: node.height as u64,
    };
    if n == 0 {
        return own;
    }
    own.add(search_children(p, node, 0, n))
}

/// Children lo..hi of `parent`, halved by join down to single children so
/// that each child is a task a thief can take, as uts-weft spawns each.
/// A child's node is made (one SHA-1) by the task that searches it.
fn search_children(p: &Params, parent: &Node, lo: i32, hi: i32) -> Count {
    if hi - lo == 1 {
        return search(p, &child(p, parent, lo));
    }
    let mid = lo + (hi - lo) / 2;
    let (a, b) = rayon::join(
        || search_children(p, parent, lo, mid),
        || search_children(p, parent, mid, hi),
    );
    a.add(b)
}

// ---- sample trees, command line -------------------------------------

/// The published sample trees (uts_tree.c's table).
const SAMPLES: &[(&str, &str, Count)] = &[
    (
        "T1",
        "-t 1 -a 3 -d 10 -b 4 -r 19",
        Count {
            nodes: 4130071,
            leaves: 3305118,
            max_depth: 10,
        },
    ),
    (
        "T5",
        "-t 1 -a 0 -d 20 -b 4 -r 34",
        Count {
            nodes: 4147582,
            leaves: 2181318,
            max_depth: 20,
        },
    ),
    (
        "T2",
        "-t 1 -a 2 -d 16 -b 6 -r 502",
        Count {
            nodes: 4117769,
            leaves: 2342762,
            max_depth: 81,
        },
    ),
    (
        "T3",
        "-t 0 -b 2000 -q 0.124875 -m 8 -r 42",
        Count {
            nodes: 4112897,
            leaves: 3599034,
            max_depth: 1572,
        },
    ),
    (
        "T4",
        "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4",
        Count {
            nodes: 4132453,
            leaves: 3108986,
            max_depth: 134,
        },
    ),
    (
        "T1L",
        "-t 1 -a 3 -d 13 -b 4 -r 29",
        Count {
            nodes: 102181082,
            leaves: 81746377,
            max_depth: 13,
        },
    ),
    (
        "T2L",
        "-t 1 -a 2 -d 23 -b 7 -r 220",
        Count {
            nodes: 96793510,
            leaves: 53791152,
            max_depth: 67,
        },
    ),
    (
        "T3L",
        "-t 0 -b 2000 -q 0.200014 -m 5 -r 7",
        Count {
            nodes: 111345631,
            leaves: 89076904,
            max_depth: 17844,
        },
    ),
    (
        "T1XL",
        "-t 1 -a 3 -d 15 -b 4 -r 29",
        Count {
            nodes: 1635119272,
            leaves: 1308100063,
            max_depth: 15,
        },
    ),
];

/// Same tree: compares only the parameters the tree type reads.
fn same_tree(a: &Params, b: &Params) -> bool {
    if a.tree_type != b.tree_type || a.b_0 != b.b_0 || a.root_seed != b.root_seed {
        return false;
    }
    let geo = a.tree_type == GEO || a.tree_type == HYBRID;
    let bin = a.tree_type == BIN || a.tree_type == HYBRID;
    !(geo && (a.shape_fn != b.shape_fn || a.gen_mx != b.gen_mx)
        || bin && (a.non_leaf_prob != b.non_leaf_prob || a.non_leaf_bf != b.non_leaf_bf)
        || a.tree_type == HYBRID && a.shift_depth != b.shift_depth
        || a.tree_type == BALANCED && a.gen_mx != b.gen_mx)
}

fn find_sample(p: &Params) -> Option<&'static (&'static str, &'static str, Count)> {
    SAMPLES.iter().find(|(_, flags, _)| {
        let args: Vec<String> = flags.split(' ').map(String::from).collect();
        let (sample, _) = parse_args(&Prog::new("uts-sample-table"), &args);
        same_tree(p, &sample)
    })
}

/// The flags of uts-seq (-t -b -r -a -d -q -m -f -g -c, each with a value,
/// last wins); returns the parameters and the -c node count (0 if none).
fn parse_args(prog: &Prog, args: &[String]) -> (Params, u64) {
    let mut p = Params::default();
    let mut expected_nodes = 0u64;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        if flag == "-h" || flag == "--help" {
            println!("usage: {} [-w workers] [-t type] [-b b_0] [-r seed] [-a shape] [-d depth] [-q prob] [-m kids] [-f fraction] [-g granularity] [-c expected-nodes]", prog.name);
            println!("  the flags of uts-seq; sample trees are checked automatically:");
            for (name, flags, count) in SAMPLES {
                println!("  {name:<5} {flags:<40} {} nodes", count.nodes);
            }
            std::process::exit(0);
        }
        let Some(value) = args.get(i + 1) else {
            if flag.len() == 2 && "-t-b-r-a-d-q-m-f-g-c".contains(flag) {
                prog.bad_arg(&format!("{flag} needs a value"));
            }
            prog.bad_arg(&format!("unknown argument '{flag}'"));
        };
        let int = |lo: i64, hi: i64| match parse_c_long(value) {
            Some(v) if v >= lo && v <= hi => v as i32,
            _ => prog.bad_arg(&format!(
                "{flag} needs an integer in [{lo}, {hi}], got '{value}'"
            )),
        };
        let real = |lo: f64, hi: f64| match parse_c_double(value) {
            Some(v) if v >= lo && v <= hi => v,
            _ => prog.bad_arg(&format!(
                "{flag} needs a number in [{lo}, {hi}], got '{value}'"
            )),
        };
        let int_max = i32::MAX as i64;
        match flag {
            "-t" => p.tree_type = int(BIN as i64, BALANCED as i64),
            "-b" => p.b_0 = real(0.0, i32::MAX as f64),
            "-r" => p.root_seed = int(0, int_max),
            "-a" => p.shape_fn = int(LINEAR as i64, FIXED as i64),
            "-d" => p.gen_mx = int(0, int_max),
            "-q" => p.non_leaf_prob = real(0.0, 1.0),
            "-m" => p.non_leaf_bf = int(0, int_max),
            "-f" => p.shift_depth = real(0.0, 1.0),
            "-g" => p.granularity = int(1, 1_000_000),
            "-c" => {
                expected_nodes = match value.parse::<u64>() {
                    Ok(c) if c > 0 && value.starts_with(|c: char| c.is_ascii_digit()) => c,
                    _ => prog.bad_arg(&format!(
                        "{flag} needs a positive node count, got '{value}'"
                    )),
                }
            }
            _ => prog.bad_arg(&format!("unknown argument '{flag}'")),
        }
        i += 2;
    }
    if (p.tree_type == GEO || p.tree_type == HYBRID) && p.gen_mx < 1 {
        prog.bad_arg(&format!(
            "GEO and HYBRID trees need -d >= 1, got {}",
            p.gen_mx
        ));
    }
    (p, expected_nodes)
}

pub fn main(prog: &Prog, args: &[String], pool: &rayon::ThreadPool) {
    let (params, expected_nodes) = parse_args(prog, args);
    let sample = find_sample(&params);
    if let Some((name, _, c)) = sample {
        println!(
            "Sample tree: {name} (published: {} nodes, {} leaves, depth {})",
            c.nodes, c.leaves, c.max_depth
        );
    }
    let tree_root = root(&params);

    let (r, seconds) = timed(|| pool.install(|| search(&params, &tree_root)));

    println!("Nodes: {}", r.nodes);
    println!("Leaves: {}", r.leaves);
    println!("Max depth: {}", r.max_depth);
    print_time(seconds);
    if expected_nodes != 0 {
        check(r.nodes == expected_nodes, || {
            format!("{} nodes, expected {expected_nodes} (-c)", r.nodes)
        });
    }
    if let Some((name, _, c)) = sample {
        check(r.nodes == c.nodes, || {
            format!("{} nodes, sample tree {name} has {}", r.nodes, c.nodes)
        });
        check(r.leaves == c.leaves, || {
            format!("{} leaves, sample tree {name} has {}", r.leaves, c.leaves)
        });
        check(r.max_depth == c.max_depth, || {
            format!(
                "max depth {}, sample tree {name} has {}",
                r.max_depth, c.max_depth
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha1::{Digest, Sha1};

    #[test]
    fn sha1_short_is_sha1() {
        let msg: Vec<u8> = (0..56u32).map(|i| (i * 37 + 11) as u8).collect();
        for len in 0..=55 {
            let want: [u8; 20] = Sha1::digest(&msg[..len]).into();
            assert_eq!(sha1_short(&msg[..len]), want, "length {len}");
        }
        let abc = sha1_short(b"abc");
        assert_eq!(abc[..4], [0xa9, 0x99, 0x3e, 0x36]);
    }

    #[test]
    fn every_sample_is_found_by_its_flags() {
        for (name, flags, _) in SAMPLES {
            let args: Vec<String> = flags.split(' ').map(String::from).collect();
            let (p, _) = parse_args(&Prog::new("test"), &args);
            assert_eq!(find_sample(&p).map(|s| s.0), Some(*name));
        }
    }

    /// The five small sample trees (~4M nodes each; together they use
    /// BIN, HYBRID and every GEO shape but exp. decrease) on two workers.
    #[test]
    fn small_sample_trees() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .stack_size(stack::WORKER_STACK_BYTES)
            .build()
            .unwrap();
        for (name, flags, want) in &SAMPLES[..5] {
            let args: Vec<String> = flags.split(' ').map(String::from).collect();
            let (p, _) = parse_args(&Prog::new("test"), &args);
            assert_eq!(
                pool.install(|| search(&p, &root(&p))),
                *want,
                "sample tree {name}"
            );
        }
    }
}
