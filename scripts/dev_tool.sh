# SPDX-License-Identifier: Apache-2.0
# Sourced by the maintainers' checks (scripts/api_reference.sh,
# scripts/check-format.sh): what to do when the tool a check needs is not
# installed.  A plain build needs neither tool, so there the check is
# skipped with the reason, exit status 77 (ctest's SKIP_RETURN_CODE); in
# CI (the environment variable CI set, as CI services set it) or with
# WEFT_REQUIRE_DEV_TOOLS set (CMake's -DWEFT_REQUIRE_DEV_TOOLS=ON sets it
# for the tests) the check fails, status 1.
# Usage: require_dev_tool <check's name> <command> <Debian package>
require_dev_tool() {
  command -v "$2" >/dev/null 2>&1 && return 0
  local why="$1: $2 is not installed (scripts/deps.sh installs it; Debian: $3)"
  if [ -n "${CI:-}" ] || [ -n "${WEFT_REQUIRE_DEV_TOOLS:-}" ]; then
    echo "$why, and CI or WEFT_REQUIRE_DEV_TOOLS is set: the check is required" >&2
    exit 1
  fi
  echo "$why: skipped (it is required when CI or WEFT_REQUIRE_DEV_TOOLS is set)" >&2
  exit 77
}
