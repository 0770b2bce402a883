# SPDX-License-Identifier: Apache-2.0
"""python3 bench/harness.py clients: real Lace clients, built unchanged
against weft's Lace packages and against real Lace, run side by side.

Builds (harnesslib/lacesrc.py; all under the build root, sources untouched):
  - weft's `lace` package in mode 1.4 (and 1.6 with --sylvan-cur-src, 2
    with --lace2-src), installed into prefixes;
  - the real Lace of --lace-src (1.4.2) and --lace2-src (2.0.3) by their
    own CMake, installed;
  - the Sylvan of --sylvan-src (b5dfc77) twice, unchanged: against Lace
    1.4.2 and against weft's mode 1.4; the Sylvan of --sylvan-cur-src
    (cd9ccd4, find_package(lace 1.6.2)) against weft's mode 1.6 only: no
    Lace 1.6 release can be fetched, so it has no Lace column and its
    answers are checked against b5dfc77's on Lace 1.4.2;
  - bench/peers/lace (the RUN-loop program, Lace 1.4 API) against both;
  - the programs of --lace-programs and (with --lace2-src) --lace2-programs
    from Lace 1.4.2's and 2.0.3's benchmarks/, by that Lace's own build and
    against weft's mode 1.4 and 2 (bench/peers/lace/benchmarks, a driver
    project);
  - the test programs of --lace-tests and --lace2-tests from Lace 1.4.2's
    and 2.0.3's test/ (NEWFRAME, TOGETHER, barriers, suspension), against
    weft's mode 1.4 and 2 and against that Lace's install, each built by
    the same driver project (bench/peers/lace/tests);
  - the Oink of --oink-src (ac3c12a, a Lace 2 client in C++) against weft's
    mode 2 and, with --lace2-src, against Lace 2.0.3 (its test_solvers);
  - the Knor of --knor-src (8fbd45e with its submodules: Sylvan, Oink and ABC
    on Lace 1.4.2) against weft's mode 1.4 and, with --lace-src, against
    Lace 1.4.2: it finds the installed `lace` package first;
  - the Sylvan programs of BDD Benchmark (--bddbench-src, 6567068, with its
    external/sylvan submodule: Sylvan 9ccb1fd, whose FetchContent takes an
    installed `lace` package first) by a driver project
    (bench/peers/bdd-benchmark): against weft's mode 1.4 and, with
    --lace-src, against that Lace 1.4.2 source given to Sylvan's
    FetchContent, as a user without a Lace install builds it.

Runs, per condition and worker count, --rounds rounds; in each round every
case runs on weft and on Lace, back to back, weft first in odd rounds and
Lace first in even ones (so that neither always runs on the host the other
left):
  quiet           1 and 2 workers
  loaded          2 workers beside two busy loops (`sh -c 'while :; do :; done'`;
                  --busy-loops: another count),
                  started before and killed after each run), default settings
  oversubscribed  2 and 4 times as many workers as the CPUs the harness may use
                  (4 and 8 on 2 CPUs; --oversubscribed-workers: other counts, each
                  more than those CPUs)
The cases: lddmc on --models x --strategies, bddmc on --bdd-models,
nqueens --nqueens, the RUN loop (--runloop sizes, --runloop-runs RUNs of
fib(n) from the main thread, then the process's CPU time over 10 ms), Lace
1.4.2's and 2.0.3's own programs (--lace-programs, --lace2-programs: each
with its arguments; they run in <build root>/run-lace-programs, so a
relative path among them is taken from there), and Oink's parallel solvers
(--oink-solvers) on random games, BDD Benchmark's Sylvan programs
(--bddbench-programs, each with its arguments; -P gives the workers),
Lace's test programs (--lace-tests, --lace2-tests: none unless asked;
each takes the worker count as its
argument), and Knor on files of its examples/
(--knor-examples; Knor starts one worker, so it runs quiet at 1 and
beside the loops, not oversubscribed).  The time is the phase the tool times (lddmc and bddmc:
`<STRATEGY> Time:`, nqueens: `Computation time:`, Oink: the solving time
test_solvers sums, Knor: its `total time was` with -v, BDD Benchmark:
its `total time (ms)`, Lace's test
programs, which print no time: the whole process's wall time; the others
`Time:`); the whole process's wall time is
kept too.  A run that passes --timeout is recorded as timed out: a round
where only Lace's run timed out has no ratio, and the table gives Lace's
time as over the timeout and counts those rounds.  Ratios are weft /
Lace, the median of the per-round ratios and their range.  The answers
(states, solutions, garbage collections started; Knor's realizability,
solver iterations, bisimulation blocks and AIG gates; fib's value; the games
Oink solved, each verified by test_solvers itself; BDD Benchmark's counts
and BDD sizes) must be the
same on weft and Lace in every run: if not, the table says NO, the command
lists them and exits 1.  A Lace program that prints no answer (matmul,
lu, heat, ...) is marked "n/a (prints no answer)".

Prints the table, writes <out>/<date>-clients.json and .csv and a PNG of
the ratios per condition.
"""
import csv
import os
import re
import shlex
import subprocess
import sys
import time

from . import build as builder
from . import lacesrc, output
from .measure import Progress
from .options import ROOT, command_parser, positive_int, result_stem
from .parse import (ParseError, parse_bddbench, parse_knor, parse_lace_program_any, parse_oink,
                    parse_runloop, parse_sylvan)
from .report import fmt_interval, fmt_ratio, render
from .stats import median_interval, median_or_none
from .util import log, tail, usable_cpus

CONDITIONS = {"quiet": (1, 2), "loaded": (2,), "oversubscribed": (4, 8)}
BUSY_LOOP = ["sh", "-c", "while :; do :; done"]
BUSY_LOOPS = 2
# The probe of how far apart the host keeps the first two CPUs (ns per
# cache-line transfer), run before and after each pair of runs.
LINE_TRANSFER_SRC = os.path.join(ROOT, "bench", "tools", "line_transfer.c")
# A pair whose probes differ by more than this factor ran on a host that
# changed between its two runs; it is not compared.
HOST_CHANGE = 2.0
# The sources the command takes (lacesrc.SOURCES), in the order it names them.
SOURCE_KEYS = ("lace", "lace2", "sylvan", "sylvan_cur", "oink", "knor", "bddbench")
RUNLOOP_SRC = os.path.join(ROOT, "bench", "peers", "lace")
LACEBENCH_SRC = os.path.join(ROOT, "bench", "peers", "lace", "benchmarks")
LACETESTS_SRC = os.path.join(ROOT, "bench", "peers", "lace", "tests")
BDDBENCH_DRIVER = os.path.join(ROOT, "bench", "peers", "bdd-benchmark")
SYLVAN_TOOLS = ("lddmc", "bddmc", "nqueens")
# Lace's own programs (--lace-programs, --lace2-programs: "PROGRAM ARG...",
# comma-separated), by default sizes that run 0.1 to 0.6 s here, so that
# more workers than CPUs take turns many times within a run (fib 30 ends
# inside one time slice).  Lace 1.4.2's run on weft's mode 1.4, Lace
# 2.0.3's on mode 2.
LACE_PROGRAMS_DEFAULT = {"lace": "fib-lace 40,queens-lace 12",
                         "lace2": "fib-lace 40,nqueens-lace 13"}
# Oink's parallel solvers (those that spawn Lace tasks), each on its own
# series of random games: (solver, games, vertices per game); 0.2 to 2 s
# of solving here.
OINK_SOLVERS = {"zlk": (4, 200000), "psi": (8, 4000), "fpi": (30, 300)}
OINK_SEED = "9"
# Knor's examples/ files (--knor-examples: "[OPTION ...] FILE", comma-
# separated), by default 0.2 to 0.6 s each here.  Knor starts one worker
# (`lace_start(1, ...)`): it runs quiet and beside the busy loops, not
# oversubscribed.
KNOR_EXAMPLES_DEFAULT = ("--sym amba_decomposed_arbiter_8.tlsf.ehoa,"
                         "--sym --bisim full_arbiter_6.tlsf.ehoa,"
                         "--sym TwoCountersDisButA3.tlsf.ehoa,OneCounterGuiA9.tlsf.ehoa")
# BDD Benchmark's Sylvan programs (--bddbench-programs: "PROGRAM ARG...",
# comma-separated; PROGRAM names src/sylvan/PROGRAM_bcdd.cpp), by default
# sizes that run 0.1 to 1.9 s here at 1 and 2 workers; queens 11 fills the
# default 128 MiB of tables, so it gets 1 GiB (-M 1024).
BDDBENCH_PROGRAMS_DEFAULT = "queens -n 11 -M 1024,tic-tac-toe -n 19,game-of-life -n 4"
# Knor exits as the synthesis competition asks: 10 realizable, 20 not.
KNOR_EXIT_CODES = (10, 20)
# Knor's submodules, which a clone without --recursive lacks.
KNOR_SUBMODULES = ("libs/sylvan", "libs/oink", "libs/abc")
# The Debian packages the clients' own builds look for (their
# find_package calls), installed with weft's own unless --no-deps: Boost's
# libraries for Oink (and the Oink inside Knor) and BDD Benchmark, flex and
# bison for Knor's parsers.
OINK_BOOST = ("libboost-dev", "libboost-filesystem-dev", "libboost-iostreams-dev",
              "libboost-regex-dev", "libboost-system-dev", "libboost-random-dev")
CLIENT_PACKAGES = {
    "oink": OINK_BOOST,
    "knor": OINK_BOOST + ("flex", "bison"),
    "bddbench": ("libboost-dev",),
}


def client_packages(args):
    """The Debian packages the given clients' builds need, each once."""
    wanted = []
    for key, packages in CLIENT_PACKAGES.items():
        if getattr(args, f"{key}_src"):
            wanted += [p for p in packages if p not in wanted]
    return wanted
# Both Oink builds: Oink ac3c12a's gpm.cpp calls std::memcpy without
# <cstring>, which GCC 12's headers do not bring in; and Lace 2.0.3's
# installed package needs Threads found first (find_threads_first.cmake).
OINK_FLAGS = ("-DCMAKE_CXX_FLAGS=-include cstring",
              "-DCMAKE_PROJECT_INCLUDE=" + os.path.join(RUNLOOP_SRC, "find_threads_first.cmake"))


def make_parser():
    ap = command_parser(
        "clients", "Real Lace clients (Sylvan's lddmc, bddmc and nqueens, a RUN loop, Lace "
        "2.0.3's programs, Oink's solvers, Knor) built unchanged against weft's Lace packages and "
        "against real Lace, run interleaved: quiet, beside two busy loops, and oversubscribed.",
        ["python3 bench/harness.py clients --lace-src ~/src/lace --sylvan-src ~/src/sylvan-b5dfc77",
         "python3 bench/harness.py clients --lace-src L --lace2-src L2 --sylvan-src S "
         "--sylvan-cur-src SC --rounds 2 --models anderson.4 --strategies sat,bfs"], None,
        timeout_default=300.0)
    group = ap.add_argument_group("sources (fetched by you; none is in the repository)")
    for key in SOURCE_KEYS:
        what, repo, commit, _ = lacesrc.SOURCES[key]
        group.add_argument(f"--{key.replace('_', '-')}-src", metavar="DIR",
                           help=f"{what}: {repo} at {commit}")
    ap.add_argument("--rounds", type=positive_int, default=5, help="rounds (default 5); each "
                    "case runs on weft and on Lace in every round, weft first in odd "
                    "rounds, Lace first in even ones")
    ap.add_argument("--conditions", default=",".join(CONDITIONS),
                    help="comma list of quiet, loaded, oversubscribed (default: all)")
    ap.add_argument("--busy-loops", type=positive_int, default=BUSY_LOOPS, metavar="N",
                    help=f"busy loops beside the runs of the loaded condition (default "
                    f"{BUSY_LOOPS})")
    ap.add_argument("--oversubscribed-workers", metavar="N,...",
                    help="the worker counts of the oversubscribed condition (default: 2 and 4 "
                    "times the CPUs this process may use, 4,8 on 2 CPUs; each more than them)")
    ap.add_argument("--models", default="anderson.4,bakery.4,blocks.2", help="lddmc's models "
                    "(<name> of Sylvan's models/<name>.ldd; default anderson.4,bakery.4,blocks.2)")
    ap.add_argument("--strategies", default="par,sat,bfs,chaining",
                    help="lddmc's strategies (-s; default par,sat,bfs,chaining)")
    ap.add_argument("--bdd-models", default="anderson.4", help="bddmc's models (models/<name>"
                    ".bdd, -s sat; default anderson.4; empty: none)")
    ap.add_argument("--nqueens", default="8", help="nqueens' board sizes (default 8; empty: none)")
    ap.add_argument("--runloop", default="18,23,28", help="the RUN loop's fib sizes (default "
                    "18,23,28: about 10 us, 100 us and 1 ms of work per RUN; empty: none)")
    ap.add_argument("--runloop-runs", type=positive_int, default=1000,
                    help="RUNs in a row per run of the RUN loop (default 1000)")
    for key, flag in (("lace", "--lace-programs"), ("lace2", "--lace2-programs")):
        ap.add_argument(flag, default=LACE_PROGRAMS_DEFAULT[key], metavar="'PROG ARGS,...'",
                        help=f"{lacesrc.SOURCES[key][0]}'s own programs to run (targets of its "
                        f"benchmarks/, each with its arguments; default "
                        f"'{LACE_PROGRAMS_DEFAULT[key]}'; empty: none)")
    for key, flag in (("lace", "--lace-tests"), ("lace2", "--lace2-tests")):
        ap.add_argument(flag, default="", metavar="TEST,...",
                        help=f"{lacesrc.SOURCES[key][0]}'s own test programs to run, timed "
                        "whole (names of its test/*.c, such as test_together; default: none)")
    ap.add_argument("--oink-solvers", default=",".join(OINK_SOLVERS),
                    help=f"Oink's solvers to run (default {','.join(OINK_SOLVERS)}; empty: none)")
    ap.add_argument("--knor-examples", default=KNOR_EXAMPLES_DEFAULT,
                    metavar="'[OPTION ...] FILE,...'", help="Knor's runs: files of its "
                    "examples/, each with Knor's options (default "
                    f"'{KNOR_EXAMPLES_DEFAULT}'; empty: none)")
    ap.add_argument("--bddbench-programs", default=BDDBENCH_PROGRAMS_DEFAULT,
                    metavar="'PROG ARGS,...'", help="BDD Benchmark's Sylvan programs to run "
                    "(PROG: src/sylvan/PROG_bcdd.cpp; its own options, but not -P, which the "
                    f"harness gives; default '{BDDBENCH_PROGRAMS_DEFAULT}'; empty: none)")
    ap.add_argument("--no-plots", action="store_true", help="write no PNG")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    return ap


def split_list(text):
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def parse_conditions(text):
    """--conditions: names of CONDITIONS, in their order; ValueError otherwise."""
    chosen = split_list(text)
    unknown = [c for c in chosen if c not in CONDITIONS]
    if unknown or not chosen:
        raise ValueError(f"--conditions: unknown {', '.join(unknown) or '(none given)'}; "
                         f"known: {', '.join(CONDITIONS)}")
    return [c for c in CONDITIONS if c in chosen]


def parse_oversubscribed_workers(text, cpus):
    """--oversubscribed-workers: worker counts, each above `cpus`, in the
    order given (None: 2 and 4 times `cpus`); ValueError otherwise."""
    if text is None:
        return (2 * cpus, 4 * cpus)
    counts = []
    for item in split_list(text):
        if not re.fullmatch(r"[0-9]+", item) or int(item) <= cpus:
            raise ValueError(f"--oversubscribed-workers: '{item}' is not a worker count above "
                             f"the {cpus} CPUs this process may use")
        if int(item) not in counts:
            counts.append(int(item))
    if not counts:
        raise ValueError("--oversubscribed-workers: no worker count given")
    return tuple(counts)


def parse_oink_solvers(text):
    """--oink-solvers: names of OINK_SOLVERS (may be none); ValueError otherwise."""
    chosen = split_list(text)
    unknown = [x for x in chosen if x not in OINK_SOLVERS]
    if unknown:
        raise ValueError(f"--oink-solvers: unknown {', '.join(unknown)}; known: "
                         f"{', '.join(OINK_SOLVERS)}")
    return chosen


def parse_lace_programs(text, flag):
    """--lace-programs, --lace2-programs: [(program, [arguments])], in the
    given order; ValueError for an item that does not name a program."""
    programs = []
    for item in split_list(text):
        words = item.split()
        if not re.fullmatch(r"[A-Za-z0-9_.+-]+", words[0]):
            raise ValueError(f"{flag}: {item!r} does not start with a program's name")
        programs.append((words[0], words[1:]))
    return programs


def parse_lace_tests(text, flag):
    """--lace-tests, --lace2-tests: test names in the given order;
    ValueError for one that is not a name or is given twice."""
    tests = []
    for item in split_list(text):
        if not re.fullmatch(r"[A-Za-z0-9_]+", item):
            raise ValueError(f"{flag}: {item!r} is not the name of a test program")
        if item in tests:
            raise ValueError(f"{flag}: {item!r} is given twice")
        tests.append(item)
    return tests


def parse_knor_examples(text):
    """--knor-examples: [(options, file)], in the given order (words as the
    shell splits them); ValueError for an item whose words before the file
    are not options, a file outside examples/, or an item given twice."""
    runs = []
    for item in split_list(text):
        try:
            words = shlex.split(item)
        except ValueError as e:
            raise ValueError(f"--knor-examples: {item!r}: {e}") from None
        if any(not w.startswith("-") for w in words[:-1]) or words[-1].startswith("-"):
            raise ValueError(f"--knor-examples: {item!r} is not '[OPTION ...] FILE'")
        name = words[-1]
        if os.path.isabs(name) or ".." in name.split("/"):
            raise ValueError(f"--knor-examples: {name!r} is not a file of Knor's examples/")
        if (words[:-1], name) in runs:
            raise ValueError(f"--knor-examples: {item!r} is given twice")
        runs.append((words[:-1], name))
    return runs


def missing_sources(args):
    """What cannot run for want of a source: [(part, hint)].  Empty when
    every part can run."""
    missing = []
    if not args.lace_src:
        missing.append(("the RUN loop, Lace 1.4.2's own programs and Sylvan b5dfc77 against "
                        "Lace 1.4.2",
                        lacesrc.source_hint("lace")))
    if not args.sylvan_src:
        missing.append(("Sylvan b5dfc77's tools", lacesrc.source_hint("sylvan")))
    if not args.sylvan_cur_src:
        missing.append(("current Sylvan's tools on weft's mode 1.6",
                        lacesrc.source_hint("sylvan_cur")))
    if not args.lace2_src:
        missing.append(("Lace 2.0.3's programs against weft's mode 2"
                        + (", and Oink against Lace 2.0.3" if args.oink_src else ""),
                        lacesrc.source_hint("lace2")))
    if not args.oink_src:
        missing.append(("Oink's solvers", lacesrc.source_hint("oink")))
    if not args.knor_src:
        missing.append(("Knor", lacesrc.source_hint("knor")))
    if not args.bddbench_src:
        missing.append(("BDD Benchmark's Sylvan programs", lacesrc.source_hint("bddbench")))
    return missing


class Case:
    """One thing run on weft and on Lace.  commands: {'weft': argv maker,
    'lace': argv maker or None}, each called with the worker count;
    parse: output -> {'time', 'answers', ...}; reference: the key of the
    case whose Lace answers this one's must equal when it has no Lace;
    workers: the count a program that starts its own workers starts
    (None: it takes -w), which runs quiet at that count and beside the busy
    loops, not oversubscribed; exit_codes: the statuses of a run that
    ended well (other than 0, the status is one of the answers);
    timed_whole: the program prints no time, and its time is the whole
    process's wall time."""

    def __init__(self, program, what, packages, commands, parse, reference=None, workers=None,
                 exit_codes=(0,), timed_whole=False):
        self.program, self.what, self.packages = program, what, packages
        self.commands, self.parse, self.reference = commands, parse, reference
        self.workers, self.exit_codes = workers, exit_codes
        self.timed_whole = timed_whole

    def runs_in(self, condition, workers):
        """Whether this case runs in the slot (condition, workers): one with
        its own count runs in the quiet slot of that count (so only a count
        among the quiet ones, 1 or 2, runs quiet) and in the loaded one."""
        if self.workers is None:
            return True
        return condition == "loaded" or (condition == "quiet" and workers == self.workers)

    @property
    def key(self):
        return f"{self.program} | {self.what}"


def sylvan_cases(label, tools_weft, tools_lace, models_dir, args, packages, reference_label=None):
    """lddmc, bddmc and nqueens cases of one Sylvan: tools_* the examples/
    folders of its two builds (tools_lace None: weft only)."""
    def maker(folder, tool, extra):
        if folder is None:
            return None
        return lambda w: [os.path.join(folder, tool), "-w", str(w)] + extra
    cases = []
    def add(tool, what, extra):
        ref = f"{tool} {reference_label} | {what}" if reference_label else None
        cases.append(Case(f"{tool} {label}", what, packages,
                          {"weft": maker(tools_weft, tool, extra),
                           "lace": maker(tools_lace, tool, extra)}, parse_sylvan, ref))
    for model in split_list(args.models):
        for s in split_list(args.strategies):
            add("lddmc", f"{model} -s {s}", ["-s", s, os.path.join(models_dir, f"{model}.ldd")])
    for model in split_list(args.bdd_models):
        add("bddmc", f"{model} -s sat", ["-s", "sat", os.path.join(models_dir, f"{model}.bdd")])
    for n in split_list(args.nqueens):
        add("nqueens", f"n={n}", [n])
    return cases


def check_models(models_dir, args):
    for model in split_list(args.models):
        if not os.path.isfile(os.path.join(models_dir, f"{model}.ldd")):
            raise lacesrc.SourceError(f"no model {models_dir}/{model}.ldd (--models)")
    for model in split_list(args.bdd_models):
        if not os.path.isfile(os.path.join(models_dir, f"{model}.bdd")):
            raise lacesrc.SourceError(f"no model {models_dir}/{model}.bdd (--bdd-models)")


def _runloop_cases(args, br, jobs, build, weft14, real14, lace_name, builds):
    """The RUN loop built against weft's mode 1.4 and against Lace 1.4.2."""
    rl = {}
    for who, prefix in (("weft", weft14), ("lace", real14)):
        d = os.path.join(br, f"build-runloop-{who}")
        lacesrc.build_client(RUNLOOP_SRC, d, prefix, f"RUN loop on {who}", br, jobs, build=build)
        rl[who], builds[os.path.basename(d)] = os.path.join(d, "runloop"), d
    cases = []
    for n in split_list(args.runloop):
        extra = [n, str(args.runloop_runs)]
        cases.append(Case("runloop", f"fib({n}) x {args.runloop_runs}", f"weft 1.4 / {lace_name}",
                          {"weft": lambda w, e=extra: [rl["weft"], "-w", str(w)] + e,
                           "lace": lambda w, e=extra: [rl["lace"], "-w", str(w)] + e},
                          parse_runloop))
    return cases


# The version each mode of weft's Lace package answers find_package with.
PACKAGE_API = {"1.4": "1.4.2", "2": "2.0"}


def _checked(parse, *args):
    """parse(*args) for an option checked again beside its source: a
    ValueError becomes a SourceError, which stops the command with its
    message."""
    try:
        return parse(*args)
    except ValueError as e:
        raise lacesrc.SourceError(str(e)) from None


def lace_programs(src, flag, text):
    """The programs of --lace-programs / --lace2-programs, [(program,
    [arguments])], each checked to be a program src's benchmarks/ builds
    on Lace; SourceError otherwise.  Called before anything is built."""
    programs = _checked(parse_lace_programs, text, flag)
    if not programs:
        return []
    known = lacesrc.benchmark_targets(src)
    unknown = sorted({p for p, _ in programs if p not in known})
    if unknown:
        raise lacesrc.SourceError(f"{flag}: {src}/benchmarks builds no {', '.join(unknown)} "
                                  f"(it builds {', '.join(sorted(known)) or 'nothing'})")
    return programs


def lace_program_cases(src, programs, br, jobs, build, builds, version, lace_build, weft, mode):
    """Lace's own programs (lace_programs'): each by the Lace of src's own
    build and against weft's package of `mode` (a driver project of src's
    benchmarks/).  They run in a folder of the build root (cilksort writes
    its input there)."""
    if not programs:
        return []
    d = os.path.join(br, f"build-lacebench-{version}-weft-{mode}")
    lacesrc.build_client(LACEBENCH_SRC, d, weft, f"Lace {version}'s programs on weft-{mode}", br,
                         jobs, targets=sorted({p for p, _ in programs}), build=build,
                         flags=[f"-DLACE_SRC={src}", f"-DLACE_API={PACKAGE_API[mode]}"])
    builds[os.path.basename(d)] = d
    run_dir = os.path.join(br, "run-lace-programs")
    os.makedirs(run_dir, exist_ok=True)
    cases = []
    for program, arguments in programs:
        def command(folder, p=program, a=arguments):
            return lambda w: ["env", "-C", run_dir, os.path.join(folder, "benchmarks", p),
                              "-w", str(w)] + a
        cases.append(Case(f"{program} (Lace {version}'s)", " ".join(arguments) or "-",
                          f"weft {mode} / Lace {version}",
                          {"weft": command(d), "lace": command(lace_build)},
                          parse_lace_program_any))
    return cases


def lace_tests(src, flag, text):
    """The tests of --lace-tests / --lace2-tests, [name], each checked to
    be a test/<name>.c of src; SourceError otherwise.  Called before
    anything is built."""
    tests = _checked(parse_lace_tests, text, flag)
    known = lacesrc.test_programs(src) if tests else set()
    unknown = [t for t in tests if t not in known]
    if unknown:
        raise lacesrc.SourceError(f"{flag}: {src}/test has no {', '.join(unknown)}.c "
                                  f"(it has {', '.join(sorted(known)) or 'none'})")
    return tests


def parse_exit_only(output):
    """A program judged by its exit status alone: no time, no answer."""
    return {"time": None, "answers": {}}


def lace_test_cases(src, tests, br, jobs, build, builds, version, real_prefix, weft, mode):
    """Lace's own test programs (lace_tests'), built by one driver project
    against weft's package of `mode` and against that Lace's install
    (real_prefix), each timed whole; a test takes the worker count as its
    argument."""
    if not tests:
        return []
    dirs = _build_client_twice(
        LACETESTS_SRC, "LaceTests", version, ((f"weft-{mode}", weft), ("lace", real_prefix)), br,
        jobs, build, builds, tests,
        [f"-DLACE_SRC={src}", f"-DLACE_API={PACKAGE_API[mode]}",
         f"-DLACE_TESTS={';'.join(tests)}"])

    def command(folder, test):
        return lambda w: [os.path.join(folder, test), str(w)]
    return [Case(f"{test} (Lace {version}'s)", "whole process", f"weft {mode} / Lace {version}",
                 {"weft": command(dirs[f"weft-{mode}"], test), "lace": command(dirs["lace"], test)},
                 parse_exit_only, timed_whole=True)
            for test in tests]


def _build_client_twice(src, name, tag, prefixes, br, jobs, build, builds, targets, flags=()):
    """One client source built against each package of prefixes ((who,
    prefix or None), ...) into build-<name>-<tag>-<who>, recorded in
    builds: {who: build dir} of those built."""
    dirs = {}
    for who, prefix in prefixes:
        if prefix is None:
            continue
        d = os.path.join(br, f"build-{name.lower()}-{tag}-{who}")
        lacesrc.build_client(src, d, prefix, f"{name} {tag} on {who}", br, jobs,
                             targets=targets, build=build, flags=flags)
        dirs[who], builds[os.path.basename(d)] = d, d
    return dirs


def _oink_cases(args, br, jobs, build, builds, sources, notes, weft2, real2, lace2_name):
    """Oink's test_solvers, unchanged, against weft's mode 2 and (real2 not
    None) against Lace 2.0.3: one case per solver of --oink-solvers."""
    solvers = _checked(parse_oink_solvers, args.oink_solvers)
    if not solvers:
        return []
    tag = sylvan_label(sources, "oink", notes)
    exe = {who: os.path.join(d, "test_solvers") for who, d in _build_client_twice(
        args.oink_src, "Oink", tag, (("weft-2", weft2), ("lace", real2)), br, jobs, build,
        builds, ["test_solvers"], OINK_FLAGS).items()}
    if real2 is None:
        notes.append(f"Oink {tag} ran on weft only: give {lacesrc.source_hint('lace2')}")

    def maker(path, solver, games, size):
        if path is None:
            return None
        return lambda w: [path, "--seed", OINK_SEED, "--count", str(games), "--size", str(size),
                          f"--{solver}", "-w", str(w)]
    cases = []
    for solver in solvers:
        games, size = OINK_SOLVERS[solver]
        cases.append(Case(f"oink {tag}", f"{solver}, {games} games of {size}",
                          f"weft 2 / {lace2_name}" if real2 else "weft 2",
                          {"weft": maker(exe["weft-2"], solver, games, size),
                           "lace": maker(exe.get("lace"), solver, games, size)}, parse_oink))
    return cases


def knor_runs(src, text):
    """The runs of --knor-examples, [(options, file)], each file checked to
    be in src/examples and the submodules to be there; SourceError
    otherwise.  Called before anything is built."""
    runs = _checked(parse_knor_examples, text)
    if not runs:
        return []
    for sub in KNOR_SUBMODULES:
        if not os.path.isfile(os.path.join(src, sub, "CMakeLists.txt")):
            raise lacesrc.SourceError(f"{src}/{sub} is empty: Knor's submodules are missing "
                                      f"(git -C {src} submodule update --init)")
    absent = [f for _, f in runs if not os.path.isfile(os.path.join(src, "examples", f))]
    if absent:
        raise lacesrc.SourceError(f"--knor-examples: no {', '.join(absent)} in {src}/examples")
    return runs


def _knor_cases(args, runs, br, jobs, build, builds, sources, notes, weft14, real14, lace_name):
    """Knor, unchanged, against weft's mode 1.4 and (real14 not None) against
    Lace 1.4.2: one case per run of --knor-examples, at the one worker Knor
    starts."""
    tag = sylvan_label(sources, "knor", notes)
    exe = {who: os.path.join(d, "knor") for who, d in _build_client_twice(
        args.knor_src, "Knor", tag, (("weft-1.4", weft14), ("lace", real14)), br, jobs, build,
        builds, ["knor"]).items()}
    if real14 is None:
        notes.append(f"Knor {tag} ran on weft only: give {lacesrc.source_hint('lace')}")
    examples = os.path.join(args.knor_src, "examples")

    def maker(path, options, name):
        if path is None:
            return None
        return lambda w: [path] + options + ["-v", os.path.join(examples, name)]
    return [Case(f"knor {tag}", " ".join(options + [name]),
                 f"weft 1.4 / {lace_name}" if real14 else "weft 1.4",
                 {"weft": maker(exe["weft-1.4"], options, name),
                  "lace": maker(exe.get("lace"), options, name)}, parse_knor, workers=1,
                 exit_codes=KNOR_EXIT_CODES)
            for options, name in runs]


def parse_bddbench_programs(text):
    """--bddbench-programs: [(program, [arguments])], in the given order;
    ValueError for an item that does not start with a program's name, that
    gives -P (the harness gives the worker count) or is given twice."""
    programs = []
    for item in split_list(text):
        words = item.split()
        if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]*", words[0]):
            raise ValueError(f"--bddbench-programs: {item!r} does not start with a program's "
                             "name")
        if any(w.startswith("-P") for w in words[1:]):
            raise ValueError(f"--bddbench-programs: {item!r} gives -P: the harness gives the "
                             "worker count")
        if (words[0], words[1:]) in programs:
            raise ValueError(f"--bddbench-programs: {item!r} is given twice")
        programs.append((words[0], words[1:]))
    return programs


# A BDD Benchmark program whose target links more than Sylvan and
# src/common (link_extra, link_bcdd_extra in its src/CMakeLists.txt).
_BDDBENCH_EXTRA_RE = re.compile(r"^\s*link_(?:bcdd_)?extra\s*\(\s*([A-Za-z0-9_-]+)", re.M)


def bddbench_programs(src, text):
    """The programs of --bddbench-programs, each checked to be a Sylvan
    program of src (src/sylvan/<name>_bcdd.cpp) that needs no other library,
    and the Sylvan submodule to be there; SourceError otherwise.  Called
    before anything is built."""
    programs = _checked(parse_bddbench_programs, text)
    if not programs:
        return []
    if not os.path.isfile(os.path.join(src, "external", "sylvan", "CMakeLists.txt")):
        raise lacesrc.SourceError(f"{src}/external/sylvan is empty: BDD Benchmark's Sylvan "
                                  f"submodule is missing (git -C {src} submodule update --init "
                                  "external/sylvan)")
    folder = os.path.join(src, "src", "sylvan")
    known = {n[:-len("_bcdd.cpp")] for n in os.listdir(folder) if n.endswith("_bcdd.cpp")} \
        if os.path.isdir(folder) else set()
    try:
        with open(os.path.join(src, "src", "CMakeLists.txt"), encoding="utf-8",
                  errors="replace") as f:
            known -= set(_BDDBENCH_EXTRA_RE.findall(f.read()))
    except OSError:
        pass
    unknown = sorted({p for p, _ in programs if p not in known})
    if unknown:
        raise lacesrc.SourceError(
            f"--bddbench-programs: {src}/src/sylvan has no {', '.join(unknown)} that needs "
            f"only Sylvan (it has {', '.join(sorted(known)) or 'none'})")
    return programs


def _bddbench_cases(args, programs, br, jobs, build, builds, sources, notes, weft14, lace_name):
    """BDD Benchmark's Sylvan programs, unchanged, by the driver project:
    against weft's mode 1.4 and (with --lace-src) against Lace 1.4.2's
    source given to its Sylvan's FetchContent."""
    tag = sylvan_label(sources, "bddbench", notes)
    targets = [f"sylvan_{p}_bcdd" for p in dict(programs)]
    flags = [f"-DBDDBENCH_SRC={args.bddbench_src}",
             f"-DBDDBENCH_PROGRAMS={';'.join(dict(programs))}"]
    dirs = _build_client_twice(BDDBENCH_DRIVER, "BddBench", tag, (("weft-1.4", weft14),), br,
                               jobs, build, builds, targets, flags)
    if args.lace_src:
        d = os.path.join(br, f"build-bddbench-{tag}-lace")
        lacesrc.build_client_on_lace_source(BDDBENCH_DRIVER, d, args.lace_src,
                                            f"BddBench {tag} on lace", br, jobs,
                                            targets=targets, build=build, flags=flags)
        dirs["lace"], builds[os.path.basename(d)] = d, d
    else:
        notes.append(f"BDD Benchmark {tag} ran on weft only: give {lacesrc.source_hint('lace')}")

    def maker(folder, program, arguments):
        if folder is None:
            return None
        return lambda w: [os.path.join(folder, f"sylvan_{program}_bcdd")] + arguments + \
            ["-P", str(w)]
    return [Case(f"bdd-benchmark {tag}", " ".join([program] + arguments),
                 f"weft 1.4 / {lace_name}" if "lace" in dirs else "weft 1.4",
                 {"weft": maker(dirs["weft-1.4"], program, arguments),
                  "lace": maker(dirs.get("lace"), program, arguments)}, parse_bddbench)
            for program, arguments in programs]


def sylvan_label(sources, key, notes):
    """A client source's name in the table (Sylvan's, Oink's): its commit
    (the expected one when it is not a git work tree); a note when it is
    another commit."""
    expected = lacesrc.SOURCES[key][2]
    commit = sources[key]["commit"]
    if commit and not commit.startswith(expected[:7]) and not expected.startswith(commit):
        notes.append(f"{lacesrc.SOURCES[key][0]} is at {commit}, not {expected}")
    return commit[:7] if commit else expected


def prepare(args):
    """Builds everything the given sources allow; returns (cases, builds,
    sources, notes)."""
    build = not args.no_build
    br, jobs = args.build_root, args.jobs
    cases, builds, sources, notes = [], {}, {}, []
    for key in SOURCE_KEYS:
        src = getattr(args, f"{key}_src")
        if src:
            marker = ("benchmarks/CMakeLists.txt" if key.startswith("lace") else
                      "src/solvers/zlk.cpp" if key == "oink" else
                      "src/knor.cpp" if key == "knor" else
                      "src/sylvan/adapter.h" if key == "bddbench" else "examples/lddmc.c")
            src = lacesrc.check_source(key, src, marker)
            setattr(args, f"{key}_src", src)
            sources[key] = {"path": src, "commit": lacesrc.source_commit(src),
                            "expected": lacesrc.SOURCES[key][2]}
    # Lace's own programs are checked before anything is built.
    programs = {key: lace_programs(getattr(args, f"{key}_src"), f"--{key}-programs",
                                   getattr(args, f"{key}_programs"))
                for key in ("lace", "lace2") if getattr(args, f"{key}_src")}
    tests = {key: lace_tests(getattr(args, f"{key}_src"), f"--{key}-tests",
                             getattr(args, f"{key}_tests"))
             for key in ("lace", "lace2") if getattr(args, f"{key}_src")}
    knor = knor_runs(args.knor_src, args.knor_examples) if args.knor_src else []
    bddbench = bddbench_programs(args.bddbench_src, args.bddbench_programs) \
        if args.bddbench_src else []
    real14 = lace_name = weft14 = None
    if args.lace_src:
        version, lace_build, real14 = lacesrc.build_real_lace(args.lace_src, br, jobs, build)
        sources["lace"]["version"] = version
        builds[f"lace-{version}"] = lace_build
        lace_name = f"Lace {version}"
    if args.lace_src or args.sylvan_src or knor or bddbench:
        weft14 = lacesrc.build_weft_lace(ROOT, br, "1.4", jobs, build)
        builds["weft-lace-1.4"] = weft14
    if args.lace_src:
        cases += _runloop_cases(args, br, jobs, build, weft14, real14, lace_name, builds)
        cases += lace_program_cases(args.lace_src, programs["lace"], br, jobs, build, builds,
                                    version, lace_build, weft14, "1.4")
        cases += lace_test_cases(args.lace_src, tests["lace"], br, jobs, build, builds, version,
                                 real14, weft14, "1.4")
    old = None
    if args.sylvan_src:
        old = sylvan_label(sources, "sylvan", notes)
        check_models(os.path.join(args.sylvan_src, "models"), args)
        tools = {who: os.path.join(d, "examples") for who, d in _build_client_twice(
            args.sylvan_src, "Sylvan", old, (("weft-1.4", weft14), ("lace", real14)), br, jobs,
            build, builds, SYLVAN_TOOLS).items()}
        if real14 is None:
            notes.append(f"Sylvan {old} ran on weft only: give {lacesrc.source_hint('lace')}")
        cases += sylvan_cases(old, tools["weft-1.4"], tools.get("lace"),
                              os.path.join(args.sylvan_src, "models"), args,
                              f"weft 1.4 / {lace_name}" if real14 else "weft 1.4")
    if args.sylvan_cur_src:
        cur = sylvan_label(sources, "sylvan_cur", notes)
        check_models(os.path.join(args.sylvan_cur_src, "models"), args)
        weft16 = lacesrc.build_weft_lace(ROOT, br, "1.6", jobs, build)
        builds["weft-lace-1.6"] = weft16
        d = os.path.join(br, f"build-sylvan-{cur}-weft-1.6")
        lacesrc.build_client(args.sylvan_cur_src, d, weft16, f"Sylvan {cur} on weft-1.6", br,
                             jobs, targets=SYLVAN_TOOLS, build=build)
        builds[os.path.basename(d)] = d
        ref = old if (old and real14) else None
        notes.append(f"current Sylvan ({cur}, find_package(lace 1.6.2)) runs on weft's mode "
                     "1.6 only: no Lace 1.6 release can be fetched (trolando/lace's public "
                     "history ends at v1.4.2)" + (
                         f"; its answers are checked against Sylvan {ref} on {lace_name} in "
                         "the same case" if ref else "; give --lace-src and --sylvan-src to "
                         "check its answers against Sylvan b5dfc77 on Lace 1.4.2"))
        cases += sylvan_cases(cur, os.path.join(d, "examples"), None,
                              os.path.join(args.sylvan_cur_src, "models"), args,
                              "weft 1.6 / (no Lace 1.6)", reference_label=ref)
    weft2 = real2 = lace2_name = None
    if args.lace2_src or args.oink_src:
        weft2 = lacesrc.build_weft_lace(ROOT, br, "2", jobs, build)
        builds["weft-lace-2"] = weft2
    if args.lace2_src:
        version, lace2_build, real2 = lacesrc.build_real_lace(args.lace2_src, br, jobs, build)
        sources["lace2"]["version"] = version
        builds[f"lace-{version}"] = lace2_build
        lace2_name = f"Lace {version}"
        cases += lace_program_cases(args.lace2_src, programs["lace2"], br, jobs, build, builds,
                                    version, lace2_build, weft2, "2")
        cases += lace_test_cases(args.lace2_src, tests["lace2"], br, jobs, build, builds,
                                 version, real2, weft2, "2")
    if args.oink_src:
        cases += _oink_cases(args, br, jobs, build, builds, sources, notes, weft2, real2,
                             lace2_name)
    if knor:
        cases += _knor_cases(args, knor, br, jobs, build, builds, sources, notes, weft14, real14,
                             lace_name)
    if bddbench:
        cases += _bddbench_cases(args, bddbench, br, jobs, build, builds, sources, notes, weft14,
                                 lace_name)
    return cases, builds, sources, notes


class BusyLoops:
    """`count` busy loops for the length of a with-block (the loaded condition)."""

    def __init__(self, count):
        self.count, self.procs = count, []

    def __enter__(self):
        self.procs = [subprocess.Popen(BUSY_LOOP, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                      for _ in range(self.count)]
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []
        return False


def run_case(case, who, workers, timeout, loaded, busy_loops=BUSY_LOOPS):
    """One run (loaded: beside `busy_loops` busy loops): {'status':
    ok|FAILED|timeout, 'time', 'wall', 'answers', ...}."""
    cmd = case.commands[who](workers)
    busy = BusyLoops(busy_loops if loaded else 0)
    with busy:
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8",
                               errors="replace", timeout=timeout)
            code, out = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired as e:
            code = None
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        except FileNotFoundError as e:
            code, out = 127, f"{cmd[0]}: {e.strerror}"
        wall = time.monotonic() - start
    result = {"command": shlex.join(cmd), "wall": wall, "time": None, "answers": None}
    if code is None:
        return dict(result, status="timeout", timeout=timeout,
                    message=f"timed out after {timeout:g} s")
    if code not in case.exit_codes:
        return dict(result, status="FAILED", message=f"exit {code}:\n{tail(out, 8)}")
    try:
        parsed = case.parse(out)
    except ParseError as e:
        return dict(result, status="FAILED", message=f"{e}:\n{tail(out, 8)}")
    if case.exit_codes != (0,):
        parsed["answers"] = dict(parsed["answers"], exit=str(code))
    if case.timed_whole:
        parsed["time"] = wall
    return dict(result, **parsed, status="ok")


def line_transfer_probe(build_root):
    """(probe, None): probe() runs bench/tools/line_transfer and returns its
    ns per transfer, or None; (None, why) when it cannot be built or run."""
    exe = os.path.join(build_root, "line_transfer")
    cc = shlex.split(os.environ.get("CC") or "cc")
    try:
        built = subprocess.run(cc + ["-O2", "-pthread", "-o", exe, LINE_TRANSFER_SRC],
                               capture_output=True, text=True)
    except FileNotFoundError:
        return None, f"no C compiler ({shlex.join(cc)}) to build {LINE_TRANSFER_SRC}"
    if built.returncode != 0:
        return None, f"{LINE_TRANSFER_SRC} did not build: {tail(built.stderr, 3)}"

    def run():
        """(ns, None) or (None, what went wrong)."""
        try:
            p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            return None, "line_transfer took over 60 s"
        try:
            return (float(p.stdout), None) if p.returncode == 0 else (None, p.stderr.strip())
        except ValueError:
            return None, f"line_transfer printed {p.stdout.strip()!r}"

    _, why = run()
    if why:
        return None, why
    return (lambda: run()[0]), None


def host_steady(before, after):
    """False when the two probes around a pair differ by more than HOST_CHANGE
    (True when either is missing: nothing to tell)."""
    if not before or not after:
        return True
    return max(before, after) <= HOST_CHANGE * min(before, after)


def measure(cases, conditions, rounds, timeout, probe=None, workers=None, busy_loops=BUSY_LOOPS):
    """Every case in every condition: a record per (case, condition,
    workers) with the runs of weft and Lace per round, and with `probe`
    (line_transfer_probe's) its results before and after each round's pair
    (or weft's run alone, where there is no Lace).  `workers`: the worker
    counts per condition (default CONDITIONS); `busy_loops`: how many run
    beside the loaded condition's runs."""
    workers = workers or CONDITIONS
    slots = [(c, w) for c in conditions for w in workers[c]]
    total = sum(rounds * (1 + (case.commands["lace"] is not None))
                for c, w in slots for case in cases if case.runs_in(c, w))
    progress = Progress(total)
    records = []
    # Nothing runs between one pair's probe after and the next pair's probe
    # before: one probe serves as both.
    last_probe = None
    for condition, workers in slots:
        here = [case for case in cases if case.runs_in(condition, workers)]
        recs = [{"program": case.program, "what": case.what, "packages": case.packages,
                 "key": case.key, "reference": case.reference, "condition": condition,
                 "workers": case.workers or workers, "slot_workers": workers, "weft": [],
                 "lace": [] if case.commands["lace"] else None, "line_ns": []}
                for case in here]
        for r in range(rounds):
            for case, rec in zip(here, recs):
                before = last_probe if last_probe is not None else probe() if probe else None
                # Alternated: a run right after the other system's may find
                # the host in a state that one left (freed memory not yet
                # reclaimed, caches, a clock), and that must not always
                # fall on the same side of the ratio.
                for who in ("weft", "lace") if r % 2 == 0 else ("lace", "weft"):
                    if case.commands[who] is None:
                        continue
                    progress.step(f"{condition} -w {rec['workers']} round "
                                  f"{r + 1}/{rounds}: "
                                  f"{case.program} {case.what} on {who}")
                    run = run_case(case, who, rec["workers"], timeout, condition == "loaded",
                                   busy_loops)
                    if run["status"] != "ok":
                        log(f"[{run['status']}] {who}: `{run['command']}`: {run['message']}")
                    rec[who].append(run)
                last_probe = probe() if probe else None
                rec["line_ns"].append((before, last_probe))
        records += recs
    return records


# The answer that may vary from run to run at more than one worker: when
# Sylvan's node table fills, and so how many collections run, depends on
# how the workers' operations interleave (real Lace's own runs differ).
TIMING_DEPENDENT = ("collections",)


def answers_of(runs, leave_out=()):
    """The distinct answers of a system's successful runs, as sorted tuples
    (without the keys in leave_out)."""
    return sorted({tuple(sorted((k, v) for k, v in r["answers"].items() if k not in leave_out))
                   for r in runs or [] if r["status"] == "ok"})


def compare_answers(weft_runs, their_runs, workers):
    """'yes' when every run of both gave the same answers; 'NO' when the
    states, solutions or values differ between any two runs, or (at one
    worker, where a run is deterministic) the collections do; 'yes, GCs
    vary' when only the number of collections differs at more than one
    worker."""
    exact_weft = answers_of(weft_runs, TIMING_DEPENDENT)
    exact_theirs = answers_of(their_runs, TIMING_DEPENDENT)
    if len(exact_weft) != 1 or exact_weft != exact_theirs:
        return "NO"
    full_weft, full_theirs = answers_of(weft_runs), answers_of(their_runs)
    if len(full_weft) == 1 and full_weft == full_theirs:
        return "yes"
    return "NO" if workers == 1 else "yes, GCs vary"


def fmt_answers(answers):
    return "; ".join(", ".join(f"{k} {v}" for k, v in a) for a in answers) or "-"


def summarise(records):
    """Adds to every record: medians, ratios (weft/Lace per round: median,
    lowest, highest, the interval that holds the median with 95 %
    (stats.median_interval), and of the wall times; a round whose line-transfer
    probes show the host changed is left out and counted), the answers of
    each side and whether they are equal ('yes', 'NO', or why it cannot be
    told)."""
    lace_runs = {}
    for rec in records:
        if rec["lace"] is not None:
            lace_runs[(rec["key"], rec["condition"], rec["workers"])] = rec["lace"]
    for rec in records:
        weft, lace = rec["weft"], rec["lace"]
        rec["weft_time"] = median_or_none([r["time"] for r in weft if r["status"] == "ok"])
        rec["lace_time"] = median_or_none([r["time"] for r in lace or [] if r["status"] == "ok"])
        ratios, walls = [], []
        probes = rec.get("line_ns") or []
        rec["rounds_compared"], rec["rounds_host_changed"], kept_probes = 0, 0, []
        for i, (a, b) in enumerate(zip(weft, lace or [])):
            if not a["status"] == b["status"] == "ok" or b["time"] <= 0:
                continue
            before, after = probes[i] if i < len(probes) else (None, None)
            if not host_steady(before, after):
                rec["rounds_host_changed"] += 1
                continue
            kept_probes += [x for x in (before, after) if x]
            rec["rounds_compared"] += 1
            ratios.append(a["time"] / b["time"])
            if b["wall"] > 0:
                walls.append(a["wall"] / b["wall"])
        rec["ratios"], rec["wall_ratios"] = ratios, walls
        # Rounds with no ratio because only Lace's run passed the timeout,
        # and the timeout when every Lace run did (its time is over it).
        rec["lace_timed_out"] = sum(1 for a, b in zip(weft, lace or [])
                                    if a["status"] == "ok" and b["status"] == "timeout")
        over = [r["timeout"] for r in lace or [] if r["status"] == "timeout"]
        rec["lace_over"] = min(over) if over and len(over) == len(lace) else None
        rec["ratio"] = median_or_none(ratios)
        rec["ratio_interval"] = median_interval(ratios)
        rec["wall_ratio"] = median_or_none(walls)
        if lace is None:  # nothing compared: the probes around weft's runs describe the host
            kept_probes = [x for pair in probes for x in pair if x]
        rec["line_ns_median"] = median_or_none(kept_probes)
        rec["weft_answers"] = answers_of(weft)
        if lace is not None:
            theirs, against = lace, "Lace"
        elif rec["reference"]:
            theirs = lace_runs.get((rec["reference"], rec["condition"], rec["workers"]))
            against = "the reference"
        else:
            theirs, against = None, None
        rec["lace_answers"] = None if theirs is None else answers_of(theirs)
        failed = [who for who in ("weft", "lace") if any(r["status"] != "ok"
                                                        for r in rec[who] or [])]
        if failed:
            rec["equal"] = "n/a (" + " and ".join(
                who + (" timed out" if all(r["status"] in ("ok", "timeout") for r in rec[who])
                       else " failed") for who in failed) + ")"
        elif theirs is None:
            rec["equal"] = "n/a (no Lace run)"
        elif not any(r["answers"] for r in weft + theirs):
            rec["equal"] = "n/a (prints no answer)"
        else:
            rec["equal"] = compare_answers(weft, theirs, rec["workers"])
            if against != "Lace" and rec["equal"] != "NO":
                rec["equal"] += f" ({rec['reference'].split(' | ')[0].split()[-1]} on Lace)"
        for key in ("idle_cpu_ms", "idle_late_percent"):
            rec[key] = {who: median_or_none([r.get(key) for r in rec[who] or []
                                             if r["status"] == "ok" and key in r])
                        for who in ("weft", "lace")}
    return records


def fmt_seconds(x):
    return "-" if x is None else f"{x:.3f}"


def fmt_range(xs):
    return "-" if not xs else f"{min(xs):.2f}-{max(xs):.2f}"


TABLE_HEAD = ["program", "model/strategy", "weft / Lace", "condition", "workers", "Lace (s)",
              "weft (s)", "weft/Lace", "range", "median's 95 %", "wall weft/Lace", "rounds",
              "line (ns)", "answers equal", "answers"]


def fmt_rounds(rec):
    """Rounds compared, and those left out because the host changed."""
    if rec["lace"] is None:
        return "-"
    changed = rec.get("rounds_host_changed", 0)
    timed_out = rec.get("lace_timed_out", 0)
    notes = ([f"{changed} left out"] if changed else []) + (
        [f"{timed_out} Lace timed out"] if timed_out else [])
    return f"{rec['rounds_compared']}" + (f" ({', '.join(notes)})" if notes else "")


def fmt_lace_seconds(rec):
    """Lace's median time, or "> T" when every Lace run passed the timeout T."""
    if rec["lace_time"] is None and rec.get("lace_over"):
        return f"> {rec['lace_over']:g}"
    return fmt_seconds(rec["lace_time"])


def table(records, markdown=False):
    rows = []
    for rec in records:
        line = rec.get("line_ns_median")
        rows.append([rec["program"], rec["what"], rec["packages"], rec["condition"],
                     str(rec["workers"]), fmt_lace_seconds(rec),
                     fmt_seconds(rec["weft_time"]), fmt_ratio(rec["ratio"]),
                     fmt_range(rec["ratios"]), fmt_interval(rec["ratio_interval"]),
                     fmt_ratio(rec["wall_ratio"]), fmt_rounds(rec),
                     "-" if line is None else f"{line:.0f}", rec["equal"],
                     fmt_answers(rec["weft_answers"])])
    return render(TABLE_HEAD, rows, left=4, markdown=markdown)


def idle_table(records, markdown=False):
    """The RUN loop's CPU time in the 10 ms after its last RUN, and from
    then on (100 ms, in % of one CPU), or None."""
    rows = [[rec["what"], rec["condition"], str(rec["workers"]),
             fmt_ms(rec["idle_cpu_ms"]["lace"]), fmt_ms(rec["idle_cpu_ms"]["weft"]),
             fmt_percent(rec["idle_late_percent"]["lace"]),
             fmt_percent(rec["idle_late_percent"]["weft"])]
            for rec in records if rec["program"] == "runloop"]
    if not rows:
        return None
    return render(["RUN loop", "condition", "workers", "Lace: first 10 ms", "weft: first 10 ms",
                   "Lace: from 10 ms on", "weft: from 10 ms on"], rows, left=2,
                  markdown=markdown)


def fmt_ms(x):
    return "-" if x is None else f"{x:.2f} ms / 10 ms"


def fmt_percent(x):
    return "-" if x is None else f"{x:.2f} % CPU"


def gc_note(records):
    """Why 'GCs vary' is not a failure, with an example from this run where
    real Lace's own runs differed; None when no row says it."""
    if not any(rec["equal"].startswith("yes, GCs vary") for rec in records):
        return None
    note = ("yes, GCs vary: the states and solutions agree in every run, the number of "
            "garbage collections does not; at more than one worker it depends on how the "
            "workers' operations interleave, not only on the package")
    for rec in records:
        counts = sorted({dict(a).get("collections") for a in answers_of(rec["lace"])})
        if rec["lace"] is not None and len(counts) > 1:
            return (note + f": real Lace's own runs of {rec['program']} {rec['what']} "
                    f"({rec['condition']}, -w {rec['workers']}) started "
                    f"{', '.join(str(c) for c in counts)} collections.  At one worker they must "
                    "agree too.")
    return note + ".  At one worker they must agree too."


def problems(records):
    """Lines for what went wrong: answers that differ, weft runs that failed."""
    lines = []
    for rec in records:
        where = f"{rec['program']} {rec['what']} ({rec['condition']}, -w {rec['workers']})"
        if rec["equal"] == "NO":
            lines.append(f"answers differ: {where}: weft {fmt_answers(rec['weft_answers'])}; "
                         f"Lace {fmt_answers(rec['lace_answers'] or [])}")
        for r in rec["weft"]:
            if r["status"] != "ok":
                lines.append(f"weft run {r['status']}: {where}: `{r['command']}`: "
                             f"{r['message'].splitlines()[0]}")
    return lines


CSV_HEADER = ["program", "case", "packages", "condition", "workers", "round", "system", "status",
              "seconds", "wall_seconds", "answers", "line_ns_before", "line_ns_after"]


def csv_rows(records):
    rows = []
    for rec in records:
        for who in ("weft", "lace"):
            probes = rec.get("line_ns") or []
            for i, r in enumerate(rec[who] or []):
                before, after = probes[i] if i < len(probes) else (None, None)
                rows.append([rec["program"], rec["what"], rec["packages"], rec["condition"],
                             rec["workers"], i + 1, who, r["status"],
                             "" if r["time"] is None else r["time"], f"{r['wall']:.6f}",
                             fmt_answers([tuple(sorted(r["answers"].items()))])
                             if r["answers"] else "",
                             "" if before is None else before, "" if after is None else after])
    return rows


def main(argv):
    ap = make_parser()
    args = ap.parse_args(argv)
    args.build_root = os.path.abspath(args.build_root)
    try:
        conditions = parse_conditions(args.conditions)
        workers = dict(CONDITIONS)
        if "oversubscribed" in conditions:
            workers["oversubscribed"] = parse_oversubscribed_workers(
                args.oversubscribed_workers, usable_cpus())
        parse_oink_solvers(args.oink_solvers)
        parse_lace_programs(args.lace_programs, "--lace-programs")
        parse_lace_programs(args.lace2_programs, "--lace2-programs")
        parse_lace_tests(args.lace_tests, "--lace-tests")
        parse_lace_tests(args.lace2_tests, "--lace2-tests")
        parse_knor_examples(args.knor_examples)
        parse_bddbench_programs(args.bddbench_programs)
    except ValueError as e:
        ap.error(str(e))
    started = time.monotonic()
    missing = missing_sources(args)
    if not any(getattr(args, f"{key}_src") for key in SOURCE_KEYS):
        print("clients: skipped: no source given.  This command builds real Lace clients "
              "against weft's Lace packages and against real Lace; it needs the sources "
              "(fetch them yourself, outside the repository):")
        for key in SOURCE_KEYS:
            print(f"  {lacesrc.source_hint(key)}")
        print("e.g. git clone https://github.com/trolando/lace L && git -C L checkout v1.4.2;\n"
              "     git clone https://github.com/trolando/sylvan S && git -C S checkout b5dfc77")
        return 0
    try:
        if not args.no_deps:
            builder.install_deps(ROOT, args.build_root, False, client_packages(args))
        plots = not args.no_plots and builder.ensure_matplotlib(not args.no_deps, args.build_root)
        cases, builds, sources, notes = prepare(args)
    except (lacesrc.SourceError, builder.BuildError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    for part, hint in missing:
        notes.append(f"not run: {part}: give {hint}")
    if not cases:
        print("clients: skipped: nothing to run with the sources given\n  "
              + "\n  ".join(notes))
        return 0
    if not any(case.runs_in(c, w) for case in cases for c in conditions for w in workers[c]):
        print(f"clients: skipped: nothing given runs in {', '.join(conditions)} (Knor, which "
              "starts one worker, runs quiet and loaded only)")
        return 0
    probe, why = line_transfer_probe(args.build_root)
    if why:
        notes.append(f"not measured: how far apart the host keeps two CPUs: {why}; "
                     "every round is compared")
    log(f"[run] {len(cases)} case(s), conditions {', '.join(conditions)}, {args.rounds} "
        f"round(s), on {usable_cpus()} CPUs")
    records = summarise(measure(cases, conditions, args.rounds, args.timeout, probe, workers,
                                args.busy_loops))

    m = output.machine_info(ROOT)
    commit = (m.get("commit") or "?") + (" (dirty)" if m.get("dirty") else "")
    print(f"Lace clients on weft's Lace packages and on real Lace: {args.rounds} round(s), "
          f"commit {commit}, {m.get('date')}, {m.get('cpu')} ({m.get('cpus')} CPUs).")
    print("Seconds: medians of the time each program prints (Sylvan: the phase it times); "
          "weft/Lace: median of the per-round ratios, range: their lowest and highest; wall: "
          "the same of the whole process's wall time.  quiet: nothing else of ours running; "
          f"loaded: beside {args.busy_loops} busy loop{'s' if args.busy_loops > 1 else ''}; "
          f"oversubscribed: more workers than the "
          f"{usable_cpus()} CPUs it may use.  rounds: the rounds compared; a "
          f"round is left out when the time a cache line takes between two CPUs (line, ns: "
          f"median of the probes before and after each round's pair) changed by more than "
          f"{HOST_CHANGE:g} times across it, which on a virtual machine means the host moved "
          f"the CPUs.\n")
    print(table(records, args.markdown))
    idle = idle_table(records, args.markdown)
    if idle:
        print("\nThe RUN loop: the process's CPU time in the 10 ms after its last RUN "
              "(median over the rounds)\n")
        print(idle)
    gcs = gc_note(records)
    if gcs:
        print(f"\n{gcs}")
    for note in notes:
        print(f"\nnote: {note}")
    bad = problems(records)

    run = {"command": "clients", "rounds": args.rounds, "conditions": conditions,
           "workers": {c: list(workers[c]) for c in conditions}, "busy_loops": args.busy_loops,
           "options": {"argv": list(argv), "timeout": args.timeout},
           "machine": m, "sources": sources, "builds": builds, "notes": notes,
           "records": records}
    stem = result_stem(args.out, "clients")
    output.write_json(stem + ".json", run)
    with open(stem + ".csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEADER)
        w.writerows(csv_rows(records))
    log(f"[out] {stem}.json\n[out] {stem}.csv")
    if plots:
        try:
            from .plots import plot_clients
            path = plot_clients(run, stem)
            if path:
                log(f"[out] {path}")
        except Exception as e:  # a plotting problem must not lose the measurements
            log(f"[plots] skipped: {type(e).__name__}: {e}")
    log(f"[done] {time.monotonic() - started:.0f} s")
    if bad:
        print("\nFAILED:\n  " + "\n  ".join(bad), file=sys.stderr)
        return 1
    return 0
