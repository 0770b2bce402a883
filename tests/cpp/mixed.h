// SPDX-License-Identifier: Apache-2.0
/* What the C and C++ halves of test_cpp_mixed call of each other. */
#ifndef WEFT_TESTS_CPP_MIXED_H
#define WEFT_TESTS_CPP_MIXED_H

#define MIXED_LEAF 1000

#ifdef __cplusplus
extern "C" {
#endif
/* C++ (test_cpp_mixed.cpp), on a worker. */
long cpp_range_sum(long lo, long hi);
long cpp_fib(int n);
/* C (mixed_c.c): WEFT_RUN from anywhere; a CALL on a worker. */
long c_tree_run(int depth);
long c_fib_here(int n);
#ifdef __cplusplus
}
#endif

#endif
