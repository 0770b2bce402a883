# SPDX-License-Identifier: Apache-2.0
"""The command line: python3 bench/harness.py [command] [options].

Without a command the harness runs the benchmark suite (harnesslib/suite.py);
the commands measure one thing each, with the same builds, runner, tables
and result files:

  overhead  per-task overhead and steal cost of each scheduler (overhead.py)
  pool      the work pool's queues compared on the paper's cases (pool.py)
  dist      UTS on the distributed pool (uts-dist under mpirun) (dist.py)
  clients   real Lace clients on weft's Lace packages and on real Lace (clients.py)
  pairs     two commands timed in turn and their ratio pair by pair (pairs.py)

docs/benchmarks.md describes every option, the output files and the
table columns.  What the parsers share is in options.py: this module
only dispatches.
"""
import sys

from .options import COMMANDS


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in COMMANDS:
        if argv[0] == "overhead":
            from . import overhead as command
        elif argv[0] == "dist":
            from . import dist as command
        elif argv[0] == "clients":
            from . import clients as command
        elif argv[0] == "pairs":
            from . import pairs as command
        else:
            from . import pool as command
        return command.main(argv[1:])
    from . import suite
    return suite.main(argv)
