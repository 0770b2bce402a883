# SPDX-License-Identifier: Apache-2.0
"""Dependencies, the scheduler list and the CMake builds of weft.

Each scheduler gets two Release builds under the build root:
build-bench-<scheduler> (counters off: every timing) and
build-bench-<scheduler>-counters (-DWEFT_STATS=ON: the counter tables only,
since counting costs time); the suite's --profile and --trace modes add
build-bench-<scheduler>-profile (-DWEFT_PROFILE=ON) and
build-bench-<scheduler>-trace (-DWEFT_TRACE=ON, counters on).  Every command of the harness (the suite,
`overhead`, `pool`) uses these trees, so one build serves them all.  A
scheduler CMake does not know fails at configure; it is reported as
skipped with CMake's own message.  Any other failure to build weft stops
the run.

Installers and builds are quiet: their output goes to
<build root>/build-logs/<step>.log and each prints one line with its
duration (and the log's path when it failed).
"""
import importlib.util
import os
import shutil
import subprocess
import sys

from .util import log, logs_dir, run_captured, run_step, tail


class BuildError(RuntimeError):
    """weft or its own dependencies could not be built or installed."""


def known_schedulers(root):
    """The schedulers of this tree, the default first: what
    `cmake -P cmake/WeftSchedulers.cmake` prints (the folders of src/sched
    with a sources.cmake).  Raises BuildError if CMake cannot say."""
    script = os.path.join(root, "cmake", "WeftSchedulers.cmake")
    code, out = run_captured(["cmake", "-P", script], timeout=60)
    names = [line.strip() for line in out.splitlines() if line.strip()]
    if code != 0 or not names:
        raise BuildError(f"cmake -P {script} did not list the schedulers (exit {code}):\n"
                         f"{tail(out, 5)}")
    return names


def choose_schedulers(text, known):
    """--schedulers: 'all' or a comma-separated list, checked against the
    tree's list.  Raises ValueError naming the unknown ones."""
    text = text.strip()
    if text == "all":
        return list(known)
    chosen = [s.strip() for s in text.split(",") if s.strip()]
    if not chosen:
        raise ValueError("--schedulers needs at least one scheduler")
    unknown = [s for s in chosen if s not in known]
    if unknown:
        raise ValueError(f"unknown scheduler(s) {', '.join(unknown)}; this tree has "
                         f"{', '.join(known)} (the folders of src/sched), or all")
    return chosen


def weft_build_dir(build_root, scheduler, counters):
    return os.path.join(build_root, f"build-bench-{scheduler}{'-counters' if counters else ''}")


def weft_cmake_flags(scheduler, counters):
    return ["-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", f"-DWEFT_SCHEDULER={scheduler}",
            f"-DWEFT_STATS={'ON' if counters else 'OFF'}", "-DWEFT_BUILD_TESTS=OFF",
            "-DWEFT_BUILD_EXAMPLES=OFF", "-DWEFT_PROFILE_LIBRARY=OFF"]


def cmake_error_message(output):
    """CMake's error text (the indented lines after 'CMake Error ...'), or
    the output's last lines when there is no such block."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("CMake Error"):
            message = []
            for follow in lines[i + 1:]:
                if follow.strip() == "" and message:
                    break
                if follow.strip():
                    message.append(follow.strip())
            if message:
                return " ".join(message)
    return tail(output, 5).strip() or "cmake failed with no output"


def build_command(build_dir, jobs=None, targets=()):
    """`cmake --build` of a tree: every target, or only `targets`."""
    cmd = ["cmake", "--build", build_dir, "--parallel"] + ([str(jobs)] if jobs else [])
    return cmd + (["--target", *targets] if targets else [])


def build_weft(root, build_root, scheduler, counters, jobs=None, targets=()):
    """Configures and builds one weft tree (all of it, or only `targets`).
    Returns (build dir, None) or (None, reason) if CMake refused the
    configuration (e.g. an unknown scheduler); raises BuildError if the
    build itself fails."""
    return _build_tree(root, build_root, weft_build_dir(build_root, scheduler, counters),
                       weft_cmake_flags(scheduler, counters),
                       f"weft {scheduler}, counters {'on' if counters else 'off'}", jobs, targets)


def observe_flags(kind):
    """The CMake flag a profiling or tracing tree adds to a timing tree's
    (a tracing tree is a counters tree: its slices count SPAWNs)."""
    if kind == "profile": # its weft programs count basic blocks (docs/profiling.md)
        return ["-DWEFT_PROFILE=ON", "-DWEFT_BENCH_COUNT_BLOCKS=ON"]
    return ["-DWEFT_TRACE=ON"]


def observe_build_dir(build_root, scheduler, kind):
    """kind: 'profile' or 'trace' (harnesslib/observe.py)."""
    return os.path.join(build_root, f"build-bench-{scheduler}-{kind}")


def build_observe(root, build_root, scheduler, kind, jobs=None, targets=()):
    """The profiling or tracing tree of a scheduler, as build_weft."""
    flags = weft_cmake_flags(scheduler, kind == "trace") + observe_flags(kind)
    return _build_tree(root, build_root, observe_build_dir(build_root, scheduler, kind), flags,
                       f"weft {scheduler}, {kind} build", jobs, targets)


def _build_tree(root, build_root, build_dir, flags, label, jobs, targets):
    name = os.path.basename(build_dir)
    configure = ["cmake", "-S", root, "-B", build_dir] + flags
    step = run_step("[build]", f"{label}: {name}" + (f" ({', '.join(targets)})" if targets else ""),
                    [configure, build_command(build_dir, jobs, targets)],
                    os.path.join(logs_dir(build_root), f"{name}.log"))
    if step.failed_at == 0:
        return None, cmake_error_message(step.output)
    if not step.ok:
        raise BuildError(f"building weft failed (log {step.log_path}):\n{tail(step.output, 30)}")
    return build_dir, None


def _deps_summary(step):
    """deps.sh prints one line (`deps: ...`): the step's result."""
    lines = [line for line in step.output.splitlines() if line.startswith("deps:")]
    return lines[-1][len("deps:"):].strip() if lines and step.ok else None


def _peers_summary(step):
    """bench/peers/deps.sh prints `<peer>: available (...)` or `<peer>: not
    available (why)` per peer: which are and which are not, in one line
    (the reasons reach the table of what was skipped)."""
    have, lack = [], []
    for line in step.output.splitlines():
        peer, sep, rest = line.partition(": ")
        if sep and " " not in peer and peer:
            if rest.startswith("available"):
                have.append(peer)
            elif rest.startswith("not available"):
                lack.append(peer)
    parts = []
    if have:
        parts.append(f"{', '.join(have)} available")
    if lack:
        parts.append(f"not available: {', '.join(lack)}")
    return "; ".join(parts) or None


def install_deps(root, build_root, want_peers, packages=()):
    """scripts/deps.sh (weft's own, plus `packages`; a failure stops the
    run) and, when peers are wanted, bench/peers/deps.sh (never fails;
    which peers it found is one line).  Returns the peers script's output
    ('' if not run)."""
    logs = logs_dir(build_root)
    script = os.path.join(root, "scripts", "deps.sh")
    step = run_step("[deps]", "scripts/deps.sh" + (f" {' '.join(packages)}" if packages else ""),
                    ["bash", script, "--log", os.path.join(logs, "deps.log"), *packages],
                    os.path.join(logs, "deps.log"), summary=_deps_summary)
    if not step.ok:
        raise BuildError(f"bash {script} failed with exit code {step.code} (log "
                         f"{step.log_path}):\n{tail(step.output)}")
    if not want_peers:
        return ""
    peers_script = os.path.join(root, "bench", "peers", "deps.sh")
    if not os.path.isfile(peers_script):
        log("[deps] bench/peers/deps.sh not found: peers use what is installed")
        return ""
    step = run_step("[deps]", "bench/peers/deps.sh", ["bash", peers_script],
                    os.path.join(logs, "peers-deps.log"), summary=_peers_summary)
    return step.output


def have_program(name):
    return shutil.which(name) is not None


def have_matplotlib():
    return importlib.util.find_spec("matplotlib") is not None


def ensure_matplotlib(install, build_root):
    """True if matplotlib can be imported, installing it with pip first when
    allowed; otherwise logs why the plots will be skipped."""
    if have_matplotlib():
        return True
    if not install:
        log("[plots] matplotlib is not installed (and --no-deps): skipping the plots")
        return False
    step = run_step("[deps]", "python3 -m pip install matplotlib",
                    [sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"],
                    os.path.join(logs_dir(build_root), "pip.log"))
    importlib.invalidate_caches()
    if not step.ok or not have_matplotlib():
        log("[plots] pip could not install matplotlib: skipping the plots")
        return False
    return True


def git_state(root):
    """(short commit, dirty) of the checkout, or (None, None) outside git.

    Dirty means a tracked file differs from HEAD (as `git describe --dirty`):
    untracked files, such as the results of an --out directory inside the
    checkout, do not change what was built."""
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or None
        status = subprocess.run(["git", "-C", root, "status", "--porcelain",
                                 "--untracked-files=no"],
                                capture_output=True, text=True).stdout
    except OSError:
        return None, None
    return commit, (bool(status.strip()) if commit else None)
