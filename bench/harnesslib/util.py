"""Small helpers shared by the harness modules: stderr logging and running
build commands with their output kept for error messages."""
import subprocess
import sys


def log(msg):
    """Progress and notes go to stderr, so stdout holds only the tables."""
    print(msg, file=sys.stderr, flush=True)


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
