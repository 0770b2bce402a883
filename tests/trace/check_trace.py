#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the traces of tests/test_trace.c against what the tracer
promises (docs/timeline.md) and what the Chrome Trace Event format
requires of each event:

  - the file is JSON: {"traceEvents": [...], "otherData": {...}}; every
    event has the fields its phase requires (name, ph, pid, tid; ts for
    all but metadata; dur for complete events; id for flows; bp "e" on a
    flow's end; a scope on instants), with the types the format gives
  - a track (pid, tid) never has two slices that overlap, and its events
    come in time order
  - every task that ran is counted once: the SPAWNs of the task slices add
    up to the runtime's task counter (-DWEFT_STATS=ON builds)
  - every steal and leap is an arrow from the victim's track to a task
    slice that starts on the thief's track at that moment, as many of each
    as the runtime counted; every RUN from outside the pool is an arrow
    from the calling thread's track to the slice of the worker that ran it
  - work pool runs: the items of the batches add up to the items
    processed, one arrow per steal or transfer; a program that runs only
    work pools, more than a trace keeps: the file, complete at exit,
    counts the rest, and stderr says so once
  - a full buffer drops events and says how many; the file stays valid
  - weft_trace_start, weft_stop, weft_trace_stop: the file weft_stop
    wrote keeps its content (the same checks as fork-join), and a second
    weft_trace_start after weft_stop traces the next pool
  - recordings started on a running pool: slices under way at the start
    begin there (no overlap), and no counters of the pool's, which count
    from its start
  - WEFT_TRACE over three pools started in turn: a file each, said once
  - more RUNs from outside than a trace keeps: those kept are slices, the
    rest are counted in the file and said on stderr
  - trace buffers that cannot be mapped: the pools run untraced, said

Usage: check_trace.py <test_trace binary> [--sanitized]
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
from collections import defaultdict

FAILURES = []


def fail(scenario, message):
    FAILURES.append(f"{scenario}: {message}")
    print(f"FAILED: {scenario}: {message}", file=sys.stderr)


def ns(value):
    """A timestamp or duration in microseconds (3 decimals) as integer ns."""
    return round(float(value) * 1000)


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check_fields(scenario, events):
    """The fields each phase requires, with their types."""
    ok = True
    for i, e in enumerate(events):
        where = f"event {i} ({e.get('name')!r}, ph {e.get('ph')!r})"
        if not isinstance(e, dict):
            fail(scenario, f"event {i} is not an object")
            return False
        for key, kind in (("name", str), ("ph", str)):
            if not isinstance(e.get(key), kind):
                fail(scenario, f"{where}: '{key}' missing or not a {kind.__name__}")
                ok = False
        for key in ("pid", "tid"):
            if not isinstance(e.get(key), int) or isinstance(e.get(key), bool):
                fail(scenario, f"{where}: '{key}' missing or not an integer")
                ok = False
        ph = e.get("ph")
        if ph not in ("X", "s", "f", "i", "M"):
            fail(scenario, f"{where}: phase {ph!r} is not one the tracer writes")
            ok = False
            continue
        if ph == "M":
            if e["name"] not in ("process_name", "thread_name") or \
                    not isinstance(e.get("args", {}).get("name"), str):
                fail(scenario, f"{where}: metadata needs args.name")
                ok = False
            continue
        if not is_number(e.get("ts")) or e["ts"] < 0:
            fail(scenario, f"{where}: 'ts' missing, not a number or negative")
            ok = False
        if not isinstance(e.get("cat"), str):
            fail(scenario, f"{where}: 'cat' missing")
            ok = False
        if ph == "X" and (not is_number(e.get("dur")) or e["dur"] < 0):
            fail(scenario, f"{where}: a complete event needs a 'dur' >= 0")
            ok = False
        if ph in ("s", "f") and not isinstance(e.get("id"), int):
            fail(scenario, f"{where}: a flow event needs an integer 'id'")
            ok = False
        if ph == "f" and e.get("bp") != "e":
            fail(scenario, f"{where}: a flow's end binds to its enclosing slice (bp 'e')")
            ok = False
        if ph == "i" and e.get("s") not in ("g", "p", "t"):
            fail(scenario, f"{where}: an instant needs a scope 's' of g, p or t")
            ok = False
        if "args" in e and not isinstance(e["args"], dict):
            fail(scenario, f"{where}: 'args' is not an object")
            ok = False
    return ok


def tracks_of(events):
    tracks = defaultdict(list)
    for e in events:
        if e["ph"] != "M":
            tracks[(e["pid"], e["tid"])].append(e)
    return tracks


def check_tracks(scenario, tracks):
    """No overlap, time order; returns {(pid, tid): [(start, end, event)]}."""
    slices = {}
    for key, evs in tracks.items():
        last_ts = -1
        for e in evs:
            t = ns(e["ts"])
            if t < last_ts:
                fail(scenario, f"track {key}: {e['name']!r} at {t} ns comes after an event at "
                               f"{last_ts} ns")
                break
            last_ts = t
        spans = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e) for e in evs if e["ph"] == "X")
        for (s0, e0, a), (s1, e1, b) in zip(spans, spans[1:]):
            if s1 < e0:
                fail(scenario, f"track {key}: {a['name']!r} [{s0}, {e0}] overlaps {b['name']!r} "
                               f"[{s1}, {e1}]")
                break
        slices[key] = spans
    return slices


def slice_at(spans, t, starting=False):
    for s, e, ev in spans:
        if (s == t) if starting else (s <= t <= e):
            return ev
    return None


def check_flows(scenario, events, slices):
    """Each flow: a start and an end with one id; returns {cat: count}."""
    starts, ends = {}, {}
    for e in events:
        if e["ph"] == "s":
            starts[e["id"]] = e
        elif e["ph"] == "f":
            ends[e["id"]] = e
    if set(starts) != set(ends):
        fail(scenario, f"flows without both ends: {sorted(set(starts) ^ set(ends))[:5]}")
    counts = defaultdict(int)
    for fid, s in starts.items():
        f = ends.get(fid)
        if f is None:
            continue
        counts[s["cat"]] += 1
        if s["cat"] in ("steal", "leap", "run"):
            # The task a steal took, or the RUN, starts on the receiving
            # track at that moment.
            task = slice_at(slices.get((f["pid"], f["tid"]), []), ns(f["ts"]), starting=True)
            if task is None or task["cat"] != "task":
                fail(scenario, f"{s['cat']} arrow {fid} to track {f['tid']} at {f['ts']} us: no "
                               f"task slice starts there")
                continue
            if f["pid"] == 1:
                how = {"steal": "steal", "leap": "leap", "run": "RUN"}[s["cat"]]
                if task["args"].get("started_by") != how:
                    fail(scenario, f"{s['cat']} arrow {fid}: the slice there was started by "
                                   f"{task['args'].get('started_by')!r}")
            if s["cat"] != "run" and s["tid"] == f["tid"]:
                fail(scenario, f"steal arrow {fid} from track {s['tid']} to itself")
            if s["cat"] != "run" and slice_at(slices.get((s["pid"], s["tid"]), []),
                                              ns(s["ts"])) is None:
                fail(scenario, f"steal arrow {fid}: no slice of the victim {s['tid']} at "
                               f"{s['ts']} us")
    return counts


def load(scenario, path):
    if not os.path.isfile(path):
        fail(scenario, f"{path} was not written")
        return None
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except ValueError as e:
        fail(scenario, f"{path} is not JSON: {e}")
        return None
    if not isinstance(data, dict) or not isinstance(data.get("traceEvents"), list) or \
            not isinstance(data.get("otherData"), dict):
        fail(scenario, "the top level needs traceEvents (a list) and otherData")
        return None
    return data


def check_drop_markers(scenario, events, other, stderr):
    """Each track that filled: where it began to drop, in otherData and as
    its last event, and the message on stderr."""
    per_track = other.get("dropped_by_track", {})
    from_us = other.get("dropped_from_us")
    full = {k for k, v in per_track.items() if v > 0}
    if not isinstance(from_us, dict) or set(from_us) != full:
        fail(scenario, f"dropped_from_us {from_us!r} does not name the tracks that dropped {full}")
        return
    for key in full:
        pid, tid = (int(x) for x in key.split("/"))
        track = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and
                 e["ph"] in ("X", "i")]
        # The track's own slices and instants all end by the marker (its
        # last kept event may be a steal or a wake-up, written as an arrow,
        # so the marker may come after its last slice).
        ends = [e["ts"] + e.get("dur", 0) for e in track if e.get("cat") != "dropped"]
        markers = [e for e in track if e.get("cat") == "dropped"]
        if len(markers) != 1 or markers[0]["ts"] != from_us[key] or \
                markers[0].get("args", {}).get("dropped") != per_track[key]:
            fail(scenario, f"track {key}: drop markers {markers}, expected one at {from_us[key]} "
                 f"with {per_track[key]} dropped")
        elif ends and max(ends) > from_us[key] + 0.002:
            fail(scenario, f"track {key}: drops from {from_us[key]} us, but a kept event ends at "
                 f"{max(ends)} us")
    marks = [e["ts"] for e in events if e.get("cat") == "dropped"]
    if marks != sorted(marks):
        fail(scenario, f"the drop markers are not in time order in the file: {marks}")
    if "were dropped" not in stderr or "WEFT_TRACE_EVENTS=16" not in stderr:
        fail(scenario, f"no message of the drops on stderr: {stderr.strip()[-2000:]!r}")


def check_fork_join(scenario, data, full, stderr=""):
    events, other = data["traceEvents"], data["otherData"]
    if not check_fields(scenario, events):
        return
    slices = check_tracks(scenario, tracks_of(events))
    # With events dropped, an arrow may have lost the slice it points to.
    flows = check_flows(scenario, events, slices) if not full else {}
    dropped = other.get("dropped_events")
    counters = other.get("counters")
    if full:
        if not isinstance(dropped, int) or dropped <= 0:
            fail(scenario, f"16-event buffers: dropped_events is {dropped!r}, expected > 0")
        per_track = other.get("dropped_by_track", {})
        if sum(per_track.values()) != dropped:
            fail(scenario, f"dropped_by_track {per_track} does not add up to {dropped}")
        check_drop_markers(scenario, events, other, stderr)
        print(f"ok: {scenario}: {dropped} events dropped and counted, where each track began "
              "to drop said in the file and on stderr, the file is valid")
        return
    if dropped != 0:
        fail(scenario, f"{dropped} events dropped with the default buffers")
    if "were dropped" in stderr or other.get("dropped_from_us"):
        fail(scenario, f"drops reported where none were: {other.get('dropped_from_us')!r}, "
             f"{stderr.strip()[-500:]!r}")
    tasks = [e for e in events if e["ph"] == "X" and e["cat"] == "task" and e["pid"] == 1]
    if not tasks:
        fail(scenario, "no task slices")
    cats = {e["cat"] for e in events if e["ph"] == "X"}
    for cat in ("task", "search", "barrier", "parked", "external"):
        if cat not in cats:
            fail(scenario, f"no {cat} slice")
    hows = {e["args"].get("started_by") for e in tasks}
    for how in ("RUN", "TOGETHER", "NEWFRAME"):
        if how not in hows:
            fail(scenario, f"no task slice started by {how}")
    if flows.get("run", 0) != 20 + 10 + 3 + 1:
        fail(scenario, f"{flows.get('run', 0)} RUN arrows from outside threads, expected 34")
    if flows.get("steal", 0) + flows.get("leap", 0) == 0:
        fail(scenario, "no steal: the tree of slow leaves should have been stolen apart")
    # One slice per steal, leap or RUN says what started it; a task's slice
    # taken up again after a RUN inside it or a wait at a SYNC says
    # "resumed" (a slice repeating "steal" made the causes lie).
    for how, cat in (("steal", "steal"), ("leap", "leap")):
        started = sum(1 for e in tasks if e["args"].get("started_by") == how)
        if started != flows.get(cat, 0):
            fail(scenario, f"{started} task slices started by {how}, but {flows.get(cat, 0)} "
                           f"{cat} arrows")
    if "resumed" not in hows:
        fail(scenario, "no task slice taken up again (\"resumed\"): the RUNs inside tasks and "
                       "the waits at SYNCs should have cut some")
    if counters is not None:
        spawns = sum(e["args"].get("spawns", 0) for e in tasks)
        if spawns != counters["tasks"]:
            fail(scenario, f"the task slices count {spawns} SPAWNs; the runtime counted "
                           f"{counters['tasks']}")
        for cat, counter in (("steal", "steals"), ("leap", "leaps")):
            if flows.get(cat, 0) != counters[counter]:
                fail(scenario, f"{flows.get(cat, 0)} {cat} arrows; the runtime counted "
                               f"{counters[counter]} {counter}")
        print(f"ok: {scenario}: {len(events)} events; {spawns} SPAWNs in {len(tasks)} task "
              f"slices = the task counter; {flows.get('steal', 0)} steals and "
              f"{flows.get('leap', 0)} leaps land on the thief's task slices")
    else:
        print(f"ok: {scenario}: {len(events)} events, {len(tasks)} task slices (no counters in "
              f"this build: counts not compared)")


def check_pool(scenario, data):
    events, other = data["traceEvents"], data["otherData"]
    if not check_fields(scenario, events):
        return
    slices = check_tracks(scenario, tracks_of(events))
    runs = other.get("pool_runs", [])
    if len(runs) != 2:
        fail(scenario, f"{len(runs)} pool runs in otherData, expected 2")
        return
    flows = defaultdict(int)
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    for e in events:
        if e["ph"] == "f" and e["id"] in starts and starts[e["id"]]["cat"] == "steal":
            flows[e["pid"]] += 1
    check_flows(scenario, events, slices)
    for run in runs:
        pid = run["pid"]
        items = sum(e["args"]["items"] for e in events
                    if e["pid"] == pid and e["ph"] == "X" and e["cat"] == "task")
        if items != run["processed"]:
            fail(scenario, f"pool run {pid}: batches hold {items} items, processed "
                           f"{run['processed']}")
        if flows[pid] != run["steals"]:
            fail(scenario, f"pool run {pid}: {flows[pid]} steal arrows, {run['steals']} steals")
    print(f"ok: {scenario}: {len(runs)} pool runs, batches add up to the items processed, one "
          f"arrow per steal or transfer")


def check_again(scenario, path):
    """The second session of the started scenario: a pool of two workers."""
    data = load(scenario, path)
    if data is None:
        return
    events = data["traceEvents"]
    if not check_fields(scenario, events):
        return
    check_tracks(scenario, tracks_of(events))
    tasks = [e for e in events if e["ph"] == "X" and e["cat"] == "task" and e["pid"] == 1]
    if not tasks:
        fail(scenario, f"{path}: no task slices")
        return
    print(f"ok: {scenario}: a second weft_trace_start after weft_stop traced the next pool "
          f"({len(tasks)} task slices)")


def check_pools(scenario, data, stderr):
    """20 work pool runs under WEFT_TRACE, no fork-join pool: 16 kept."""
    other = data["otherData"]
    kept, untraced = len(other.get("pool_runs", [])), other.get("pool_runs_not_traced")
    if kept != 16 or untraced != 4:
        fail(scenario, f"{kept} pool runs kept and {untraced!r} not traced, expected 16 and 4")
    said = stderr.count("a trace keeps 16 work pool runs")
    if said != 1:
        fail(scenario, f"the untraced runs said {said} times on stderr, expected once: "
                       f"{stderr.strip()[-1000:]!r}")
    if kept == 16 and untraced == 4 and said == 1:
        print(f"ok: {scenario}: 20 pool runs, 16 traced, 4 counted in the file at exit, said once")


def check_later(scenario, path):
    """Recordings started on a running pool: whole tracks (slices under way
    at the start begin there), and no counters of the pool's."""
    for p in (path, path + ".again"):
        data = load(scenario, p)
        if data is None:
            continue
        events = data["traceEvents"]
        if not check_fields(scenario, events):
            continue
        before = len(FAILURES)
        check_tracks(scenario, tracks_of(events))
        if not any(e["ph"] == "X" and e["cat"] == "task" for e in events):
            fail(scenario, f"{p}: no task slices")
        if "counters" in data["otherData"]:
            fail(scenario, f"{p}: the pool's counters (from its start) in a recording begun "
                           f"later: {data['otherData']['counters']}")
        if len(FAILURES) == before:
            print(f"ok: {scenario}: {os.path.basename(p)}, begun on a running pool: no slice "
                  f"overlaps another, no counters of the pool's")


def check_cycles(scenario, path, stderr):
    """Three pools started in turn under one WEFT_TRACE: a file each."""
    stem, ext = os.path.splitext(path)
    for n, p in enumerate((path, f"{stem}.2{ext}", f"{stem}.3{ext}"), 1):
        data = load(scenario, p)
        if data is None:
            continue
        tasks = [e for e in data["traceEvents"] if e["ph"] == "X" and e["cat"] == "task"]
        if not tasks:
            fail(scenario, f"{p}: pool {n}'s trace has no task slices")
    said = stderr.count("each pool's trace goes to a file of its own")
    if said != 1 or f"{stem}.2{ext}" not in stderr:
        fail(scenario, f"the numbered files were said {said} times: {stderr.strip()[-1000:]}")
    else:
        print(f"ok: {scenario}: three pools, three files, said once")


def check_outside(scenario, data, stderr):
    """5,000 RUNs from outside with 16-event buffers: 4,096 kept, the rest
    counted in the file and on stderr."""
    waiting = [e for e in data["traceEvents"] if e.get("name") == "RUN (waiting)"]
    dropped = data["otherData"].get("external_runs_dropped")
    if len(waiting) + (dropped or 0) != 5000 or len(waiting) != 4096:
        fail(scenario, f"{len(waiting)} RUN (waiting) slices and {dropped} dropped, of 5000")
    elif f"{dropped} RUNs from threads outside the pool are not in the trace" not in stderr:
        fail(scenario, f"the drop is not said: {stderr.strip()[-1000:]}")
    else:
        print(f"ok: {scenario}: 4096 RUNs from outside kept, {dropped} dropped and said so")


def check_no_memory(binary, tmp):
    """Trace buffers larger than the memory the process may map: the pools
    run untraced, and the program is told why."""
    path = os.path.join(tmp, "nomem.json")
    env = dict(os.environ, WEFT_TRACE_EVENTS="256M")
    limit = 3 << 30

    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    r = subprocess.run([binary, "cycles", path], capture_output=True, text=True, timeout=600,
                       env=env, preexec_fn=cap_memory)
    if r.returncode != 0:
        fail("no-memory", f"exit {r.returncode}: {r.stderr.strip()[-2000:]}")
    elif "no memory for the workers' trace buffers" not in r.stderr or \
            "the pool runs untraced; lower WEFT_TRACE_EVENTS" not in r.stderr:
        fail("no-memory", f"not said: {r.stderr.strip()[-1000:]}")
    else:
        print("ok: no-memory: trace buffers that cannot be mapped: the pools run untraced, "
              "and the program is told to lower WEFT_TRACE_EVENTS")


def check_no_space(binary, path, what):
    """A trace written to a device with no space: the message names the
    write's errno."""
    r = subprocess.run([binary, "fork-join", path], capture_output=True, text=True, timeout=600)
    if "No space left on device" not in r.stderr:
        fail("full-device", f"no ENOSPC in: {r.stderr.strip()[-2000:]}")
    else:
        print(f"ok: full-device: {what} names ENOSPC")


def main():
    args = [a for a in sys.argv[1:] if a != "--sanitized"]
    # A sanitizer's runtime reserves its shadow memory at start: a process
    # capped in address space cannot start at all, so the cap's check is
    # for the other builds.
    sanitized = "--sanitized" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    binary = args[0]
    api = subprocess.run([binary, "api"], capture_output=True, text=True)
    print(api.stdout, end="")
    if api.returncode != 0:
        fail("api", f"exit {api.returncode}: {api.stderr.strip()}")
    traced = "compiled out" not in api.stdout
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in ("fork-join", "full", "pool", "pools", "started", "later", "cycles",
                         "outside"):
            path = os.path.join(tmp, f"{scenario}.json")
            r = subprocess.run([binary, scenario, path], capture_output=True, text=True,
                               timeout=600)
            if r.returncode != 0:
                fail(scenario, f"exit {r.returncode}: {r.stderr.strip()[-2000:]}")
                continue
            if not traced:
                if os.path.exists(path) or os.path.exists(path + ".again"):
                    fail(scenario, "a build without the tracer wrote a trace")
                continue
            if scenario == "cycles":
                check_cycles(scenario, path, r.stderr)
                # A name that starts with a dot has no extension: .cycles.2
                hidden = os.path.join(tmp, ".cycles")
                r = subprocess.run([binary, scenario, hidden], capture_output=True, text=True,
                                   timeout=600)
                if r.returncode != 0:
                    fail(scenario, f".cycles: exit {r.returncode}: {r.stderr.strip()[-2000:]}")
                else:
                    check_cycles(scenario + " (.cycles)", hidden, r.stderr)
                continue
            if scenario == "later":
                check_later(scenario, path)
                continue
            data = load(scenario, path)
            if data is None:
                continue
            if scenario == "outside":
                check_outside(scenario, data, r.stderr)
            elif scenario == "pool":
                check_pool(scenario, data)
            elif scenario == "pools":
                check_pools(scenario, data, r.stderr)
            elif scenario == "started":
                check_fork_join(scenario, data, full=False, stderr=r.stderr)
                check_again(scenario, path + ".again")
            else:
                check_fork_join(scenario, data, full=scenario == "full", stderr=r.stderr)
    if traced:
        check_no_space(binary, "/dev/full", "the write error")
        if sanitized:
            print("not checked here: trace buffers that cannot be mapped (a sanitizer build "
                  "cannot start under the address-space cap that check sets)")
        else:
            with tempfile.TemporaryDirectory() as tmp:
                check_no_memory(binary, tmp)
    if not traced:
        print("ok: no trace files from a build without the tracer")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
