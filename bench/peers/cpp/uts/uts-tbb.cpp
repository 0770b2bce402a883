// SPDX-License-Identifier: Apache-2.0
// UTS on oneTBB: a task_group per node; each child but the last is a task
// that builds its node (one SHA-1) and searches it, the last is called
// directly, then wait() and the children's counts are added up.  No
// cut-off.  The parent's node and the children's results stay in its
// frame until the wait.
#include <cstdint>

#include <tbb/task_group.h>

#include "peer-stack.h"
#include "peer-tbb.hpp"
#include "uts-kids.hpp"
#include "uts-peer.h"

namespace {

// This thread's stack guard (peer-stack.h); 0 until first used.
thread_local uintptr_t stack_floor = 0;

uts_result search(const uts_params *p, const uts_node *node);

uts_result child_search(const uts_params *p, const uts_node *parent, int i)
{
    uts_node node;
    uts_child(p, parent, i, &node);
    return search(p, &node);
}

uts_result search(const uts_params *p, const uts_node *node)
{
    if (stack_floor == 0)
        stack_floor = peer_stack_floor();
    if (reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < stack_floor)
        peer_too_deep("tree", node->height);

    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, static_cast<uint64_t>(node->height)};
    if (n == 0)
        return r;
    ChildResults kids(n);
    tbb::task_group g;
    for (int i = 0; i < n - 1; i++)
        g.run([p, node, i, &kids] { kids[i] = child_search(p, node, i); });
    kids[n - 1] = child_search(p, node, n - 1);
    g.wait();
    for (int i = 0; i < n; i++)
        uts_result_add(&r, kids[i]);
    return r;
}

} // namespace

uts_result uts_parallel(const uts_params *p, const uts_node *root)
{
    return peer_tbb_run([p, root] { return search(p, root); });
}
