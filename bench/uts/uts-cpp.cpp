// SPDX-License-Identifier: Apache-2.0
// UTS with weft::join: a node's children [lo, hi) are halved and joined
// down to single children, each of which builds its node (one SHA-1) and
// searches it; the counts come back through the joins.  No cut-off.
// (uts-weft spawns every child and syncs them in turn; halving gives the
// thieves the bigger half first and costs n - 1 joins for n children.)
#include <weft/weft.hpp>

#include "uts-peer.h"

namespace {

uts_result search(const uts_params *p, const uts_node *node);

uts_result children(const uts_params *p, const uts_node *node, int lo, int hi)
{
    if (hi - lo == 1) {
        uts_node child;
        uts_child(p, node, lo, &child);
        return search(p, &child);
    }
    int mid = lo + (hi - lo) / 2;
    auto [a, b] = weft::join([=] { return children(p, node, lo, mid); },
                             [=] { return children(p, node, mid, hi); });
    uts_result_add(&a, b);
    return a;
}

uts_result search(const uts_params *p, const uts_node *node)
{
    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, static_cast<uint64_t>(node->height)};
    if (n > 0)
        uts_result_add(&r, children(p, node, 0, n));
    return r;
}

} // namespace

uts_result uts_parallel(const uts_params *p, const uts_node *root)
{
    return weft::run([p, root] { return search(p, root); });
}
