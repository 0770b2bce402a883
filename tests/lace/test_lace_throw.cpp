// SPDX-License-Identifier: Apache-2.0
// What a C++ exception in a Lace 1 program is told, in Lace's words
// ("lace:", not weft's own C task macros' advice):
//   - one thrown by a task body stops the program with one message naming
//     the task and the exception, whether the task runs inline at its SYNC
//     or on a thief (2 workers);
//   - one thrown through a task compiled as C and caught above it leaves
//     that task's SPAWNs pending: the next SPAWN is refused naming it;
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

// The task compiled as C (throw_through_c.c) and the hook it calls.
extern "C" {
TASK_DECL_1(long, c_spawner, int);
void lace_throw_hook(int n)
{
    if (n == 0)
        throw std::runtime_error("thrown through C");
}
}

// A C++ task catches an exception that passed through a task compiled as
// C: C frames cannot catch it, so the C task's SPAWNs stay pending, and
// the next SPAWN here is refused naming that cause among the others.
TASK_0(long, catches_through_c)
{
    try {
        return CALL(c_spawner, 3);
    } catch (const std::runtime_error &) {
    }
    SPAWN(thrower, 1);
    return SYNC(thrower);
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        lace_start(workers_from_env(1), 0);
        if (std::strcmp(argv[1], "spawned") == 0)
            (void)RUN(spawner, 64);
        else if (std::strcmp(argv[1], "join_throws_over_spawn") == 0)
            (void)RUN(join_throws_over_spawn);
        else if (std::strcmp(argv[1], "catches_through_c") == 0)
            (void)RUN(catches_through_c);
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
    expect_stop(self.c_str(), "catches_through_c", {"CASE_WORKERS=1"},
                "holds a task still pending, spawned since this task body read its head");
    expect_stop(self.c_str(), "catches_through_c", {"CASE_WORKERS=1"},
                "or left by a task compiled as C that a C++ exception passed through (C code "
                "cannot catch it; its SPAWNs stay pending)");
    std::printf("test_lace_throw: ok\n");
    return 0;
}
