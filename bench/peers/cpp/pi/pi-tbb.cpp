// SPDX-License-Identifier: Apache-2.0
// pi on oneTBB: a range of more than `grain` samples is halved, the upper
// half a task_group task and the lower half called, then wait -- the same
// splitting as pi-weft (the grain is the program's argument, so no
// parallel_reduce with its own partitioner).
#include <tbb/task_group.h>

#include "peer-tbb.hpp"
#include "pi-peer.h"
#include "pi.h"

static long count_hits(long lo, long hi, long grain)
{
    if (hi - lo <= grain)
        return pi_count(lo, hi);
    long mid = lo + (hi - lo) / 2;
    long upper;
    tbb::task_group g;
    g.run([&upper, mid, hi, grain] { upper = count_hits(mid, hi, grain); });
    long lower = count_hits(lo, mid, grain);
    g.wait();
    return lower + upper;
}

long pi_parallel(long samples, long grain)
{
    return peer_tbb_run([=] { return count_hits(0, samples, grain); });
}
