#!/usr/bin/env python3
"""weft's benchmark harness: builds the benchmarks, runs each sequential
baseline and the weft version at several worker counts, and prints a table
in the shape of the Lace paper's Figure 5 (T_S, T_1, T_P and the speedups,
medians with their spread) and Figure 7 (steals, leaps, grows, shrinks).

    python3 bench/harness.py                  # quick suite (a few minutes)
    python3 bench/harness.py --suite targets  # the figures weft promises
    python3 bench/harness.py --suite paper    # the papers' input sizes
    python3 bench/harness.py --bench fib,uts --workers 1,2 --reps 7

Every binary checks its own answer; a wrong answer or a crash fails the
run loudly.  Results are also written as JSON (--json, default under
results/).
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

UTS_TREES = {
    "T1": "-t 1 -a 3 -d 10 -b 4 -r 19",
    "T3": "-t 0 -b 2000 -q 0.124875 -m 8 -r 42",
    "T1L": "-t 1 -a 3 -d 13 -b 4 -r 29",
    "T2L": "-t 1 -a 2 -d 23 -b 7 -r 220",
    "T3L": "-t 0 -b 2000 -q 0.200014 -m 5 -r 7",
}

# name -> (binary stem, {size: argument string})
BENCHMARKS = {
    "fib": ("fib", {"quick": "38", "targets": "40", "paper": "50"}),
    "queens": ("queens", {"quick": "12", "targets": "13", "paper": "15"}),
    "matmul": ("matmul", {"quick": "512", "targets": "1024", "paper": "4096"}),
    "uts-T1": ("uts", {"quick": UTS_TREES["T1"], "paper": UTS_TREES["T1L"]}),
    "uts-T3": ("uts", {"quick": UTS_TREES["T3"]}),
    "uts-T2L": ("uts", {"paper": UTS_TREES["T2L"]}),
    "uts-T3L": ("uts", {"targets": UTS_TREES["T3L"], "paper": UTS_TREES["T3L"]}),
}

SUITES = {
    "quick": {"reps": 5, "workers": [1, 2]},
    "targets": {"reps": 5, "workers": [1, 2]},
    "paper": {"reps": 3, "workers": [1, 2]},
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build(build_dir, stats):
    """Configures and builds a Release tree; returns its bench directory."""
    cfg = [
        "cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Release", f"-DWEFT_STATS={'ON' if stats else 'OFF'}",
        "-DWEFT_BUILD_TESTS=OFF", "-DWEFT_BUILD_EXAMPLES=OFF",
    ]
    log(f"[build] {build_dir} (counters {'on' if stats else 'off'})")
    run(cfg, stdout=subprocess.DEVNULL)
    run(["cmake", "--build", build_dir, "--parallel"], stdout=subprocess.DEVNULL)
    return os.path.join(build_dir, "bench")


TIME_RE = re.compile(r"^Time:\s*([0-9.eE+-]+)\s*$", re.M)
TOTAL_RE = re.compile(r"^total\s+(.*)$", re.M)
COUNTER_NAMES = ["tasks", "steals", "steal_fails", "leaps", "leap_fails", "grows",
                 "shrinks", "sleeps", "wakes", "peak"]


def parse_time(out):
    m = TIME_RE.findall(out)
    if not m:
        raise ValueError("no 'Time:' line in the output")
    return float(m[-1])


def parse_counters(out):
    m = TOTAL_RE.search(out)
    if not m:
        return None
    values = [int(v) for v in m.group(1).split()]
    return dict(zip(COUNTER_NAMES, values))


def run_binary(path, args, timeout):
    cmd = [path] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {p.returncode}:\n{p.stdout}{p.stderr}")
    return p.stdout


def median_spread(xs):
    """Median and half the min-max range, as a fraction of the median."""
    med = statistics.median(xs)
    spread = (max(xs) - min(xs)) / 2 / med if med > 0 else 0.0
    return med, spread


def machine_info():
    info = {"platform": platform.platform(), "cpus": os.cpu_count(), "python": sys.version.split()[0]}
    try:
        info["cpu"] = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                           if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        info["compiler"] = subprocess.run(["cc", "--version"], capture_output=True,
                                          text=True).stdout.splitlines()[0]
        info["commit"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                        capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    info["date"] = datetime.datetime.now().isoformat(timespec="seconds")
    return info


def run_concurrently(path, args, copies, timeout):
    """Runs `copies` instances of a sequential binary at once, one per CPU
    where taskset exists; returns their times."""
    have_taskset = subprocess.run(["sh", "-c", "command -v taskset"],
                                  capture_output=True).returncode == 0
    procs = []
    for i in range(copies):
        cmd = ([ "taskset", "-c", str(i % (os.cpu_count() or 1))] if have_taskset else []) + [path] + args
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    times = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"{path} exited with {p.returncode}:\n{out}{err}")
        times.append(parse_time(out))
    return times


def measure(bench_dir, stats_dir, name, stem, arg, workers, reps, timeout, ceiling=False):
    """Runs seq and weft at each worker count, interleaved, reps times.
    With ceiling, also P copies of the sequential binary at once: on a host
    whose cores slow each other down, 2 T_S / (their mean time) is the best
    T_S/T_P any runtime can reach there."""
    args = shlex.split(arg)
    seq = os.path.join(bench_dir, f"{stem}-seq")
    par = os.path.join(bench_dir, f"{stem}-weft")
    times = {"seq": []}
    for w in workers:
        times[w] = []
    times["concurrent_seq"] = []
    p = max(workers)
    for r in range(reps):
        log(f"[run] {name} {arg}: repetition {r + 1}/{reps}")
        times["seq"].append(parse_time(run_binary(seq, args, timeout)))
        for w in workers:
            times[w].append(parse_time(run_binary(par, ["-w", str(w)] + args, timeout)))
        if ceiling and p > 1:
            times["concurrent_seq"].append(statistics.mean(run_concurrently(seq, args, p, timeout)))
    counters = None
    if stats_dir:
        out = run_binary(os.path.join(stats_dir, f"{stem}-weft"),
                         ["-w", str(max(workers))] + args, timeout)
        counters = parse_counters(out)
    return {"benchmark": name, "input": arg, "times": {str(k): v for k, v in times.items()},
            "counters": counters, "counters_workers": max(workers)}


def fmt_table(results, workers):
    p = max(workers)
    head = ["benchmark", "input", "T_S"] + [f"T_{w}" for w in workers] + \
           ["T_1/T_S", f"T_S/T_{p}", f"T_1/T_{p}", "ceiling", "steals", "leaps", "grows", "shrinks"]
    rows = []
    for r in results:
        t = r["times"]
        ts, ts_sp = median_spread(t["seq"])
        med = {w: median_spread(t[str(w)]) for w in workers}
        row = [r["benchmark"], r["input"] if len(r["input"]) < 14 else r["input"][:11] + "...",
               f"{ts:.3f} ±{ts_sp:.0%}"]
        row += [f"{med[w][0]:.3f} ±{med[w][1]:.0%}" for w in workers]
        t1 = med[1][0] if 1 in med else float("nan")
        tp = med[p][0]
        # Ratios per repetition (same run), then their median.
        ratio = lambda a, b: statistics.median(x / y for x, y in zip(a, b))
        row += [f"{ratio(t['1'], t['seq']):.2f}" if 1 in med else "-",
                f"{ratio(t['seq'], t[str(p)]):.2f}",
                f"{ratio(t['1'], t[str(p)]):.2f}" if 1 in med else "-"]
        conc = t.get("concurrent_seq") or []
        row += [f"{statistics.median(p * a / b for a, b in zip(t['seq'], conc)):.2f}" if conc else "-"]
        c = r.get("counters") or {}
        row += [str(c.get(k, "-")) for k in ("steals", "leaps", "grows", "shrinks")]
        rows.append(row)
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "  ".join(str(c).rjust(w) if i > 1 else str(c).ljust(w)
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    out = [line(head), line(["-" * w for w in widths])] + [line(r) for r in rows]
    out.append(f"(times in seconds: medians ± half the range; ratios are medians of per-"
               f"repetition ratios; ceiling: {p} T_S / time of {p} sequential copies run at once, "
               f"the best T_S/T_{p} this host allows; counters from one run at {p} workers "
               f"with counters built in)")
    return "\n".join(out)


IDLE_RE = re.compile(r"Idle CPU per worker: ([0-9.]+)%")
LAT_RE = re.compile(r"cold \(workers asleep\) RUN latency: median ([0-9.]+) us")


def measure_micro(bench_dir, workers, timeout):
    """Idle CPU per worker 10 ms after the last task; cold RUN latency."""
    log("[run] idle-cpu, run-latency")
    idle = run_binary(os.path.join(bench_dir, "idle-cpu"), ["-w", str(workers), "10", "2000"], timeout)
    lat = run_binary(os.path.join(bench_dir, "run-latency"), ["-w", str(workers), "300", "20"], timeout)
    return {"workers": workers, "idle_cpu_percent": float(IDLE_RE.search(idle).group(1)),
            "cold_run_latency_us": float(LAT_RE.search(lat).group(1))}


def fmt_targets(results, micro):
    """The figures weft promises next to what this run measured."""
    by = {r["benchmark"]: r["times"] for r in results}
    ratio = lambda a, b: statistics.median(x / y for x, y in zip(a, b))
    rows = []
    def add(what, value, op, bound):
        ok = value <= bound if op == "<=" else value >= bound
        rows.append(f"  {what:<38} {value:9.2f}   target {op} {bound:<6} {'ok' if ok else 'MISSED'}")
    if "fib" in by:
        add("fib T_1/T_S", ratio(by["fib"]["1"], by["fib"]["seq"]), "<=", 1.6)
        add("fib T_2/T_S", ratio(by["fib"]["2"], by["fib"]["seq"]), "<=", 0.9)
    for name in ("matmul", "queens", "uts-T3L"):
        if name in by:
            add(f"{name} T_S/T_2", ratio(by[name]["seq"], by[name]["2"]), ">=", 1.9)
            conc = by[name].get("concurrent_seq")
            if conc:
                rows.append(f"  {'  (host ceiling: 2 T_S / two seq at once)':<38} "
                            f"{statistics.median(2 * a / b for a, b in zip(by[name]['seq'], conc)):9.2f}")
    if micro:
        add("idle CPU per worker (%)", micro["idle_cpu_percent"], "<=", 1.0)
        add("cold RUN latency, median (us)", micro["cold_run_latency_us"], "<=", 50)
    return "targets (ratios: medians of per-repetition ratios):\n" + "\n".join(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", choices=sorted(SUITES), default="quick")
    ap.add_argument("--bench", help="comma-separated subset of: " + ",".join(BENCHMARKS))
    ap.add_argument("--workers", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--reps", type=int, help="repetitions (default: per suite)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--no-build", action="store_true", help="use the existing build")
    ap.add_argument("--no-deps", action="store_true", help="do not install missing packages")
    ap.add_argument("--no-counters", action="store_true", help="skip the counter run")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per binary run")
    ap.add_argument("--no-ceiling", action="store_true",
                    help="skip running P sequential copies at once (the hardware ceiling)")
    ap.add_argument("--json", help="write results here (default results/<suite>-<date>.json)")
    a = ap.parse_args(argv)

    suite = SUITES[a.suite]
    workers = [int(x) for x in a.workers.split(",")] if a.workers else suite["workers"]
    if any(w < 1 for w in workers):
        ap.error("worker counts must be >= 1")
    reps = a.reps or suite["reps"]
    if reps < 1:
        ap.error("--reps must be >= 1")
    names = a.bench.split(",") if a.bench else [n for n, (_, s) in BENCHMARKS.items() if a.suite in s]
    for n in names:
        if n not in BENCHMARKS:
            ap.error(f"unknown benchmark {n!r}; known: {', '.join(BENCHMARKS)}")
        if a.suite not in BENCHMARKS[n][1]:
            ap.error(f"benchmark {n} has no {a.suite} input")

    if not a.no_deps:
        run(["bash", os.path.join(ROOT, "scripts", "deps.sh")])
    stats_build = a.build_dir + "-counters"
    if a.no_build:
        bench_dir = os.path.join(a.build_dir, "bench")
        stats_dir = None if a.no_counters else os.path.join(stats_build, "bench")
    else:
        bench_dir = build(a.build_dir, stats=False)
        stats_dir = None if a.no_counters else build(stats_build, stats=True)

    results = []
    t0 = time.time()
    for n in names:
        stem, sizes = BENCHMARKS[n]
        results.append(measure(bench_dir, stats_dir, n, stem, sizes[a.suite], workers, reps,
                               a.timeout, ceiling=not a.no_ceiling))
    micro = None
    if a.suite == "targets":
        micro = measure_micro(bench_dir, max(workers), a.timeout)
    info = machine_info()
    print(f"weft benchmarks, suite '{a.suite}', {reps} repetitions, commit {info.get('commit', '?')}, "
          f"{info['date']}, {info.get('cpu', '?')} ({info['cpus']} CPUs)")
    print(fmt_table(results, workers))
    if a.suite == "targets":
        print()
        print(fmt_targets(results, micro))
    log(f"[done] {time.time() - t0:.0f} s")

    path = a.json or os.path.join(ROOT, "results", f"{a.suite}-{info['date'].replace(':', '')}.json")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w") as f:
        json.dump({"machine": info, "suite": a.suite, "reps": reps, "workers": workers,
                   "results": results, "micro": micro}, f, indent=1)
    log(f"[json] {path}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (subprocess.CalledProcessError, RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
