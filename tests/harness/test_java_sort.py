# SPDX-License-Identifier: Apache-2.0
"""The Java peer's sort (bench/peers/java/weftpeers/Sort.java,
Arrays.parallelSort on the pool): compiled with javac, run at 1 and 2
workers on 100,000 ints, it prints sort.h's answer line for the input
sort.h makes (computed here from splitmix64), checks it, and refuses a
malformed n with exit 2.  Skipped, saying why, without a JDK."""
import os
import shutil
import subprocess
import tempfile
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MASK = (1 << 64) - 1


def sort_input(n):
    """sort.h's sort_input: the high 32 bits of splitmix64 from SORT_SEED,
    as signed ints."""
    state, out = 0x5EEDC11C5027, []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        v = z >> 32
        out.append(v - (1 << 32) if v >= 1 << 31 else v)
    return out


@unittest.skipUnless(shutil.which("javac") and shutil.which("java"),
                     "no JDK (javac and java): bench/peers/deps.sh says how to install one")
class JavaSortTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        sources = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, "bench", "peers",
                                                                           "java"))
                   for f in fs if f.endswith(".java")]
        subprocess.run(["javac", "-d", cls.tmp.name] + sources, check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_peer(self, *args):
        return subprocess.run(["java", "-cp", self.tmp.name, "WeftPeers", "sort"] + list(args),
                              capture_output=True, text=True, timeout=120)

    def test_sorts_as_sort_h(self):
        n = 100000
        a = sorted(sort_input(n))
        want = f"sort({n}): first {a[0]} median {a[n // 2]} last {a[-1]}"
        for workers in ("1", "2"):
            p = self.run_peer("-w", workers, str(n))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(f"workers: {workers}", p.stdout)
            self.assertIn(want, p.stdout.splitlines())
            self.assertRegex(p.stdout, r"Time: [0-9.]+")

    def test_bad_n(self):
        p = self.run_peer("-w", "2", "0")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertIn("n must be an integer in [1, 2000000000]", p.stderr)


if __name__ == "__main__":
    unittest.main()
