// SPDX-License-Identifier: Apache-2.0
/* dfs (Lace's benchmark): a tree of the given depth in which every inner
 * node has `width` children, each leaf a busy loop of `grain` iterations,
 * the whole traversal repeated `reps` times.  Shared by dfs-seq, dfs-weft
 * and dfs-lace: the arguments, the leaf and the answer's check. */
#ifndef WEFT_BENCH_DFS_H
#define WEFT_BENCH_DFS_H

#include "bench.h"

#include <stdint.h>

typedef struct dfs_params {
    int depth, width;
    long grain;
    int reps;
} dfs_params;

/* Usage: <prog> [-w workers] <depth> <width> <grain> <reps> (argv after -w). */
static inline dfs_params dfs_args(int argc, char **argv, const char *usage)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s %s<depth> <width> <grain> <reps>\n", argv[0], usage);
        exit(2);
    }
    dfs_params p;
    p.depth = (int)bench_arg_long(argv[0], "depth", argv[1], 0, 40);
    p.width = (int)bench_arg_long(argv[0], "width", argv[2], 1, 1000);
    p.grain = bench_arg_long(argv[0], "grain", argv[3], 0, 1000000000L);
    p.reps = (int)bench_arg_long(argv[0], "reps", argv[4], 1, 1000000);
    double leaves = 1;
    for (int i = 0; i < p.depth; i++)
        leaves *= p.width;
    if (leaves > 1e12) {
        fprintf(stderr, "%s: width^depth must be at most 10^12 leaves\n", argv[0]);
        exit(2);
    }
    return p;
}

/* A leaf: grain steps of an LCG the compiler cannot fold away; the value
 * (0 or 1) lets the check see that every leaf ran. */
static inline uint64_t dfs_leaf(long grain)
{
    uint64_t x = (uint64_t)grain;
    for (long i = 0; i < grain; i++)
        __asm__ volatile("" : "+r"(x));
    for (long i = 0; i < grain; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 63) | 1u;
}

static inline uint64_t dfs_expected(const dfs_params *p)
{
    uint64_t leaves = 1;
    for (int i = 0; i < p->depth; i++)
        leaves *= (uint64_t)p->width;
    return leaves * dfs_leaf(p->grain);
}

static inline void dfs_report(const dfs_params *p, uint64_t per_rep)
{
    printf("dfs(depth %d, width %d, grain %ld) x %d: %llu per traversal\n", p->depth, p->width,
           p->grain, p->reps, (unsigned long long)per_rep);
    BENCH_CHECK(per_rep == dfs_expected(p), "dfs: %llu per traversal, expected %llu",
                (unsigned long long)per_rep, (unsigned long long)dfs_expected(p));
}

#endif
