// SPDX-License-Identifier: Apache-2.0
// CHECK for the C++ API's tests: a message naming the condition, exit 1.
#ifndef WEFT_TESTS_CPP_CHECK_HPP
#define WEFT_TESTS_CPP_CHECK_HPP

#include <cstdio>
#include <cstdlib>

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__); \
            std::fputc('\n', stderr); \
            std::exit(1); \
        } \
    } while (0)

#endif
