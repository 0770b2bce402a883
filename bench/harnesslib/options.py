# SPDX-License-Identifier: Apache-2.0
"""What the command line's parsers share: the checkout's root, the list of
commands (for the help texts), the option types, the options every command
has, and where a run's result files go.  cli.py dispatches; the suite and
each command build their parsers from these, so no command imports cli.py.
"""
import argparse
import datetime
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

COMMANDS = {
    "overhead": "per-task overhead (callgrind instructions, ns) and steal+join cost of each "
                "scheduler",
    "pool": "the work pool's queues on the cases of \"Work-stealing Queues In Practice\"",
    "dist": "UTS on the distributed work pool (MPI ranks) beside the shared-memory pool and uts",
    "clients": "real Lace clients (Sylvan's tools, a RUN loop) on weft's Lace packages and on "
               "real Lace, quiet, loaded and oversubscribed",
    "pairs": "two commands timed in turn, A B A B ..., and their ratio pair by pair",
}


def commands_epilog():
    return "commands (each has --help):\n" + "\n".join(
        f"  python3 bench/harness.py {name:<9} {what}" for name, what in COMMANDS.items())


def parse_workers(text):
    try:
        counts = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"worker counts must be integers, got {text!r}") from None
    if not counts or counts[0] < 1:
        raise argparse.ArgumentTypeError("worker counts must be >= 1")
    return counts


def positive_int(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {n}")
    return n


def positive_float(text):
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return x


def command_parser(name, description, examples, schedulers_default, timeout_default=1800.0):
    """The parser of `harness.py <name>` with the common options; examples:
    command lines for the help's end."""
    ap = argparse.ArgumentParser(
        prog=f"harness.py {name}", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=description,
        epilog="examples:\n" + "".join(f"  {e}\n" for e in examples) + "See docs/benchmarks.md.")
    add_common_options(ap, schedulers_default, timeout_default)
    return ap


def add_common_options(ap, schedulers_default, timeout_default=1800.0):
    """The options every command has: schedulers, installers, builds, where
    the results go, the timeout.  schedulers_default: 'default' (the tree's
    default scheduler), 'all', or None for a command without --schedulers."""
    if schedulers_default:
        ap.add_argument("--schedulers", default=schedulers_default,
                        help="comma-separated weft schedulers to build and run, all, or default "
                             f"(default: {schedulers_default}); the tree's schedulers are the "
                             "folders of src/sched, the default first, as `cmake -P "
                             "cmake/WeftSchedulers.cmake` lists them")
    ap.add_argument("--no-deps", action="store_true", help="install nothing (scripts/deps.sh, "
                    "bench/peers/deps.sh and pip are not run)")
    ap.add_argument("--out", default=os.path.join(ROOT, "results"), help="directory for the "
                    "result files (default: results/)")
    ap.add_argument("--timeout", type=positive_float, default=timeout_default,
                    help=f"seconds one binary may run (default {timeout_default:g})")
    ap.add_argument("--build-root", default=ROOT, help="directory holding the build-bench-* "
                    "and build-peers-* trees and build-logs/ (default: the checkout)")
    ap.add_argument("--no-build", action="store_true", help="do not configure or build: use "
                    "the trees already in the build root")
    ap.add_argument("--jobs", type=positive_int, help="parallel compile jobs of each build "
                    "(default: the build tool's)")


def resolve_schedulers(ap, text):
    """--schedulers against the tree's list (CMake's, read here, never
    written down); a bad name is a usage error."""
    from .build import BuildError, choose_schedulers, known_schedulers
    try:
        known = known_schedulers(ROOT)
        return choose_schedulers(known[0] if text.strip() == "default" else text, known)
    except (ValueError, BuildError) as e:
        ap.error(str(e))


def result_stem(out_dir, label):
    """<out>/<date>T<time>-<label>, the directory made if needed."""
    os.makedirs(out_dir, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y-%m-%dT%H%M%S")
    return os.path.join(out_dir, f"{stamp}-{label}")
