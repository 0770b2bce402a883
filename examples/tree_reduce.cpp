// SPDX-License-Identifier: Apache-2.0
// Reductions over a tree three ways: weft::join on a binary tree,
// weft::task_group on a tree of any degree, weft::parallel_reduce over a
// node's children -- and an exception thrown deep in the tree, caught by
// the caller.
//
//     example-tree-reduce [depth]
#include <weft/weft.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

struct node {
    long value;
    std::vector<std::unique_ptr<node>> children;
};

// A tree of the given depth, node i having 1 + i % 4 children.
std::unique_ptr<node> build(int depth, long &counter)
{
    auto n = std::make_unique<node>();
    n->value = counter++;
    if (depth > 0)
        for (long k = 0, kids = 1 + n->value % 4; k < kids; k++)
            n->children.push_back(build(depth - 1, counter));
    return n;
}

// The children [lo, hi) of n, halved with join.
long sum_join(const node &n);
long sum_children(const node &n, size_t lo, size_t hi)
{
    if (hi - lo == 1)
        return sum_join(*n.children[lo]);
    size_t mid = lo + (hi - lo) / 2;
    auto [a, b] = weft::join([&] { return sum_children(n, lo, mid); },
                             [&] { return sum_children(n, mid, hi); });
    return a + b;
}
long sum_join(const node &n)
{
    return n.value + (n.children.empty() ? 0 : sum_children(n, 0, n.children.size()));
}

// A task per child on a group; the group's wait() joins them.
long sum_group(const node &n)
{
    std::vector<long> part(n.children.size());
    weft::task_group g;
    for (size_t i = 0; i < part.size(); i++)
        g.run([&, i] { part[i] = sum_group(*n.children[i]); });
    g.wait();
    return std::accumulate(part.begin(), part.end(), n.value);
}

// parallel_reduce over the children: map a child to its sum, combine with +.
long sum_reduce(const node &n)
{
    return n.value + weft::parallel_reduce(
                         n.children.begin(), n.children.end(), 0L,
                         [](const std::unique_ptr<node> &c) { return sum_reduce(*c); },
                         [](long a, long b) { return a + b; });
}

long sum_checked(const node &n)
{
    if (n.value < 0)
        throw std::runtime_error("negative value at a node");
    return n.value + weft::parallel_reduce(
                         n.children.begin(), n.children.end(), 0L,
                         [](const std::unique_ptr<node> &c) { return sum_checked(*c); },
                         [](long a, long b) { return a + b; });
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? std::atoi(argv[1]) : 10;
    if (depth < 0 || depth > 14) {
        std::fprintf(stderr, "usage: %s [depth 0..14]\n", argv[0]);
        return 2;
    }
    long count = 0;
    std::unique_ptr<node> root = build(depth, count);
    long want = count * (count - 1) / 2; // values are 0 .. count - 1

    weft::scheduler pool;
    long a = weft::run([&] { return sum_join(*root); });
    long b = weft::run([&] { return sum_group(*root); });
    long c = sum_reduce(*root); // the algorithms enter the pool by themselves
    std::printf("%ld nodes: join %ld, task_group %ld, parallel_reduce %ld (expected %ld)\n", count,
                a, b, c, want);

    // Somewhere deep, a value that sum_checked refuses.
    node *n = root.get();
    while (!n->children.empty())
        n = n->children.back().get();
    n->value = -1;
    try {
        sum_checked(*root);
        std::printf("no exception?\n");
        return 1;
    } catch (const std::exception &e) {
        std::printf("caught: %s\n", e.what());
    }
    return a == want && b == want && c == want ? 0 : 1;
}
