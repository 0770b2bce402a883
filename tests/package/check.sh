#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs weft and uses it the ways README.md documents (the profiling
# variant too, and a profile of the program; the tracing variant and a
# timeline of the program; the shared library with a
# run-time path), running the
# README's own command blocks (those after a "tests/package/check.sh runs
# this block" comment) as they are written, with $HOME pointing at a
# scratch directory; the README's FetchContent block as written, its URL a
# file:// git repository of this tree (branch main); embedding with
# add_subdirectory: what the parent's build compiles and its install
# installs; and a parent project whose build type and flags must survive.
# Usage: check.sh <build-dir>   (the build dir is only used for its
# compiler; the install is configured afresh from the README)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"

# The fenced block that follows the n-th "check.sh ... this block" comment.
readme_block() {
  awk -v want="$1" '
    /<!-- tests\/package\/check.sh (runs|builds a project with) this block/ { n++; armed = (n == want); next }
    armed && /^```/ { if (inside) { exit } inside = 1; next }
    armed && inside { print }
  ' "$root/README.md"
}
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }

install_cmds=$(readme_block 1)
cmake_snippet=$(readme_block 2)
consumer_cmds=$(readme_block 3)
fetch_snippet=$(readme_block 4)
pkgconfig_cmds=$(readme_block 5)
shared_install_cmds=$(readme_block 6)
shared_cmds=$(readme_block 7)
profile_snippet=$(readme_block 8)
profile_cmds=$(readme_block 9)
trace_snippet=$(readme_block 10)
trace_cmds=$(readme_block 11)
for b in install_cmds cmake_snippet consumer_cmds fetch_snippet pkgconfig_cmds shared_install_cmds \
  shared_cmds profile_snippet profile_cmds trace_snippet trace_cmds; do
  [ -n "${!b}" ] || fail "README.md has no block for $b (the check.sh markers moved?)"
done

export HOME="$work/home"
mkdir -p "$HOME"
# The source tree as it is, without build trees, so the README's
# `cmake -S . -B build` runs in a clean copy.
tar -C "$root" --exclude='./build*' --exclude='./results' --exclude='./.git' -cf - . |
  (mkdir "$work/src" && tar -C "$work/src" -xf -)
(cd "$work/src" && bash -euo pipefail -c "$install_cmds") >"$log" 2>&1 || fail "README install commands"
echo "ok: README install commands ($HOME/.local)"

# A project with the README's CMake lines.
mkdir -p "$work/app"
cp "$root/examples/fib.c" "$work/app/app.c"
cat >"$work/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
add_executable(app app.c)
$cmake_snippet
CMAKE
(cd "$work/app" && bash -euo pipefail -c "$consumer_cmds" && cmake --build build) >"$log" 2>&1 ||
  fail "find_package consumer"
"$work/app/build/app" 20 | grep -q "fib(20) = 6765" || fail "find_package consumer's answer"
echo "ok: find_package (README)"

# A C++-only project (no C language enabled) on the C++ API, weft::cpp.
mkdir -p "$work/app-cpp"
cp "$root/examples/quicksort.cpp" "$work/app-cpp/app.cpp"
cat >"$work/app-cpp/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app_cpp CXX)
find_package(weft 0.1 REQUIRED)
add_executable(app app.cpp)
target_link_libraries(app PRIVATE weft::cpp)
CMAKE
(cmake -S "$work/app-cpp" -B "$work/app-cpp/build" -DCMAKE_PREFIX_PATH="$HOME/.local" &&
  cmake --build "$work/app-cpp/build") >"$log" 2>&1 || fail "find_package consumer of weft::cpp"
"$work/app-cpp/build/app" 100000 | grep -q ": sorted" || fail "weft::cpp consumer's answer"
echo "ok: find_package, weft::cpp from a C++-only project"

(cd "$work/app" && rm -rf build && bash -euo pipefail -c "$pkgconfig_cmds") >"$log" 2>&1 ||
  fail "pkg-config commands"
"$work/app/app" 20 | grep -q "fib(20) = 6765" || fail "pkg-config consumer's answer"
echo "ok: pkg-config (README)"

# The headers add no warning of their own to a program that uses them as
# documented, under -Wall -Wextra -Wpedantic -Werror: gcc and clang as C11
# and C++17 (pedantic.c), g++ and clang++ on the C++ API (pedantic.cpp),
# with pkg-config's flags and from CMake's find_package.
pedantic=(-Wall -Wextra -Wpedantic -Werror)
pc_flags=$(PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig" pkg-config --cflags --libs weft)
for build in "gcc -std=c11 pedantic.c" "clang -std=c11 pedantic.c" \
             "g++ -std=c++17 -x c++ pedantic.c" "clang++ -std=c++17 -x c++ pedantic.c" \
             "g++ -std=c++17 pedantic.cpp" "clang++ -std=c++17 pedantic.cpp"; do
  read -ra words <<<"$build"
  if ! command -v "${words[0]}" >/dev/null 2>&1; then
    echo "skipped: ${words[0]} is not installed ($build)"
    continue
  fi
  # shellcheck disable=SC2086
  (cd "$here" && "${words[@]}" "${pedantic[@]}" -x none $pc_flags -o "$work/pedantic") >"$log" 2>&1 ||
    fail "$build with ${pedantic[*]}, pkg-config weft"
  "$work/pedantic" >"$log" 2>&1 || fail "$build: the program's answer"
  echo "ok: $build, ${pedantic[*]}, pkg-config's flags: no warning"
done
if command -v clang >/dev/null 2>&1; then
  mkdir -p "$work/app-pedantic"
  cp "$here/pedantic.c" "$work/app-pedantic/app.c"
  cat >"$work/app-pedantic/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
set(CMAKE_C_STANDARD 11)
set(CMAKE_C_EXTENSIONS OFF)
add_executable(app app.c)
target_compile_options(app PRIVATE ${pedantic[*]})
$cmake_snippet
CMAKE
  (cd "$work/app-pedantic" && CC=clang bash -euo pipefail -c "$consumer_cmds" && cmake --build build) \
    >"$log" 2>&1 || fail "find_package consumer, clang ${pedantic[*]}"
  "$work/app-pedantic/build/app" >"$log" 2>&1 || fail "find_package pedantic consumer's answer"
  echo "ok: find_package, clang -std=c11 ${pedantic[*]}: no warning"
fi

# The README's profiling recipe: the same program against the profiling
# variant, from CMake and from pkg-config, run with WEFT_PROFILE=1; its
# JSON must be valid and hold the program's task, fib, with its work and
# a parallelism above 1.
check_profile_json() { # <file> <what> <unit>
  python3 - "$1" "$3" <<'PY' || fail "$2: the profile JSON"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["unit"] == sys.argv[2], f'unit {d["unit"]!r}, expected {sys.argv[2]!r}'
fib = [t for t in d["task_types"] if t["name"] == "fib"]
assert fib and fib[0]["count"] > 1000 and fib[0]["work_ns"] > 0, d["task_types"]
r = d["regions"][0]
assert r["tasks"] > 1000 and r["parallelism"] > 1, r
PY
}
mkdir -p "$work/app-prof"
cp "$root/examples/fib.c" "$work/app-prof/app.c"
cat >"$work/app-prof/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
add_executable(app app.c)
$profile_snippet
CMAKE
(cd "$work/app-prof" && bash -euo pipefail -c "$consumer_cmds" && cmake --build build) >"$log" 2>&1 ||
  fail "find_package consumer of weft::weft_profile"
WEFT_PROFILE=1 WEFT_PROFILE_JSON="$work/cmake.json" "$work/app-prof/build/app" 25 >"$log" 2>&1 ||
  fail "weft::weft_profile consumer's run"
grep -q "fib(25) = 75025" "$log" || fail "weft::weft_profile consumer's answer"
grep -q "parallelism" "$log" || fail "WEFT_PROFILE=1 printed no profile table"
check_profile_json "$work/cmake.json" "weft::weft_profile consumer" "basic blocks"
echo "ok: find_package, weft::weft_profile (README): a valid profile in basic blocks with the program's task"
# Timed strands: the same program linked with weft::profile_time (the
# profiling variant without the counting flag) is measured in time.
mkdir -p "$work/app-time"
cp "$work/app-prof/app.c" "$work/app-time/app.c"
sed 's/weft::weft_profile)/weft::profile_time)/' "$work/app-prof/CMakeLists.txt" >"$work/app-time/CMakeLists.txt"
grep -q "weft::profile_time" "$work/app-time/CMakeLists.txt" || fail "the README's profile snippet links no weft::weft_profile"
(cmake -S "$work/app-time" -B "$work/app-time/build" -DCMAKE_PREFIX_PATH="$HOME/.local" &&
  cmake --build "$work/app-time/build") >"$log" 2>&1 || fail "find_package consumer of weft::profile_time"
WEFT_PROFILE_JSON="$work/time.json" "$work/app-time/build/app" 25 >"$log" 2>&1 ||
  fail "weft::profile_time consumer's run"
check_profile_json "$work/time.json" "weft::profile_time consumer" "time"
echo "ok: find_package, weft::profile_time: the profile in time"
# The C++ API over the variant: weft::cpp_profile.
mkdir -p "$work/app-cpp-prof"
cp "$work/app-cpp/app.cpp" "$work/app-cpp-prof/app.cpp"
sed 's/weft::cpp)/weft::cpp_profile)/' "$work/app-cpp/CMakeLists.txt" >"$work/app-cpp-prof/CMakeLists.txt"
(cmake -S "$work/app-cpp-prof" -B "$work/app-cpp-prof/build" -DCMAKE_PREFIX_PATH="$HOME/.local" &&
  cmake --build "$work/app-cpp-prof/build") >"$log" 2>&1 || fail "find_package consumer of weft::cpp_profile"
WEFT_PROFILE_JSON="$work/cpp.json" "$work/app-cpp-prof/build/app" 100000 >"$log" 2>&1 ||
  fail "weft::cpp_profile consumer's run"
python3 - "$work/cpp.json" <<'PY' || fail "weft::cpp_profile consumer: the profile JSON"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["unit"] == "basic blocks", d["unit"]
r = d["regions"][0]
assert r["spawns"] > 10 and r["parallelism"] > 1, r
PY
echo "ok: find_package, weft::cpp_profile: a valid profile in basic blocks with the C++ API's tasks"
(cd "$work/app" && bash -euo pipefail -c "$pkgconfig_cmds
$profile_cmds") >"$log" 2>&1 || fail "README pkg-config weft-profile commands"
grep -q "fib(25) = 75025" "$log" || fail "pkg-config weft-profile consumer's answer"
grep -q "parallelism" "$log" || fail "WEFT_PROFILE=1 printed no profile table (pkg-config)"
WEFT_PROFILE_JSON="$work/pc.json" "$work/app/app-prof" 25 >"$log" 2>&1 ||
  fail "pkg-config weft-profile consumer's run"
check_profile_json "$work/pc.json" "pkg-config weft-profile consumer" "basic blocks"
(cd "$work/app" && cc -O2 app.c $(PKG_CONFIG_PATH="$HOME/.local/lib/pkgconfig:$HOME/.local/lib64/pkgconfig" \
  pkg-config --cflags --libs weft-profile-time) -o app-prof-time) >"$log" 2>&1 ||
  fail "pkg-config weft-profile-time consumer's build"
WEFT_PROFILE_JSON="$work/pct.json" "$work/app/app-prof-time" 25 >"$log" 2>&1 ||
  fail "pkg-config weft-profile-time consumer's run"
check_profile_json "$work/pct.json" "pkg-config weft-profile-time consumer" "time"
# The installed reader of profiles sets the two side by side: the same
# program and input, so the same graph, counted in two units.
"$HOME/.local/bin/weft-profile" diff "$work/pc.json" "$work/pct.json" >"$log" 2>&1 ||
  fail "the installed weft-profile diff"
grep -q "the graphs are the same" "$log" && grep -q "the units differ" "$log" ||
  fail "weft-profile diff of one program in two units: $(cat "$log")"
syms=$(nm "$work/app/app")
grep -q weft__profile_register <<<"$syms" &&
  fail "the program linked with weft (not weft-profile) holds the profiler"
echo "ok: pkg-config weft-profile (README) in basic blocks, weft-profile-time in time, weft-profile diff of the two; weft has no profiler"

# The README's tracing recipe: the same program against the tracing
# variant, from CMake and from pkg-config (and the C++ API over it), run
# with WEFT_TRACE=<file>; the timeline must be valid JSON with a slice of
# the program's task (how many depends on the steals: the RUN's own always).
check_trace_json() { # <file> <what> <task name>
  python3 - "$1" "$3" <<'PY' || fail "$2: the timeline JSON"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
slices = [e for e in d["traceEvents"] if e.get("ph") == "X"]
named = [e for e in slices if e.get("name") == sys.argv[2]] if sys.argv[2] else slices
assert named, f"no slice named {sys.argv[2]!r} among {len(slices)}"
PY
}
mkdir -p "$work/app-trace"
cp "$root/examples/fib.c" "$work/app-trace/app.c"
cat >"$work/app-trace/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
add_executable(app app.c)
$trace_snippet
CMAKE
(cd "$work/app-trace" && bash -euo pipefail -c "$consumer_cmds" && cmake --build build) >"$log" 2>&1 ||
  fail "find_package consumer of weft::trace"
WEFT_TRACE="$work/cmake-trace.json" "$work/app-trace/build/app" 25 >"$log" 2>&1 ||
  fail "weft::trace consumer's run"
grep -q "fib(25) = 75025" "$log" || fail "weft::trace consumer's answer"
check_trace_json "$work/cmake-trace.json" "weft::trace consumer" fib
echo "ok: find_package, weft::trace (README): a valid timeline with the program's task"
mkdir -p "$work/app-cpp-trace"
cp "$work/app-cpp/app.cpp" "$work/app-cpp-trace/app.cpp"
sed 's/weft::cpp)/weft::cpp_trace)/' "$work/app-cpp/CMakeLists.txt" >"$work/app-cpp-trace/CMakeLists.txt"
(cmake -S "$work/app-cpp-trace" -B "$work/app-cpp-trace/build" -DCMAKE_PREFIX_PATH="$HOME/.local" &&
  cmake --build "$work/app-cpp-trace/build") >"$log" 2>&1 || fail "find_package consumer of weft::cpp_trace"
WEFT_TRACE="$work/cpp-trace.json" "$work/app-cpp-trace/build/app" 100000 >"$log" 2>&1 ||
  fail "weft::cpp_trace consumer's run"
check_trace_json "$work/cpp-trace.json" "weft::cpp_trace consumer" ""
echo "ok: find_package, weft::cpp_trace: a valid timeline of the C++ API's tasks"
(cd "$work/app" && bash -euo pipefail -c "$pkgconfig_cmds
$trace_cmds") >"$log" 2>&1 || fail "README pkg-config weft-trace commands"
grep -q "fib(25) = 75025" "$log" || fail "pkg-config weft-trace consumer's answer"
check_trace_json "$work/app/app-trace.json" "pkg-config weft-trace consumer" fib
grep -q weft__trace_name <<<"$syms" &&
  fail "the program linked with weft (not weft-trace) holds the tracer"
echo "ok: pkg-config weft-trace (README): a valid timeline with the program's task; weft has no tracer"

# The README's shared library: built and installed as written, in a
# prefix of its own, and a program linked as the README says (pkg-config's
# flags carry the install's run-time path) runs with no LD_LIBRARY_PATH.
(export HOME="$work/home-shared" && mkdir -p "$HOME" && cd "$work/src" &&
  bash -euo pipefail -c "$shared_install_cmds") >"$log" 2>&1 || fail "README shared-library install"
compgen -G "$work/home-shared/.local/lib/libweft.so.0*" >/dev/null ||
  fail "the README's shared-library install has no libweft.so.0"
mkdir -p "$work/app-shared"
cp "$root/examples/fib.c" "$work/app-shared/app.c"
(export HOME="$work/home-shared" && cd "$work/app-shared" && unset LD_LIBRARY_PATH &&
  bash -euo pipefail -c "$shared_cmds") >"$log" 2>&1 || fail "README shared-library program"
grep -q "fib(20) = 6765" "$log" || fail "README shared-library program's answer"
# ldd's whole output first: grep -q stops reading at the match, and under
# pipefail the SIGPIPE that ldd may then get would fail the pipeline.
loaded=$(ldd "$work/app-shared/app")
grep -q "libweft.so.0 => $work/home-shared/.local/lib/" <<<"$loaded" ||
  fail "the README's program does not load libweft.so.0 from the install: $loaded"
echo "ok: shared library (README): installed, and a program with its run-time path runs"

# The README's blocks in its order, in one prefix: the shared libraries
# installed over the static ones, then the pkg-config recipes of the
# sections after it (plain, profile, trace), whose programs now link the
# .so files (the linker prefers them) and run with no LD_LIBRARY_PATH:
# the .pc files carry the install's run-time path.  Then the static
# install again over the shared one (the other order): its .pc files,
# the .so files still beside them, the same.
readme_order_programs() { # how
  (cd "$work/app" && unset LD_LIBRARY_PATH && rm -f app app-prof app-trace &&
    bash -euo pipefail -c "$pkgconfig_cmds
$profile_cmds
$trace_cmds" && ./app 20) >"$log" 2>&1 || fail "$1: the README's pkg-config programs"
  grep -q "fib(20) = 6765" "$log" && grep -q "fib(25) = 75025" "$log" ||
    fail "$1: the programs' answers"
  local prog loaded
  for prog in app app-prof app-trace; do
    loaded=$(ldd "$work/app/$prog")
    grep -q "libweft[-a-z]*\.so\.0 => $HOME/.local/lib/" <<<"$loaded" ||
      fail "$1: $prog does not load weft's shared library from the install: $loaded"
  done
}
(cd "$work/src" && bash -euo pipefail -c "$shared_install_cmds") >"$log" 2>&1 ||
  fail "README shared-library install over the static one"
readme_order_programs "the shared install over the static one"
(cd "$work/src" && cmake --install build --prefix "$HOME/.local") >"$log" 2>&1 ||
  fail "the static install again, over the shared one"
readme_order_programs "the static install over the shared one"
echo "ok: the README's order (static, then shared, in one prefix, and the other way): every pkg-config program runs"

# The source tree as a git repository whose branch main holds it: what a
# clone of weft's repository offers FetchContent.
mkdir "$work/repo"
tar -C "$root" --exclude='./build*' --exclude='./results' --exclude='./.git' -cf - . |
  tar -C "$work/repo" -xf -
(cd "$work/repo" && git init -q -b main && git add -A &&
  git -c user.name=check -c user.email=check@localhost commit -q -m snapshot) >"$log" 2>&1 ||
  fail "a git repository of the tree"

# The weft libraries and the programs an embedded weft's build tree holds.
built_by_weft() {
  find "$1" -path '*/CMakeFiles' -prune -o -type f \( -name 'libweft*' -o -perm -u+x \) -print |
    sed "s|^$1/||" | sort | tr '\n' ' '
}

# FetchContent as the README writes it; only the URL is this repository.
url_placeholder="<weft's repository URL>"
[ "$(grep -cF "$url_placeholder" <<<"$fetch_snippet")" = 1 ] ||
  fail "README.md's FetchContent block has no '$url_placeholder' to replace"
mkdir -p "$work/fetch"
cp "$root/examples/fib.c" "$work/fetch/app.c"
cat >"$work/fetch/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
add_executable(app app.c)
${fetch_snippet//"$url_placeholder"/file://$work/repo}
install(TARGETS app)
CMAKE
(cmake -S "$work/fetch" -B "$work/fetch/build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$work/fetch/build" --parallel 2) >"$log" 2>&1 || fail "README FetchContent block"
"$work/fetch/build/app" 20 | grep -q "fib(20) = 6765" || fail "FetchContent consumer's answer"
got=$(built_by_weft "$work/fetch/build/_deps/weft-build")
[ "$got" = "libweft.a " ] || fail "an embedded weft's default build made '$got', not just libweft.a"
cmake --install "$work/fetch/build" --prefix "$work/fetch/inst" >"$log" 2>&1 || fail "parent's install"
got=$(cd "$work/fetch/inst" && find . -type f | sort | tr '\n' ' ')
[ "$got" = "./bin/app " ] || fail "the parent's install put weft's files in its prefix: $got"
echo "ok: FetchContent (README, file:// on main): the core library only, nothing of weft's installed"

# add_subdirectory: a parent linking weft::lace gets it built, weft::dist
# stays unbuilt; with WEFT_INSTALL=ON the parent's install carries weft.
mkdir -p "$work/sub"
cp "$root/examples/fib.c" "$work/sub/app.c"
cat >"$work/sub/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
add_subdirectory("$work/repo" weft)
add_executable(app app.c)
target_link_libraries(app PRIVATE weft::weft weft::lace)
CMAKE
(cmake -S "$work/sub" -B "$work/sub/build" && cmake --build "$work/sub/build" --parallel 2) \
  >"$log" 2>&1 || fail "add_subdirectory parent"
"$work/sub/build/app" 20 | grep -q "fib(20) = 6765" || fail "add_subdirectory consumer's answer"
got=$(built_by_weft "$work/sub/build/weft")
[ "$got" = "libweft-lace.a libweft.a " ] ||
  fail "a parent linking weft::lace got '$got' built, not libweft-lace.a and libweft.a"
# (No profiling or tracing variant: the README install above checks them;
# here each would be another compilation of the library for nothing.)
(cmake -S "$work/sub" -B "$work/sub/build" -DWEFT_INSTALL=ON -DWEFT_WITH_MPI=OFF -DWEFT_PROFILE_LIBRARY=OFF -DWEFT_TRACE_LIBRARY=OFF &&
  cmake --build "$work/sub/build" --parallel 2 &&
  cmake --install "$work/sub/build" --prefix "$work/sub/inst") >"$log" 2>&1 || fail "WEFT_INSTALL=ON"
for f in include/weft/weft.h include/weft/version.h include/weft/config.h; do
  [ -f "$work/sub/inst/$f" ] || fail "WEFT_INSTALL=ON did not install $f"
done
for f in libweft.a libweft-lace.a cmake/weft/weftConfig.cmake pkgconfig/weft.pc; do
  compgen -G "$work/sub/inst/lib*/$f" >/dev/null || fail "WEFT_INSTALL=ON did not install lib*/$f"
done
echo "ok: add_subdirectory: weft::lace built when linked, nothing else; WEFT_INSTALL=ON installs weft"

# FetchContent from a source directory: the parent's settings survive (its
# CMakeLists checks them at configure time).
cmake -S "$here/fetchcontent" -B "$work/fc1" -DWEFT_SOURCE="$root" -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DPARENT_FLAGS" >"$log" 2>&1 || fail "FetchContent, no build type"
cmake -S "$here/fetchcontent" -B "$work/fc2" -DWEFT_SOURCE="$root" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log" 2>&1 || fail "FetchContent, RelWithDebInfo"
echo "ok: FetchContent (the parent's build type and flags kept)"
