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
  - the picture is drawn from both (when matplotlib is there).

The .pftrace is written here with the fields scripts/weft_pftrace.py
reads: track descriptors, interned names and categories, a clock
snapshot and BEGIN/END events.

Usage: check_shares.py <scripts dir>
"""
import json
import os
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
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed", file=sys.stderr)
        return 1
    print(f"ok: trace_render's shares and busy curve agree between a nested .pftrace and its "
          f"JSON over {len(windows)} windows, at most 100 % and at most {len(WORKERS)} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
