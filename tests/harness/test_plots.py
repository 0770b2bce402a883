"""The PNG plots, drawn from a hand-made run (needs matplotlib)."""
import importlib.util
import os
import tempfile
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

from test_report import record


@unittest.skipUnless(importlib.util.find_spec("matplotlib"),
                     "matplotlib is not installed (the harness installs it with pip)")
class PlotsTest(unittest.TestCase):
    def test_three_pngs(self):
        from harnesslib.plots import caption, plot_all
        run = {"results": [record("fib"), record("queens")], "workers": [1, 2],
               "suite": "quick", "reps": 3,
               "machine": {"commit": "abc123", "dirty": False, "date": "2026-01-01T00:00:00",
                           "cpu": "Test CPU", "cpus": 2, "kernel": "Linux 6"}}
        self.assertIn("commit abc123", caption(run))
        self.assertIn("Test CPU", caption(run))
        with tempfile.TemporaryDirectory() as d:
            paths = plot_all(run, os.path.join(d, "run"))
            self.assertEqual([os.path.basename(p) for p in paths],
                             ["run-speedup.png", "run-overhead.png", "run-peers.png"])
            for path in paths:
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
