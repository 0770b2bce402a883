# SPDX-License-Identifier: Apache-2.0
"""Small helpers shared by the harness modules: stderr logging, running
commands with their output kept for error messages, and quiet steps
(installers and builds) that log to a file and print one line each."""
import os
import shlex
import subprocess
import sys
import time


def log(msg):
    """Progress and notes go to stderr, so stdout holds only the tables."""
    print(msg, file=sys.stderr, flush=True)


def usable_cpus():
    """The CPUs this process may run on (its affinity mask where the
    platform has one), at least 1."""
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(n or 1, 1)


def tail(text, lines=15):
    """The last lines of a command's output, for an error message."""
    kept = (text or "").rstrip().splitlines()[-lines:]
    return "\n".join("    " + line for line in kept)


def run_captured(cmd, cwd=None, timeout=None, env=None):
    """Runs cmd with stdout and stderr captured together; returns
    (exit code, output).  A missing program is exit code 127, like a shell."""
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout, env=env)
    except FileNotFoundError as e:
        return 127, f"{cmd[0]}: {e.strerror}"
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out + f"\n(timed out after {timeout} s)"
    return p.returncode, p.stdout


def first_line(cmd):
    """First non-empty line a version command prints (stdout or stderr), or None."""
    code, out = run_captured(cmd, timeout=30)
    if code != 0:
        return None
    for line in out.splitlines():
        if line.strip():
            return line.strip()
    return None


def logs_dir(build_root):
    """Where installers and builds write their output (git ignores build*/)."""
    return os.path.join(build_root, "build-logs")


def display_path(path):
    """path relative to the working directory when it lies below it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


class StepResult:
    """What a quiet step did: exit code of the command that ended it (0 if
    all succeeded), the index of that command, and the whole output."""

    def __init__(self, code, failed_at, output, seconds, log_path):
        self.code, self.failed_at, self.output = code, failed_at, output
        self.seconds, self.log_path = seconds, log_path

    @property
    def ok(self):
        return self.code == 0


def run_step(tag, what, commands, log_path, summary=None, cwd=None, env=None):
    """Runs one installer or build step quietly.

    commands: a command (list of strings) or a list of them, run in order
    until one fails.  Their output goes to log_path, not to the terminal; on
    stderr the step is one line, `<tag> <what> ... <result> (<seconds> s)`,
    with the log's path when it failed.  summary(result) may name the
    result (default: `ok` or `FAILED (exit N)`)."""
    if commands and isinstance(commands[0], str):
        commands = [commands]
    print(f"{tag} {what} ...", end="", file=sys.stderr, flush=True)
    start = time.monotonic()
    os.makedirs(os.path.dirname(log_path) or ".", exist_ok=True)
    # Emptied first and appended to at the end: a command may write its
    # own details to the same log (scripts/deps.sh --log does).
    open(log_path, "w").close()
    outputs, code, failed_at = [], 0, None
    try:
        for i, cmd in enumerate(commands):
            code, out = run_captured(cmd, cwd=cwd, env=env)
            outputs.append(f"$ {shlex.join(cmd)}\n{out}")
            if code != 0:
                failed_at = i
                break
    except BaseException:
        print(" interrupted", file=sys.stderr, flush=True)
        raise
    output = "\n".join(outputs)
    with open(log_path, "a", encoding="utf-8") as f:
        f.write(output)
    result = StepResult(code, failed_at, output, time.monotonic() - start, log_path)
    note = summary(result) if summary else None
    if note is None:
        note = "ok" if result.ok else f"FAILED (exit {code})"
    where = "" if result.ok else f"; log {display_path(log_path)}"
    print(f" {note} ({result.seconds:.0f} s{where})", file=sys.stderr, flush=True)
    return result
