// SPDX-License-Identifier: Apache-2.0
/* Tasks shared by a C and a C++ translation unit: declared here (TASK_DECL),
 * defined in c_tasks.c (C) and in test_cxx.cpp (C++), each used from the
 * other language. */
#ifndef WEFT_TESTS_CXX_SHARED_TASKS_H
#define WEFT_TESTS_CXX_SHARED_TASKS_H

#include <lace.h>

/* Defined in C. */
TASK_DECL_1(long, c_fib, int);
VOID_TASK_DECL_2(c_count, long *, int);
/* Defined in C++. */
TASK_DECL_2(long, cxx_sum, long, long);

WEFT_BEGIN_DECLS
/* sizeof/offsetof of weft's structs as the C side sees them, and a C task
 * that spawns the C++ task. */
void c_layout(size_t *out, int n);
long c_calls_cxx(long a, long b);
WEFT_END_DECLS

/* The layout both languages must agree on. */
#define SHARED_LAYOUT(X) \
    X(sizeof(weft_worker)) \
    X(offsetof(weft_worker, own)) \
    X(offsetof(weft_worker, shared)) \
    X(offsetof(weft_worker, sleep_word)) \
    X(offsetof(weft_worker, joining)) \
    X(offsetof(weft_worker, rng)) \
    X(offsetof(weft_worker, cold)) \
    X(sizeof(weft_task)) \
    X(sizeof(Task)) \
    X(offsetof(Task, f)) \
    X(sizeof(lace_newframe_t))

#endif
