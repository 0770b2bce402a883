#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds weft several ways and runs every test in each build:
#   release  -O3 with counters, misuse checks and hwloc; also the install /
#            find_package / pkg-config / FetchContent tests
#   observe  -O3 with the profiler, the tracer and counters: their tests and
#            the harness's --profile/--trace end to end (split only)
#   tsan     ThreadSanitizer (split's: with the profiler and the tracer,
#            docs/profiling.md), without the benchmark programs
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer (split's: with the
#            profiler and the tracer), without the benchmark programs
#   perturb  random delays at every race point (WEFT_PERTURB, docs/verification.md)
#            and the forced-interleaving race tests (test_races), without
#            the C++ API's algorithm tests (tests/cpp/CMakeLists.txt); for the
#            schedulers other than split only the tests labelled "sched"
#            (race tests, the scheduler's own, the profiler's and tracer's
#            checks, with both compiled in) are built and run
#   verify   the spin model checks and their mutants (verification/run.sh --quick)
#   mutation the quick subset of the source mutants (tests/mutation/run.sh),
#            two at a time, and the runner's self-test (a survivor reported)
#   mpi      the distributed work pool (weft::dist): a release build with
#            -DWEFT_WITH_MPI=ON, only the tests labelled dist (tests/dist
#            and the uts-dist checks) under mpirun on this machine
#   quick    the tier to run before every commit (minutes, not the full
#            run's hour): a release build without the benchmarks, every
#            test but those that build and install copies of weft (label
#            build: the package, install and compiler checks), then an
#            ASan+UBSan smoke run of the runtime's concurrency tests (label
#            runtime); split only, and only when asked for
# each for the default scheduler (split) and, as `<build>:<scheduler>`, for
# every other scheduler in the tree (the folders of src/sched), which runs
# the tests that depend on the scheduler (docs/schedulers.md): not the work
# pool's, the packaging checks, the C++ compilers' or the C++ API's
# algorithms' (test_cpp, test_cpp_sort_throw; split only).
# Usage: tests/run_all.sh [quick|release|observe|tsan|asan|perturb[:scheduler]|verify|mpi|mutation ...]
#        (default: release, observe, tsan, asan, perturb, verify, mpi and
#        mutation for split; release, tsan, asan and perturb for every other
#        scheduler, without the benchmark programs: release runs its
#        tests once at scale 2, tsan and asan only the
#        runtime's concurrency tests and the scheduler's own (labels
#        "runtime" and, for tsan, "sched"), perturb the tests labelled
#        "sched" five times)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/deps.sh"

# The schedulers in this tree: the folders of src/sched (CMake's list).  A
# failing or empty list stops the run: it would drop every stage of the
# other schedulers without a word.
if ! sched_list=$(cmake -P "$root/cmake/WeftSchedulers.cmake"); then
  echo "run_all: cmake -P cmake/WeftSchedulers.cmake failed: no scheduler list" >&2
  exit 1
fi
mapfile -t schedulers <<< "$sched_list"
if [ ${#schedulers[@]} -lt 2 ] || [ "${schedulers[0]}" != split ]; then
  echo "run_all: scheduler list '${schedulers[*]}' is not split followed by the others" >&2
  exit 1
fi

echo "=== schedulers in this tree: ${schedulers[*]}"
configs=()
for arg in "$@"; do
  # quick is two stages: the release tests, then the sanitizer smoke run.
  if [ "$arg" = quick ]; then configs+=(quick-release quick-asan); else configs+=("$arg"); fi
done
if [ ${#configs[@]} -eq 0 ]; then
  configs=(release observe tsan asan perturb verify mpi mutation)
  for s in "${schedulers[@]:1}"; do configs+=("release:$s" "tsan:$s" "asan:$s" "perturb:$s"); done
fi
jobs=$(nproc 2>/dev/null || echo 2)

export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1 ${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1 ${UBSAN_OPTIONS:-}"

start=$(date +%s)
for cfg_sched in "${configs[@]}"; do
  cfg=${cfg_sched%%:*}
  stage_start=$(date +%s)
  sched=split
  [ "$cfg" = "$cfg_sched" ] || sched=${cfg_sched#*:}
  if [ "$cfg" = verify ]; then
    # The model checks (spin): every protocol model passes, every mutant is
    # found (docs/verification.md); the larger bounds are the weekly --full.
    echo "=== verify: model checks (verification/run.sh --quick)"
    [ -f "$root/verification/run.sh" ] || { echo "run_all: verification/run.sh is missing" >&2; exit 1; }
    bash "$root/verification/run.sh" --quick
    echo "=== verify: passed in $(( $(date +%s) - stage_start )) s"
    continue
  fi
  if [ "$cfg" = mutation ]; then
    # Source mutants (tests/mutation/mutants.txt, the quick subset): each
    # must be killed by the tests aimed at it (docs/verification.md).
    echo "=== mutation: source mutants (tests/mutation/run.sh --quick)"
    bash "$root/tests/mutation/run.sh" --quick --work "$root/build-test-mutation"
    # The runner itself: a mutant the tests cannot see is reported as a
    # survivor and fails the run, in two lanes beside a killed one.
    if self_out=$(bash "$root/tests/mutation/run.sh" --list "$root/tests/mutation/selftest.txt" \
                    --lanes 2 --work "$root/build-test-mutation" 2>&1); then
      echo "$self_out"; echo "run_all: the mutation runner passed a run with a survivor" >&2; exit 1
    fi
    if ! grep -qx 'mutants: 2 killed: 1 survived: 1' <<< "$self_out" ||
       ! grep -q '^SURVIVED  selftest-comment-survives ' <<< "$self_out"; then
      echo "$self_out"; echo "run_all: the mutation runner misreported its self-test" >&2; exit 1
    fi
    echo "mutation: the runner's self-test reported its survivor"
    echo "=== mutation: passed in $(( $(date +%s) - stage_start )) s"
    continue
  fi
  # weft::dist only where asked for: the other builds do not look for MPI.
  mpi_flag=-DWEFT_WITH_MPI=OFF
  label=""
  exclude_label=""
  # What to build: everything, unless the stage names its targets.
  targets=()
  case "$cfg" in
    # The distributed pool: only its own tests (label dist), each under
    # mpirun with a timeout (tests/dist/mpirun.sh: loopback, oversubscribed,
    # as root too), built without the other benchmarks' tests.
    mpi)     flags=(-DCMAKE_BUILD_TYPE=Release); repeat=1; mpi_flag=-DWEFT_WITH_MPI=ON; label=dist ;;
    # The profiler and the tracer in an optimised build with counters: their
    # tests (label observe: timing figures, the trace against the counters)
    # and the harness's --profile / --trace end to end on this tree.
    observe) flags=(-DCMAKE_BUILD_TYPE=Release -DWEFT_PROFILE=ON -DWEFT_TRACE=ON -DWEFT_STATS=ON
                    -DWEFT_BUILD_EXAMPLES=OFF); repeat=1; label=observe; targets=(observe_checks) ;;
    # Release runs the stress tests larger, and the concurrency tests
    # (label runtime) twice over (the perturb stage runs them with delays).
    release) flags=(-DCMAKE_BUILD_TYPE=Release -DWEFT_STATS=ON -DWEFT_CHECKS=ON -DWEFT_USE_HWLOC=ON
                    -DWEFT_TEST_SCALE=30); repeat=2 ;;
    tsan)    flags=(-DCMAKE_BUILD_TYPE=Debug -DWEFT_SANITIZE=thread -DWEFT_TEST_SCALE=2); repeat=1 ;;
    asan)    flags=(-DCMAKE_BUILD_TYPE=Debug -DWEFT_SANITIZE=address,undefined -DWEFT_TEST_SCALE=2); repeat=1 ;;
    # Every test with a 5% chance of a delay at each race point (only
    # perturb builds read WEFT_PERTURB, so the export harms no other build).
    # The checks that build and install copies of weft (label build) and
    # those of the sources (label static) give the release stage's answer
    # here: left out.
    perturb) flags=(-DCMAKE_BUILD_TYPE=Release -DWEFT_PERTURB=ON -DWEFT_TEST_SCALE=2); repeat=1
             exclude_label='build|static'
             export WEFT_PERTURB="${WEFT_PERTURB:-0.05}" ;;
    quick-release) flags=(-DCMAKE_BUILD_TYPE=Release -DWEFT_CHECKS=ON -DWEFT_BUILD_BENCH=OFF
                          -DWEFT_BUILD_EXAMPLES=OFF); repeat=1; exclude_label=build ;;
    quick-asan) flags=(-DCMAKE_BUILD_TYPE=Debug -DWEFT_SANITIZE=address,undefined -DWEFT_BUILD_BENCH=OFF
                       -DWEFT_BUILD_EXAMPLES=OFF); repeat=1; label=runtime; targets=(runtime_checks) ;;
    *) echo "unknown configuration '$cfg' (quick, release, observe, tsan, asan, perturb, verify, mpi, mutation)" >&2; exit 2 ;;
  esac
  # The profiler and the tracer are compiled into split's sanitizer builds
  # (their per-worker state and buffers under TSan and ASan) and into every
  # other scheduler's perturb build (test_profile and check_trace against
  # each scheduler), not into builds of their own.
  # The sanitizer builds run the tests, not the benchmark programs (whose
  # answers the release and perturb builds check): under TSan those took a
  # quarter of the stage's test time.
  if [ "$cfg" = tsan ] || [ "$cfg" = asan ]; then
    [ "$sched" = split ] && flags+=(-DWEFT_PROFILE=ON -DWEFT_TRACE=ON)
    flags+=(-DWEFT_BUILD_BENCH=OFF)
  fi
  dir="$root/build-test-$cfg"
  if [ "$sched" != split ]; then
    dir="$dir-$sched"
    # The other schedulers' trees are built without the benchmark programs
    # (split's release checks their answers: 140 programs, 45 s a tree).
    # Their release runs the tests once (split's concurrency tests three
    # times) at the sanitizer builds' scale of 2 (split's release runs the
    # stress at 30: the runtime around the deque is the same).
    flags+=(-DWEFT_BUILD_BENCH=OFF)
    if [ "$cfg" = release ]; then
      repeat=1
      flags+=(-DWEFT_TEST_SCALE=2)
    fi
  fi
  # The other schedulers' perturb runs build and run only the tests
  # labelled "sched" (tests/CMakeLists.txt: the race tests, the scheduler's
  # own tests, the profiler's and tracer's checks), 5 times over (each run
  # takes seconds): the runtime's tests under perturbation run
  # in split's perturb build.
  # The other schedulers' asan runs build and run only the runtime's
  # concurrency tests and the scheduler's own (label "runtime",
  # tests/CMakeLists.txt), once: the rest of the suite runs under ASan in
  # split's asan build, and each scheduler's full suite in its release and
  # tsan builds.
  if [ "$cfg" = asan ] && [ "$sched" != split ]; then
    targets=(runtime_checks)
    label=runtime
  fi
  # The other schedulers' tsan runs build and run the runtime's concurrency
  # tests and the scheduler's own (labels runtime and sched): the front
  # ends run on the one fork-join core, under ThreadSanitizer in split's
  # tsan build and on each scheduler in its release build.
  if [ "$cfg" = tsan ] && [ "$sched" != split ]; then
    targets=(runtime_checks scheduler_checks)
    label='runtime|sched'
  fi
  if [ "$cfg" = perturb ] && [ "$sched" != split ]; then
    repeat=5
    flags+=(-DWEFT_PROFILE=ON -DWEFT_TRACE=ON)
    targets=(scheduler_checks)
    label=sched
  fi
  echo "=== $cfg_sched: configure and build in $dir"
  if [ "$cfg" = mpi ]; then targets=(test_dist uts-dist); fi
  # These trees install nothing: no profiling or tracing variant of the
  # library (the package test builds its own install, the variants included).
  cmake -S "$root" -B "$dir" -G Ninja -DWEFT_WERROR=ON -DWEFT_SCHEDULER="$sched" "$mpi_flag" \
    -DWEFT_PROFILE_LIBRARY=OFF -DWEFT_TRACE_LIBRARY=OFF "${flags[@]}" >/dev/null
  cmake --build "$dir" --parallel "$jobs" ${targets[@]:+--target "${targets[@]}"}
  echo "=== $cfg_sched: tests"
  if [ "$cfg" = perturb ] && [ "$sched" != split ]; then
    (cd "$dir" && ctest --no-tests=error --output-on-failure --parallel "$jobs" --timeout 900 \
       --repeat until-fail:$repeat ${label:+-L "$label"})
  else
    (cd "$dir" && ctest --no-tests=error --output-on-failure --parallel "$jobs" --timeout 900 \
       ${label:+-L "$label"} ${exclude_label:+-LE "$exclude_label"})
    # Further rounds of the concurrency tests only (label runtime): the
    # build and packaging checks give the same answer every time.
    if [ "$repeat" -gt 1 ]; then
      echo "=== $cfg_sched: the concurrency tests $((repeat - 1)) more times"
      (cd "$dir" && ctest --no-tests=error --output-on-failure --parallel "$jobs" --timeout 900 \
         --repeat until-fail:$((repeat - 1)) -L runtime)
    fi
  fi
  if [ "$cfg_sched" = observe ]; then
    echo "=== observe: the harness's --profile and --trace on this tree"
    (cd "$root/tests/harness" && WEFT_OBSERVE_BUILD="$dir" WEFT_REQUIRE_OBSERVE=1 \
      python3 -m unittest -v test_end_to_end.RealObserveTest)
  fi
  if [ "$cfg_sched" = release ]; then
    # The benchmark harness's own tests; the end-to-end one reuses this tree.
    echo "=== release: harness tests"
    # CI=true: a test skipped for a missing tool that deps.sh installs
    # (matplotlib) fails instead (tests/harness/harness_testutil.py).
    CI=true python3 -m unittest discover -s "$root/tests/harness" -v
  fi
  echo "=== $cfg_sched: passed in $(( $(date +%s) - stage_start )) s"
done
echo "=== all tests passed (${configs[*]}) in $(( $(date +%s) - start )) s"
