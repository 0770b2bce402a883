# SPDX-License-Identifier: Apache-2.0
# The benchmarks written with the C++ API (<weft/weft.hpp>, docs/cpp.md):
# bench/<name>/<name>-cpp.cpp is the kernel, written as the oneTBB and
# OpenMP peers' kernels are, and the program is completed by the peers'
# own driver (bench/peers/cpp/<name>/<name>-main.c: the command line,
# input, output and answer check of <name>-weft), their C bridges to the
# C-only headers, and common/peer-weft.cpp (the pool, a weft::scheduler).
# The harness's weft-cpp system runs them.  Built when a C++ compiler is
# there (bench/CMakeLists.txt enables C++ then).
if(NOT CMAKE_CXX_COMPILER)
  message(STATUS "weft: no C++ compiler, the <name>-cpp benchmarks are not built")
  return()
endif()
set(WEFT_PEERS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/peers/cpp)

# weft_cpp_benchmark(<name> [BRIDGE] [LIBS libs...]): BRIDGE adds the peers'
# <name>-bridge.c.
function(weft_cpp_benchmark name)
  cmake_parse_arguments(B "BRIDGE" "" "LIBS" ${ARGN})
  set(peer ${WEFT_PEERS_DIR}/${name})
  set(sources ${CMAKE_CURRENT_SOURCE_DIR}/${name}/${name}-cpp.cpp ${peer}/${name}-main.c
    ${CMAKE_CURRENT_SOURCE_DIR}/common/peer-weft.cpp)
  if(B_BRIDGE)
    list(APPEND sources ${peer}/${name}-bridge.c)
  endif()
  add_executable(${name}-cpp ${sources})
  target_include_directories(${name}-cpp PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common
    ${CMAKE_CURRENT_SOURCE_DIR}/${name} ${WEFT_PEERS_DIR}/common ${peer})
  target_compile_definitions(${name}-cpp PRIVATE _GNU_SOURCE)
  target_compile_options(${name}-cpp PRIVATE ${WEFT_WARNINGS})
  target_link_libraries(${name}-cpp PRIVATE weft::cpp Threads::Threads ${B_LIBS})
  set_target_properties(${name}-cpp PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF)
endfunction()

weft_cpp_benchmark(fib)
weft_bench_test(fib-cpp ${B}/fib-cpp -w 3 27)
weft_cpp_benchmark(queens)
weft_bench_test(queens-cpp ${B}/queens-cpp -w 3 10)
weft_cpp_benchmark(knapsack)
weft_bench_test(knapsack-cpp ${B}/knapsack-cpp -w 3 40 1)
weft_cpp_benchmark(matmul BRIDGE LIBS m)
weft_bench_test(matmul-cpp ${B}/matmul-cpp -w 3 256)
weft_cpp_benchmark(strassen BRIDGE)
weft_bench_test(strassen-cpp ${B}/strassen-cpp -w 3 128 8)
weft_cpp_benchmark(cilksort)
weft_bench_test(cilksort-cpp ${B}/cilksort-cpp -w 3 100000)
weft_bench_test(cilksort-cpp-odd ${B}/cilksort-cpp -w 3 54321)
if(TARGET weft_uts_tree)
  weft_cpp_benchmark(uts LIBS weft_uts_tree)
  weft_bench_test(uts-T1-cpp ${B}/uts-cpp -w 3 -t 1 -a 3 -d 10 -b 4 -r 19)
  weft_bench_test(uts-T3-cpp ${B}/uts-cpp -w 8 -t 0 -b 2000 -q 0.124875 -m 8 -r 42)
endif()
