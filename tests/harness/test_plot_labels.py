# SPDX-License-Identifier: Apache-2.0
"""The plots' value labels do not cover each other, and the overhead plot
says what each mark is; drawn from a run shaped like the README's quick
run (fib's five peers between 0.00 and 0.16, two systems 0.08 apart on
sort).  WEFT_PLOT_DIR=<dir> keeps the PNGs for a look."""
import importlib.util
import os
import tempfile
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

from test_report import timed

SPEEDUPS = {  # T_S / T_2 at 2 workers, as in the README's quick table
    "fib": {"weft-split": 1.24, "tbb": 0.02, "omp-gcc": 0.004, "omp-clang": 0.01,
            "rayon": 0.16, "java": 0.06},
    "matmul": {"weft-split": 1.98, "tbb": 1.72, "omp-gcc": 1.40, "omp-clang": 1.77,
               "rayon": 3.11, "java": 1.14},
    "queens": {"weft-split": 1.81, "tbb": 1.65, "omp-gcc": 1.06, "omp-clang": 0.96,
               "rayon": 1.91, "java": 1.13},
    "sort": {"weft-split": 1.84, "tbb": 1.76},
}


def readme_like_run():
    records = []
    for name, speedups in SPEEDUPS.items():
        # weft's T_1 close to T_S, so its overhead is close to its work per task.
        r = timed(name, [1.0, 1.0, 1.0], [1.3, 1.35, 1.25], tasks=10 ** 7 if name == "fib" else 10 ** 5)
        for system, s in speedups.items():
            t2 = 1.0 / s
            times = {"1": [t2 * 1.6] * 3, "2": [t2 * 0.98, t2, t2 * 1.02]}
            if system == "weft-split":
                r["systems"][system]["times"]["2"] = times["2"]
            else:
                r["systems"][system] = {"kind": "peer", "status": "ok", "message": None,
                                        "times": times}
        records.append(r)
    return {"results": records, "workers": [1, 2], "suite": "quick", "reps": 3,
            "machine": {"commit": "abc123", "dirty": False, "date": "2026-01-01T00:00:00",
                        "cpu": "Test CPU", "cpus": 2, "kernel": "Linux 6"}}


@unittest.skipUnless(importlib.util.find_spec("matplotlib"),
                     "matplotlib is not installed (the harness installs it with pip)")
class PlotLabelsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        cls.plt = plt

    def texts(self, fig):
        from matplotlib.text import Annotation
        return [t for ax in fig.axes for t in ax.get_children()
                if isinstance(t, Annotation) and t.get_text()]

    def assert_apart(self, fig, what):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        texts = self.texts(fig)
        self.assertTrue(texts, f"{what}: no value labels")
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
        for i, (a, box_a) in enumerate(boxes):
            for b, box_b in boxes[i + 1:]:
                self.assertFalse(box_a.overlaps(box_b), f"{what}: '{a}' covers '{b}'")

    def draw(self, make, suffix):
        from harnesslib.plots import _finish
        fig = make(readme_like_run(), self.plt)
        keep = os.environ.get("WEFT_PLOT_DIR")
        if keep:
            _finish(fig, readme_like_run(), os.path.join(keep, f"labels-{suffix}.png"))
        return fig

    def test_peer_bars_labels_apart(self):
        from harnesslib.plots import peers_figure
        fig = self.draw(peers_figure, "peers")
        labels = [t.get_text() for t in self.texts(fig)]
        for value in ("0.02", "0.00", "0.01", "0.16", "0.06"):
            self.assertIn(value, labels)
        self.assert_apart(fig, "peers")
        self.plt.close(fig)

    def test_peer_labels_clear_of_caps_and_ideal_line(self):
        # The README-like run, and one whose bars reach the ideal line (2).
        from harnesslib.plots import peer_obstacles, peers_figure
        near_ideal = readme_like_run()
        for r in near_ideal["results"]:
            for s in r["systems"].values():
                s["times"]["2"] = [t * 0.6 for t in s["times"]["2"]]
        for run, what in ((readme_like_run(), "peers"), (near_ideal, "peers near the ideal")):
            fig = peers_figure(run, self.plt)
            fig.canvas.draw()
            renderer = fig.canvas.get_renderer()
            (ax,) = fig.axes
            marks = peer_obstacles(fig, ax, renderer)
            caps = sum(len(c.errorbar.lines[1][0].get_xydata()) for c in ax.containers
                       if getattr(c, "errorbar", None) is not None and c.errorbar.lines[1])
            self.assertGreater(caps, 0, f"{what}: no error-bar caps found")
            self.assertGreater(len(marks), caps, f"{what}: the ideal line is not among the marks")
            for t in self.texts(fig):
                box = t.get_window_extent(renderer)
                for m in marks:
                    self.assertFalse(box.overlaps(m),
                                     f"{what}: '{t.get_text()}' is crossed by a cap or the ideal "
                                     f"line at y={m.y0:.0f}..{m.y1:.0f}")
            self.assert_apart(fig, what)
            self.plt.close(fig)

    def test_empty_peer_slots_say_so(self):
        # sort has weft-split and tbb only: the other four slots say "n/a".
        from harnesslib.plots import peers_figure
        fig = peers_figure(readme_like_run(), self.plt)
        labels = [t.get_text() for t in self.texts(fig)]
        self.assertEqual(labels.count("n/a"), 4, labels)
        self.plt.close(fig)

    def test_speedup_panel_labels_apart(self):
        from harnesslib.plots import speedup_figure
        fig = self.draw(speedup_figure, "speedup")
        labels = [t.get_text() for t in self.texts(fig)]
        self.assertIn("1.84", labels)  # sort: two systems, labelled
        self.assertIn("1.76", labels)
        self.assert_apart(fig, "speedup")
        self.plt.close(fig)

    def test_overhead_marks_say_what_they_are(self):
        from harnesslib.plots import overhead_figure
        fig = self.draw(overhead_figure, "overhead")
        labels = [t.get_text() for t in self.texts(fig)]
        self.assertEqual(len([t for t in labels if t.startswith("overhead ")]), len(SPEEDUPS))
        self.assertEqual(len([t for t in labels if t.startswith("work ")]), len(SPEEDUPS))
        self.assertEqual(len(labels), 2 * len(SPEEDUPS))
        legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        self.assertTrue(any(t.startswith("bar: overhead per task") for t in legend), legend)
        self.assertTrue(any(t.startswith("tick: work per task") for t in legend), legend)
        self.assert_apart(fig, "overhead")
        self.plt.close(fig)

    def test_no_work_tick_crosses_an_overhead_label(self):
        # Overheads from 0.5 ns to 500 µs against 1 µs of work per task: the
        # tick falls inside or just past several bars.
        from harnesslib.plots import overhead_figure
        from test_plots import eight_benchmarks, run_of
        fig = overhead_figure(run_of(eight_benchmarks()), self.plt)
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        (ax,) = fig.axes
        ticks = [ax.transData.transform(p) for c in ax.collections for p in c.get_offsets()]
        self.assertEqual(len(ticks), 8)
        for t in self.texts(fig):
            if not t.get_text().startswith("overhead "):
                continue
            box = t.get_window_extent(renderer)
            for x, y in ticks:
                crosses = box.x0 <= x <= box.x1 and box.y0 - 9 <= y <= box.y1 + 9
                self.assertFalse(crosses, f"the work tick at x={x:.0f} crosses '{t.get_text()}'")
        self.assert_apart(fig, "overhead, eight benchmarks")
        self.plt.close(fig)


if __name__ == "__main__":
    unittest.main()
