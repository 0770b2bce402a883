# SPDX-License-Identifier: Apache-2.0
"""The text report: the tables the harness prints on stdout.

  1. per system, Figure 5 of the Lace paper: T_S, T_1, T_P, T_S/T_P, T_1/T_P
  2. per weft scheduler, Figure 7: the counters of each counters run
  3. Wool's granularity: G_T = T_S / N_T and G_L = T_S / (steals + leaps)
  4. weft vs peers: T_S/T_P of every system side by side (no times: those
     are in table 1)
  5. what was skipped, and why

render() and the fmt_* helpers serve the other commands' tables too.
"""
from . import load
from .measure import FAILED, NO_PEERS, NOT_PORTED
from .stats import counters_median, median_or_none, median_spread, ratio_median

# Figure 7's columns first, the peak deque depth last, any other counter
# (tasks, steal_fails, a scheduler's own) in between in the binary's order.
FIG7_FIRST = ("steals", "leaps", "grows", "shrinks")
PEAK = "peak"


def render(head, rows, left=2, markdown=False):
    """Columns padded to their widest cell; the first `left` columns are
    left-aligned (names), the rest right-aligned (numbers).  markdown: a
    Markdown table instead (as docs/ carries them)."""
    cells = [[str(c) for c in head]] + [[str(c) for c in r] for r in rows]
    if markdown:
        rule = ["---" if i < left else "---:" for i in range(len(head))]
        return "\n".join("| " + " | ".join(r) + " |" for r in [cells[0], rule] + cells[1:])
    widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
    def line(r):
        return "  ".join(c.ljust(w) if i < left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(cells[0]), line(["-" * w for w in widths])] + [line(r) for r in cells[1:]])


def fmt_time(values):
    med, spread = median_spread(values)
    return "-" if med is None else f"{med:.3f} ±{spread:.0%}"


def fmt_ratio(x):
    """Two decimals; under 0.1 two significant digits, so that a ratio far
    under 1 does not read as 0.00."""
    if x is None:
        return "-"
    return f"{x:.2g}" if 0 < x < 0.1 else f"{x:.2f}"


def fmt_interval(interval, digits=2):
    """A median's interval (stats.median_interval) as "low-high", or "-"
    when the values were too few to give one."""
    return "-" if interval is None else f"{interval[0]:.{digits}f}-{interval[1]:.{digits}f}"


def fmt_count(x):
    if x is None:
        return "-"
    return f"{int(x)}" if float(x).is_integer() else f"{x:.1f}"


def fmt_thousands(x):
    """A count with thousands separators: 9,227,464."""
    if x is None:
        return "-"
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.1f}"


_DURATION_UNITS = (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9))


def fmt_duration(seconds):
    """A duration in the largest unit it reaches (s, ms, µs, ns), to three
    significant digits and never in exponent notation: 1.00 ns, 20.0 ms,
    143 ns, -204 ns, 1,234 s."""
    if seconds is None:
        return "-"
    unit, scale = next(((u, f) for u, f in _DURATION_UNITS if abs(seconds) >= f),
                       _DURATION_UNITS[-1])
    value = seconds / scale
    digits = 0 if abs(value) >= 99.95 else 1 if abs(value) >= 9.995 else 2
    return f"{value:,.{digits}f} {unit}"


def input_label(record):
    """`<input>: <arguments>`, where <input> names the run's choice of
    input the same way on every row (quick, small, medium, paper, targets)."""
    return f"{record.get('input') or record['size']}: {record['args']}"


def short_input(record, width=26):
    text = input_label(record)
    return text if len(text) <= width else text[:width - 3] + "..."


def system_names(records):
    names = []
    for r in records:
        for name in r["systems"]:
            if name not in names:
                names.append(name)
    return names


def ceiling_of(record, p):
    """p T_S / (mean time of p sequential copies run at once), per
    repetition, median: the best T_S/T_p this host allows."""
    conc = record.get("concurrent_seq") or []
    return ratio_median([p * t for t in record["seq"][:len(conc)]], conc) if conc else None


def figure5(records, system, workers, show_ceiling):
    """Table 1 for one system, or None if it ran no workload."""
    p = max(workers)
    head = (["benchmark", "input", "T_S"] + [f"T_{w}" for w in workers]
            + ["T_1/T_S", f"T_S/T_{p}", f"T_1/T_{p}"] + (["ceiling"] if show_ceiling else []))
    rows, notes = [], []
    for r in records:
        s = r["systems"].get(system)
        if s is None or s["status"] == NO_PEERS:
            continue
        row = [r["benchmark"], short_input(r), fmt_time(r["seq"])]
        if s["status"] == NOT_PORTED:
            row += [NOT_PORTED] + ["-"] * (len(head) - len(row) - 1)
            rows.append(row)
            continue
        t = s["times"]
        t1 = t.get("1")
        row += [fmt_time(t[str(w)]) if median_or_none(t[str(w)]) is not None
                else (FAILED if s["status"] == FAILED else "-") for w in workers]
        row += [fmt_ratio(ratio_median(t1, r["seq"]) if t1 else None),
                fmt_ratio(ratio_median(r["seq"], t[str(p)])),
                fmt_ratio(ratio_median(t1, t[str(p)]) if t1 and p != 1 else None)]
        if show_ceiling:
            row.append(fmt_ratio(ceiling_of(r, p)))
        if s["status"] == FAILED:
            notes.append(f"  {r['benchmark']}: FAILED {s['message']}")
        rows.append(row)
    if not rows:
        return None
    return "\n".join([render(head, rows)] + notes)


def counter_columns(runs):
    seen = []
    for run in runs:
        for name in run:
            if name not in seen:
                seen.append(name)
    first = [c for c in FIG7_FIRST if c in seen]
    rest = [c for c in seen if c not in FIG7_FIRST and c != PEAK]
    return first + rest + ([PEAK] if PEAK in seen else [])


def figure7(records, system):
    """Table 2 for one weft system: a row per counters run and the median."""
    runs_all = [run for r in records for run in r["counters"].get(system, [])]
    if not runs_all:
        return None
    columns = counter_columns(runs_all)
    head = ["benchmark", "run"] + ["peak depth" if c == PEAK else c for c in columns]
    rows = []
    for r in records:
        runs = r["counters"].get(system, [])
        for i, run in enumerate(runs):
            rows.append([r["benchmark"], str(i + 1)] + [fmt_count(run.get(c)) for c in columns])
        if len(runs) > 1:
            med = counters_median(runs)
            rows.append([r["benchmark"], "median"] + [fmt_count(med.get(c)) for c in columns])
    return render(head, rows)


def granularity(records, system):
    """Table 3: Wool's G_T and G_L and the overhead per task, each a
    duration with its unit; a negative overhead is starred and explained
    under the table."""
    head = ["benchmark", "T_S", "N_T (tasks)", "steals+leaps", "G_T = T_S/N_T",
            "G_L = T_S/(steals+leaps)", "(T_1-T_S)/N_T"]
    rows, notes = [], []
    for r in records:
        runs = r["counters"].get(system)
        if not runs:
            continue
        g = granularity_of(r, system)
        overhead = fmt_duration(None if g["overhead_ns"] is None else g["overhead_ns"] * 1e-9)
        note = negative_overhead_note(r, system)
        if note:
            overhead += " *"
            notes.append(f"* {r['benchmark']}: {note}")
        rows.append([r["benchmark"], fmt_duration(g["ts"]),
                     fmt_thousands(g["tasks"]), fmt_thousands(g["migrations"]),
                     fmt_duration(None if g["gt_us"] is None else g["gt_us"] * 1e-6),
                     fmt_duration(None if g["gl_us"] is None else g["gl_us"] * 1e-6),
                     overhead])
    if not rows:
        return None
    return "\n".join([render(head, rows, left=1)] + ([""] if notes else []) + notes)


def negative_overhead_note(record, system):
    """Why (T_1 - T_S)/N_T is negative, or None if it is not: the spread
    of the repetitions (noise), a 1-worker run faster in every repetition
    (the programs differ in more than the scheduler), or too few
    repetitions to tell."""
    s = record["systems"].get(system)
    if not s:
        return None
    pairs = [(a, b) for a, b in zip(s["times"].get("1") or [], record["seq"])
             if a is not None and b is not None]
    t1, ts = median_or_none([a for a, _ in pairs]), median_or_none([b for _, b in pairs])
    if t1 is None or ts is None or t1 >= ts:
        return None
    if len(pairs) < 2:
        return ("T_1 < T_S in one repetition: too few to tell noise from a real difference "
                "(run with --reps 3 or more).")
    t1s, tss = [a for a, _ in pairs], [b for _, b in pairs]
    if max(t1s) < min(tss):
        return (f"weft at 1 worker was faster than the sequential program in every repetition "
                f"(T_1/T_S {ratio_median(t1s, tss):.2f}): the two programs differ in more than "
                f"the scheduler (code and data layout, what the compiler made of each), and here "
                f"that outweighs weft's overhead, which is too small to measure on this "
                f"benchmark.")
    return (f"T_1 < T_S by less than the spread of the repetitions (T_S "
            f"{fmt_duration(min(tss))} to {fmt_duration(max(tss))}, T_1 {fmt_duration(min(t1s))} "
            f"to {fmt_duration(max(t1s))}): noise; weft's overhead per task is too small to "
            f"measure here.")


def granularity_of(record, system):
    """T_S, N_T, steals + leaps, G_T and G_L in µs, (T_1 - T_S)/N_T in ns."""
    med = counters_median(record["counters"].get(system) or [])
    ts = median_or_none(record["seq"])
    tasks = med.get("tasks")
    migrations = (med["steals"] + med.get("leaps", 0)) if "steals" in med else None
    t1 = None
    s = record["systems"].get(system)
    if s and "1" in s["times"]:
        t1 = median_or_none(s["times"]["1"])
    return {
        "ts": ts, "tasks": tasks, "migrations": migrations,
        "gt_us": ts / tasks * 1e6 if ts is not None and tasks else None,
        "gl_us": ts / migrations * 1e6 if ts is not None and migrations else None,
        "overhead_ns": (t1 - ts) / tasks * 1e9 if None not in (t1, ts) and tasks else None,
    }


def versus(records, workers):
    """Table 4: T_S/T_P at the largest P, a row per workload and a column
    per system (FAILED, not ported, or `-` where a system has no figure).
    Only speedups: the times behind them are in table 1."""
    p = max(workers)
    names = [n for n in system_names(records)
             if any(r["systems"].get(n, {}).get("status") not in (None, NO_PEERS)
                    for r in records)]
    head = ["benchmark", "input"] + names
    rows = []
    for r in records:
        row = [r["benchmark"], short_input(r)]
        for name in names:
            s = r["systems"].get(name)
            if s is None or s["status"] == NO_PEERS:
                row.append("-")
            elif s["status"] == NOT_PORTED:
                row.append(NOT_PORTED)
            else:
                x = ratio_median(r["seq"], s["times"].get(str(p), []))
                row.append(fmt_ratio(x) if x is not None
                           else (FAILED if s["status"] == FAILED else "-"))
        rows.append(row)
    return render(head, rows)


def skipped_lines(peer_skips, scheduler_skips, job_notes, records):
    """Table 5: every system or workload left out, with its reason."""
    lines = [f"  scheduler {s}: {why}" for s, why in scheduler_skips.items()]
    lines += [f"  peer {p}: {why}" for p, why in peer_skips.items()]
    for r in records:
        for name, s in r["systems"].items():
            if s["status"] == NOT_PORTED:
                lines.append(f"  {name} on {r['benchmark']}: not ported ({s['message']})")
            elif s["status"] == FAILED:
                lines.append(f"  {name} on {r['benchmark']}: FAILED {s['message']}"
                             f" (`{s.get('command', '?')}`)")
        if any(s["status"] == NO_PEERS for s in r["systems"].values()):
            lines.append(f"  peers on {r['benchmark']}: none expected (bench.json \"peers\": false)")
    lines += [f"  {note}" for note in job_notes]
    return lines


def targets(records, micro):
    """The figures weft promises (docs/performance.md) against this run."""
    by = {r["benchmark"]: r for r in records}
    weft = next((n for n in system_names(records) if n.startswith("weft-")), None)
    rows = []
    def add(what, value, op, bound):
        if value is None:
            rows.append(f"  {what:<38} {'-':>9}   target {op} {bound}")
            return
        ok = value <= bound if op == "<=" else value >= bound
        rows.append(f"  {what:<38} {value:9.2f}   target {op} {bound:<6} {'ok' if ok else 'MISSED'}")
    def times(name, w):
        return by[name]["systems"][weft]["times"].get(str(w)) or [] if weft else []
    if "fib" in by:
        add("fib T_1/T_S", ratio_median(times("fib", 1), by["fib"]["seq"]), "<=", 1.6)
        add("fib T_2/T_S", ratio_median(times("fib", 2), by["fib"]["seq"]), "<=", 0.9)
    for name in ("matmul", "queens", "uts-T3L"):
        if name in by:
            add(f"{name} T_S/T_2", ratio_median(by[name]["seq"], times(name, 2)), ">=", 1.9)
            ceiling = ceiling_of(by[name], 2)
            if ceiling is not None:
                rows.append(f"  {'  (host ceiling: 2 T_S / two seq at once)':<38} {ceiling:9.2f}")
    if micro:
        add("idle CPU per worker (%)", micro["idle_cpu_percent"], "<=", 1.0)
        add("cold RUN latency, median (us)", micro["cold_run_latency_us"], "<=", 50)
    return f"Targets ({weft}; ratios: medians of per-repetition ratios):\n" + "\n".join(rows)


def full_report(run):
    """All tables of a finished run (the dict written as JSON)."""
    records, workers = run["results"], run["workers"]
    p = max(workers)
    m = run["machine"]
    commit = m.get("commit") or "?"
    if m.get("dirty"):
        commit += " (dirty)"
    out = [f"weft benchmarks: suite '{run['suite']}', {run['reps']} repetition(s), workers "
           f"{','.join(map(str, workers))}, commit {commit}, {m.get('date', '?')}, "
           f"{m.get('cpu', '?')} ({m.get('cpus', '?')} CPUs)", ""]
    busy = load.warning(run.get("other_load"))
    if busy:
        out[-1:-1] = [busy]
    show_ceiling = any(r.get("concurrent_seq") for r in records)
    out.append("== 1. Times and speedups per system (Lace Figure 5)")
    out.append("Seconds: median ±half the range over the repetitions.  T_S: the sequential C "
               "program; T_w: the system at w workers; ratios: medians of per-repetition ratios.  "
               f"input: the {run['suite']} input of each benchmark and its arguments "
               "(--list shows them all).")
    if show_ceiling:
        out.append(f"ceiling: {p} T_S / time of {p} sequential copies run at once, the best "
                   f"T_S/T_{p} this host allows.")
    for name in system_names(records):
        table = figure5(records, name, workers, show_ceiling)
        if table:
            out += ["", f"-- {name}", table]
    weft_systems = [n for n in system_names(records)
                    if any(r["systems"][n]["kind"] == "weft" for r in records if n in r["systems"])]
    counted = [n for n in weft_systems if any(r["counters"].get(n) for r in records)]
    out += ["", f"== 2. Counters per run at {p} workers, counters build (Lace Figure 7)"]
    if not counted:
        out.append("(no counters runs: --no-counters)")
    for name in counted:
        out += ["", f"-- {name}", figure7(records, name)]
    out += ["", "== 3. Granularity (Wool): G_T = T_S/N_T (work per task), G_L = "
            "T_S/(steals+leaps) (work per migration), overhead per task (T_1-T_S)/N_T; "
            "counters: medians"]
    if not counted:
        out.append("(needs the counters runs)")
    for name in counted:
        table = granularity(records, name)
        if table:
            out += ["", f"-- {name}", table]
    out += ["", f"== 4. weft vs peers: speedup T_S/T_{p} side by side (the times are in "
            f"table 1)"]
    if len(system_names(records)) > 1:
        out.append(versus(records, workers))
    else:
        out.append(f"(only {system_names(records)[0]} ran: its speedups are in table 1)"
                   if records else "(nothing ran)")
    out += ["", "== 5. Skipped"]
    lines = skipped_lines(run["skipped_peers"], run["skipped_schedulers"], run["notes"], records)
    out += lines or ["  (nothing)"]
    if run.get("targets"):
        out += ["", targets(records, run.get("micro"))]
    return "\n".join(out)
