#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the module map: the rules of docs/design.md, "The module map"
(docs/design.md#the-module-map), their one text, from which this script
also reads the runtime's layer table and the front-ends.

    python3 scripts/check_layers.py [--root DIR]
    python3 scripts/check_layers.py [--root DIR] --objects LIST [--nm NM]

Without --objects it checks the #includes of every .c, .h, .cpp and .hpp
file under src/, include/ and tests/, and needs no build; with --objects
it checks the calls between the library's objects too.  A file's room is
its folder (room_of); check_include and check_call hold each room's rule
as the map states it, WHITE_BOX below the tests' exceptions.  A folder of
src/ that the map does not name fails as unknown, and one that it
declares a front-end is held to the front-end rule.

The seams are read from their headers, never listed here: a room that may
call through runtime/sched_services.h, runtime/frontend.h or
observe/hooks.h may call what the header declares, with the headers of
src/ it includes, directly or through another (declared_names parses the
declarations).  The public headers (include/, and the schedulers'
installed state.h and owner.h with the headers they include) are parsed
the same way.

Calls are read from the objects with nm: each undefined symbol of an
object is looked up among the symbols its library and the libraries that
library links define, and the use is checked from the caller's source
file to the definer's (CMake names an object <target>.dir/<source>.o).
Symbols that no listed object defines (the C library's, MPI's, hwloc's)
are not checked.  LIST is the list the build writes (tests/CMakeLists.txt:
tests/layering/objects-<config>.txt of the build tree; a build directory
stands for the list in it): a "[library]" or "[library: linked libraries]"
line, then the library's object files, one per line.

A violation is printed as "FILE:LINE: includes TARGET: RULE" or
"FILE: calls SYMBOL (DEFINER): RULE" ("uses" for data), and the exit
status is 1.  --root points the check at another copy of the tree (its
test, tests/layering/planted.sh, plants violations in one).
"""
import argparse
import glob
import os
import re
import subprocess
import sys

# The parts of src/ with a rule of their own below; the front-ends are
# read from docs/design.md.
SRC_PARTS = ("sys", "runtime", "sched", "observe", "workpool", "dist")

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
    "tests/test_interrupt_leave.c": ["src/runtime/perturb.h"],
    "tests/test_run_borrow.c": ["src/runtime/perturb.h", "src/runtime/sleep.h",
                                "src/runtime/state.h", "src/sys/clock.h"],
    # The pool's state after start, stop and fork, and the default worker
    # count (the affinity mask and the CPU quota) it started with.
    "tests/test_lifecycle.c": ["src/runtime/state.h", "src/runtime/topology.h", "src/sys/cpu.h"],
    # The calls from outside counted at the gate of a suspended pool.
    "tests/test_suspend.c": ["src/runtime/state.h"],
    # Lace's lazy suspension: the workers parked after lace_suspend.
    "tests/lace/test_lace_effects.c": ["src/runtime/state.h"],
    # A stop while suspended waits for a call inside the pool: the call is
    # there once the lifecycle word counts it.
    "tests/lace/test_lace_adversarial.c": ["src/runtime/state.h"],
    "tests/lace2/test_lace2_adversarial.c": ["src/runtime/state.h"],
    # A task that exits while the timeline streams: it waits for the
    # streaming thread's passes (what was recorded is in the file).
    "tests/test_trace.c": ["src/observe/trace.h"],
    # The sleepers' counts and requests.
    "tests/test_sleep.c": ["src/runtime/sleep.h", "src/runtime/state.h"],
    "tests/test_sleep_contended.c": ["src/runtime/state.h"],
    # The parking steps called directly (a woken worker's probing yield),
    # RUNs handed to a worker as a front-end hands them, a sleeper's word.
    "tests/test_park_probe.c": ["src/runtime/frontend.h", "src/runtime/parking.h",
                                "src/runtime/sleep.h", "src/runtime/state.h"],
    # The active limit and its counts, and whether the scheduler has one.
    "tests/test_active_limit.c": ["src/runtime/sched.h", "src/runtime/state.h"],
    # RUNs handed to a worker as a front-end hands them (the seam), and the
    # counts of the surplus workers and their asks.
    "tests/test_active_limit_runs.c": ["src/runtime/frontend.h", "src/runtime/state.h"],
    # The placement planned for each worker.
    "tests/test_topology.c": ["src/runtime/state.h", "src/sys/cpu.h"],
    # The CPU count with the heap used up.
    "tests/test_cpus_no_memory.c": ["src/sys/cpu.h"],
    # How a file weft writes afresh is emptied: replaced or in place.
    "tests/test_output_file.c": ["src/sys/output_file.h"],
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

# The seams: headers whose declarations, with those of the headers of src/
# they include (directly or through another), are all that a room may call
# of another: a scheduler of the runtime, a front-end of the library, the
# runtime and the work pool of observe/.
SCHED_SERVICES = "src/runtime/sched_services.h"
FRONTEND_SEAM = "src/runtime/frontend.h"
OBSERVE_HOOKS = "src/observe/hooks.h"
# The thief side of the scheduler seam: what the runtime calls of a
# scheduler (the header alone: layer 4 of the table).
SCHED_SEAM = "src/runtime/sched.h"

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
LAYER_ROW_RE = re.compile(r"^\|\s*(\d+)[^|]*\|([^|]*)\|")
SCHED_LIST_RE = re.compile(r"set\(\s*WEFT_SCHED_(SOURCES|TESTS|RACE_TESTS|HEADERS)\b([^)]*)\)")


class ModuleMap:
    """The rules' data: docs/design.md's tables and the schedulers' lists."""

    def __init__(self, root):
        self.root = root
        self.layers, self.src_folders, self.frontends = read_map(root)
        self.schedulers = read_schedulers(root)
        self._includes = {}

    def includes_of(self, rel):
        """The repository files rel includes directly."""
        if rel not in self._includes:
            found = []
            path = os.path.join(self.root, rel)
            if os.path.isfile(path):
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line in f:
                        m = INCLUDE_RE.match(line)
                        if m:
                            target = resolve(self.root, rel, m.group(1), m.group(2))
                            if target:
                                found.append(target)
            self._includes[rel] = found
        return self._includes[rel]

    def includes_closure(self, rel):
        """Every repository file rel includes, directly or through headers."""
        seen, todo = set(), [rel]
        while todo:
            for t in self.includes_of(todo.pop()):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return seen

    def seam_headers(self, seam):
        """A seam header and the headers of src/ it includes, directly or
        through another: all that including it declares of the library."""
        return [seam] + sorted(t for t in self.includes_closure(seam) if t.startswith("src/"))

    def sched_folders_of(self, rel):
        """The folders of src/sched a file of src/sched may include."""
        folder = rel.split("/")[2]
        if folder in self.schedulers:
            return {folder} | self.schedulers[folder]["folders"]
        # A shared base (no sources.cmake): its own folder, and for a test
        # a scheduler runs as its own, that scheduler's.
        return {folder} | {s for s, d in self.schedulers.items() if rel in d["tests"]}

    def same_scheduler(self, a, b):
        """Whether folders a and b of src/sched are built into one scheduler."""
        return a == b or any({a, b} <= {s} | d["folders"] for s, d in self.schedulers.items())


def map_section(root):
    """The lines of docs/design.md's "## The module map"."""
    path = os.path.join(root, "docs", "design.md")
    lines, in_map = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_map = line.strip() == "## The module map"
                continue
            if in_map:
                lines.append(line)
    return path, lines


def read_map(root):
    """From docs/design.md's module map: the runtime's layers (module ->
    layer), the folders of src/ its tables name, and the front-ends'."""
    path, lines = map_section(root)
    layers, folders, frontends = {}, set(), set()
    for line in lines:
        m = LAYER_ROW_RE.match(line)
        if m:
            for name in re.findall(r"`runtime/([a-z_]+)`", m.group(2)):
                layers[name] = int(m.group(1))
            continue
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2:
            named = set(re.findall(r"`src/([A-Za-z0-9_.-]+)/", cells[1]))
            folders |= named
            if cells[0].startswith("front-end"):
                frontends |= named
    if not layers:
        sys.exit(f"check_layers: no layer table under '## The module map' in {path}")
    bad = frontends & set(SRC_PARTS)
    if bad:
        sys.exit(f"check_layers: {path} declares src/{sorted(bad)[0]}/ a front-end; "
                 "it is a part with a rule of its own")
    return layers, folders, frontends


def read_schedulers(root):
    """The schedulers (the folders of src/sched with a sources.cmake): for
    each, the other folders its lists name and its tests (paths)."""
    found = {}
    for path in sorted(glob.glob(os.path.join(root, "src", "sched", "*", "sources.cmake"))):
        name = os.path.basename(os.path.dirname(path))
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        folders, tests = set(), set()
        for kind, files in SCHED_LIST_RE.findall(text):
            for f in files.split():
                rel = os.path.normpath(os.path.join("src", "sched", name, f)).replace(os.sep, "/")
                parts = rel.split("/")
                if len(parts) == 4 and parts[:2] == ["src", "sched"]:
                    if parts[2] != name:
                        folders.add(parts[2])
                    if kind == "TESTS":
                        tests.add(rel)
        found[name] = {"folders": folders, "tests": tests}
    return found


def room_of(rel, mp):
    """The room of a file by its path, or None for files the map leaves out."""
    parts = rel.split("/")
    if parts[0] == "include":
        return "public"
    if parts[0] == "tests":
        return "tests"
    if parts[0] != "src":
        return None
    if len(parts) == 2:
        return "public"  # src/version.c: the public API only
    if parts[1] not in mp.src_folders:
        return "unknown"
    if parts[1] in SRC_PARTS:
        if parts[1] == "sched" and parts[-1].startswith("test_"):
            return "sched-test"
        return parts[1]
    if parts[1] in mp.frontends:
        return "frontend"
    return "unknown"


def resolve(root, rel, quote, name):
    """The repository path an include names, or None (the system's)."""
    here = os.path.dirname(rel)
    candidates = []
    if quote == '"':
        candidates.append(os.path.normpath(os.path.join(here, name)).replace(os.sep, "/"))
    candidates += ["include/" + name, "src/" + name, "tests/" + name]
    for c in candidates:
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def module_of(rel):
    """A runtime file's module: its name without the extension."""
    return os.path.splitext(os.path.basename(rel))[0]


def layer_rule(layers, lowest, highest, who, what="includes runtime headers"):
    """A rule allowing runtime modules of layers lowest..highest."""
    def allowed(target):
        name = module_of(target)
        layer = layers.get(name)
        if layer is None:
            return f"runtime/{name} is not in the module map's layer table"
        if not lowest <= layer <= highest:
            span = f"layer {lowest}" if lowest == highest else f"layers {lowest}-{highest}"
            return f"{who} {what} of {span} only; runtime/{name} is layer {layer}"
        return None
    return allowed


def runtime_own_layer(rel, mp, what):
    """The layer rule of runtime file rel, or a string (rel is not mapped)."""
    me = module_of(rel)
    if me not in mp.layers:
        return f"runtime/{me} is not in the module map's layer table"
    return layer_rule(mp.layers, 1, mp.layers[me], f"runtime/{me} (layer {mp.layers[me]})", what)


# ---------------------------------------------------------------------------
# Includes
# ---------------------------------------------------------------------------

def check_include(room, rel, target, mp):
    """None if the file rel (in room) may include target, else the rule."""
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
    if room == "frontend":
        if folder == own or target == FRONTEND_SEAM:
            return None
        return (f"a front-end (src/{own}) includes of src/ only {own}/ and runtime/frontend.h, "
                "the front-end seam")
    if room in ("sched", "sched-test"):
        me = rel.split("/")[2]
        if folder == "sched":
            theirs = target.split("/")[2]
            if theirs in mp.sched_folders_of(rel):
                return None
            mine = sorted(mp.sched_folders_of(rel) - {me})
            also = f" and {', '.join(f + '/' for f in mine)}" if mine else ""
            if me in mp.schedulers:
                return (f"a scheduler (src/sched/{me}) includes of src/sched/ only its own folder"
                        f"{also} (its sources.cmake); sched/{theirs}/ is another scheduler's")
            users = sorted(s for s, d in mp.schedulers.items() if me in d["folders"])
            return (f"src/sched/{me}, the base of {', '.join(users) or 'no scheduler'}, "
                    f"includes of src/sched/ only its own folder{also}, and in a test a scheduler "
                    f"runs as its own that scheduler's; sched/{theirs}/ is not")
        if folder == "sys" or target in (SCHED_SERVICES, SCHED_SEAM):
            return None
        if folder == "runtime":
            return (f"a scheduler (src/sched/{me}) includes of the runtime only "
                    "runtime/sched_services.h (what it may use) and runtime/sched.h (what it "
                    "implements)")
        return (f"a scheduler (src/sched/{me}) includes of src/ only its folders of sched/, sys/, "
                f"runtime/sched_services.h and runtime/sched.h, not {folder}/")
    if folder == own and room != "runtime":
        return None
    if folder == "sys":
        return None
    if room == "runtime":
        if folder == "observe":
            if target == OBSERVE_HOOKS:
                return None
            return "the runtime includes of observe/ only observe/hooks.h, the hooks"
        if folder != "runtime":
            return f"the runtime includes runtime/, sys/ and observe/hooks.h only, not {folder}/"
        rule = runtime_own_layer(rel, mp, "includes runtime headers")
        return rule if isinstance(rule, str) else rule(target)
    if room == "observe":
        if folder == "runtime":
            return layer_rule(mp.layers, 1, 3, "observe/")(target)
        return f"observe/ includes observe/, sys/ and the runtime's layers 1-3 only, not {folder}/"
    if room == "workpool":
        if folder == "observe":
            if target in mp.seam_headers(OBSERVE_HOOKS):
                return None
            return ("workpool/ includes of observe/ only the hooks: observe/hooks.h and the "
                    "headers it includes")
        if folder == "runtime":
            return layer_rule(mp.layers, 1, 4, "workpool/")(target)
        return ("workpool/ includes workpool/, the observe hooks, sys/ and the runtime's layers "
                f"1-4 only, not {folder}/")
    if room == "dist":
        if folder == "workpool":
            return None
        if folder == "runtime":
            return layer_rule(mp.layers, 1, 1, "dist/")(target)
        return (f"dist/ includes dist/, workpool/, sys/ and the runtime's layer 1 only, "
                f"not {folder}/")
    return f"{room} includes only its own folder"


def check_includes(root, mp):
    """Prints each include that breaks a rule; returns (files, violations)."""
    bad = files = 0
    unknown = set()
    for top in ("src", "include", "tests"):
        for d, dirs, names in os.walk(os.path.join(root, top)):
            dirs.sort()
            for n in sorted(names):
                if not n.endswith((".c", ".h", ".cpp", ".hpp")):
                    continue
                rel = os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")
                room = room_of(rel, mp)
                if room is None:
                    continue
                if room == "unknown":
                    folder = rel.split("/")[1]
                    if folder not in unknown:
                        unknown.add(folder)
                        print(f"{rel}: unknown folder src/{folder}/: add it to the module map "
                              "(docs/design.md) as a front-end, or as a part with a rule in "
                              "scripts/check_layers.py")
                        bad += 1
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
                        rule = check_include(room, rel, target, mp)
                        if rule:
                            print(f"{rel}:{lineno}: includes {target}: {rule}")
                            bad += 1
    for folder in sorted(mp.src_folders - set(SRC_PARTS) - mp.frontends):
        print(f"docs/design.md: the module map names src/{folder}/, which has no rule: declare "
              "it a front-end or give it a rule in scripts/check_layers.py")
        bad += 1
    return files, bad


# ---------------------------------------------------------------------------
# Declarations: what a header lets its includers call
# ---------------------------------------------------------------------------

def _strip_balanced(text, opener):
    """text without each match of the regex opener and the parenthesised
    group it opens (opener ends at the group's first "(")."""
    out, pos = [], 0
    for m in re.finditer(opener, text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(text[pos:m.start()])
        out.append(" ")
        pos = i
    out.append(text[pos:])
    return "".join(out)


def declared_names(path):
    """The functions and extern variables a C header declares (both arms
    of its #if blocks; static and inline definitions are not linked, and
    macros declare nothing)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    text = re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  lambda m: '""' if m.group(0)[0] in "\"'" else " ", text, flags=re.S)
    text = re.sub(r"\\\n", " ", text)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)
    text = re.sub(r'extern\s*""\s*\{', " ", text)
    for opener in (r"\b__attribute__\s*\(", r"\b__asm__\s*\(", r"\b_Alignas\s*\(",
                   r"\b[A-Z][A-Z0-9_]*\s*\("):
        text = _strip_balanced(text, opener)
    # Brace groups (bodies, struct members, initialisers) end a statement.
    flat, depth = [], 0
    for ch in text:
        if ch == "{":
            if depth == 0:
                flat.append(" {} ;")
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            flat.append(ch)
    names = set()
    for stmt in "".join(flat).split(";"):
        if "{}" in stmt:
            continue  # a definition: a struct, an enum, a static inline function
        words = stmt.split()
        if not words or "typedef" in words or "static" in words:
            continue
        if "(" in stmt:
            head, rest = stmt.split("(", 1)
            pointer = re.match(r"\s*\*\s*([A-Za-z_]\w*)\s*\)", rest)
            if pointer:  # a function pointer: a variable
                if "extern" in words:
                    names.add(pointer.group(1))
                continue
            m = re.search(r"([A-Za-z_]\w*)\s*$", head)
            if m:
                names.add(m.group(1))
        elif "extern" in words:
            m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?$", stmt.strip(), flags=re.S)
            if m:
                names.add(m.group(1))
    return names


def declared_in(root, headers):
    """The names the headers (repository paths) declare."""
    names = set()
    for h in headers:
        names |= declared_names(os.path.join(root, h))
    return names


def public_headers(root, mp):
    """The public headers: include/, and the schedulers' installed ones."""
    found = []
    for d, dirs, names in os.walk(os.path.join(root, "include")):
        dirs.sort()
        found += [os.path.relpath(os.path.join(d, n), root).replace(os.sep, "/")
                  for n in sorted(names) if n.endswith(".h")]
    for name in mp.schedulers:
        for h in ("state.h", "owner.h"):
            rel = f"src/sched/{name}/{h}"
            if os.path.isfile(os.path.join(root, rel)):
                found.append(rel)
                found += [t for t in mp.includes_of(rel) if t.startswith("src/sched/")]
    return found


# ---------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------

class Seams:
    """The names each seam lets its room call, read from the headers."""

    def __init__(self, root, mp):
        self.public = declared_in(root, public_headers(root, mp))
        self.services = declared_in(root, mp.seam_headers(SCHED_SERVICES))
        self.frontend = declared_in(root, mp.seam_headers(FRONTEND_SEAM))
        self.hook_headers = mp.seam_headers(OBSERVE_HOOKS)
        self.hooks = declared_in(root, self.hook_headers)
        self.sched_seam = declared_in(root, [SCHED_SEAM])


def check_call(mp, seams, caller, callee, name):
    """None if the source file caller may use name, defined in callee."""
    room, other = room_of(caller, mp), room_of(callee, mp)
    folder = callee.split("/")[1] if len(callee.split("/")) > 2 else ""
    if other == "unknown":
        return f"src/{folder}/ is not in the module map"
    if room == "unknown":
        return f"src/{caller.split('/')[1]}/ is not in the module map"
    public = name in seams.public
    if room == "runtime":
        if other == "runtime":
            rule = runtime_own_layer(caller, mp, "uses runtime modules")
            return rule if isinstance(rule, str) else rule(callee)
        if other == "sys":
            return None
        if other == "observe":
            if public:
                return None
            if name not in seams.hooks:
                return ("the runtime calls of observe/ only the hooks, what including "
                        "observe/hooks.h declares")
            # (observe's own headers of the seam: the sys/ headers hooks.h
            # includes, every runtime file reaches otherwise)
            observe_hooks = {h for h in seams.hook_headers if h.startswith("src/observe/")}
            if not observe_hooks & mp.includes_closure(caller):
                return ("the runtime calls observe's hooks only from a file that includes "
                        "observe/hooks.h")
            return None
        if other == "sched":
            if name in seams.sched_seam:
                rule = runtime_own_layer(caller, mp, "uses runtime modules")
                return rule if isinstance(rule, str) else rule(SCHED_SEAM)
            if public:
                return None
            return ("the runtime calls of a scheduler only what runtime/sched.h declares and the "
                    "owner side's public headers")
        if public:
            return None
        return (f"the runtime calls runtime/, sys/, the observe hooks and the schedulers only, "
                f"not {folder}/")
    if room in ("sched", "sched-test"):
        if other == "sched" and mp.same_scheduler(caller.split("/")[2], callee.split("/")[2]):
            return None
        if other == "sys" or public:
            return None
        if other == "runtime":
            if name in seams.services:
                return None
            return ("a scheduler calls of the runtime only what including "
                    "runtime/sched_services.h declares")
        if other == "sched":
            return ("a scheduler calls nothing of another scheduler "
                    f"(src/sched/{callee.split('/')[2]})")
        return ("a scheduler calls its own folder, sys/, runtime/sched_services.h and the public "
                f"headers only, not {folder}/")
    if room == "frontend":
        if other == "frontend" and folder == caller.split("/")[1]:
            return None
        if public or (other in ("runtime", "sys") and name in seams.frontend):
            return None
        return (f"a front-end (src/{caller.split('/')[1]}) calls of the library only what "
                "including runtime/frontend.h declares, and the public headers")
    if other == room and room not in ("public", "sched"):
        return None
    if public or other == "sys":
        return None
    if room == "observe":
        if other == "runtime":
            return layer_rule(mp.layers, 1, 3, "observe/", "uses runtime modules")(callee)
        return ("observe/ calls observe/, sys/, the runtime's layers 1-3 and the public headers "
                f"only, not {folder}/")
    if room == "workpool":
        if other == "runtime":
            return layer_rule(mp.layers, 1, 4, "workpool/", "uses runtime modules")(callee)
        if other == "observe" and name in seams.hooks:
            return None
        return ("workpool/ calls workpool/, the observe hooks, sys/, the runtime's layers 1-4 and "
                f"the public headers only, not {folder}/")
    if room == "dist":
        if other == "workpool":
            return None
        if other == "runtime":
            return layer_rule(mp.layers, 1, 1, "dist/", "uses runtime modules")(callee)
        return ("dist/ calls dist/, workpool/, sys/, the runtime's layer 1 and the public headers "
                f"only, not {folder}/")
    if room == "sys":
        return f"sys/ calls sys/ and the public headers only, not {folder}/"
    return "src/version.c calls what the public headers declare only"


def read_objects(spec):
    """The libraries of an object list: [(name, [linked], [objects])]."""
    if os.path.isdir(spec):
        found = sorted(glob.glob(os.path.join(spec, "tests", "layering", "objects-*.txt")))
        if len(found) != 1:
            sys.exit(f"check_layers: {spec}: expected one tests/layering/objects-<config>.txt, "
                     f"found {len(found)} (a build with the tests writes it)")
        spec = found[0]
    libs = []
    with open(spec, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^\[([^]:]+)(?::([^]]*))?\]$", line)
            if m:
                libs.append((m.group(1).strip(), (m.group(2) or "").split(), []))
            elif libs:
                libs[-1][2].append(line)
            else:
                sys.exit(f"check_layers: {spec}: an object before the first [library] line")
    if not libs:
        sys.exit(f"check_layers: {spec} lists no library")
    return libs


def source_of(obj):
    """The repository path of the source an object file was compiled from
    (CMake names it <target>.dir/<source path>.o)."""
    if ".dir/" not in obj.replace(os.sep, "/"):
        return None
    rel = obj.replace(os.sep, "/").rsplit(".dir/", 1)[1]
    rel = os.path.normpath(re.sub(r"\.(o|obj)$", "", rel)).replace(os.sep, "/")
    return rel if rel.startswith("src/") else None


def symbols(nm, objs):
    """For each object: (defined, undefined) external symbols, the defined
    ones as name -> "calls" (code) or "uses" (data)."""
    out = subprocess.run([nm, "-P", "-g", "-A"] + objs, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"check_layers: {nm} failed: {out.stderr.strip()}")
    found = {obj: ({}, set()) for obj in objs}
    for line in out.stdout.splitlines():
        if ": " not in line:
            continue
        obj, rest = line.rsplit(": ", 1)
        fields = rest.split()
        if obj not in found or len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        defined, undefined = found[obj]
        if kind in "Uwv":
            undefined.add(name)
        else:
            defined[name] = "calls" if kind in "TtWi" else "uses"
    return found


def check_calls(root, mp, spec, nm):
    """Prints each call that breaks a rule; returns (objects, violations)."""
    libs = read_objects(spec)
    seams = Seams(root, mp)
    by_lib, order = {}, {}
    for name, links, objs in libs:
        for obj in objs:
            if not os.path.isfile(obj):
                sys.exit(f"check_layers: {obj} is missing: build the libraries the list names "
                         f"({', '.join(n for n, _, _ in libs)}) first")
            if source_of(obj) is None:
                sys.exit(f"check_layers: {obj}: not the object of a source under src/")
        found = symbols(nm, objs) if objs else {}
        by_lib[name] = {obj: (source_of(obj),) + found[obj] for obj in objs}
        order[name] = links
    for name, links in order.items():
        for linked in links:
            if linked not in by_lib:
                sys.exit(f"check_layers: {spec}: {name} links {linked}, which it does not list")

    index = {lib: {symbol: (src, verb) for src, defined, _ in table.values()
                   for symbol, verb in defined.items()} for lib, table in by_lib.items()}

    def definer(lib, symbol, seen):
        if symbol in index[lib]:
            return index[lib][symbol]
        for linked in order[lib]:
            if linked not in seen:
                seen.add(linked)
                found = definer(linked, symbol, seen)
                if found:
                    return found
        return None

    reported = set()
    count = 0
    for lib, table in by_lib.items():
        for obj, (src, _, undefined) in table.items():
            count += 1
            for symbol in sorted(undefined):
                found = definer(lib, symbol, {lib})
                if not found:
                    continue
                callee, verb = found
                if callee == src:
                    continue
                rule = check_call(mp, seams, src, callee, symbol)
                if rule and (src, symbol, rule) not in reported:
                    reported.add((src, symbol, rule))
                    print(f"{src}: {verb} {symbol} ({callee}): {rule}")
    return count, len(reported)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="the tree to check (default: this script's)")
    ap.add_argument("--objects", metavar="LIST",
                    help="the build's list of the libraries' objects, or its build directory: "
                         "check the calls too")
    ap.add_argument("--nm", default=os.environ.get("NM", "nm"), help="the nm to read objects with")
    args = ap.parse_args()
    mp = ModuleMap(args.root)
    files, bad = check_includes(args.root, mp)
    what = f"{files} files follow the module map's include rules"
    if args.objects:
        objects, bad_calls = check_calls(args.root, mp, args.objects, args.nm)
        bad += bad_calls
        what += f", and the calls of {objects} objects its call rules"
    sys.stdout.flush()
    if bad:
        print(f"check_layers: {bad} include(s) or call(s) break the module map's rules "
              "(docs/design.md, \"The module map\")", file=sys.stderr)
        return 1
    print(f"check_layers: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
