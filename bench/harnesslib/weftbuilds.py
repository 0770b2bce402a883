# SPDX-License-Identifier: Apache-2.0
"""The weft trees a run measures, shared by the suite and the commands:
each scheduler's builds made (or, with --no-build, found) as weft systems,
and the record of how each tree was configured that goes into the
result files."""
import os

from . import build as builder
from .options import ROOT
from .systems import WeftSystem
from .util import log


def cmake_cache(build_dir):
    """The cache entries that say how a tree was configured."""
    keys = ("CMAKE_BUILD_TYPE", "CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER", "CMAKE_C_FLAGS",
            "CMAKE_C_FLAGS_RELEASE", "CMAKE_CXX_FLAGS_RELEASE", "WEFT_SCHEDULER", "WEFT_STATS",
            "WEFT_CHECKS", "WEFT_USE_HWLOC")
    found = {}
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8",
                  errors="replace") as f:
            for line in f:
                name, _, value = line.partition("=")
                name = name.split(":")[0]
                if name in keys:
                    found[name] = value.strip()
    except OSError:
        pass
    return found


def build_info(weft_systems, flags, extra_builds=None):
    """The run's `builds`, `cmake_flags` and `cmake_cache` entries."""
    builds = {os.path.basename(s.build_dir): s.build_dir for s in weft_systems}
    builds.update({os.path.basename(s.counters_dir): s.counters_dir
                   for s in weft_systems if s.counters_dir})
    builds.update(extra_builds or {})
    return {"builds": builds, "cmake_flags": flags,
            "cmake_cache": {name: cmake_cache(d) for name, d in builds.items()
                            if os.path.isfile(os.path.join(d, "CMakeCache.txt"))}}


def prepare_weft(args, schedulers, use_counters, targets=()):
    """weft systems per scheduler; {scheduler: reason} for those skipped;
    the CMake flags of each tree built.  targets: build only these."""
    systems, skipped, flags = [], {}, {}
    for sched in schedulers:
        dirs = {}
        for counters in ([False, True] if use_counters else [False]):
            if args.no_build:
                d = builder.weft_build_dir(args.build_root, sched, counters)
                if not os.path.isdir(os.path.join(d, "bench")):
                    skipped[sched] = f"{d}/bench does not exist (and --no-build)"
                    break
                dirs[counters] = d
                continue
            d, reason = builder.build_weft(ROOT, args.build_root, sched, counters,
                                           jobs=args.jobs, targets=targets)
            if d is None:
                skipped[sched] = reason
                log(f"[skip] scheduler {sched}: {reason}")
                break
            dirs[counters] = d
            flags[os.path.basename(d)] = builder.weft_cmake_flags(sched, counters)
        else:
            systems.append(WeftSystem(sched, dirs[False], dirs.get(True)))
    return systems, skipped, flags
