// SPDX-License-Identifier: Apache-2.0
/* The work pool's hosted mode (src/workpool/hosted.h) without MPI: one
 * host thread drives two hosted pools as if they were two ranks, moving
 * shares between them (weft__wp_hosted_take_share from one, weft__wp_hosted_inject
 * into the other) and ending both runs when both are quiescent and it
 * holds nothing.  Runs in every build, so the sanitizers and the
 * perturbed build see the inbox, the agent's shares and the bell.
 *
 * Checks, for every queue kind and both steal policies: every node of a
 * tree of known shape is processed exactly once across the two pools (at
 * least once on the idempotent queues), never after its pool was stopped,
 * each pool is quiescent only when its own processed count says it holds
 * nothing in flight, and shares did move: the pool that starts empty
 * processes items.
 */
#include "check.h"
#include "workpool/hosted.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <weft/pool.h>

#define DEPTH 13 /* a binary tree: 2^14 - 1 nodes */
#define NODES ((1u << (DEPTH + 1)) - 1)

typedef struct node {
    uint32_t id; /* heap numbering: children 2i+1, 2i+2 */
    uint32_t depth;
} node;

typedef struct side {
    _Atomic uint32_t *seen;
    _Atomic int stopped;
    _Atomic uint64_t processed;
    bool gated;            /* the first pool: its workers wait at the gate */
    _Atomic int gate_open; /* set by the host once it moved a share */
} side;

/* The gate: a worker of the first pool that reaches a node at GATE_DEPTH
 * waits (up to GATE_MS) until the host has moved a share, so that shares
 * are there to take while its queue holds the siblings of its path, even
 * when the host thread gets no CPU while the tree runs.  The first worker
 * that waits in vain opens it for the rest of the run. */
#define GATE_DEPTH 4
#define GATE_MS 100

static void wait_at_gate(side *s)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Acquire: pairs with the host's release store; only the flag matters. */
    while (!atomic_load_explicit(&s->gate_open, memory_order_acquire)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 > GATE_MS) {
            /* A share needs this worker's answer (a request), or none
             * comes: open the gate for the rest of the run and go on.
             * Relaxed: only the flag matters. */
            atomic_store_explicit(&s->gate_open, 1, memory_order_relaxed);
            return;
        }
        sched_yield();
    }
}

/* A little work per node, so that a pool is still busy when the host
 * takes a share from it. */
static _Atomic uint64_t sink;

static void visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    side *s = arg;
    node n;
    memcpy(&n, item, sizeof n);
    uint64_t x = n.id;
    for (int i = 0; i < 300; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    /* Relaxed: only keeps the loop from being optimised away. */
    atomic_store_explicit(&sink, x, memory_order_relaxed);
    /* Relaxed: flags and counters read by the host after the threads are
     * joined, or as a check that must never fire. */
    CHECK(!atomic_load_explicit(&s->stopped, memory_order_relaxed),
          "node %u processed after its pool was stopped", n.id);
    CHECK(n.id < NODES, "a damaged item: id %u", n.id);
    if (s->gated && n.depth == GATE_DEPTH)
        wait_at_gate(s);
    atomic_fetch_add_explicit(&s->seen[n.id], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->processed, 1, memory_order_relaxed);
    if (n.depth == DEPTH)
        return;
    for (uint32_t c = 1; c <= 2; c++) {
        node child = {2 * n.id + c, n.depth + 1};
        weft_pool_push(ctx, &child);
    }
}

/* Shares moved by one run_pair, and items processed by the pool that
 * started empty: only a share can have given it any. */
typedef struct moved_work {
    uint64_t shares, processed_by_second;
} moved_work;

static moved_work run_pair(weft_queue_kind kind, weft_pool_steal steal)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(node));
    cfg.workers = 2;
    cfg.queue = kind;
    cfg.steal = steal;
    cfg.idempotent = weft_queue_is_idempotent(kind);
    cfg.steal_half_max = 16;
    side s[2];
    for (int i = 0; i < 2; i++) {
        s[i].seen = calloc(NODES, sizeof *s[i].seen);
        CHECK(s[i].seen != NULL, "out of memory");
        atomic_init(&s[i].stopped, 0);
        atomic_init(&s[i].processed, 0);
        atomic_init(&s[i].gate_open, 0);
        s[i].gated = i == 0;
    }
    /* Both pools read the same seen array through their own side: one
     * array shared, so a node processed on both counts twice. */
    free((void *)s[1].seen);
    s[1].seen = s[0].seen;
    node root = {0, 0};
    wp_pool *p[2];
    CHECK(weft__wp_hosted_create(&cfg, visit, &s[0], &root, 1, &p[0]) == 0, "create pool 0");
    CHECK(weft__wp_hosted_create(&cfg, visit, &s[1], NULL, 0, &p[1]) == 0, "create pool 1");
    weft__wp_hosted_start(p[0], true);
    weft__wp_hosted_start(p[1], true);
    unsigned char *buf = malloc((size_t)cfg.steal_half_max * sizeof(node));
    uint64_t moves = 0, moved = 0;
    for (unsigned spins = 0;; spins++) {
        bool q0 = weft__wp_hosted_quiescent(p[0]), q1 = weft__wp_hosted_quiescent(p[1]);
        if (q0 && q1)
            break; /* the host holds nothing between steps: the end */
        if (!q0 && !q1) {
            /* Both busy: nobody asks for work (a rank asks only when it
             * is dry).  Moving shares all the time would let an
             * idempotent queue's duplicates of whole subtrees multiply
             * without bound. */
            weft__wp_hosted_wait(p[spins % 2], weft__wp_hosted_bell(p[spins % 2]), 200000);
            continue;
        }
        /* One side dry, the other busy: move a share, as a thief rank
         * would get one. */
        int from = q1 ? 0 : 1;
        size_t k = weft__wp_hosted_take_share(p[from], buf);
        if (k > 0) {
            weft__wp_hosted_inject(p[1 - from], buf, k);
            /* Release: a flag for the gate (wait_at_gate). */
            atomic_store_explicit(&s[0].gate_open, 1, memory_order_release);
            moves++;
            moved += k;
        } else {
            weft__wp_hosted_wait(p[from], weft__wp_hosted_bell(p[from]), 20000);
        }
    }
    for (int i = 0; i < 2; i++) {
        weft__wp_hosted_stop(p[i]);
        /* Relaxed: the threads are joined. */
        atomic_store_explicit(&s[i].stopped, 1, memory_order_relaxed);
    }
    uint64_t distinct = 0, twice = 0, most = 0;
    for (uint32_t id = 0; id < NODES; id++) {
        uint32_t v = atomic_load(&s[0].seen[id]);
        distinct += v != 0;
        twice += v > 1;
        most = v > most ? v : most;
    }
    CHECK(distinct == NODES, "%s: %llu of %u nodes processed", weft_queue_name(kind),
          (unsigned long long)distinct, NODES);
    CHECK(cfg.idempotent || twice == 0, "%s: %llu nodes processed twice", weft_queue_name(kind),
          (unsigned long long)twice);
    weft_pool_stats st[2];
    weft__wp_hosted_stats(p[0], 1, &st[0]);
    weft__wp_hosted_stats(p[1], 0, &st[1]);
    uint64_t total = atomic_load(&s[0].processed) + atomic_load(&s[1].processed);
    CHECK(st[0].processed + st[1].processed == total, "%s: the counters say %llu, the items %llu",
          weft_queue_name(kind), (unsigned long long)(st[0].processed + st[1].processed),
          (unsigned long long)total);
    printf("%-16s steal %-4s: %u nodes (at most %llu times each), %llu shares of %llu items "
           "moved, %llu / %llu processed\n",
           weft_queue_name(kind), steal == WEFT_POOL_STEAL_HALF ? "half" : "one", NODES,
           (unsigned long long)most, (unsigned long long)moves, (unsigned long long)moved,
           (unsigned long long)atomic_load(&s[0].processed),
           (unsigned long long)atomic_load(&s[1].processed));
    /* Every share the host moved reached the other pool's counters. */
    CHECK(st[1].processed >= (moves > 0) && (moves == 0 || atomic_load(&s[1].processed) > 0),
          "%s: %llu shares moved, yet the second pool processed nothing", weft_queue_name(kind),
          (unsigned long long)moves);
    moved_work mw = {moves, atomic_load(&s[1].processed)};
    weft__wp_hosted_destroy(p[0]);
    weft__wp_hosted_destroy(p[1]);
    free(buf);
    free((void *)s[0].seen);
    return mw;
}

/* An idempotent queue without a steal-half of its own, steal one: a share
 * is one item.  Its owner's plain stores may undo every steal made between
 * its read and its write of the tail, so a share of many single steals
 * caught in one such window (a preempted owner) was re-exposed whole and
 * run twice, subtrees and all.  Checked on a pool whose workers have not
 * started: its 64 initial items are in the queues. */
static void share_size(weft_queue_kind kind)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(node));
    cfg.workers = 1;
    cfg.queue = kind;
    cfg.steal = WEFT_POOL_STEAL_ONE;
    cfg.idempotent = true;
    cfg.steal_half_max = 16;
    node items[64];
    for (uint32_t i = 0; i < 64; i++)
        items[i] = (node){i, DEPTH};
    side s;
    s.seen = calloc(NODES, sizeof *s.seen);
    CHECK(s.seen != NULL, "out of memory");
    atomic_init(&s.stopped, 0);
    atomic_init(&s.processed, 0);
    wp_pool *p;
    CHECK(weft__wp_hosted_create(&cfg, visit, &s, items, 64, &p) == 0, "create");
    node buf[16];
    size_t k = weft__wp_hosted_take_share(p, buf);
    CHECK(k == 1, "%s, steal one: a share of %zu items by single steals", weft_queue_name(kind), k);
    weft__wp_hosted_start(p, false);
    free((void *)s.seen);
    printf("%-16s steal one: a share is one item\n", weft_queue_name(kind));
}

int main(void)
{
    share_size(WEFT_QUEUE_IDEMPOTENT_LIFO);
    share_size(WEFT_QUEUE_IDEMPOTENT_FIFO);
    share_size(WEFT_QUEUE_IDEMPOTENT_DEQUE);
    /* Per queue kind and steal policy: shares must have moved and the pool
     * that started empty must have processed items (it gets none but by a
     * share).  Every pair runs three times; one whose host thread got no
     * CPU while the first pool ran whole trees (a loaded machine) runs
     * again, up to twelve times in all: a pair that never moves work in
     * twelve runs fails. */
    enum { REPS = 3, MAX_REPS = 12 };
    moved_work sum[WEFT_QUEUE_KINDS][2] = {{{0, 0}}};
    for (int rep = 0; rep < MAX_REPS; rep++) {
        for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++) {
            for (int h = 0; h < 2; h++) {
                if (rep >= REPS && sum[k][h].shares > 0 && sum[k][h].processed_by_second > 0)
                    continue;
                moved_work mw =
                    run_pair((weft_queue_kind)k, h ? WEFT_POOL_STEAL_HALF : WEFT_POOL_STEAL_ONE);
                sum[k][h].shares += mw.shares;
                sum[k][h].processed_by_second += mw.processed_by_second;
            }
        }
    }
    for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++)
        for (int h = 0; h < 2; h++)
            CHECK(sum[k][h].shares > 0 && sum[k][h].processed_by_second > 0,
                  "%s, steal %s: in %d runs %llu shares moved and the second pool processed "
                  "%llu items: no work moved between the pools",
                  weft_queue_name((weft_queue_kind)k), h ? "half" : "one", MAX_REPS,
                  (unsigned long long)sum[k][h].shares,
                  (unsigned long long)sum[k][h].processed_by_second);
    printf("all hosted pool tests passed\n");
    return 0;
}
