#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the include rules of the module map (docs/design.md, "The module
map") on every .c, .h, .cpp and .hpp file under src/, include/ and tests/.

    python3 scripts/check_layers.py [--root DIR]

Each file belongs to a room by its folder, and a room may include only
what its rule allows:

* include/ (the public headers): public headers only;
* src/sys: sys/;
* src/runtime: runtime headers of its own layer or below (the layer table
  of docs/design.md, read from there), sys/ and observe/ (the hooks);
* src/sched (the schedulers): of the runtime only runtime/sched.h and
  runtime/sched_services.h;
  sched/ and sys/; a scheduler's own tests (test_*.c) also tests/;
* src/observe: observe/, sys/, and the runtime's layers 1-3;
* src/workpool: workpool/, observe/, sys/, and the runtime's layers 1-4;
* src/dist: dist/, workpool/, sys/, and the runtime's layer 1;
* src/lace (the front-ends): lace/, and of the runtime only
  runtime/frontend.h, the front-end seam;
* tests/: tests/, bench/ and the public headers, and the white-box
  exceptions listed in WHITE_BOX below, each with the reason.

Any room may include the public headers and the system's.  A violation is
printed as "FILE:LINE: includes TARGET: RULE", and the exit status is 1.
--root points the check at another copy of the tree (its own test plants
violations in one).
"""
import argparse
import os
import re
import sys

SRC_FOLDERS = ("sys", "runtime", "sched", "observe", "workpool", "dist", "lace")

# Tests that include internal headers, by file or folder (a folder ends in
# "/"), with the internal headers or folders they may include.  Every other
# test goes through the public headers.
WHITE_BOX = {
    # The scheduler seam is the deque tests' seam: they drive a deque as
    # the runtime does (the stress run also keeps its pool-less joins
    # from sleeping, through parking.h's test seam).
    "tests/deque_fixture.h": ["src/runtime/sched.h", "src/runtime/sched_services.h",
                              "src/runtime/state.h"],
    "tests/deque_stress.h": ["src/runtime/sched.h", "src/runtime/sched_services.h",
                             "src/runtime/state.h", "src/runtime/parking.h"],
    # Forced interleavings at the runtime's race points.
    "tests/test_races.c": ["src/runtime/parking.h", "src/runtime/perturb.h"],
    "tests/test_run_borrow.c": ["src/runtime/perturb.h", "src/runtime/sleep.h",
                                "src/runtime/state.h", "src/sys/clock.h"],
    # The pool's state after start, stop and fork, and the default worker
    # count (the affinity mask and the CPU quota) it started with.
    "tests/test_lifecycle.c": ["src/runtime/state.h", "src/runtime/topology.h", "src/sys/cpu.h"],
    # The sleepers' counts and requests.
    "tests/test_sleep.c": ["src/runtime/sleep.h", "src/runtime/state.h"],
    "tests/test_sleep_contended.c": ["src/runtime/state.h"],
    # The active limit and its counts, and whether the scheduler has one.
    "tests/test_active_limit.c": ["src/runtime/sched.h", "src/runtime/state.h"],
    # RUNs handed to a worker as a front-end hands them (the seam), and the
    # counts of the surplus workers and their asks.
    "tests/test_active_limit_runs.c": ["src/runtime/frontend.h", "src/runtime/state.h"],
    # The placement planned for each worker.
    "tests/test_topology.c": ["src/runtime/state.h", "src/sys/cpu.h"],
    # Timing and spinning helpers.
    "tests/test_interrupts.c": ["src/sys/clock.h", "src/sys/cpu.h"],
    # The work pool's queues, loop and sleep, white-box.
    "tests/pool/": ["src/workpool/"],
    # The CPU-quota reader on fixture cgroup trees.
    "tests/cgroup/test_quota_files.c": ["src/sys/cgroup.h"],
    # Safra's termination detection, on its own.
    "tests/dist/test_safra.c": ["src/dist/"],
    # Wool's deque test parks a worker as the runtime's sleep does, and
    # lengthens the idle workers' spin (the pool's state).
    "src/sched/wool/test_wool_deque.c": ["src/runtime/parking.h", "src/runtime/state.h"],
    # The private deques' test waits for workers to sleep (the pool's
    # state, the sleep words) and reads their request cells.
    "src/sched/private-common/test_private_deque.c": ["src/runtime/sleep.h",
                                                      "src/runtime/state.h"],
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
LAYER_ROW_RE = re.compile(r"^\|\s*(\d+)[^|]*\|([^|]*)\|")


def read_layers(root):
    """The runtime's layers from docs/design.md's module map: module -> layer."""
    path = os.path.join(root, "docs", "design.md")
    layers = {}
    in_map = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_map = line.strip() == "## The module map"
                continue
            m = LAYER_ROW_RE.match(line) if in_map else None
            if m:
                for name in re.findall(r"`runtime/([a-z_]+)`", m.group(2)):
                    layers[name] = int(m.group(1))
    if not layers:
        sys.exit(f"check_layers: no layer table under '## The module map' in {path}")
    return layers


def room_of(rel):
    """The room of a file by its path, or None for files the map leaves out."""
    parts = rel.split("/")
    if parts[0] == "include":
        return "public"
    if parts[0] == "tests":
        return "tests"
    if parts[0] == "src" and len(parts) > 2 and parts[1] in SRC_FOLDERS:
        if parts[1] == "sched" and parts[-1].startswith("test_"):
            return "sched-test"
        return "frontend" if parts[1] == "lace" else parts[1]
    if parts[0] == "src":
        return "public"  # src/version.c: the public API only
    return None


def resolve(root, rel, quote, name):
    """The repository path an include names, or None (the system's)."""
    here = os.path.dirname(rel)
    candidates = []
    if quote == '"':
        candidates.append(os.path.normpath(os.path.join(here, name)))
    candidates += ["include/" + name, "src/" + name, "tests/" + name]
    for c in candidates:
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def runtime_rule(layers, lowest, highest, room_text):
    """A rule allowing runtime headers of layers lowest..highest."""
    def allowed(target):
        name = os.path.splitext(os.path.basename(target))[0]
        layer = layers.get(name)
        if layer is None:
            return f"runtime/{name} is not in the module map's layer table"
        if not lowest <= layer <= highest:
            span = f"layer {lowest}" if lowest == highest else f"layers {lowest}-{highest}"
            return (f"{room_text} includes runtime headers of {span} only; "
                    f"runtime/{name} is layer {layer}")
        return None
    return allowed


def check_target(room, rel, target, layers):
    """None if room may include target (a repository path), else the rule."""
    if target.startswith("include/"):
        return None
    folder = target.split("/")[1] if target.startswith("src/") else target.split("/")[0]
    if room == "public":
        return "a public header (or src/version.c) includes public headers only"
    if room in ("tests", "sched-test") and target.startswith(("tests/", "bench/")):
        return None
    for key, allowed in WHITE_BOX.items():
        if rel == key or (key.endswith("/") and rel.startswith(key)):
            if any(target == a or (a.endswith("/") and target.startswith(a)) for a in allowed):
                return None
    if room == "tests":
        return ("a test includes the public headers, tests/ and bench/ only, or a white-box "
                "exception listed in scripts/check_layers.py (WHITE_BOX)")
    if not target.startswith("src/"):
        return f"src/ includes nothing of {folder}/"
    own = rel.split("/")[1]
    if folder == own and room != "runtime":
        return None
    if folder == "sys":
        return None if room != "frontend" else (
            "a front-end (src/lace) includes of src/ only lace/ and runtime/frontend.h")
    if room == "runtime":
        if folder == "observe":
            return None
        if folder != "runtime":
            return f"the runtime includes runtime/, sys/ and observe/ only, not {folder}/"
        me = os.path.splitext(os.path.basename(rel))[0]
        if me not in layers:
            return f"runtime/{me} is not in the module map's layer table"
        return runtime_rule(layers, 1, layers[me], f"runtime/{me} (layer {layers[me]})")(target)
    if room in ("sched", "sched-test"):
        if target in ("src/runtime/sched.h", "src/runtime/sched_services.h"):
            return None
        return ("a scheduler (src/sched) includes of the runtime only runtime/sched.h (what it "
                "implements) and runtime/sched_services.h (what it may use)")
    if room == "frontend":
        if target == "src/runtime/frontend.h":
            return None
        return ("a front-end (src/lace) includes of src/ only lace/ and runtime/frontend.h, "
                "the front-end seam")
    if room == "observe":
        if folder == "runtime":
            return runtime_rule(layers, 1, 3, "observe/")(target)
        return f"observe/ includes observe/, sys/ and the runtime's layers 1-3 only, not {folder}/"
    if room == "workpool":
        if folder == "observe":
            return None
        if folder == "runtime":
            return runtime_rule(layers, 1, 4, "workpool/")(target)
        return ("workpool/ includes workpool/, observe/, sys/ and the runtime's layers 1-4 "
                f"only, not {folder}/")
    if room == "dist":
        if folder == "workpool":
            return None
        if folder == "runtime":
            return runtime_rule(layers, 1, 1, "dist/")(target)
        return f"dist/ includes dist/, workpool/, sys/ and the runtime's layer 1 only, not {folder}/"
    return f"{room} includes only its own folder"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    root = ap.parse_args().root
    layers = read_layers(root)
    bad = 0
    files = 0
    for top in ("src", "include", "tests"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in sorted(names):
                if not n.endswith((".c", ".h", ".cpp", ".hpp")):
                    continue
                rel = os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")
                room = room_of(rel)
                if room is None:
                    continue
                files += 1
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if not m:
                            continue
                        target = resolve(root, rel, m.group(1), m.group(2))
                        if target is None:
                            continue
                        rule = check_target(room, rel, target, layers)
                        if rule:
                            print(f"{rel}:{lineno}: includes {target}: {rule}")
                            bad += 1
    if bad:
        print(f"check_layers: {bad} include(s) break the module map's rules "
              "(docs/design.md, \"The module map\")", file=sys.stderr)
        return 1
    print(f"check_layers: {files} files follow the module map's include rules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
