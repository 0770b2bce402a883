# SPDX-License-Identifier: Apache-2.0
"""python3 bench/harness.py pool: every work-pool case on every queue,
as the tables of docs/results/pool.md, shaped like the appendix of
"Work-stealing Queues In Practice": one table per worker count, a row per
case, a column per queue, each entry the median time normalised to ABP's
median in the same run; the counters behind them; ABP's speedup across
worker counts; and Acar et al.'s steal-half and batching on the DFS cases.

Each (case, worker count) is one pool-bench process (built in the default
scheduler's build-bench tree; the pool does not depend on the scheduler):
the input is built once, then the repetitions run interleaved over all
queues (rep 1 on every queue, rep 2 on every queue, ...), so that a noisy,
shared machine slows all queues alike.  Ratios are only comparable within
one table.  --scale multiplies the case sizes (R-MAT: adds log2(scale) to
its scale; the grid: scale^(1/3) to its side).

Prints the tables (--markdown: as docs/results/pool.md carries them) and
writes <out>/<date>-pool.json.
"""
import math
import os
import re
import shlex
import sys
import time

from . import build as builder
from . import output
from .options import (ROOT, command_parser, parse_workers, positive_float, positive_int,
                  resolve_schedulers, result_stem)
from .measure import Progress, RunFailure, run_checked
from .report import fmt_ratio, render
from .util import log

# The rows of the paper's tables: (row, case, extra pool-bench options).
ROWS = [
    ("raw", "raw", []),
    ("quicksort", "quicksort", []),
    ("spanning (rlg)", "spanning", []),
    ("spanning (grid)", "spanning", ["-g", "grid"]),
    ("spanning (rmat)", "spanning", ["-g", "rmat"]),
    ("xml", "xml", []),
    ("dfs-grid", "dfs-grid", []),
    ("dfs-rlg", "dfs-rlg", []),
    ("dfs-rmat", "dfs-rmat", []),
]
BASE = "abp"  # every ratio is normalised to this queue
# The steal-half and batching comparison: these queues, four ways each.
ABLATION_QUEUES = ["abp", "chase-lev", "idem-fifo"]
ABLATION = [("one", ["-1", "-N"]), ("half", ["-H", "-N"]), ("one + batches", ["-1", "-C"]),
            ("half + batches", ["-H", "-C"])]
# Column names of the tables (a queue missing here is shown by its own name).
SHORT = {"abp": "ABP", "chase-lev": "Chase-Lev", "chase-lev-shrink": "CL shrink",
         "idem-lifo": "Idem LIFO", "idem-fifo": "Idem FIFO", "idem-deque": "Idem deque",
         "duplicating": "Duplicating", "central": "Central"}


def make_parser():
    ap = command_parser(
        "pool", "The work pool's queues on the cases of \"Work-stealing Queues In Practice\" "
        "and Acar et al.'s pseudo-DFS, normalised to ABP (docs/results/pool.md).",
        ["python3 bench/harness.py pool --reps 7 --workers 1,2,8 --markdown",
         "python3 bench/harness.py pool --scale 0.01 --reps 1 --workers 1,2   # a quick look"],
        None)
    ap.add_argument("--reps", type=positive_int, default=5, help="repetitions in each "
                    "pool-bench process (default 5)")
    ap.add_argument("--workers", type=parse_workers, default=[1, 2, 8],
                    help="comma-separated worker counts (default 1,2,8)")
    ap.add_argument("--scale", type=positive_float, default=1.0, help="multiplies the case "
                    "sizes (default 1: the paper's)")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    return ap


def parse_case_list(text):
    """{case: (default size, kind)} from `pool-bench -l`, where kind says
    what the size counts: 'scale' (log2 of the vertices), 'side' (of a
    cube) or 'n' (items)."""
    cases = {}
    for line in text.splitlines():
        m = re.match(r"(\S+)\s+size = (.*) \(default (\d+)\)", line)
        if m:
            doc = m.group(2)
            kind = "scale" if doc.startswith("scale") else "side" if doc.startswith("side") else "n"
            cases[m.group(1)] = (int(m.group(3)), kind)
    return cases


def scaled_size(kind, base, scale):
    if kind == "scale":
        return max(8, base + int(round(math.log2(scale))))
    if kind == "side":
        return max(4, int(round(base * scale ** (1 / 3))))
    return max(1000, int(base * scale))


def parse_pool_output(text):
    """What one pool-bench process printed: {queues: in pool-bench's order,
    medians: {queue: s}, times: {queue: [s per rep]}, counters: {queue:
    {name: n}} (of the median run), refused: [queues]}."""
    queues, medians, times, counters, refused = [], {}, {}, {}, []
    current = None
    for line in text.splitlines():
        m = re.match(r"rep (\d+) (\S+)\s+([0-9.]+) s", line)
        if m:
            q = m.group(2)
            if q not in queues:
                queues.append(q)
            times.setdefault(q, []).append(float(m.group(3)))
            continue
        m = re.match(r"refused: case \S+ is not idempotent and queue (\S+)", line)
        if m:
            if m.group(1) not in queues:
                queues.append(m.group(1))
            refused.append(m.group(1))
            continue
        m = re.match(r"Time (\S+): ([0-9.]+)", line)
        if m:
            medians[m.group(1)] = float(m.group(2))
            current = None
            continue
        m = re.match(r"counters (\S+) ", line)
        if m:
            current = m.group(1)
            counters[current] = {}
        elif current:
            counters[current].update({k: int(v) for k, v in re.findall(r"(\w+) (\d+)", line)})
    return {"queues": queues, "medians": medians, "times": times, "counters": counters,
            "refused": refused}


class Runner:
    """Runs pool-bench and keeps every command it ran."""

    def __init__(self, binary, reps, timeout, progress):
        self.binary, self.reps, self.timeout, self.progress = binary, reps, timeout, progress
        self.commands = []

    def run(self, case, size, workers, queues, extra=()):
        args = ["-c", case, "-q", queues, "-w", str(workers), "-n", str(size),
                "-r", str(self.reps)] + list(extra)
        text = shlex.join(["pool-bench"] + args)
        self.progress.step(text)
        self.commands.append(text)
        result = parse_pool_output(run_checked("pool-bench", [self.binary] + args, self.timeout))
        result["command"] = text
        return result


def _heading(title, markdown):
    return ["### " + title, ""] if markdown else ["== " + title]


def queue_columns(results):
    """Every queue any row ran, in pool-bench's order."""
    names = []
    for _, r in results:
        names += [q for q in r["queues"] if q not in names]
    return names


def ratio_table(results, markdown):
    queues = queue_columns(results)
    rows = []
    for row, r in results:
        base = r["medians"].get(BASE)
        rows.append([row] + ["refused" if q in r["refused"] else
                             fmt_ratio(r["medians"][q] / base) if q in r["medians"] and base
                             else "—" for q in queues])
    return render(["case"] + [SHORT.get(q, q) for q in queues], rows, left=1, markdown=markdown)


def counter_table(results, fields, markdown):
    queues = queue_columns(results)
    rows = []
    for row, r in results:
        rows.append([row] + ["—" if q in r["refused"] or q not in r["counters"] else
                             " / ".join(str(r["counters"][q].get(f, 0)) for f in fields)
                             for q in queues])
    return render(["case"] + [SHORT.get(q, q) for q in queues], rows, left=1, markdown=markdown)


def speedup_table(by_workers, workers, markdown):
    """ABP's 1-worker median over its w-worker median, per case."""
    others = [w for w in workers if w != 1]
    rows = []
    for row, _, _ in ROWS:
        cells = []
        for w in others:
            a = by_workers[1].get(row, {}).get("medians", {}).get(BASE)
            b = by_workers[w].get(row, {}).get("medians", {}).get(BASE)
            cells.append(fmt_ratio(a / b) if a and b else "—")
        rows.append([row] + cells)
    return render(["case"] + [f"w = {w}" for w in others], rows, left=1, markdown=markdown)


def main(argv):
    ap = make_parser()
    args = ap.parse_args(argv)
    args.build_root = os.path.abspath(args.build_root)
    started = time.monotonic()
    workers = args.workers
    try:
        if not args.no_deps:
            builder.install_deps(ROOT, args.build_root, False)
        scheduler = resolve_schedulers(ap, "default")[0]
        if args.no_build:
            build_dir = builder.weft_build_dir(args.build_root, scheduler, False)
        else:
            build_dir, reason = builder.build_weft(ROOT, args.build_root, scheduler, False,
                                                   jobs=args.jobs, targets=("pool-bench",))
            if build_dir is None:
                raise RunFailure(f"weft could not be configured: {reason}")
        binary = os.path.join(build_dir, "bench", "pool-bench")
        if not os.access(binary, os.X_OK):
            raise RunFailure(f"{binary} does not exist" + (" (and --no-build)"
                                                            if args.no_build else ""))
        cases = parse_case_list(run_checked("pool-bench -l", [binary, "-l"], args.timeout))
        missing = sorted({case for _, case, _ in ROWS} - set(cases))
        if missing:
            raise RunFailure(f"pool-bench -l does not list the case(s) {', '.join(missing)}")
        size = {case: scaled_size(kind, base, args.scale) for case, (base, kind) in cases.items()}
        dfs = [(row, case) for row, case, _ in ROWS if case.startswith("dfs-")]
        parallel = [w for w in workers if w > 1]
        progress = Progress(len(workers) * len(ROWS)
                            + len(parallel) * len(dfs) * len(ABLATION))
        log(f"[run] {len(ROWS)} cases x workers {','.join(map(str, workers))}, {args.reps} "
            f"repetition(s) each, every queue; then steal-half and batches on the DFS cases")
        runner = Runner(binary, args.reps, args.timeout, progress)
        by_workers = {}
        for w in workers:
            by_workers[w] = {row: runner.run(case, size[case], w, "all", extra)
                             for row, case, extra in ROWS}
        ablation = []
        for w in parallel:
            for row, case in dfs:
                variants = {name: runner.run(case, size[case], w, ",".join(ABLATION_QUEUES), opts)
                            for name, opts in ABLATION}
                ablation.append({"case": row, "workers": w, "variants": variants})
    except (RunFailure, builder.BuildError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1

    md = args.markdown
    out = []
    if md:
        out += [f"<!-- generated by python3 bench/harness.py pool --reps {args.reps} --workers "
                f"{','.join(map(str, workers))} --scale {args.scale:g} -->", ""]
    for w in workers:
        label = f"{w} worker{'s' if w > 1 else ''}"
        results = list(by_workers[w].items())
        out += _heading(f"{label}: median time normalised to ABP", md)
        out += [ratio_table(results, md), ""]
        out += _heading(f"{label}: steals / empty / aborted / duplicated items", md)
        out += [counter_table(results, ["steals", "steal_empty", "steal_aborts", "duplicates"],
                              md), ""]
        out += _heading(f"{label}: grows / shrinks / arrays reclaimed / overflows / sleeps", md)
        out += [counter_table(results, ["grows", "shrinks", "reclaimed", "overflows", "sleeps"],
                              md), ""]
    if 1 in workers and len(workers) > 1:
        # Separate processes, minutes apart: less reliable than the ratios
        # within a table.
        out += _heading("ABP: 1-worker time / w-worker time (across the runs above)", md)
        out += [speedup_table(by_workers, workers, md), ""]
    if ablation:
        out += _heading("Pseudo-DFS: steal-one vs steal-half, single items vs batches", md)
        out += ["Median time normalised to steal-one with one item per vertex (same queue, "
                "same worker count, one process).  Batches: an item is a slice of up to 256 "
                "vertices; with steal-half a lone batch is split for a thief.", ""]
        rows = []
        for a in ablation:
            v = a["variants"]
            for q in ABLATION_QUEUES:
                one = v["one"]["medians"].get(q)
                rows.append([a["case"], str(a["workers"]), q]
                            + [fmt_ratio(v[name]["medians"][q] / one)
                               if one and q in v[name]["medians"] else "—"
                               for name, _ in ABLATION]
                            + [str(v["half + batches"]["counters"].get(q, {}).get("splits", 0))])
        head = ["case", "workers", "queue"] + [name for name, _ in ABLATION] + ["splits"]
        table = render(head, rows, left=3, markdown=md)
        if md:  # the workers column is a number: right-aligned as before
            table = table.replace("| --- | --- | --- |", "| --- | ---: | --- |", 1)
        out += [table, ""]
    out += _heading("Commands", md)
    out += (["```"] + runner.commands + ["```"]) if md else ["  " + c for c in runner.commands]
    print("\n".join(out))

    run = {"command": "pool", "reps": args.reps, "workers": workers, "scale": args.scale,
           "sizes": size, "options": {"argv": list(argv), "timeout": args.timeout},
           "machine": output.machine_info(ROOT), "builds": {os.path.basename(build_dir): build_dir},
           "cmake_flags": {os.path.basename(build_dir): builder.weft_cmake_flags(scheduler, False)},
           "results": {str(w): [{"row": row, **r} for row, r in by_workers[w].items()]
                       for w in workers},
           "ablation": ablation, "commands": runner.commands}
    stem = result_stem(args.out, "pool")
    output.write_json(stem + ".json", run)
    log(f"[out] {stem}.json\n[done] {time.monotonic() - started:.0f} s")
    return 0
