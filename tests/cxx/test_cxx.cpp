// SPDX-License-Identifier: Apache-2.0
// weft's headers as C++17: lace.h (and through it weft.h) in a C++
// translation unit that declares, spawns and syncs tasks, uses tasks
// defined in C (shared_tasks.h) and lets C spawn a task defined here; both
// languages see one layout.  short.h is compiled as C++ in short_names.cpp.
#include "shared_tasks.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(cond, what) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, what); \
            std::exit(1); \
        } \
    } while (0)

TASK_IMPL_2(long, cxx_sum, long, a, long, b) { return a + b; }

TASK_1(long, cxx_fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(cxx_fib, n - 1);
    long b = CALL(cxx_fib, n - 2);
    return SYNC(cxx_fib) + b;
}

// A C++ task that spawns C tasks, keeps their Task *, and inspects them.
TASK_1(long, cxx_mix, int, n)
{
    std::vector<Task *> spawned;
    for (int i = 0; i < n; i++)
        spawned.push_back(SPAWN(c_fib, 15));
    long s = 0;
    for (int i = 0; i < n; i++) {
        CHECK(spawned[i]->f == spawned[0]->f, "f of tasks of one definition");
        s += SYNC(c_fib);
    }
    long out = 0;
    CALL(c_count, &out, 5);
    return s + out + CALL(cxx_fib, 10);
}

VOID_TASK_0(cxx_together) { lace_barrier(); }

int main()
{
    size_t c_side[16] = {0}, cxx_side[16] = {0};
    c_layout(c_side, 16);
    int i = 0;
#define CXX_LAYOUT_ONE(v) cxx_side[i++] = (v);
    SHARED_LAYOUT(CXX_LAYOUT_ONE)
    for (int k = 0; k < i; k++)
        CHECK(c_side[k] == cxx_side[k], "C and C++ agree on the layout");

    lace_start(2, 0);
    CHECK(RUN(cxx_fib, 20) == 6765, "C++ task");
    CHECK(RUN(c_fib, 20) == 6765, "C task run from C++");
    CHECK(RUN(cxx_mix, 8) == 8 * 610 + 5 + 55, "C++ spawning C tasks");
    CHECK(c_calls_cxx(3, 4) == 14, "C spawning a C++ task");
    TOGETHER(cxx_together);
    CHECK(NEWFRAME(cxx_fib, 12) == 144, "NEWFRAME from C++");
    lace_stop();
    std::printf("C++: all checks passed (%d layout values agree)\n", i);
    return 0;
}
