# SPDX-License-Identifier: Apache-2.0
"""The suite's --profile and --trace modes (harnesslib/observe.py) and the
trace renderer (scripts/trace_render.py): on fake binaries that write what
the profiling and tracing builds write, and on hand-made runs."""
import importlib.util
import json
import os
import tempfile
import unittest
from types import SimpleNamespace

from harness_testutil import ROOT, fake_weft_tree, needs, run_harness, write_script
from harnesslib import build, observe
from harnesslib.measure import RunFailure
from test_report import record

PROFILE_JSON = {
    "weft_profile": 1, "scheduler": "split", "burden_ns": 450.0,
    "regions": [
        {"name": "setup", "runs": 1, "work_ns": 1000.0, "span_ns": 1000.0,
         "burdened_span_ns": 1000.0, "parallelism": 1.0, "burdened_parallelism": 1.0,
         "tasks": 1, "spawns": 0, "strands": 1},
        {"name": "fib", "runs": 1, "work_ns": 8.0e8, "span_ns": 2.0e4,
         "burdened_span_ns": 4.0e4, "parallelism": 40000.0, "burdened_parallelism": 20000.0,
         "longest_strand_ns": 900.0, "tasks": 100, "spawns": 49, "strands": 198}],
    "task_types": [{"name": "fib", "count": 100, "work_ns": 8.0e8}]}

# Three events of a trace: a task slice, a search, a steal between them.
TRACE_JSON = {
    "displayTimeUnit": "ns",
    "traceEvents": [
        {"name": "process_name", "ph": "M", "pid": 1, "tid": 0,
         "args": {"name": "weft (split scheduler, 2 workers)"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "worker 0"}},
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "worker 1"}},
        {"name": "fib", "cat": "task", "ph": "X", "ts": 0.0, "dur": 900.0, "pid": 1, "tid": 0,
         "args": {"started_by": "RUN", "spawns": 10}},
        {"name": "looking for work", "cat": "search", "ph": "X", "ts": 0.0, "dur": 100.0,
         "pid": 1, "tid": 1, "args": {"failed_steals": 3}},
        {"name": "steal", "cat": "steal", "ph": "s", "ts": 100.0, "pid": 1, "tid": 0, "id": 1},
        {"name": "steal", "cat": "steal", "ph": "f", "bp": "e", "ts": 100.0, "pid": 1, "tid": 1,
         "id": 1},
        {"name": "fib", "cat": "task", "ph": "X", "ts": 100.0, "dur": 700.0, "pid": 1, "tid": 1,
         "args": {"started_by": "steal", "spawns": 5}},
        {"name": "asleep", "cat": "sleep", "ph": "X", "ts": 800.0, "dur": 100.0, "pid": 1,
         "tid": 1}],
    "otherData": {"weft_trace": 1, "dropped_events": 0,
                  "counters": {"tasks": 15, "steals": 1, "leaps": 0}}}

HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def fake_profiling_binary(path, region_json):
    """A '<binary>-weft' that writes region_json to $WEFT_PROFILE_JSON."""
    write_script(path, "cat > \"$WEFT_PROFILE_JSON\" <<'JSON'\n" + json.dumps(region_json)
                 + "\nJSON\necho 'Time: 0.1'")


class ProfileTest(unittest.TestCase):
    def test_main_region_is_the_one_with_most_work(self):
        self.assertEqual(observe.main_region(PROFILE_JSON)["name"], "fib")
        self.assertIsNone(observe.main_region({"regions": []}))

    def test_main_region_is_never_a_run_inside_a_task(self):
        profile = json.loads(json.dumps(PROFILE_JSON))
        profile["regions"].append(dict(profile["regions"][1], name="inner", kind="inside_task",
                                       work_ns=9.0e8, runs=50))
        self.assertEqual(observe.main_region(profile)["name"], "fib")

    def test_run_profiled_takes_the_least_of_each_figure(self):
        with tempfile.TemporaryDirectory() as d:
            # Each run writes a larger span: the least is the first's.
            counter = os.path.join(d, "count")
            spans = [2.0e4, 9.0e4, 5.0e4]
            body = f'n=$(cat {counter} 2>/dev/null || echo 0); echo $((n + 1)) > {counter}\n'
            for i, span in enumerate(spans):
                js = json.loads(json.dumps(PROFILE_JSON))
                js["regions"][1]["span_ns"] = span
                js["regions"][1]["work_ns"] = 8.0e8 + i
                body += (f'if [ "$n" = {i} ]; then cat > "$WEFT_PROFILE_JSON" <<\'JSON\'\n'
                         f'{json.dumps(js)}\nJSON\nfi\n')
            body += '[ "$2" = 1 ] || exit 7\n[ "$WEFT_PROFILE_BURDEN_NS" = 500 ] || exit 8\n'
            write_script(os.path.join(d, "bench", "fib-weft"), body)
            got = observe.run_profiled(d, "fib", ["30"], 500.0, 30, runs=3)
        self.assertEqual(got["span_ns"], 2.0e4)
        self.assertEqual(got["work_ns"], 8.0e8)
        self.assertEqual(got["unit"], "time")  # (a profile that does not say)
        self.assertIsNone(got["work_blocks"])
        self.assertAlmostEqual(got["parallelism"], 8.0e8 / 2.0e4)
        self.assertEqual(got["runs"], 3)

    def test_run_profiled_fails_without_a_profile(self):
        with tempfile.TemporaryDirectory() as d:
            write_script(os.path.join(d, "bench", "fib-weft"), "echo 'Time: 0.1'")
            with self.assertRaises(RunFailure) as cm:
                observe.run_profiled(d, "fib", ["30"], None, 30, runs=1)
            self.assertIn("-DWEFT_PROFILE=ON", str(cm.exception))

    def test_burden_from_stealcost(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bench", "stealcost-weft")
            spread = 'echo "tree: height 1, 2 leaves on 2 different workers in {} of 201 ' \
                     'repetitions"; '
            write_script(path, spread.format(180) + 'echo "steal+join: 1234.5 ns, 3000 cycles"')
            self.assertEqual(observe.measure_burden(d, 30), 1234.5)
            write_script(path, 'echo "steal+join: n/a (needs at least 2 workers)"')
            self.assertIsNone(observe.measure_burden(d, 30))
            # A median of the few repetitions a busy machine spread: not
            # taken (one preempted sample read 75 us).
            write_script(path, spread.format(1) + 'echo "steal+join: 75172 ns, 195000 cycles"')
            self.assertIsNone(observe.measure_burden(d, 30))

    def test_table_says_what_limits_each_benchmark(self):
        rec = record("fib")  # T_S/T_2 about 1.8
        low = record("queens")
        run = {"workers": [1, 2], "results": [rec, low],
               "profile": {"scheduler": "split", "system": "weft-split", "burden_ns": 450.0,
                           "results": {
                               f"fib/{rec['size']}": dict(observe.main_region(PROFILE_JSON),
                                                          runs=3),
                               f"queens/{low['size']}": {
                                   "work_ns": 1e6, "span_ns": 8e5, "burdened_span_ns": 9e5,
                                   "longest_strand_ns": 7e5, "tasks": 9,
                                   "parallelism": 1.25, "burdened_parallelism": 1.1,
                                   "runs": 3}}}}
        text = observe.profile_table(run)
        self.assertIn("parallelism", text)
        self.assertIn("burdened par.", text)
        self.assertIn("T_S/T_2", text)
        self.assertIn("least of 3 runs", text)
        lines = text.splitlines()
        fib = next(line for line in lines if line.startswith("fib"))
        queens = next(line for line in lines if line.startswith("queens"))
        self.assertIn("40,000", fib)
        self.assertIn("too little parallelism; span = one strand", queens)
        self.assertNotIn("one strand", fib)
        self.assertIn("Strands measured in: time.", text)
        for f in run["profile"]["results"].values():
            f["unit"] = "basic blocks"
        self.assertIn("Strands measured in: basic blocks (times converted from basic blocks",
                      observe.profile_table(run))
        self.assertIsNone(observe.profile_table({"workers": [1], "results": []}))

    def test_readings(self):
        self.assertEqual(observe.reading(1.5, 1.4, 1.2, 1.3, 2), "too little parallelism")
        self.assertEqual(observe.reading(100, 1.5, 1.2, 1.3, 2),
                         "grain too fine for the steal cost")
        self.assertEqual(observe.reading(100, 90, 1.0, 1.95, 2), "loses to scheduling")
        self.assertEqual(observe.reading(100, 90, 1.9, 1.95, 2), "scales as its graph allows")
        self.assertEqual(observe.reading(1.5, 1.4, 1.2, 1.3, 2, one_strand=True),
                         "too little parallelism; span = one strand")


@needs(HAVE_MATPLOTLIB, "matplotlib is not installed (scripts/deps.sh installs it)")
class RenderTest(unittest.TestCase):
    def test_png_of_a_trace(self):
        renderer = observe.load_renderer(ROOT)
        trace = renderer.Trace(TRACE_JSON)
        self.assertEqual(trace.rows(), [(1, 0), (1, 1)])
        self.assertEqual(len(trace.flows), 1)
        xs, busy = renderer.busy_curve(trace, trace.rows(), 0.0, 900.0, bins=9)
        self.assertAlmostEqual(busy[0], 1.0)   # worker 1 still looking for work
        self.assertAlmostEqual(busy[4], 2.0)   # both running fib
        self.assertAlmostEqual(busy[8], 1.0)   # worker 0 still in fib, worker 1 asleep
        with tempfile.TemporaryDirectory() as d:
            out = renderer.render(trace, os.path.join(d, "t.png"))
            with open(out, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_task_names_coloured_and_written(self):
        renderer = observe.load_renderer(ROOT)
        trace = renderer.Trace(TRACE_JSON)
        colours = renderer.task_colours(trace, 0.0, 900.0)
        self.assertEqual(list(colours), ["fib"])
        self.assertEqual(colours["fib"], renderer.TASK_PALETTE[0])
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        texts = []
        real_text = plt.Axes.text
        def spy(ax, x, y, s, *a, **k):
            texts.append(s)
            return real_text(ax, x, y, s, *a, **k)
        plt.Axes.text = spy
        try:
            with tempfile.TemporaryDirectory() as d:
                renderer.render(trace, os.path.join(d, "t.png"))
        finally:
            plt.Axes.text = real_text
        self.assertIn("fib", texts)  # the wide fib slices carry their name

    def test_window_clips_slices_and_counts(self):
        renderer = observe.load_renderer(ROOT)
        data = json.loads(json.dumps(TRACE_JSON))
        # An outside thread's RUN that waited the whole trace and more.
        data["traceEvents"] += [
            {"name": "thread_name", "ph": "M", "pid": 1, "tid": 9,
             "args": {"name": "outside 1"}},
            {"name": "RUN (waiting)", "cat": "external", "ph": "X", "ts": -5000.0,
             "dur": 100000.0, "pid": 1, "tid": 9}]
        trace = renderer.Trace(data)
        bars = renderer.window_bars(trace, (1, 9), 200.0, 600.0)
        self.assertEqual(bars, [(200.0, 400.0, "external", "RUN (waiting)")])
        self.assertEqual(renderer.window_bars(trace, (1, 1), 200.0, 600.0),
                         [(200.0, 400.0, "task", "fib")])
        self.assertEqual(len(renderer.window_flows(trace, 0.0, 900.0)), 1)
        self.assertEqual(renderer.window_flows(trace, 200.0, 600.0), [])  # the steal is at 100
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        seen = {}
        real_savefig = plt.Figure.savefig
        def spy(fig, *a, **k):
            seen["xlim"] = fig.axes[0].get_xlim()
            seen["title"] = fig.axes[0].get_title()
            return real_savefig(fig, *a, **k)
        plt.Figure.savefig = spy
        try:
            with tempfile.TemporaryDirectory() as d:
                renderer.render(trace, os.path.join(d, "t.png"), 200.0, 600.0)
        finally:
            plt.Figure.savefig = real_savefig
        self.assertEqual(seen["xlim"], (0.0, 400.0))  # the window, not the wait
        self.assertIn("0 steals, 0 leaps in 200-600", seen["title"])

    def test_script_refuses_an_empty_window(self):
        renderer = observe.load_renderer(ROOT)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            with open(path, "w") as f:
                json.dump(TRACE_JSON, f)
            self.assertEqual(renderer.main([path, "--start", "5000", "--end", "4000"]), 1)
            # Before the trace's first slice, and reaching into it.
            self.assertEqual(renderer.main([path, "--start", "-100", "--end", "-1",
                                            "-o", os.path.join(d, "before.png")]), 1)
            self.assertFalse(os.path.exists(os.path.join(d, "before.png")))
            self.assertEqual(renderer.main([path, "--start", "-100", "--end", "100",
                                            "-o", os.path.join(d, "into.png")]), 0)
            self.assertEqual(renderer.main([path, "-o", os.path.join(d, "x.png")]), 0)
            self.assertTrue(os.path.isfile(os.path.join(d, "x.png")))


class TraceModeTest(unittest.TestCase):
    def test_trace_mode_on_a_fake_tree(self):
        with tempfile.TemporaryDirectory() as root:
            fake_weft_tree(root)
            bench = os.path.join(root, "build-bench-split-trace", "bench")
            write_script(os.path.join(bench, "fib-weft"),
                         "cat > \"$WEFT_TRACE\" <<'JSON'\n" + json.dumps(TRACE_JSON)
                         + "\nJSON\necho 'Time: 0.1'")
            out = os.path.join(root, "out")
            p = run_harness("--trace", "fib", "--size", "small", "--no-deps", "--no-build",
                            "--workers", "2", "--build-root", root, "--out", out,
                            *([] if HAVE_MATPLOTLIB else ["--no-plots"]))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("trace: ", p.stdout)
            self.assertIn("1 steals, 0 leaps", p.stdout)
            names = os.listdir(out)
            self.assertTrue(any(n.endswith("-trace-fib.json") for n in names), names)
            if HAVE_MATPLOTLIB:
                self.assertTrue(any(n.endswith("-trace-fib.png") for n in names), names)

    def test_trace_mode_without_the_tracing_tree(self):
        with tempfile.TemporaryDirectory() as root:
            fake_weft_tree(root)
            p = run_harness("--trace", "fib", "--size", "small", "--no-deps", "--no-build",
                            "--no-plots", "--build-root", root, "--out",
                            os.path.join(root, "out"))
            self.assertEqual(p.returncode, 1)
            self.assertIn("build-bench-split-trace/bench does not exist", p.stderr)

    def test_unknown_benchmark_is_a_usage_error(self):
        p = run_harness("--trace", "no-such-bench", "--no-deps", "--no-build")
        self.assertEqual(p.returncode, 2)


class ProfileModeTest(unittest.TestCase):
    def test_a_benchmark_with_nothing_to_profile_is_skipped_and_the_run_kept(self):
        # sort at one worker makes no RUN (its profile has no region): the
        # suite says so in a line, profiles fib, and writes every table and
        # file; the timings of both are kept.
        with tempfile.TemporaryDirectory() as root:
            for binary in ("fib", "sort"):
                fake_weft_tree(root, binary=binary)
            bench = os.path.join(root, "build-bench-split-profile", "bench")
            fake_profiling_binary(os.path.join(bench, "fib-weft"), PROFILE_JSON)
            fake_profiling_binary(os.path.join(bench, "sort-weft"),
                                  {"weft_profile": 1, "regions": [], "task_types": []})
            out = os.path.join(root, "out")
            p = run_harness("--no-deps", "--no-build", "--no-plots", "--bench", "fib,sort",
                            "--size", "small", "--workers", "1,2", "--reps", "1", "--peers",
                            "none", "--profile", "--burden-ns", "450", "--build-root", root,
                            "--out", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertRegex(p.stderr, r"\[profile\] skipped sort \(small\): nothing to profile")
            self.assertIn("== Work and span", p.stdout)
            self.assertRegex(p.stdout, r"\nfib +small")
            self.assertRegex(p.stdout, r"skipped sort/small: nothing to profile at one worker")
            names = os.listdir(out)
            self.assertTrue(any(n.endswith(".csv") for n in names), names)
            with open(os.path.join(out, next(n for n in names if n.endswith(".json")))) as f:
                run = json.load(f)
            self.assertEqual(sorted(r["benchmark"] for r in run["results"]), ["fib", "sort"])
            self.assertIn("fib/small", run["profile"]["results"])
            self.assertIn("sort/small", run["profile"]["skipped"])

    def test_a_profile_that_cannot_be_made_loses_only_itself(self):
        # No profiling tree: the timings are still reported and written,
        # and the run fails naming the profile.
        with tempfile.TemporaryDirectory() as root:
            fake_weft_tree(root)
            out = os.path.join(root, "out")
            p = run_harness("--no-deps", "--no-build", "--no-plots", "--bench", "fib",
                            "--size", "small", "--workers", "1,2", "--reps", "1", "--peers",
                            "none", "--profile", "--burden-ns", "450", "--build-root", root,
                            "--out", out)
            self.assertEqual(p.returncode, 1)
            self.assertIn("FAILED: the profile:", p.stderr)
            self.assertIn("build-bench-split-profile/bench does not exist", p.stderr)
            names = os.listdir(out)
            self.assertTrue(any(n.endswith(".json") for n in names), names)
            self.assertTrue(any(n.endswith(".csv") for n in names), names)


class ProfileFlagsTest(unittest.TestCase):
    def test_builds_add_their_flags(self):
        # The profiling tree's programs count basic blocks (docs/profiling.md).
        self.assertEqual(build.observe_flags("profile"),
                         ["-DWEFT_PROFILE=ON", "-DWEFT_BENCH_COUNT_BLOCKS=ON"])
        self.assertEqual(build.observe_flags("trace"), ["-DWEFT_TRACE=ON"])

    def test_prepare_tree_without_build(self):
        args = SimpleNamespace(no_build=True, build_root="/nonexistent", jobs=None)
        with self.assertRaises(RunFailure):
            observe.prepare_tree(args, ROOT, "split", "profile")


if __name__ == "__main__":
    unittest.main()
