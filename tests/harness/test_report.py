# SPDX-License-Identifier: Apache-2.0
"""The text tables, from hand-made measurement records."""
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

from harnesslib import report


def record(name="fib", counters=None):
    """T_S = 1.0 s in each of 3 repetitions; weft 1.5 s at 1 worker, 0.8 at 2;
    tbb failed at 2 workers; rayon has no port; java was not wanted."""
    return {
        "benchmark": name, "size": "small", "args": "30", "binary": "fib",
        "seq": [1.0, 1.2, 0.8], "concurrent_seq": [],
        "counters_workers": 2,
        "counters": {"weft-split": counters if counters is not None else [
            {"tasks": 1000, "steals": 4, "leaps": 6, "grows": 1, "shrinks": 2, "deals": 9,
             "peak": 12},
            {"tasks": 1000, "steals": 6, "leaps": 4, "grows": 3, "shrinks": 2, "deals": 7,
             "peak": 10}]},
        "systems": {
            "weft-split": {"kind": "weft", "status": "ok", "message": None,
                           "times": {"1": [1.5, 1.8, 1.2], "2": [0.5, 0.6, 0.4]}},
            "tbb": {"kind": "peer", "status": "FAILED", "message": "-w 2: exit 1: FAILED: fib",
                    "command": "tbb-fib -w 2 30",
                    "times": {"1": [1.1, 1.3, 0.9], "2": [None, None, None]}},
            "rayon": {"kind": "peer", "status": "not ported", "message": "rayon has no fib",
                      "times": {"1": [None] * 3, "2": [None] * 3}},
        },
    }


class RenderTest(unittest.TestCase):
    def test_columns_align(self):
        text = report.render(["name", "value"], [["a", "1"], ["long name", "12345"]], left=1)
        lines = text.splitlines()
        self.assertEqual(lines[0], "name       value")
        self.assertEqual(lines[1], "---------  -----")
        self.assertEqual(lines[2], "a              1")
        self.assertEqual(lines[3], "long name  12345")

    def test_formats(self):
        self.assertEqual(report.fmt_time([1.0, 1.2, 0.8]), "1.000 ±20%")
        self.assertEqual(report.fmt_time([None]), "-")
        self.assertEqual(report.fmt_ratio(None), "-")
        self.assertEqual(report.fmt_ratio(1.234), "1.23")
        self.assertEqual(report.fmt_ratio(0.0038), "0.0038")
        self.assertEqual(report.fmt_ratio(0.0214), "0.021")
        self.assertEqual(report.fmt_ratio(0.1), "0.10")
        self.assertEqual(report.fmt_ratio(0.0), "0.00")
        self.assertEqual(report.fmt_count(2.0), "2")
        self.assertEqual(report.fmt_count(2.5), "2.5")


class TablesTest(unittest.TestCase):
    def test_figure5_values(self):
        text = report.figure5([record()], "weft-split", [1, 2], show_ceiling=False)
        head, _, row = text.splitlines()
        self.assertEqual(head.split(), ["benchmark", "input", "T_S", "T_1", "T_2", "T_1/T_S",
                                        "T_S/T_2", "T_1/T_2"])
        cells = row.split()
        self.assertEqual(cells[0], "fib")
        self.assertIn("1.000 ±20%", row)   # T_S
        self.assertIn("1.500 ±20%", row)   # T_1
        self.assertEqual(cells[-3:], ["1.50", "2.00", "3.00"])

    def test_figure5_failed_and_not_ported(self):
        failed = report.figure5([record()], "tbb", [1, 2], show_ceiling=False)
        self.assertIn("FAILED", failed)
        self.assertIn("exit 1: FAILED: fib", failed)
        self.assertIn("not ported", report.figure5([record()], "rayon", [1, 2], False))
        self.assertIsNone(report.figure5([record()], "java", [1, 2], False))

    def test_figure5_ceiling(self):
        r = record()
        r["concurrent_seq"] = [1.0, 1.2, 0.8]
        text = report.figure5([r], "weft-split", [1, 2], show_ceiling=True)
        self.assertTrue(text.splitlines()[0].endswith("ceiling"))
        self.assertTrue(text.splitlines()[2].endswith("2.00"))  # 2 T_S / T_S

    def test_figure7_columns_and_median(self):
        text = report.figure7([record()], "weft-split")
        lines = text.splitlines()
        self.assertEqual(lines[0].split(), ["benchmark", "run", "steals", "leaps", "grows",
                                            "shrinks", "tasks", "deals", "peak", "depth"])
        self.assertEqual(lines[2].split(), ["fib", "1", "4", "6", "1", "2", "1000", "9", "12"])
        self.assertEqual(lines[4].split(), ["fib", "median", "5", "5", "2", "2", "1000", "8",
                                            "11"])

    def test_granularity(self):
        g = report.granularity_of(record(), "weft-split")
        self.assertEqual(g["tasks"], 1000)
        self.assertEqual(g["migrations"], 10)             # steals + leaps, medians
        self.assertAlmostEqual(g["gt_us"], 1000.0)        # 1 s / 1000 tasks
        self.assertAlmostEqual(g["gl_us"], 100000.0)      # 1 s / 10
        self.assertAlmostEqual(g["overhead_ns"], 0.5e6)   # (1.5 - 1.0) s / 1000
        self.assertIn("fib", report.granularity([record()], "weft-split"))

    def test_granularity_without_steals(self):
        g = report.granularity_of(record(counters=[{"tasks": 10, "steals": 0, "leaps": 0}]),
                                  "weft-split")
        self.assertIsNone(g["gl_us"])

    def test_versus_lists_every_system(self):
        text = report.versus([record()], [1, 2])
        head, _, row = text.splitlines()
        self.assertEqual(head.split(), ["benchmark", "input", "weft-split", "tbb", "rayon"])
        self.assertEqual(row.split(), ["fib", "small:", "30", "2.00", "FAILED", "not", "ported"])

    def test_skipped_lines_never_drop_a_peer(self):
        lines = report.skipped_lines({"omp-clang": "clang++ is not installed"},
                                     {"wool": "unknown scheduler"}, ["big: no paper input"],
                                     [record()])
        text = "\n".join(lines)
        self.assertIn("peer omp-clang: clang++ is not installed", text)
        self.assertIn("scheduler wool: unknown scheduler", text)
        self.assertIn("rayon on fib: not ported", text)
        self.assertIn("tbb on fib: FAILED", text)
        self.assertIn("big: no paper input", text)

    def test_full_report_has_every_section(self):
        run = {"results": [record()], "workers": [1, 2], "suite": "quick", "reps": 3,
               "machine": {"commit": "abc123", "dirty": True, "date": "2026-01-01T00:00:00",
                           "cpu": "Test CPU", "cpus": 2},
               "skipped_peers": {"java": "javac is not installed"}, "skipped_schedulers": {},
               "notes": [], "targets": False}
        text = report.full_report(run)
        for heading in ("== 1.", "== 2.", "== 3.", "== 4.", "== 5.", "-- weft-split", "-- tbb",
                        "commit abc123 (dirty)", "peer java: javac is not installed"):
            self.assertIn(heading, text)
        self.assertNotIn("WARNING: the machine was busy", text)
        run["other_load"] = {"cpus": 1.4, "of": 2, "share": 0.7, "busy": True}
        text = report.full_report(run)
        self.assertIn("WARNING: the machine was busy: other processes used 1.4 of its 2 CPUs",
                      text.splitlines()[1])
        run["other_load"] = {"cpus": 0.1, "of": 2, "share": 0.05, "busy": False}
        self.assertNotIn("WARNING", report.full_report(run))

    def test_other_load_sees_a_busy_loop(self):
        import os
        import signal
        import subprocess
        import time
        from harnesslib import load
        if not os.path.exists("/proc/stat"):
            self.skipTest("no /proc/stat")
        meter = load.OtherLoad()
        # A busy loop that is not the harness's child: its CPU time is
        # another process's, as a neighbour's would be.
        pid = int(subprocess.run(["sh", "-c", "(while :; do :; done) >/dev/null 2>&1 & echo $!"],
                                 capture_output=True, text=True, check=True).stdout)
        try:
            time.sleep(2.0)
            got = meter.result()
        finally:
            os.kill(pid, signal.SIGKILL)
        self.assertIsNotNone(got)
        self.assertGreaterEqual(got["cpus"], 0.3, got)  # most of one CPU, beside other tests



def timed(name, seq, t1, tasks, size="small", label=None, steals=1):
    """A weft-split record with these sequential and 1-worker times."""
    r = record(name, counters=[{"tasks": tasks, "steals": steals, "leaps": 0}])
    r["seq"] = list(seq)
    r["systems"] = {"weft-split": {"kind": "weft", "status": "ok", "message": None,
                                   "times": {"1": list(t1), "2": [x / 2 for x in t1]}}}
    r["size"] = size
    if label is not None:
        r["input"] = label
    return r


class ReadabilityTest(unittest.TestCase):
    """What a new reader of the report needs to see."""

    def test_granularity_uses_one_readable_format_per_column(self):
        # G_T of 1 ns beside G_L of 1 s: no exponent notation, units in cells.
        fine = timed("fine", [1.0, 1.0, 1.0], [1.5, 1.5, 1.5], tasks=10**9, steals=1)
        coarse = timed("coarse", [2.0, 2.0, 2.0], [2.1, 2.1, 2.1], tasks=100, steals=10**6)
        text = report.granularity([fine, coarse], "weft-split")
        self.assertNotRegex(text, r"\de[+-]\d")
        rows = {line.split()[0]: line for line in text.splitlines()[2:]}
        self.assertRegex(rows["fine"], r"1\.00 ns +1\.00 s ")        # G_T, G_L
        self.assertRegex(rows["coarse"], r"20\.0 ms +2\.00 µs ")
        self.assertIn("1,000,000,000", rows["fine"])                  # N_T
        self.assertTrue(rows["fine"].endswith("0.50 ns"))             # (T_1-T_S)/N_T

    def test_negative_overhead_within_noise_is_explained(self):
        r = timed("mm", [1.0, 1.2, 0.9], [0.95, 1.1, 0.9], tasks=1000)
        text = report.granularity([r], "weft-split")
        self.assertRegex(text, r"mm .*-50\.0 µs \*")
        self.assertIn("* mm: T_1 < T_S by less than the spread", text)
        self.assertIn("noise", text)

    def test_negative_overhead_beyond_noise_is_explained(self):
        r = timed("mm", [1.0, 1.01, 0.99], [0.80, 0.81, 0.79], tasks=1000)
        text = report.granularity([r], "weft-split")
        self.assertIn("* mm: weft at 1 worker was faster than the sequential program in every "
                      "repetition", text)

    def test_negative_overhead_of_one_repetition_is_explained(self):
        r = timed("mm", [1.0], [0.9], tasks=1000)
        text = report.granularity([r], "weft-split")
        self.assertIn("one repetition", text)

    def test_times_are_printed_once(self):
        run = {"results": [record()], "workers": [1, 2], "suite": "quick", "reps": 3,
               "machine": {}, "skipped_peers": {}, "skipped_schedulers": {}, "notes": [],
               "targets": False}
        text = report.full_report(run)
        self.assertEqual(text.count("1.500 ±20%"), 1, text)   # weft-split's T_1
        # Table 4 compares the systems' speedups at the largest P, no times.
        section4 = text.split("== 4.")[1].split("== 5.")[0]
        self.assertNotIn("±", section4)
        self.assertRegex(section4, r"fib +small: 30 +2\.00 +FAILED +not ported")

    def test_every_row_names_its_input_the_same_way(self):
        # A quick run: matmul's quick input is its small size, fib has its own.
        at_small = timed("matmul", [1.0], [1.1], tasks=10, size="small", label="quick")
        own = timed("fib", [1.0], [1.1], tasks=10, size="quick", label="quick")
        text = report.figure5([at_small, own], "weft-split", [1, 2], show_ceiling=False)
        inputs = [line.split()[1] for line in text.splitlines()[2:]]
        self.assertEqual(inputs, ["quick:", "quick:"])


if __name__ == "__main__":
    unittest.main()
