// SPDX-License-Identifier: Apache-2.0
/* uts-seq: sequential UTS, a recursive depth-first count of the tree.
 * The baseline (T_S) for uts-weft; same output and checks.
 *
 *   uts-seq -t 1 -a 3 -d 10 -b 4 -r 19        (sample tree T1)
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "uts_tree.h"

/* Binomial trees are deep and each level is a recursive frame, ~180 bytes
 * with gcc -O3 (measured): T3L's 17,844 levels need ~3 MB, the published
 * XXL/WL trees (216,370 and 1,021,239 levels) 40 and 180 MB.  So the
 * traversal runs on a thread with a stack larger than any of them instead
 * of depending on `ulimit -s`.  Only the touched pages are backed by
 * memory. */
#define SEARCH_STACK_SIZE ((size_t)256 << 20)
#define SEARCH_STACK_MARGIN ((size_t)1 << 20)

/* Lowest frame address the search may use.  Legal flags can describe trees
 * deeper than any stack (e.g. q*m close to 1); stopping with a message
 * beats a segfault.  Written before the search, read only by it. */
static uintptr_t search_stack_floor;

static void too_deep(int height)
{
    fprintf(stderr, "uts-seq: tree deeper than the %zu MB search stack allows (depth %d reached)\n",
            SEARCH_STACK_SIZE >> 20, height);
    exit(1);
}

static uts_result search(const uts_params *p, const uts_node *node)
{
    if ((uintptr_t)__builtin_frame_address(0) < search_stack_floor)
        too_deep(node->height);

    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, (uint64_t)node->height};

    for (int i = 0; i < n; i++) {
        uts_node child;
        uts_child(p, node, i, &child);
        uts_result_add(&r, search(p, &child));
    }
    return r;
}

typedef struct search_job {
    const uts_params *params;
    uts_node root;
    uts_result result;
    double seconds;
} search_job;

static void *search_thread(void *arg)
{
    search_job *job = arg;
    /* Stacks grow down on every platform weft targets. */
    search_stack_floor =
        (uintptr_t)__builtin_frame_address(0) - SEARCH_STACK_SIZE + SEARCH_STACK_MARGIN;
    double t0 = bench_now();
    job->result = search(job->params, &job->root);
    job->seconds = bench_seconds_since(t0);
    return NULL;
}

int main(int argc, char **argv)
{
    uts_params params;
    uint64_t expected_nodes;
    uts_parse_args(argc, argv, "uts-seq", "", &params, &expected_nodes);
    uts_print_params(&params, stdout);

    search_job job = {.params = &params};
    uts_root(&params, &job.root);

    pthread_attr_t attr;
    pthread_t thread;
    int err = pthread_attr_init(&attr);
    if (err == 0)
        err = pthread_attr_setstacksize(&attr, SEARCH_STACK_SIZE);
    if (err == 0)
        err = pthread_create(&thread, &attr, search_thread, &job);
    if (err == 0)
        err = pthread_join(thread, NULL);
    if (err != 0) {
        fprintf(stderr, "uts-seq: cannot run the search thread: %s\n", strerror(err));
        return 1;
    }
    pthread_attr_destroy(&attr);

    uts_report(&job.result, job.seconds);
    uts_check(&params, &job.result, expected_nodes);
    return 0;
}
