# SPDX-License-Identifier: Apache-2.0
"""The `pairs` command: two commands timed in turn, A B A B ..., and the
ratio A/B taken pair by pair.

    python3 bench/harness.py pairs [-n RUNS] [--warmup W] [--timeout S] --vs 'B' -- A [ARG ...]

What it measures is the whole process, from outside: each run's wall time
is a monotonic clock read just before the start and just after the child is
reaped; its CPU time is the kernel's user + system accounting of the reaped
child (its waited-for descendants included).  On a host whose speed drifts,
a ratio taken within one pair (the two runs back to back) keeps its meaning
where a ratio of two medians does not (stats.py): the median of the pairs'
ratios is the figure to quote, min and max its spread, and the last column
the interval that holds the median with 95 % if the pairs are independent
(from 6 pairs on): a ratio whose interval holds 1.0 does not show which
command is faster.

Commands run without a shell (B is split as a shell splits words); their
standard input is empty and their output is discarded.  A variable goes
through env(1): `--vs 'env X=1 prog'`.  A run that exits non-zero is
counted and shown, not dropped: its time may not be the program's.
"""
import argparse
import os
import shlex
import signal
import statistics
import subprocess
import sys
import time

from .options import positive_float, positive_int
from .report import fmt_interval
from .stats import median_interval
from .util import usable_cpus

MAX_RUNS = 1000


class _OutOfTime(Exception):
    pass


def _kill_group(pgid):
    """Kills what is left in process group pgid; whether anything was."""
    try:
        os.killpg(pgid, signal.SIGKILL)
        return True
    except ProcessLookupError:
        return False


def _run_once(argv, deadline):
    """(wall seconds, cpu seconds, exit status) of one run of argv; raises
    _OutOfTime when the deadline passes first (the run's process group is
    killed)."""
    start = time.monotonic()
    try:
        child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError as e:
        raise SystemExit(f"pairs: cannot start {shlex.join(argv)}: {e.strerror}") from None
    reaped = False
    try:
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid == child.pid:
                wall = time.monotonic() - start
                reaped = True
                child.returncode = os.waitstatus_to_exitcode(status)
                # What it left running in its group would run beside the
                # next command: killed, and said.
                if _kill_group(child.pid):
                    print(f"pairs: {shlex.join(argv)} left processes running in its group: "
                          "killed", file=sys.stderr)
                return wall, usage.ru_utime + usage.ru_stime, child.returncode
            if time.monotonic() > deadline:
                raise _OutOfTime()
            time.sleep(0.0005 if time.monotonic() - start < 0.05 else 0.005)
    finally:
        # Out of time, or interrupted (Ctrl-C, SIGTERM: harness.py makes it
        # an exception): the run's process group, which a terminal's signal
        # does not reach (a session of its own), goes with the call.
        if not reaped:
            _kill_group(child.pid)
            os.wait4(child.pid, 0)
            child.returncode = -signal.SIGKILL


def _row(label, values, digits=3):
    if not values:
        return f"{label:<12} {'-':>10} {'-':>10} {'-':>10} {'-':>13}"
    held = fmt_interval(median_interval(values), digits)
    return (f"{label:<12} {min(values):>10.{digits}f} {statistics.median(values):>10.{digits}f} "
            f"{max(values):>10.{digits}f} {held:>13}")


def host_state():
    """When and on what the pairs ran, for the reader of the figures: the
    UTC time, the CPUs this process may use, the 1-minute load average."""
    return (f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())} UTC, {usable_cpus()} CPU(s), "
            f"load {os.getloadavg()[0]:.2f}")


def report(a_runs, b_runs, warmup, before, out=sys.stdout):
    """The table of the finished pairs: A and B wall and CPU seconds, and
    the ratios A/B pair by pair (min, median, max, and the interval that
    holds the median with 95 %: stats.median_interval, "-" under 6
    pairs); exit statuses below.
    before: host_state() at the call's start."""
    pairs = min(len(a_runs), len(b_runs))
    a_runs, b_runs = a_runs[:pairs], b_runs[:pairs]
    print(f"pairs: {pairs} pair(s), A then B, after {warmup} warm-up pair(s); "
          "whole-process seconds", file=out)
    print(f"host: at the start {before}; at the end {host_state()}", file=out)
    print(f"{'':<12} {'min':>10} {'median':>10} {'max':>10} {'median 95 %':>13}", file=out)
    print(_row("A wall", [r[0] for r in a_runs]), file=out)
    print(_row("B wall", [r[0] for r in b_runs]), file=out)
    print(_row("A cpu", [r[1] for r in a_runs]), file=out)
    print(_row("B cpu", [r[1] for r in b_runs]), file=out)
    print(_row("A/B wall", [a[0] / b[0] for a, b in zip(a_runs, b_runs) if b[0] > 0]), file=out)
    print(_row("A/B cpu", [a[1] / b[1] for a, b in zip(a_runs, b_runs) if b[1] > 0]), file=out)
    for label, runs in (("A", a_runs), ("B", b_runs)):
        bad = [r[2] for r in runs if r[2] != 0]
        if bad:
            print(f"{label}: {len(bad)} of {len(runs)} run(s) exited non-zero "
                  f"(statuses {sorted(set(bad))}): their times may not be the program's", file=out)


def main(argv):
    ap = argparse.ArgumentParser(
        prog="harness.py pairs", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[1],
        epilog="example:\n  python3 bench/harness.py pairs -n 15 --vs 'plain/fib -w 1 40' -- "
               "profiled/fib -w 1 40\nSee docs/benchmarks.md.")
    ap.add_argument("-n", dest="runs", type=positive_int, default=5,
                    help=f"pairs to time (default 5, at most {MAX_RUNS})")
    ap.add_argument("--warmup", type=int, default=1,
                    help="pairs run first and not counted (default 1)")
    ap.add_argument("--timeout", type=positive_float, default=600.0,
                    help="seconds for the whole call (default 600): at the bound the running "
                         "command is killed and the finished pairs are reported")
    ap.add_argument("--vs", required=True, metavar="'B'", help="the second command, one string")
    ap.add_argument("command", nargs=argparse.REMAINDER, metavar="-- A [ARG ...]")
    args = ap.parse_args(argv)
    a_argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not a_argv:
        ap.error("no command A: give it after --")
    if args.runs > MAX_RUNS:
        ap.error(f"-n must be at most {MAX_RUNS}, got {args.runs}")
    if args.warmup < 0:
        ap.error(f"--warmup must be >= 0, got {args.warmup}")
    try:
        b_argv = shlex.split(args.vs)
    except ValueError as e:
        ap.error(f"--vs: {e}")
    if not b_argv:
        ap.error("--vs is empty")
    deadline = time.monotonic() + args.timeout
    before = host_state()
    a_runs, b_runs = [], []
    try:
        for i in range(args.warmup + args.runs):
            a = _run_once(a_argv, deadline)
            b = _run_once(b_argv, deadline)
            if i >= args.warmup:
                a_runs.append(a)
                b_runs.append(b)
    except _OutOfTime:
        report(a_runs, b_runs, args.warmup, before)
        print(f"pairs: stopped at the {args.timeout:g} s bound after {len(b_runs)} of "
              f"{args.runs} pair(s)", file=sys.stderr)
        return 3
    report(a_runs, b_runs, args.warmup, before)
    return 0
