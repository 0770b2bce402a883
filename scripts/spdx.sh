#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file of the tree names its license in an SPDX line: the
# first line, or the second after a shebang.
# Usage: scripts/spdx.sh          list the source files without one; exit 1 if any
#        scripts/spdx.sh --fix    add the line to each of them
# Source files: C, C++ and their headers, CMake (and the .in templates),
# Python, shell, Promela, Rust, Java, TOML; the files git tracks (every
# file under the tree when it is not a git checkout, build trees aside).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
license=Apache-2.0
fix=0
case "${1:-}" in
  --fix) fix=1 ;;
  "") ;;
  *) echo "usage: scripts/spdx.sh [--fix]" >&2; exit 2 ;;
esac

is_source() {
  case "$1" in
    *.c|*.h|*.cpp|*.hpp|*.cmake|*/CMakeLists.txt|CMakeLists.txt|*.in|*.py|*.sh|*.pml|*.rs|*.java|*.toml|.ci/run)
      return 0 ;;
  esac
  return 1
}
# The comment that carries the line, by the file's language.
comment_for() {
  case "$1" in
    *.c|*.h|*.cpp|*.hpp|*.rs|*.java|*.h.in) echo "// SPDX-License-Identifier: $license" ;;
    *.pml) echo "/* SPDX-License-Identifier: $license */" ;;
    *) echo "# SPDX-License-Identifier: $license" ;;
  esac
}

if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files)
else
  mapfile -t files < <(find . -type f -not -path './build*' -not -path './.git/*' \
    -not -path './results/*' | sed 's|^\./||' | sort)
fi

sources=()
for f in "${files[@]}"; do
  is_source "$f" || continue
  [ -f "$f" ] || continue # deleted in the work tree, not yet in the index
  sources+=("$f")
done
# One awk over all of them: a file's first two lines, or none for an empty file.
missing=()
if [ ${#sources[@]} -gt 0 ]; then
  mapfile -t missing < <(awk -v want="SPDX-License-Identifier: $license" '
    FNR == 1 { if (name != "" && !ok) print name; name = FILENAME; ok = 0 }
    FNR <= 2 && index($0, want) { ok = 1 }
    FNR == 2 { nextfile }
    END { if (name != "" && !ok) print name }
  ' "${sources[@]}")
fi

if [ "$fix" = 0 ]; then
  if [ ${#missing[@]} -gt 0 ]; then
    echo "spdx: ${#missing[@]} source file(s) without 'SPDX-License-Identifier: $license' in their" \
         "first line (second after a shebang); scripts/spdx.sh --fix adds it:" >&2
    printf '    %s\n' "${missing[@]}" >&2
    exit 1
  fi
  echo "spdx: every source file names its license (${#sources[@]} source files)"
  exit 0
fi

for f in "${missing[@]}"; do
  line=$(comment_for "$f")
  tmp=$(mktemp)
  if head -n 1 "$f" | grep -q '^#!'; then
    { head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } >"$tmp"
  else
    { echo "$line"; cat "$f"; } >"$tmp"
  fi
  chmod --reference="$f" "$tmp"
  mv "$tmp" "$f"
  echo "spdx: $f"
done
