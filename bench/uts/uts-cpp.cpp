// UTS with weft::task_group: a node runs a task per child on a group (each
// builds its node, one SHA-1, then searches it) and adds the children's
// counts after wait(), as uts-weft spawns and syncs them.  No cut-off.
#include <weft/weft.hpp>

#include "uts-kids.hpp"
#include "uts-peer.h"

namespace {

uts_result search(const uts_params *p, const uts_node *node)
{
    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, static_cast<uint64_t>(node->height)};
    if (n == 0)
        return r;
    ChildResults kids(n);
    weft::task_group g;
    for (int i = 0; i < n; i++) {
        uts_result *out = &kids[i];
        g.run([p, node, i, out] {
            uts_node child;
            uts_child(p, node, i, &child);
            *out = search(p, &child);
        });
    }
    g.wait();
    for (int i = 0; i < n; i++)
        uts_result_add(&r, kids[i]);
    return r;
}

} // namespace

uts_result uts_parallel(const uts_params *p, const uts_node *root)
{
    return weft::run([p, root] { return search(p, root); });
}
