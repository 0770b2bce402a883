# The benchmarks written against Lace's API (<lace.h>, docs/lace.md): a
# <name>-lace.c beside a benchmark's sources builds <name>-lace, linked with
# lace::lace (the harness's weft-lace-api system runs them).
# weft_lace_benchmark(<name> [SOURCES extra.c...] [LIBS libs...])
function(weft_lace_benchmark name)
  cmake_parse_arguments(B "" "" "SOURCES;LIBS" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  list(TRANSFORM B_SOURCES PREPEND ${dir}/)
  add_executable(${name}-lace ${dir}/${name}-lace.c ${B_SOURCES})
  target_include_directories(${name}-lace PRIVATE ${PROJECT_SOURCE_DIR}/bench/common ${dir})
  target_compile_definitions(${name}-lace PRIVATE _GNU_SOURCE)
  target_compile_options(${name}-lace PRIVATE ${WEFT_WARNINGS})
  target_link_libraries(${name}-lace PRIVATE lace::lace ${B_LIBS})
endfunction()

weft_lace_benchmark(fib)
weft_bench_test(fib-lace ${B}/fib-lace -w 3 27)
