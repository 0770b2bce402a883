#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks `weft-profile diff` (scripts/weft_profile.py) on profiles that a
profiling build of fib-weft writes, and on files that are not profiles.

usage: check_diff.py WEFT_PROFILE_PY FIB_WEFT

* fib(18) at 1 and at 2 workers: the same graph, and the diff says so;
* fib(16) against fib(20): the tasks differ by the ratio the profiles
  hold (and fib's known count of calls), and the diff names the region,
  the task type and the extra work;
* fib(18) counted in strands at 1 and 2 workers: the same work and span
  in strands, compared in strands;
* a region only in one run (and eight task types: five of them named,
  and how many more), profiles in two units, one graph counted in
  blocks that two runs convert to time at two ratios (no change of work);
* the same tasks, SPAWNs and work with the span of a comb and of a chain
  (parallelism 16 and 1: the same counts joined in another shape): not
  the same graph, the shape changed, also with a long strand in the
  chain; with the span moved as timing moves it on short runs (x1.8), or
  by x6 all in one strand (an interrupt): the same graph;
* as many tasks in every region, two task types' counts traded: not the
  same graph, and the types named;
* the row and the region of the task types past the profiler's table,
  grouping other types in each run: said, and not read as a change of
  graph;
* a missing file, a file that is not JSON or not text, JSON that is not a
  profile, a profile of another format, one without its regions, one with
  a region missing a field or holding null, a string or infinity, a unit
  that is not a string, JSON nested past Python's recursion limit, two
  rows of one region or task type: exit 2, one line naming the file, no
  traceback.
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def diff(tool, *args):
    p = subprocess.run([sys.executable, tool, "diff", *args], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


def profile(fib, workers, n, path, unit=None):
    env = dict(os.environ, WEFT_PROFILE_JSON=path)
    env.pop("WEFT_PROFILE", None)
    env.pop("WEFT_PROFILE_UNIT", None)
    if unit:
        env["WEFT_PROFILE_UNIT"] = unit
    p = subprocess.run([fib, "-w", str(workers), str(n)], env=env, capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        sys.exit(f"fib-weft -w {workers} {n} failed ({p.returncode}): {p.stderr}")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def fib_calls(n):
    """How many times fib(n)'s tree calls fib: 2 fib(n+1) - 1."""
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return 2 * a - 1


def findings(out):
    return out.split("what changed", 1)[1] if "what changed" in out else ""


def main():
    tool, fib = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        def path(name):
            return os.path.join(tmp, name)

        # The same graph at 1 and at 2 workers.
        a = profile(fib, 1, 18, path("a.json"))
        b = profile(fib, 2, 18, path("b.json"))
        check(a["regions"][0]["tasks"] == fib_calls(18),
              f"fib(18)'s profile: {a['regions'][0]['tasks']} tasks, not {fib_calls(18)}")
        rc, out, err = diff(tool, path("a.json"), path("b.json"))
        check(rc == 0, f"diff of fib(18) at 1 and 2 workers: exit {rc}: {err}")
        check("the graphs are the same" in findings(out),
              f"fib(18) at 1 and 2 workers: not called the same graph:\n{out}")
        check("the graphs differ" not in out and "graph changed" not in out,
              f"fib(18) at 1 and 2 workers: a change of graph reported:\n{out}")

        # Counted in strands, the same graph has the same work and span at
        # 1 and at 2 workers, and the diff compares them in strands.
        sa = profile(fib, 1, 18, path("sa.json"), "strands")
        sb = profile(fib, 2, 18, path("sb.json"), "strands")
        ra, rb = sa["regions"][0], sb["regions"][0]
        check(sa["unit"] == "strands" and (ra["work_strands"], ra["span_strands"]) ==
              (rb["work_strands"], rb["span_strands"]),
              f"fib(18) in strands: work and span {ra.get('work_strands')}, "
              f"{ra.get('span_strands')} at 1 worker, {rb.get('work_strands')}, "
              f"{rb.get('span_strands')} at 2")
        rc, out, err = diff(tool, path("sa.json"), path("sb.json"))
        check(rc == 0 and "work compared in strands (st)" in out and
              "the graphs are the same" in findings(out) and
              f"{ra['work_strands'] / 1000:.1f} K st" not in findings(out),
              f"fib(18) in strands at 1 and 2 workers:\n{out}{err}")

        # Two graphs: fib(16) against fib(20).
        small = profile(fib, 2, 16, path("small.json"))
        big = profile(fib, 2, 20, path("big.json"))
        rc, out, err = diff(tool, path("small.json"), path("big.json"))
        check(rc == 0, f"diff of fib(16) and fib(20): exit {rc}: {err}")
        ts, tb = small["regions"][0]["tasks"], big["regions"][0]["tasks"]
        check((ts, tb) == (fib_calls(16), fib_calls(20)),
              f"fib(16), fib(20): {ts} and {tb} tasks, not {fib_calls(16)} and {fib_calls(20)}")
        found = findings(out)
        want = f"+{(tb / ts - 1) * 100:.0f} % tasks"
        check("the graphs differ" in found and want in found,
              f"fib(16) against fib(20): no '{want}' in the findings:\n{out}")
        check("run region fib: the graph changed" in found,
              f"fib(16) against fib(20): region fib not named:\n{out}")
        check("task type fib: count" in found,
              f"fib(16) against fib(20): task type fib not named:\n{out}")
        # The tool compares counted profiles in blocks, timed ones in ns.
        def work(d):
            counted = d["unit"] == "basic blocks" and d["ns_per_block"] > 0
            return d["regions"][0]["work_ns"] / (d["ns_per_block"] if counted else 1.0)
        wr = work(big) / work(small)
        check(f"x{tb / ts:.2f}" in out and f"x{wr:.2f}" in out,
              f"fib(16) against fib(20): the table lacks the ratios x{tb / ts:.2f} and x{wr:.2f}:\n{out}")
        # The other way round, the work fell.
        rc, out, _ = diff(tool, path("big.json"), path("small.json"))
        check(rc == 0 and f"-{(1 - ts / tb) * 100:.0f} % tasks" in findings(out),
              f"fib(20) against fib(16): the fall in tasks not reported:\n{out}")

        # A region in one run only, and a unit that differs.
        c = copy.deepcopy(a)
        extra = copy.deepcopy(c["regions"][0])
        extra["name"] = "added_region"
        c["regions"].append(extra)
        c["unit"] = "basic blocks"
        c["ns_per_block"] = 0.0
        with open(path("c.json"), "w", encoding="utf-8") as f:
            json.dump(c, f)
        rc, out, err = diff(tool, path("a.json"), path("c.json"))
        found = findings(out)
        check(rc == 0 and "run region added_region is only in B" in found,
              f"a region only in B not named:\n{out}{err}")
        check("the graphs are the same" not in found and "in one run only" in found,
              f"a region in one run only, yet the graphs called the same:\n{out}")
        check("the units differ" in found, f"profiles in two units: not said:\n{out}")
        # A task type in one run only, and regions not recorded, are no
        # longer "the same graph".
        for name, change in (("type.json", lambda d: d["task_types"].append(
                                 dict(d["task_types"][0], name="ghost"))),
                             ("others.json", lambda d: d.update(runs_in_other_regions=3))):
            d = copy.deepcopy(a)
            change(d)
            with open(path(name), "w", encoding="utf-8") as f:
                json.dump(d, f)
            rc, out, err = diff(tool, path("a.json"), path(name))
            found = findings(out)
            check(rc == 0 and "the graphs are the same" not in found and
                  ("task type ghost is only in B" in found if name == "type.json"
                   else "(A 0 runs, B 3)" in found),
                  f"{name}: the graphs called the same, or the difference not named:\n{out}{err}")

        # Eight task types in one run only: the five first listed, and how
        # many more, as for every kind of finding; --all lists the eight.
        d = copy.deepcopy(a)
        d["task_types"] += [dict(d["task_types"][0], name=f"extra{i}") for i in range(8)]
        with open(path("eight.json"), "w", encoding="utf-8") as f:
            json.dump(d, f)
        rc, out, err = diff(tool, path("a.json"), path("eight.json"))
        found = findings(out)
        check(rc == 0 and found.count("is only in B") == 5 and
              "... and 3 more task types in one run only (--all lists them)" in found,
              f"eight task types in one run only: not five and the rest counted:\n{out}{err}")
        rc, out, err = diff(tool, path("a.json"), path("eight.json"), "--all")
        check(rc == 0 and findings(out).count("is only in B") == 8,
              f"eight task types in one run only, --all: not the eight:\n{out}{err}")

        # Two counted runs of one graph, each converting its blocks at its
        # own ratio (the machine's load moves it): compared in blocks, the
        # work has not moved.
        counted = []
        for name, ratio_ns in (("blocks1.json", 2.0), ("blocks2.json", 2.6)):
            d = copy.deepcopy(a)
            d["unit"], d["ns_per_block"] = "basic blocks", ratio_ns
            for row in d["regions"] + d["task_types"]:
                row["work_ns"] = row["work_ns"] * ratio_ns
            with open(path(name), "w", encoding="utf-8") as f:
                json.dump(d, f)
            counted.append(path(name))
        rc, out, err = diff(tool, *counted)
        found = findings(out)
        check(rc == 0 and "compared in basic blocks" in out and "the graphs are the same" in found
              and "work +" not in found and "the program's work" not in found,
              f"one graph counted at two ratios: a change of work reported:\n{out}{err}")

        # Equal counts are not one graph: fib(18)'s profile with the span
        # of a comb (parallelism 16) and of a chain (1: each leaf joined
        # before the next is spawned), the same tasks, SPAWNs and work,
        # are two shapes, either way round; a span moved by x1.8, as
        # timing moves it between short runs of one graph, is one.
        def with_parallelism(name, parallelism, longest_share=0.01):
            """fib(18)'s profile with that parallelism, its longest strand
            that share of the span."""
            d = copy.deepcopy(a)
            r = d["regions"][0]
            burden = r["burdened_span_ns"] - r["span_ns"]
            r["span_ns"] = r["longest_run_span_ns"] = r["work_ns"] / parallelism
            r["longest_strand_ns"] = longest_share * r["span_ns"]
            r["burdened_span_ns"] = r["span_ns"] + burden
            r["parallelism"] = parallelism
            r["burdened_parallelism"] = r["work_ns"] / r["burdened_span_ns"]
            with open(path(name), "w", encoding="utf-8") as f:
                json.dump(d, f)
            return path(name)
        comb = with_parallelism("comb.json", 16.0)
        chain = with_parallelism("chain.json", 1.0)
        noisy = with_parallelism("noisy.json", 16.0 / 1.8)
        # The comb with one strand 5 spans long (an interrupt in it): the
        # span x6, all of it that strand's; and the chain with a strand as
        # long as the comb's span: still a chain.
        interrupted = with_parallelism("interrupted.json", 16.0 / 6, longest_share=5 / 6)
        chain_long_strand = with_parallelism("chain_long_strand.json", 1.0, longest_share=1 / 16)
        for x, y in ((comb, chain_long_strand), (chain_long_strand, comb)):
            rc, out, err = diff(tool, x, y)
            found = findings(out)
            check(rc == 0 and "the graphs differ in shape" in found
                  and "run region fib: the shape changed" in found,
                  f"{os.path.basename(x)} against {os.path.basename(y)}: a chain with a long "
                  f"strand against a comb: the shape change not named:\n{out}{err}")
        for x, y in ((comb, interrupted), (interrupted, comb)):
            rc, out, err = diff(tool, x, y)
            found = findings(out)
            check(rc == 0 and "the graphs are the same" in found and "shape" not in found,
                  f"{os.path.basename(x)} against {os.path.basename(y)}: the span moved x6 by "
                  f"one strand: not called the same graph:\n{out}{err}")
        for x, y in ((comb, chain), (chain, comb)):
            rc, out, err = diff(tool, x, y)
            found = findings(out)
            check(rc == 0 and "the graphs are the same" not in found
                  and "the graphs differ in shape" in found
                  and "run region fib: the shape changed" in found,
                  f"{os.path.basename(x)} against {os.path.basename(y)}: the same counts and "
                  f"work, another span: the shape change not named:\n{out}{err}")
        rc, out, err = diff(tool, comb, noisy)
        found = findings(out)
        check(rc == 0 and "the graphs are the same" in found and "shape" not in found,
              f"the span x1.8 on the same counts and work: not called the same graph:\n{out}{err}")

        # As many tasks in every region, but not the same ones: two task
        # types' counts traded (10 and 54 against 54 and 10).
        def with_types(name, counts):
            d = copy.deepcopy(a)
            row = d["task_types"][0]
            d["task_types"] = [dict(row, name=f"x{i}", count=c) for i, c in enumerate(counts)]
            with open(path(name), "w", encoding="utf-8") as f:
                json.dump(d, f)
            return path(name)
        traded = (with_types("types_a.json", (10, 54)), with_types("types_b.json", (54, 10)))
        rc, out, err = diff(tool, *traded)
        found = findings(out)
        check(rc == 0 and "the graphs are the same" not in found and
              "not the same tasks: task types' counts moved (x0 10 -> 54; x1 54 -> 10)" in found,
              f"two task types' counts traded: not named:\n{out}{err}")

        # Task types past the profiler's table: one type row and one region
        # of RUNs named "(other task types)", which group other types in
        # each run; the same graph otherwise.
        def with_other_types(name, runs):
            d = copy.deepcopy(a)
            region = dict(d["regions"][0], name="(other task types)", runs=runs,
                          tasks=runs, spawns=0)
            d["regions"].append(region)
            d["task_types"].append(dict(d["task_types"][0], name="(other task types)", count=runs))
            with open(path(name), "w", encoding="utf-8") as f:
                json.dump(d, f)
            return path(name)
        rc, out, err = diff(tool, with_other_types("other_a.json", 247),
                            with_other_types("other_b.json", 47))
        found = findings(out)
        check(rc == 0 and "task types past the profiler's table are one row" in found and
              "depends on its schedule" not in found and "the graphs are the same" not in found,
              f"task types past the table, grouped otherwise in each run:\n{out}{err}")

        # Files that are not profiles.
        bad = {
            "missing.json": None,
            "text.json": "fib(18) = 2584\n",
            "other.json": json.dumps({"traceEvents": []}),
            "version.json": json.dumps(dict(a, weft_profile=2)),
            "noregions.json": json.dumps({k: v for k, v in a.items() if k != "regions"}),
            "badregion.json": json.dumps(dict(a, regions=[{"name": "x"}])),
            "nullfield.json": json.dumps(dict(a, regions=[dict(a["regions"][0], parallelism=None)])),
            "binary.json": b"\xff\xfe\x00weft",
            "nulllongest.json": json.dumps(dict(a, regions=[dict(a["regions"][0],
                                                                 longest_strand_ns=None)])),
            "strlongest.json": json.dumps(dict(a, regions=[dict(a["regions"][0],
                                                                longest_strand_ns="12")])),
            "infwork.json": json.dumps(dict(a, regions=[dict(a["regions"][0],
                                                             work_ns=float("inf"))])),
            "nanblock.json": json.dumps(dict(a, ns_per_block=float("nan"))),
            "truever.json": json.dumps(dict(a, weft_profile=True)),
            "listunit.json": json.dumps(dict(a, unit=[a.get("unit", "time")])),
            "deep.json": '{"weft_profile": 1, "regions": ' + "[" * 100000 + "]" * 100000 + "}",
            # The second row of one region, with other figures: not one
            # that the diff can leave out and still call the graphs the same.
            "dupregion.json": json.dumps(dict(a, regions=[a["regions"][0], dict(
                a["regions"][0], tasks=a["regions"][0]["tasks"] + 1)])),
            "duptype.json": json.dumps(dict(a, task_types=a["task_types"] * 2)),
        }
        for name, text in bad.items():
            if isinstance(text, bytes):
                with open(path(name), "wb") as f:
                    f.write(text)
            elif text is not None:
                with open(path(name), "w", encoding="utf-8") as f:
                    f.write(text)
            for args in ((path("a.json"), path(name)), (path(name), path("a.json"))):
                rc, out, err = diff(tool, *args)
                lines = err.strip().splitlines()
                check(rc == 2 and len(lines) == 1 and name in lines[0]
                      and lines[0].startswith("weft-profile: ") and out == ""
                      and "Traceback" not in err,
                      f"diff {' '.join(os.path.basename(x) for x in args)}: exit {rc}, "
                      f"stderr {err!r}, stdout {out[:200]!r}")
        rc, _, err = diff(tool, "--threshold", "-5", path("a.json"), path("b.json"))
        check(rc == 2 and "threshold" in err and "Traceback" not in err,
              f"a negative threshold: exit {rc}, {err!r}")
        rc, _, err = diff(tool, path("dupregion.json"), path("a.json"))
        check("region 'fib'" in err, f"two rows of region fib: the row not named: {err!r}")
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("ok: weft-profile diff on the same graph, two graphs, one-sided rows, two units, "
          "one graph counted at two ratios, one's counts in another shape, and "
          f"{len(bad)} kinds of bad input")
    return 0


if __name__ == "__main__":
    sys.exit(main())
