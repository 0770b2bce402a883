# SPDX-License-Identifier: Apache-2.0
"""The workloads and the suites that select them.

Each workload folder bench/<dir>/ may hold a bench.json describing one or
more entries:

    {"<entry>": {"binary": "<name>", "description": "<one line>",
                 "sizes": {"small": "<args>", "medium": "<args>", "paper": "<args>"},
                 "quick": "small" | "medium" | {"args": "<args>"} | null,
                 "peers": true | false}}

`binary` names <binary>-seq and <binary>-weft in the build's bench/ folder
(and the peers' ports).  Every size must be present; `small` must be an
argument string, `medium` and `paper` may be null when the entry has no
input of that size (the suite then leaves the entry out and says so).
`quick` picks the entry's input for the default quick run: one of its
sizes, or {"args": ...} for an input of its own, chosen so that T_S is
long enough to time (~0.1 s) while the slowest peer still takes seconds.
The tables name every input of a quick run "quick", whichever it is.
"""
import json
import os
import re
import shlex
from dataclasses import dataclass

SIZES = ("small", "medium", "paper")
SUITES = ("quick", "medium", "paper", "targets")
# Repetitions per suite when --reps is not given: the quick suite must stay
# within a few minutes on two cores, peers included.
SUITE_REPS = {"quick": 3, "medium": 5, "paper": 3, "targets": 5}
# The figures weft promises (docs/performance.md): these inputs, weft only
# by default, plus the host ceiling and the micro-benchmarks.  A value is
# either an argument string or the name of one of the entry's sizes.
TARGET_INPUTS = {"fib": "40", "queens": "13", "matmul": "1024", "uts-T3L": "paper"}

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
_KNOWN_KEYS = {"binary", "description", "sizes", "quick", "peers"}


class CatalogError(ValueError):
    """A bench.json file is unreadable or does not follow the format."""


@dataclass(frozen=True)
class Entry:
    name: str
    binary: str
    description: str
    sizes: dict  # size name -> argument string or None
    quick: str   # size name, "quick" (its own input, in sizes["quick"]) or None
    peers: bool
    source: str  # the bench.json it came from

    def args(self, size):
        """The argument list for a size (None if the entry has no such input)."""
        text = self.sizes.get(size)
        return None if text is None else shlex.split(text)


@dataclass(frozen=True)
class Job:
    """One workload at one input: what the measurement loop runs."""
    entry: Entry
    size: str        # size name, or "targets" for a target input
    args: tuple      # argument list
    # The input's name in the tables: the suite's for every entry the suite
    # picked the input of (every row of a quick run says "quick", whether
    # the entry's quick input is one of its sizes or its own), else the size.
    input: str = ""

    @property
    def key(self):
        return f"{self.entry.name}/{self.size}"

    @property
    def args_text(self):
        return shlex.join(self.args)


def _reject_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise CatalogError(f"key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def _check_args(where, size, text):
    if not isinstance(text, str) or not text.strip():
        raise CatalogError(f"{where}: size '{size}' must be a non-empty argument string"
                           f"{' or null' if size not in ('small', 'quick') else ''}, got {text!r}")
    try:
        shlex.split(text)
    except ValueError as e:
        raise CatalogError(f"{where}: size '{size}' arguments {text!r}: {e}") from None


def parse_entries(text, source, warn=None):
    """Entries from the text of one bench.json; raises CatalogError naming
    the file and the problem."""
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicate_keys)
    except json.JSONDecodeError as e:
        raise CatalogError(f"{source}: not valid JSON: {e.msg} at line {e.lineno}, "
                           f"column {e.colno}") from None
    except CatalogError as e:
        raise CatalogError(f"{source}: {e}") from None
    if not isinstance(data, dict) or not data:
        raise CatalogError(f"{source}: must be a non-empty JSON object of entries")
    entries = []
    for name, spec in data.items():
        where = f"{source}: entry '{name}'"
        if not _NAME_RE.match(name):
            raise CatalogError(f"{where}: the name may hold only letters, digits and _.+-")
        if not isinstance(spec, dict):
            raise CatalogError(f"{where}: must be an object")
        for key in ("binary", "description", "sizes", "quick", "peers"):
            if key not in spec:
                raise CatalogError(f"{where}: missing '{key}'")
        unknown = sorted(set(spec) - _KNOWN_KEYS)
        if unknown and warn:
            warn(f"{where}: ignoring unknown key(s) {', '.join(unknown)}")
        binary = spec["binary"]
        if not isinstance(binary, str) or not _NAME_RE.match(binary):
            raise CatalogError(f"{where}: 'binary' must be a plain file name stem, got {binary!r}")
        if not isinstance(spec["description"], str) or not spec["description"].strip():
            raise CatalogError(f"{where}: 'description' must be a non-empty string")
        sizes = spec["sizes"]
        if not isinstance(sizes, dict):
            raise CatalogError(f"{where}: 'sizes' must be an object with {', '.join(SIZES)}")
        for size in SIZES:
            if size not in sizes:
                raise CatalogError(f"{where}: missing size '{size}' (every entry needs "
                                   f"{', '.join(SIZES)}; medium and paper may be null)")
            if sizes[size] is not None or size == "small":
                _check_args(where, size, sizes[size])
        extra = sorted(set(sizes) - set(SIZES))
        if extra:
            raise CatalogError(f"{where}: unknown size(s) {', '.join(extra)} "
                               f"(sizes are {', '.join(SIZES)})")
        quick = spec["quick"]
        own_sizes = {s: sizes[s] for s in SIZES}
        if isinstance(quick, dict):
            if set(quick) != {"args"}:
                raise CatalogError(f"{where}: 'quick' as an object must be {{\"args\": "
                                   f"\"<arguments>\"}}, got keys {sorted(quick)}")
            _check_args(where, "quick", quick["args"])
            own_sizes["quick"] = quick["args"]
            quick = "quick"
        elif quick is not None and (quick not in SIZES or sizes[quick] is None):
            raise CatalogError(f"{where}: 'quick' must be null, a size the entry has or "
                               f"{{\"args\": ...}}, got {quick!r}")
        if not isinstance(spec["peers"], bool):
            raise CatalogError(f"{where}: 'peers' must be true or false")
        entries.append(Entry(name=name, binary=binary, description=spec["description"].strip(),
                             sizes=own_sizes, quick=quick,
                             peers=spec["peers"], source=source))
    return entries


def load_catalog(bench_dir, warn=None):
    """All entries of bench/*/bench.json, in folder order then file order.
    Raises CatalogError on a bad file or an entry name used twice."""
    entries = {}
    for folder in sorted(os.listdir(bench_dir)):
        path = os.path.join(bench_dir, folder, "bench.json")
        if folder == "peers" or not os.path.isfile(path):
            continue
        rel = os.path.relpath(path, os.path.dirname(bench_dir))
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise CatalogError(f"{rel}: cannot read: {e.strerror}") from None
        for entry in parse_entries(text, rel, warn):
            if entry.name in entries:
                raise CatalogError(f"{rel}: entry '{entry.name}' is also defined in "
                                   f"{entries[entry.name].source}")
            entries[entry.name] = entry
    if not entries:
        raise CatalogError(f"no bench.json with any entry under {bench_dir}")
    return entries


def select_jobs(catalog, names=None, suite=None, size=None):
    """The jobs to run and the notes on entries left out.

    names: explicit entry names (or None for the suite's choice).
    suite: quick (entries with a quick size, at that size), medium or paper
           (every entry at that size), targets (TARGET_INPUTS), or None.
    size:  forces this size for every selected entry (without a suite, every
           entry that has the size)."""
    if names:
        unknown = [n for n in names if n not in catalog]
        if unknown:
            raise CatalogError(f"unknown benchmark(s) {', '.join(unknown)}; "
                               f"known: {', '.join(catalog)} (see --list)")
        chosen = [catalog[n] for n in names]
    elif suite == "quick":
        chosen = [e for e in catalog.values() if e.quick]
    elif suite == "targets":
        chosen = [catalog[n] for n in TARGET_INPUTS if n in catalog]
    else:
        chosen = list(catalog.values())
    jobs, notes = [], []
    for entry in chosen:
        label = None
        if size is not None:
            want = size
        elif suite == "targets" and entry.name in TARGET_INPUTS:
            target = TARGET_INPUTS[entry.name]
            if target not in SIZES:
                jobs.append(Job(entry, "targets", tuple(shlex.split(target)), "targets"))
                continue
            want, label = target, "targets"
        elif suite in ("medium", "paper"):
            want = suite
        elif suite == "quick" and entry.quick:
            want, label = entry.quick, "quick"
        else:
            want = "small"
        args = entry.args(want)
        if args is None:
            if names:
                raise CatalogError(f"benchmark {entry.name} has no {want} input "
                                   f"(bench.json: {entry.source})")
            notes.append(f"{entry.name}: no {want} input in {entry.source}")
            continue
        jobs.append(Job(entry, want, tuple(args), label or want))
    if suite == "targets" and not names:
        notes += [f"{n}: target workload missing from the catalog"
                  for n in TARGET_INPUTS if n not in catalog]
    if not jobs:
        raise CatalogError("no benchmark to run with these options")
    return jobs, notes


def format_list(catalog):
    """The --list output: every entry, its binary, quick size, peers and sizes."""
    lines = []
    for e in catalog.values():
        quick = e.quick or "-"
        if e.quick == "quick":
            quick = f"its own input: {e.sizes['quick']}"
        lines.append(f"{e.name}  (binary {e.binary}, quick: {quick}, "
                     f"peers: {'yes' if e.peers else 'no'}; {e.source})")
        lines.append(f"    {e.description}")
        for size in SIZES:
            text = e.sizes[size]
            lines.append(f"    {size:<7} {text if text is not None else '(none)'}")
    return "\n".join(lines)
