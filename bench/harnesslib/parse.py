# SPDX-License-Identifier: Apache-2.0
"""Reading what a benchmark binary prints.

Every binary prints `Time: <seconds>` for its timed part.  weft binaries
built with -DWEFT_STATS=ON also print a counter table: a header line that
starts with `worker` and names the columns, one line per worker, and a
`total` line.  Columns are found by the header's names, never by position,
so schedulers that count other events (requests, deals, ...) need no change
here.
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
