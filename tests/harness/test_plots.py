# SPDX-License-Identifier: Apache-2.0
"""The PNG plots, drawn from a hand-made run (needs matplotlib)."""
import importlib.util
import os
import tempfile
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

from test_report import record, timed


def run_of(records, workers=(1, 2)):
    return {"results": records, "workers": list(workers), "suite": "quick", "reps": 3,
            "machine": {"commit": "abc123", "dirty": False, "date": "2026-01-01T00:00:00",
                        "cpu": "Test CPU", "cpus": 2, "kernel": "Linux 6"}}


def eight_benchmarks():
    """Eight workloads whose overheads span 0.5 ns to 5 µs, one negative."""
    records = []
    for i in range(7):
        t1 = 1.0 + 0.5 * 10 ** i / 1e3
        records.append(timed(f"b{i}", [1.0, 1.1, 0.95], [t1, t1 * 1.1, t1 * 0.95],
                             tasks=10 ** 6))
    records.append(timed("neg", [1.0, 1.2, 0.9], [0.95, 1.1, 0.9], tasks=1000))
    return records


@harness_testutil.needs(importlib.util.find_spec("matplotlib"),
                        "matplotlib is not installed (scripts/deps.sh installs it)")
class PlotsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        cls.plt = plt

    def test_three_pngs(self):
        from harnesslib.plots import caption, plot_all
        run = run_of([record("fib"), record("queens")])
        self.assertIn("commit abc123", caption(run))
        self.assertIn("Test CPU", caption(run))
        with tempfile.TemporaryDirectory() as d:
            paths = plot_all(run, os.path.join(d, "run"))
            self.assertEqual([os.path.basename(p) for p in paths],
                             ["run-speedup.png", "run-overhead.png", "run-peers.png"])
            for path in paths:
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def legend_inside(self, fig, legend):
        """The legend lies within the figure and not right of every panel."""
        fig.canvas.draw()
        box = legend.get_window_extent()
        width = fig.get_figwidth() * fig.dpi
        panels = [ax for ax in fig.axes if ax.axison]
        self.assertGreaterEqual(box.x0, 0)
        self.assertLessEqual(box.x1, max(ax.get_window_extent().x1 for ax in panels) + 1)
        self.assertLessEqual(box.x1, width)

    def test_speedup_has_no_empty_panel_and_error_bars(self):
        from harnesslib.plots import speedup_figure
        fig = speedup_figure(run_of(eight_benchmarks()), self.plt)
        panels = [ax for ax in fig.axes if ax.axison]
        self.assertEqual(len(panels), 8)
        for ax in panels:
            self.assertTrue(ax.lines, "a panel without data")
            self.assertTrue(any(type(c).__name__ == "ErrorbarContainer" for c in ax.containers))
        legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + fig.legends
        self.assertEqual(len(legends), 1)
        self.legend_inside(fig, legends[0])
        self.plt.close(fig)

    def test_speedup_error_bars_span_the_repetitions(self):
        from harnesslib.plots import speedup_spread
        r = record()
        # T_S 1.0, 1.2, 0.8 over weft at 2 workers 0.5, 0.6, 0.4: 2.0 each.
        self.assertEqual(speedup_spread(r, "weft-split", 2), (2.0, 2.0, 2.0))
        low, high = speedup_spread(r, "weft-split", 1)[1:]
        self.assertAlmostEqual(low, 0.8 / 1.2)
        self.assertAlmostEqual(high, 1.0 / 1.5)
        self.assertIsNone(speedup_spread(r, "rayon", 2))

    def test_overhead_is_on_a_log_scale(self):
        from harnesslib.plots import overhead_figure
        fig = overhead_figure(run_of(eight_benchmarks()), self.plt)
        (ax,) = fig.axes
        self.assertEqual(ax.get_xscale(), "log")
        texts = [t.get_text() for t in ax.texts]
        self.assertIn("overhead 0.50 ns", texts)
        self.assertIn("overhead 500 ns", texts)
        self.assertTrue(any("within noise" in t for t in texts), texts)
        self.plt.close(fig)

    def test_peers_have_error_bars_and_a_compact_legend(self):
        from harnesslib.plots import peers_figure
        fig = peers_figure(run_of([record("fib"), record("queens")]), self.plt)
        (ax,) = fig.axes
        self.assertTrue(any(c.errorbar is not None for c in ax.containers
                            if hasattr(c, "errorbar")))
        self.legend_inside(fig, ax.get_legend())
        self.plt.close(fig)

    def test_no_peers_no_peers_figure(self):
        from harnesslib.plots import peers_figure
        r = record("fib")
        r["systems"] = {k: v for k, v in r["systems"].items() if k.startswith("weft-")}
        self.assertIsNone(peers_figure(run_of([r]), self.plt))


if __name__ == "__main__":
    unittest.main()
