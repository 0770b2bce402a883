# SPDX-License-Identifier: Apache-2.0
"""Installers and builds are quiet: one line per step with its duration on
stderr, their output in a log file (its path shown when a step fails)."""
import contextlib
import io
import os
import subprocess
import tempfile
import unittest

from harness_testutil import ROOT, write_script
from harnesslib import build, util

APT_NOISE = "for i in $(seq 100); do echo \"Get:$i http://deb.example/debian pkg$i\"; done"


class RunStepTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.log = os.path.join(self.tmp.name, "logs", "step.log")

    def step(self, *args, **kwargs):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            result = util.run_step(*args, **kwargs)
        return result, err.getvalue()

    def test_one_line_and_the_output_in_the_log(self):
        result, err = self.step("[deps]", "noisy", ["sh", "-c", APT_NOISE], self.log)
        self.assertTrue(result.ok)
        self.assertRegex(err, r"^\[deps\] noisy \.\.\. ok \(\d+ s\)\n$")
        with open(self.log) as f:
            self.assertEqual(sum(line.startswith("Get:") for line in f), 100)

    def test_a_failure_names_the_log(self):
        result, err = self.step("[build]", "broken", [["true"], ["sh", "-c", "echo oops; exit 3"],
                                                      ["true"]], self.log)
        self.assertEqual((result.code, result.failed_at), (3, 1))
        self.assertEqual(len(err.splitlines()), 1)
        self.assertIn("FAILED (exit 3)", err)
        self.assertIn(f"log {util.display_path(self.log)}", err)
        with open(self.log) as f:
            self.assertIn("oops", f.read())

    def test_summary_names_the_result(self):
        _, err = self.step("[deps]", "x", ["echo", "deps: all present"], self.log,
                           summary=lambda r: "summarised")
        self.assertIn("x ... summarised (", err)


class InstallDepsTest(unittest.TestCase):
    """install_deps on a fake checkout whose scripts print like apt does."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.root = os.path.join(self.tmp.name, "src")
        self.builds = os.path.join(self.tmp.name, "builds")
        # scripts/deps.sh as the real one behaves: apt's output to --log,
        # one line to stderr.
        write_script(os.path.join(self.root, "scripts", "deps.sh"),
                     f'[ "$1" = --log ] && log=$2\n({APT_NOISE}) > "$log"\n'
                     'echo "deps: installed cmake (1 s; log $log)" >&2')
        write_script(os.path.join(self.root, "bench", "peers", "deps.sh"),
                     f"({APT_NOISE}) >&2\n"
                     'echo "tbb: available (oneTBB 2021)"\necho "rayon: available (cargo 1)"\n'
                     'echo "java: not available (javac not on PATH)"')

    def test_two_steps_two_lines(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            build.install_deps(self.root, self.builds, want_peers=True)
        lines = err.getvalue().splitlines()
        self.assertEqual(len(lines), 2, lines)
        self.assertRegex(lines[0], r"^\[deps\] scripts/deps\.sh \.\.\. installed cmake .*\(\d+ s\)$")
        self.assertRegex(lines[1], r"^\[deps\] bench/peers/deps\.sh \.\.\. tbb, rayon available; "
                                   r"not available: java \(\d+ s\)$")
        logs = util.logs_dir(self.builds)
        with open(os.path.join(logs, "deps.log")) as f:
            self.assertEqual(sum(line.startswith("Get:") for line in f), 100)
        with open(os.path.join(logs, "peers-deps.log")) as f:
            self.assertEqual(sum(line.startswith("Get:") for line in f), 100)

    def test_a_failed_install_stops_with_the_log(self):
        write_script(os.path.join(self.root, "scripts", "deps.sh"),
                     'echo "deps: FAILED to install x" >&2; exit 1')
        with contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaisesRegex(build.BuildError, r"exit code 1 \(log .*deps\.log\)"):
                build.install_deps(self.root, self.builds, want_peers=False)


class DepsScriptTest(unittest.TestCase):
    """scripts/deps.sh itself, as tests/run_all.sh runs it (everything is
    installed by then, so it installs nothing)."""

    def test_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run(["bash", os.path.join(ROOT, "scripts", "deps.sh"), "--log",
                                os.path.join(d, "deps.log")], capture_output=True, text=True,
                               timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len((p.stdout + p.stderr).splitlines()), 1, p.stdout + p.stderr)
        self.assertRegex(p.stderr, r"^deps: (all present|installed .* \(\d+ s; log .*\))\n$")

    def test_log_needs_a_file(self):
        p = subprocess.run(["bash", os.path.join(ROOT, "scripts", "deps.sh"), "--log"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--log needs a file name", p.stderr)


if __name__ == "__main__":
    unittest.main()
