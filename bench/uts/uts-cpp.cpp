// UTS with weft::task_group: a node runs a task per child on a group (each
// builds its node, one SHA-1, then searches it) and adds the children's
// counts after wait(), as uts-weft spawns and syncs them.  No cut-off.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>

#include <weft/weft.hpp>

#include "uts-peer.h"

namespace {

// The results of one node's children: in its frame for up to
// UTS_INLINE_KIDS children, on the heap beyond.
class child_results {
public:
    explicit child_results(int n)
        : heap_(n > UTS_INLINE_KIDS ? new (std::nothrow) uts_result[n] : nullptr),
          slots_(heap_ ? heap_.get() : inline_)
    {
        if (n > UTS_INLINE_KIDS && !heap_) {
            std::fprintf(stderr, "uts: cannot allocate the results of %d children\n", n);
            std::exit(1);
        }
    }
    uts_result &operator[](int i) { return slots_[i]; }

private:
    uts_result inline_[UTS_INLINE_KIDS];
    std::unique_ptr<uts_result[]> heap_;
    uts_result *slots_;
};

uts_result search(const uts_params *p, const uts_node *node)
{
    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, static_cast<uint64_t>(node->height)};
    if (n == 0)
        return r;
    child_results kids(n);
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
