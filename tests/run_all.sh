#!/usr/bin/env bash
# Builds weft three ways and runs every test in each build:
#   release  -O3 with counters, misuse checks and hwloc; also the install /
#            find_package / pkg-config / FetchContent test
#   tsan     ThreadSanitizer
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer
# Usage: tests/run_all.sh [release|tsan|asan ...]   (default: all three)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/deps.sh"

configs=("$@")
[ ${#configs[@]} -gt 0 ] || configs=(release tsan asan)
jobs=$(nproc 2>/dev/null || echo 2)

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1 ${UBSAN_OPTIONS:-}"

start=$(date +%s)
for cfg in "${configs[@]}"; do
  case "$cfg" in
    # Release runs the stress tests larger and three times over.
    release) flags=(-DCMAKE_BUILD_TYPE=Release -DWEFT_STATS=ON -DWEFT_CHECKS=ON -DWEFT_USE_HWLOC=ON
                    -DWEFT_TEST_SCALE=30); repeat=3 ;;
    tsan)    flags=(-DCMAKE_BUILD_TYPE=Debug -DWEFT_SANITIZE=thread -DWEFT_TEST_SCALE=2); repeat=1 ;;
    asan)    flags=(-DCMAKE_BUILD_TYPE=Debug -DWEFT_SANITIZE=address,undefined -DWEFT_TEST_SCALE=2); repeat=1 ;;
    *) echo "unknown configuration '$cfg' (release, tsan, asan)" >&2; exit 2 ;;
  esac
  dir="$root/build-test-$cfg"
  echo "=== $cfg: configure and build in $dir"
  cmake -S "$root" -B "$dir" -G Ninja -DWEFT_WERROR=ON "${flags[@]}" >/dev/null
  cmake --build "$dir" --parallel "$jobs"
  echo "=== $cfg: tests"
  (cd "$dir" && ctest --output-on-failure --parallel "$jobs" --timeout 900 --repeat until-fail:$repeat)
done
echo "=== all tests passed (${configs[*]}) in $(( $(date +%s) - start )) s"
