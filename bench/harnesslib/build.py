"""Dependencies and the CMake builds of weft.

Each scheduler gets two Release builds under the build root:
build-bench-<scheduler> (counters off: every timing) and
build-bench-<scheduler>-counters (-DWEFT_STATS=ON: the counter tables only,
since counting costs time).  A scheduler CMake does not know fails at
configure; it is reported as skipped with CMake's own message.  Any other
failure to build weft stops the run.
"""
import importlib.util
import os
import subprocess
import sys

from .util import log, run_captured, tail


class BuildError(RuntimeError):
    """weft or its own dependencies could not be built or installed."""


def weft_build_dir(build_root, scheduler, counters):
    return os.path.join(build_root, f"build-bench-{scheduler}{'-counters' if counters else ''}")


def weft_cmake_flags(scheduler, counters):
    return ["-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", f"-DWEFT_SCHEDULER={scheduler}",
            f"-DWEFT_STATS={'ON' if counters else 'OFF'}", "-DWEFT_BUILD_TESTS=OFF",
            "-DWEFT_BUILD_EXAMPLES=OFF"]


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


def build_weft(root, build_root, scheduler, counters, jobs=None):
    """Configures and builds one weft tree.  Returns (build dir, None) or
    (None, reason) if CMake refused the configuration (e.g. an unknown
    scheduler); raises BuildError if the build itself fails."""
    build_dir = weft_build_dir(build_root, scheduler, counters)
    log(f"[build] weft scheduler {scheduler}, counters {'on' if counters else 'off'}: {build_dir}")
    code, out = run_captured(["cmake", "-S", root, "-B", build_dir]
                             + weft_cmake_flags(scheduler, counters))
    if code != 0:
        return None, cmake_error_message(out)
    cmd = ["cmake", "--build", build_dir, "--parallel"] + ([str(jobs)] if jobs else [])
    code, out = run_captured(cmd)
    if code != 0:
        raise BuildError(f"building weft failed ({' '.join(cmd)}):\n{tail(out, 30)}")
    return build_dir, None


def install_deps(root, want_peers):
    """scripts/deps.sh (weft's own; a failure stops the run) and, when peers
    are wanted, bench/peers/deps.sh (never fails; its availability lines are
    shown).  Returns the peers script's output ('' if not run)."""
    script = os.path.join(root, "scripts", "deps.sh")
    log("[deps] bash scripts/deps.sh")
    code, out = run_captured(["bash", script])
    if code != 0:
        raise BuildError(f"bash {script} failed with exit code {code}:\n{tail(out)}")
    if not want_peers:
        return ""
    peers_script = os.path.join(root, "bench", "peers", "deps.sh")
    if not os.path.isfile(peers_script):
        log("[deps] bench/peers/deps.sh not found: peers use what is installed")
        return ""
    log("[deps] bash bench/peers/deps.sh")
    code, out = run_captured(["bash", peers_script])
    for line in out.splitlines():
        log(f"[deps]   {line}")
    return out


def have_matplotlib():
    return importlib.util.find_spec("matplotlib") is not None


def ensure_matplotlib(install):
    """True if matplotlib can be imported, installing it with pip first when
    allowed; otherwise logs why the plots will be skipped."""
    if have_matplotlib():
        return True
    if not install:
        log("[plots] matplotlib is not installed (and --no-deps): skipping the plots")
        return False
    log("[deps] python3 -m pip install matplotlib")
    code, out = run_captured([sys.executable, "-m", "pip", "install", "--quiet", "matplotlib"])
    importlib.invalidate_caches()
    if code != 0 or not have_matplotlib():
        log(f"[plots] pip could not install matplotlib: skipping the plots\n{tail(out, 5)}")
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
