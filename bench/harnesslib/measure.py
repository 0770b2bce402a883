# SPDX-License-Identifier: Apache-2.0
"""The measurement loop.

For each workload and each repetition, the sequential baseline, then every
system at every worker count, then one counters run per weft scheduler at
the largest worker count, back to back: a drift in the host's speed then
touches all of a repetition's runs alike, and the per-repetition ratios
cancel it.

A wrong answer, a crash or a timeout of the sequential or a weft binary
stops the run (RunFailure names the binary and its command).  A peer's
failure is recorded as FAILED for that workload, its remaining runs are
skipped, and the run goes on.
"""
import os
import re
import shlex
import statistics
import subprocess
import time

from .parse import ParseError, parse_counters, parse_time
from .util import log, tail

OK, FAILED, NOT_PORTED, NO_PEERS = "ok", "FAILED", "not ported", "no peers"


class RunFailure(RuntimeError):
    """The sequential or a weft binary failed: the run stops."""


class Progress:
    """Stderr lines `[k/N] what  (elapsed, ~remaining)`."""

    def __init__(self, total):
        self.total = max(total, 1)
        self.done = 0
        self.start = time.monotonic()

    def step(self, what):
        self.done += 1
        elapsed = time.monotonic() - self.start
        left = ""
        if self.done > 1:
            left = f", ~{elapsed / (self.done - 1) * (self.total - self.done + 1):.0f} s left"
        log(f"[{self.done}/{self.total}] {what}  ({elapsed:.0f} s{left})")

    def skip(self, count=1):
        """Runs that will not happen (a peer failed or has no port)."""
        self.done += count


def execute(cmd, timeout, env=None):
    """(exit code or None on timeout, stdout, stderr); env: the child's
    environment (default: ours)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except FileNotFoundError as e:
        return 127, "", f"{cmd[0]}: {e.strerror}"
    except subprocess.TimeoutExpired as e:
        decode = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
        return None, decode(e.stdout), decode(e.stderr)
    return p.returncode, p.stdout, p.stderr


def failure_text(who, cmd, code, out, err, timeout):
    """What a failed run did, for RunFailure: the command, how it ended,
    the end of its output."""
    how = f"timed out after {timeout:g} s" if code is None else f"exited with {code}"
    return f"{who}: `{shlex.join(cmd)}` {how}\n{tail(out + err, 20)}"


def run_checked(who, cmd, timeout):
    """Runs a sequential or weft binary; returns its stdout or raises RunFailure."""
    code, out, err = execute(cmd, timeout)
    if code != 0:
        raise RunFailure(failure_text(who, cmd, code, out, err, timeout))
    return out


def _peer_reason(code, out, err, timeout):
    """One line for the table's FAILED note."""
    if code is None:
        return f"timed out after {timeout:g} s"
    text = out + err
    for line in text.splitlines():
        if line.startswith("FAILED"):
            return f"exit {code}: {line.strip()}"
    last = [line.strip() for line in text.splitlines() if line.strip()]
    return f"exit {code}" + (f": {last[-1]}" if last else "")


def count_runs(jobs, weft_systems, peers, workers, reps, counters, ceiling):
    per_job = []
    for job in jobs:
        systems = len(weft_systems) + len([p for p in peers if job.entry.peers or p.always])
        n = 1 + systems * len(workers)
        n += sum(1 for s in weft_systems if s.counters_dir) if counters else 0
        n += 1 if ceiling and max(workers) > 1 else 0
        per_job.append(n * reps)
    return sum(per_job)


def run_concurrent_copies(cmd, copies, timeout):
    """`copies` instances of a sequential binary at once, each pinned to its
    own CPU where taskset exists; returns the mean of their times."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    pin = bool(cpus) and subprocess.run(["sh", "-c", "command -v taskset"],
                                        capture_output=True).returncode == 0
    procs = []
    try:
        for i in range(copies):
            prefix = ["taskset", "-c", str(cpus[i % len(cpus)])] if pin else []
            procs.append((prefix + cmd, subprocess.Popen(prefix + cmd, stdout=subprocess.PIPE,
                                                         stderr=subprocess.PIPE, text=True)))
        times = []
        for full, p in procs:
            try:
                out, err = p.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                raise RunFailure(failure_text("sequential (concurrent copy)", full, None, "", "",
                                               timeout)) from None
            if p.returncode != 0:
                raise RunFailure(failure_text("sequential (concurrent copy)", full, p.returncode,
                                               out, err, timeout))
            times.append(_time_of("sequential (concurrent copy)", full, out))
        return statistics.mean(times)
    finally:
        # On a failure or an interruption, no copy outlives the harness.
        for _, p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def _time_of(who, cmd, out):
    try:
        return parse_time(out)
    except ParseError as e:
        raise RunFailure(f"{who}: `{shlex.join(cmd)}`: {e}\n{tail(out, 10)}") from None


def run_timed(who, cmd, timeout):
    """Runs a sequential or weft binary that must succeed; returns (its
    `Time:` in seconds, its stdout) or raises RunFailure."""
    out = run_checked(who, cmd, timeout)
    return _time_of(who, cmd, out), out


def measure_job(job, seq, weft_systems, peers, workers, reps, timeout, counters, ceiling,
                progress):
    """Runs one workload; returns its result record (plain data, for JSON)."""
    binary, args = job.entry.binary, list(job.args)
    systems = list(weft_systems) + [p for p in peers if job.entry.peers or p.always]
    p_max = max(workers)
    record = {
        "benchmark": job.entry.name, "size": job.size, "input": job.input,
        "args": job.args_text,
        "binary": binary, "seq": [None] * reps, "systems": {}, "counters": {},
        "counters_workers": p_max, "concurrent_seq": [],
    }
    for system in weft_systems + list(peers):
        status = OK if system in systems else NO_PEERS
        record["systems"][system.name] = {
            "kind": system.kind, "status": status, "message": None,
            "times": {str(w): [None] * reps for w in workers}}
    for system in systems:
        if system.command(binary, 1, args) is None:
            entry = record["systems"][system.name]
            entry["status"], entry["message"] = NOT_PORTED, system.not_ported_reason(binary)
    for system in weft_systems:
        if counters and system.counters_dir:
            record["counters"][system.name] = []

    label = f"{job.entry.name} ({job.input}: {job.args_text})"
    for rep in range(reps):
        where = f"{label} rep {rep + 1}/{reps}"
        cmd = seq.command(binary, 0, args)
        progress.step(f"{where}: sequential")
        record["seq"][rep] = _time_of("sequential", cmd, run_checked("sequential", cmd, timeout))
        for system in systems:
            entry = record["systems"][system.name]
            for w in workers:
                if entry["status"] != OK:
                    progress.skip()
                    continue
                cmd = system.command(binary, w, args)
                progress.step(f"{where}: {system.name} -w {w}")
                if system.kind == "weft":
                    out = run_checked(system.name, cmd, timeout)
                    entry["times"][str(w)][rep] = _time_of(system.name, cmd, out)
                    continue
                code, out, err = execute(cmd, timeout)
                if code != 0 and system.refused_as_unknown(code, out + err):
                    entry["status"], entry["message"] = NOT_PORTED, f"{system.name} has no {binary}"
                    continue
                try:
                    if code != 0:
                        raise ParseError(_peer_reason(code, out, err, timeout))
                    entry["times"][str(w)][rep] = parse_time(out)
                except ParseError as e:
                    entry["status"], entry["message"] = FAILED, f"-w {w}: {e}"
                    entry["command"] = shlex.join(cmd)
                    log(f"[peer FAILED] {system.name} on {label}: `{shlex.join(cmd)}`: {e}")
        for system in weft_systems:
            if system.name not in record["counters"]:
                continue
            cmd = system.command(binary, p_max, args, counters=True)
            who = f"{system.name} (counters build)"
            progress.step(f"{where}: {system.name} counters -w {p_max}")
            out = run_checked(who, cmd, timeout)
            try:
                found = parse_counters(out)
            except ParseError as e:
                raise RunFailure(f"{who}: `{shlex.join(cmd)}`: {e}") from None
            if found is None:
                raise RunFailure(f"{who}: `{shlex.join(cmd)}` printed no counter table "
                                 f"(is {system.counters_dir} built with -DWEFT_STATS=ON?)")
            record["counters"][system.name].append(found)
        if ceiling and p_max > 1:
            progress.step(f"{where}: {p_max} sequential copies at once (host ceiling)")
            record["concurrent_seq"].append(
                run_concurrent_copies(seq.command(binary, 0, args), p_max, timeout))
    return record


IDLE_RE_TEXT = r"Idle CPU per worker: ([0-9.]+)%"
LATENCY_RE_TEXT = r"cold \(workers asleep\) RUN latency: median ([0-9.]+) us"


def measure_micro(build_dir, workers, timeout):
    """The targets suite's micro-benchmarks: idle CPU per worker 10 ms after
    the last task, and the median cold RUN latency."""
    bench = os.path.join(build_dir, "bench")
    log("[run] idle-cpu, run-latency")
    idle_cmd = [os.path.join(bench, "idle-cpu"), "-w", str(workers), "10", "2000"]
    lat_cmd = [os.path.join(bench, "run-latency"), "-w", str(workers), "300", "20"]
    idle = run_checked("idle-cpu", idle_cmd, timeout)
    lat = run_checked("run-latency", lat_cmd, timeout)
    m_idle, m_lat = re.search(IDLE_RE_TEXT, idle), re.search(LATENCY_RE_TEXT, lat)
    if not m_idle or not m_lat:
        raise RunFailure("idle-cpu / run-latency printed no figure the harness knows:\n"
                         + tail(idle + lat, 10))
    return {"workers": workers, "idle_cpu_percent": float(m_idle.group(1)),
            "cold_run_latency_us": float(m_lat.group(1))}
