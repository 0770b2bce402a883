# SPDX-License-Identifier: Apache-2.0
"""How busy the machine was with other work while the suite ran.

A speedup measured while other processes hold the CPUs is lower than the
same program's on a quiet machine, and nothing in the times says so.  The
CPU time the whole machine spent (/proc/stat) less the harness's own and
its children's (getrusage) is what other processes took; over the run's
wall time it is a number of CPUs.  The report warns when it is a sizeable
share of the machine (README, "The two commands")."""
import os
import resource
import time

# Other processes using this share of the CPUs or more: the report warns.
BUSY_SHARE = 0.25


def _machine_busy_seconds():
    """CPU seconds the machine has spent not idle since boot, or None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    busy = sum(ticks[:8]) - idle  # user nice system idle iowait irq softirq steal
    return busy / os.sysconf("SC_CLK_TCK")


def _own_seconds():
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        u = resource.getrusage(who)
        total += u.ru_utime + u.ru_stime
    return total


class OtherLoad:
    """Started before the measurements; `result()` after them."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.busy0 = _machine_busy_seconds()
        self.own0 = _own_seconds()

    def result(self):
        """{'cpus': CPUs other processes used on average, 'of': the CPUs,
        'share': cpus / of, 'busy': share >= BUSY_SHARE}, or None where
        /proc/stat cannot be read."""
        busy1 = _machine_busy_seconds()
        wall = time.monotonic() - self.t0
        if self.busy0 is None or busy1 is None or wall <= 0:
            return None
        other = max(0.0, (busy1 - self.busy0) - (_own_seconds() - self.own0))
        of = os.cpu_count() or 1
        cpus = other / wall
        return {"cpus": round(cpus, 2), "of": of, "share": round(cpus / of, 3),
                "busy": cpus / of >= BUSY_SHARE}


def warning(load):
    """The report's line for a busy machine, or None."""
    if not load or not load.get("busy"):
        return None
    return (f"WARNING: the machine was busy: other processes used {load['cpus']:.1f} of its "
            f"{load['of']} CPUs on average while the suite ran, so every system's speedups "
            "are lower than on a quiet machine (run it again when the machine is quiet to "
            "compare with docs/performance.md)")
