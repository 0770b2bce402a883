# SPDX-License-Identifier: Apache-2.0
"""The benchmark suite, what `python3 bench/harness.py` runs without a
command: builds weft and the peers, runs the catalog's workloads
interleaved, prints the tables of harnesslib/report.py and writes JSON,
CSV and plots (docs/benchmarks.md)."""
import argparse
import os
import sys
import time

from . import build as builder
from . import catalog as cat
from . import observe, output, report
from .load import OtherLoad
from .options import (ROOT, add_common_options, commands_epilog, parse_workers, positive_float,
                  positive_int, resolve_schedulers, result_stem)
from .measure import FAILED, Progress, RunFailure, count_runs, measure_job, measure_micro
from .systems import (LACE_PEERS, PEERS, CppApiSystem, LaceApiSystem, SeqSystem, parse_peer_list,
                      prepare_peers)
from .util import log, usable_cpus
from .weftbuilds import build_info, prepare_weft

EPILOG = """examples:
  python3 bench/harness.py                      # deps, builds, the quick suite, peers
  python3 bench/harness.py --list               # every benchmark and its sizes
  python3 bench/harness.py --suite targets      # the figures weft promises (+ host ceiling)
  python3 bench/harness.py --bench fib,uts-T3L --size medium --workers 1,2 --reps 7
  python3 bench/harness.py --peers tbb,rayon --schedulers all
  python3 bench/harness.py --profile --peers none   # + work, span, parallelism per benchmark
  python3 bench/harness.py --trace fib              # a timeline of fib: JSON and PNG

""" + commands_epilog() + """

See docs/benchmarks.md."""


def default_workers():
    usable = usable_cpus()
    counts, w = [], 1
    while w < usable:
        counts.append(w)
        w *= 2
    return counts + [usable]


def make_parser():
    ap = argparse.ArgumentParser(
        prog="harness.py", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG,
        usage="%(prog)s [overhead|pool|dist|clients] [options]",
        description="Builds weft's benchmarks and the peers, runs them interleaved and prints "
                    "times, speedups, counters and granularity; writes JSON, CSV and plots.")
    ap.add_argument("--list", action="store_true", help="print every benchmark entry with its "
                    "sizes and exit")
    ap.add_argument("--bench", help="comma-separated entries (default: the suite's)")
    ap.add_argument("--suite", choices=cat.SUITES, help="quick (default): the entries marked "
                    "quick at their quick input; medium; paper: the papers' sizes; targets: the "
                    "figures weft promises, with the host ceiling")
    ap.add_argument("--size", choices=cat.SIZES, help="run every selected entry at this size "
                    "(without --suite: every entry that has it)")
    ap.add_argument("--workers", type=parse_workers, help="comma-separated worker counts "
                    "(default: 1, powers of two, and the number of usable CPUs)")
    ap.add_argument("--reps", type=positive_int, help="repetitions (default: quick 3, medium 5, "
                    "paper 3, targets 5)")
    ap.add_argument("--peers", help=f"all, none, or a comma-separated list of {','.join(PEERS)} "
                    "(default: all; none for --suite targets)")
    ap.add_argument("--lace-api", action="store_true", help="also run the Lace-API programs "
                    "(<binary>-lace of the first scheduler's build) as system weft-lace-api")
    ap.add_argument("--cpp-api", action="store_true", help="also run the C++-API programs "
                    "(<binary>-cpp of the first scheduler's build) as system weft-cpp")
    ap.add_argument("--lace-src", metavar="DIR", help="a Lace 1.4.2 source (trolando/lace at "
                    "v1.4.2): its own benchmark programs, built by its own CMake, run as peer "
                    "lace-1.4.2 where they match a workload")
    ap.add_argument("--lace2-src", metavar="DIR", help="a Lace 2.0.3 source (Augists/lace at "
                    "56d1c65): likewise, peer lace-2.0.3")
    add_common_options(ap, "default")
    ap.add_argument("--no-plots", action="store_true", help="write no PNG plots")
    ap.add_argument("--no-counters", action="store_true", help="no counters build and runs "
                    "(tables 2 and 3 stay empty)")
    ceiling = ap.add_mutually_exclusive_group()
    ceiling.add_argument("--ceiling", dest="ceiling", action="store_true", default=None,
                         help="also run P sequential copies at once (the host ceiling column); "
                              "on by default in the targets suite only")
    ceiling.add_argument("--no-ceiling", dest="ceiling", action="store_false")
    group = ap.add_argument_group("observing (docs/profiling.md)")
    group.add_argument("--profile", action="store_true", help="also run every benchmark three "
                       "times in a profiling build (-DWEFT_PROFILE=ON) of the first scheduler: "
                       "work, span, parallelism and burdened parallelism beside the measured "
                       "speedup")
    group.add_argument("--burden-ns", type=positive_float, help="with --profile: the steal cost "
                       "charged per SPAWN edge (default: stealcost's steal+join here)")
    group.add_argument("--trace", metavar="BENCH", help="instead of the suite: run one benchmark "
                       "(its input from --size or the quick suite) in a tracing build at the "
                       "largest worker count; write its trace (Chrome Trace Event JSON, for "
                       "Perfetto) and a PNG of it")
    return ap


def check_binaries(jobs, seq, weft_systems):
    """Every selected workload must have its weft binaries: a missing one
    is a build problem, not something to skip quietly."""
    missing = []
    for job in jobs:
        paths = [seq.path(job.entry.binary)]
        for s in weft_systems:
            paths.append(s.command(job.entry.binary, 1, [])[0])
            if s.counters_dir:
                paths.append(s.command(job.entry.binary, 1, [], counters=True)[0])
        missing += [f"{job.entry.name}: {p}" for p in paths if not os.access(p, os.X_OK)]
    if missing:
        raise RunFailure("binaries missing (is the workload's CMakeLists.txt building them?):\n  "
                         + "\n  ".join(missing))


def main(argv=None):
    ap = make_parser()
    args = ap.parse_args(argv)
    args.build_root = os.path.abspath(args.build_root)
    started = time.monotonic()
    try:
        catalog = cat.load_catalog(os.path.join(ROOT, "bench"), warn=lambda m: log(f"[catalog] {m}"))
    except cat.CatalogError as e:
        print(f"harness: bad benchmark catalog: {e}", file=sys.stderr)
        return 2
    if args.list:
        print(cat.format_list(catalog))
        return 0

    if args.trace:
        return trace_main(args, ap, catalog, started)
    suite = args.suite or (None if args.size else "quick")
    label = args.suite or args.size or "quick"
    try:
        names = [n.strip() for n in args.bench.split(",") if n.strip()] if args.bench else None
        jobs, notes = cat.select_jobs(catalog, names, suite, args.size)
        peers_wanted = parse_peer_list(args.peers if args.peers is not None
                                       else ("none" if suite == "targets" else "all"))
    except (cat.CatalogError, ValueError) as e:
        ap.error(str(e))
    workers = args.workers or default_workers()
    reps = args.reps or cat.SUITE_REPS.get(suite, 3)
    ceiling = args.ceiling if args.ceiling is not None else suite == "targets"
    use_counters = not args.no_counters
    if not any(job.entry.peers for job in jobs):
        # No selected workload has ports of ours; Lace's own programs may still match.
        peers_wanted = [p for p in peers_wanted if p in LACE_PEERS]

    try:
        if not args.no_deps:
            builder.install_deps(ROOT, args.build_root, bool(peers_wanted))
        schedulers = resolve_schedulers(ap, args.schedulers)
        plots = not args.no_plots and builder.ensure_matplotlib(not args.no_deps, args.build_root)
        weft_systems, skipped_schedulers, cmake_flags = prepare_weft(args, schedulers, use_counters)
        if not weft_systems:
            raise RunFailure("no weft scheduler could be built: " + "; ".join(
                f"{s}: {why}" for s, why in skipped_schedulers.items()))
        seq = SeqSystem(weft_systems[0].build_dir)
        check_binaries(jobs, seq, weft_systems)
        peers, skipped_peers, peer_builds = ([], {}, {})
        if peers_wanted:
            peers, skipped_peers, peer_builds = prepare_peers(
                ROOT, args.build_root, peers_wanted, build=not args.no_build, jobs=args.jobs,
                lace_sources={"lace": args.lace_src, "lace2": args.lace2_src})
            for p, why in skipped_peers.items():
                log(f"[skip] peer {p}: {why.splitlines()[0] if why else ''}")
        if args.lace_api:
            peers.append(LaceApiSystem(weft_systems[0].build_dir))
        if args.cpp_api:
            peers.append(CppApiSystem(weft_systems[0].build_dir))

        total = count_runs(jobs, weft_systems, peers, workers, reps, use_counters, ceiling)
        log(f"[run] {len(jobs)} benchmark(s) x {reps} repetition(s), workers "
            f"{','.join(map(str, workers))}, systems: "
            f"{', '.join(s.name for s in weft_systems + peers)}; {total} runs")
        progress = Progress(total)
        other_load = OtherLoad()
        records = [measure_job(job, seq, weft_systems, peers, workers, reps, args.timeout,
                               use_counters, ceiling, progress) for job in jobs]
        micro = measure_micro(weft_systems[0].build_dir, max(workers), args.timeout) \
            if suite == "targets" else None
    except (RunFailure, builder.BuildError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    # The profile comes after the timings: a profile that cannot be made
    # (its build refused, say) loses only itself; the run is still written.
    profile, profile_failure = None, None
    if args.profile:
        try:
            profile = observe.profile_suite(args, ROOT, jobs, weft_systems, args.timeout)
        except (RunFailure, builder.BuildError) as e:
            profile_failure = str(e)
            log(f"[profile] failed: {profile_failure.splitlines()[0] if profile_failure else ''}")

    run = {
        "suite": label, "reps": reps, "workers": workers,
        "options": {"argv": sys.argv[1:] if argv is None else list(argv),
                    "schedulers": schedulers, "peers": peers_wanted, "timeout": args.timeout,
                    "ceiling": ceiling, "counters": use_counters},
        "machine": output.machine_info(ROOT),
        **build_info(weft_systems, cmake_flags, peer_builds),
        "skipped_peers": skipped_peers, "skipped_schedulers": skipped_schedulers,
        "notes": notes, "targets": suite == "targets", "micro": micro,
        "results": records,
        "other_load": other_load.result(),
    }
    if profile:
        run["profile"] = profile
    run["medians"] = output.medians(records, workers)
    print(report.full_report(run), flush=True)
    if profile:
        print("\n" + (observe.profile_table(run) or "(no profile results)"), flush=True)

    stem = result_stem(args.out, label)
    output.write_json(stem + ".json", run)
    output.write_csv(stem + ".csv", run)
    log(f"[out] {stem}.json\n[out] {stem}.csv")
    if plots:
        try:
            from .plots import plot_all
            for path in plot_all(run, stem):
                log(f"[out] {path}")
        except Exception as e:  # a plotting problem must not lose the measurements
            log(f"[plots] skipped: {type(e).__name__}: {e}")
    failed = [f"{name} on {r['benchmark']}: {s['message']}" for r in records
              for name, s in r["systems"].items() if s["status"] == FAILED]
    log(f"[done] {time.monotonic() - started:.0f} s")
    if failed:
        print("FAILED: peer runs failed (see the tables):\n  " + "\n  ".join(failed),
              file=sys.stderr)
        return 1
    if profile_failure:
        print(f"FAILED: the profile: {profile_failure}", file=sys.stderr)
        return 1
    return 0


def trace_main(args, ap, catalog, started):
    """--trace BENCH: one benchmark traced, its JSON and PNG."""
    try:
        jobs, _ = cat.select_jobs(catalog, [args.trace], None if args.size else "quick",
                                  args.size)
    except (cat.CatalogError, ValueError) as e:
        ap.error(str(e))
    if not jobs:
        ap.error(f"--trace {args.trace}: no input of that benchmark in the chosen suite or size")
    job = jobs[0]
    workers = max(args.workers or default_workers())
    try:
        if not args.no_deps:
            builder.install_deps(ROOT, args.build_root, False)
        scheduler = resolve_schedulers(ap, args.schedulers)[0]
        plots = not args.no_plots and builder.ensure_matplotlib(not args.no_deps, args.build_root)
        stem = result_stem(args.out, f"trace-{job.entry.name}")
        _, _, lines = observe.trace_one(args, ROOT, job, scheduler, workers, stem, plots,
                                        args.timeout)
    except (RunFailure, builder.BuildError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    print("\n".join(lines), flush=True)
    log(f"[done] {time.monotonic() - started:.0f} s")
    return 0
