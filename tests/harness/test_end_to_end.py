# SPDX-License-Identifier: Apache-2.0
"""bench/harness.py run as a user runs it: on fake build trees (shell
scripts standing in for the binaries, to provoke failures) and on a real
built tree."""
import csv
import glob
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from harness_testutil import HARNESS, ROOT, fake_weft_tree, run_harness, write_script
from harnesslib.catalog import load_catalog

# fib's small input, as bench/fib/bench.json has it (a single integer n).
FIB_N = load_catalog(os.path.join(ROOT, "bench"))["fib"].sizes["small"]
COMMON = ["--no-deps", "--no-build", "--no-plots", "--bench", "fib", "--size", "small"]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def only(pattern):
    found = glob.glob(pattern)
    if len(found) != 1:
        raise AssertionError(f"expected one file matching {pattern}, found {found}")
    return found[0]


class FakeTreeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.out = os.path.join(self.root, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def harness(self, *extra):
        return run_harness(*COMMON, "--build-root", self.root, "--out", self.out, *extra)

    def test_peer_failure_is_reported_and_fails_at_the_end(self):
        fake_weft_tree(self.root)
        gcc = os.path.join(self.root, "build-peers-gcc")
        write_script(os.path.join(gcc, "fib-tbb"),
                     'if [ "$2" = 2 ]; then echo "FAILED: fib = 7" >&2; exit 1; fi\n'
                     'echo "Time: 0.02"')
        with open(os.path.join(gcc, "peers-skipped.txt"), "w") as f:
            f.write("omp-gcc: g++ has no libgomp\n")
        write_script(os.path.join(self.root, "build-peers-rust", "release", "weft-rayon"),
                     'echo "weft-rayon: unknown benchmark \'$1\'" >&2; exit 2')
        p = self.harness("--workers", "1,2", "--reps", "2", "--peers", "tbb,omp-gcc,omp-clang,rayon")
        self.assertEqual(p.returncode, 1, p.stderr)
        # Every table was printed and the failure is in it.
        for text in ("== 1.", "-- weft-split", "-- tbb", "== 2.", "== 3.", "== 4.", "== 5."):
            self.assertIn(text, p.stdout)
        self.assertIn("tbb on fib: FAILED -w 2: exit 1: FAILED: fib = 7", p.stdout)
        self.assertIn("peer omp-gcc: g++ has no libgomp", p.stdout)
        self.assertIn("peer omp-clang:", p.stdout)
        self.assertIn("rayon on fib: not ported", p.stdout)
        self.assertIn("FAILED: peer runs failed", p.stderr)
        self.assertRegex(p.stderr, rf"\[1/\d+\] fib \(small: {FIB_N}\) rep 1/2: sequential")
        # The results were still written.
        run = json.loads(read(only(os.path.join(self.out, "*-small.json"))))
        fib = run["results"][0]
        self.assertEqual(fib["seq"], [0.010, 0.010])
        self.assertEqual(fib["systems"]["weft-split"]["times"], {"1": [0.008, 0.008],
                                                                 "2": [0.008, 0.008]})
        self.assertEqual(fib["systems"]["tbb"]["status"], "FAILED")
        self.assertEqual(fib["systems"]["tbb"]["times"]["1"], [0.02, None])
        self.assertEqual(fib["systems"]["rayon"]["status"], "not ported")
        self.assertEqual(fib["counters"]["weft-split"][0]["tasks"], 1346268)
        self.assertEqual(set(run["skipped_peers"]), {"omp-gcc", "omp-clang"})

    def test_wrong_answer_of_weft_fails_loudly(self):
        fake_weft_tree(self.root, weft_body='echo "FAILED: fib = 1" >&2; exit 1')
        p = self.harness("--workers", "1", "--reps", "1", "--peers", "none")
        self.assertEqual(p.returncode, 1)
        self.assertIn("FAILED: weft-split:", p.stderr)
        self.assertIn(f"build-bench-split/bench/fib-weft -w 1 {FIB_N}` exited with 1", p.stderr)
        self.assertIn("FAILED: fib = 1", p.stderr)
        self.assertEqual(glob.glob(os.path.join(self.out, "*.json")), [])

    def test_missing_time_line_fails_loudly(self):
        fake_weft_tree(self.root, weft_body='echo "fib = 39088169"')
        p = self.harness("--workers", "1", "--reps", "1", "--peers", "none")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no 'Time: <seconds>' line", p.stderr)

    def test_missing_counter_table_fails_loudly(self):
        fake_weft_tree(self.root, counters="")
        p = self.harness("--workers", "1", "--reps", "1", "--peers", "none")
        self.assertEqual(p.returncode, 1)
        self.assertIn("printed no counter table", p.stderr)

    def test_missing_build_is_reported(self):
        p = self.harness("--workers", "1", "--reps", "1", "--peers", "none")
        self.assertEqual(p.returncode, 1)
        self.assertIn("no weft scheduler could be built", p.stderr)
        self.assertIn("build-bench-split/bench does not exist", p.stderr)

    def test_sigterm_stops_the_running_benchmark_too(self):
        started, pid_file = (os.path.join(self.root, n) for n in ("started", "pid"))
        fake_weft_tree(self.root, weft_body=f'echo $$ > {pid_file}; touch {started}; exec sleep 60')
        p = subprocess.Popen([sys.executable, HARNESS, *COMMON, "--build-root", self.root,
                              "--out", self.out, "--workers", "1", "--reps", "1",
                              "--peers", "none"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while not os.path.exists(started) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(os.path.exists(started), "the fake weft binary never started")
        p.send_signal(signal.SIGTERM)
        p.communicate(timeout=30)
        self.assertEqual(p.returncode, 128 + signal.SIGTERM)
        child = int(read(pid_file))
        deadline = time.monotonic() + 10
        while os.path.exists(f"/proc/{child}") and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(os.path.exists(f"/proc/{child}"), "the benchmark outlived the harness")

    def test_bad_options(self):
        for args, message in ((["--peers", "cilk"], "unknown peer"),
                              (["--bench", "nope"], "unknown benchmark"),
                              (["--workers", "0"], "worker counts must be >= 1"),
                              (["--reps", "x"], "expected an integer")):
            with self.subTest(args=args):
                p = run_harness("--no-deps", "--no-build", *args)
                self.assertEqual(p.returncode, 2)
                self.assertIn(message, p.stderr)

    def test_list(self):
        p = run_harness("--list")
        self.assertEqual(p.returncode, 0)
        self.assertIn("uts-T3L", p.stdout)
        self.assertIn("-t 0 -b 2000 -q 0.200014 -m 5 -r 7", p.stdout)


def built_tree():
    """A weft build with the benchmarks and counters: $WEFT_HARNESS_BUILD or
    the release tree tests/run_all.sh builds."""
    build = os.environ.get("WEFT_HARNESS_BUILD") or os.path.join(ROOT, "build-test-release")
    ok = all(os.access(os.path.join(build, "bench", b), os.X_OK) for b in ("fib-seq", "fib-weft"))
    return build if ok else None


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


@unittest.skipUnless(built_tree(), "no built tree: run tests/run_all.sh release or set "
                                   "WEFT_HARNESS_BUILD to a build with -DWEFT_STATS=ON")
class RealTreeTest(unittest.TestCase):
    def test_fib_small(self):
        build = built_tree()
        with tempfile.TemporaryDirectory() as root:
            # The harness looks for build-bench-<scheduler>[-counters]: both
            # name the one tree (it counts; counting does not change answers).
            os.symlink(build, os.path.join(root, "build-bench-split"))
            os.symlink(build, os.path.join(root, "build-bench-split-counters"))
            out = os.path.join(root, "out")
            p = run_harness(*COMMON, "--workers", "1,2", "--reps", "1", "--peers", "none",
                            "--build-root", root, "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("-- weft-split", p.stdout)
            self.assertRegex(p.stdout, rf"\nfib +small: {FIB_N} +\d+\.\d{{3}} ±0% +\d+\.\d{{3}} ±0%")

            run = json.loads(read(only(os.path.join(out, "*-small.json"))))
            self.assertEqual(run["workers"], [1, 2])
            self.assertEqual(run["reps"], 1)
            self.assertIn("cpu", run["machine"])
            self.assertIn("gcc", run["machine"]["compilers"])
            (rec,) = run["results"]
            self.assertEqual((rec["benchmark"], rec["size"], rec["args"]), ("fib", "small", FIB_N))
            self.assertEqual(len(rec["seq"]), 1)
            self.assertGreater(rec["seq"][0], 0)
            for w in ("1", "2"):
                (t,) = rec["systems"]["weft-split"]["times"][w]
                self.assertGreater(t, 0)
            (counters,) = rec["counters"]["weft-split"]
            # One task per call that spawns: fib(n) spawns fib(n+1) - 1 times.
            self.assertEqual(counters["tasks"], fib(int(FIB_N) + 1) - 1)
            self.assertIn("steals", counters)
            self.assertEqual(run["medians"]["fib"]["seq"]["0"][0], rec["seq"][0])

            rows = list(csv.DictReader(io.StringIO(read(only(os.path.join(out, "*-small.csv"))))))
            times = [r for r in rows if r["kind"] == "time"]
            self.assertEqual(sorted((r["system"], r["workers"]) for r in times),
                             [("seq", ""), ("weft-split", "1"), ("weft-split", "2")])
            self.assertEqual(float(next(r for r in times if r["system"] == "seq")["value"]),
                             rec["seq"][0])
            tasks = [r for r in rows if r["kind"] == "counter" and r["name"] == "tasks"]
            self.assertEqual([int(r["value"]) for r in tasks], [fib(int(FIB_N) + 1) - 1])
            machine = {r["name"]: r["value"] for r in rows if r["kind"] == "machine"}
            for key in ("cpu", "cpus", "kernel", "gcc", "commit", "dirty", "date"):
                self.assertIn(key, machine)


def cache_has(build, option):
    """True if the tree's CMakeCache.txt sets option to ON."""
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            return any(line.strip().startswith(f"{option}:") and line.strip().endswith("=ON")
                       for line in f)
    except OSError:
        return False


def observe_tree():
    """A build with the benchmarks, counters, the profiler and the tracer:
    $WEFT_OBSERVE_BUILD or the tree tests/run_all.sh's observe stage builds."""
    build = os.environ.get("WEFT_OBSERVE_BUILD") or os.path.join(ROOT, "build-test-observe")
    ok = all(os.access(os.path.join(build, "bench", b), os.X_OK) for b in ("fib-seq", "fib-weft"))
    ok = ok and all(cache_has(build, o) for o in ("WEFT_PROFILE", "WEFT_TRACE", "WEFT_STATS"))
    return build if ok else None


# Skipped where no such tree was built, except where it must exist
# (WEFT_REQUIRE_OBSERVE=1: tests/run_all.sh's observe stage), which fails.
@unittest.skipUnless(observe_tree() or os.environ.get("WEFT_REQUIRE_OBSERVE") == "1",
                     "no built tree with the profiler, the tracer and counters (tests/run_all.sh "
                     "observe builds one)")
class RealObserveTest(unittest.TestCase):
    """--profile and --trace on the observe stage's tree, which has both
    compiled in (its timings are then the profiling build's: only the
    mechanics are checked)."""

    def setUp(self):
        if not observe_tree():
            self.fail("WEFT_REQUIRE_OBSERVE=1 but no tree with the profiler, the tracer and "
                      "counters at $WEFT_OBSERVE_BUILD")

    def tree(self, root, *kinds):
        build = observe_tree()
        for suffix in ("", "-counters") + tuple(f"-{k}" for k in kinds):
            os.symlink(build, os.path.join(root, f"build-bench-split{suffix}"))

    def test_profile_small(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root, "profile")
            out = os.path.join(root, "out")
            p = run_harness(*COMMON, "--workers", "1,2", "--reps", "1", "--peers", "none",
                            "--profile", "--burden-ns", "450", "--build-root", root, "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("== Work and span", p.stdout)
            self.assertRegex(p.stdout, r"\nfib +small: \d+ +[0-9.,]+ [mµn]?s +[0-9.,]+ [mµn]?s")
            run = json.loads(read(only(os.path.join(out, "*-small.json"))))
            figures = run["profile"]["results"]["fib/small"]
            self.assertEqual(figures["region"], "fib")
            self.assertEqual(figures["tasks"], 2 * fib(int(FIB_N) + 1) - 1)
            self.assertGreater(figures["parallelism"], 1.0)
            self.assertGreaterEqual(figures["burdened_span_ns"], figures["span_ns"])
            self.assertEqual(run["profile"]["burden_ns"], 450.0)

    def test_trace_small(self):
        with tempfile.TemporaryDirectory() as root:
            self.tree(root, "trace")
            out = os.path.join(root, "out")
            p = run_harness("--no-deps", "--no-build", "--no-plots", "--trace", "fib", "--size",
                            "small", "--workers", "2", "--build-root", root, "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            data = json.loads(read(only(os.path.join(out, "*-trace-fib.json"))))
            tasks = [e for e in data["traceEvents"] if e.get("cat") == "task"]
            self.assertTrue(tasks)
            self.assertEqual(sum(e["args"].get("spawns", 0) for e in tasks),
                             data["otherData"]["counters"]["tasks"])


if __name__ == "__main__":
    unittest.main()
