# The benchmarks written with the C++ API (<weft/weft.hpp>, docs/cpp.md): a
# <name>-cpp.cpp beside a benchmark's sources builds <name>-cpp, linked with
# weft::cpp (the harness's weft-cpp system runs them).  Only this file
# enables C++, and only when a C++ compiler is there.
include(CheckLanguage)
check_language(CXX)
if(NOT CMAKE_CXX_COMPILER)
  message(STATUS "weft: no C++ compiler, the <name>-cpp benchmarks are not built")
  return()
endif()
enable_language(CXX)

# weft_cpp_benchmark(<name> [SOURCES extra.c...] [LIBS libs...])
function(weft_cpp_benchmark name)
  cmake_parse_arguments(B "" "" "SOURCES;LIBS" ${ARGN})
  set(dir ${CMAKE_CURRENT_SOURCE_DIR}/${name})
  list(TRANSFORM B_SOURCES PREPEND ${dir}/)
  add_executable(${name}-cpp ${dir}/${name}-cpp.cpp ${B_SOURCES})
  target_include_directories(${name}-cpp PRIVATE ${PROJECT_SOURCE_DIR}/bench/common ${dir})
  target_compile_definitions(${name}-cpp PRIVATE _GNU_SOURCE BENCH_WEFT)
  target_compile_options(${name}-cpp PRIVATE ${WEFT_WARNINGS})
  target_link_libraries(${name}-cpp PRIVATE weft::cpp ${B_LIBS})
  set_target_properties(${name}-cpp PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF)
endfunction()

weft_cpp_benchmark(fib)
weft_bench_test(fib-cpp ${B}/fib-cpp -w 3 27)
