// SPDX-License-Identifier: Apache-2.0
//! Runs weft-rayon on the `small` size of every bench/*/bench.json entry
//! with `"peers": true`, at 1, 2 and 3 threads: the program checks its
//! own answer and exits 1 on a wrong one.  Also checks that bad arguments
//! give a message and exit code 2.

use std::path::{Path, PathBuf};
use std::process::Command;

const BINARY: &str = env!("CARGO_BIN_EXE_weft-rayon");

fn bench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (binary, small arguments) of every entry with peers, without repeats.
fn small_sizes() -> Vec<(String, String)> {
    let mut sizes = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(bench_dir())
        .expect("bench/ is readable")
        .map(|e| e.expect("directory entry").path().join("bench.json"))
        .filter(|p| p.exists())
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("bench.json is readable");
        let json: serde_json::Value = serde_json::from_str(&text).expect("bench.json parses");
        for entry in json.as_object().expect("bench.json is an object").values() {
            if entry["peers"] != serde_json::Value::Bool(true) {
                continue;
            }
            let binary = entry["binary"].as_str().expect("binary").to_string();
            if let Some(args) = entry["sizes"]["small"].as_str() {
                let item = (binary, args.to_string());
                if !sizes.contains(&item) {
                    sizes.push(item);
                }
            }
        }
    }
    sizes
}

#[test]
fn every_small_size_passes_its_check() {
    let sizes = small_sizes();
    assert!(
        sizes.len() >= 13,
        "expected every workload, found {sizes:?}"
    );
    for (binary, args) in &sizes {
        for workers in ["1", "2", "3"] {
            let out = Command::new(BINARY)
                .arg(binary)
                .args(["-w", workers])
                .args(args.split_whitespace())
                .output()
                .expect("weft-rayon runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{binary} -w {workers} {args}: {}\n{stdout}{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                stdout.contains("\nTime: "),
                "{binary} {args}: no Time line:\n{stdout}"
            );
        }
    }
}

#[test]
fn bad_arguments_give_a_message_and_exit_2() {
    for args in [
        &["fib", "-w", "2", "61"][..],
        &["nope"],
        &["queens", "-w", "x", "8"],
        &["matmul", "-w", "1", "100"],
        &["uts", "-w", "1", "-t", "9"],
        &["uts", "-w", "1", "-t", "1", "-d", "0"],
        &["cilksort", "-w", "1", "0"],
        &["knapsack", "-w", "1", "201", "1"],
        &["pi", "-w", "1", "-5", "100"],
        &["strassen", "-w", "1", "100"],
        &["dfor", "-w", "1", "1000", "10", "1", "0"],
        &["cholesky", "-w", "1", "10", "5"],
        &["sort", "-w", "1", "0"],
    ] {
        let out = Command::new(BINARY)
            .args(args)
            .output()
            .expect("weft-rayon runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: no message");
    }
}

#[test]
fn a_tree_deeper_than_the_stack_stops_with_a_message() {
    // q = 1, m = 1: every node has one child, forever.
    let out = Command::new(BINARY)
        .args(["uts", "-w", "1", "-t", "0", "-b", "1", "-q", "1", "-m", "1"])
        .output()
        .expect("weft-rayon runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("deeper than"));
}
