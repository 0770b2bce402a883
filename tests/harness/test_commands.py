# SPDX-License-Identifier: Apache-2.0
"""The harness's commands (`overhead`, `pool`) and the scheduler list they
and the suite read from CMake: parsers, tables, and runs on fake build
trees (shell scripts standing in for the binaries)."""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from harness_testutil import ROOT, run_harness, write_script
from harnesslib import build, overhead, pool

COMMON = ["--no-deps", "--no-build"]


def cmake_schedulers():
    out = subprocess.run(["cmake", "-P", os.path.join(ROOT, "cmake", "WeftSchedulers.cmake")],
                         capture_output=True, text=True, check=True).stdout
    return out.split()


class SchedulerListTest(unittest.TestCase):
    def test_the_list_is_cmakes(self):
        self.assertEqual(build.known_schedulers(ROOT), cmake_schedulers())

    def test_a_new_scheduler_folder_is_picked_up(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "cmake"))
            shutil.copy(os.path.join(ROOT, "cmake", "WeftSchedulers.cmake"),
                        os.path.join(root, "cmake"))
            for name in ("zeta", "split", "alpha", "not-a-scheduler"):
                os.makedirs(os.path.join(root, "src", "sched", name))
                if name != "not-a-scheduler":
                    open(os.path.join(root, "src", "sched", name, "sources.cmake"), "w").close()
            self.assertEqual(build.known_schedulers(root), ["split", "alpha", "zeta"])

    def test_choose(self):
        known = ["split", "alpha", "beta"]
        self.assertEqual(build.choose_schedulers("all", known), known)
        self.assertEqual(build.choose_schedulers("beta, split", known), ["beta", "split"])
        with self.assertRaisesRegex(ValueError, r"unknown scheduler\(s\) cilk; this tree has "
                                                r"split, alpha, beta"):
            build.choose_schedulers("split,cilk", known)

    def test_no_list_of_schedulers_in_the_harness_code(self):
        # Two schedulers besides the default named in one .py file under
        # bench/ or tests/harness/ would be a list kept by hand.  (One may
        # be a pool queue's name: chase-lev is both.)
        others = cmake_schedulers()[1:]
        files = glob.glob(os.path.join(ROOT, "bench", "**", "*.py"), recursive=True)
        files += glob.glob(os.path.join(ROOT, "tests", "harness", "*.py"))
        for path in files:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            named = [name for name in others if f'"{name}"' in text]
            self.assertLess(len(named), 2, f"{path} lists schedulers {named}")

    def test_unknown_scheduler_is_a_usage_error(self):
        p = run_harness(*COMMON, "--schedulers", "split,cilk", "--bench", "fib")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown scheduler(s) cilk", p.stderr)


def fake_overhead_tree(root, scheduler="split", seq="0.100", weft="0.150"):
    bench = os.path.join(root, f"build-bench-{scheduler}", "bench")
    write_script(os.path.join(bench, "fib-seq"), f'echo "fib($1) = 1"\necho "Time: {seq}"')
    write_script(os.path.join(bench, "fib-weft"),
                 f'echo "workers: $2"\necho "fib($3) = 1"\necho "Time: {weft}"')
    write_script(os.path.join(bench, "stealcost-weft"),
                 'echo "workers: $2"\necho "leaf: 500 ns, 1500 cycles"\n'
                 'echo "steal+join: 390 ns, 1012 cycles"\necho "Time: 0.01"')


class OverheadTest(unittest.TestCase):
    def test_fib_tasks(self):
        # fib(n) spawns once per call with n >= 2: F(n+1) - 1.
        self.assertEqual([overhead.fib_tasks(n) for n in range(6)], [0, 0, 1, 2, 4, 7])
        self.assertEqual(overhead.fib_tasks(40), 165580140)

    def test_parsers(self):
        self.assertEqual(overhead.parse_collected("==1== Events : Ir\n==1== Collected : 346335\n"),
                         346335)
        self.assertIsNone(overhead.parse_collected("no such line"))
        self.assertEqual(overhead.parse_steal_join("leaf: 1 ns\nsteal+join: 390 ns, 10 cycles\n"),
                         390.0)
        self.assertIsNone(overhead.parse_steal_join(
            "steal+join: n/a (the leaves never ran on different workers)\n"))

    def test_row_and_table(self):
        row = overhead.summarise("split", [1.0, 1.2, 0.8], [1.5, 1.8, 1.2], [300.0, 400.0],
                                 tasks=1000, instructions=(1000, 13000), callgrind_tasks=1000)
        self.assertAlmostEqual(row["T1_over_TS"], 1.5)
        self.assertAlmostEqual(row["ns_per_task"], 0.5e6)
        self.assertAlmostEqual(row["ns_per_task_min"], 0.4e6)
        self.assertAlmostEqual(row["instr_per_task"], 12.0)
        self.assertEqual(row["steal_join_ns"], 350.0)
        text = overhead.table([row], markdown=True)
        self.assertIn("| split | 1.00 s | 1.50 s | 1.50 | 500 µs | 1.50 | 400 µs | 12.0 | 350 ns |",
                      text)

    def test_negative_overhead_is_explained(self):
        row = overhead.summarise("alpha", [1.0, 1.0], [0.9, 0.9], [], tasks=1000,
                                 instructions=None, callgrind_tasks=1)
        text = overhead.table([row])
        self.assertIn("-100 µs *", text)
        self.assertIn("* alpha: weft at 1 worker was faster", text)
        self.assertIn("n/a", text)  # no steal+join figure

    def test_run_on_a_fake_tree(self):
        with tempfile.TemporaryDirectory() as root:
            fake_overhead_tree(root)
            out = os.path.join(root, "out")
            p = run_harness("overhead", *COMMON, "--build-root", root, "--out", out,
                            "--schedulers", "split", "--no-callgrind", "--reps", "2",
                            "--n", "10")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("fib(10) = 88 tasks", p.stdout)
            row = next(line for line in p.stdout.splitlines() if line.startswith("split "))
            # (0.150 - 0.100) s / 88 tasks
            self.assertEqual(row.split()[:8], ["split", "100", "ms", "150", "ms", "1.50",
                                               "568", "µs"])
            self.assertIn("[4/6] weft-split rep 2/2: fib-seq 10", p.stderr)
            (path,) = glob.glob(os.path.join(out, "*-overhead.json"))
            with open(path) as f:
                run = json.load(f)
            (r,) = run["rows"]
            self.assertEqual(r["times_seq"], [0.1, 0.1])
            self.assertEqual(r["steal_join_runs"], [390.0, 390.0])
            self.assertEqual(run["options"]["schedulers"], ["split"])
            self.assertIn("cpu", run["machine"])

    def test_missing_tree_fails(self):
        with tempfile.TemporaryDirectory() as root:
            p = run_harness("overhead", *COMMON, "--build-root", root, "--out", root,
                            "--schedulers", "split", "--no-callgrind")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no weft scheduler could be built", p.stderr)


POOL_OUTPUT = """\
case raw (size 20000), 3 queues, workers 2, steal one, coalescing off
raw: 20000 nodes visited
rep 1 abp              0.002000 s, 3058 items, 0 duplicates, 0 steals
rep 1 chase-lev        0.001000 s, 3058 items, 0 duplicates, 0 steals
refused: case raw is not idempotent and queue idem-lifo may process an item more than once (weft_pool_run: EINVAL)
rep 2 chase-lev        0.001500 s, 3058 items, 0 duplicates, 0 steals
rep 2 abp              0.004000 s, 3058 items, 0 duplicates, 0 steals
counters abp (rep 2):
workers 2  initial 1  pushed 3057  processed 3058  duplicates 0
steals 7  steal_empty 1  steal_aborts 2  stolen_items 7  requests 0  splits 3
grows 0  shrinks 0  overflows 0  reclaimed 0  sleeps 4  wakes 0
Time abp: 0.004000
counters chase-lev (rep 2):
workers 2  initial 1  pushed 3057  processed 3058  duplicates 0
steals 5  steal_empty 0  steal_aborts 0  stolen_items 5  requests 0  splits 0
grows 1  shrinks 0  overflows 0  reclaimed 0  sleeps 0  wakes 0
Time chase-lev: 0.001500
"""

POOL_LIST = """\
raw        size = tree nodes (default 2000000), idempotent
quicksort  size = elements (default 1000000)
spanning   size = vertices (-g rlg: random local graph of degree 8, the default; -g grid: 3-d grid; -g rmat: R-MAT of 8 x vertices edges) (default 1000000), idempotent
xml        size = elements (default 200000)
dfs-grid   size = side of the cube (default 100), idempotent
dfs-rlg    size = vertices (degree 10) (default 1000000), idempotent
dfs-rmat   size = scale (2^scale vertices, 16 x 2^scale edges) (default 20), idempotent
"""


class PoolTest(unittest.TestCase):
    def test_parse_output(self):
        r = pool.parse_pool_output(POOL_OUTPUT)
        self.assertEqual(r["queues"], ["abp", "chase-lev", "idem-lifo"])
        self.assertEqual(r["medians"], {"abp": 0.004, "chase-lev": 0.0015})
        self.assertEqual(r["times"], {"abp": [0.002, 0.004], "chase-lev": [0.001, 0.0015]})
        self.assertEqual(r["refused"], ["idem-lifo"])
        self.assertEqual((r["counters"]["abp"]["steals"], r["counters"]["abp"]["splits"],
                          r["counters"]["chase-lev"]["grows"]), (7, 3, 1))

    def test_case_list_and_sizes(self):
        cases = pool.parse_case_list(POOL_LIST)
        self.assertEqual(cases["raw"], (2000000, "n"))
        self.assertEqual(cases["dfs-grid"], (100, "side"))
        self.assertEqual(cases["dfs-rmat"], (20, "scale"))
        self.assertEqual(set(cases), {case for _, case, _ in pool.ROWS})
        self.assertEqual(pool.scaled_size("n", 2000000, 0.01), 20000)
        self.assertEqual(pool.scaled_size("scale", 20, 0.25), 18)
        self.assertEqual(pool.scaled_size("side", 100, 0.001), 10)

    def test_tables(self):
        r = pool.parse_pool_output(POOL_OUTPUT)
        text = pool.ratio_table([("raw", r)], markdown=True)
        self.assertIn("| case | ABP | Chase-Lev | Idem LIFO |", text)
        self.assertIn("| raw | 1.00 | 0.38 | refused |", text)
        text = pool.counter_table([("raw", r)], ["steals", "steal_empty", "steal_aborts",
                                                 "duplicates"], markdown=False)
        self.assertRegex(text, r"raw +7 / 1 / 2 / 0 +5 / 0 / 0 / 0 +—")

    def test_run_on_a_fake_tree(self):
        with tempfile.TemporaryDirectory() as root:
            listing = os.path.join(root, "list.txt")
            canned = os.path.join(root, "output.txt")
            with open(listing, "w") as f:
                f.write(POOL_LIST)
            with open(canned, "w") as f:
                f.write(POOL_OUTPUT)
            write_script(os.path.join(root, "build-bench-split", "bench", "pool-bench"),
                         f'if [ "$1" = -l ]; then cat {listing}; else echo "$@" >> '
                         f'{root}/calls; cat {canned}; fi')
            out = os.path.join(root, "out")
            p = run_harness("pool", *COMMON, "--build-root", root, "--out", out, "--reps", "2",
                            "--workers", "1,2", "--scale", "0.01", "--markdown")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("### 2 workers: median time normalised to ABP", p.stdout)
            self.assertIn("| spanning (grid) | 1.00 | 0.38 | refused |", p.stdout)
            self.assertIn("| raw | 1.00 |", p.stdout)       # ABP across worker counts
            self.assertIn("| dfs-rmat | 2 | abp | 1.00 | 1.00 | 1.00 | 1.00 | 3 |", p.stdout)
            self.assertIn("pool-bench -c spanning -q all -w 2 -n 10000 -r 2 -g grid", p.stdout)
            with open(os.path.join(root, "calls")) as f:
                calls = f.read().splitlines()
            # 9 rows at 2 worker counts, 3 DFS cases x 4 variants at 2 workers.
            self.assertEqual(len(calls), 9 * 2 + 3 * 4)
            (path,) = glob.glob(os.path.join(out, "*-pool.json"))
            with open(path) as f:
                run = json.load(f)
            self.assertEqual(run["results"]["1"][0]["row"], "raw")
            self.assertEqual(run["results"]["1"][0]["medians"]["abp"], 0.004)
            self.assertEqual(run["sizes"]["dfs-rmat"], 13)

    def test_a_failing_case_stops_the_run(self):
        with tempfile.TemporaryDirectory() as root:
            write_script(os.path.join(root, "build-bench-split", "bench", "pool-bench"),
                         'echo "FAILED: abp: tree node 3 visited twice" >&2; exit 1')
            p = run_harness("pool", *COMMON, "--build-root", root, "--out", root)
        self.assertEqual(p.returncode, 1)
        self.assertIn("FAILED: pool-bench -l", p.stderr)


if __name__ == "__main__":
    unittest.main()
