# SPDX-License-Identifier: Apache-2.0
"""Machine information and the result files.

<out>/<stem>.json holds the whole run: machine, options, every measured
time (None where a run failed or did not happen), the counters of every
counters run, and the medians the tables show.

<out>/<stem>.csv holds the same in long form, one value per row:

    kind,benchmark,size,system,workers,rep,name,value

  kind=machine  name/value: cpu, cpus, kernel, gcc, clang, rustc, java, cmake,
                commit, dirty, date, the CMake flags and cache entries of each build
  kind=time     one measured time (s); system 'seq' is the baseline
  kind=median   the median time (s) of benchmark/system/workers, and
  kind=spread   half its min-max range as a fraction of it
  kind=counter  one counter (name) of one counters run (rep) of a weft system
  kind=status   a system's status on a benchmark (ok, FAILED, not ported, no peers)
"""
import csv
import datetime
import json
import os
import platform
import sys

from .build import git_state
from .stats import median_spread
from .util import first_line

VERSION_COMMANDS = {
    "gcc": ["gcc", "--version"],
    "clang": ["clang", "--version"],
    "rustc": ["rustc", "--version"],
    "java": ["java", "-version"],
    "cmake": ["cmake", "--version"],
}


def machine_info(root):
    info = {"date": datetime.datetime.now().isoformat(timespec="seconds")}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(line.split(":", 1)[1].strip() for line in f
                               if line.startswith("model name"))
    except (OSError, StopIteration):
        info["cpu"] = platform.processor() or None
    info["cpus"] = os.cpu_count()
    if hasattr(os, "sched_getaffinity"):
        info["cpus_usable"] = len(os.sched_getaffinity(0))
    info["kernel"] = f"{platform.system()} {platform.release()}"
    info["python"] = sys.version.split()[0]
    info["compilers"] = {name: first_line(cmd) for name, cmd in VERSION_COMMANDS.items()}
    info["commit"], info["dirty"] = git_state(root)
    return info


def medians(records, workers):
    """{benchmark: {system: {workers: [median, spread]}}} with 'seq' too."""
    out = {}
    for r in records:
        row = {"seq": {"0": list(median_spread(r["seq"]))}}
        for name, s in r["systems"].items():
            row[name] = {str(w): list(median_spread(s["times"][str(w)])) for w in workers}
        out[r["benchmark"]] = row
    return out


def write_json(path, run):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(run, f, indent=1)
        f.write("\n")


def csv_rows(run):
    """The CSV rows (without the header), in the order documented above."""
    rows = []
    m = run["machine"]
    flat = {k: v for k, v in m.items() if k != "compilers"}
    flat.update(m.get("compilers", {}))
    for build, flags in run.get("cmake_flags", {}).items():
        flat[f"cmake flags {build}"] = " ".join(flags)
    for build, cache in run.get("cmake_cache", {}).items():
        for key, value in cache.items():
            flat[f"cmake cache {build} {key}"] = value
    for key, value in flat.items():
        rows.append(["machine", "", "", "", "", "", key, "" if value is None else value])
    for r in run["results"]:
        b, size = r["benchmark"], r["size"]
        for rep, t in enumerate(r["seq"]):
            rows.append(["time", b, size, "seq", "", rep + 1, "seconds", "" if t is None else t])
        med, spread = median_spread(r["seq"])
        rows.append(["median", b, size, "seq", "", "", "seconds", "" if med is None else med])
        rows.append(["spread", b, size, "seq", "", "", "fraction", "" if spread is None else spread])
        for name, s in r["systems"].items():
            rows.append(["status", b, size, name, "", "", "status", s["status"]])
            for w, times in s["times"].items():
                if s["status"] not in ("ok", "FAILED"):
                    continue
                for rep, t in enumerate(times):
                    rows.append(["time", b, size, name, w, rep + 1, "seconds",
                                 "" if t is None else t])
                med, spread = median_spread(times)
                rows.append(["median", b, size, name, w, "", "seconds", "" if med is None else med])
                rows.append(["spread", b, size, name, w, "", "fraction",
                             "" if spread is None else spread])
        for name, runs in r["counters"].items():
            for rep, counters in enumerate(runs):
                for key, value in counters.items():
                    rows.append(["counter", b, size, name, r["counters_workers"], rep + 1, key, value])
    return rows


CSV_HEADER = ["kind", "benchmark", "size", "system", "workers", "rep", "name", "value"]


def write_csv(path, run):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEADER)
        w.writerows(csv_rows(run))
