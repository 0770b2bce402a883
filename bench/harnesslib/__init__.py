"""weft's benchmark harness, as a package: bench/harness.py is its entry point.

Modules, one concern each:
  catalog  the workloads (bench/<name>/bench.json), suites and their inputs
  parse    reading a binary's output: the `Time:` line and the counter table
  stats    medians, spreads and per-repetition ratios
  build    dependencies and CMake builds of weft (one per scheduler)
  systems  what runs a workload: the sequential baseline, weft, each peer
  measure  the interleaved measurement loop and its progress lines
  report   the text tables (Figures 5 and 7 of the Lace paper, Wool's
           granularity, weft vs peers, what was skipped)
  output   machine information, the JSON and CSV files
  plots    the PNG plots (matplotlib, Agg backend)
  cli      the command line
"""
