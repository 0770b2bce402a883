#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The maintainers' checks (api_reference: doxygen; release_format:
# clang-format) run with a PATH that lacks their tools: each is skipped
# with the reason (exit status 77, which the build's tests declare as
# ctest's SKIP_RETURN_CODE), and fails (status 1) when CI or
# WEFT_REQUIRE_DEV_TOOLS is set.
# Usage: dev_tools_missing.sh <build-dir> <ctest>
set -euo pipefail
build=${1:?usage: dev_tools_missing.sh <build-dir> <ctest>}
ctest=${2:?usage: dev_tools_missing.sh <build-dir> <ctest>}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAILED: $*"; failed=1; }

# PATH with every directory as it is, except that one holding doxygen or
# clang-format is replaced by links to everything else in it.
hidden=(doxygen clang-format)
shadow_path=
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  use=$d
  for tool in "${hidden[@]}"; do
    if [ -e "$d/$tool" ]; then
      use="$work/path$(( ${#shadow_path} ))"
      mkdir -p "$use"
      for f in "$d"/*; do
        case "${f##*/}" in doxygen | clang-format) continue ;; esac
        ln -s "$f" "$use/${f##*/}"
      done
      break
    fi
  done
  shadow_path=${shadow_path:+$shadow_path:}$use
done
for tool in "${hidden[@]}"; do
  if PATH=$shadow_path command -v "$tool" >/dev/null; then
    echo "FAILED: $tool is still on the shadow PATH"; exit 1
  fi
done

# run <expected status> <expected stderr part> <env assignments...> -- <script> [args]
run() {
  local want=$1 part=$2; shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local status=0
  env -u CI -u WEFT_REQUIRE_DEV_TOOLS PATH="$shadow_path" "${envs[@]}" bash "$@" \
    >"$work/out" 2>"$work/err" || status=$?
  if [ "$status" != "$want" ] || ! grep -qF "$part" "$work/err"; then
    fail "${envs[*]:-(no CI)} $*: status $status (expected $want), stderr:"
    sed 's/^/    /' "$work/err"
  else
    echo "ok: ${envs[*]:-(no CI, no WEFT_REQUIRE_DEV_TOOLS)} ${1##*/}: status $status, $(head -1 "$work/err")"
  fi
}
for check in "api_reference doxygen $root/scripts/api_reference.sh $build/Doxyfile" \
             "check-format clang-format $root/scripts/check-format.sh"; do
  read -r name tool script args <<<"$check"
  # shellcheck disable=SC2086
  run 77 "$name: $tool is not installed (scripts/deps.sh installs it; Debian: $tool): skipped" -- \
    "$script" $args
  # shellcheck disable=SC2086
  run 1 "$name: $tool is not installed" CI=true -- "$script" $args
  # shellcheck disable=SC2086
  run 1 "$name: $tool is not installed" WEFT_REQUIRE_DEV_TOOLS=1 -- "$script" $args
done

# ctest takes 77 as a skip, unless the build requires the tools (then the
# tests carry WEFT_REQUIRE_DEV_TOOLS=1 and no skip code).
"$ctest" --test-dir "$build" -R '^(api_reference|release_format)$' --show-only=json-v1 \
  >"$work/tests.json"
required=$(sed -n 's/^WEFT_REQUIRE_DEV_TOOLS:BOOL=//p' "$build/CMakeCache.txt")
python3 - "$work/tests.json" "${required:-OFF}" <<'PY' || failed=1
import json, sys
tests = {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])}
         for t in json.load(open(sys.argv[1]))["tests"]}
required = sys.argv[2].upper() in ("ON", "1", "TRUE", "YES")
ok = True
for name in ("api_reference", "release_format"):
    props = tests.get(name)
    if props is None:
        print(f"FAILED: no test {name}"); ok = False; continue
    if required:
        good = "SKIP_RETURN_CODE" not in props and \
            "WEFT_REQUIRE_DEV_TOOLS=1" in props.get("ENVIRONMENT", [])
        what = "WEFT_REQUIRE_DEV_TOOLS=1 in its environment, no SKIP_RETURN_CODE"
    else:
        good = props.get("SKIP_RETURN_CODE") == 77
        what = "SKIP_RETURN_CODE 77"
    print(f"{'ok' if good else 'FAILED'}: ctest's {name}: {what} (properties: {props})")
    ok &= good
sys.exit(0 if ok else 1)
PY
exit $failed
