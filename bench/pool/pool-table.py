#!/usr/bin/env python3
"""Runs every work-pool case on every queue and prints the results as
Markdown tables shaped like the appendix of "Work-stealing Queues In
Practice": one table per worker count, a row per case, a column per queue,
each entry the median time normalised to ABP's median in the same run.

Each (case, worker count) is one pool-bench process: the input is built
once, then the repetitions run interleaved over all queues (rep 1 on every
queue, rep 2 on every queue, ...), so that a noisy, shared machine slows
all queues alike.  Ratios are only comparable within one table.

    python3 bench/pool/pool-table.py [--build DIR] [--reps 5]
                                     [--workers 1,2,8] [--scale 1.0]
                                     [--out docs/pool-results-data.md]

--scale multiplies the case sizes (R-MAT: adds log2(scale) to the scale).
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time

CASES = [  # row, case, default size, kind of size, extra options
    ("raw", "raw", 2000000, "n", []),
    ("quicksort", "quicksort", 1000000, "n", []),
    ("spanning (rlg)", "spanning", 1000000, "n", []),
    ("spanning (grid)", "spanning", 1000000, "n", ["-g", "grid"]),
    ("spanning (rmat)", "spanning", 1000000, "n", ["-g", "rmat"]),
    ("xml", "xml", 200000, "n", []),
    ("dfs-grid", "dfs-grid", 100, "side", []),
    ("dfs-rlg", "dfs-rlg", 1000000, "n", []),
    ("dfs-rmat", "dfs-rmat", 20, "scale", []),
]
DFS = [c for c in CASES if c[1].startswith("dfs-")]
QUEUES = ["abp", "chase-lev", "chase-lev-shrink", "idem-lifo", "idem-fifo",
          "idem-deque", "duplicating", "central"]
SHORT = {"abp": "ABP", "chase-lev": "Chase-Lev", "chase-lev-shrink": "CL shrink",
         "idem-lifo": "Idem LIFO", "idem-fifo": "Idem FIFO",
         "idem-deque": "Idem deque", "duplicating": "Duplicating",
         "central": "Central"}
COUNTERS = ["steals", "steal_empty", "steal_aborts", "stolen_items", "requests",
            "splits", "duplicates", "grows", "shrinks", "overflows", "reclaimed",
            "sleeps", "wakes"]


def size_for(kind, base, scale):
    if kind == "scale":
        return max(8, base + int(round(math.log2(scale)))) if scale > 0 else base
    if kind == "side":
        return max(4, int(round(base * scale ** (1 / 3))))
    return max(1000, int(base * scale))


def run(binary, case, size, workers, reps, queues, extra=()):
    """One pool-bench process: (medians, counters, refused queues, command)."""
    cmd = [binary, "-c", case, "-q", ",".join(queues), "-w", str(workers),
           "-n", str(size), "-r", str(reps)] + list(extra)
    t0 = time.time()
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stdout + out.stderr)
        raise SystemExit("failed: " + " ".join(cmd))
    res, counters, refused, current = {}, {}, set(), None
    for line in out.stdout.splitlines():
        m = re.match(r"Time (\S+): ([0-9.]+)", line)
        if m:
            res[m.group(1)] = float(m.group(2))
        m = re.match(r"counters (\S+) ", line)
        if m:
            current = m.group(1)
            counters[current] = {}
        elif current:
            for k, v in re.findall(r"(\w+) (\d+)", line):
                counters[current][k] = int(v)
        m = re.match(r"refused: case \S+ is not idempotent and queue (\S+)", line)
        if m:
            refused.add(m.group(1))
    sys.stderr.write("  %-50s %5.1f s\n" % (" ".join(cmd[1:]), time.time() - t0))
    return res, counters, refused, " ".join(["pool-bench"] + cmd[1:])


def ratio_table(title, results, queues):
    lines = ["### " + title, "",
             "| case | " + " | ".join(SHORT[q] for q in queues) + " |",
             "| --- |" + " ---: |" * len(queues)]
    for case, (res, _, refused, _) in results:
        base = res.get("abp")
        cells = []
        for q in queues:
            if q in refused:
                cells.append("refused")
            elif q in res and base:
                cells.append("%.2f" % (res[q] / base))
            else:
                cells.append("—")
        lines.append("| %s | %s |" % (case, " | ".join(cells)))
    return lines


def counter_table(title, results, queues, fields):
    lines = ["### " + title, "",
             "| case | " + " | ".join(SHORT[q] for q in queues) + " |",
             "| --- |" + " ---: |" * len(queues)]
    for case, (_, counters, refused, _) in results:
        cells = []
        for q in queues:
            if q in refused or q not in counters:
                cells.append("—")
            else:
                c = counters[q]
                cells.append(" / ".join(str(c.get(f, 0)) for f in fields))
        lines.append("| %s | %s |" % (case, " | ".join(cells)))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build-pool")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--workers", default="1,2,8")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--out")
    args = ap.parse_args()
    binary = os.path.join(args.build, "bench", "pool-bench")
    if not os.access(binary, os.X_OK):
        raise SystemExit(binary + " not found: build first (cmake + ninja)")
    workers = [int(w) for w in args.workers.split(",")]
    out = ["<!-- generated by bench/pool/pool-table.py --reps %d --workers %s --scale %g -->"
           % (args.reps, args.workers, args.scale), ""]
    commands = []
    times = {}
    for w in workers:
        results = []
        for row, case, base, kind, extra in CASES:
            r = run(binary, case, size_for(kind, base, args.scale), w, args.reps, QUEUES, extra)
            results.append((row, r))
            commands.append(r[3])
        label = "%d worker%s" % (w, "s" if w > 1 else "")
        out += ratio_table("%s: median time normalised to ABP" % label, results, QUEUES) + [""]
        out += counter_table(
            "%s: steals / empty / aborted / duplicated items" % label, results, QUEUES,
            ["steals", "steal_empty", "steal_aborts", "duplicates"]) + [""]
        out += counter_table(
            "%s: grows / shrinks / arrays reclaimed / overflows / sleeps" % label, results,
            QUEUES, ["grows", "shrinks", "reclaimed", "overflows", "sleeps"]) + [""]
        times[w] = {row: r[0].get("abp") for row, r in results}
    # ABP's speedup over its own 1-worker time (separate processes, minutes
    # apart: less reliable than the ratios within a table).
    if 1 in times:
        others = [w for w in workers if w != 1]
        out += ["### ABP: 1-worker time / w-worker time (across the runs above)", "",
                "| case | " + " | ".join("w = %d" % w for w in others) + " |",
                "| --- |" + " ---: |" * len(others)]
        for row, _, _, _, _ in CASES:
            cells = []
            for w in others:
                a, b = times[1].get(row), times[w].get(row)
                cells.append("%.2f" % (a / b) if a and b else "—")
            out.append("| %s | %s |" % (row, " | ".join(cells)))
        out.append("")
    # Steal-half and coalescing on the DFS cases (Acar et al. section 5).
    ablation = ["### Pseudo-DFS: steal-one vs steal-half, single items vs batches", "",
                "Median time normalised to steal-one with one item per vertex (same queue, "
                "same worker count, one process).  Batches: an item is a slice of up to "
                "256 vertices; with steal-half a lone batch is split for a thief.", "",
                "| case | workers | queue | one | half | one + batches | half + batches "
                "| splits |",
                "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for w in [w for w in workers if w > 1]:
        for _, case, base, kind, _ in DFS:
            size = size_for(kind, base, args.scale)
            qs = ["abp", "chase-lev", "idem-fifo"]
            one = run(binary, case, size, w, args.reps, qs, ["-1", "-N"])
            half = run(binary, case, size, w, args.reps, qs, ["-H", "-N"])
            batch = run(binary, case, size, w, args.reps, qs, ["-1", "-C"])
            coal = run(binary, case, size, w, args.reps, qs, ["-H", "-C"])
            commands += [one[3], half[3], batch[3], coal[3]]
            for q in qs:
                b = one[0][q]
                ablation.append("| %s | %d | %s | 1.00 | %.2f | %.2f | %.2f | %d |" % (
                    case, w, q, half[0][q] / b, batch[0][q] / b, coal[0][q] / b,
                    coal[1][q].get("splits", 0)))
    out += ablation + ["", "### Commands", "", "```"] + commands + ["```", ""]
    text = "\n".join(out)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
