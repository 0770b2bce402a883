#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The libraries export the documented API and nothing else that looks
# like it: every global symbol is either declared in a public header
# (include/weft/*.h, lace_* in the Lace layer) or carries the internal
# prefix weft__; libweft.so's weft__ names are only those its neighbour
# libraries need, and every function of the front-end seam is among them.  Builds a shared libweft (BUILD_SHARED_LIBS=ON, with its
# soname and hidden visibility), runs the examples against it, and checks
# its dynamic symbols; then checks the static libraries of the calling
# build, if given.
# Usage: check.sh <source dir> [<static library> ...]
set -euo pipefail
src=$1; shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The documented API: the functions declared in the public headers.
api="$work/api.txt"
for h in "$src"/include/weft/*.h; do
  sed -e 's#/\*.*\*/##g' "$h" | grep -E '^[A-Za-z_].*\bweft_[a-z0-9_]+ *\(' |
    grep -vE '^(static|#|typedef)' | grep -oE '\bweft_[a-z0-9_]+ *\(' | tr -d ' (' || true
done | sort -u > "$api"
[ -s "$api" ] || { echo "no API functions found in $src/include/weft" >&2; exit 1; }

fail=0
# Prints the symbols of list $2 that are neither API nor internal, for $1.
check_names() {
  local what=$1 names=$2 bad
  # (__sanitizer_cov_trace_pc: the profiler's block counter, which code
  # compiled with -fsanitize-coverage=trace-pc calls; docs/profiling.md)
  bad=$(grep -vE '^(weft__|lace_)' "$names" | grep -vx '__sanitizer_cov_trace_pc' |
    grep -vxFf "$api" || true)
  if [ -n "$bad" ]; then
    echo "FAIL: $what exports names outside the documented API (internal ones need the weft__ prefix):" >&2
    echo "$bad" | sed 's/^/  /' >&2
    fail=1
  else
    echo "ok: $what: $(wc -l < "$names") symbols, all documented API or weft__"
  fi
}

cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF -DWEFT_BUILD_EXAMPLES=ON -DWEFT_WITH_MPI=OFF \
  -DWEFT_PROFILE=ON -DWEFT_TRACE=ON -DWEFT_STATS=ON > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log" || { cat "$work/build.log" >&2; exit 1; }
lib="$work/build/libweft.so"
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libweft.so.0 ] || { echo "FAIL: soname '$soname', expected libweft.so.0" >&2; fail=1; }
out=$(LD_LIBRARY_PATH="$work/build" "$work/build/examples/example-fib" 2>&1)
grep -q 'fib(30) = 832040' <<< "$out" || { echo "FAIL: example-fib on the shared library: $out" >&2; fail=1; }
deps=$(ldd "$work/build/examples/example-fib")
echo "$deps" | grep -q 'libweft.so.0 =>' ||
  { echo "FAIL: example-fib is not linked to libweft.so.0" >&2; fail=1; }
# Workers run the library's code until weft_stop: it is never unloaded
# (-z nodelete), so a plugin linking it may be closed with its pool running.
readelf -d "$lib" | grep -q 'Flags:.*NODELETE' ||
  { echo "FAIL: libweft.so is not marked NODELETE" >&2; fail=1; }
cc -O2 -fPIC -shared -I"$src/include" -I"$work/build/include" "$src/tests/plugin/plugin.c" \
  -L"$work/build" -lweft -Wl,-rpath,"$work/build" -o "$work/plugin.so"
cc -O2 "$src/tests/plugin/test_plugin_unload.c" -o "$work/plugin_host"
out=$("$work/plugin_host" "$work/plugin.so" 2>&1) ||
  { echo "FAIL: dlclose of a plugin linking libweft.so with its pool running: $out" >&2; fail=1; }
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u > "$work/dyn.txt"
check_names "libweft.so (dynamic symbols)" "$work/dyn.txt"
# The internal names libweft.so exports are those that the libraries
# built beside it call: the public headers' inline code (include/, and the
# schedulers' owner side, installed with them), the front-end seam (src/runtime/frontend.h and the diagnostics and stealing it includes),
# and the hosted pool the dist library drives (src/workpool/hosted.h and
# the two headers it includes, config.h and inbox.h).
# Every function of the seam is exported (the Lace libraries link to it).
internal_decls() {
  sed -e 's#/\*.*\*/##g' "$@" | grep -oE '\bweft__[a-z0-9_]+ *[(;]|\bweft__[a-z0-9_]+ *$' |
    grep -oE 'weft__[a-z0-9_]+' | sort -u
}
internal_decls $(find "$src/include" "$src/src/sched" -name '*.h' -o -name '*.hpp') \
  "$src/src/runtime/frontend.h" "$src/src/runtime/stealing.h" \
  "$src/src/runtime/diagnostics.h" "$src/src/workpool/hosted.h" \
  "$src/src/workpool/config.h" "$src/src/workpool/inbox.h" > "$work/internal.txt"
extra=$(grep '^weft__' "$work/dyn.txt" | grep -vxFf "$work/internal.txt" || true)
if [ -n "$extra" ]; then
  echo "FAIL: libweft.so exports internal names that no public header, the front-end seam" \
    "(src/runtime/frontend.h) or the hosted pool (src/workpool/hosted.h, config.h, inbox.h) declares:" >&2
  echo "$extra" | sed 's/^/  /' >&2
  fail=1
fi
seam=$(sed -e 's#/\*.*\*/##g' "$src/src/runtime/frontend.h" "$src/src/runtime/stealing.h" | grep -oE '\bweft__[a-z0-9_]+ *\(' |
  tr -d ' (' | sort -u)
missing=$(grep -vxFf "$work/dyn.txt" <<<"$seam" || true)
if [ -n "$missing" ]; then
  echo "FAIL: the front-end seam's functions not exported by libweft.so: $missing" >&2
  fail=1
fi
# The documented API is really exported (a hidden one would link nowhere).
missing=$(grep -vxFf "$work/dyn.txt" "$api" | grep -v '^weft_dist_' || true)
if [ -n "$missing" ]; then
  echo "FAIL: documented API not exported by libweft.so: $missing" >&2
  fail=1
fi
for a in "$@"; do
  nm -g --defined-only "$a" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u > "$work/static.txt"
  check_names "$(basename "$a") (global symbols)" "$work/static.txt"
done
exit $fail
