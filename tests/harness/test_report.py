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
        self.assertIn("sequential (T_S)", text)
        weft = next(l for l in text.splitlines() if "weft-split" in l)
        self.assertEqual(weft.split()[-2:], ["0.67", "2.00"])
        tbb = next(l for l in text.splitlines() if " tbb " in l)
        self.assertIn("FAILED", tbb)
        self.assertIn("not ported", text)

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


if __name__ == "__main__":
    unittest.main()
