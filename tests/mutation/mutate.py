#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Source mutation testing for weft (tests/mutation/run.sh is the interface).

Reads the mutant list (mutants.txt: one record per mutant, see its header),
copies the tracked source tree into a scratch directory per lane (--lanes,
two by default: two mutants at once), builds each configuration the list
names there (one build directory per configuration and lane, rebuilt
incrementally), and for each mutant: replaces the exact original
snippet by the replacement in the scratch copy, rebuilds the mutant's
targets, runs its tests with ctest, and restores the file.  A mutant is
killed when a test fails (or times out), survived when all pass.  A
snippet that is not found exactly once, or a mutant that does not build,
is an ERROR: the list must be re-pointed, never read as a survivor.

The last line is exactly `mutants: N killed: K survived: S`; the exit
status is 0 only when every mutant ran and was killed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The build configurations mutants name: CMake flags for each (release
# builds; the sanitizer ones for ordering mutants x86 hides).
CONFIGS = {
    "split": ["-DCMAKE_BUILD_TYPE=Release", "-DWEFT_STATS=ON", "-DWEFT_CHECKS=ON",
              "-DWEFT_WITH_MPI=ON", "-DWEFT_PROFILE=ON", "-DWEFT_TRACE=ON"],
    "perturb": ["-DCMAKE_BUILD_TYPE=Release", "-DWEFT_PERTURB=ON", "-DWEFT_WITH_MPI=OFF"],
    "tsan": ["-DCMAKE_BUILD_TYPE=Debug", "-DWEFT_SANITIZE=thread", "-DWEFT_WITH_MPI=OFF"],
    "tsan-perturb": ["-DCMAKE_BUILD_TYPE=Debug", "-DWEFT_SANITIZE=thread", "-DWEFT_PERTURB=ON",
                     "-DWEFT_WITH_MPI=OFF"],
    "wool": ["-DCMAKE_BUILD_TYPE=Release", "-DWEFT_SCHEDULER=wool", "-DWEFT_PERTURB=ON",
             "-DWEFT_WITH_MPI=OFF"],
    "chase-lev": ["-DCMAKE_BUILD_TYPE=Release", "-DWEFT_SCHEDULER=chase-lev", "-DWEFT_PERTURB=ON",
                  "-DWEFT_WITH_MPI=OFF"],
    "private-ri": ["-DCMAKE_BUILD_TYPE=Release", "-DWEFT_SCHEDULER=private-ri",
                   "-DWEFT_PERTURB=ON", "-DWEFT_WITH_MPI=OFF"],
    "private-si": ["-DCMAKE_BUILD_TYPE=Release", "-DWEFT_SCHEDULER=private-si",
                   "-DWEFT_PERTURB=ON", "-DWEFT_WITH_MPI=OFF"],
}
COMMON = ["-G", "Ninja", "-DWEFT_WERROR=ON", "-DWEFT_BUILD_BENCH=OFF", "-DWEFT_BUILD_EXAMPLES=OFF",
          "-DWEFT_TEST_SCALE=1"]
FIELDS = ("config", "quick", "file", "targets", "tests", "why", "original", "replacement")


def parse(path):
    """Records: `[name]` then `key: value` lines; `\\n` in original and
    replacement stands for a line break."""
    mutants, cur = [], None
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"^\[([A-Za-z0-9_.-]+)\]$", line)
            if m:
                cur = {"name": m.group(1), "line": no}
                mutants.append(cur)
                continue
            m = re.match(r"^([a-z]+): ?(.*)$", line)
            if not m or cur is None or m.group(1) not in FIELDS:
                sys.exit(f"mutation: {path}:{no}: not a record line: {line!r}")
            cur[m.group(1)] = m.group(2)
    names = set()
    for mu in mutants:
        for k in FIELDS:
            if k not in mu:
                sys.exit(f"mutation: {path}:{mu['line']}: [{mu['name']}] has no '{k}:'")
        if mu["config"] not in CONFIGS:
            sys.exit(f"mutation: [{mu['name']}]: unknown config {mu['config']!r}")
        if mu["name"] in names:
            sys.exit(f"mutation: [{mu['name']}] listed twice")
        names.add(mu["name"])
        mu["original"] = mu["original"].replace("\\n", "\n")
        mu["replacement"] = mu["replacement"].replace("\\n", "\n")
        if mu["original"] == mu["replacement"]:
            sys.exit(f"mutation: [{mu['name']}]: the replacement is the original")
    return mutants


def log_run(cmd, logf, cwd=None, timeout=None, env=None):
    with open(logf, "a") as lf:
        lf.write("$ " + " ".join(cmd) + "\n")
        lf.flush()
        # A session of its own: a timeout ends the test and its children
        # (mpirun's ranks), nothing else.
        p = subprocess.Popen(cmd, cwd=cwd, stdout=lf, stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
        try:
            return p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            lf.write("(timed out)\n")
            return 124


# Seconds per test run: a hang is a kill, and cheap (the unmutated tests
# take at most about 5 s here: test_cpp_sort_throw; the other lane's
# builds may slow one down, four times the margin).
TEST_TIMEOUT = 20


def run_tests(bdir, regex, logf, env):
    """Runs the tests of bdir whose names match regex, one at a time, each
    as ctest would (its command, environment and directory, from ctest's
    JSON), under a hard timeout (ctest's own --timeout yields to a test's
    TIMEOUT property).  Returns the first failing test's name (with why),
    "" when all pass, None when none matches."""
    import json
    out = subprocess.run(["ctest", "--test-dir", bdir, "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    tests = [t for t in json.loads(out)["tests"] if re.search(regex, t["name"])]
    if not tests:
        return None
    # In the order the regex names them (the fastest, most direct first):
    # the first failure ends the run.
    tests.sort(key=lambda t: regex.find(t["name"]) if t["name"] in regex else len(regex))
    for t in tests:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        if props.get("DISABLED"):
            continue
        tenv = dict(env)
        for kv in props.get("ENVIRONMENT", []):
            k, _, v = kv.partition("=")
            tenv[k] = v
        rc = log_run(t["command"], logf, cwd=props.get("WORKING_DIRECTORY", bdir),
                     timeout=TEST_TIMEOUT, env=tenv)
        if rc != 0:
            return f"{t['name']} ({'timeout' if rc == 124 else f'exit {rc}'})"
    return ""


def sync_tree(tree):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout.split("\n")
    for rel in files:
        if not rel or rel.startswith("build"):
            continue
        src, dst = os.path.join(ROOT, rel), os.path.join(tree, rel)
        if not os.path.isfile(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        if os.path.isfile(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue  # unchanged: keep its time stamp, no rebuild
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="only the mutants marked quick: yes")
    ap.add_argument("--list", default=os.path.join(HERE, "mutants.txt"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--jobs", default=str(os.cpu_count() or 2))
    ap.add_argument("--lanes", type=int, default=min(2, os.cpu_count() or 1),
                    help="mutants built and tested at once, each in a scratch tree of its own "
                         "(default: 2, or 1 on one CPU)")
    ap.add_argument("--check", action="store_true",
                    help="only check that every selected mutant's snippet is in the source "
                         "exactly once (no build)")
    ap.add_argument("filter", nargs="?", default="", help="only mutants whose name contains it")
    a = ap.parse_args()
    if a.lanes < 1:
        sys.exit("mutation: --lanes needs a positive number")
    mutants = parse(a.list)
    sel = [m for m in mutants if (not a.quick or m["quick"] == "yes") and a.filter in m["name"]]
    if not sel:
        sys.exit("mutation: no mutant selected")
    if a.check:
        stale = [f"[{m['name']}] {m['file']}: {m['original']!r}" for m in sel
                 if not os.path.isfile(os.path.join(ROOT, m["file"]))
                 or open(os.path.join(ROOT, m["file"])).read().count(m["original"]) != 1]
        for e in stale:
            print(f"STALE {e}: not in the source exactly once", flush=True)
        print(f"mutation --check: {len(sel)} mutants, {len(stale)} stale")
        sys.exit(1 if stale else 0)
    os.makedirs(a.work, exist_ok=True)
    tree = os.path.join(a.work, "tree")
    sync_tree(tree)
    logs = os.path.join(a.work, "logs")
    os.makedirs(logs, exist_ok=True)
    print(f"mutation: {len(sel)} mutants ({'quick' if a.quick else 'full'}), "
          f"{a.lanes} at once, scratch tree {tree}"
          f"{' (and tree-lane<k> beside it)' if a.lanes > 1 else ''}, logs {logs}", flush=True)

    # Every snippet is checked before anything is built: a list that no
    # longer matches the source fails at once, naming each stale entry.
    errors = []
    for m in sel:
        path = os.path.join(tree, m["file"])
        if not os.path.isfile(path):
            errors.append(f"ERROR [{m['name']}]: {m['file']} does not exist")
            continue
        with open(path) as f:
            n = f.read().count(m["original"])
        if n != 1:
            errors.append(f"ERROR [{m['name']}]: the original snippet occurs {n} times in "
                          f"{m['file']} (must be exactly once): {m['original']!r}")
    for e in errors:
        print(e, flush=True)
    bad = {e.split("]")[0][7:] for e in errors}

    env = dict(os.environ)
    env.setdefault("TSAN_OPTIONS", "halt_on_error=1")
    # Lanes: each a scratch tree and build directories of its own, taking
    # the next group of mutants from the list.  A mutant's tests mostly
    # wait (a hang waits out its limit), so a second lane builds and tests
    # meanwhile.
    lanes = []
    for k in range(a.lanes):
        ltree = tree if k == 0 else os.path.join(a.work, f"tree-lane{k}")
        if k:
            sync_tree(ltree)
        lanes.append({"tree": ltree, "suffix": "" if k == 0 else f"-lane{k}", "built": {}})
    todo = [m for m in sel if m["name"] not in bad]
    lines = [None] * len(todo)  # each mutant's report, printed in list order
    # A lane takes a group at a time: the mutants whose targets overlap, so
    # that each test program is built in one lane only.
    group_of = {}

    def root(t):
        while group_of.setdefault(t, t) != t:
            t = group_of[t]
        return t

    for m in todo:
        first, *rest = m["targets"].split()
        for t in rest:
            group_of[root(t)] = root(first)
        root(first)
    groups = {}
    for i, m in enumerate(todo):
        groups.setdefault(root(m["targets"].split()[0]), []).append(i)
    groups = list(groups.values())
    state = {"next": 0, "printed": 0, "killed": 0, "survived": 0}
    lock = threading.Lock()

    def report(i, line, error=None, outcome=None):
        with lock:
            lines[i] = line
            if error:
                errors.append(error)
            if outcome:
                state[outcome] += 1
            while state["printed"] < len(todo) and lines[state["printed"]] is not None:
                if lines[state["printed"]]:
                    print(lines[state["printed"]], flush=True)
                state["printed"] += 1

    def run_mutant(lane, i, m):
        cfg = m["config"]
        bdir = os.path.join(a.work, "build-" + cfg + lane["suffix"])
        logf = os.path.join(logs, m["name"] + ".log")
        if os.path.exists(logf):
            os.remove(logf)
        note = ""
        if cfg not in lane["built"]:
            t = time.time()
            ok = log_run(["cmake", "-S", lane["tree"], "-B", bdir] + COMMON + CONFIGS[cfg],
                         logf) == 0
            lane["built"][cfg] = ok
            note = f"  (configured {cfg}{lane['suffix']} in {time.time() - t:.0f} s)\n"
        if not lane["built"][cfg]:
            e = f"ERROR [{m['name']}]: configuration {cfg} failed: {logf}"
            return report(i, note + e, e)
        targets = m["targets"].split()
        # The unmutated targets first, so the mutant's build time is its own
        # and a broken tree is not taken for a killed mutant.
        if log_run(["cmake", "--build", bdir, "-j", a.jobs, "--target"] + targets, logf) != 0:
            e = f"ERROR [{m['name']}]: the unmutated tree does not build: {logf}"
            return report(i, note + e, e)
        path = os.path.join(lane["tree"], m["file"])
        with open(path) as f:
            orig = f.read()
        t = time.time()
        try:
            with open(path, "w") as f:
                f.write(orig.replace(m["original"], m["replacement"], 1))
            if log_run(["cmake", "--build", bdir, "-j", a.jobs, "--target"] + targets, logf) != 0:
                e = f"ERROR [{m['name']}]: the mutant does not build: {logf}"
                return report(i, note + e, e)
            rc = run_tests(bdir, m["tests"], logf, env)
        finally:
            with open(path, "w") as f:
                f.write(orig)
        if rc is None:
            e = f"ERROR [{m['name']}]: no test matches {m['tests']!r}"
            return report(i, note + e, e)
        secs = time.time() - t
        if rc:
            report(i, note + f"killed    {m['name']:<40} {secs:6.0f} s  by {rc}", outcome="killed")
        else:
            report(i, note + f"SURVIVED  {m['name']:<40} {secs:6.0f} s  ({m['tests']}): "
                   f"{m['why']}", outcome="survived")

    def lane_loop(lane):
        while True:
            with lock:
                g = state["next"]
                if g >= len(groups):
                    return
                state["next"] += 1
            for i in groups[g]:
                try:
                    run_mutant(lane, i, todo[i])
                except Exception as ex:  # reported, never a silent survivor
                    e = f"ERROR [{todo[i]['name']}]: {type(ex).__name__}: {ex}"
                    report(i, e, e)

    t0 = time.time()
    threads = [threading.Thread(target=lane_loop, args=(lane,)) for lane in lanes]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    killed, survived = state["killed"], state["survived"]
    n = len(sel)
    print(f"errors: {len(errors)} (stale snippets or builds: see above); "
          f"{time.time() - t0:.0f} s in all", flush=True)
    print(f"mutants: {n} killed: {killed} survived: {survived}", flush=True)
    return 0 if killed == n else 1


if __name__ == "__main__":
    sys.exit(main())
