#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws a weft trace (the Chrome Trace Event JSON that WEFT_TRACE=<file>
writes, or a trace in Perfetto's format, *.pftrace: docs/timeline.md) as a
PNG: one row per worker, coloured by what
it was doing -- running a task (busy), looking for work or waiting at a
SYNC for a stolen task (stealing), asleep, at a barrier or suspended --
arrows for steals and leaps from the victim to the thief, and underneath
the number of workers busy over time.  Work pool runs get rows of their
own, and threads outside the pool that called RUN a row showing how long
they waited.

usage: python3 scripts/trace_render.py TRACE.json|TRACE.pftrace [-o OUT.png]
                                      [--start US] [--end US] [--title TEXT]

Needs matplotlib (python3 -m pip install matplotlib).
"""
import argparse
import json
import math
import os
import sys
from collections import defaultdict

# What a slice's category means in the picture, and its colour.
STATES = [
    ("task", "running a task", "#2e9e44"),
    ("search", "looking for work", "#f0a030"),
    ("join", "at a SYNC, its task stolen: looking for work", "#d9661f"),
    ("sleep", "asleep", "#c8c8c8"),
    ("barrier", "interrupt barrier", "#8e6cc0"),
    ("parked", "suspended", "#6f6f6f"),
    ("external", "outside thread waiting for its RUN", "#4a7fc1"),
]
COLOUR = {cat: colour for cat, _, colour in STATES}
# Task slices are coloured by their task's name: the names with the most
# time get these (greens and blues, told apart from the idle states'
# oranges and greys); the rest stay the plain task colour.
TASK_PALETTE = ["#2e9e44", "#1b6e8f", "#7bbf3a", "#13876f", "#3f5fb0", "#86c9a1", "#0b4f2e",
                "#6fa8dc"]
# A name is written on a slice at least this share of the window wide.
LABEL_MIN_SHARE = 0.03
ARROWS = {"steal": "#c0392b", "leap": "#1f4e9a", "run": "#4a7fc1"}
MAX_ARROWS = 3000


def _finite(value):
    """Whether a JSON value is a finite number (not a bool)."""
    try:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value)
    except OverflowError:  # an integer past any float
        return False


def _track_key(text):
    """Whether an otherData key names a track as "pid/tid"."""
    parts = text.split("/")
    return len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts)


def _bad(n, e, what):
    return ValueError(f"event {n} (ph {e.get('ph')!r:.20}): {what}")


def _number(n, e, field):
    if not _finite(e.get(field)):
        raise _bad(n, e, f"\"{field}\" is {repr(e[field]) if field in e else 'missing':.40}, "
                   "not a finite number")
    return float(e[field])


def _text(n, e, field):
    value = e.get(field, "")
    if not isinstance(value, str):
        raise _bad(n, e, f"\"{field}\" is {value!r:.40}, not a string")
    return value


def _track(n, e):
    """An event's (pid, tid): integers, as weft writes them (the rows are
    sorted by them)."""
    key = (e.get("pid"), e.get("tid"))
    if not all(isinstance(k, int) and not isinstance(k, bool) for k in key):
        raise _bad(n, e, f"\"pid\" and \"tid\" are {key[0]!r:.20} and {key[1]!r:.20}, "
                   "not integers")
    return key


class Trace:
    """The events of a trace file, by track.  Data that is not a weft
    trace raises ValueError saying what is wrong."""

    def __init__(self, data):
        if not isinstance(data, dict) or "traceEvents" not in data:
            raise ValueError("not a weft trace: no \"traceEvents\" (a trace is what "
                             "WEFT_TRACE=<file> writes)")
        if not isinstance(data["traceEvents"], list):
            raise ValueError(f"\"traceEvents\" is {data['traceEvents']!r:.40}, not a list")
        self.other = data.get("otherData", {})
        if not isinstance(self.other, dict):
            raise ValueError("\"otherData\" is not an object")
        for field in ("dropped_by_track", "dropped_from_us"):
            by_track = self.other.get(field, {})
            if not isinstance(by_track, dict) or not all(
                    _track_key(k) and _finite(v) for k, v in by_track.items()):
                raise ValueError(f"\"otherData\": \"{field}\" is not an object of "
                                 "\"pid/tid\": number")
        if not _finite(self.other.get("dropped_events", 0)):
            raise ValueError("\"otherData\": \"dropped_events\" is not a number")
        self.names = {}
        self.process_names = {}
        self.slices = defaultdict(list)  # (pid, tid) -> [(start_us, dur_us, cat, name)]
        self.flows = []                   # (cat, (pid, tid) from, t_from, (pid, tid) to, t_to)
        self._exclusive = {}              # (pid, tid) -> exclusive(key)
        starts = {}
        for n, e in enumerate(data["traceEvents"]):
            if not isinstance(e, dict):
                raise ValueError(f"event {n} is not an object")
            ph = e.get("ph")
            if ph == "M" and e.get("name") in ("thread_name", "process_name"):
                args = e.get("args")
                name = args.get("name") if isinstance(args, dict) else None
                if not isinstance(name, str):
                    raise _bad(n, e, f"{e['name']} without a name in its \"args\"")
                if e["name"] == "thread_name":
                    self.names[_track(n, e)] = name
                elif isinstance(e.get("pid"), int) and not isinstance(e["pid"], bool):
                    self.process_names[e["pid"]] = name
                else:
                    raise _bad(n, e, f"\"pid\" is {e.get('pid')!r:.20}, not an integer")
            elif ph == "X":
                ts, dur = _number(n, e, "ts"), _number(n, e, "dur")
                if dur < 0:
                    raise _bad(n, e, f"a slice of duration {dur}")
                self.slices[_track(n, e)].append((ts, dur, _text(n, e, "cat"),
                                                  _text(n, e, "name")))
            elif ph == "s":
                if not isinstance(e.get("id"), (int, str)):
                    raise _bad(n, e, f"a flow whose \"id\" is {e.get('id')!r:.40}")
                starts[e["id"]] = (_text(n, e, "cat"), _track(n, e), _number(n, e, "ts"))
            elif ph == "f" and isinstance(e.get("id"), (int, str)) and e["id"] in starts:
                cat, src, t = starts.pop(e["id"])
                self.flows.append((cat, src, t, _track(n, e), _number(n, e, "ts")))

    @classmethod
    def from_perfetto(cls, pf):
        """The same picture's data from a trace in Perfetto's format (a
        weft_pftrace.Trace): the fork-join pool's tracks are process 1, the
        work pool runs' 2, 3, ... in order; times in µs from the start."""
        self = cls({"traceEvents": []})
        t0 = pf.start_ns or 0
        groups = sorted((t for t in pf.tracks.values() if not t.parent), key=lambda t: t.uuid)
        fork_join = [g for g in groups if (g.name or "").startswith("weft")]
        pools = [g for g in groups if g not in fork_join]
        pid_of = {g.uuid: 1 for g in fork_join}
        pid_of.update((g.uuid, 2 + i) for i, g in enumerate(pools))
        for g in groups:
            self.process_names[pid_of[g.uuid]] = g.name or ""
        key_of = {}  # id(Slice) -> (pid, tid)
        dropped_by = {}
        for t in pf.tracks.values():
            if not t.parent or t.parent not in pid_of:
                continue
            key = (pid_of[t.parent], t.rank if t.rank is not None else t.uuid)
            self.names[key] = t.name or ""
            for s in t.slices:
                key_of[id(s)] = key
                if s.end is not None:
                    cat = "external" if s.cat == "run" else s.cat
                    self.slices[key].append(((s.start - t0) / 1e3, (s.end - s.start) / 1e3, cat,
                                             s.name))
            for s in t.instants:
                key_of[id(s)] = key
                # (A gap's marker stands where recording resumed, not where
                # the drops began: counted, not drawn.)
                if s.cat == "dropped":
                    k = f"{key[0]}/{key[1]}"
                    dropped_by[k] = dropped_by.get(k, 0) + int(s.args.get("dropped", 0))
        for ends in pf.flows.values():
            out = [sl for kind, sl in ends if kind == "out"]
            into = [sl for kind, sl in ends if kind == "in"]
            if len(out) != 1 or len(into) != 1:
                continue
            a, b = out[0], into[0]
            # steals and leaps (victim -> thief), RUN hand-overs; wake-ups
            # keep their own category (not drawn)
            cat = ("leap" if b.name == "leap" else "steal") if a.cat == "steal" else a.cat
            if id(a) in key_of and id(b) in key_of:
                self.flows.append((cat, key_of[id(a)], (a.start - t0) / 1e3, key_of[id(b)],
                                   (b.start - t0) / 1e3))
        summary = pf.summary() or {}
        self.other = {"dropped_events": summary.get("dropped", 0), "dropped_by_track": dropped_by}
        return self

    def rows(self):
        """Tracks in drawing order: the pool's workers, outside threads,
        then each work pool run's workers."""
        def order(key):
            pid, tid = key
            outside = pid == 1 and "outside" in self.names.get(key, "")
            return (pid, 1 if outside else 0, tid)
        return sorted(self.slices, key=order)

    def exclusive(self, key):
        """A track's time, each instant given to the innermost slice open
        there: (start, duration, category, name) of the parts that do not
        overlap, in time order.  A .pftrace nests a task the runtime starts
        inside another (a RUN inside a task, a task stolen at a SYNC) in
        the outer slice; the JSON cuts the outer slice around it.  Either
        way the parts are the same, and a track's parts add up to at most
        its time.  Slices of no duration are kept as they are."""
        if key in self._exclusive:
            return self._exclusive[key]
        track = self.slices.get(key, [])
        if all(track[i][0] >= track[i - 1][0] + track[i - 1][1] for i in range(1, len(track))):
            self._exclusive[key] = track  # nothing nested (the JSON)
            return track
        parts = []
        stack = []  # the slices open, innermost last: (end, category, name)
        at = None   # where the time not yet given out starts

        def close_until(t):
            # The slices that end by t, innermost first, each given the
            # time up to its end that an inner one did not take.
            nonlocal at
            while stack and stack[-1][0] <= t:
                end, cat, name = stack.pop()
                if end > at:
                    parts.append((at, end - at, cat, name))
                    at = end
        ordered = sorted(enumerate(track), key=lambda x: (x[1][0], -x[1][1], x[0]))
        for _, (s, d, cat, name) in ordered:
            if at is not None:
                close_until(s)
                if stack and s > at:
                    end, ocat, oname = stack[-1]
                    parts.append((at, s - at, ocat, oname))
            if at is None or s > at:
                at = s
            if d > 0:
                stack.append((s + d, cat, name))
            else:
                parts.append((s, d, cat, name))
        if stack:
            close_until(max(e for e, _, _ in stack))
        self._exclusive[key] = parts
        return parts

    def extent(self):
        """The first slice's start and the last one's end, (0, 0) when there are none."""
        lo = min((s for track in self.slices.values() for s, _, _, _ in track), default=0.0)
        hi = max((s + d for track in self.slices.values() for s, d, _, _ in track), default=0.0)
        return lo, hi


def busy_curve(trace, keys, lo, hi, bins=600):
    """Time points and the number of the given tracks running a task in
    each bin (time-weighted; a task nested in another counts once)."""
    width = (hi - lo) / bins if hi > lo else 1.0
    busy = [0.0] * bins
    for key in keys:
        for s, d, cat, _ in trace.exclusive(key):
            if cat != "task" or d <= 0:
                continue
            a, b = max(s, lo), min(s + d, hi)
            if b <= a:
                continue
            i = int((a - lo) / width)
            while a < b and i < bins:
                edge = lo + (i + 1) * width
                part = min(b, edge) - a
                busy[i] += part / width
                a = min(b, edge)
                i += 1
    xs = [lo + (i + 0.5) * width for i in range(bins)]
    return xs, busy


def summary(trace, keys, lo, hi):
    """Share of the workers' time per category, over [lo, hi]: each
    instant counts for the innermost slice open there."""
    total = defaultdict(float)
    for key in keys:
        for s, d, cat, _ in trace.exclusive(key):
            a, b = max(s, lo), min(s + d, hi)
            if b > a:
                total[cat] += b - a
    span = (hi - lo) * max(len(keys), 1)
    return {cat: t / span for cat, t in total.items()}


def task_colours(trace, lo, hi):
    """The colour of each task name: the names with the most task time in
    [lo, hi] first."""
    time = defaultdict(float)
    for key in trace.slices:
        for s, d, cat, name in trace.exclusive(key):
            a, b = max(s, lo), min(s + d, hi)
            if cat == "task" and b > a:
                time[name] += b - a
    ranked = sorted(time, key=lambda n: -time[n])
    return {name: TASK_PALETTE[i] for i, name in enumerate(ranked[:len(TASK_PALETTE)])}


def window_bars(trace, key, lo, hi):
    """A track's slices cut to [lo, hi]: (start, duration, category, name)
    of each part that lies in the window, so that nothing drawn reaches
    outside it (a RUN caller's long wait would stretch the axis).  A
    slice nested in another cuts it in two, as in the JSON."""
    bars = []
    for s, d, cat, name in trace.exclusive(key):
        a, b = max(s, lo), min(s + d, hi)
        if b > a or (d == 0 and lo <= s <= hi):
            bars.append((a, b - a, cat, name))
    return bars


def window_flows(trace, lo, hi):
    """The steals, leaps and RUN hand-overs that begin and end in [lo, hi]."""
    return [f for f in trace.flows if lo <= f[2] <= hi and lo <= f[4] <= hi]


def render(trace, out, start=None, end=None, title=None):
    if not any(trace.slices.values()):
        raise ValueError("nothing to draw: the trace has no slices")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    first, last = trace.extent()
    lo = first if start is None else start
    hi = last if end is None else end
    rows = trace.rows()
    # A window before the trace, after it or in a gap holds nothing to
    # draw: refused, as an empty trace is, rather than drawn blank.
    if hi <= lo or not any(window_bars(trace, key, lo, hi) for key in rows):
        raise ValueError("nothing to draw: the trace has no slices in that window "
                         f"(its slices lie in {first:g} to {last:g} µs)")
    index = {key: i for i, key in enumerate(rows)}
    workers = [k for k in rows if k[0] == 1 and "outside" not in trace.names.get(k, "")]
    pools = sorted({k[0] for k in rows if k[0] != 1})
    scale, unit = (1e3, "ms") if hi - lo >= 2e3 else (1.0, "µs")

    height = 1.6 + 0.32 * len(rows) + 1.6 * (1 + len(pools))
    fig, axes = plt.subplots(2 + len(pools), 1, figsize=(13, max(height, 4.5)), sharex=True,
                             gridspec_kw={"height_ratios": [max(len(rows), 2) * 0.32 + 0.4]
                                          + [1.4] * (1 + len(pools))})
    ax = axes[0]
    tcolour = task_colours(trace, lo, hi)
    for key in rows:
        y = index[key]
        by_colour = defaultdict(list)
        for a, d, cat, name in window_bars(trace, key, lo, hi):
            colour = tcolour.get(name, COLOUR["task"]) if cat == "task" else \
                COLOUR.get(cat, "#999999")
            by_colour[colour].append(((a - lo) / scale, max(d / scale, (hi - lo) / scale / 4000)))
            # The task's name on a slice wide enough to hold it.
            b = a + d
            if cat == "task" and name and b - a >= LABEL_MIN_SHARE * (hi - lo):
                ax.text(((a + b) / 2 - lo) / scale, y, name, ha="center", va="center",
                        fontsize=6, color="white", clip_on=True)
        for colour, bars in by_colour.items():
            ax.broken_barh(bars, (y - 0.4, 0.8), facecolors=colour, linewidth=0)
    # Arrows: steals and leaps (victim -> thief), RUNs from outside threads.
    in_window = window_flows(trace, lo, hi)
    flows = [f for f in in_window if f[0] in ARROWS and f[1] in index and f[3] in index]
    step = max(1, len(flows) // MAX_ARROWS)
    for cat, src, t0, dst, t1 in flows[::step]:
        ax.annotate("", xy=((t1 - lo) / scale, index[dst]), xytext=((t0 - lo) / scale, index[src]),
                    arrowprops=dict(arrowstyle="-|>", color=ARROWS[cat], lw=0.7, alpha=0.8,
                                    shrinkA=0, shrinkB=0, mutation_scale=7))
    # Where a full buffer began to drop: the track has nothing after it.
    for track, t in trace.other.get("dropped_from_us", {}).items():
        key = tuple(int(x) for x in track.split("/"))
        if key in index and lo <= t <= hi:
            ax.plot([(t - lo) / scale], [index[key]], marker="X", color="#c0392b", markersize=7,
                    linestyle="none")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([trace.names.get(k, f"{k[0]}/{k[1]}") for k in rows], fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.grid(axis="x", color="#eeeeee", linewidth=0.6)
    counts = defaultdict(int)  # the window's
    for f in in_window:
        counts[f[0]] += 1
    # The shares: over the time tasks ran (first task to last), so that the
    # idle time before a program's first RUN and after its last does not
    # count; over the chosen window if one was given.
    busy = [s for k in workers for s in trace.slices[k] if s[2] == "task"]
    a = lo if start is not None or not busy else max(lo, min(s for s, _, _, _ in busy))
    b = hi if end is not None or not busy else min(hi, max(s + d for s, d, _, _ in busy))
    shares = summary(trace, workers, a, b) if b > a else {}
    head = title or trace.process_names.get(1, "weft trace")
    detail = []
    if workers:
        detail.append(f"from the first task to the last: busy {shares.get('task', 0):.0%}, "
                      f"looking for work {shares.get('search', 0) + shares.get('join', 0):.0%}, "
                      f"asleep {shares.get('sleep', 0):.0%}")
    windowed = start is not None or end is not None
    detail.append(f"{counts['steal']} steals, {counts['leap']} leaps"
                  + (f" in {lo / scale:g}-{hi / scale:g} {unit}" if windowed else ""))
    dropped = trace.other.get("dropped_events", 0)
    if dropped:
        by_track = trace.other.get("dropped_by_track", {})
        worst = sorted(by_track.items(), key=lambda kv: -kv[1])[:3]
        since = trace.other.get("dropped_from_us", {})

        def when(k):
            if k not in since:
                return ""
            t = since[k]
            mark = " (X)" if lo <= t <= hi else ""  # drawn only inside the window
            if t >= 1e6:
                return f" from {t / 1e6:.3f} s{mark}"
            return f" from {t / 1e3:.2f} ms{mark}" if t >= 1e3 else f" from {t:.1f} µs{mark}"
        where = ", ".join(f"{trace.names.get(tuple(int(x) for x in k.split('/')), k)} {v}{when(k)}"
                          for k, v in worst if v)
        detail.append(f"{dropped} events dropped{' in the whole trace' if windowed else ''} "
                      f"(buffers full{': ' + where if where else ''})")
    # The drops on a line of their own: they can be long.
    lines = ["; ".join(d for d in detail if "dropped" not in d)] + \
        [d for d in detail if "dropped" in d]
    ax.set_title("\n".join([head] + lines), fontsize=10)
    legend = [Patch(facecolor=c, label=f"task {name}") for name, c in tcolour.items()]
    legend += [Patch(facecolor=c, label=label) for cat, label, c in STATES
               if any(cat == s[2] for track in trace.slices.values() for s in track)
               and not (cat == "task" and tcolour)]
    legend += [Patch(facecolor=ARROWS[c], label=f"{c} arrow") for c in ("steal", "leap")
               if counts[c]]
    ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize=8,
              frameon=False)

    def curve(axis, keys, label):
        xs, busy = busy_curve(trace, keys, lo, hi)
        axis.fill_between([(x - lo) / scale for x in xs], busy, step="mid", color="#2e9e44",
                          alpha=0.75, linewidth=0)
        axis.set_ylim(0, max(len(keys), 1) * 1.05)
        axis.set_ylabel(f"{label}\nworkers busy", fontsize=8)
        axis.axhline(len(keys), color="#888888", linewidth=0.6, linestyle="--")
        axis.grid(axis="x", color="#eeeeee", linewidth=0.6)

    curve(axes[1], workers, "fork-join")
    for i, pid in enumerate(pools):
        keys = [k for k in rows if k[0] == pid]
        curve(axes[2 + i], keys, trace.process_names.get(pid, f"pool {pid}").split(" (")[0])
    axes[-1].set_xlabel(f"time ({unit}) from " + (f"{lo / scale:g} {unit}" if lo else
                                                 "the start of tracing"))
    axes[-1].set_xlim(0, (hi - lo) / scale)  # the window, whatever reaches outside it
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def window_bound(text):
    """A --start or --end: a finite number of µs."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of µs")
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of µs")
    return value


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace", help="the trace file (JSON, or Perfetto's format: *.pftrace)")
    ap.add_argument("-o", "--out", help="the PNG to write (default: the trace's name with .png)")
    ap.add_argument("--start", type=window_bound,
                    help="window start, µs from the start of tracing")
    ap.add_argument("--end", type=window_bound, help="window end, µs from the start of tracing")
    ap.add_argument("--title", help="the title (default: the traced process's name)")
    args = ap.parse_args(argv)
    perfetto = args.trace.endswith((".pftrace", ".perfetto-trace"))
    try:
        if perfetto:
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import weft_pftrace
            try:
                trace = Trace.from_perfetto(weft_pftrace.read(args.trace))
            except weft_pftrace.PftraceError as e:
                raise ValueError(str(e))
        else:
            with open(args.trace, encoding="utf-8") as f:
                trace = Trace(json.load(f))
    except (OSError, ValueError) as e:
        print(f"trace_render: cannot read {args.trace}: {e}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"trace_render: cannot read {args.trace}: JSON nested too deep to be a trace",
              file=sys.stderr)
        return 1
    out = args.out or os.path.splitext(args.trace)[0] + ".png"
    try:
        render(trace, out, args.start, args.end, args.title)
    except ImportError:
        print("trace_render: matplotlib is needed (python3 -m pip install matplotlib)",
              file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"trace_render: {args.trace}: {e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
