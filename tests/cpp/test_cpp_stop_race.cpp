// SPDX-License-Identifier: Apache-2.0
// weft:: calls from outside the pool racing weft_stop() on another thread:
// each call runs on the pool that is stopping (the stop waits for it) or
// starts the default pool again (weft.hpp, "The pool"); none may stop the
// program with "RUN called while the pool is not running", and every
// answer is right.  Three calling threads against a thread that stops and
// restarts pools of 1, 2, 3, 8 and 32 workers.
#include <weft/weft.hpp>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <thread>
#include <vector>

#include "check.hpp"

static long fib(int n)
{
    if (n < 2)
        return n;
    auto [a, b] = weft::join([n] { return fib(n - 1); }, [n] { return fib(n - 2); });
    return a + b;
}

int main()
{
    for (unsigned workers : {1u, 2u, 3u, 8u, 32u}) {
        std::atomic<bool> done{false};
        std::atomic<long> calls{0};
        std::vector<std::thread> callers;
        for (int k = 0; k < 3; k++)
            callers.emplace_back([&done, &calls, k] {
                // Relaxed: a flag that ends the loop, nothing published by it.
                while (!done.load(std::memory_order_relaxed)) {
                    long got = k == 0 ? weft::run([] { return fib(12); })
                                      : weft::parallel_reduce(
                                            0, 100, std::size_t{8}, 0L, [](int i) { return i; },
                                            [](long a, long b) { return a + b; });
                    CHECK(got == (k == 0 ? 144 : 4950), "an answer while the pool stops: %ld", got);
                    calls.fetch_add(1, std::memory_order_relaxed); // relaxed: a count
                }
            });
        int stops = 0;
        for (int round = 0; round < 40; round++) {
            // The callers may have started a default pool since the stop
            // below: then it is the one stopped here.
            int err = weft_start(workers, 0, 0);
            CHECK(err == 0 || err == EBUSY, "weft_start(%u): %d", workers, err);
            std::this_thread::sleep_for(std::chrono::microseconds(200 + 50 * (round % 7)));
            if (weft_stop() == 0)
                stops++;
        }
        done.store(true, std::memory_order_relaxed); // relaxed: see the load
        for (std::thread &t : callers)
            t.join();
        if (weft_workers() != 0)
            CHECK(weft_stop() == 0, "the last default pool stops");
        CHECK(stops > 0, "no stop succeeded at %u workers", workers);
        std::printf("ok: %u workers, %d stops, %ld calls\n", workers, stops, calls.load());
    }
    std::printf("test_cpp_stop_race: all passed\n");
    return 0;
}
