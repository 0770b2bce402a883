#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sets two of weft's profiles side by side and names what changed.

The profiles are the JSON that WEFT_PROFILE_JSON=<file> writes
(docs/profiling.md, "The JSON").  Installed as `weft-profile`.

usage: weft-profile diff A.json B.json [--threshold PCT] [--all]

It prints, for the regions and task types of both runs, the work, the
tasks and the parallelism of A and of B and their ratios, then the
findings: whether the two runs had the same graph (the same tasks and
SPAWNs in every region, and no region whose parallelism moved by more
than 4x on the same work, by more than its longest strand explains: the
same tasks joined in another shape); if not, which regions ran more or
fewer tasks, or changed shape, and how much work came with them; which regions' work or parallelism moved by
more than the threshold (default 10 %, timing noise on a busy machine
being of that order); and which rows are in one run only.  Each kind of
finding lists its five largest (by tasks or work moved) unless --all is
given.

Exit status: 0 when the diff was made, 2 when a file cannot be read or
is not a weft profile.
"""
import argparse
import json
import math
import sys

FORMAT_VERSION = 1
# Equal counts of tasks and SPAWNs do not make one graph: the same tasks
# joined in another order have another span.  On the same work, a region
# whose parallelism moved by more than this factor, by more than the
# longest strand explains (beyond_one_strand), is taken to have another
# shape.  A short run's span (fib(18): 0.4 ms of work, a span of a few
# microseconds) is within reach of one interrupt or page fault: fib(18)
# at one and at two workers, 150 pairs, moved it by up to x24; less the
# longer run's longest strand, by up to x1.8 (x1.1 in 100 pairs beside
# two busy loops).
SHAPE_FACTOR = 4.0


class ProfileError(Exception):
    """A file that is not a profile this tool can read."""


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ProfileError(f"{path}: cannot read it: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{path}: not text (not UTF-8); a profile is what "
                           "WEFT_PROFILE_JSON=<file> writes") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ProfileError(f"{path}: not JSON ({e.msg} at line {e.lineno}); "
                           "a profile is what WEFT_PROFILE_JSON=<file> writes") from None
    except RecursionError:
        raise ProfileError(f"{path}: JSON nested too deep to be a weft profile") from None
    if not isinstance(data, dict) or "weft_profile" not in data:
        raise ProfileError(f"{path}: JSON, but not a weft profile (no \"weft_profile\" key); "
                           "a profile is what WEFT_PROFILE_JSON=<file> writes")
    # (JSON true equals 1 in Python)
    if isinstance(data["weft_profile"], bool) or data["weft_profile"] != FORMAT_VERSION:
        raise ProfileError(f"{path}: a weft profile of format {data['weft_profile']!r}; "
                           f"this tool reads format {FORMAT_VERSION}")
    regions = data.get("regions")
    types = data.get("task_types")
    if not isinstance(regions, list) or not isinstance(types, list):
        raise ProfileError(f"{path}: a weft profile without its \"regions\" or \"task_types\" list")
    def check(row, what, keys, optional=()):
        if not isinstance(row, dict):
            raise ProfileError(f"{path}: a {what} that is not an object")
        for key in keys + tuple(k for k in optional if k in row):
            value = row.get(key)
            if key in ("name", "kind"):
                ok = isinstance(value, str)
            else:
                ok = amount(value)
            if not ok:
                raise ProfileError(f"{path}: a {what} whose \"{key}\" is "
                                   f"{'missing' if key not in row else repr(value)}")
    # Every field the diff reads; the rows it matches by key, once each:
    # a second row of one key would be left out of the comparison.
    seen = {}
    for i, r in enumerate(regions):
        check(r, "region", ("name", "kind", "runs", "work_ns", "span_ns", "parallelism", "tasks",
                            "spawns"), ("longest_strand_ns",))
        key = (r["kind"], r["name"])
        if key in seen:
            raise ProfileError(f"{path}: two rows of {r['kind']} region {r['name']!r} "
                               f"(\"regions\" {seen[key]} and {i})")
        seen[key] = i
    seen = {}
    for i, t in enumerate(types):
        check(t, "task type", ("name", "count", "work_ns"), ("span_ns", "longest_strand_ns"))
        if t["name"] in seen:
            raise ProfileError(f"{path}: two rows of task type {t['name']!r} "
                               f"(\"task_types\" {seen[t['name']]} and {i})")
        seen[t["name"]] = i
    for key in ("ns_per_block", "runs_in_other_regions", "regions_not_recorded"):
        value = data.get(key, 0)
        if not amount(value):
            raise ProfileError(f"{path}: \"{key}\" is {value!r}")
    for key in ("unit", "scheduler"):
        if key in data and not isinstance(data[key], str):
            raise ProfileError(f"{path}: \"{key}\" is {data[key]!r}, not a string")
    return data


def amount(value):
    """Whether a profile's value is a finite number at least 0."""
    try:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value) and value >= 0
    except OverflowError:  # an integer past any float
        return False


def fmt_ns(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if abs(ns) >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_count(n):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.4g}"


def ratio(a, b):
    """b / a, or None when a is zero (and b is not)."""
    if a == 0:
        return 1.0 if b == 0 else None
    return b / a


def fmt_ratio(r):
    return "new" if r is None else f"x{r:.2f}"


def pct(r):
    return "from none" if r is None else f"{(r - 1) * 100:+.0f} %"


# The profiler's row of the task types past its table (src/observe/profile_types.c).
OTHER_TYPES = "(other task types)"


def unit_of(data):
    unit = data.get("unit", "time")
    return unit if unit in ("basic blocks", "strands") else "on-CPU time"


def per_run(region, key):
    runs = region["runs"]
    return region[key] / runs if runs else 0.0


def keyed(rows, key):
    out = {}
    for row in rows:
        out.setdefault(key(row), row)
    return out


def moved(r, threshold):
    return r is None or abs(r - 1.0) > threshold


def beyond_one_strand(x, y):
    """Whether the longer of two regions' spans, less its run's longest
    strand, is more than SHAPE_FACTOR times the shorter span and that
    strand both.  A span is at least its run's longest strand: strands
    that cost more than they did in the other run (an interrupt, a page
    fault) move it by their cost, the same graph at another cost, so the
    rest of the path must be longer than a few strands as long as the
    longest before a shape is named."""
    hi, lo = (x, y) if x["s"] >= y["s"] else (y, x)
    return hi["s"] - hi["l"] > SHAPE_FACTOR * max(lo["s"], hi["l"])


def limited(lines, most, what):
    """The first `most` lines (all with most=None), and how many more there are."""
    if most is None or len(lines) <= most:
        return lines
    return lines[:most] + [f"... and {len(lines) - most} more {what} (--all lists them)"]


def diff(a, b, names, threshold, out, most=5):
    """Writes the side-by-side tables and the findings; returns the findings."""
    out.write(f"A = {names[0]}: scheduler {a.get('scheduler', '?')}, {unit_of(a)}\n")
    out.write(f"B = {names[1]}: scheduler {b.get('scheduler', '?')}, {unit_of(b)}\n")
    findings = []
    # Counted profiles compare in their unit (blocks or strands): each run
    # converts its counts to time at a ratio of its own, which moves with
    # the machine's load.
    counted = unit_of(a) if unit_of(a) != "on-CPU time" else None
    in_blocks = counted is not None and all(
        unit_of(d) == counted and d.get("ns_per_block", 0) > 0 for d in (a, b))
    for d in (a, b):
        scale = d["ns_per_block"] if in_blocks else 1.0
        for row in d["regions"] + d["task_types"]:
            row["w"] = row["work_ns"] / scale
            row["s"] = row.get("span_ns", 0.0) / scale
            row["l"] = row.get("longest_strand_ns", 0.0) / scale
    short = "st" if counted == "strands" else "bl"
    fmt_work = (lambda n: fmt_count(n) + " " + short) if in_blocks else fmt_ns
    if in_blocks:
        out.write(f"work compared in {counted} ({short}); A converts them at "
                  f"{a['ns_per_block']:.3f} ns each, B at {b['ns_per_block']:.3f}\n")
    elif unit_of(a) != unit_of(b):
        findings.append(f"the units differ (A {unit_of(a)}, B {unit_of(b)}): work and span are "
                        "compared as nanoseconds, but a counted unit is not a timed one; "
                        "the tasks and SPAWNs compare exactly")

    region_key = lambda r: (r["kind"], r["name"])
    ra, rb = keyed(a["regions"], region_key), keyed(b["regions"], region_key)
    order = [k for k in ra] + [k for k in rb if k not in ra]

    out.write("\nregions (RUN rows: per region; RUNs inside tasks: per call)\n")
    out.write(f"{'region':<28} {'kind':<11} {'work A':>10} {'work B':>10} {'ratio':>7} "
              f"{'tasks A':>10} {'tasks B':>10} {'ratio':>7} {'par A':>8} {'par B':>8}\n")
    for k in order:
        x, y = ra.get(k), rb.get(k)
        kind, name = k
        if x is None or y is None:
            only = "B" if x is None else "A"
            row = y if x is None else x
            out.write(f"{name[:28]:<28} {kind:<11} only in {only}: {row['runs']} runs, "
                      f"work {fmt_work(row['w'])}, tasks {fmt_count(row['tasks'])}\n")
            continue
        if kind == "inside_task":
            wa, wb = per_run(x, "w"), per_run(y, "w")
            ta, tb = per_run(x, "tasks"), per_run(y, "tasks")
        else:
            wa, wb, ta, tb = x["w"], y["w"], x["tasks"], y["tasks"]
        out.write(f"{name[:28]:<28} {kind:<11} {fmt_work(wa):>10} {fmt_work(wb):>10} "
                  f"{fmt_ratio(ratio(wa, wb)):>7} {fmt_count(ta):>10} {fmt_count(tb):>10} "
                  f"{fmt_ratio(ratio(ta, tb)):>7} {x['parallelism']:>8.2f} {y['parallelism']:>8.2f}\n")

    ta_, tb_ = keyed(a["task_types"], lambda t: t["name"]), keyed(b["task_types"], lambda t: t["name"])
    type_order = [k for k in ta_] + [k for k in tb_ if k not in ta_]
    out.write(f"\n{'task type':<28} {'count A':>10} {'count B':>10} {'ratio':>7} "
              f"{'work A':>10} {'work B':>10} {'ratio':>7}\n")
    for k in type_order:
        x, y = ta_.get(k), tb_.get(k)
        ca, cb = (x or {}).get("count", 0), (y or {}).get("count", 0)
        wa, wb = (x or {}).get("w", 0.0), (y or {}).get("w", 0.0)
        out.write(f"{k[:28]:<28} {fmt_count(ca):>10} {fmt_count(cb):>10} "
                  f"{fmt_ratio(ratio(ca, cb)):>7} {fmt_work(wa):>10} {fmt_work(wb):>10} "
                  f"{fmt_ratio(ratio(wa, wb)):>7}\n")

    # Task types past the profiler's table are one row, and the RUNs of
    # their tasks one region, both named OTHER_TYPES: which types are in
    # them depends on which registered first, so they compare groups that
    # may differ, not one type.
    grouped = any(OTHER_TYPES in d for d in (ta_, tb_)) or \
        any(k[1] == OTHER_TYPES for k in order)
    if grouped:
        findings.append(f"task types past the profiler's table are one row, \"{OTHER_TYPES}\", "
                        "and the RUNs of their tasks one region of that name: which types are in "
                        "them depends on which ran first, so those rows are not compared")
    # The graph: tasks and SPAWNs of every region present in both.
    both = [k for k in order if k in ra and k in rb and k[1] != OTHER_TYPES]
    graph_changed = [k for k in both
                     if ra[k]["tasks"] != rb[k]["tasks"] or ra[k]["spawns"] != rb[k]["spawns"]
                     or ra[k]["runs"] != rb[k]["runs"]]
    tops = [k for k in both if k[0] == "run"]
    work_a = sum(ra[k]["w"] for k in tops)
    work_b = sum(rb[k]["w"] for k in tops)
    tasks_a = sum(ra[k]["tasks"] for k in tops)
    tasks_b = sum(rb[k]["tasks"] for k in tops)
    one_sided = grouped or any(k not in ra or k not in rb for k in order) or \
        any(k not in ta_ or k not in tb_ for k in type_order)
    # Runs of regions past the names a profile keeps are in "(other ...)"
    # rows (profiles of before that were written without them).
    others = (a.get("runs_in_other_regions", 0), b.get("runs_in_other_regions", 0))
    unrecorded = (a.get("regions_not_recorded", 0), b.get("regions_not_recorded", 0))
    if any(others):
        one_sided = True
        findings.append(f"regions past the names a profile keeps are in the \"(other ...)\" rows "
                        f"(A {others[0]} runs, B {others[1]}): those rows compare groups of "
                        f"regions, not regions")
    if any(unrecorded):
        one_sided = True
        findings.append(f"regions past the profiler's limit were not recorded (A {unrecorded[0]}, "
                        f"B {unrecorded[1]}): they are in neither table")
    # Regions with the same counts and the same work whose parallelism
    # moved far: the same strands, joined in another shape.
    reshaped = []
    for k in both:
        if k in graph_changed:
            continue
        x, y = ra[k], rb[k]
        wr = ratio(x["w"], y["w"])
        pr = ratio(x["parallelism"], y["parallelism"])
        if wr is None or moved(wr, threshold) or not x["parallelism"] or not y["parallelism"]:
            continue
        if max(pr, 1 / pr) > max(SHAPE_FACTOR, 1 + threshold) and beyond_one_strand(x, y):
            reshaped.append(k)
    shape_note = (f"the span of {len(reshaped)} region{'s' if len(reshaped) > 1 else ''} moved "
                  f"by more than x{SHAPE_FACTOR:g} with the same work (and the parallelism with "
                  "it): the same numbers of tasks joined in another shape, not the same strands "
                  "at other costs")
    # Task types both runs have whose counts differ: as many tasks, not the
    # same ones.
    types_changed = [k for k in type_order if k in ta_ and k in tb_ and k != OTHER_TYPES
                     and ta_[k].get("count", 0) != tb_[k].get("count", 0)]
    if both and not graph_changed and types_changed:
        moves = [f"{k} {fmt_count(ta_[k].get('count', 0))} -> {fmt_count(tb_[k].get('count', 0))}"
                 for k in types_changed]
        findings.append("the graphs differ: every region ran as many tasks and SPAWNs, but not "
                        "the same tasks: task types' counts moved ("
                        + "; ".join(limited(moves, most, "task types")) + ")")
    elif both and not graph_changed and not one_sided and not reshaped:
        findings.append("the graphs are the same: every region ran the same tasks and SPAWNs, "
                        "so what differs is what the same strands cost")
    elif both and not graph_changed and not one_sided:
        findings.append("the graphs differ in shape: every region ran the same tasks and "
                        "SPAWNs, but " + shape_note)
    elif both and not graph_changed:
        findings.append("the regions both runs have ran the same tasks and SPAWNs, but some "
                        "regions or task types are in one run only or not recorded"
                        + ("; and " + shape_note if reshaped else ""))
    elif graph_changed and tops and tasks_a != tasks_b:
        findings.append(
            f"the graphs differ: B ran {pct(ratio(tasks_a, tasks_b))} tasks in the RUN regions "
            "of both runs "
            f"({fmt_count(tasks_a)} -> {fmt_count(tasks_b)}) with {pct(ratio(work_a, work_b))} "
            "work; if the input was the same, this program's work depends on its schedule "
            "(for example a result cache that concurrent workers miss, or a cut-off that "
            "reads the worker count), and one run's profile is not its graph")
    graph_changed.sort(key=lambda k: -abs(rb[k]["tasks"] - ra[k]["tasks"]))
    listed = []
    for k in graph_changed:
        x, y = ra[k], rb[k]
        what = []
        if x["runs"] != y["runs"]:
            what.append(f"{'calls' if k[0] == 'inside_task' else 'runs'} "
                        f"{fmt_count(x['runs'])} -> {fmt_count(y['runs'])}")
        if k[0] == "inside_task":
            what.append(f"tasks per call {fmt_count(per_run(x, 'tasks'))} -> "
                        f"{fmt_count(per_run(y, 'tasks'))}")
        else:
            what.append(f"tasks {fmt_count(x['tasks'])} -> {fmt_count(y['tasks'])} "
                        f"({pct(ratio(x['tasks'], y['tasks']))})")
        if k[0] == "inside_task":
            what.append(f"spawns per call {fmt_count(per_run(x, 'spawns'))} -> "
                        f"{fmt_count(per_run(y, 'spawns'))}")
        elif x["spawns"] != y["spawns"]:
            what.append(f"spawns {fmt_count(x['spawns'])} -> {fmt_count(y['spawns'])}")
        listed.append(f"{k[0]} region {k[1]}: the graph changed: " + ", ".join(what))
    for k in reshaped:
        x, y = ra[k], rb[k]
        listed.append(f"{k[0]} region {k[1]}: the shape changed: the same tasks, SPAWNs and "
                      f"work, parallelism {x['parallelism']:.3g} -> {y['parallelism']:.3g} "
                      f"(span {fmt_ratio(ratio(x['s'], y['s']))})")
    findings += limited(listed, most, "regions whose graph changed")
    if tops and moved(ratio(work_a, work_b), threshold):
        findings.append(f"the program's work (the RUN regions of both runs) {pct(ratio(work_a, work_b))}: "
                        f"{fmt_work(work_a)} -> {fmt_work(work_b)}")
    timing = []
    for k in both:
        x, y = ra[k], rb[k]
        if k[0] == "inside_task":
            wr = ratio(per_run(x, "w"), per_run(y, "w"))
            label = "work per call"
        else:
            wr = ratio(x["w"], y["w"])
            label = "work"
        if moved(wr, threshold) and k not in graph_changed:
            timing.append((abs(y["w"] - x["w"]),
                           f"{k[0]} region {k[1]}: {label} {pct(wr)} on the same graph"))
        pr = ratio(x["parallelism"], y["parallelism"])
        if moved(pr, threshold) and k not in reshaped:
            timing.append((abs(y["w"] - x["w"]) + x["w"],
                           f"{k[0]} region {k[1]}: parallelism {x['parallelism']:.3g} -> "
                           f"{y['parallelism']:.3g}"))
    timing.sort(key=lambda t: -t[0])
    findings += limited([t[1] for t in timing], most, "regions whose work or parallelism moved")
    only_one = []
    for k in order:
        if k not in rb:
            only_one.append(f"{k[0]} region {k[1]} is only in A")
        elif k not in ra:
            only_one.append(f"{k[0]} region {k[1]} is only in B")
    findings += limited(only_one, most, "regions in one run only")
    counted = []
    types_one = []
    for k in type_order:
        x, y = ta_.get(k), tb_.get(k)
        if x is None or y is None:
            types_one.append(f"task type {k} is only in {'B' if x is None else 'A'}")
        elif x["count"] != y["count"]:
            counted.append((abs(y["w"] - x["w"]),
                            f"task type {k}: count {fmt_count(x['count'])} -> "
                            f"{fmt_count(y['count'])} ({pct(ratio(x['count'], y['count']))}), "
                            f"work {fmt_work(x['w'])} -> {fmt_work(y['w'])}"))
    findings += limited(types_one, most, "task types in one run only")
    counted.sort(key=lambda t: -t[0])
    findings += limited([t[1] for t in counted], most, "task types whose count changed")
    out.write(f"\nwhat changed (work and parallelism: by more than {threshold * 100:.0f} %):\n")
    for f in findings or ["nothing beyond the threshold"]:
        out.write(f"* {f}\n")
    return findings


def main(argv):
    parser = argparse.ArgumentParser(prog="weft-profile",
                                     description="Reads profiles that weft's profiler wrote.")
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("diff", help="set two profiles side by side and name what changed")
    d.add_argument("a", metavar="A.json")
    d.add_argument("b", metavar="B.json")
    d.add_argument("--all", action="store_true",
                   help="list every finding, not the five largest of each kind")
    d.add_argument("--threshold", type=float, default=10.0, metavar="PCT",
                   help="report work and parallelism that moved by more than this (default 10)")
    args = parser.parse_args(argv)
    if not 0 <= args.threshold <= 1000:
        parser.error(f"--threshold {args.threshold}: give a percentage from 0 to 1000")
    try:
        a, b = load(args.a), load(args.b)
    except ProfileError as e:
        print(f"weft-profile: {e}", file=sys.stderr)
        return 2
    diff(a, b, (args.a, args.b), args.threshold / 100.0, sys.stdout,
         most=None if args.all else 5)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
