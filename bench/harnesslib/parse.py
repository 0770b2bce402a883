# SPDX-License-Identifier: Apache-2.0
"""Reading what a benchmark binary prints.

Every binary prints `Time: <seconds>` for its timed part.  weft binaries
built with -DWEFT_STATS=ON also print a counter table: a header line that
starts with `worker` and names the columns, one line per worker, and a
`total` line.  Columns are found by the header's names, never by position,
so schedulers that count other events (requests, deals, ...) need no change
here.

The clients command reads programs that are not ours: Sylvan's tools
(parse_sylvan), the RUN loop of bench/peers/lace (parse_runloop) and Lace's
own benchmark programs (parse_lace_program).
"""
import math
import re


class ParseError(ValueError):
    """A binary's output lacks what the harness needs, or is malformed."""


_TIME_RE = re.compile(r"^Time:\s*(\S+)\s*$", re.M)


def parse_time(output):
    """Seconds from the last `Time:` line (a binary may print progress first)."""
    found = _TIME_RE.findall(output)
    if not found:
        raise ParseError("no 'Time: <seconds>' line in the output")
    text = found[-1]
    try:
        seconds = float(text)
    except ValueError:
        raise ParseError(f"'Time: {text}' is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise ParseError(f"'Time: {text}' is not a valid duration")
    return seconds


def parse_counters(output):
    """The `total` row of the counter table as {column name: int}, or None if
    the output has no counter table.  A header without a matching total row,
    or a total row whose cells do not fit the header, is an error."""
    lines = output.splitlines()
    header_at = None
    for i, line in enumerate(lines):
        cells = line.split()
        if cells and cells[0] == "worker" and len(cells) > 1:
            header_at = i
    if header_at is None:
        return None
    names = lines[header_at].split()[1:]
    if len(set(names)) != len(names):
        raise ParseError(f"counter header names a column twice: {lines[header_at].strip()!r}")
    for line in lines[header_at + 1:]:
        cells = line.split()
        if not cells or cells[0] != "total":
            continue
        values = cells[1:]
        if len(values) != len(names):
            raise ParseError(f"counter 'total' row has {len(values)} values for "
                             f"{len(names)} columns ({' '.join(names)})")
        try:
            return {name: int(v) for name, v in zip(names, values)}
        except ValueError:
            raise ParseError(f"counter 'total' row is not all integers: {line.strip()!r}") from None
    raise ParseError("counter table has a 'worker' header but no 'total' row")


# Sylvan's tools (examples/lddmc.c, bddmc.c, nqueens.c) prefix their lines
# with the seconds since start, `[    1.55] `; the phase they time is
# `[    1.55] SAT Time: 1.548068` (lddmc, bddmc: BFS, PAR, SAT, CHAINING) or
# `Computation time: 0.266 sec.` (nqueens).
_SYLVAN_PHASE_RE = re.compile(r"^\[\s*[0-9.]+\]\s+([A-Z]+) Time:\s*([0-9.]+)\s*$", re.M)
_SYLVAN_NQUEENS_TIME_RE = re.compile(r"Computation time:\s*([0-9.]+) sec", re.M)
_SYLVAN_STATES_RE = re.compile(r"Final states:\s*([0-9]+) states\b")
_SYLVAN_SOLUTIONS_RE = re.compile(r"Result: NQueens\(([0-9]+)\) has ([0-9]+) solutions")
_SYLVAN_GC = "(GC) Starting garbage collection"


def parse_sylvan(output):
    """What one run of a Sylvan tool says: {'phase': the name of the timed
    phase ('SAT', ..., 'nqueens'), 'time': its seconds, 'answers': {'states'
    or 'solutions': int, 'collections': int}}.  The answers are what must
    be the same on any Lace: the states (or solutions) found and the number
    of garbage collections started."""
    found = _SYLVAN_PHASE_RE.findall(output)
    if found:
        phase, seconds = found[-1]
    else:
        m = _SYLVAN_NQUEENS_TIME_RE.findall(output)
        if not m:
            raise ParseError("no '<PHASE> Time: <seconds>' or 'Computation time: <seconds> "
                             "sec' line in the output")
        phase, seconds = "nqueens", m[-1]
    answers = {}
    states = _SYLVAN_STATES_RE.findall(output)
    if states:
        answers["states"] = int(states[-1])
    solutions = _SYLVAN_SOLUTIONS_RE.findall(output)
    if solutions:
        answers["solutions"] = int(solutions[-1][1])
    if not answers:
        raise ParseError("no 'Final states: <n> states' or 'NQueens(<n>) has <m> solutions' "
                         "line in the output")
    answers["collections"] = output.count(_SYLVAN_GC)
    return {"phase": phase, "time": float(seconds), "answers": answers}


_RUNLOOP_RE = re.compile(r"^runs: ([0-9]+) of fib\(([0-9]+)\) = ([0-9]+), wrong answers: "
                         r"([0-9]+)$", re.M)
_IDLE_RE = re.compile(r"^idle CPU after last RUN: ([0-9.]+) ms in ([0-9.]+) ms$", re.M)
_IDLE_LATE_RE = re.compile(r"^idle CPU from 10 ms after last RUN: ([0-9.]+) ms in ([0-9.]+) ms$",
                           re.M)


def parse_runloop(output):
    """bench/peers/lace/runloop.c's output: {'time': s, 'answers': {'runs',
    'n', 'fib', 'wrong'}, 'idle_cpu_ms': ms, 'idle_wall_ms': ms,
    'idle_late_percent': CPU time from 10 ms on, in % of the wall time}."""
    m = _RUNLOOP_RE.search(output)
    idle = _IDLE_RE.search(output)
    late = _IDLE_LATE_RE.search(output)
    if not m or not idle or not late:
        raise ParseError("no 'runs: ... wrong answers: ...', 'idle CPU after last RUN: "
                         "... ms in ... ms' and 'idle CPU from 10 ms after last RUN: ... ms in "
                         "... ms' lines in the output")
    runs, n, value, wrong = (int(x) for x in m.groups())
    return {"time": parse_time(output),
            "answers": {"runs": runs, "n": n, "fib": value, "wrong": wrong},
            "idle_cpu_ms": float(idle.group(1)), "idle_wall_ms": float(idle.group(2)),
            "idle_late_percent": 100.0 * float(late.group(1)) / float(late.group(2))}


_LACE_ANSWER_RE = re.compile(r"^(?:Result: )?(\w+\([0-9, ]+\)) = ([0-9.e+-]+)\s*$", re.M)


_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
_OINK_SUMMARY_RE = re.compile(r"^summary: (\d+) games\s*$", re.M)
_OINK_SOLVERS_RE = re.compile(r"^solvers:(.*)$", re.M)
_OINK_TIMES_RE = re.compile(r"^times:(.*)$", re.M)
_OINK_TIME_RE = re.compile(r"(\w[\w-]*) \((\d+) ms\)")


def parse_oink(output):
    """Oink's test_solvers on random games (`summary: 8 games`, `solvers: psi`
    or `solvers: psi (2 bad)`, `times: psi (695 ms)`, colours stripped):
    {'time': the solvers' summed solving time in s, 'answers': {'games': 8,
    'psi bad': 0}}.  test_solvers verifies every solution itself."""
    text = _ANSI_RE.sub("", output)
    games, solvers, times = (r.findall(text) for r in
                             (_OINK_SUMMARY_RE, _OINK_SOLVERS_RE, _OINK_TIMES_RE))
    if not games or not solvers or not times:
        raise ParseError("no 'summary: <n> games', 'solvers:' and 'times:' lines in the output")
    spent = _OINK_TIME_RE.findall(times[-1])
    if not spent:
        raise ParseError(f"no '<solver> (<ms> ms)' in 'times:{times[-1]}'")
    answers = {"games": games[-1]}
    for name, _ in spent:
        bad = re.search(rf"\b{re.escape(name)} \((\d+) bad\)", solvers[-1])
        answers[f"{name} bad"] = bad.group(1) if bad else "0"
    return {"time": sum(int(ms) for _, ms in spent) / 1000.0, "answers": answers}


_KNOR_TIME_RE = re.compile(r"^total time was ([0-9.]+) sec\.", re.M)
_KNOR_VERDICT_RE = re.compile(r"^(?:game is (realizable|unrealizable)!|(REALIZABLE|UNREALIZABLE)$)",
                              re.M)
_KNOR_ANSWER_RES = (("iterations", re.compile(r"^symbolic solver required ([0-9]+) iterations",
                                              re.M)),
                    ("blocks", re.compile(r"^after bisimulation minimisation: ([0-9]+) blocks",
                                          re.M)),
                    ("AIG gates", re.compile(r"^final size of AIG: ([0-9]+) gates", re.M)))


def parse_knor(output):
    """Knor's verbose output (`-v`, colours stripped): {'time': its `total
    time was <s> sec.`, 'answers': {'realizable': 'realizable' or
    'unrealizable' (`game is realizable!`, or `REALIZABLE` with --real), and
    where printed 'iterations' (the symbolic solver's), 'blocks' (each
    bisimulation's, in order) and 'AIG gates'}}."""
    text = _ANSI_RE.sub("", output)
    spent = _KNOR_TIME_RE.findall(text)
    if not spent:
        raise ParseError("no 'total time was <s> sec.' in the output (run with -v)")
    verdicts = {(a or b).lower() for a, b in _KNOR_VERDICT_RE.findall(text)}
    if len(verdicts) != 1:
        raise ParseError("not one verdict ('game is realizable!', 'game is unrealizable!', "
                         f"'REALIZABLE' or 'UNREALIZABLE') in the output: {sorted(verdicts)}")
    answers = {"realizable": verdicts.pop()}
    for key, regex in _KNOR_ANSWER_RES:
        found = regex.findall(text)
        if found:
            answers[key] = ",".join(found)
    return {"time": float(spent[-1]), "answers": answers}


# BDD Benchmark's report (JSON on stdout): its total time, and the numbers
# that do not depend on the run (a BDD's size is canonical for its
# variable order): every satcount's `result` and every size in nodes.
_BDDBENCH_TIME_RE = re.compile(r'"total time \(ms\)"\s*:\s*([0-9]+)')
_BDDBENCH_ANSWER_RE = re.compile(r'"((?:[^"]*\(nodes\))|result)"\s*:\s*([0-9]+)')


def parse_bddbench(output):
    """A BDD Benchmark program's report: {'time': its `"total time (ms)"` in
    seconds, 'answers': {'<key>': 'value,...'}} for its `"result"` and
    `"... (nodes)"` entries, in the order printed."""
    spent = _BDDBENCH_TIME_RE.findall(output)
    if len(spent) != 1:
        raise ParseError(f'{len(spent)} \'"total time (ms)"\' entries in the output, not one')
    answers = {}
    for key, value in _BDDBENCH_ANSWER_RE.findall(output):
        answers[key] = f"{answers[key]},{value}" if key in answers else value
    if "result" not in answers:
        raise ParseError('no \'"result"\' in the output')
    return {"time": int(spent[0]) / 1000.0, "answers": answers}


# What Lace's programs print of their answer besides `name(n) = value`:
# knapsack's best value and uts's tree (its size, depth and leaves).
_LACE_OTHER_ANSWERS = (("best value", re.compile(r"^Best value is (-?[0-9]+)\s*$", re.M)),
                       ("tree", re.compile(r"^Tree size = ([0-9]+), tree depth = ([0-9]+), "
                                           r"num leaves = ([0-9]+)", re.M)))


def parse_lace_program(output, answer_required=True):
    """A Lace benchmark program's output (`fib(30) = 832040`, `Result:
    nqueens(11) = 2680`, `Best value is 733`, uts's `Tree size = ...`,
    `Time: s`): {'time': s, 'answers': {'fib(30)': '832040'}}.  Some print
    no answer (matmul, lu, heat, ...): with answer_required False their
    answers are {}."""
    answers = dict(_LACE_ANSWER_RE.findall(output))
    for name, regex in _LACE_OTHER_ANSWERS:
        found = regex.findall(output)
        if found:
            answers[name] = " ".join(found[-1]) if isinstance(found[-1], tuple) else found[-1]
    if not answers and answer_required:
        raise ParseError("no '<name>(<n>) = <value>' line in the output")
    return {"time": parse_time(output), "answers": answers}


def parse_lace_program_any(output):
    """parse_lace_program for a program that may print no answer."""
    return parse_lace_program(output, answer_required=False)
