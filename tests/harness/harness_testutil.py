# SPDX-License-Identifier: Apache-2.0
"""Shared by the harness tests: the import path of bench/harnesslib, and
fake build trees whose "binaries" are shell scripts printing what a test
needs (right or wrong answers, counter tables, failures)."""
import os
import stat
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS = os.path.join(ROOT, "bench", "harness.py")
sys.path.insert(0, os.path.join(ROOT, "bench"))

# The counter table src/runtime/stats.c prints, shortened to two workers.
WEFT_COUNTERS = """\
worker          tasks     steals  steal_fails      leaps   leap_fails      grows    shrinks   sleeps    wakes     peak
0              514553          1          155          8           51          3          6        0        0       14
1              831715          0          198          8           31          2          3        0        0       15
total         1346268          1          353         16           82          5          9        0        0       15
"""


def needs(cond, reason):
    """A class decorator: skip the tests when cond is false, except on CI
    (CI=true, as tests/run_all.sh sets it), where the precondition must
    hold (scripts/deps.sh installs what it needs): there the class fails."""
    if cond:
        return lambda cls: cls
    if os.environ.get("CI") == "true":
        def fail_on_ci(cls):
            def setUpClass(c):
                raise AssertionError(f"{cls.__name__}: {reason}; on CI (CI=true) this must hold")
            cls.setUpClass = classmethod(setUpClass)
            return cls
        return fail_on_ci
    return unittest.skip(reason)


def write_script(path, body):
    """An executable /bin/sh script at path."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def fake_weft_tree(build_root, binary="fib", seq_time="0.010", weft_time="0.008",
                   weft_body=None, counters=WEFT_COUNTERS):
    """build-bench-split[-counters]/bench/<binary>-seq and -weft scripts."""
    for counted in (False, True):
        bench = os.path.join(build_root, "build-bench-split" + ("-counters" if counted else ""),
                             "bench")
        write_script(os.path.join(bench, f"{binary}-seq"), f'echo "answer 42"\necho "Time: {seq_time}"')
        table = counters if counted else ""
        body = weft_body or (f'echo "workers: $2"\necho "answer 42"\necho "Time: {weft_time}"\n'
                             f"cat <<'TABLE'\n{table}TABLE")
        write_script(os.path.join(bench, f"{binary}-weft"), body)


def run_harness(*args, timeout=120):
    return subprocess.run([sys.executable, HARNESS, *args], capture_output=True, text=True,
                          timeout=timeout)
