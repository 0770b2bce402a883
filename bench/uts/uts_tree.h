// SPDX-License-Identifier: Apache-2.0
/* UTS, the Unbalanced Tree Search benchmark (Olivier et al., LCPC 2006):
 * the implicit-tree generator shared by uts-seq, uts-weft and uts-selftest.
 *
 * A tree is never stored.  Each node carries a 20-byte SHA-1 digest; a
 * child's digest is the SHA-1 of its parent's digest and its child index,
 * and a node's child count is drawn from its own digest.  Any traversal
 * order therefore visits the same tree, and the trees are bit-for-bit those
 * of the reference UTS code (as used by Lace, Cilk and BOTS), so the node
 * counts of the published sample trees double as a correctness check.
 *
 * Nothing here is global or mutable: the tree parameters are passed as a
 * const pointer, so many workers may read them concurrently.
 */
#ifndef WEFT_BENCH_UTS_TREE_H
#define WEFT_BENCH_UTS_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Tree types (-t) and GEO shape functions (-a): the reference numbering,
 * since the numbers appear on the command line. */
enum uts_tree_type { UTS_BIN = 0, UTS_GEO = 1, UTS_HYBRID = 2, UTS_BALANCED = 3 };
enum uts_geoshape { UTS_LINEAR = 0, UTS_EXPDEC = 1, UTS_CYCLIC = 2, UTS_FIXED = 3 };

/* Child-count cap for every node but a BIN root (and BALANCED trees). */
#define UTS_MAX_CHILDREN 100

#define UTS_STATE_SIZE 20 /* SHA-1 digest */

typedef struct uts_params {
    int type;                /* -t  enum uts_tree_type */
    double b_0;              /* -b  root branching factor */
    int root_seed;           /* -r  RNG seed of the root, 0 <= r < 2^31 */
    int shape_fn;            /* -a  GEO: enum uts_geoshape */
    int gen_mx;              /* -d  GEO/BALANCED: depth parameter */
    double non_leaf_prob;    /* -q  BIN: probability q of a non-leaf */
    int non_leaf_bf;         /* -m  BIN: children m of a non-leaf */
    double shift_depth;      /* -f  HYBRID: GEO above shift_depth*gen_mx, BIN below */
    int compute_granularity; /* -g  rng_spawn evaluations per child (extra work only) */
} uts_params;

/* 32 bytes: passed by value as a task argument, so it must leave room in a
 * 64-byte task descriptor for the runtime's word and the params pointer. */
typedef struct uts_node {
    int type;     /* distribution governing this node's child count */
    int height;   /* depth in the tree, root = 0 */
    int num_kids; /* -1: not yet determined (the reference keeps this field) */
    unsigned char state[UTS_STATE_SIZE];
} uts_node;

/* What a traversal computes; small enough to be a task result. */
typedef struct uts_result {
    uint64_t nodes;
    uint64_t leaves;
    uint64_t max_depth;
} uts_result;

/* A published sample tree and its published shape. */
typedef struct uts_sample {
    const char *name;
    const char *flags;
    uint64_t nodes;
    uint64_t leaves;
    uint64_t max_depth;
} uts_sample;

/* ---- parameters ---- */

/* The reference defaults (a small GEO tree). */
void uts_params_default(uts_params *p);

/* Parses the reference flags (-t -b -r -a -d -q -m -f -g, each followed by
 * a value, repeats allowed, last wins) plus `-c <expected nodes>` and -h.
 * `prog` names the program in messages; `extra_usage` is inserted in the
 * usage line before the flags (e.g. "[-w workers] ").  Prints an error and
 * exits 2 on any bad flag or value; prints help and exits 0 on -h.
 * *expected_nodes is 0 without -c. */
void uts_parse_args(int argc, char **argv, const char *prog, const char *extra_usage, uts_params *p,
                    uint64_t *expected_nodes);

/* Prints the tree parameters (and the sample tree they name, if any). */
void uts_print_params(const uts_params *p, FILE *out);

/* The published sample tree with exactly these tree-shaping parameters, or
 * NULL.  Parameters that do not shape the tree (e.g. -q for a GEO tree, -g)
 * are ignored. */
const uts_sample *uts_find_sample(const uts_params *p);

/* All known sample trees, terminated by an entry with name == NULL. */
extern const uts_sample uts_samples[];

/* ---- the tree ---- */

void uts_root(const uts_params *p, uts_node *root);
int uts_num_children(const uts_params *p, const uts_node *node);
/* Child i (0 <= i < uts_num_children(p, parent)) of parent. */
void uts_child(const uts_params *p, const uts_node *parent, int i, uts_node *child);

/* Merges a child's subtree result into its parent's. */
static inline void uts_result_add(uts_result *acc, uts_result sub)
{
    acc->nodes += sub.nodes;
    acc->leaves += sub.leaves;
    if (sub.max_depth > acc->max_depth)
        acc->max_depth = sub.max_depth;
}

/* Prints `Nodes:`, `Leaves:`, `Max depth:` and `Time:`. */
void uts_report(const uts_result *r, double seconds);

/* Checks the result against -c (if expected_nodes != 0) and against the
 * published sample tree these parameters name, if any.  On a mismatch
 * prints `FAILED: ...` on stderr and exits 1. */
void uts_check(const uts_params *p, const uts_result *r, uint64_t expected_nodes);

/* ---- the splittable RNG (exposed for the self-test) ---- */

void uts_rng_init(unsigned char state[UTS_STATE_SIZE], int seed);
void uts_rng_spawn(const unsigned char parent[UTS_STATE_SIZE], int spawn_number,
                   unsigned char child[UTS_STATE_SIZE]);
int uts_rng_rand(const unsigned char state[UTS_STATE_SIZE]);

/* SHA-1 exactly as the RNG computes it; len must be <= UTS_SHA1_MAX_LEN. */
#define UTS_SHA1_MAX_LEN 119
void uts_sha1(const void *msg, size_t len, unsigned char digest[UTS_STATE_SIZE]);
/* Which libcrypto entry point uts_sha1 drives, for the parameter printout. */
const char *uts_sha1_impl(void);

#endif
