#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""exit() racing weft_stop(): each report is written once and whole.

Runs stop_race (stop_race.c) as a child process many times, at offsets
from the stop 100 us after the exit to the exit 200 us after the stop,
for each report the environment selects: the profile's table on stderr
(WEFT_PROFILE=1), its JSON (WEFT_PROFILE_JSON) and the timeline
(WEFT_TRACE).  Every run must exit 0 with the report complete: the table
once, with its task types' lines (pfib among them); the JSON files
parsed whole and naming pfib; and nothing else on stderr (no message that
a report was lost, none from the weft_stop that found the pool stopped at
exit).  Prints the failures per report and offset.

Usage: stop_race.py <stop_race program> [rounds]   (rounds per offset, 3)
"""
import json
import os
import subprocess
import sys
import tempfile

OFFSETS_US = [-100, -50, -20, -10, -5, 0, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100,
              120, 140, 160, 180, 200]


def table_problem(err):
    """What is wrong with stderr holding the profile's table (None: right)."""
    lines = err.splitlines()
    heads = [i for i, l in enumerate(lines) if l.startswith("weft profile: ")]
    if len(heads) != 1:
        return "%d tables on stderr" % len(heads)
    types = [i for i, l in enumerate(lines) if l.startswith("task type ")]
    if not types or not any(l.split()[:1] == ["pfib"] for l in lines[types[-1] + 1:]):
        return "the table has no task type line for pfib (cut short)"
    stray = [l for l in lines if l.startswith("weft:")]
    if stray:
        return "a message: " + stray[0]
    return None


def json_problem(path, kind, err):
    """What is wrong with the JSON report at path (None: right)."""
    stray = [l for l in err.splitlines() if l.strip()]
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        return "not written" + ("; stderr: " + stray[0] if stray else "")
    except ValueError as e:
        return "not whole (%s)" % e
    if kind == "profile":
        named = any(t.get("name") == "pfib" for t in doc.get("task_types", []))
    else:
        named = any(e.get("name") == "pfib" for e in doc.get("traceEvents", []))
    if not named:
        return "no pfib in it"
    if stray:
        return "a message: " + stray[0]
    return None


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    prog = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 3
    base = {k: v for k, v in os.environ.items()
            if k not in ("WEFT_PROFILE", "WEFT_PROFILE_JSON", "WEFT_TRACE", "WEFT_STATS",
                         "WEFT_WORKERS")}
    # The program starts 2 workers: no warning where the machine gives fewer.
    base["WEFT_OVERSUBSCRIBE"] = "1"
    failures = 0
    runs = 0
    with tempfile.TemporaryDirectory() as work:
        report = os.path.join(work, "report.json")
        for kind, var in (("table", "WEFT_PROFILE"), ("profile", "WEFT_PROFILE_JSON"),
                          ("trace", "WEFT_TRACE")):
            env = dict(base)
            env[var] = "1" if kind == "table" else report
            bad = {}
            for _ in range(rounds):
                for off in OFFSETS_US:
                    if os.path.exists(report):
                        os.remove(report)
                    p = subprocess.run([prog, str(off)], env=env, capture_output=True,
                                       text=True, timeout=120)
                    if p.returncode != 0:
                        problem = "exit %d: %s" % (p.returncode, p.stderr.strip()[-200:])
                    elif kind == "table":
                        problem = table_problem(p.stderr)
                    else:
                        problem = json_problem(report, kind, p.stderr)
                    runs += 1
                    if problem:
                        failures += 1
                        bad.setdefault(off, []).append(problem)
            n = rounds * len(OFFSETS_US)
            failed = sum(len(v) for v in bad.values())
            said = sum(1 for v in bad.values() for b in v if b.startswith("a message"))
            print("%s %s: %d of %d runs failed (%d reports lost or cut short, %d stray messages)"
                  % ("FAILED:" if failed else "ok:", var, failed, n, failed - said, said))
            for off in sorted(bad):
                print("  offset %+4d us: %d of %d: %s" % (off, len(bad[off]), rounds, bad[off][0]))
    print("%d passed, %d failed" % (runs - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
