// SPDX-License-Identifier: Apache-2.0
/* The work-pool cases of "Work-stealing Queues In Practice" (Raw, Quicksort,
 * Spanning tree, XML serialisation) and Acar et al.'s pseudo-DFS, with the
 * generators of their inputs.  Each case checks its own result.
 * Used by pool-bench and by tests/pool. */
#ifndef WEFT_BENCH_POOL_CASES_H
#define WEFT_BENCH_POOL_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <weft/pool.h>

/* ---- helpers shared by the cases and the generators ---- */

/* malloc that stops the benchmark with a message when memory runs out. */
void *pc_xmalloc(size_t n);
/* SplitMix64: the seeded generator behind every input. */
static inline uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- inputs ---- */

/* A graph in compressed sparse rows; symmetric (every edge both ways). */
typedef struct pc_graph {
    uint32_t n;
    uint64_t m;    /* directed edges (2 x undirected) */
    uint64_t *off; /* n + 1 */
    uint32_t *adj; /* m */
} pc_graph;

/* 3-d grid of side k (k^3 vertices, 6 neighbours inside the cube). */
pc_graph *pc_graph_grid3d(uint32_t k);
/* Random local graph: each vertex gets d edges to vertices at a distance
 * drawn log-uniformly from [1, n/2] (so close ones are likely). */
pc_graph *pc_graph_rlg(uint32_t n, unsigned d, uint64_t seed);
/* R-MAT (a, b, c, d = .57, .19, .19, .05): 2^scale vertices, ef * 2^scale
 * edges before removing self loops. */
pc_graph *pc_graph_rmat(unsigned scale, unsigned ef, uint64_t seed);
void pc_graph_free(pc_graph *g);
/* Vertices reachable from src (sequential BFS); marks reach[] (n bytes). */
uint64_t pc_graph_reach(const pc_graph *g, uint32_t src, uint8_t *reach);

/* ---- cases ---- */

typedef struct pc_params {
    uint64_t size; /* case-specific (see each case's description) */
    uint64_t seed;
    unsigned workers;  /* the pool's worker count (for per-worker scratch) */
    bool coalesce;     /* dfs: batch items with a split function */
    const char *graph; /* spanning: "rlg" (default), "grid" or "rmat" */
} pc_params;

/* What one run needs: filled by prepare. */
typedef struct pc_run {
    size_t item_size;
    const void *initial;
    size_t n_initial;
    weft_pool_fn fn;
    weft_pool_split_fn split;
    void *arg;
} pc_run;

typedef struct pc_case {
    const char *name;
    const char *size_doc;  /* what size means */
    bool idempotent;       /* processing an item twice is harmless */
    bool default_half;     /* steal-half (and coalescing) by default */
    uint64_t default_size; /* for the results table */
    uint64_t small_size;   /* for the tests */
    /* Builds the input (untimed). */
    void *(*create)(const pc_params *params);
    /* Resets the per-run state and describes the run (untimed). */
    void (*prepare)(void *state, pc_run *run);
    /* Checks the result of the last run: 0, or 1 with a message. `visits`
     * receives the number of item visits the case counted beyond one per
     * item (duplicates seen by the case), if it can tell. */
    int (*check)(void *state, char *msg, size_t len, uint64_t *extra_visits);
    void (*destroy)(void *state);
} pc_case;

extern const pc_case pc_cases[];
extern const unsigned pc_n_cases;
const pc_case *pc_case_find(const char *name);

#endif
