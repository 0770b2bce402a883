// SPDX-License-Identifier: Apache-2.0
// For the oneTBB kernels (<name>-tbb.cpp): run work in the arena that
// peer_start (common/peer-tbb.cpp) set up with the requested thread count.
#ifndef WEFT_PEER_TBB_HPP
#define WEFT_PEER_TBB_HPP

#include <utility>

#include <tbb/task_arena.h>

#include "peer.h"

tbb::task_arena &peer_tbb_arena();

// Runs f() on the calling thread inside the arena (the caller takes one of
// its slots, like the thread that calls WEFT_RUN joins weft's pool) and
// returns its result.
template <class F>
auto peer_tbb_run(F &&f)
{
    return peer_tbb_arena().execute(std::forward<F>(f));
}

#endif
