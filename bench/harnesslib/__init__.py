# SPDX-License-Identifier: Apache-2.0
"""weft's benchmark harness, as a package: bench/harness.py is its entry point.

Modules, one concern each:
  cli      the command line: dispatches to the suite or a command
  options  what the parsers share: common options, option types, result paths
  suite    the benchmark suite (the harness without a command)
  overhead the `overhead` command: per-task overhead and steal cost per scheduler
  pool     the `pool` command: the work pool's queues on the paper's cases
  dist     the `dist` command: UTS on the distributed work pool
  clients  the `clients` command: real Lace clients on weft's Lace packages and
           on real Lace, quiet, loaded and oversubscribed
  pairs    the `pairs` command: two commands timed in turn, the ratio pair by pair
  lacesrc  real Lace and its clients built from given sources, and weft's Lace
           packages (the clients command and the Lace peers)
  catalog  the workloads (bench/<name>/bench.json), suites and their inputs
  parse    reading a binary's output: the `Time:` line and the counter table
  stats    medians, spreads and per-repetition ratios
  build    installers, the scheduler list (CMake's), the builds of weft and
           their CMake flags
  weftbuilds  the weft trees a run measures (built or found) and how each was
           configured: shared by the suite and the commands
  systems  what runs a workload: the sequential baseline, weft, each peer
  measure  running binaries, the interleaved measurement loop, progress lines
  report   the text tables (Figures 5 and 7 of the Lace paper, Wool's
           granularity, weft vs peers, what was skipped) and their formats
  output   machine information, the JSON and CSV files
  plots    the PNG plots (matplotlib, Agg backend)
  observe  the suite's --profile (work and span beside the speedups) and
           --trace (one benchmark's timeline) modes
  util     logging, quiet steps with log files
"""
