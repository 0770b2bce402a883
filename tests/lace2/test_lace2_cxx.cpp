// SPDX-License-Identifier: Apache-2.0
// Lace 2's lace.h from C++, as Lace 2 clients include it: tasks declared,
// defined and run in a C++ translation unit.  LACE2_TEST_HEADER 32 or 128
// picks lace32.h or lace128.h instead (compiled, not run, by ctest).
#if LACE2_TEST_HEADER == 32
#include <lace32.h>
#elif LACE2_TEST_HEADER == 128
#include <lace128.h>
#else
#include <lace.h>
#endif

#include <cstdio>
#include <cstdlib>
#include <vector>

TASK(int, fib, int, n)

int fib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    fib_SPAWN(lw, n - 1);
    int b = fib_CALL(lw, n - 2);
    return fib_SYNC(lw) + b;
}

TASK(void, fill, std::vector<int> *, v, int, lo, int, hi)

void fill_CALL(lace_worker *lw, std::vector<int> *v, int lo, int hi)
{
    if (hi - lo <= 16) {
        for (int i = lo; i < hi; i++)
            (*v)[i] = i * i;
        return;
    }
    int mid = lo + (hi - lo) / 2;
    fill_SPAWN(lw, v, lo, mid);
    fill_CALL(lw, v, mid, hi);
    fill_SYNC(lw);
}

static std::atomic<int> copies{0};

TASK(void, each)

void each_CALL(lace_worker *)
{
    copies++;
    lace_barrier();
}

static int fail(const char *what)
{
    std::fprintf(stderr, "test_lace2_cxx: %s\n", what);
    return 1;
}

int main()
{
    lace_start(2, 0, 0);
    if (fib(24) != 46368)
        return fail("fib(24)");
    std::vector<int> v(1000);
    fill(&v, 0, 1000);
    for (int i = 0; i < 1000; i++)
        if (v[i] != i * i)
            return fail("fill");
    each_TOGETHER();
    if (copies != 2)
        return fail("TOGETHER copies");
    if (fib_NEWFRAME(20) != 6765)
        return fail("NEWFRAME");
    lace_stop();
    std::printf("lace2 C++: ok\n");
    return 0;
}
