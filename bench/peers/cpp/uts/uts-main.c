// SPDX-License-Identifier: Apache-2.0
/* UTS peers' driver: uts-weft's command line, output and checks (node,
 * leaf and depth counts of the published sample trees) around the peer's
 * kernel (uts-tbb.cpp or uts-omp.c).
 *
 *   uts-tbb -w <workers> -t 1 -a 3 -d 10 -b 4 -r 19        (T1)
 *
 * Pool start-up and the search run on a thread with a stack as large as
 * the workers', since the starting thread executes tasks too; nothing
 * depends on `ulimit -s`. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "uts-peer.h"

typedef struct search_job {
    const uts_params *params;
    unsigned workers; /* in: asked for (0 = default); out: got */
    uts_result result;
    double seconds;
} search_job;

static void *search_thread(void *arg)
{
    search_job *job = arg;
    job->workers = peer_start(job->workers, UTS_PEER_STACK_SIZE);
    printf("Workers: %u\n", job->workers);
    fflush(stdout);
    uts_node root;
    uts_root(job->params, &root);
    double t0 = bench_now();
    job->result = uts_parallel(job->params, &root);
    job->seconds = bench_now() - t0;
    peer_stop();
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    uts_params params;
    uint64_t expected_nodes;
    uts_parse_args(argc, argv, argv[0], "[-w workers] ", &params, &expected_nodes);
    printf("runtime: %s\n", peer_runtime());
    uts_print_params(&params, stdout);

    search_job job = {.params = &params, .workers = workers};
    pthread_attr_t attr;
    pthread_t thread;
    int err = pthread_attr_init(&attr);
    if (err == 0)
        err = pthread_attr_setstacksize(&attr, UTS_PEER_STACK_SIZE);
    if (err == 0)
        err = pthread_create(&thread, &attr, search_thread, &job);
    if (err == 0)
        err = pthread_join(thread, NULL);
    if (err != 0) {
        fprintf(stderr, "%s: cannot run the search thread: %s\n", argv[0], strerror(err));
        return 1;
    }
    pthread_attr_destroy(&attr);

    uts_report(&job.result, job.seconds);
    uts_check(&params, &job.result, expected_nodes);
    return 0;
}
