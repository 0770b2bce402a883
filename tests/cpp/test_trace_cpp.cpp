// SPDX-License-Identifier: Apache-2.0
// The timeline names the C++ API's tasks (docs/timeline.md): at 2
// workers, a RUN's root under weft::named carries its name; a join's
// spawned branch that the other worker steals carries weft::named's name,
// or, unnamed, its lambda's type (the function it is written in); a
// task_group task the other worker steals likewise.  Each task that must
// be stolen is waited for by its parent (at most 20 s), so the thief's
// start is certain.  Tracing builds only (tests/cpp/CMakeLists.txt).
#include <weft/trace.h>
#include <weft/weft.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>

#include "check.hpp"

#if !WEFT_TRACE
#error "test_trace_cpp is built only with -DWEFT_TRACE=ON"
#endif

static std::atomic<bool> started{false};

/// True once the task that sets `started` runs on another worker.
static bool wait_started()
{
    for (int i = 0; i < 200000 && !started.load(); i++)
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    return started.load();
}

/// join(wait, g): g is spawned and waited for until the other worker has
/// started it.
template <class G>
static int join_stolen(G &&g, const char *what)
{
    started = false;
    auto [a, b] = weft::join([] { return wait_started() ? 1 : 0; }, std::forward<G>(g));
    CHECK(a == 1 && b == 2, "the %s branch was not stolen (%d, %d)", what, a, b);
    return a + b;
}

static int named_branch()
{
    return join_stolen(weft::named("stolen branch",
                                   [] {
                                       started = true;
                                       return 2;
                                   }),
                       "named");
}

static int unnamed_branch_case()
{
    return join_stolen(
        [] {
            started = true;
            return 2;
        },
        "unnamed");
}

static int group_case()
{
    started = false;
    weft::task_group tg;
    tg.run(weft::named("group task", [] { started = true; }));
    bool stolen = wait_started();
    tg.wait();
    CHECK(stolen, "the group's task was not stolen");
    return 1;
}

/// The trace has a task slice of this name.
static bool has_task(const std::string &trace, const std::string &name)
{
    return trace.find("{\"name\":\"" + name + "\",\"cat\":\"task\"") != std::string::npos;
}

/// The trace has a task slice whose name begins with `prefix` (a
/// lambda's name after it is the compiler's: "{lambda()#2}", "$_1").
static bool has_task_named_from(const std::string &trace, const std::string &prefix)
{
    std::string start = "{\"name\":\"" + prefix;
    for (std::size_t at = trace.find(start); at != std::string::npos;
         at = trace.find(start, at + 1)) {
        static const std::string task_cat = "\",\"cat\":\"task\"";
        std::size_t end = trace.find("\",", at + start.size());
        if (end != std::string::npos && trace.compare(end, task_cat.size(), task_cat) == 0)
            return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: test_trace_cpp <trace file>");
    const char *path = argv[1];
    {
        weft::scheduler pool(2);
        CHECK(weft_trace_start(path) == 0, "trace start");
        int total = weft::run(weft::named(
            "traced root", [] { return named_branch() + unnamed_branch_case() + group_case(); }));
        CHECK(total == 7, "the root returned %d", total);
        CHECK(weft_trace_stop() == 0, "trace stop");
    }
    std::ifstream in(path);
    std::string trace((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(!trace.empty(), "no trace in %s", path);
    CHECK(has_task(trace, "traced root"), "no slice of the named RUN root");
    CHECK(has_task(trace, "stolen branch"), "no slice of the named stolen branch");
    CHECK(has_task(trace, "group task"), "no slice of the named group task");
    CHECK(has_task_named_from(trace, "unnamed_branch_case()::"),
          "no slice of the unnamed stolen branch under its lambda's name");
    std::remove(path);
    std::puts("ok: the timeline names the C++ tasks a thief or a RUN starts");
    return 0;
}
