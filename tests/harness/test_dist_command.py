# SPDX-License-Identifier: Apache-2.0
"""The harness's dist command: reading uts-dist's lines, the commands it
runs (mpiexec with the ranks unbound), and a refusal without uts-dist."""
import os
import tempfile
import unittest

from harness_testutil import run_harness, write_script
from harnesslib import dist

UTS_DIST_OUTPUT = """\
Nodes: 4130071
Leaves: 3305118
Max depth: 10
Time: 0.435469
Ranks: 2 x 1 workers
Rank 0: processed 2076481, steal requests sent 3 failed 1 served 4 refused 1, lifelines 1 pushes 0, items shipped 47 received 35, bytes shipped 1504, messages 15, idle 1.674 ms, comm cpu 6.189 ms
Rank 1: processed 2053590, steal requests sent 4 failed 1 served 3 refused 1, lifelines 2 pushes 1, items shipped 35 received 47, bytes shipped 1120, messages 15, idle 14.501 ms, comm cpu 6.442 ms
Dist: processed 4130071, steal requests sent 7 failed 2 served 7 refused 2, lifelines 3 pushes 1, items shipped 82 received 82, bytes shipped 2624, messages 30, idle 16.175 ms, comm cpu 12.631 ms
Dist: termination rounds 3, most idle rank 14.501 ms
"""


class DistCommandTest(unittest.TestCase):
    def test_reads_the_ranks_and_the_totals(self):
        r = dist.parse_dist_output(UTS_DIST_OUTPUT)
        self.assertEqual(r["time"], 0.435469)
        self.assertEqual(len(r["ranks"]), 2)
        self.assertEqual(r["ranks"][1]["pushes"], 1)
        self.assertEqual(r["ranks"][1]["idle_ms"], 14.501)
        self.assertEqual(r["total"]["requests"], 7)
        self.assertEqual(r["total"]["shipped"], 82)
        self.assertEqual(r["total"]["processed"], 4130071)

    def test_a_program_without_ranks_has_none(self):
        r = dist.parse_dist_output("Nodes: 3\nTime: 1.5\n")
        self.assertEqual((r["time"], r["ranks"], r["total"]), (1.5, [], None))

    def test_commands_unbind_the_ranks(self):
        cmds = dist.commands_for("/b", "/usr/bin/mpiexec", "-t 1 -d 2", None)
        self.assertEqual(cmds["uts-seq"], ["/b/uts-seq", "-t", "1", "-d", "2"])
        self.assertEqual(cmds["shared-memory pool"][:4], ["/b/uts-dist", "-w", "2", "--pool"])
        two = cmds["dist 2 ranks x 1 worker"]
        self.assertEqual(two[:6], ["/usr/bin/mpiexec", "--oversubscribe", "--bind-to", "none",
                                   "-np", "2"])
        self.assertIn("-w", two)

    def test_a_build_without_uts_dist_is_refused(self):
        with tempfile.TemporaryDirectory() as root:
            bench = os.path.join(root, "build-bench-split", "bench")
            for name in ("uts-seq", "uts-weft"):
                write_script(os.path.join(bench, name), 'echo "Time: 0.1"')
            p = run_harness("dist", "--no-deps", "--no-build", "--build-root", root, "--out",
                            root, "--size", "small", "--reps", "1")
        self.assertEqual(p.returncode, 1)
        self.assertIn("uts-dist does not exist", p.stderr)


if __name__ == "__main__":
    unittest.main()
