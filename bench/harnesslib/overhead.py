# SPDX-License-Identifier: Apache-2.0
"""python3 bench/harness.py overhead: the per-task overhead and the steal
cost of each scheduler, measured on the suite's own builds (one
build-bench-<scheduler> tree each, counters off).

For every scheduler, in one run:
  - (T_1 - T_S) / tasks: fib-seq n and fib-weft -w 1 n, --reps repetitions,
    every scheduler's runs interleaved within a repetition; medians, and
    the same from the fastest run of each (noise on a shared machine only
    slows a run down, so the two estimates bracket the truth);
  - instructions per task with callgrind (repeatable, whatever the load):
    (I(fib-weft -w 1 m) - I(fib-seq m)) / tasks(m), m = --callgrind-n;
  - the steal+join cost at 2 workers from bench/stealcost (Wool's Table
    III): the median over the repetitions of stealcost's own median.  The
    leaf is short (2000 additions, ~1 µs) on purpose: the time of the same
    leaf varies up to 2x between runs and cores on shared machines, and
    steal+join is the tree minus the leaf, so a long leaf buries it.
tasks = SPAWNs = calls of fib with n >= 2 = F(n+1) - 1.

Prints a table (--markdown: as docs/schedulers.md carries it) and writes
<out>/<date>-overhead.json.
"""
import os
import re
import shlex
import sys
import time

from . import build as builder
from . import output
from .options import ROOT, command_parser, positive_int, resolve_schedulers, result_stem
from .measure import Progress, RunFailure, execute, failure_text, run_timed
from .report import fmt_duration, fmt_ratio, negative_overhead_note, render
from .stats import median_or_none, ratio_median
from .util import log, tail
from .weftbuilds import build_info, prepare_weft

TARGETS = ("fib-seq", "fib-weft", "stealcost-weft")
STEAL_WORKERS = 2


def make_parser():
    ap = command_parser(
        "overhead", "Per-task overhead (ns and callgrind instructions, on fib) and steal+join "
        "cost (bench/stealcost at 2 workers) of each weft scheduler.",
        ["python3 bench/harness.py overhead --reps 21 --markdown"], "all")
    ap.add_argument("--n", type=positive_int, default=40, help="fib input of the timed runs "
                    "(default 40)")
    ap.add_argument("--callgrind-n", type=positive_int, default=27, help="fib input under "
                    "callgrind (default 27)")
    ap.add_argument("--reps", type=positive_int, default=7, help="repetitions (default 7)")
    ap.add_argument("--stealcost", default="2000 20001", help="stealcost's arguments: "
                    "<leaf-iterations> <repetitions> (default '2000 20001')")
    ap.add_argument("--no-callgrind", action="store_true", help="leave out the instruction "
                    "counts (valgrind is then not needed)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    return ap


def fib_tasks(n):
    """SPAWNs of fib(n): one per call with n >= 2, F(n+1) - 1 in all."""
    a, b = 0, 1  # F(0), F(1)
    for _ in range(n + 1):
        a, b = b, a + b
    return a - 1


_COLLECTED_RE = re.compile(r"Collected\s*:\s*([0-9]+)")
_STEAL_JOIN_RE = re.compile(r"^steal\+join:\s*([0-9.]+)\s*ns", re.M)


def parse_collected(text):
    """The instruction count of callgrind's `Collected :` line, or None."""
    m = _COLLECTED_RE.search(text)
    return int(m.group(1)) if m else None


def parse_steal_join(text):
    """stealcost's `steal+join: <ns> ns` in ns, or None (`n/a`: the leaves
    never ran on different workers)."""
    m = _STEAL_JOIN_RE.search(text)
    return float(m.group(1)) if m else None


def callgrind_instructions(who, cmd, timeout):
    full = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    code, out, err = execute(full, timeout)
    if code != 0:
        raise RunFailure(failure_text(who, full, code, out, err, timeout))
    count = parse_collected(err + out)
    if count is None:
        raise RunFailure(f"{who}: `{shlex.join(full)}` printed no 'Collected' line:\n"
                         f"{tail(err + out, 10)}")
    return count


def summarise(name, ts, t1, steal_runs, tasks, instructions, callgrind_tasks):
    """One row: medians, fastest-run estimates, instructions and steal cost."""
    mts, mt1 = median_or_none(ts), median_or_none(t1)
    row = {"scheduler": name, "T_S": mts, "T_1": mt1, "T1_over_TS": ratio_median(t1, ts),
           "ns_per_task": (mt1 - mts) / tasks * 1e9,
           "T1_over_TS_min": min(t1) / min(ts),
           "ns_per_task_min": (min(t1) - min(ts)) / tasks * 1e9,
           "steal_join_ns": median_or_none(steal_runs), "steal_join_runs": steal_runs,
           "times_seq": ts, "times_t1": t1}
    if instructions:
        iseq, iweft = instructions
        row.update(instr_seq=iseq, instr_weft=iweft,
                   instr_per_task=(iweft - iseq) / callgrind_tasks)
    return row


def overhead_note(row):
    """negative_overhead_note for a row (its times as a suite record)."""
    record = {"seq": row["times_seq"],
              "systems": {"weft": {"times": {"1": row["times_t1"]}}}}
    return negative_overhead_note(record, "weft")


def table(rows, markdown=False):
    head = ["scheduler", "T_S", "T_1", "T_1/T_S", "(T_1-T_S)/task",
            "fastest runs: T_1/T_S", "fastest: (T_1-T_S)/task", "instructions/task",
            f"steal+join at {STEAL_WORKERS} workers"]
    lines, notes = [], []
    for r in rows:
        per_task = fmt_duration(r["ns_per_task"] * 1e-9)
        note = overhead_note(r)
        if note:
            per_task += " *"
            notes.append(f"* {r['scheduler']}: {note}")
        lines.append([r["scheduler"], fmt_duration(r["T_S"]), fmt_duration(r["T_1"]),
                      fmt_ratio(r["T1_over_TS"]), per_task, fmt_ratio(r["T1_over_TS_min"]),
                      fmt_duration(r["ns_per_task_min"] * 1e-9),
                      "-" if r.get("instr_per_task") is None else f"{r['instr_per_task']:.1f}",
                      "n/a" if r["steal_join_ns"] is None
                      else fmt_duration(r["steal_join_ns"] * 1e-9)])
    gap = [""] if notes else []  # (in Markdown, the notes would be a table row)
    return "\n".join([render(head, lines, left=1, markdown=markdown)] + gap + notes)


def main(argv):
    ap = make_parser()
    args = ap.parse_args(argv)
    args.build_root = os.path.abspath(args.build_root)
    try:
        steal_args = shlex.split(args.stealcost)
    except ValueError as e:
        ap.error(f"--stealcost: {e}")
    started = time.monotonic()
    tasks, callgrind_tasks = fib_tasks(args.n), fib_tasks(args.callgrind_n)
    try:
        if not args.no_deps:
            builder.install_deps(ROOT, args.build_root, False,
                                 packages=() if args.no_callgrind else ("valgrind",))
        schedulers = resolve_schedulers(ap, args.schedulers)
        if not args.no_callgrind and not builder.have_program("valgrind"):
            raise RunFailure("valgrind is not installed (it counts the instructions; "
                             "--no-callgrind leaves them out)")
        systems, skipped, flags = prepare_weft(args, schedulers, False, targets=TARGETS)
        if not systems:
            raise RunFailure("no weft scheduler could be built: " + "; ".join(
                f"{s}: {why}" for s, why in skipped.items()))
        per_rep = 3
        progress = Progress(len(systems) * (args.reps * per_rep
                                            + (0 if args.no_callgrind else 2)))
        log(f"[run] {len(systems)} scheduler(s) x {args.reps} repetition(s): fib {args.n} "
            f"sequential and -w 1, stealcost -w {STEAL_WORKERS} {args.stealcost}"
            + ("" if args.no_callgrind else f"; then fib {args.callgrind_n} under callgrind"))
        times = {s.name: ([], [], []) for s in systems}
        for rep in range(args.reps):
            for s in systems:
                ts, t1, steal = times[s.name]
                where = f"{s.name} rep {rep + 1}/{args.reps}"
                seq = [os.path.join(s.build_dir, "bench", "fib-seq"), str(args.n)]
                progress.step(f"{where}: fib-seq {args.n}")
                ts.append(run_timed("sequential", seq, args.timeout)[0])
                progress.step(f"{where}: fib-weft -w 1 {args.n}")
                t1.append(run_timed(s.name, s.command("fib", 1, [str(args.n)]), args.timeout)[0])
                progress.step(f"{where}: stealcost-weft -w {STEAL_WORKERS}")
                _, out = run_timed(s.name, s.command("stealcost", STEAL_WORKERS, steal_args),
                                   args.timeout)
                cost = parse_steal_join(out)
                if cost is not None:
                    steal.append(cost)
        rows = []
        for s in systems:
            instructions = None
            if not args.no_callgrind:
                n = str(args.callgrind_n)
                progress.step(f"{s.name}: callgrind fib-seq {n}")
                iseq = callgrind_instructions(
                    "sequential", [os.path.join(s.build_dir, "bench", "fib-seq"), n], args.timeout)
                progress.step(f"{s.name}: callgrind fib-weft -w 1 {n}")
                iweft = callgrind_instructions(s.name, s.command("fib", 1, [n]), args.timeout)
                instructions = (iseq, iweft)
            rows.append(summarise(s.scheduler, *times[s.name], tasks=tasks,
                                  instructions=instructions, callgrind_tasks=callgrind_tasks))
    except (RunFailure, builder.BuildError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1

    print(f"Per-task overhead and steal cost: fib({args.n}) = {tasks:,} tasks timed (medians "
          f"of {args.reps} repetitions, sequential and weft interleaved; T_1/T_S: median of "
          f"per-repetition ratios)"
          + ("" if args.no_callgrind else
             f"; fib({args.callgrind_n}) = {callgrind_tasks:,} tasks under callgrind")
          + f"; stealcost -w {STEAL_WORKERS} {args.stealcost} (median of {args.reps} runs of "
          f"its own median).\n")
    print(table(rows, args.markdown))
    for s, why in skipped.items():
        print(f"\nskipped {s}: {why}")
    run = {"command": "overhead", "reps": args.reps, "fib_n": args.n,
           "callgrind_n": None if args.no_callgrind else args.callgrind_n,
           "stealcost_args": args.stealcost, "steal_workers": STEAL_WORKERS,
           "options": {"argv": list(argv), "schedulers": schedulers, "timeout": args.timeout},
           "machine": output.machine_info(ROOT), **build_info(systems, flags),
           "skipped_schedulers": skipped, "rows": rows}
    stem = result_stem(args.out, "overhead")
    output.write_json(stem + ".json", run)
    log(f"[out] {stem}.json\n[done] {time.monotonic() - started:.0f} s")
    return 0
