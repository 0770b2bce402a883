#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the API reference with Doxygen from a Doxyfile that CMake
# configured from docs/api/Doxyfile.in; fails on any Doxygen warning (an
# undocumented public function, macro or C++ entity, a broken command).
# Without doxygen: skipped (status 77), or failed under CI or
# WEFT_REQUIRE_DEV_TOOLS (scripts/dev_tool.sh).
# Usage: scripts/api_reference.sh <build-dir>/Doxyfile
set -euo pipefail
doxyfile=${1:?usage: scripts/api_reference.sh <build-dir>/Doxyfile}
# shellcheck source=dev_tool.sh
. "$(cd "$(dirname "$0")" && pwd)/dev_tool.sh"
require_dev_tool api_reference doxygen doxygen
[ -f "$doxyfile" ] || { echo "api_reference: no $doxyfile (configure the build first)" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! doxygen "$doxyfile" 2>"$log" || [ -s "$log" ]; then
  echo "api_reference: Doxygen reported $(wc -l <"$log") problem(s):" >&2
  cat "$log" >&2
  exit 1
fi
out=$(sed -n 's/^OUTPUT_DIRECTORY *= *//p' "$doxyfile")
echo "api_reference: $out/html/index.html ($(find "$out/html" -name '*.html' | wc -l) pages, no warnings)"
