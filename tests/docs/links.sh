#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/check_links.py: the repository's Markdown links resolve, and the
# check fails, naming file, line and link, on each kind of broken link
# planted in a scratch tree (a missing file, a missing heading, a heading
# of the same file, a repeated heading's second anchor).
# Usage: links.sh <source dir>
set -euo pipefail
src=$(cd "$1" && pwd)
check="$src/scripts/check_links.py"
python3 "$check" --root "$src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/docs"
cat >"$work/docs/b.md" <<'MD'
# B
## Pinning and idling
## Twice
## Twice
## `weft_start`'s sizes
MD
fail=0
expect() { # <link> <ok|broken>
  printf 'see [x](%s)\n' "$1" >"$work/docs/a.md"
  if python3 "$check" --root "$work" >"$work/out" 2>&1; then got=ok; else got=broken; fi
  if [ "$got" != "$2" ]; then
    echo "FAILED: $1 was $got, expected $2:" >&2; cat "$work/out" >&2; fail=1
  elif [ "$2" = broken ] && ! grep -qF "docs/a.md:1: $1:" "$work/out"; then
    echo "FAILED: $1: no line naming docs/a.md:1 and the link" >&2; cat "$work/out" >&2; fail=1
  else
    echo "ok: $1 $2"
  fi
}
expect 'b.md' ok
expect 'b.md#pinning-and-idling' ok
expect 'b.md#twice-1' ok
expect 'b.md#weft_starts-sizes' ok
expect 'https://example.org/x#y' ok
expect 'c.md' broken
expect 'b.md#pinning' broken
expect 'b.md#twice-2' broken
expect '#nothing-here' broken
exit $fail
