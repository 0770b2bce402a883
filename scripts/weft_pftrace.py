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


def _varint(buf, i, end=None):
    """The varint at byte i and the byte after it; end: where its message
    ends (the file's end when None)."""
    shift = value = 0
    while True:
        if end is not None and i >= end:
            raise PftraceError(f"a varint runs past its message at byte {i}")
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


WIRE_TYPES = {0: "a varint", 1: "a fixed64", 2: "length-delimited", 5: "a fixed32"}


def _scan(buf, start, end):
    """(field, wire type, value, byte of its key) of the message in
    buf[start:end]: ints for varints and fixed fields; for a
    length-delimited field the (start, end) of its bytes in buf, so that
    what is wrong inside it is told by its byte in the file."""
    i = start
    while i < end:
        at = i
        key, i = _varint(buf, i, end)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i, end)
        elif wire in (1, 5):
            n = 8 if wire == 1 else 4
            if i + n > end:
                raise PftraceError(f"field {field} ({WIRE_TYPES[wire]}) runs past its message "
                                   f"at byte {at}")
            value = int.from_bytes(buf[i:i + n], "little")
            i += n
        elif wire == 2:
            n, i = _varint(buf, i, end)
            if i + n > end:
                raise PftraceError(f"field {field} ({n} bytes) runs past its message at byte {i}")
            value = (i, i + n)
            i += n
        else:
            raise PftraceError(f"wire type {wire} (field {field}) at byte {at}")
        yield field, wire, value, at


def fields(buf, start=0, end=None):
    """(field, wire type, value) of a message: ints for varints and
    fixed64, memoryviews for length-delimited fields."""
    for field, wire, value, _ in _scan(buf, start, len(buf) if end is None else end):
        yield field, wire, buf[value[0]:value[1]] if wire == 2 else value


def _message(buf, span, what, wires):
    """The fields of the message at span in buf that wires names (field ->
    the wire type weft writes it with), each a list of its values in
    order; other fields are skipped.  A field read with another wire type
    is not weft's: what names the message in the error."""
    m = defaultdict(list)
    for field, wire, value, at in _scan(buf, *span):
        want = wires.get(field)
        if want is None:
            continue
        if wire != want:
            raise PftraceError(f"{what}: field {field} is {WIRE_TYPES[wire]}, not "
                               f"{WIRE_TYPES[want]}, at byte {at}")
        m[field].append(value)
    return m


def _last(m, field, default):
    return m[field][-1] if m[field] else default


def _text(buf, span):
    return bytes(buf[span[0]:span[1]]).decode("utf-8", "replace")


# The fields read, by message, and the wire type weft writes each with.
VARINT, FIXED64, BYTES = 0, 1, 2
PACKET = {6: BYTES, 8: VARINT, 10: VARINT, 11: BYTES, 12: BYTES, 13: VARINT, 58: VARINT,
          59: BYTES, 60: BYTES}
CLOCK_SNAPSHOT = {1: BYTES, 2: VARINT}
CLOCK = {1: VARINT, 2: VARINT, 3: VARINT}
PACKET_DEFAULTS = {11: BYTES, 58: VARINT}
EVENT_DEFAULTS = {11: VARINT}
INTERNED_DATA = {1: BYTES, 2: BYTES, 3: BYTES, 29: BYTES}
INTERNED_ENTRY = {1: VARINT, 2: BYTES}
TRACK_DESCRIPTOR = {1: VARINT, 2: BYTES, 5: VARINT, 12: VARINT}
TRACK_EVENT = {3: VARINT, 4: BYTES, 9: VARINT, 10: VARINT, 11: VARINT, 47: FIXED64,
               48: FIXED64}
DEBUG_ANNOTATION = {1: VARINT, 3: VARINT, 17: VARINT}


def _packets(buf, trace):
    """The Trace message's fields, up to the last whole one, each with the
    byte it starts at: (field, 2, the (start, end) of its bytes, start).
    A field that runs past the end of the file is a packet cut off (noted
    in trace)."""
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
        yield key >> 3, 2, (i, i + n), start
        i += n


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


def _interned(buf, seq, span, where):
    tables = {1: seq.cats, 2: seq.names, 3: seq.arg_names, 29: seq.arg_strings}
    data = _message(buf, span, f"{where}, interned data", INTERNED_DATA)
    for field, table in tables.items():
        for entry_span in data[field]:
            entry = _message(buf, entry_span, f"{where}, an interned entry", INTERNED_ENTRY)
            name = _last(entry, 2, (0, 0))
            table[_last(entry, 1, 0)] = _text(buf, name)


def read(path):
    with open(path, "rb") as f:
        buf = memoryview(f.read())
    trace = Trace()
    trace.size = len(buf)
    sequences = defaultdict(_Sequence)
    events = []  # (time, order, sequence, track uuid, event fields)
    for field, wire, span, start in _packets(buf, trace):
        if field != 1 or wire != 2:
            raise PftraceError(f"a Trace holds only packets (field 1), not field {field}")
        trace.packets += 1
        where = f"packet {trace.packets} (byte {start})"
        p = _message(buf, span, where, PACKET)
        seq_id = p[10][0] if p[10] else 0
        seq = sequences[seq_id]
        if p[13] and p[13][0] & 1:
            seq.clear()
        for snapshot in p[6]:
            snap = _message(buf, snapshot, f"{where}, clock snapshot", CLOCK_SNAPSHOT)
            if snap[2]:
                trace.primary_clock = snap[2][-1]
            for clock_span in snap[1]:
                clock = _message(buf, clock_span, f"{where}, a clock", CLOCK)
                clock_id = _last(clock, 1, 0)
                if clock_id == 3 and trace.start_ns is None:
                    trace.start_ns = _last(clock, 2, 0)
                if clock_id >= 64:
                    seq.clocks[clock_id] = _last(clock, 2, 0)
                    if _last(clock, 3, 0):
                        seq.incremental.add(clock_id)
        for defaults in p[59]:
            d = _message(buf, defaults, f"{where}, packet defaults", PACKET_DEFAULTS)
            if d[58]:
                seq.clock_id = d[58][-1]
            for ed in d[11]:
                ev = _message(buf, ed, f"{where}, track event defaults", EVENT_DEFAULTS)
                if ev[11]:
                    seq.track_uuid = ev[11][-1]
        for data in p[12]:
            _interned(buf, seq, data, where)
        for td in p[60]:
            d = _message(buf, td, f"{where}, track descriptor", TRACK_DESCRIPTOR)
            t = trace.track(_last(d, 1, 0))
            t.name = _text(buf, _last(d, 2, (0, 0)))
            t.parent = _last(d, 5, 0)
            t.rank = _last(d, 12, None)
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
            e = _message(buf, te, f"{where}, track event", TRACK_EVENT)
            uuid = e[11][0] if e[11] else seq.track_uuid
            if uuid is None:
                raise PftraceError(f"{where}: a track event with no track (none of its own, "
                                   f"none in its sequence's defaults)")
            name = seq.names.get(e[10][0]) if e[10] else None
            args = {}
            for a in e[4]:
                ad = _message(buf, a, f"{where}, an event argument", DEBUG_ANNOTATION)
                key = seq.arg_names.get(_last(ad, 1, None), "?")
                if ad[17]:
                    args[key] = seq.arg_strings.get(ad[17][-1], "?")
                elif ad[3]:
                    args[key] = ad[3][-1]
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
