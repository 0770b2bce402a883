# SPDX-License-Identifier: Apache-2.0
"""The suite's --profile and --trace modes (docs/profiling.md, docs/timeline.md).

--profile   after the suite's timings, every benchmark and input runs once
            more in a profiling build (-DWEFT_PROFILE=ON) of the first
            scheduler, with the steal cost measured here by stealcost as
            the burden; the table sets work, span, parallelism and
            burdened parallelism beside the measured speedup, and says what
            limits each benchmark.
--trace B   one benchmark in a tracing build (-DWEFT_TRACE=ON, counters
            on) at the largest worker count: the trace (Chrome Trace Event
            JSON) and its picture (scripts/trace_render.py).

Both builds sit beside the timing builds: build-bench-<scheduler>-profile
and build-bench-<scheduler>-trace.
"""
import importlib.util
import json
import os
import re
import shlex
import tempfile

from . import build as builder
from .measure import RunFailure, execute, failure_text
from .report import fmt_duration, fmt_ratio, render, short_input
from .stats import ratio_median
from .util import log

# What the stealcost run for the burden measures: leaves of 20,000
# iterations (a few microseconds), 201 repetitions, at 2 workers.
STEALCOST_ARGS = ["20000", "201"]
_STEAL_RE = re.compile(r"^steal\+join:\s*([0-9.]+)\s*ns", re.M)
_SPREAD_RE = re.compile(r"different workers in (\d+) of (\d+) repetitions")
# The fewest repetitions spread over both workers whose median is taken as
# the burden: on a busy machine the leaves may spread in a handful of them,
# and a median of a few is one preempted sample (75 us, once, against
# about 0.25 us).
MIN_SPREAD_REPETITIONS = 21


def prepare_tree(args, root, scheduler, kind, targets=()):
    """The profiling or tracing tree of a scheduler: built, or (--no-build)
    found.  Raises RunFailure when it cannot be had."""
    if args.no_build:
        d = builder.observe_build_dir(args.build_root, scheduler, kind)
        if not os.path.isdir(os.path.join(d, "bench")):
            raise RunFailure(f"{d}/bench does not exist (and --no-build)")
        return d
    d, reason = builder.build_observe(root, args.build_root, scheduler, kind, jobs=args.jobs,
                                      targets=targets)
    if d is None:
        raise RunFailure(f"the {kind} build of scheduler {scheduler} was refused: {reason}")
    return d


def measure_burden(timing_dir, timeout):
    """The steal+join cost in ns from stealcost at 2 workers in a timing
    build, or None if it could not say (one worker, no spread leaves)."""
    cmd = [os.path.join(timing_dir, "bench", "stealcost-weft"), "-w", "2"] + STEALCOST_ARGS
    if not os.access(cmd[0], os.X_OK):
        return None
    code, out, err = execute(cmd, timeout)
    m = _STEAL_RE.search(out)
    if code != 0 or not m:
        log(f"[profile] stealcost gave no steal+join cost ({shlex.join(cmd)}): the library's "
            f"default burden is used")
        return None
    spread = _SPREAD_RE.search(out)
    if not spread or int(spread.group(1)) < MIN_SPREAD_REPETITIONS:
        log(f"[profile] stealcost's leaves ran on both workers in "
            f"{spread.group(1) + ' of ' + spread.group(2) if spread else 'an unknown number of'} "
            f"repetitions, fewer than {MIN_SPREAD_REPETITIONS} (a busy machine?): its "
            f"{float(m.group(1)):.0f} ns is not taken; the library's default burden is used")
        return None
    return float(m.group(1))


def run_for_json(who, cmd, env, path, timeout, missing):
    """Runs a binary that must succeed and write JSON to path; the JSON.
    Raises RunFailure (missing: what to say when the file is not there)."""
    code, out, err = execute(cmd, timeout, env)
    if code != 0:
        raise RunFailure(failure_text(who, cmd, code, out, err, timeout))
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise RunFailure(f"`{shlex.join(cmd)}` wrote {missing} ({e})") from None


def main_region(profile):
    """The region that did the benchmark's work: the one with the most."""
    # A RUN made inside a task is a call of its caller, whose region holds
    # its work (docs/profiling.md, "Nested RUNs"): never the main one.
    regions = [r for r in profile.get("regions") or [] if r.get("kind", "run") != "inside_task"]
    return max(regions, key=lambda r: r.get("work_ns", 0), default=None)


def run_profiled(profile_dir, binary, args, burden_ns, timeout, runs=3):
    """A benchmark in the profiling build at one worker (the figures do not
    depend on the worker count; one worker keeps other workers' time slices
    out of its strands), `runs` times: a strand that loses its CPU only
    adds time, so each figure is the least over the runs.  Returns the main
    region's figures."""
    found = [_profile_once(profile_dir, binary, args, burden_ns, timeout) for _ in range(runs)]
    best = dict(found[0])
    for key in ("work_ns", "span_ns", "burdened_span_ns", "longest_strand_ns", "work_blocks",
                "span_blocks"):
        if all(f.get(key) is not None for f in found):
            best[key] = min(f[key] for f in found)
    best["parallelism"] = best["work_ns"] / best["span_ns"] if best["span_ns"] else None
    best["burdened_parallelism"] = (best["work_ns"] / best["burdened_span_ns"]
                                    if best["burdened_span_ns"] else None)
    best["runs"] = runs
    return best


def _profile_once(profile_dir, binary, args, burden_ns, timeout):
    cmd = [os.path.join(profile_dir, "bench", f"{binary}-weft"), "-w", "1"] + list(args)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.json")
        env = dict(os.environ, WEFT_PROFILE_JSON=path)
        env.pop("WEFT_PROFILE", None)
        if burden_ns is not None:
            env["WEFT_PROFILE_BURDEN_NS"] = str(int(round(burden_ns)))
        profile = run_for_json("weft (profiling build)", cmd, env, path, timeout,
                               f"no profile; is {profile_dir} built with -DWEFT_PROFILE=ON?")
    region = main_region(profile)
    if region is None:
        raise NothingToProfile(f"`{shlex.join(cmd)}`: the profile has no region (no RUN at one "
                               "worker)")
    return {"region": region["name"], "work_ns": region["work_ns"], "span_ns": region["span_ns"],
            "burdened_span_ns": region["burdened_span_ns"],
            "parallelism": region["parallelism"],
            "burdened_parallelism": region["burdened_parallelism"],
            "longest_strand_ns": region.get("longest_strand_ns"), "tasks": region["tasks"],
            "burden_ns": profile.get("burden_ns"), "unit": profile.get("unit", "time"),
            "ns_per_block": profile.get("ns_per_block"), "work_blocks": region.get("work_blocks"),
            "span_blocks": region.get("span_blocks"), "command": shlex.join(cmd)}


class NothingToProfile(RunFailure):
    """A benchmark whose profile has no region: it ran no RUN at one worker."""


def profile_suite(args, root, jobs, weft_systems, timeout, runs=3):
    """Profiles every job with the first scheduler; the run's "profile"
    entry: {scheduler, burden_ns, results: {job key: figures}, skipped:
    {job key: why}}.  A benchmark that cannot be profiled is skipped with a
    line, so that the others' figures (and the run's timings) are kept."""
    system = weft_systems[0]
    profile_dir = prepare_tree(args, root, system.scheduler, "profile")
    burden = args.burden_ns if args.burden_ns is not None else \
        measure_burden(system.build_dir, timeout)
    log(f"[profile] {len(jobs)} benchmark(s), scheduler {system.scheduler}, burden "
        + (f"{burden:.0f} ns per SPAWN edge" if burden is not None else "the library's default"))
    results, skipped = {}, {}
    for job in jobs:
        log(f"[profile] {job.entry.name} ({job.input}: {job.args_text})")
        try:
            results[job.key] = run_profiled(profile_dir, job.entry.binary, job.args, burden,
                                            timeout, runs)
        except RunFailure as e:
            why = str(e)
            if isinstance(e, NothingToProfile):
                why = "nothing to profile at one worker: " + why
            skipped[job.key] = why
            log(f"[profile] skipped {job.entry.name} ({job.input}): {why.splitlines()[0]}")
    return {"scheduler": system.scheduler, "system": system.name, "build": profile_dir,
            "burden_ns": burden, "results": results, "skipped": skipped}


def reading(par, bpar, measured, estimate, p, one_strand=False):
    """What limits a benchmark at p workers, in a few words; one_strand: the
    span is hardly more than the longest strand (said after the rest)."""
    text = _reading(par, bpar, measured, estimate, p)
    return text + "; span = one strand" if one_strand and par is not None else text


def _reading(par, bpar, measured, estimate, p):
    if par is None:
        return "-"
    if par < p:
        return "too little parallelism"
    if bpar is not None and bpar < p:
        return "grain too fine for the steal cost"
    if measured is not None and estimate and measured < 0.7 * estimate:
        return "loses to scheduling"
    return "scales as its graph allows"


def profile_table(run):
    """The --profile table, or None without profile results."""
    prof = run.get("profile")
    if not prof:
        return None
    p = max(run["workers"])
    head = ["benchmark", "input", "work", "span", "longest strand", "parallelism", "burdened par.",
            f"T_S/T_{p}", f"bound at {p}", f"burdened est. at {p}", "limited by"]
    rows = []
    for r in run["results"]:
        f = prof["results"].get(f"{r['benchmark']}/{r['size']}")
        if f is None:
            continue
        s = r["systems"].get(prof["system"], {})
        times = s.get("times", {}).get(str(p))
        measured = ratio_median(r["seq"], times) if times else None
        par, bpar = f["parallelism"], f["burdened_parallelism"]
        bound = min(p, par) if par else None
        work, bspan = f["work_ns"], f["burdened_span_ns"]
        estimate = work / (work / p + bspan) if work and bspan else None
        longest = f.get("longest_strand_ns")
        one = bool(longest) and f["span_ns"] < 1.2 * longest and f.get("tasks", 0) > 1
        rows.append([r["benchmark"], short_input(r), fmt_duration(work * 1e-9),
                     fmt_duration(f["span_ns"] * 1e-9),
                     fmt_duration(longest * 1e-9) if longest else "-", fmt_parallelism(par),
                     fmt_parallelism(bpar), fmt_ratio(measured), fmt_ratio(bound),
                     fmt_ratio(estimate), reading(par, bpar, measured, estimate, p, one)])
    skipped = prof.get("skipped") or {}
    if not rows:
        return None if not skipped else "\n".join(
            ["== Work and span: no benchmark could be profiled"]
            + [f"  skipped {key}: {why.splitlines()[0]}" for key, why in skipped.items()])
    burden = prof.get("burden_ns")
    units = sorted({str(f.get("unit", "time")) for f in prof["results"].values()})
    unit_text = (" and ".join(units) + ("" if units == ["time"] else
                 " (times converted from basic blocks at each program's own ns per block)"))
    return "\n".join([
        f"== Work and span (profiling build of {prof['scheduler']}, one worker, least of "
        f"{next(iter(prof['results'].values())).get('runs', 1)} runs; burden "
        + (f"{burden:,.0f} ns per SPAWN edge, stealcost's steal+join here)" if burden else
           "the library's default)"),
        f"T_S/T_{p}: measured ({prof['system']}, median of the repetitions).  bound: "
        f"min({p}, parallelism).  burdened est.: work / (work/{p} + burdened span), every "
        "steal paid.  Work and span are the profiling build's (its hooks add to the strands, so the "
        "work is larger than T_1).  limited by: parallelism < P: too little parallelism; "
        "burdened parallelism < P: grain too fine for the steal cost; T_S/T_P < 0.7 x the "
        "burdened estimate: loses to scheduling (or to the host: see the ceiling).  span = "
        "one strand: the span is hardly more than the longest strand: a serial piece of the "
        "program, or on a busy host a strand that lost its CPU (profile on an idle one).  "
        f"Strands measured in: {unit_text}.",
        render(head, rows)]
        + [f"skipped {key}: {why.splitlines()[0]}" for key, why in skipped.items()])


def fmt_parallelism(x):
    if x is None:
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}"


# ---- --trace ----

def load_renderer(root):
    """scripts/trace_render.py as a module (it is also a script)."""
    path = os.path.join(root, "scripts", "trace_render.py")
    spec = importlib.util.spec_from_file_location("trace_render", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def trace_one(args, root, job, scheduler, workers, stem, plots, timeout):
    """Runs one benchmark traced; returns (trace path, PNG path or None,
    summary lines)."""
    trace_dir = prepare_tree(args, root, scheduler, "trace",
                             targets=(f"{job.entry.binary}-weft",))
    path = f"{stem}.json"
    cmd = [os.path.join(trace_dir, "bench", f"{job.entry.binary}-weft"), "-w", str(workers)] + \
        list(job.args)
    env = dict(os.environ, WEFT_TRACE=path)
    log(f"[trace] {job.entry.name} ({job.input}: {job.args_text}) at {workers} workers, "
        f"scheduler {scheduler}")
    data = run_for_json("weft (tracing build)", cmd, env, path, timeout,
                        f"no trace; is {trace_dir} built with -DWEFT_TRACE=ON?")
    other = data.get("otherData", {})
    counters = other.get("counters", {})
    lines = [f"trace: {path}",
             f"  {len(data.get('traceEvents', []))} events, {other.get('dropped_events', 0)} "
             f"dropped; {counters.get('steals', '?')} steals, {counters.get('leaps', '?')} "
             f"leaps; command: WEFT_TRACE={path} {shlex.join(cmd)}",
             "  open it in https://ui.perfetto.dev or chrome://tracing"]
    png = None
    if plots:
        renderer = load_renderer(root)
        png = renderer.render(renderer.Trace(data), f"{stem}.png",
                              title=f"{job.entry.name} ({job.args_text}), {scheduler}, "
                                    f"{workers} workers")
        lines.append(f"picture: {png}")
    return path, png, lines
