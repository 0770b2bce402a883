// SPDX-License-Identifier: Apache-2.0
// What a C++ exception in a Lace 1 program is told, in Lace's words
// ("lace:", not weft's own C task macros' advice):
//   - one thrown by a task body stops the program with one message naming
//     the task and the exception, whether the task runs inline at its SYNC
//     or on a thief (2 workers);
//   - a weft::join whose first branch throws with a Lace SPAWN of its own
//     still pending is refused naming the join, not a DROP() the program
//     never wrote.
// Each case runs in a child; in modes 1.4 and 1.6.
#include <lace.h>
#include <weft/weft.hpp>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cpp/child.hpp"

TASK_1(long, thrower, int, n)
{
    if (n == 3)
        throw std::runtime_error("thrown by thrower");
    return n;
}

TASK_1(long, spawner, int, n)
{
    for (int i = 0; i < n; i++)
        SPAWN(thrower, i);
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += SYNC(thrower);
    return sum;
}

TASK_0(long, join_throws_over_spawn)
{
    try {
        auto r = weft::join(
            [] {
                LACE_ME;
                SPAWN(thrower, 1);
                throw std::runtime_error("left with a SPAWN pending");
                return 0L;
            },
            [] { return 2L; });
        return r.first + r.second;
    } catch (const std::runtime_error &) {
        return -1;
    }
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        lace_start(workers_from_env(1), 0);
        if (std::strcmp(argv[1], "spawned") == 0)
            (void)RUN(spawner, 64);
        else if (std::strcmp(argv[1], "join_throws_over_spawn") == 0)
            (void)RUN(join_throws_over_spawn);
        else
            return 2;
        lace_stop();
        return 0;
    }
    std::string self = self_path();
    (void)&expect_ok; // child.hpp's helpers this test does not need
    (void)&wait_for_thief;
    for (const char *w : {"CASE_WORKERS=1", "CASE_WORKERS=2"}) {
        child_result r = run_child(self.c_str(), "spawned", {w});
        CHECK(!exited_ok(r), "spawned (%s) was accepted", w);
        CHECK(r.err.find("lace: a C++ exception (thrown by thrower) left task thrower: catch it "
                         "in the task (a Lace task cannot pass an exception on") == 0,
              "spawned (%s): not Lace's one message: %s", w, r.err.c_str());
        CHECK(r.err.find("terminate called") == std::string::npos, "spawned (%s): %s", w,
              r.err.c_str());
    }
    expect_stop(self.c_str(), "join_throws_over_spawn", {"CASE_WORKERS=1"},
                "lace: weft::join, left by an exception, on worker 0 joins the task in slot 0 "
                "while the task above it, spawned later, is still pending");
    std::printf("test_lace_throw: ok\n");
    return 0;
}
