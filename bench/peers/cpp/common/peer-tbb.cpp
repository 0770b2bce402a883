// SPDX-License-Identifier: Apache-2.0
// peer_start/peer_stop for the oneTBB peers.
//
// Exactly N threads: a task_arena of N slots (the caller plus N - 1
// workers) under a global_control that raises TBB's worker limit to N - 1,
// since by default TBB caps its workers at the CPU count minus one and
// `-w 3` on two CPUs would silently get two threads.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/version.h>

#include "peer-tbb.hpp"

namespace {

std::unique_ptr<tbb::global_control> thread_limit;
std::unique_ptr<tbb::global_control> stack_size;
std::unique_ptr<tbb::task_arena> arena;

} // namespace

tbb::task_arena &peer_tbb_arena()
{
    if (!arena) {
        std::fprintf(stderr, "peer: the TBB arena is used before peer_start\n");
        std::exit(1);
    }
    return *arena;
}

extern "C" unsigned peer_start(unsigned workers, size_t worker_stack)
{
    if (workers > 0)
        thread_limit = std::make_unique<tbb::global_control>(
            tbb::global_control::max_allowed_parallelism, workers);
    if (worker_stack > 0)
        stack_size = std::make_unique<tbb::global_control>(tbb::global_control::thread_stack_size,
                                                           worker_stack);
    arena = workers > 0 ? std::make_unique<tbb::task_arena>(static_cast<int>(workers))
                        : std::make_unique<tbb::task_arena>();
    arena->initialize();
    // TBB creates its workers on the first parallel work: do that now, so
    // thread creation is not in the timed part.
    arena->execute([] { tbb::parallel_for(0, 1024, [](int) {}); });
    return static_cast<unsigned>(arena->max_concurrency());
}

extern "C" void peer_stop(void)
{
    arena.reset();
    stack_size.reset();
    thread_limit.reset();
}

extern "C" const char *peer_runtime(void)
{
    static char name[64];
    std::snprintf(name, sizeof name, "oneTBB %d.%d", TBB_VERSION_MAJOR, TBB_VERSION_MINOR);
    return name;
}
