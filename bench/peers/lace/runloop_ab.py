#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Interleaved rounds of runloop (runloop.c beside this file) built against
several Lace runtimes: each round runs every build once, in turn, and the
report gives each build's median time per operation over the rounds, its
ratio to the first build's, and the process's CPU time from 10 ms after
the last operation on (what the idle pool costs).

    runloop_ab.py [--rounds R] [--driver] [--gap US] WORKERS N OPERATIONS NAME=RUNLOOP ...

--driver runs `runloop -s` (each RUN between lace_resume and lace_suspend).
--gap runs `runloop -g US` (a pause before each RUN) and reports each
build's median RUN time (the median over the rounds of each run's median).
The first NAME is the yardstick (Lace 1.4.2's build, say).  Each build is
runloop.c's CMake project configured with -DCMAKE_PREFIX_PATH at that
runtime's install (Lace's, or weft's with -DWEFT_PROVIDE_LACE=1.4).
"""
import argparse
import re
import statistics
import subprocess
import sys


def one_run(binary, driver, gap, workers, n, operations):
    cmd = ([binary] + (["-s"] if driver else []) + (["-g", str(gap)] if gap else []) +
           ["-w", str(workers), str(n), str(operations)])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        sys.exit(f"runloop_ab: {' '.join(cmd)} exited {out.returncode}: {out.stderr.strip()}")
    per_run = re.search(r"median ([0-9.]+) us" if gap else r"per RUN: ([0-9.]+)", out.stdout)
    idle = re.search(r"idle CPU from 10 ms after last RUN: ([0-9.]+)", out.stdout)
    wrong = re.search(r"wrong answers: ([0-9]+)", out.stdout)
    if not per_run or not idle or not wrong:
        sys.exit(f"runloop_ab: {' '.join(cmd)} printed no figures:\n{out.stdout}")
    if int(wrong.group(1)) != 0:
        sys.exit(f"runloop_ab: {' '.join(cmd)}: {wrong.group(1)} wrong answers")
    return float(per_run.group(1)), float(idle.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--driver", action="store_true")
    ap.add_argument("--gap", type=int, default=0, metavar="US")
    ap.add_argument("workers", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("operations", type=int)
    ap.add_argument("builds", nargs="+", metavar="NAME=RUNLOOP")
    args = ap.parse_args()
    builds = []
    for b in args.builds:
        name, sep, path = b.partition("=")
        if not sep or not name or not path:
            ap.error(f"'{b}' is not NAME=RUNLOOP")
        builds.append((name, path))
    times = {name: [] for name, _ in builds}
    idle = {name: [] for name, _ in builds}
    for _ in range(args.rounds):
        for name, path in builds:
            t, i = one_run(path, args.driver, args.gap, args.workers, args.n, args.operations)
            times[name].append(t)
            idle[name].append(i)
    base = statistics.median(times[builds[0][0]])
    for name, _ in builds:
        m = statistics.median(times[name])
        print(f"{name:14s} {m:12.2f} us per operation (min {min(times[name]):.2f}, max "
              f"{max(times[name]):.2f}); / {builds[0][0]}: {m / base:.3f}; idle CPU from 10 ms: "
              f"{statistics.median(idle[name]):.3f} ms per 100 ms")


if __name__ == "__main__":
    main()
