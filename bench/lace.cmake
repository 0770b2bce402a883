# SPDX-License-Identifier: Apache-2.0
# The benchmarks written against Lace's API (<lace.h>, docs/lace.md): a
# <name>-lace.c beside a benchmark's sources builds <name>-lace, linked with
# weft::lace (the harness's weft-lace-api system runs them).
# weft_lace_benchmark(<name> [SOURCES extra.c...] [LIBS libs...])
function(weft_lace_benchmark name)
  cmake_parse_arguments(B "" "" "SOURCES;LIBS" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  list(TRANSFORM B_SOURCES PREPEND ${dir}/)
  add_executable(${name}-lace ${dir}/${name}-lace.c ${B_SOURCES})
  target_include_directories(${name}-lace PRIVATE ${PROJECT_SOURCE_DIR}/bench/common ${dir})
  target_compile_definitions(${name}-lace PRIVATE _GNU_SOURCE)
  target_compile_options(${name}-lace PRIVATE ${WEFT_WARNINGS})
  target_link_libraries(${name}-lace PRIVATE weft::lace ${B_LIBS})
endfunction()

weft_lace_benchmark(fib)
weft_bench_test(fib-lace ${B}/fib-lace -w 3 27)
weft_lace_benchmark(queens)
weft_bench_test(queens-lace ${B}/queens-lace -w 3 10)
weft_lace_benchmark(pi LIBS m)
weft_bench_test(pi-lace ${B}/pi-lace -w 3 2000000 1000)
weft_lace_benchmark(knapsack)
weft_bench_test(knapsack-lace ${B}/knapsack-lace -w 3 40 1)
weft_lace_benchmark(cilksort)
weft_bench_test(cilksort-lace ${B}/cilksort-lace -w 3 100000)
weft_lace_benchmark(matmul LIBS m)
weft_bench_test(matmul-lace ${B}/matmul-lace -w 3 256)
weft_lace_benchmark(strassen)
weft_bench_test(strassen-lace ${B}/strassen-lace -w 3 128 8)
weft_lace_benchmark(dfs)
weft_bench_test(dfs-lace ${B}/dfs-lace -w 3 4 6 500 2)
if(TARGET weft_uts_tree)
  weft_lace_benchmark(uts LIBS weft_uts_tree)
  weft_bench_test(uts-T1-lace ${B}/uts-lace -w 3 -t 1 -a 3 -d 10 -b 4 -r 19)
  if(NOT WEFT_SANITIZE)
    # T3L at the default 8 MB process stack, through the Lace API: the
    # program Lace 1.4.2 runs out of stack on.
    weft_bench_test(uts-T3L-lace-ulimit8M bash -c
      "ulimit -s 8192 && exec ${B}/uts-lace -w 2 -t 0 -b 2000 -q 0.200014 -m 5 -r 7")
  endif()
endif()
