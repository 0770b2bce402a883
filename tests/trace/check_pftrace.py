#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the traces of tests/test_trace.c written in Perfetto's format
(docs/timeline.md, "Long runs"), read back by scripts/weft_pftrace.py as
a viewer reads them:

  - every packet parses; the trace's clock is CLOCK_MONOTONIC; every
    event is on a described track; every slice ends (an END never comes
    without its BEGIN, and none is left open)
  - a task slice is one slice per task the runtime started, with what
    started it: as many started by a steal (a leap) as the runtime
    counted steals (leaps); the SPAWNs of the task slices add up to the
    task counter; each steal is an arrow from the victim's track to the
    thief's, landing where a slice it started begins
  - every RUN from outside the pool is a waiting slice on its thread's
    track with an arrow to the worker that ran it
  - a RUN inside a task is a slice inside the task's
  - work pool runs: the batches' items add up to the items processed,
    one arrow per steal
  - a session streamed through 16-event buffers marks every gap, and the
    gaps add up to the drops the file's summary and stderr report
  - weft_trace_write on a streamed session, a session written whole, a
    file that cannot be opened; a device with no space gives ENOSPC

Usage: check_pftrace.py <test_trace binary> <scripts dir>
"""
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

from check_trace import FAILURES, check_no_space, fail


def load(scenario, path, finished=True):
    try:
        trace = pftrace.read(path)
    except (OSError, pftrace.PftraceError) as e:
        fail(scenario, f"{path}: {e}")
        return None
    if finished and trace.truncated_at is not None:
        fail(scenario, f"{path} ends inside a packet, at byte {trace.truncated_at}")
    if trace.primary_clock != 3:
        fail(scenario, f"the trace's clock is {trace.primary_clock}, not CLOCK_MONOTONIC (3)")
    for t in trace.tracks.values():
        if (t.slices or t.instants) and t.name is None:
            fail(scenario, f"events on track {t.uuid}, which is not described")
        if t.open and finished:
            fail(scenario, f"{t.name}: {len(t.open)} slices never end")
        # Only a task and a SYNC's wait hold other slices: a search or a
        # sleep ends where the worker starts a task.
        stack = []
        for s in sorted(t.slices, key=lambda s: (s.start, s.depth)):
            while stack and stack[-1].depth >= s.depth:
                stack.pop()
            if s.depth and (not stack or stack[-1].cat not in ("task", "join")):
                fail(scenario, f"{t.name}: {s.name} at {s.start} lies in "
                               f"{stack[-1].name if stack else 'nothing'}")
                break
            stack.append(s)
    return trace


def check_render(path, tmp):
    import trace_render
    trace = load("render", path)
    if trace is None:
        return
    picture = trace_render.Trace.from_perfetto(trace)
    tasks = sum(1 for t in trace.tracks.values() for s in t.slices if s.cat == "task")
    drawn = sum(1 for sl in picture.slices.values() for s in sl if s[2] == "task")
    summary = trace.summary() or {}
    arrows = Counter(f[0] for f in picture.flows)
    if drawn != tasks:
        fail("render", f"{drawn} task bars drawn from {tasks} task slices")
    elif "steals" in summary and (arrows["steal"], arrows["leap"]) != (summary["steals"],
                                                                       summary["leaps"]):
        fail("render", f"arrows {dict(arrows)}; counted {summary['steals']} steals, "
                       f"{summary['leaps']} leaps")
    else:
        out = os.path.join(tmp, "render.png")
        r = subprocess.run([sys.executable, trace_render.__file__, path, "-o", out],
                           capture_output=True, text=True, timeout=300)
        if "matplotlib is needed" in r.stderr:
            print("ok: render: the bars and arrows match (no matplotlib here for the PNG)")
            return
        head = b""
        if os.path.exists(out):
            with open(out, "rb") as f:
                head = f.read(8)
        if r.returncode != 0 or head != b"\x89PNG\r\n\x1a\n":
            fail("render", f"trace_render.py: exit {r.returncode}, {r.stderr.strip()[-500:]}")
        else:
            print(f"ok: render: {drawn} task bars and {sum(arrows.values())} arrows, as read; "
                  f"a PNG drawn")


def workers_of(trace, group_prefix):
    groups = {u for u, t in trace.tracks.items() if t.name and t.name.startswith(group_prefix)}
    return [t for t in trace.tracks.values() if t.parent in groups and t.rank is not None
            and t.rank < 1 << 20]


def check_fork_join(scenario, trace, full=False, stderr="", want_inside=False):
    summary = trace.summary()
    if summary is None:
        fail(scenario, "no end-of-trace summary")
        return
    workers = workers_of(trace, "weft (")
    if not workers:
        fail(scenario, "no worker tracks")
        return
    by = Counter()
    spawns = 0
    for t in workers:
        for s in t.slices:
            if s.cat == "task":
                if "started_by" not in s.args:
                    fail(scenario, f"{t.name}: task slice {s.name} at {s.start} without started_by")
                by[s.args.get("started_by")] += 1
                spawns += s.args.get("spawns", 0)
    # Arrows: each one flow out of one instant and into another.
    arrows = Counter()
    for fid, ends in trace.flows.items():
        kinds = sorted(k for k, _ in ends)
        if kinds != ["in", "out"]:
            fail(scenario, f"flow {fid} has ends {kinds}, not one out and one in")
            continue
        out = next(s for k, s in ends if k == "out")
        into = next(s for k, s in ends if k == "in")
        arrows[(out.name, into.name)] += 1
    if full:
        dropped = summary.get("dropped", 0)
        marked = sum(s.args.get("dropped", 0) for t in workers for s in t.instants
                     if s.name == "buffer full: events dropped")
        if dropped == 0:
            fail(scenario, "16-event buffers dropped nothing")
        elif marked != dropped:
            fail(scenario, f"the gaps marked hold {marked} events; the summary says {dropped}")
        elif f"{dropped} events were dropped" not in stderr:
            fail(scenario, f"stderr does not report the {dropped} drops: {stderr.strip()[-600:]}")
        else:
            print(f"ok: {scenario}: {dropped} events dropped through 16-event buffers, every gap "
                  f"marked, the file valid")
        return
    if summary.get("dropped"):
        fail(scenario, f"{summary['dropped']} events dropped with the default buffers")
    # An outside RUN's arrow lands on the worker that ran it.
    waiting = [s for t in trace.tracks.values() for s in t.slices if s.name == "RUN (waiting)"]
    if arrows[("RUN (waiting)", "RUN")] != len(waiting) or by["RUN"] != len(waiting):
        fail(scenario, f"{len(waiting)} outside RUNs, {arrows[('RUN (waiting)', 'RUN')]} arrows to "
                       f"a worker, {by['RUN']} task slices started by RUN")
    if "tasks" not in summary:
        print(f"ok: {scenario}: {sum(by.values())} task slices (no counters in this build)")
        return
    if by["resumed"]:
        fail(scenario, f"{by['resumed']} task slices resumed: a task's slice is cut in pieces")
    for how, counter in (("steal", "steals"), ("leap", "leaps")):
        if by[how] != summary[counter]:
            fail(scenario, f"{by[how]} task slices started by {how}; the runtime counted "
                           f"{summary[counter]} {counter}")
    if arrows[("stolen from", "steal")] != summary["steals"] or \
            arrows[("stolen from", "leap")] != summary["leaps"]:
        fail(scenario, f"arrows {dict(arrows)}; counted {summary['steals']} steals, "
                       f"{summary['leaps']} leaps")
    if spawns != summary["tasks"]:
        fail(scenario, f"the task slices count {spawns} SPAWNs; the runtime counted "
                       f"{summary['tasks']}")
    # Each steal's arrow lands where a slice it started begins.
    for t in workers:
        starts = {(s.start, s.args.get("started_by")) for s in t.slices}
        for s in t.instants:
            if s.name in ("steal", "leap") and (s.start, s.name) not in starts:
                fail(scenario, f"{t.name}: a {s.name} at {s.start} starts no task slice")
                break
    # A RUN inside a task nests in the task's slice.
    inside = []
    for t in workers:
        for s in t.slices:
            if s.args.get("started_by") != "RUN inside a task":
                continue
            inside.append(s)
            parent = [p for p in t.slices if p.depth == s.depth - 1 and p.start <= s.start and
                      s.end <= p.end and p.cat == "task"]
            if s.depth == 0 or not parent:
                fail(scenario, f"{t.name}: the RUN inside a task at {s.start} is not in a task's "
                               f"slice (depth {s.depth})")
    if want_inside and not inside:
        fail(scenario, "no slice started by a RUN inside a task")
    print(f"ok: {scenario}: {len(trace.flows)} arrows; {sum(by.values())} task slices, one per "
          f"task started ({dict(by)}) = the counters; {spawns} SPAWNs = the task counter; "
          f"{len(inside)} RUNs inside tasks")


def check_pool(scenario, trace):
    groups = {u: t for u, t in trace.tracks.items() if t.name and t.name.startswith("work pool run")}
    if len(groups) != 2:
        fail(scenario, f"{len(groups)} pool runs, expected 2")
        return
    for uuid, g in groups.items():
        end = [s for s in g.instants if s.name == "end of the pool run"]
        if len(end) != 1:
            fail(scenario, f"{g.name}: {len(end)} end-of-run instants")
            continue
        counts = end[0].args
        tracks = [t for t in trace.tracks.values() if t.parent == uuid]
        items = sum(s.args.get("items", 0) for t in tracks for s in t.slices if s.name == "items")
        steals = sum(1 for t in tracks for s in t.instants
                     if s.flows_in and s.name.startswith(("steal (", "steal-half transfer (")))
        if items != counts["processed"]:
            fail(scenario, f"{g.name}: batches hold {items} items, processed {counts['processed']}")
        if steals != counts["steals"]:
            fail(scenario, f"{g.name}: {steals} steal arrows, {counts['steals']} steals")
    print(f"ok: {scenario}: 2 pool runs, batches add up to the items processed, one arrow per steal")


def check_cycles(scenario, path, stderr):
    """Three pools started in turn under one WEFT_TRACE: a file each."""
    stem, ext = os.path.splitext(path)
    for n, p in enumerate((path, f"{stem}.2{ext}", f"{stem}.3{ext}"), 1):
        trace = load(scenario, p)
        if trace is not None and not any(t.slices for t in trace.tracks.values()):
            fail(scenario, f"{p}: pool {n}'s trace has no slices")
    if stderr.count("each pool's trace goes to a file of its own") != 1:
        fail(scenario, f"the numbered files are not said once: {stderr.strip()[-1000:]}")
    else:
        print(f"ok: {scenario}: three pools, three files, said once")


def check_outside(scenario, trace, stderr):
    """5,000 RUNs from outside with 16-event buffers: 4,096 kept, the rest
    counted in the end of trace and on stderr."""
    waiting = [s for t in trace.tracks.values() for s in t.slices if s.name == "RUN (waiting)"]
    dropped = (trace.summary() or {}).get("external_runs_dropped")
    if len(waiting) != 4096 or dropped != 5000 - 4096:
        fail(scenario, f"{len(waiting)} RUN (waiting) slices and {dropped} dropped, of 5000")
    elif f"{dropped} RUNs from threads outside the pool are not in the trace" not in stderr:
        fail(scenario, f"the drop is not said: {stderr.strip()[-1000:]}")
    else:
        print(f"ok: {scenario}: 4096 RUNs from outside kept, {dropped} dropped and said so")


def check_exit_in_task(binary, tmp):
    """exit() from a task while streaming: the file keeps what was written,
    and the program is told only its end is lost."""
    path = os.path.join(tmp, "exit-in-task.pftrace")
    r = run(binary, "exit-in-task", path)
    if r.returncode != 0:
        fail("exit-in-task", f"exit {r.returncode}: {r.stderr.strip()[-2000:]}")
        return
    if f"the end of the timeline ({path} keeps what was streamed until now" not in r.stderr:
        fail("exit-in-task", f"not said: {r.stderr.strip()[-1000:]}")
        return
    trace = load("exit-in-task", path, finished=False)
    if trace is not None and not any(t.slices for t in trace.tracks.values()):
        fail("exit-in-task", f"{path} holds no slices")
    elif trace is not None:
        print("ok: exit-in-task: the streamed file keeps its slices, and the program is told "
              "only its end is lost")


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=600)


def main():
    global pftrace
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary = sys.argv[1]
    sys.path.insert(0, sys.argv[2])
    import weft_pftrace as pftrace
    if "compiled out" in run(binary, "api").stdout:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "fork-join.pftrace")
            r = run(binary, "fork-join", path)
            if r.returncode != 0 or os.path.exists(path):
                fail("compiled out", f"exit {r.returncode}, file written: {os.path.exists(path)}")
            else:
                print("ok: no trace file from a build without the tracer")
        return 1 if FAILURES else 0
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in ("fork-join", "full", "pool", "started", "cycles", "outside"):
            path = os.path.join(tmp, f"{scenario}.pftrace")
            r = run(binary, scenario, path)
            if r.returncode != 0:
                fail(scenario, f"exit {r.returncode}: {r.stderr.strip()[-2000:]}")
                continue
            if scenario == "cycles":
                check_cycles(scenario, path, r.stderr)
                continue
            trace = load(scenario, path)
            if trace is None:
                continue
            if scenario == "outside":
                check_outside(scenario, trace, r.stderr)
            elif scenario == "pool":
                check_pool(scenario, trace)
            else:
                check_fork_join(scenario, trace, full=scenario == "full", stderr=r.stderr)
        check_exit_in_task(binary, tmp)
        prefix = os.path.join(tmp, "api")
        r = run(binary, "perfetto-api", prefix)
        print(r.stdout, end="")
        if r.returncode != 0:
            fail("perfetto-api", f"exit {r.returncode}: {r.stderr.strip()[-2000:]}")
        else:
            for name in ("streamed.pftrace", "whole.perfetto-trace", "again.pftrace"):
                trace = load("perfetto-api", f"{prefix}-{name}")
                if trace is not None:
                    check_fork_join(f"perfetto-api ({name})", trace,
                                    want_inside=name == "streamed.pftrace")
            midway = load("perfetto-api (midway)", f"{prefix}-midway.pftrace", finished=False)
            if midway is not None and not any(t.slices for t in midway.tracks.values()):
                fail("perfetto-api", "the file brought up to date holds no slices")
            if os.path.exists(f"{prefix}-other.pftrace"):
                fail("perfetto-api", "weft_trace_write wrote a streamed session to another file")
            if "keeps no events for another file" not in r.stderr or \
                    "none are kept for another file" not in r.stderr or \
                    "cannot open /nonexistent-dir/x.pftrace" not in r.stderr:
                fail("perfetto-api", f"messages missing: {r.stderr.strip()[-1000:]}")
        # A child forked while the parent streams, with the same WEFT_TRACE:
        # the parent's file stays whole, the child writes <stem>.<pid>.
        path = os.path.join(tmp, "forked.pftrace")
        r = run(binary, "forked", path)
        children = re.findall(r"^child (\d+)$", r.stdout, re.M)
        if r.returncode != 0 or not children:
            fail("forked", f"exit {r.returncode}: {r.stderr.strip()[-2000:]}")
        else:
            files = [("the parent's", path)]
            for pid in children:
                theirs = os.path.join(tmp, f"forked.{pid}.pftrace")
                files.append((f"child {pid}'s", theirs))
                if f"another process is writing {path}" not in r.stderr or \
                        theirs not in r.stderr:
                    fail("forked", f"child {pid} does not say where it writes: "
                                   f"{r.stderr.strip()[-1000:]}")
            for who, p in files:
                trace = load(f"forked ({who})", p)
                if trace is not None:
                    check_fork_join(f"forked ({who})", trace)
        # The picture (scripts/trace_render.py) from this format: the same
        # task slices and arrows as the reader's, and a PNG.
        check_render(os.path.join(tmp, "fork-join.pftrace"), tmp)
        # A file cut inside a packet (a program that died while writing):
        # read up to its last whole packet, and said to be cut there.
        whole = os.path.join(tmp, "fork-join.pftrace")
        cut = os.path.join(tmp, "cut.pftrace")
        with open(whole, "rb") as f:
            data = f.read()
        # Where each packet starts, so that the cut falls inside one (two
        # thirds in, or one byte after that if a packet starts there).
        starts = [start for *_, start in pftrace._packets(memoryview(data), pftrace.Trace())]
        at = len(data) * 2 // 3
        if at in starts:
            at += 1
        packet = max(b for b in starts if b < at)
        with open(cut, "wb") as f:
            f.write(data[:at])
        full, part = load("cut", whole), load("cut", cut, finished=False)
        if full is not None and part is not None:
            if part.truncated_at != packet or not 0 < part.packets < full.packets or \
                    full.truncated_at is not None:
                fail("cut", f"a file cut at byte {at} of {len(data)}, inside the packet at "
                            f"{packet}: {part.packets} packets of {full.packets}, said to be cut "
                            f"at {part.truncated_at}")
            else:
                print(f"ok: cut: a file cut inside a packet is read up to byte "
                      f"{part.truncated_at}: {part.packets} packets of {full.packets}")
        # A device with no space, streamed: the write's errno is named.
        nospace = os.path.join(tmp, "nospace.pftrace")
        os.symlink("/dev/full", nospace)
        check_no_space(binary, nospace, "a streamed trace's write error")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
