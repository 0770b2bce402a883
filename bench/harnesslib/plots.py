# SPDX-License-Identifier: Apache-2.0
"""PNG plots of a run (matplotlib, Agg backend: no display needed).

  <stem>-speedup.png   T_S/T_P against P, one panel per benchmark, a line
                       per system, error bars from the repetitions
  <stem>-overhead.png  (T_1 - T_S)/N_T per benchmark and weft scheduler on
                       a log scale (bars, each labelled "overhead ..."),
                       and the work per task G_T = T_S/N_T (a tick, labelled
                       "work ...")
  <stem>-peers.png     T_S/T_P at the largest P, bars grouped by benchmark,
                       one per system, error bars from the repetitions; an
                       empty slot says why ("failed", "not ported", "n/a")

Each is meant to be read without the tables: titles and axes say what is
drawn, bars carry their values, error bars span the lowest to the highest
per-repetition ratio, and a caption line gives the machine, commit and
date.  Legends sit inside the figure: in a free panel slot, or in a row
under the title.  Value labels never overlap: once the layout is final,
a label that would cover another is moved up until it does not
(_declutter); on the peers plot it is moved above the error-bar caps and
the ideal line it would cross too.
"""
import math
import os
import textwrap

from .measure import FAILED, NO_PEERS, NOT_PORTED
from .report import (fmt_duration, fmt_ratio, granularity_of, input_label,
                     negative_overhead_note)


def caption(run):
    m = run["machine"]
    commit = (m.get("commit") or "?") + (" (dirty)" if m.get("dirty") else "")
    return (f"{m.get('cpu', '?')}, {m.get('cpus', '?')} CPUs, {m.get('kernel', '?')}; "
            f"commit {commit}; {m.get('date', '?')}; suite {run['suite']}, "
            f"{run['reps']} repetition(s); points and bars: medians of per-repetition ratios, "
            f"error bars: their lowest and highest")


def _systems(run):
    names = []
    for r in run["results"]:
        for name, s in r["systems"].items():
            if s["status"] not in (NOT_PORTED, NO_PEERS) and name not in names:
                names.append(name)
    return names


def speedup_spread(record, system, w):
    """(median, lowest, highest) of the per-repetition T_S/T_w, or None."""
    s = record["systems"].get(system)
    if not s or s["status"] in (NOT_PORTED, NO_PEERS):
        return None
    ratios = sorted(a / b for a, b in zip(record["seq"], s["times"].get(str(w), []))
                    if a is not None and b is not None and b > 0)
    if not ratios:
        return None
    mid = len(ratios) // 2
    median = ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2
    return median, ratios[0], ratios[-1]


def _finish(fig, run, path, bottom=0.0):
    # About 17 characters of 7-point text per inch of figure width.
    text = textwrap.fill(caption(run), width=int(fig.get_figwidth() * 17))
    fig.text(0.5, 0.005, text, ha="center", va="bottom", fontsize=7, color="0.3")
    fig.savefig(path, dpi=110)


def _declutter(fig, texts, step=1.5, limit=80, obstacles=None):
    """Moves annotations up, `step` points at a time, until none covers
    another or crosses an obstacle (lowest first, so each keeps its place
    unless a lower one is in the way).  `obstacles(renderer)` gives the
    display boxes of marks a label must not cross (error-bar caps, the
    ideal line).  Call it after the layout is final."""
    if not texts:
        return
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    placed = list(obstacles(renderer)) if obstacles else []
    for t in sorted(texts, key=lambda t: (t.get_window_extent(renderer).y0,
                                          t.get_window_extent(renderer).x0)):
        for _ in range(limit):
            box = t.get_window_extent(renderer)
            if not any(box.overlaps(b) for b in placed):
                break
            x, y = t.xyann
            t.xyann = (x, y + step)
        placed.append(t.get_window_extent(renderer))


def peer_obstacles(fig, ax, renderer):
    """The display boxes of the peers plot's error-bar caps and its ideal
    line, which value labels must not cross."""
    from matplotlib.transforms import Bbox
    boxes = []
    for c in ax.containers:
        bars = getattr(c, "errorbar", None)
        if bars is None:
            continue
        _data, caplines, _barlines = bars.lines
        for cap in caplines:
            half = cap.get_markersize() * fig.dpi / 72 / 2 + cap.get_markeredgewidth()
            for x, y in ax.transData.transform(cap.get_xydata()):
                boxes.append(Bbox([[x - half, y - 1.5], [x + half, y + 1.5]]))
    for line in ax.get_lines():
        if line.get_label().startswith("ideal"):
            box = line.get_window_extent(renderer)
            boxes.append(Bbox([[box.x0, box.y0 - 1.5], [box.x1, box.y1 + 1.5]]))
    return boxes


def _grid(n):
    """(rows, columns) for n panels: at most 3 columns, and as few empty
    slots as the shape allows (one free slot holds the legend)."""
    if n <= 3:
        return 1, n
    cols = 2 if n == 4 else 3
    return math.ceil(n / cols), cols


def _legend_in_figure(fig, spare, handles, labels):
    """The legend in the first spare panel slot, or in rows under the
    panels when every slot holds one.  Returns the height in inches it
    takes under the panels."""
    if spare:
        spare[0].axis("off")
        spare[0].legend(handles, labels, loc="center", fontsize=8, frameon=False)
        for ax in spare[1:]:
            fig.delaxes(ax)
        return 0.0
    ncol = min(len(labels), 5)
    height = 0.22 * math.ceil(len(labels) / ncol) + 0.1
    fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(0.5, 0.4 / fig.get_figheight()),
               ncol=ncol, fontsize=8, frameon=False)
    return height


def speedup_figure(run, plt):
    records, workers = run["results"], run["workers"]
    systems = _systems(run)
    colors = {name: plt.cm.tab10(i % 10) for i, name in enumerate(systems)}
    n = len(records)
    rows, cols = _grid(n)
    fig, axes = plt.subplots(rows, cols, figsize=(max(3.9 * cols, 7.5), 3.1 * rows + 1.2),
                             squeeze=False, sharey=True)
    flat = list(axes.flat)
    labels_drawn = []
    top = max([max(workers)] + [q[2] for r in records for name in systems for w in workers
                                if (q := speedup_spread(r, name, w))])
    for ax, r in zip(flat, records):
        lines = 0
        for name in systems:
            points = [(w, speedup_spread(r, name, w)) for w in workers]
            points = [(w, q) for w, q in points if q is not None]
            if not points:
                continue
            lines += 1
            xs = [w for w, _ in points]
            ys = [q[0] for _, q in points]
            err = [[q[0] - q[1] for _, q in points], [q[2] - q[0] for _, q in points]]
            ax.errorbar(xs, ys, yerr=err, fmt="-o" if name.startswith("weft-") else "--s",
                        color=colors[name], label=name, capsize=3, markersize=4, linewidth=1.4)
        ax.plot(workers, workers, ":", color="0.55", label="ideal: P")
        if lines <= 3:
            for name in systems:
                q = speedup_spread(r, name, max(workers))
                if q:
                    labels_drawn.append(ax.annotate(
                        f"{q[0]:.2f}", (max(workers), q[0]), textcoords="offset points",
                        xytext=(5, 0), va="center", fontsize=7, color=colors[name]))
        ax.set_title(f"{r['benchmark']}\n" + textwrap.shorten(input_label(r), 44), fontsize=9)
        ax.set_xticks(workers)
        ax.set_xlim(min(workers) - 0.3, max(workers) + 0.6)
        ax.set_ylim(0, top * 1.12)
        ax.grid(alpha=0.3)
    for i, ax in enumerate(flat[:n]):
        if i % cols == 0:
            ax.set_ylabel("T_S / T_P")
        if i + cols >= n:
            ax.set_xlabel("workers P")
            ax.tick_params(labelbottom=True)
    handles, labels = [], []
    for ax in flat[:n]:
        for handle, text in zip(*ax.get_legend_handles_labels()):
            if text not in labels:
                handles.append(handle)
                labels.append(text)
    below = _legend_in_figure(fig, flat[n:], handles, labels)
    fig.suptitle("Speedup over the sequential C program, T_S / T_P (higher is better)")
    # Room at the bottom for the caption (0.4 in) and a legend under the panels.
    fig.tight_layout(rect=(0, (0.4 + below) / fig.get_figheight(), 1, 0.97))
    _declutter(fig, labels_drawn)
    return fig


def overhead_figure(run, plt):
    """None when no weft scheduler has a positive or negative overhead."""
    records = run["results"]
    weft = [s for s in _systems(run) if s.startswith("weft-")]
    colors = {name: plt.cm.tab10(i % 10) for i, name in enumerate(_systems(run))}
    values = {name: [granularity_of(r, name) for r in records] for name in weft}
    if not any(g["overhead_ns"] is not None for gs in values.values() for g in gs):
        return None
    n = len(records)
    band = 0.8 / (len(weft) + 1)
    fig, ax = plt.subplots(figsize=(9, 0.25 * n * (len(weft) + 1) + 2.2))
    positive = [g["overhead_ns"] for gs in values.values() for g in gs
                if g["overhead_ns"] and g["overhead_ns"] > 0]
    work = [g["gt_us"] * 1e3 for gs in values.values() for g in gs if g["gt_us"]]
    low = min(positive + work + [1.0]) / 3
    labels_drawn = []
    past_tick = []  # (an overhead label, the x of the work tick in its row)
    for i, name in enumerate(weft):
        ys = [k + (i - (len(weft) - 1) / 2) * band for k in range(n)]
        labelled = False
        for y, g, r in zip(ys, values[name], records):
            v = g["overhead_ns"]
            if v is not None and v > 0:
                ax.barh(y, v - low, band, left=low, color=colors[name],
                        label=None if labelled else f"bar: overhead per task, {name}")
                labelled = True
                # At the bar's end, saying what it is: the work mark has a
                # label of its own.
                labels_drawn.append(ax.annotate(
                    f"overhead {fmt_duration(v * 1e-9)}", (v, y), textcoords="offset points",
                    xytext=(4, 0), va="center", fontsize=7, color=colors[name]))
                if g["gt_us"]:
                    past_tick.append((labels_drawn[-1], g["gt_us"] * 1e3))
                continue
            text = ("n/a (no counters or T_1)" if v is None else
                    f"{fmt_duration(v * 1e-9)}: {_short_reason(negative_overhead_note(r, name))}")
            labels_drawn.append(ax.annotate(
                f"overhead {text}", (low, y), textcoords="offset points", xytext=(3, 0),
                va="center", fontsize=7, color="0.35", style="italic"))
    gts = [next((values[name][k]["gt_us"] for name in weft if values[name][k]["gt_us"]), None)
           for k in range(n)]
    ax.scatter([g * 1e3 for g in gts if g], [k for k, g in enumerate(gts) if g], marker="|",
               s=300, color="0.2", linewidths=2, zorder=3,
               label="tick: work per task, G_T = T_S / N_T")
    for k, g in enumerate(gts):
        if g:
            # Above the tick (300 points^2: about 9 points each side of the row).
            labels_drawn.append(ax.annotate(
                f"work {fmt_duration(g * 1e-6)}", (g * 1e3, k), textcoords="offset points",
                xytext=(0, 10), ha="center", va="bottom", fontsize=7, color="0.2"))
    ax.set_xscale("log")
    ax.set_xlim(left=low, right=max(positive + work + [1.0]) * 8)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(_decade_label))
    ax.set_yticks(range(n))
    ax.set_yticklabels([r["benchmark"] for r in records])
    ax.set_ylim(n - 0.5, -0.8)  # inverted, with room above the first row's labels
    ax.set_xlabel("time per task (log scale)")
    ax.set_title("weft's overhead per task at one worker, (T_1 - T_S) / N_T (bars),\n"
                 "and the work each task does, T_S / N_T (ticks): a bar past the tick "
                 "costs more than the work",
                 fontsize=10, pad=24)
    ax.grid(axis="x", which="both", alpha=0.25)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(weft) + 1,
              frameon=False)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    # An overhead label sits inside its bar's end where it fits, away from
    # the tick; otherwise right of the bar, and right of the tick if the
    # tick would cross it.
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    low_px = ax.transData.transform((low, 0))[0]
    points = 72 / fig.dpi
    for text, tick in past_tick:
        box = text.get_window_extent(renderer)
        end_px = ax.transData.transform((text.xy[0], 0))[0]
        tick_px = ax.transData.transform((tick, 0))[0]
        # Right edges inside the bar to try: its end, then just left of the tick.
        for right in (end_px - 4, tick_px - 5):
            left = right - box.width
            if left >= low_px + 3 and right <= end_px - 4 and not left - 3 <= tick_px <= right + 3:
                text.set_horizontalalignment("right")
                text.xyann = ((right - end_px) * points, 0)
                text.set_color("white")
                break
        else:
            if box.x0 - 2 <= tick_px <= box.x1 + 2:
                x, y = text.xyann
                text.xyann = (x + (tick_px - box.x0) * points + 6, y)
    _declutter(fig, labels_drawn)
    return fig


def _decade_label(ns, _position=None):
    """Tick labels of a log axis in nanoseconds: 1 ns, 10 ns, 100 ns, 1 µs, ..."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3), ("ns", 1.0)):
        if ns >= scale * 0.999:
            return f"{ns / scale:g} {unit}"
    return f"{ns:g} ns"


def _short_reason(note):
    """A few words for the plot from negative_overhead_note's text."""
    if not note:
        return "negative"
    if "one repetition" in note:
        return "1 repetition, cannot tell"
    if "every repetition" in note:
        return "T_1 < T_S in every repetition"
    return "within noise"


def peers_figure(run, plt):
    records, workers = run["results"], run["workers"]
    systems = _systems(run)
    if all(name.startswith("weft-") for name in systems):
        return None  # no peer ran (--peers none): nothing to set beside weft
    colors = {name: plt.cm.tab10(i % 10) for i, name in enumerate(systems)}
    p = max(workers)
    n = len(records)
    fig, ax = plt.subplots(figsize=(min(16, max(7, n * (0.3 * len(systems) + 0.6) + 1.5)), 5.2))
    vertical = n * len(systems) > 12  # too narrow bars for a level label
    width = 0.8 / max(len(systems), 1)
    labels_drawn = []
    for i, name in enumerate(systems):
        xs = [k + (i - (len(systems) - 1) / 2) * width for k in range(n)]
        qs = [speedup_spread(r, name, p) for r in records]
        ys = [q[0] if q else 0 for q in qs]
        err = [[q[0] - q[1] if q else 0 for q in qs], [q[2] - q[0] if q else 0 for q in qs]]
        ax.bar(xs, ys, width, yerr=err, capsize=2, label=name, color=colors[name],
               hatch="" if name.startswith("weft-") else "//", edgecolor="white",
               error_kw={"elinewidth": 0.8, "ecolor": "0.25"})
        for x, q, r in zip(xs, qs, records):
            s = r["systems"].get(name)
            if q is not None:
                labels_drawn.append(ax.annotate(
                    f"{q[0]:.2f}", (x, q[2]), textcoords="offset points", xytext=(0, 3),
                    ha="center", va="bottom", fontsize=6 if vertical else 8,
                    rotation=90 if vertical else 0))
            else:
                # An empty slot says why: failed, not ported, or no
                # measurement at this worker count ("n/a").
                status = s["status"] if s is not None and s["status"] in (FAILED, NOT_PORTED) \
                    else "n/a"
                labels_drawn.append(ax.annotate(
                    status, (x, 0), textcoords="offset points", xytext=(0, 2), rotation=90,
                    ha="center", va="bottom", fontsize=7,
                    color="red" if status == FAILED else "0.4"))
    ax.axhline(p, linestyle=":", color="0.5", label=f"ideal: {p}")
    ax.set_xticks(range(n))
    ax.set_xticklabels([f"{r['benchmark']}\n{textwrap.shorten(r['args'], 18)}" for r in records],
                       fontsize=8)
    ax.set_ylabel(f"speedup T_S / T_{p} (higher is better)")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.08)
    ax.set_title(f"weft vs peers: speedup over the sequential C program at {p} workers",
                 pad=24)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0),
              ncol=min(len(systems) + 1, 8), frameon=False)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    _declutter(fig, labels_drawn, obstacles=lambda renderer: peer_obstacles(fig, ax, renderer))
    return fig


def plot_all(run, stem):
    """Writes the PNGs next to stem; returns their paths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    for suffix, make in (("speedup", speedup_figure), ("overhead", overhead_figure),
                         ("peers", peers_figure)):
        fig = make(run, plt)
        if fig is None:
            continue
        paths.append(f"{stem}-{suffix}.png")
        _finish(fig, run, paths[-1])
        plt.close(fig)
    return [os.path.abspath(q) for q in paths]


def clients_figure(run, plt):
    """The clients command's ratios weft / Lace on a log scale: one panel
    per condition, a point per case and worker count (median of the
    per-round ratios, its value beside it, error bars the lowest and
    highest), 1.0 marked."""
    records = [r for r in run["records"] if r.get("ratio") is not None]
    conditions = [c for c in run["conditions"] if any(r["condition"] == c for r in records)]
    if not conditions:
        return None
    programs = list(dict.fromkeys(r["program"] for r in records))
    colors = {p: plt.cm.tab10(i % 10) for i, p in enumerate(programs)}
    fig, axes = plt.subplots(1, len(conditions), figsize=(4.2 * len(conditions) + 1.5, 4.8),
                             squeeze=False, sharey=True)
    low = min(min(r["ratios"]) for r in records)
    high = max(max(r["ratios"]) for r in records)
    labels = []
    for ax, condition in zip(axes[0], conditions):
        rows = [r for r in records if r["condition"] == condition]
        workers = sorted({r["workers"] for r in rows})
        for r in rows:
            cases = [q for q in rows if q["workers"] == r["workers"]]
            k = cases.index(r)
            x = workers.index(r["workers"]) + (k - (len(cases) - 1) / 2) * (0.7 / max(len(cases), 1))
            ax.errorbar([x], [r["ratio"]], yerr=[[r["ratio"] - min(r["ratios"])],
                                                  [max(r["ratios"]) - r["ratio"]]],
                        fmt="o", color=colors[r["program"]], capsize=2, markersize=4)
            labels.append(ax.annotate(fmt_ratio(r["ratio"]), (x, r["ratio"]),
                                      textcoords="offset points", xytext=(3, 0), va="center",
                                      fontsize=6, color=colors[r["program"]]))
        ax.axhline(1.0, linestyle=":", color="0.4")
        ax.set_yscale("log")
        ax.set_xticks(range(len(workers)))
        ax.set_xticklabels([f"{w} worker{'' if w == 1 else 's'}" for w in workers])
        ax.set_xlim(-0.6, len(workers) - 0.4)
        ax.set_ylim(min(low, 0.5) / 1.5, max(high, 2.0) * 1.5)
        ax.set_title(condition, fontsize=10)
        ax.grid(axis="y", which="both", alpha=0.25)
    lo, hi = axes[0][0].get_ylim()
    axes[0][0].set_yticks([t for t in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
                           if lo <= t <= hi])
    axes[0][0].yaxis.set_major_formatter(plt.FuncFormatter(lambda y, _p: f"{y:g}"))
    axes[0][0].yaxis.set_minor_formatter(plt.NullFormatter())
    axes[0][0].set_ylabel("time on weft / time on Lace (log; below 1: weft faster)")
    handles = [plt.Line2D([], [], marker="o", linestyle="", color=colors[p]) for p in programs]
    rows_of_legend = math.ceil(len(programs) / 4)
    fig.legend(handles, programs, loc="lower center", ncol=min(len(programs), 4), fontsize=8,
               frameon=False, bbox_to_anchor=(0.5, 0.45 / fig.get_figheight()))
    fig.suptitle("Lace clients: weft's Lace packages against real Lace, median of the "
                 "per-round ratios (bars: lowest to highest)", fontsize=10)
    fig.tight_layout(rect=(0, (0.5 + 0.22 * rows_of_legend) / fig.get_figheight(), 1, 0.95))
    _declutter(fig, labels)
    return fig


def plot_clients(run, stem):
    """<stem>-ratios.png of the clients command's run; returns its path or None."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig = clients_figure(run, plt)
    if fig is None:
        return None
    m = run["machine"]
    text = (f"{m.get('cpu', '?')}, {m.get('cpus', '?')} CPUs, {m.get('kernel', '?')}; commit "
            f"{m.get('commit') or '?'}{' (dirty)' if m.get('dirty') else ''}; {m.get('date', '?')}; "
            f"{run['rounds']} round(s)")
    fig.text(0.5, 0.005, textwrap.fill(text, width=int(fig.get_figwidth() * 17)), ha="center",
             va="bottom", fontsize=7, color="0.3")
    path = f"{stem}-ratios.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return os.path.abspath(path)
