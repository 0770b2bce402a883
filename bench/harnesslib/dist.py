# SPDX-License-Identifier: Apache-2.0
"""python3 bench/harness.py dist: UTS on the distributed work pool
(weft::dist, uts-dist under mpirun) beside the shared-memory pool and
fork-join uts at the same core count (docs/distributed.md).

For each tree (T1L and T3L by default; --size small: T1 and T3) and each
repetition, back to back: uts-seq (T_S), uts-weft -w 2 (fork-join),
uts-dist --pool -w 2 (the shared-memory pool, weft_pool_run, no MPI), and
uts-dist under mpirun as 1 rank x 2 workers, 2 ranks x 1 worker and 4 ranks
x 1 worker (4 ranks on a 2-core machine are oversubscribed: the table says
so).  The MPI runs stay on this machine: shared memory and TCP on the
loopback device (tests/dist/mpirun.sh's settings), ranks not bound to a
core (Open MPI binds each of one or two ranks to a single core by default,
which would crowd a rank's workers onto it).  Prints a table of
median times, speedups over uts-seq, steal requests, items shipped, and
each rank's idle time, the commands to re-run it, and writes
<out>/<date>-dist.json.
"""
import os
import re
import shlex
import shutil
import statistics
import sys
import time

from . import build as builder
from . import output
from .options import ROOT, command_parser, positive_int, result_stem
from .measure import Progress, RunFailure, run_checked
from .parse import parse_time
from .report import fmt_ratio, render
from .util import log

TREES = {
    "paper": [("T1L", "-t 1 -a 3 -d 13 -b 4 -r 29"), ("T3L", "-t 0 -b 2000 -q 0.200014 -m 5 -r 7")],
    "small": [("T1", "-t 1 -a 3 -d 10 -b 4 -r 19"), ("T3", "-t 0 -b 2000 -q 0.124875 -m 8 -r 42")],
}
# (label, ranks or None for a program without MPI, workers per rank)
CONFIGS = [
    ("uts-seq", None, 1),
    ("fork-join uts-weft", None, 2),
    ("shared-memory pool", None, 2),
    ("dist 1 rank x 2 workers", 1, 2),
    ("dist 2 ranks x 1 worker", 2, 1),
    ("dist 4 ranks x 1 worker", 4, 1),
]
# Open MPI on this machine only, oversubscribed, as root too.
MPI_ENV = {
    "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
    "OMPI_MCA_btl": "self,vader,tcp", "OMPI_MCA_btl_tcp_if_include": "lo",
    "OMPI_MCA_oob_tcp_if_include": "lo", "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
}

_RANK_RE = re.compile(
    r"^(Rank \d+|Dist): processed (\d+), steal requests sent (\d+) failed (\d+) served (\d+) "
    r"refused (\d+), lifelines (\d+) pushes (\d+), items shipped (\d+) received (\d+), bytes "
    r"shipped (\d+), messages (\d+), idle ([0-9.]+) ms, comm cpu ([0-9.]+) ms$", re.M)
_FIELDS = ["processed", "requests", "failed", "served", "refused", "lifelines", "pushes",
           "shipped", "received", "bytes", "messages", "idle_ms", "comm_cpu_ms"]


def parse_dist_output(text):
    """{'time': s, 'ranks': [{field: n}], 'total': {field: n}} from uts-dist."""
    ranks, total = [], None
    for m in _RANK_RE.finditer(text):
        values = [int(v) for v in m.groups()[1:12]] + [float(m.group(13)), float(m.group(14))]
        entry = dict(zip(_FIELDS, values))
        if m.group(1) == "Dist":
            total = entry
        else:
            ranks.append(entry)
    return {"time": parse_time(text), "ranks": ranks, "total": total}


def make_parser():
    ap = command_parser(
        "dist", "UTS on the distributed work pool (uts-dist under mpirun) beside the "
        "shared-memory pool and fork-join uts at 2 cores (docs/distributed.md).",
        ["python3 bench/harness.py dist --reps 5              # T1L and T3L",
         "python3 bench/harness.py dist --size small --reps 1  # T1 and T3, a quick look"],
        None)
    ap.add_argument("--reps", type=positive_int, default=3, help="repetitions (default 3)")
    ap.add_argument("--size", choices=sorted(TREES), default="paper",
                    help="paper: T1L and T3L (default); small: T1 and T3")
    ap.add_argument("--poll-us", type=positive_int, default=None,
                    help="uts-dist --poll-us (default: the library's)")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    return ap


def commands_for(bench_dir, mpiexec, flags, poll_us):
    """{label: argv} of one tree."""
    tree = shlex.split(flags)
    extra = ["--poll-us", str(poll_us)] if poll_us else []
    dist = os.path.join(bench_dir, "uts-dist")
    cmds = {}
    for label, ranks, workers in CONFIGS:
        if label == "uts-seq":
            cmds[label] = [os.path.join(bench_dir, "uts-seq")] + tree
        elif label.startswith("fork-join"):
            cmds[label] = [os.path.join(bench_dir, "uts-weft"), "-w", str(workers)] + tree
        elif ranks is None:
            cmds[label] = [dist, "-w", str(workers), "--pool"] + tree
        else:
            # --bind-to none: Open MPI binds a rank to one core when it runs
            # one or two ranks, which would put a rank's workers on one core.
            cmds[label] = ([mpiexec, "--oversubscribe", "--bind-to", "none", "-np", str(ranks),
                            dist, "-w", str(workers)] + extra + tree)
    return cmds


def main(argv):
    ap = make_parser()
    args = ap.parse_args(argv)
    args.build_root = os.path.abspath(args.build_root)
    started = time.monotonic()
    cores = os.cpu_count() or 1
    try:
        if not args.no_deps:
            builder.install_deps(ROOT, args.build_root, False)
        scheduler = builder.known_schedulers(ROOT)[0]
        targets = ("uts-seq", "uts-weft", "uts-dist")
        if args.no_build:
            build_dir = builder.weft_build_dir(args.build_root, scheduler, False)
        else:
            build_dir, reason = builder.build_weft(ROOT, args.build_root, scheduler, False,
                                                   jobs=args.jobs, targets=targets)
            if build_dir is None:
                raise RunFailure(f"weft could not be configured: {reason}")
        bench_dir = os.path.join(build_dir, "bench")
        for t in targets:
            if not os.access(os.path.join(bench_dir, t), os.X_OK):
                raise RunFailure(f"{bench_dir}/{t} does not exist (uts-dist needs MPI: "
                                 "openmpi-bin and libopenmpi-dev)")
        mpiexec = shutil.which("mpiexec") or shutil.which("mpirun")
        if mpiexec is None:
            raise RunFailure("no mpiexec or mpirun on PATH (Debian: openmpi-bin)")
        os.environ.update(MPI_ENV)
        trees = TREES[args.size]
        progress = Progress(len(trees) * len(CONFIGS) * args.reps)
        log(f"[run] {', '.join(t for t, _ in trees)}: {len(CONFIGS)} configurations, "
            f"{args.reps} repetition(s), on {cores} cores")
        results, commands = {}, []
        for name, flags in trees:
            cmds = commands_for(bench_dir, mpiexec, flags, args.poll_us)
            commands += [shlex.join(c) for c in cmds.values()]
            runs = {label: [] for label in cmds}
            for rep in range(args.reps):
                for label, cmd in cmds.items():
                    progress.step(f"{name} {label} (rep {rep + 1})")
                    runs[label].append(parse_dist_output(run_checked(label, cmd, args.timeout)))
            results[name] = runs
    except (RunFailure, builder.BuildError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1

    md = args.markdown
    out = []
    for name, runs in results.items():
        ts = statistics.median(r["time"] for r in runs["uts-seq"])
        rows = []
        for label, ranks, workers in CONFIGS:
            rs = runs[label]
            t = statistics.median(r["time"] for r in rs)
            median_run = min(rs, key=lambda r: abs(r["time"] - t))
            total = median_run["total"] or {}
            threads = (ranks or 1) * workers
            note = " (oversubscribed)" if threads > cores else ""
            idle = " / ".join(f"{r['idle_ms']:.0f}" for r in median_run["ranks"]) or "—"
            rows.append([label + note, f"{t:.3f}", fmt_ratio(ts / t) if t else "—",
                         str(total.get("requests", "—")), str(total.get("shipped", "—")),
                         idle, f"{total['comm_cpu_ms']:.0f}" if total else "—"])
        out += ([f"### {name}", ""] if md else [f"== {name}"])
        out += [render(["configuration", "time (s)", "speedup vs uts-seq", "steal requests",
                        "items shipped", "idle per rank (ms)", "comm cpu (ms)"], rows, left=1,
                       markdown=md), ""]
        two = statistics.median(r["time"] for r in runs["dist 2 ranks x 1 worker"])
        one = statistics.median(r["time"] for r in runs["dist 1 rank x 2 workers"])
        out += [f"2 ranks x 1 worker / 1 rank x 2 workers: {two / one:.3f} (target <= 1.10)", ""]
    out += (["### Commands", "", "```"] if md else ["== Commands"])
    env = " ".join(f"{k}={v}" for k, v in MPI_ENV.items())
    out += [f"{'' if md else '  '}export {env}"]
    out += [("" if md else "  ") + c for c in dict.fromkeys(commands)]
    if md:
        out += ["```"]
    print("\n".join(out))
    run = {"command": "dist", "reps": args.reps, "size": args.size, "cores": cores,
           "options": {"argv": list(argv), "timeout": args.timeout},
           "machine": output.machine_info(ROOT), "builds": {os.path.basename(build_dir): build_dir},
           "results": results, "commands": list(dict.fromkeys(commands))}
    stem = result_stem(args.out, "dist")
    output.write_json(stem + ".json", run)
    log(f"[out] {stem}.json\n[done] {time.monotonic() - started:.0f} s")
    return 0
