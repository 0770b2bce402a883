// SPDX-License-Identifier: Apache-2.0
// A C++ exception thrown by a Lace 2 task body stops the program with one
// "lace:" message naming the task and the exception, wherever the task
// runs: inline at its SYNC, on a thief (at 2 workers), from NAME() on a
// worker and from NAME() outside the pool.  Each case runs in a child.
#include <lace.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cpp/child.hpp"

TASK(long, thrower, int, n)

long thrower_CALL(lace_worker *lw, int n)
{
    (void)lw;
    if (n == 3)
        throw std::runtime_error("thrown by thrower");
    return n;
}

TASK(long, spawner, int, n)

long spawner_CALL(lace_worker *lw, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        thrower_SPAWN(lw, i);
    for (int i = 0; i < n; i++)
        sum += thrower_SYNC(lw);
    return sum;
}

TASK(void, void_thrower, int, n)

void void_thrower_CALL(lace_worker *lw, int n)
{
    (void)lw;
    if (n == 3)
        throw 7;
}

TASK(void, void_spawner, int, n)

void void_spawner_CALL(lace_worker *lw, int n)
{
    for (int i = 0; i < n; i++)
        void_thrower_SPAWN(lw, i);
    for (int i = 0; i < n; i++)
        void_thrower_SYNC(lw);
}

TASK(long, calls_thrower)

long calls_thrower_CALL(lace_worker *lw)
{
    (void)lw;
    return thrower(3); // NAME() on a worker
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        unsigned workers = workers_from_env(1);
        lace_start(workers, 0, 0);
        if (std::strcmp(argv[1], "spawned") == 0)
            (void)spawner(64);
        else if (std::strcmp(argv[1], "void_spawned") == 0)
            void_spawner(64);
        else if (std::strcmp(argv[1], "name_on_worker") == 0)
            (void)calls_thrower();
        else if (std::strcmp(argv[1], "name_outside") == 0)
            (void)thrower(3);
        else
            return 2;
        lace_stop();
        return 0;
    }
    std::string self = self_path();
    (void)&expect_ok; // child.hpp's helpers this test does not need
    (void)&wait_for_thief;
    for (const char *w : {"CASE_WORKERS=1", "CASE_WORKERS=2"}) {
        for (const char *c : {"spawned", "name_on_worker", "name_outside"}) {
            child_result r = run_child(self.c_str(), c, {w});
            CHECK(!exited_ok(r), "case %s (%s) was accepted", c, w);
            CHECK(r.err.find("lace: a C++ exception (thrown by thrower) left task thrower: catch "
                             "it in the task") != std::string::npos,
                  "case %s (%s): no message naming the task in: %s", c, w, r.err.c_str());
            CHECK(r.err.find("terminate called") == std::string::npos,
                  "case %s (%s): std::terminate: %s", c, w, r.err.c_str());
        }
        expect_stop(self.c_str(), "void_spawned", {w},
                    "lace: a C++ exception (not a std::exception) left task void_thrower");
    }
    std::printf("test_lace2_throw: ok\n");
    return 0;
}
