// SPDX-License-Identifier: Apache-2.0
/* pool-bench: one work-pool case on one or more queues.
 *
 *   pool-bench -c CASE -q QUEUE[,QUEUE...|all] [-w WORKERS] [-n SIZE] [-s SEED]
 *              [-r REPS] [-H | -1] [-C | -N] [-k ABP_SIZE] [-i INITIAL]
 *              [-g GRAPH] [-l]
 *
 *   -c  raw, quicksort, spanning, xml, dfs-grid, dfs-rlg, dfs-rmat
 *   -q  abp, chase-lev, chase-lev-shrink, idem-lifo, idem-fifo, idem-deque,
 *       duplicating, central; a comma-separated list, or all
 *   -w  workers (default: CPUs)        -n  size (default: the case's)
 *   -s  seed (default 1)               -r  repetitions (default 1)
 *   -H  steal half    -1  steal one    (default: half for dfs-*, else one)
 *   -C  batch items (coalescing) on, -N off (default: on for dfs-*; the
 *       split function is used by steal-half only)
 *   -k  ABP's fixed size in items (default 2^21: enough for every case, as
 *       the paper sized its arrays; the library's default is 65536)
 *   -i  initial size of the growing queues (default: the library's, 256)
 *   -g  spanning's graph: rlg (default), grid, rmat
 *   -l  list the cases
 *
 * Builds the input once (untimed), then for each repetition and each queue
 * in turn (interleaved, so that a noisy machine affects all alike, and in
 * an order rotated by one queue per repetition) resets
 * the case, times weft_pool_run and checks the result.  Prints the check,
 * each run's time, and per queue the counters of its median run and
 * `Time: <median seconds>` (with several queues: `Time <queue>: ...`).
 * Exit status: 0 ok, 1 wrong result, 2 usage, 3 (one queue only) the
 * combination is refused: a case that is not idempotent on a queue that may
 * process an item twice (weft_pool_run says EINVAL).
 */
#include "bench.h"
#include "cases.h"

#include <errno.h>
#include <unistd.h>

static void usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s -c CASE -q QUEUE [-w WORKERS] [-n SIZE] [-s SEED] [-r REPS] [-H|-1] "
            "[-C|-N] [-k ABP_SIZE] [-i INITIAL] [-g GRAPH] [-l]\n",
            prog);
    exit(2);
}

#define MAX_QUEUES WEFT_QUEUE_KINDS

static int parse_queues(const char *list, weft_queue_kind *out)
{
    if (strcmp(list, "all") == 0) {
        for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++)
            out[k] = (weft_queue_kind)k;
        return WEFT_QUEUE_KINDS;
    }
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (n == MAX_QUEUES || weft_queue_from_name(tok, &out[n]) != 0) {
            fprintf(stderr, "pool-bench: unknown queue '%s'\n", tok);
            exit(2);
        }
        n++;
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *case_name = NULL, *queue_list = NULL, *graph = NULL;
    long workers = 0, reps = 1, abp_size = 1L << 21, initial = 0;
    unsigned long long size = 0, seed = 1;
    int half = -1, coalesce = -1, opt;
    while ((opt = getopt(argc, argv, "c:q:w:n:s:r:H1CNk:i:g:l")) != -1) {
        switch (opt) {
        case 'c': case_name = optarg; break;
        case 'q': queue_list = optarg; break;
        case 'w': workers = bench_arg_long(argv[0], "-w", optarg, 0, WEFT_POOL_MAX_WORKERS); break;
        case 'n':
            size = (unsigned long long)bench_arg_long(argv[0], "-n", optarg, 1, 1L << 40);
            break;
        case 's':
            seed = (unsigned long long)bench_arg_long(argv[0], "-s", optarg, 0, 1L << 62);
            break;
        case 'r': reps = bench_arg_long(argv[0], "-r", optarg, 1, 1000); break;
        case 'H': half = 1; break;
        case '1': half = 0; break;
        case 'C': coalesce = 1; break;
        case 'N': coalesce = 0; break;
        case 'k': abp_size = bench_arg_long(argv[0], "-k", optarg, 1, 1L << 31); break;
        case 'i': initial = bench_arg_long(argv[0], "-i", optarg, 1, 1L << 30); break;
        case 'g': graph = optarg; break;
        case 'l':
            for (unsigned i = 0; i < pc_n_cases; i++)
                printf("%-10s size = %s (default %llu)%s\n", pc_cases[i].name, pc_cases[i].size_doc,
                       (unsigned long long)pc_cases[i].default_size,
                       pc_cases[i].idempotent ? ", idempotent" : "");
            return 0;
        default: usage(argv[0]);
        }
    }
    if (case_name == NULL || queue_list == NULL || optind != argc)
        usage(argv[0]);
    const pc_case *pc = pc_case_find(case_name);
    if (pc == NULL) {
        fprintf(stderr, "%s: unknown case '%s' (-l lists them)\n", argv[0], case_name);
        return 2;
    }
    weft_queue_kind kinds[MAX_QUEUES];
    int nq = parse_queues(queue_list, kinds);
    if (half < 0)
        half = pc->default_half;
    if (coalesce < 0)
        coalesce = pc->default_half && half;

    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = (unsigned)workers;
    cfg.steal = half ? WEFT_POOL_STEAL_HALF : WEFT_POOL_STEAL_ONE;
    /* The case's own property: weft_pool_run refuses a queue that may
     * process items twice unless the work is idempotent. */
    cfg.idempotent = pc->idempotent;
    unsigned nw = cfg.workers ? cfg.workers : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);

    pc_params params = {size ? size : pc->default_size, seed, nw, coalesce != 0, graph};
    printf("case %s%s%s (size %llu), %d queue%s, workers %u, steal %s, coalescing %s\n", pc->name,
           graph ? " on " : "", graph ? graph : "", (unsigned long long)params.size, nq,
           nq > 1 ? "s" : "", nw, half ? "half" : "one", coalesce ? "on" : "off");
    fflush(stdout);
    void *state = pc->create(&params);

    double *times = calloc((size_t)reps * nq, sizeof *times);
    weft_pool_stats *stats = calloc((size_t)reps * nq, sizeof *stats);
    bool refused[MAX_QUEUES] = {false};
    BENCH_CHECK(times && stats, "out of memory");
    char msg[256];
    int status = 0;
    for (long r = 0; r < reps && status == 0; r++) {
        for (int j = 0; j < nq && status == 0; j++) {
            int qi = (int)((j + r) % nq); /* rotate: no queue always runs first */
            weft_queue_kind kind = kinds[qi];
            if (refused[qi])
                continue;
            pc_run run;
            pc->prepare(state, &run);
            cfg.queue = kind;
            cfg.capacity = (size_t)(kind == WEFT_QUEUE_ABP ? abp_size : initial);
            cfg.item_size = run.item_size;
            cfg.split = coalesce ? run.split : NULL;
            weft_pool_stats *s = &stats[r * nq + qi];
            double t0 = bench_now();
            int err = weft_pool_run(&cfg, run.initial, run.n_initial, run.fn, run.arg, s);
            double t = times[r * nq + qi] = bench_now() - t0;
            if (err == EINVAL && weft_queue_is_idempotent(kind) && !pc->idempotent) {
                printf("refused: case %s is not idempotent and queue %s may process an item "
                       "more than once (weft_pool_run: EINVAL)\n",
                       pc->name, weft_queue_name(kind));
                refused[qi] = true;
                continue;
            }
            BENCH_CHECK(err == 0, "weft_pool_run returned %d", err);
            uint64_t extra = 0;
            if (pc->check(state, msg, sizeof msg, &extra) != 0) {
                fprintf(stderr, "FAILED: %s: %s\n", weft_queue_name(kind), msg);
                status = 1;
                break;
            }
            if (r == 0 && j == 0)
                printf("%s\n", msg);
            if (!weft_queue_is_idempotent(kind) && (s->duplicates != 0 || extra != 0)) {
                fprintf(stderr, "FAILED: queue %s processed %llu items twice (case counted %llu)\n",
                        weft_queue_name(kind), (unsigned long long)s->duplicates,
                        (unsigned long long)extra);
                status = 1;
                break;
            }
            printf("rep %ld %-16s %.6f s, %llu items, %llu duplicates, %llu steals\n", r + 1,
                   weft_queue_name(kind), t, (unsigned long long)s->processed,
                   (unsigned long long)s->duplicates, (unsigned long long)s->steals);
        }
    }
    if (status == 0) {
        for (int qi = 0; qi < nq; qi++) {
            if (refused[qi])
                continue;
            double sorted[1000];
            for (long r = 0; r < reps; r++)
                sorted[r] = times[r * nq + qi];
            bench_sort_doubles(sorted, (size_t)reps);
            double median = sorted[reps / 2];
            long at = 0;
            for (long r = 0; r < reps; r++)
                if (times[r * nq + qi] == median)
                    at = r;
            printf("counters %s (rep %ld):\n", weft_queue_name(kinds[qi]), at + 1);
            weft_pool_stats_print(&stats[at * nq + qi], stdout);
            if (nq == 1)
                bench_print_time(median);
            else
                printf("Time %s: %f\n", weft_queue_name(kinds[qi]), median);
        }
        if (nq == 1 && refused[0])
            status = 3;
    }
    fflush(stdout);
    pc->destroy(state);
    free(times);
    free(stats);
    return status;
}
