// SPDX-License-Identifier: Apache-2.0
// cilksort on oneTBB (the recursion of bench/cilksort/cilksort.h): three
// quarter sorts as task_group tasks and the fourth called, wait; the two
// first merges one a task and one called, wait; then the last merge.  A
// parallel merge runs its lower part as a task and calls the upper one.
// The cut-offs and sequential pieces are the header's (cilksort-bridge.c).
#include <tbb/task_group.h>

#include "cilksort-peer.h"
#include "peer-tbb.hpp"

using key = cs_peer_key;

static void merge(const key *l1, const key *h1, const key *l2, const key *h2, key *dest)
{
    const key *s1, *s2;
    if (!cs_peer_merge_split(&l1, &h1, &l2, &h2, dest, &s1, &s2))
        return;
    tbb::task_group g; // the two parts write disjoint ranges of dest
    g.run([=] { merge(l1, s1, l2, s2, dest); });
    merge(s1, h1, s2, h2, dest + (s1 - l1) + (s2 - l2));
    g.wait();
}

static void sort(key *a, key *tmp, size_t n)
{
    if (cs_peer_sort_leaf(a, n))
        return;
    size_t q = n / 4;
    tbb::task_group g;
    g.run([=] { sort(a, tmp, q); });
    g.run([=] { sort(a + q, tmp + q, q); });
    g.run([=] { sort(a + 2 * q, tmp + 2 * q, q); });
    sort(a + 3 * q, tmp + 3 * q, n - 3 * q);
    g.wait();
    g.run([=] { merge(a, a + q, a + q, a + 2 * q, tmp); });
    merge(a + 2 * q, a + 3 * q, a + 3 * q, a + n, tmp + 2 * q);
    g.wait();
    merge(tmp, tmp + 2 * q, tmp + 2 * q, tmp + n, a);
}

void cilksort_parallel(key *a, key *tmp, size_t n)
{
    peer_tbb_run([=] { sort(a, tmp, n); });
}
