#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""weft's benchmark harness.

    python3 bench/harness.py                   # install deps, build, quick suite with peers
    python3 bench/harness.py --list            # the benchmarks and their sizes
    python3 bench/harness.py --suite targets   # the figures weft promises
    python3 bench/harness.py --suite paper     # the papers' input sizes (hours)
    python3 bench/harness.py overhead          # per-task overhead and steal cost per scheduler
    python3 bench/harness.py pool              # the work pool's queues compared
    python3 bench/harness.py pairs --vs 'B' -- A   # two commands in turn, ratio pair by pair

Without a command it builds weft (one tree per scheduler, plus one with
counters) and the peer implementations (TBB, OpenMP with gcc and clang,
Rayon, Java), runs the sequential baseline, weft and the peers interleaved,
and prints the Lace paper's Figure 5 and 7 tables, Wool's granularity, weft
vs peers and what was skipped; results go to results/<date>-<suite>.json,
.csv and PNG plots.  Every command, option, file and column:
docs/benchmarks.md.  The code is in bench/harnesslib/.
"""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harnesslib.cli import main  # noqa: E402

if __name__ == "__main__":
    # SIGTERM as an exception, so the benchmark running at that moment is
    # killed too (subprocess.run kills its child when interrupted).
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("harness: interrupted", file=sys.stderr)
        sys.exit(130)
