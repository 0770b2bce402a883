"""PNG plots of a run (matplotlib, Agg backend: no display needed).

  <stem>-speedup.png   T_S/T_P against P, one panel per benchmark, a line per system
  <stem>-overhead.png  (T_1 - T_S)/N_T in ns per benchmark, a bar per weft scheduler
  <stem>-peers.png     T_S/T_P at the largest P, bars grouped by benchmark, one per system

Each carries a caption line with the machine, commit and date, so a plot
read on its own says where it comes from.
"""
import math
import os
import textwrap

from .measure import FAILED, NOT_PORTED
from .report import granularity_of
from .stats import ratio_median


def caption(run):
    m = run["machine"]
    commit = (m.get("commit") or "?") + (" (dirty)" if m.get("dirty") else "")
    return (f"{m.get('cpu', '?')}, {m.get('cpus', '?')} CPUs, {m.get('kernel', '?')}; "
            f"commit {commit}; {m.get('date', '?')}; suite {run['suite']}, "
            f"{run['reps']} repetition(s), medians of per-repetition ratios")


def _systems(run):
    names = []
    for r in run["results"]:
        for name, s in r["systems"].items():
            if s["status"] not in (NOT_PORTED, "no peers") and name not in names:
                names.append(name)
    return names


def _speedup(record, system, w):
    s = record["systems"].get(system)
    if not s or s["status"] in (NOT_PORTED, "no peers"):
        return None
    return ratio_median(record["seq"], s["times"].get(str(w), []))


def _finish(fig, run, path):
    # About 17 characters of 7-point text per inch of figure width.
    text = textwrap.fill(caption(run), width=int(fig.get_figwidth() * 17))
    fig.text(0.5, 0.005, text, ha="center", va="bottom", fontsize=7, color="0.3")
    fig.savefig(path, dpi=110)


def plot_all(run, stem):
    """Writes the three PNGs next to stem; returns their paths."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    records, workers = run["results"], run["workers"]
    systems = _systems(run)
    colors = {name: plt.cm.tab10(i % 10) for i, name in enumerate(systems)}

    # 1. Speedup against workers, one panel per benchmark.
    n = len(records)
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols + 1.6, 3.4 * rows + 0.6),
                             squeeze=False)
    for ax, r in zip(axes.flat, records):
        for name in systems:
            ys = [_speedup(r, name, w) for w in workers]
            if all(y is None for y in ys):
                continue
            style = "-" if name.startswith("weft-") else "--"
            ax.plot(workers, [float("nan") if y is None else y for y in ys], style, marker="o",
                    color=colors[name], label=name)
        ax.plot(workers, workers, ":", color="0.6", label="ideal (P)")
        ax.set_title(f"{r['benchmark']} ({r['size']})\n" + textwrap.shorten(r["args"], 48),
                     fontsize=9)
        ax.set_xlabel("workers P")
        ax.set_ylabel("speedup T_S / T_P (x)")
        ax.set_xticks(workers)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    # One legend for all panels, outside them, so no line hides behind it.
    legend = {}
    for ax in axes.flat:
        for handle, text in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(text, handle)
    fig.legend(list(legend.values()), list(legend), loc="center right", fontsize=8)
    fig.suptitle("Speedup over the sequential C program against the number of workers")
    fig.tight_layout(rect=(0, 0.05, 0.86, 0.97))
    paths.append(f"{stem}-speedup.png")
    _finish(fig, run, paths[-1])
    plt.close(fig)

    # 2. Overhead per task, from the counters runs' task counts.
    weft = [s for s in systems if s.startswith("weft-")]
    bars = {name: [granularity_of(r, name)["overhead_ns"] for r in records] for name in weft}
    if any(v is not None for vals in bars.values() for v in vals):
        fig, ax = plt.subplots(figsize=(max(8, 1.3 * n + 2), 4.5))
        width = 0.8 / max(len(weft), 1)
        for i, name in enumerate(weft):
            xs = [k + (i - (len(weft) - 1) / 2) * width for k in range(n)]
            ys = [0 if v is None else v for v in bars[name]]
            drawn = ax.bar(xs, ys, width, label=name, color=colors[name])
            for rect, v in zip(drawn, bars[name]):
                label = "n/a" if v is None else (f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}")
                ax.annotate(label,
                            (rect.get_x() + rect.get_width() / 2, rect.get_height()),
                            ha="center", va="bottom", fontsize=7)
        ax.axhline(0, color="0.4", linewidth=0.8)
        ax.set_xticks(range(n))
        ax.set_xticklabels([r["benchmark"] for r in records], rotation=20)
        ax.set_ylabel("(T_1 - T_S) / N_T  (ns per task)")
        ax.set_xlabel("benchmark")
        ax.set_title("weft's overhead per task at one worker")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout(rect=(0, 0.06, 1, 1))
        paths.append(f"{stem}-overhead.png")
        _finish(fig, run, paths[-1])
        plt.close(fig)

    # 3. weft vs peers at the largest worker count.
    p = max(workers)
    fig, ax = plt.subplots(figsize=(max(9, 1.6 * n + 4), 4.8))
    width = 0.8 / max(len(systems), 1)
    for i, name in enumerate(systems):
        xs = [k + (i - (len(systems) - 1) / 2) * width for k in range(n)]
        ys = [_speedup(r, name, p) for r in records]
        drawn = ax.bar(xs, [0 if y is None else y for y in ys], width, label=name,
                       color=colors[name], hatch="" if name.startswith("weft-") else "//")
        for rect, y, r in zip(drawn, ys, records):
            s = r["systems"].get(name)
            if y is None and s is not None and s["status"] in (FAILED, NOT_PORTED):
                failed = s["status"] == FAILED
                ax.annotate(s["status"], (rect.get_x() + rect.get_width() / 2, 0), rotation=90,
                            ha="center", va="bottom", fontsize=7, color="red" if failed else "0.4")
    ax.axhline(p, linestyle=":", color="0.5", label=f"ideal ({p})")
    ax.set_xticks(range(n))
    ax.set_xticklabels([r["benchmark"] for r in records], rotation=20)
    ax.set_xlabel("benchmark")
    ax.set_ylabel(f"speedup T_S / T_{p} (x)")
    ax.set_title(f"weft vs peers: speedup over the sequential C program at {p} workers")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    paths.append(f"{stem}-peers.png")
    _finish(fig, run, paths[-1])
    plt.close(fig)
    return [os.path.abspath(q) for q in paths]
