// SPDX-License-Identifier: Apache-2.0
// peer_start/peer_stop for the programs written with weft's C++ API
// (bench/<name>/<name>-cpp.cpp, bench/cpp.cmake): they share the peers'
// drivers (bench/peers/cpp/<name>/<name>-main.c: command line, input,
// output, answer check), so weft-cpp runs exactly what the oneTBB and
// OpenMP peers run, and only the kernel differs.  The pool is a
// weft::scheduler, with the defaults and the WEFT_* environment.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <weft/weft.hpp>

#include "peer.h"

namespace {

std::unique_ptr<weft::scheduler> pool;

} // namespace

// worker_stack is not used: weft's worker stacks (64 MiB by default,
// WEFT_STACK_SIZE) hold the deepest trees of the suite, as uts-weft shows.
extern "C" unsigned peer_start(unsigned workers, size_t worker_stack)
{
    (void)worker_stack;
    weft_config cfg;
    if (weft_config_init(&cfg) != 0) // it said which WEFT_* variable is wrong
        std::exit(1);
    if (workers > 0)
        cfg.workers = workers;
    pool = std::make_unique<weft::scheduler>(cfg);
    return pool->workers();
}

extern "C" void peer_stop(void)
{
    if (WEFT_STATS) // a build without counters has nothing to print
        weft_stats_print(stdout);
    pool.reset();
}

extern "C" const char *peer_runtime(void)
{
    return "weft " WEFT_VERSION " C++ API (" WEFT_SCHEDULER_NAME ")";
}
