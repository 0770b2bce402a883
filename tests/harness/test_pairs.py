# SPDX-License-Identifier: Apache-2.0
"""The harness's `pairs` command: the order of the runs, the ratio taken
pair by pair, failed runs shown, the time bound, and usage errors."""
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from harness_testutil import HARNESS, run_harness


def table(stdout, interval=False):
    """{row label: (min, median, max)} of the command's table; with
    interval, {row label: the median's 95 % interval, as (low, high) or
    None for "-"}."""
    rows = {}
    for line in stdout.splitlines():
        m = re.match(r"^(A wall|B wall|A cpu|B cpu|A/B wall|A/B cpu)"
                     r"\s+(\S+)\s+(\S+)\s+(\S+)\s+(-|\S+-\S+)$", line)
        if m and interval:
            held = m.group(5)
            rows[m.group(1)] = None if held == "-" else tuple(float(x) for x in held.split("-"))
        elif m:
            rows[m.group(1)] = tuple(float(x) for x in m.group(2, 3, 4))
    return rows


class PairsTest(unittest.TestCase):
    def test_runs_alternate_after_the_warmup(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "log")
            a = ["sh", "-c", f"echo A >> {shlex.quote(log)}"]
            b = f"sh -c 'echo B >> {shlex.quote(log)}'"
            r = run_harness("pairs", "-n", "3", "--warmup", "2", "--vs", b, "--", *a)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(log) as f:
                self.assertEqual(f.read().split(), ["A", "B"] * 5)
            self.assertIn("3 pair(s), A then B, after 2 warm-up pair(s)", r.stdout)
            # The host's state at both ends, for the reader of the figures.
            self.assertRegex(r.stdout, r"host: at the start \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, "
                                       r"\d+ CPU\(s\), load \d+\.\d\d; at the end .* load \d+\.\d\d")
            self.assertEqual(set(table(r.stdout)),
                             {"A wall", "B wall", "A cpu", "B cpu", "A/B wall", "A/B cpu"})

    def test_the_ratio_is_a_over_b(self):
        # A sleeps ten times as long as B: no run can be shorter than its
        # sleep, so the ratio is above 2 however loaded the host is.
        r = run_harness("pairs", "-n", "3", "--warmup", "0", "--vs", "sleep 0.03",
                        "--", "sleep", "0.3")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = table(r.stdout)
        self.assertGreaterEqual(rows["A wall"][0], 0.3)
        self.assertGreaterEqual(rows["B wall"][0], 0.03)
        self.assertGreater(rows["A/B wall"][1], 2.0)
        lo, med, hi = rows["A/B wall"]
        self.assertLessEqual(lo, med)
        self.assertLessEqual(med, hi)

    def test_the_median_comes_with_its_interval_from_six_pairs(self):
        r = run_harness("pairs", "-n", "6", "--warmup", "0", "--vs", "sleep 0.01",
                        "--", "sleep", "0.05")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows, held = table(r.stdout), table(r.stdout, interval=True)
        self.assertEqual(set(held), set(rows))
        # Six pairs: the interval is the lowest to the highest.
        for label, (lo, _, hi) in rows.items():
            self.assertEqual(held[label], (lo, hi), label)
        r = run_harness("pairs", "-n", "5", "--warmup", "0", "--vs", "true", "--", "true")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(set(table(r.stdout, interval=True).values()), {None})

    def test_a_failing_run_is_shown(self):
        r = run_harness("pairs", "-n", "2", "--warmup", "0", "--vs", "sh -c 'exit 3'", "--", "true")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("B: 2 of 2 run(s) exited non-zero (statuses [3])", r.stdout)
        self.assertNotIn("A: ", r.stdout)

    def test_the_bound_stops_the_call_and_keeps_the_finished_pairs(self):
        r = run_harness("pairs", "-n", "50", "--warmup", "0", "--timeout", "1.5",
                        "--vs", "sleep 0.2", "--", "sleep", "0.2")
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        m = re.search(r"stopped at the 1.5 s bound after (\d+) of 50 pair", r.stderr)
        self.assertIsNotNone(m, r.stderr)
        done = int(m.group(1))
        self.assertLess(done, 50)
        self.assertIn(f"pairs: {done} pair(s)", r.stdout)

    def test_a_terminated_call_leaves_no_run_behind(self):
        with tempfile.TemporaryDirectory() as d:
            pidfile = os.path.join(d, "pid")
            a = ["sh", "-c", f"echo $$ > {shlex.quote(pidfile)}; exec sleep 60"]
            call = subprocess.Popen([sys.executable, HARNESS, "pairs", "--warmup", "0",
                                     "--vs", "true", "--", *a],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(200):
                if os.path.exists(pidfile) and open(pidfile).read().strip():
                    break
                time.sleep(0.05)
            pid = int(open(pidfile).read())
            call.send_signal(signal.SIGTERM)
            call.communicate(timeout=30)
            self.assertNotEqual(call.returncode, 0)
            # The run (sleep 60, in the shell's place) is gone: reaped by
            # the call, so no such process is left.
            with self.assertRaises(ProcessLookupError):
                os.kill(pid, 0)

    def test_what_a_run_leaves_in_its_group_is_killed(self):
        with tempfile.TemporaryDirectory() as d:
            pidfile = os.path.join(d, "pid")
            a = ["sh", "-c", f"sleep 60 & echo $! > {shlex.quote(pidfile)}"]
            r = run_harness("pairs", "-n", "1", "--warmup", "0", "--vs", "true", "--", *a)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("left processes running in its group: killed", r.stderr)
            pid = int(open(pidfile).read())
            for _ in range(100):  # killed: gone, or a zombie its new parent has not reaped
                try:
                    with open(f"/proc/{pid}/stat") as f:
                        if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                            break
                except FileNotFoundError:
                    break
                time.sleep(0.05)
            else:
                self.fail(f"the background sleep {pid} is still running")

    def test_usage_errors(self):
        for args, message in ((["--vs", "", "--", "true"], "--vs is empty"),
                              (["--vs", "true"], "no command A"),
                              (["--vs", "'unclosed", "--", "true"], "--vs:"),
                              (["-n", "0", "--vs", "true", "--", "true"], "must be >= 1"),
                              (["--warmup", "-1", "--vs", "true", "--", "true"], "--warmup")):
            r = run_harness("pairs", *args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(message, r.stderr, args)

    def test_a_command_that_cannot_start(self):
        r = run_harness("pairs", "--vs", "true", "--", "/nonexistent/program")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("cannot start /nonexistent/program", r.stderr)


if __name__ == "__main__":
    unittest.main()
