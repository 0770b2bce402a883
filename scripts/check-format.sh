#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that the C and C++ sources are formatted as .clang-format says.
# Usage: scripts/check-format.sh           list the files clang-format would
#                                          change and how many lines; exit 1
#                                          if any
#        scripts/check-format.sh --diff    the same, with the changes as a diff
#        scripts/check-format.sh --fix     format them in place
# The files: the .c, .h, .cpp and .hpp files git tracks (every such file
# under the tree, build trees aside, when it is not a git checkout).  The
# style was chosen to match the code as written; clang-format 14 (Debian
# 12's) is the version it was measured with: other versions may differ in
# details.  Without clang-format: skipped (status 77), or failed under CI
# or WEFT_REQUIRE_DEV_TOOLS (scripts/dev_tool.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=check
case "${1:-}" in
  --diff) mode=diff ;;
  --fix) mode=fix ;;
  "") ;;
  *) echo "usage: scripts/check-format.sh [--diff | --fix]" >&2; exit 2 ;;
esac
# shellcheck source=dev_tool.sh
. "$root/scripts/dev_tool.sh"
require_dev_tool check-format clang-format clang-format
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$version" != 14 ]; then
  echo "check-format: note: clang-format $version; the style was measured with 14" >&2
fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')
else
  mapfile -t files < <(find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) \
    -not -path './build*' -not -path './.git/*' | sed 's|^\./||' | sort)
fi

if [ "$mode" = fix ]; then
  for f in "${files[@]}"; do [ -f "$f" ] && clang-format -i --style=file "$f"; done
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi

changed=0 lines_old=0 lines_new=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  d=$(clang-format --style=file "$f" | diff "$f" - || true)
  [ -n "$d" ] || continue
  changed=$((changed + 1))
  old=$(grep -c '^<' <<<"$d" || true)
  new=$(grep -c '^>' <<<"$d" || true)
  lines_old=$((lines_old + old))
  lines_new=$((lines_new + new))
  echo "    $f: $old line(s) would change"
  if [ "$mode" = diff ]; then
    clang-format --style=file "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - || true
  fi
done
if [ "$changed" -gt 0 ]; then
  echo "check-format: $changed of ${#files[@]} files are not formatted:" \
       "$lines_old line(s) would be replaced by $lines_new (scripts/check-format.sh --fix formats them)" >&2
  exit 1
fi
echo "check-format: all ${#files[@]} files formatted"
