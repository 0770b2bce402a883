#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads a trace that weft wrote in Perfetto's format (a .pftrace file:
docs/timeline.md) back into tracks, slices, instants and arrows, as a
trace viewer would: each sequence's clock, interned names and default
track; slices nested by their BEGIN and END.  It reads the fields weft
writes and skips any other.

    python3 scripts/weft_pftrace.py FILE.pftrace    # a summary

As a module: read(path) -> Trace (tests/trace/check_pftrace.py,
scripts/trace_render.py).  A file that is not such a trace raises
PftraceError with what is wrong and where.  A file that ends inside a
packet (one being written, or a program that died while writing it) is
read up to its last whole packet; Trace.truncated_at says where it was
cut (None: it was not).
"""
import sys
from collections import Counter, defaultdict


class PftraceError(Exception):
    pass


def _varint(buf, i):
    shift = value = 0
    while True:
        if i >= len(buf):
            raise PftraceError(f"a varint runs past the end at byte {i}")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, i
        shift += 7
        if shift > 63:
            raise PftraceError(f"a varint longer than 10 bytes at byte {i}")


def fields(buf, start=0, end=None):
    """(field, wire type, value) of a message: ints for varints and
    fixed64, memoryviews for length-delimited fields."""
    i, end = start, len(buf) if end is None else end
    while i < end:
        key, i = _varint(buf, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 1:
            if i + 8 > end:
                raise PftraceError(f"a fixed64 field runs past its message at byte {i}")
            value = int.from_bytes(buf[i:i + 8], "little")
            i += 8
        elif wire == 2:
            n, i = _varint(buf, i)
            if i + n > end:
                raise PftraceError(f"field {field} ({n} bytes) runs past its message at byte {i}")
            value = buf[i:i + n]
            i += n
        elif wire == 5:
            value = int.from_bytes(buf[i:i + 4], "little")
            i += 4
        else:
            raise PftraceError(f"wire type {wire} at byte {i}")
        yield field, wire, value


def _packets(buf, trace):
    """The Trace message's fields, up to the last whole one, each with the
    byte it starts at: a field that runs past the end of the file is a
    packet cut off (noted in trace)."""
    i = 0
    while i < len(buf):
        start = i
        try:
            key, i = _varint(buf, i)
            if key & 7 != 2:
                raise PftraceError(f"a Trace holds only packets (field 1), not field {key >> 3} "
                                   f"(wire type {key & 7}) at byte {start}")
            n, i = _varint(buf, i)
        except PftraceError as e:
            if "runs past the end" not in str(e):
                raise
            trace.truncated_at = start
            return
        if i + n > len(buf):
            trace.truncated_at = start
            return
        yield key >> 3, 2, buf[i:i + n], start
        i += n


def _msg(value):
    return list(fields(value)) if isinstance(value, memoryview) else []


class Slice:
    __slots__ = ("name", "cat", "start", "end", "depth", "args", "flows_out", "flows_in")

    def __init__(self, name, cat, start, depth, args):
        self.name, self.cat, self.start, self.end = name, cat, start, None
        self.depth, self.args = depth, args
        self.flows_out, self.flows_in = [], []


class Track:
    def __init__(self, uuid):
        self.uuid, self.name, self.parent, self.rank = uuid, None, 0, None
        self.slices = []  # in order of their BEGIN
        self.instants = []  # Slice objects with end == start
        self.open = []


class Trace:
    def __init__(self):
        self.tracks = {}
        self.packets = 0
        self.primary_clock = None
        self.flows = defaultdict(list)  # id -> [(kind, Slice)]: kind "out" or "in"
        self.truncated_at = None  # the byte where a last, partial packet starts
        self.size = 0  # the file's bytes
        self.start_ns = None  # when tracing started (CLOCK_MONOTONIC), from the first snapshot

    def track(self, uuid):
        if uuid not in self.tracks:
            self.tracks[uuid] = Track(uuid)
        return self.tracks[uuid]

    def summary(self):
        """The end-of-trace instant's arguments (dropped events, counters)."""
        for t in self.tracks.values():
            for s in t.instants:
                if s.name == "end of trace":
                    return s.args
        return None


class _Sequence:
    def __init__(self):
        self.clear()
        self.clocks = {}  # sequence clock id -> its time
        self.incremental = set()

    def clear(self):
        self.names, self.cats, self.arg_names, self.arg_strings = {}, {}, {}, {}
        self.clock_id, self.track_uuid = None, None


def _interned(seq, data):
    tables = {1: seq.cats, 2: seq.names, 3: seq.arg_names, 29: seq.arg_strings}
    for field, _, value in fields(data):
        if field in tables:
            entry = dict((f, v) for f, _, v in fields(value))
            name = entry.get(2, b"")
            tables[field][entry.get(1, 0)] = bytes(name).decode("utf-8", "replace")


def read(path):
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    trace = Trace()
    trace.size = len(buf)
    sequences = defaultdict(_Sequence)
    events = []  # (time, order, sequence, track uuid, event fields)
    for field, wire, packet, _ in _packets(buf, trace):
        if field != 1 or wire != 2:
            raise PftraceError(f"a Trace holds only packets (field 1), not field {field}")
        trace.packets += 1
        p = defaultdict(list)
        for f, _, v in fields(packet):
            p[f].append(v)
        seq_id = p[10][0] if p[10] else 0
        seq = sequences[seq_id]
        if p[13] and p[13][0] & 1:
            seq.clear()
        for snapshot in p[6]:
            for f, _, v in fields(snapshot):
                if f == 2:
                    trace.primary_clock = v
                if f == 1:
                    clock = dict((cf, cv) for cf, _, cv in fields(v))
                    if clock.get(1) == 3 and trace.start_ns is None:
                        trace.start_ns = clock.get(2, 0)
                    if clock.get(1, 0) >= 64:
                        seq.clocks[clock[1]] = clock.get(2, 0)
                        if clock.get(3):
                            seq.incremental.add(clock[1])
        for defaults in p[59]:
            for f, _, v in fields(defaults):
                if f == 58:
                    seq.clock_id = v
                if f == 11:
                    for ef, _, ev in fields(v):
                        if ef == 11:
                            seq.track_uuid = ev
        for data in p[12]:
            _interned(seq, data)
        for td in p[60]:
            d = dict((f, v) for f, _, v in fields(td))
            t = trace.track(d.get(1, 0))
            t.name = bytes(d.get(2, b"")).decode("utf-8", "replace")
            t.parent = d.get(5, 0)
            t.rank = d.get(12)
        for te in p[11]:
            clock = p[58][0] if p[58] else seq.clock_id
            ts = p[8][0] if p[8] else 0
            if clock is not None and clock >= 64:
                if clock not in seq.clocks:
                    raise PftraceError(f"packet {trace.packets}: clock {clock} of sequence "
                                       f"{seq_id} has no snapshot")
                if clock in seq.incremental:
                    seq.clocks[clock] += ts
                    ts = seq.clocks[clock]
            e = defaultdict(list)
            for f, _, v in fields(te):
                e[f].append(v)
            uuid = e[11][0] if e[11] else seq.track_uuid
            name = seq.names.get(e[10][0]) if e[10] else None
            args = {}
            for a in e[4]:
                ad = dict((f, v) for f, _, v in fields(a))
                key = seq.arg_names.get(ad.get(1), "?")
                if 17 in ad:
                    args[key] = seq.arg_strings.get(ad[17], "?")
                elif 3 in ad:
                    args[key] = ad[3]
            cat = ",".join(seq.cats.get(c, "?") for c in e[3])
            kind = e[9][0] if e[9] else 0
            events.append((ts, len(events), uuid, kind, name, cat, args, e[47], e[48]))
    # A viewer orders every event by time (stable among equal times).
    events.sort(key=lambda x: (x[0], x[1]))
    for ts, _, uuid, kind, name, cat, args, flows_out, flows_in in events:
        t = trace.track(uuid)
        if kind == 1:
            s = Slice(name, cat, ts, len(t.open), args)
            t.open.append(s)
            t.slices.append(s)
        elif kind == 2:
            if not t.open:
                raise PftraceError(f"track {t.name or uuid}: an END at {ts} ns with no slice open")
            s = t.open.pop()
            s.end = ts
            s.args.update(args)
        elif kind == 3:
            s = Slice(name, cat, ts, len(t.open), args)
            s.end = ts
            t.instants.append(s)
        else:
            raise PftraceError(f"track {t.name or uuid}: an event of type {kind}")
        for fid in flows_out:
            trace.flows[fid].append(("out", s))
            s.flows_out.append(fid)
        for fid in flows_in:
            trace.flows[fid].append(("in", s))
            s.flows_in.append(fid)
    return trace


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        trace = read(sys.argv[1])
    except (OSError, PftraceError) as e:
        print(f"weft_pftrace: {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    print(f"{sys.argv[1]}: {trace.packets} packets")
    if trace.truncated_at is not None:
        print(f"  the file ends inside a packet: its last {trace.size - trace.truncated_at} bytes, "
              f"from byte {trace.truncated_at} (a packet being written, or cut off), are not read")
    for t in sorted(trace.tracks.values(), key=lambda t: (t.parent, t.rank or 0, t.uuid)):
        if not t.slices and not t.instants:
            continue
        by = Counter(s.args.get("started_by") for s in t.slices if "started_by" in s.args)
        top = Counter(s.name for s in t.slices).most_common(3)
        print(f"  {t.name}: {len(t.slices)} slices, {len(t.instants)} instants, open at the end "
              f"{len(t.open)}; started by {dict(by)}; most: {top}")
    summary = trace.summary()
    if summary is not None:
        print(f"  end of trace: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
