// SPDX-License-Identifier: Apache-2.0
// The lifecycle messages of a program that mixes a Lace API with weft's C
// and C++ APIs: each names the API of the call that failed and, where it
// names the pool's starter, the API that started it (docs/lace.md,
// "Mixing with weft's own APIs"); a DROP refused on a worker names the
// DROP as written, with the pool's prefix (docs/lace.md, "Differences
// from Lace").  Built once against Lace 1's lace.h
// (1.4) and once against Lace 2's; each case runs in a child process (this
// program started again with the case's name), whose exit and stderr are
// checked: every line of stderr that speaks for weft or Lace ("weft: ",
// "lace: ") must be the one expected, word for word.
//
//     test_mixed_messages_lace14       every case
//     test_mixed_messages_lace14 <case>   one case, in this process
#include <weft/weft.hpp>

#include <lace.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>

#include <sys/wait.h>

// run_child and self_path; not the other helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "cpp/child.hpp"
#pragma GCC diagnostic pop

namespace {

long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

} // namespace

WEFT_TASK_1(long, wfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(wfib, n - 1);
    long b = WEFT_CALL(wfib, n - 2);
    return WEFT_SYNC(wfib) + b;
}

#if LACE_VERSION_MAJOR >= 2
TASK(long, lfib, int, n)
long lfib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    lfib_SPAWN(lw, n - 1);
    long b = lfib_CALL(lw, n - 2);
    return lfib_SYNC(lw) + b;
}
#define LACE_RUN(NAME, ...) NAME(__VA_ARGS__)
#define LACE_START(n) lace_start((n), 0, 0)
#define LACE_START_CALL "lace_start(2, 0, 0)"

// A Lace DROP under a weft task still pending above it: refused.
TASK(long, lace_drop_under_weft, int, n)
long lace_drop_under_weft_CALL(lace_worker *lw, int n)
{
    lfib_SPAWN(lw, n);
    WEFT_ME;
    WEFT_SPAWN(wfib, n);
    lfib_DROP(lw);
    return WEFT_SYNC(wfib);
}
#define LACE_DROP_CALL "lfib_DROP()"

// A weft DROP under a Lace task still pending above it: refused.
WEFT_TASK_1(long, weft_drop_under_lace, int, n)
{
    WEFT_SPAWN(wfib, n);
    lace_worker *lw = lace_get_worker();
    lfib_SPAWN(lw, n);
    WEFT_DROP(wfib);
    return lfib_SYNC(lw);
}
#else
TASK_1(long, lfib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(lfib, n - 1);
    long b = CALL(lfib, n - 2);
    return SYNC(lfib) + b;
}
#define LACE_RUN(NAME, ...) RUN(NAME, __VA_ARGS__)
#define LACE_START(n) lace_start((n), 0)
#define LACE_START_CALL "lace_start(2, 0)"

// A Lace DROP under a weft task still pending above it: refused.
TASK_1(long, lace_drop_under_weft, int, n)
{
    SPAWN(lfib, n);
    WEFT_ME;
    WEFT_SPAWN(wfib, n);
    DROP();
    return WEFT_SYNC(wfib);
}
#define LACE_DROP_CALL "DROP()"

// A weft DROP under a Lace task still pending above it: refused.
WEFT_TASK_1(long, weft_drop_under_lace, int, n)
{
    WEFT_SPAWN(wfib, n);
    LACE_ME;
    SPAWN(lfib, n);
    WEFT_DROP(wfib);
    return SYNC(lfib);
}
#endif

namespace {

void parallel_for_from_main()
{
    std::atomic<int> sum{0};
    weft::parallel_for(0, 100, [&](int i) { sum += i; });
    CHECK(sum.load() == 4950, "parallel_for: %d", sum.load());
}

// ---- the cases -------------------------------------------------------------

// The C++ default pool runs (the first weft:: call started it): lace_start
// cannot start a second pool, and says whose pool runs.
void case_cpp_then_lace_start()
{
    parallel_for_from_main();
    LACE_START(2);
}

// What that message advises: weft_stop, then lace_start; the weft:: calls
// then run on Lace's pool, and a weft::scheduler made later finds Lace's
// pool, not the default one, and leaves it running.
void case_cpp_stop_then_lace_start()
{
    parallel_for_from_main();
    CHECK(weft_stop() == 0, "weft_stop of the default pool");
    LACE_START(2);
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN");
    parallel_for_from_main();
    CHECK(weft::workers() == 2, "the weft:: calls run on Lace's pool of 2");
    bool refused = false;
    try {
        weft::scheduler pool(3);
    } catch (const std::system_error &e) {
        refused = e.code().value() == EBUSY;
    }
    CHECK(refused, "the scheduler is refused with EBUSY");
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace still runs");
    CHECK(weft::workers() == 2, "Lace's pool of 2 still runs");
    lace_stop();
}

// lace_start, then a weft::scheduler: EBUSY, and the message names the
// scheduler and lace_start.
void case_lace_then_scheduler()
{
    LACE_START(2);
    bool refused = false;
    try {
        weft::scheduler pool(2);
    } catch (const std::system_error &e) {
        refused = e.code().value() == EBUSY;
    }
    CHECK(refused, "the scheduler is refused with EBUSY");
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace still runs");
    lace_stop();
}

// lace_start, then weft_start: EBUSY, naming both.
void case_lace_then_weft_start()
{
    LACE_START(2);
    CHECK(weft_start(2, 0, 0) == EBUSY, "weft_start refused");
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace still runs");
    lace_stop();
}

// lace_start, then weft_stop: EBUSY, naming lace_stop; Lace still runs,
// and its own stop stops it.
void case_lace_then_weft_stop()
{
    LACE_START(2);
    CHECK(weft_stop() == EBUSY, "weft_stop refused");
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace still runs");
    lace_stop();
    CHECK(weft_workers() == 0, "lace_stop stopped the pool");
}

// lace_start, then weft_suspend, then a Lace RUN from the same thread:
// it waits for weft_resume, which another thread makes, and says so (a
// suspension only of Lace's own would let it in).
void case_lace_then_weft_suspend_then_lace_run()
{
    LACE_START(2);
    CHECK(weft_suspend() == 0, "weft_suspend of Lace's pool");
    std::thread resumer([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        CHECK(weft_resume() == 0, "weft_resume");
    });
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN after the resume");
    resumer.join();
    lace_stop();
}

// lace_start, lace_suspend, then weft_resume: EINVAL, saying that
// lace_resume ends that suspension, which stays in force (a RUN from
// outside still runs, as under Lace's rules); lace_resume ends it.
void case_lace_suspend_then_weft_resume()
{
    LACE_START(2);
    lace_suspend();
    CHECK(weft_resume() == EINVAL, "weft_resume of Lace's suspension refused");
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN while Lace's suspension holds");
    lace_resume();
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN after lace_resume");
    lace_stop();
}

// weft_start, then lace_start: the program stops, naming weft_start.
void case_weft_start_then_lace_start()
{
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
    LACE_START(2);
}

// weft's C++ default pool, then weft_start: EBUSY, naming the default pool.
void case_cpp_then_weft_start()
{
    parallel_for_from_main();
    CHECK(weft_start(2, 0, 0) == EBUSY, "weft_start refused");
    parallel_for_from_main();
}

// weft_start, then a weft::scheduler: EBUSY, naming the scheduler (not
// weft_start) as the start refused.
void case_weft_start_then_scheduler()
{
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
    bool refused = false;
    try {
        weft::scheduler pool(2);
    } catch (const std::system_error &e) {
        refused = e.code().value() == EBUSY;
    }
    CHECK(refused, "the scheduler is refused with EBUSY");
    CHECK(weft_stop() == 0, "weft_stop");
}

// Lace started and stopped, then weft's own pool started and stopped: a
// weft RUN after weft_stop speaks weft, not Lace.
void case_weft_run_after_stop()
{
    LACE_START(2);
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN");
    lace_stop();
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
    CHECK(WEFT_RUN(wfib, 15) == fib_seq(15), "WEFT_RUN");
    CHECK(weft_stop() == 0, "weft_stop");
    (void)WEFT_RUN(wfib, 15);
}

// weft's pool, with a Lace RUN from outside on it (Lace never started):
// a weft RUN after weft_stop still speaks weft.
void case_lace_run_on_weft_pool_then_weft_run()
{
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN on weft's pool");
    CHECK(weft_stop() == 0, "weft_stop");
    (void)WEFT_RUN(wfib, 15);
}

// weft's barrier from outside the pool, after Lace spoke: weft's words.
void case_weft_barrier_after_lace()
{
    LACE_START(2);
    CHECK(LACE_RUN(lfib, 15) == fib_seq(15), "Lace's RUN");
    lace_stop();
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
    weft_barrier();
}

// WEFT_ME on a thread that is not a worker, with Lace's pool running.
void case_weft_me_on_lace_pool()
{
    LACE_START(2);
    WEFT_ME;
    (void)weft_w;
    (void)weft_head;
}

// A Lace DROP refused in weft_start's pool: named as the program wrote it,
// with the pool's prefix.
void case_lace_drop_in_weft_pool()
{
    CHECK(weft_start(1, 0, 0) == 0, "weft_start");
    (void)LACE_RUN(lace_drop_under_weft, 5);
}

// WEFT_DROP refused in lace_start's pool: named WEFT_DROP, with Lace's prefix.
void case_weft_drop_in_lace_pool()
{
    LACE_START(1);
    (void)WEFT_RUN(weft_drop_under_lace, 5);
}

// ---- the table -------------------------------------------------------------

struct expected_case {
    const char *name;
    void (*fn)();
    bool aborts;      // else exits 0
    const char *line; // the one weft or Lace line on stderr, without its newline; or NULL
};

#define NOT_RUNNING_WEFT \
    "weft: RUN called while the pool is not running (call weft_start first, and do not RUN " \
    "during or after weft_stop; from C++, a weft::scheduler or the first weft:: call starts " \
    "the pool)"

#define JOIN_REFUSED \
    "on worker 0 joins the task in slot 0 while the task above it, spawned later, is still " \
    "pending: spawns and joins nest, the newest joined first, whichever API or copy of the head " \
    "made them (a C++ task_group's run, a SPAWN of another API or from another copy of the " \
    "head, not joined yet, a SPAWN of a task compiled as C that a C++ exception passed " \
    "through, or a SPAWN left by a task that returned without joining it (a build with " \
    "WEFT_CHECKS names that task as it returns); docs/design.md, \"Mixing the APIs\")"

const expected_case cases[] = {
    {"cpp_then_lace_start", case_cpp_then_lace_start, true,
     "lace: " LACE_START_CALL " called while weft's C++ default pool (the first weft:: call "
     "started it) is running: lace_start cannot start a second pool (call weft_stop first, or "
     "start the pool before the first weft:: call, which then runs on it)"},
    {"cpp_stop_then_lace_start", case_cpp_stop_then_lace_start, false,
     "weft: weft::scheduler: the pool lace_start started is running, and only one pool runs at a "
     "time (call lace_stop first)"},
    {"lace_then_scheduler", case_lace_then_scheduler, false,
     "weft: weft::scheduler: the pool lace_start started is running, and only one pool runs at a "
     "time (call lace_stop first)"},
    {"lace_then_weft_start", case_lace_then_weft_start, false,
     "weft: weft_start: the pool lace_start started is running, and only one pool runs at a time "
     "(call lace_stop first)"},
    {"lace_then_weft_stop", case_lace_then_weft_stop, false,
     "weft: weft_stop: the running pool is the pool lace_start started, which lace_stop stops: it "
     "is left running"},
    {"lace_then_weft_suspend_then_lace_run", case_lace_then_weft_suspend_then_lace_run, false,
     "lace: RUN while the pool is suspended: it waits for weft_resume()"},
    {"lace_suspend_then_weft_resume", case_lace_suspend_then_weft_resume, false,
     "weft: weft_resume: no weft_suspend is in force: the pool is suspended only by "
     "lace_suspend, which lace_resume ends"},
    {"weft_start_then_lace_start", case_weft_start_then_lace_start, true,
     "lace: " LACE_START_CALL " called while the pool weft_start started is running: lace_start "
     "cannot start a second pool (call weft_stop first)"},
    {"cpp_then_weft_start", case_cpp_then_weft_start, false,
     "weft: weft_start: weft's C++ default pool (the first weft:: call started it) is running, "
     "and only one pool runs at a time (call weft_stop first, or start the pool before the "
     "first weft:: call, which then runs on it)"},
    {"weft_start_then_scheduler", case_weft_start_then_scheduler, false,
     "weft: weft::scheduler: the pool weft_start started is running, and only one pool runs at "
     "a time (call weft_stop first)"},
    {"weft_run_after_stop", case_weft_run_after_stop, true, NOT_RUNNING_WEFT},
    {"lace_run_on_weft_pool_then_weft_run", case_lace_run_on_weft_pool_then_weft_run, true,
     NOT_RUNNING_WEFT},
    {"weft_barrier_after_lace", case_weft_barrier_after_lace, true,
     "weft: weft_barrier called outside a TOGETHER copy, or from a task that a copy spawned and "
     "another worker stole (only the copies themselves are sure to reach it once on every "
     "worker)"},
    {"weft_me_on_lace_pool", case_weft_me_on_lace_pool, true,
     "weft: WEFT_ME used on a thread that is not a weft worker (use WEFT_RUN to enter the pool)"},
    {"lace_drop_in_weft_pool", case_lace_drop_in_weft_pool, true,
     "weft: " LACE_DROP_CALL " " JOIN_REFUSED},
    {"weft_drop_in_lace_pool", case_weft_drop_in_lace_pool, true, "lace: WEFT_DROP " JOIN_REFUSED},
};

// The lines of `err` that speak for weft or Lace.
std::string spoken_lines(const std::string &err)
{
    std::string out;
    std::size_t at = 0;
    while (at < err.size()) {
        std::size_t end = err.find('\n', at);
        if (end == std::string::npos)
            end = err.size();
        std::string line = err.substr(at, end - at);
        if (line.compare(0, 6, "weft: ") == 0 || line.compare(0, 6, "lace: ") == 0)
            out += line + "\n";
        at = end + 1;
    }
    return out;
}

bool check_case(const char *self, const expected_case &c)
{
    child_result r = run_child(self, c.name, {"WEFT_OVERSUBSCRIBE=1"});
    bool status_ok =
        c.aborts ? WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGABRT : exited_ok(r);
    std::string want = c.line ? std::string(c.line) + "\n" : std::string();
    std::string got = spoken_lines(r.err);
    bool ok = status_ok && got == want;
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", c.name);
    if (!ok)
        std::printf("  expected %s and the line\n    %s  got status %d and stderr:\n%s\n",
                    c.aborts ? "an abort" : "exit 0", want.empty() ? "(none)\n" : want.c_str(),
                    r.status, r.err.c_str());
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    // The children's configuration is the cases', not the caller's.
    unsetenv("WEFT_WORKERS");
    if (argc > 1) {
        for (const expected_case &c : cases)
            if (std::strcmp(argv[1], c.name) == 0) {
                c.fn();
                return 0;
            }
        std::fprintf(stderr, "no case %s\n", argv[1]);
        return 2;
    }
    std::string self = self_path();
    int failed = 0;
    for (const expected_case &c : cases)
        failed += !check_case(self.c_str(), c);
    std::printf("%d of %zu cases failed (Lace %d)\n", failed, sizeof cases / sizeof cases[0],
                LACE_VERSION_MAJOR);
    return failed != 0;
}
