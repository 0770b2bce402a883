#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the shares (busy, looking for work, ...) and the busy curve of
scripts/trace_render.py on one timeline written in both of weft's trace
formats: a .pftrace, where a task the runtime starts inside another (a
task stolen while waiting at a SYNC, a RUN inside a task) is a slice
nested in the outer one, and the JSON, where the outer slice is cut
around it (docs/timeline.md).

  - the shares of each format, over the whole timeline and over windows,
    add up to at most 100 % and agree between the formats;
  - the busy curve never exceeds the number of workers and is the same
    from both formats;
  - the picture is drawn from both (when matplotlib is there);
  - files that are not weft traces (JSON of another shape, events without
    their fields, JSON nested past Python's recursion limit, no slices,
    a .pftrace with the wire type of each field it reads changed, and
    300 random byte changes): weft_pftrace.read raises only PftraceError,
    and scripts/weft_pftrace.py and trace_render.py refuse the file with
    one line naming it, a nonzero exit and no picture.

The .pftrace is written here with the fields scripts/weft_pftrace.py
reads: track descriptors, interned names and categories, a clock
snapshot and BEGIN/END events (and, for the changed bytes, sequence
flags, packet defaults with an incremental clock, event arguments and
flows).

Usage: check_shares.py <scripts dir>
"""
import contextlib
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile

FAILURES = []


def fail(what):
    FAILURES.append(what)
    print(f"FAIL: {what}", file=sys.stderr)


# The timeline, in µs: per worker, slices as (start, end, category, name,
# inner slices).  Worker 0's task waits at a SYNC for a stolen task and
# runs another task meanwhile, then makes a RUN inside itself; worker 1
# nests three deep.
WORKERS = [
    [(0, 10, "search", "looking for work", []),
     (10, 50, "task", "outer", [
         (20, 40, "join", "SYNC: stolen task not done", [
             (25, 35, "task", "stolen", [])]),
         (42, 48, "task", "inner", [])]),
     (50, 60, "search", "looking for work", []),
     (60, 100, "task", "outer", [])],
    [(0, 30, "search", "looking for work", []),
     (30, 80, "task", "outer", [
         (40, 70, "task", "inner", [
             (50, 60, "task", "stolen", [])])]),
     (80, 100, "sleep", "asleep", [])],
]
T0_NS = 5_000_000  # the clock snapshot: where tracing started


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, value):
    """A protobuf field: an int as a varint, bytes length-delimited."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value)
    return varint(number << 3 | 2) + varint(len(value)) + value


def pftrace():
    """The timeline as a .pftrace: one packet per event, each a sequence
    of its own."""
    names, cats = {}, {}
    packets = []

    def iid(table, text, kind):
        if text not in table:
            table[text] = len(table) + 1
            entry = field(1, table[text]) + field(2, text.encode())
            packets.append(field(10, 1) + field(12, field(kind, entry)))
        return table[text]

    packets.append(field(10, 1) + field(6, field(1, field(1, 3) + field(2, T0_NS)) + field(2, 3)))
    packets.append(field(10, 1) + field(60, field(1, 1) + field(2, b"weft (test, 2 workers)")))
    events = []

    def walk(track, slices):
        for start, end, cat, name, inner in slices:
            events.append((start, 0, track, 1, cat, name))
            walk(track, inner)
            events.append((end, 1, track, 2, cat, name))

    for rank, slices in enumerate(WORKERS):
        uuid = 100 + rank
        packets.append(field(10, 1) + field(60, field(1, uuid) + field(2, f"worker {rank}".encode())
                                            + field(5, 1) + field(12, rank)))
        walk(uuid, slices)
    # Each track's events in time order (an END before a BEGIN at the same
    # instant); the reader orders them by time, keeping that order.
    for t, _, track, kind, cat, name in events:
        event = field(9, kind) + field(11, track)
        if kind == 1:
            event += field(3, iid(cats, cat, 1)) + field(10, iid(names, name, 2))
        packets.append(field(10, 1) + field(8, T0_NS + t * 1000) + field(11, event))
    return b"".join(field(1, p) for p in packets)


def fixed64(number, value):
    return varint(number << 3 | 1) + value.to_bytes(8, "little")


def full_pftrace():
    """pftrace() and a sequence with the other fields the reader reads:
    sequence flags, a clock snapshot with an incremental clock, packet
    defaults naming it and a track, interned argument names and strings,
    instants with arguments and a flow between them."""
    def entry(iid, text):
        return field(1, iid) + field(2, text.encode())
    packets = [
        field(10, 2) + field(13, 1)
        + field(6, field(1, field(1, 64) + field(2, T0_NS) + field(3, 1)) + field(2, 64))
        + field(59, field(58, 64) + field(11, field(11, 100))),
        field(10, 2) + field(12, field(2, entry(1, "mark")) + field(3, entry(1, "note"))
                             + field(3, entry(2, "count")) + field(29, entry(1, "text"))),
        field(10, 2) + field(8, 100_000) + field(11, field(9, 3) + field(10, 1)
                                                 + field(4, field(1, 1) + field(17, 1))
                                                 + fixed64(47, 7)),
        field(10, 2) + field(8, 0) + field(11, field(9, 3) + field(10, 1) + field(11, 101)
                                           + field(4, field(1, 2) + field(3, 5))
                                           + fixed64(48, 7)),
    ]
    return pftrace() + b"".join(field(1, p) for p in packets)


# The fields read that hold messages, by the path of fields to them.
SUBMESSAGES = {(): {1}, (1,): {6, 11, 12, 59, 60}, (1, 6): {1}, (1, 59): {11},
               (1, 12): {1, 2, 3, 29}, (1, 11): {4}}


def read_varint(buf, i):
    shift = value = 0
    while True:
        value |= (buf[i] & 0x7F) << shift
        i += 1
        if not buf[i - 1] & 0x80:
            return value, i
        shift += 7


def keys(buf, start=0, end=None, path=()):
    """Where the key of each field of a well-formed trace is: (byte,
    path of fields to it)."""
    i, end = start, len(buf) if end is None else end
    while i < end:
        at = i
        key, i = read_varint(buf, i)
        number, wire = key >> 3, key & 7
        yield at, path + (number,)
        if wire == 0:
            _, i = read_varint(buf, i)
        elif wire == 1:
            i += 8
        elif wire == 2:
            n, i = read_varint(buf, i)
            if number in SUBMESSAGES.get(path, ()):
                yield from keys(buf, i, i + n, path + (number,))
            i += n


def run_main(main, argv):
    """A command-line tool's main() run here: its exit status and what it
    wrote to stderr; an exception out of it is what a traceback shows."""
    err = io.StringIO()
    saved = sys.argv
    sys.argv = argv
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main()
    except Exception as e:  # noqa: BLE001 -- any is a failure
        rc, err = "raised", io.StringIO(f"Traceback: {type(e).__name__}: {e}")
    finally:
        sys.argv = saved
    return rc, err.getvalue()


def refused(tool, rc, err, path, want_rc, out=None):
    """That a tool refused a file: the exit status, one line on stderr
    naming it, no traceback, no picture."""
    lines = err.strip().splitlines()
    ok = rc == want_rc and len(lines) == 1 and path in lines[0] and "Traceback" not in err
    drawn = out is not None and os.path.exists(out)
    if drawn:
        os.unlink(out)
    if not ok or drawn:
        fail(f"{tool} on {os.path.basename(path)}: exit {rc}, stderr {err.strip()[-300:]!r}"
             + (", a picture written" if drawn else ""))
    return ok and not drawn


def check_bad_pftrace(tmp, scripts):
    """The wire type of each field of a trace changed, and random bytes
    changed: weft_pftrace.read raises PftraceError and nothing else; the
    tools refuse such files with one line.  Returns how many were tried
    and how many of them were read."""
    import trace_render
    import weft_pftrace
    # A reader that takes a changed byte for a size may allocate it: a
    # MemoryError here, not the machine's memory taken.
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft > 4 << 30:
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, hard))
    good = full_pftrace()
    path = os.path.join(tmp, "changed.pftrace")
    png = os.path.join(tmp, "changed.png")
    with open(path, "wb") as f:
        f.write(good)
    try:
        weft_pftrace.read(path)
    except weft_pftrace.PftraceError as e:
        fail(f"the .pftrace written here is not read: {e}")
        return 0
    cases = []  # (what, bytes, whether it must be refused)
    seen = set()
    for at, fields in keys(good):
        for wire in (0, 1, 2, 5):
            if wire == good[at] & 7:
                continue
            changed = bytearray(good)
            changed[at] = changed[at] & ~7 | wire
            # Every field written is one the reader reads: read with
            # another wire type, the file is not a weft trace.
            cases.append((f"field {'.'.join(map(str, fields))} at byte {at} as wire type {wire}",
                          bytes(changed), True, (fields, wire) not in seen))
            seen.add((fields, wire))
    rnd = random.Random(300)
    for n in range(300):
        changed = bytearray(good)
        for _ in range(rnd.randint(1, 4)):
            changed[rnd.randrange(len(changed))] = rnd.randrange(256)
        cases.append((f"random change {n}", bytes(changed), False, n % 10 == 0))
    subprocesses = read = 0
    for what, data, must_refuse, by_command in cases:
        with open(path, "wb") as f:
            f.write(data)
        try:
            trace = weft_pftrace.read(path)
        except weft_pftrace.PftraceError as e:
            if must_refuse and "byte" not in str(e):
                fail(f"{what}: refused without saying where: {e}")
            trace = None
        except Exception as e:  # noqa: BLE001 -- any other is a failure
            fail(f"{what}: weft_pftrace.read raised {type(e).__name__}: {e}")
            continue
        if trace is not None and must_refuse:
            fail(f"{what}: read as a weft trace")
        if trace is not None:
            read += 1
            try:
                trace_render.Trace.from_perfetto(trace)
            except ValueError:
                pass  # trace_render says what is wrong in one line
            except Exception as e:  # noqa: BLE001
                fail(f"{what}: trace_render.Trace.from_perfetto raised {type(e).__name__}: {e}")
            rc, err = run_main(weft_pftrace.main, ["weft_pftrace.py", path])
            if rc != 0 or "Traceback" in err:
                fail(f"{what}: read, but weft_pftrace.py exits {rc}: {err[-300:]!r}")
            continue
        if not by_command:
            continue  # the tools' refusal of one file per changed field and wire type is enough
        rc, err = run_main(weft_pftrace.main, ["weft_pftrace.py", path])
        refused("weft_pftrace.py", rc, err, path, 2)
        rc, err = run_main(lambda: trace_render.main([path, "-o", png]), ["trace_render.py"])
        refused("trace_render.py", rc, err, path, 1, png)
        # Some as the programs they are: the exit status and stderr of
        # the process.
        if by_command and subprocesses < 4:
            subprocesses += 1
            for tool, want_rc, extra in (("weft_pftrace.py", 2, []),
                                         ("trace_render.py", 1, ["-o", png])):
                p = subprocess.run([sys.executable, os.path.join(scripts, tool), path] + extra,
                                   capture_output=True, text=True, timeout=60)
                refused(tool, p.returncode, p.stderr, path, want_rc,
                        png if tool == "trace_render.py" else None)
    return len(cases), read


def check_bad_json(tmp, scripts):
    """Files trace_render.py cannot draw: one line naming the file, exit
    status 1, no picture.  Returns how many were tried."""
    event = {"ph": "X", "pid": 1, "tid": 0, "ts": 0, "dur": 5, "name": "a", "cat": "task"}
    bad = {
        "array.json": [],
        "events_not_a_list.json": {"traceEvents": 5},
        "events_not_objects.json": {"traceEvents": [1, "x", None]},
        "no_ts.json": {"traceEvents": [{k: v for k, v in event.items() if k != "ts"}]},
        "infinite_dur.json": {"traceEvents": [dict(event, dur=float("inf"))]},
        "string_pid.json": {"traceEvents": [event, dict(event, pid="a")]},
        "list_name.json": {"traceEvents": [dict(event, name=["a"])]},
        "other_not_object.json": {"traceEvents": [event], "otherData": []},
        "deep.json": "[" * 100000 + "]" * 100000,
        "no_slices.json": {"traceEvents": []},
        "profile.json": {"weft_profile": 1, "regions": [], "task_types": []},
        "empty.pftrace": b"",
    }
    for name, content in bad.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(content if isinstance(content, bytes) else
                    (content if isinstance(content, str) else json.dumps(content)).encode())
        out = os.path.join(tmp, name + ".png")
        p = subprocess.run([sys.executable, os.path.join(scripts, "trace_render.py"), path,
                            "-o", out], capture_output=True, text=True, timeout=60)
        if refused("trace_render.py", p.returncode, p.stderr, path, 1, out) and \
                name in ("no_slices.json", "empty.pftrace") and "no slices" not in p.stderr:
            fail(f"trace_render.py on {name}: {p.stderr.strip()!r} does not say it has no slices")
    return len(bad)


def json_trace():
    """The same timeline as the JSON writes it: no slice overlaps another,
    an outer slice is cut where an inner one starts and resumes after."""
    events = [{"ph": "M", "pid": 1, "name": "process_name",
               "args": {"name": "weft (test, 2 workers)"}}]

    def cut(slices):
        out = []
        for start, end, cat, name, inner in slices:
            at = start
            for part in cut(inner):
                if part[0] > at:
                    out.append((at, part[0], cat, name))
                out.append(part)
                at = part[1]
            if end > at:
                out.append((at, end, cat, name))
        return out

    for rank, slices in enumerate(WORKERS):
        events.append({"ph": "M", "pid": 1, "tid": rank, "name": "thread_name",
                       "args": {"name": f"worker {rank}"}})
        for start, end, cat, name in cut(slices):
            events.append({"ph": "X", "pid": 1, "tid": rank, "ts": start, "dur": end - start,
                           "cat": cat, "name": name})
    return {"traceEvents": events}


def main():
    sys.path.insert(0, sys.argv[1])
    import trace_render
    import weft_pftrace

    with tempfile.TemporaryDirectory() as tmp:
        pf_path = os.path.join(tmp, "nested.pftrace")
        js_path = os.path.join(tmp, "nested.json")
        with open(pf_path, "wb") as f:
            f.write(pftrace())
        with open(js_path, "w", encoding="utf-8") as f:
            json.dump(json_trace(), f)
        nested = trace_render.Trace.from_perfetto(weft_pftrace.read(pf_path))
        with open(js_path, encoding="utf-8") as f:
            flat = trace_render.Trace(json.load(f))
        depth = max(s.depth for t in weft_pftrace.read(pf_path).tracks.values() for s in t.slices)
        if depth < 2:
            fail(f"the .pftrace written here nests slices {depth} deep, not 2")
        traces = {"pftrace": nested, "json": flat}
        workers = {}
        for fmt, t in traces.items():
            workers[fmt] = [k for k in t.rows() if k[0] == 1]
            if len(workers[fmt]) != len(WORKERS):
                fail(f"{fmt}: {len(workers[fmt])} worker tracks, not {len(WORKERS)}")
                return 1
            if t.extent() != (0.0, 100.0):
                fail(f"{fmt}: the timeline spans {t.extent()}, not (0, 100) µs")
        windows = [(0, 100), (15, 45), (22, 55), (45, 65), (26, 34), (5, 95)]
        for lo, hi in windows:
            shares = {}
            for fmt, t in traces.items():
                shares[fmt] = trace_render.summary(t, workers[fmt], lo, hi)
                total = sum(shares[fmt].values())
                if total > 1 + 1e-9:
                    fail(f"{fmt}, {lo}-{hi} µs: the shares add up to {total:.1%}: {shares[fmt]}")
                xs, busy = trace_render.busy_curve(t, workers[fmt], lo, hi, bins=50)
                if max(busy) > len(WORKERS) + 1e-9:
                    fail(f"{fmt}, {lo}-{hi} µs: the busy curve reaches {max(busy):.3f} with "
                         f"{len(WORKERS)} workers")
                shares[fmt + " curve"] = busy
            cats = set(shares["pftrace"]) | set(shares["json"])
            if any(abs(shares["pftrace"].get(c, 0) - shares["json"].get(c, 0)) > 1e-9
                   for c in cats):
                fail(f"{lo}-{hi} µs: shares from the .pftrace {shares['pftrace']}, "
                     f"from the JSON {shares['json']}")
            if any(abs(a - b) > 1e-9 for a, b in zip(shares["pftrace curve"],
                                                      shares["json curve"])):
                fail(f"{lo}-{hi} µs: the busy curves of the two formats differ")
        # The whole timeline: worker 0 runs tasks 10-20, 25-35, 40-50 and
        # 60-100, waits at the SYNC 20-25 and 35-40; worker 1 runs tasks
        # 30-80.
        whole = trace_render.summary(nested, workers["pftrace"], 0, 100)
        expect = {"task": (70 + 50) / 200, "search": (20 + 30) / 200, "join": 10 / 200,
                  "sleep": 20 / 200}
        if any(abs(whole.get(c, 0) - v) > 1e-9 for c, v in expect.items()):
            fail(f"whole timeline: shares {whole}, not {expect}")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("(no matplotlib here: the pictures not drawn)")
        else:
            for fmt, t in traces.items():
                out = os.path.join(tmp, f"{fmt}.png")
                trace_render.render(t, out)
                trace_render.render(t, out, 15, 45)
                with open(out, "rb") as f:
                    if f.read(8) != b"\x89PNG\r\n\x1a\n":
                        fail(f"{fmt}: no PNG drawn")
        changed = check_bad_pftrace(tmp, sys.argv[1])
        hostile = check_bad_json(tmp, sys.argv[1])
        # A window bound that is not a finite number: argparse's exit 2,
        # one line that says so, no picture.
        for opt in ("--start", "--end"):
            for bad in ("nan", "inf", "-inf", "x"):
                out = os.path.join(tmp, "bound.png")
                p = subprocess.run([sys.executable, os.path.join(sys.argv[1], "trace_render.py"),
                                    js_path, "-o", out, f"{opt}={bad}"], capture_output=True,
                                   text=True, timeout=60)
                if p.returncode != 2 or "number of µs" not in p.stderr or \
                        "Traceback" in p.stderr or os.path.exists(out):
                    fail(f"trace_render.py {opt} {bad}: exit {p.returncode}, "
                         f"{p.stderr.strip()!r}")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    print(f"ok: trace_render's shares and busy curve agree between a nested .pftrace and its "
          f"JSON over {len(windows)} windows, at most 100 % and at most {len(WORKERS)} workers; "
          f"of {changed[0]} changed .pftrace files {changed[0] - changed[1]} refused and "
          f"{changed[1]} read; {hostile} files that are not traces refused; window bounds that are "
          f"not finite numbers refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
