// SPDX-License-Identifier: Apache-2.0
/* The distributed work pool (include/weft/dist.h) under mpirun: every case
 * checks its result on every rank after weft_dist_run returned there.
 *
 *   test_dist suite      random item trees of known size: every queue kind,
 *                        steal one and half, lifelines on and off, initial
 *                        items on rank 0, on the last rank, on every rank,
 *                        1-, 16- and 256-byte items (the 256-byte ones carry
 *                        a pattern checked byte by byte), every node's id
 *                        seen exactly once across the ranks (or at least
 *                        once on the queues that may deliver twice)
 *                        and, with more than one rank, items shipped and
 *                        processed off rank 0 where all start on rank 0
 *   test_dist duplicates the idempotent LIFO with steal one, six runs: in the
 *                        median run the items run twice are under 1 % of
 *                        its tree's items
 *   test_dist adversarial  an empty run, a NULL function or array on one
 *                        rank (EINVAL everywhere), shares of one item on a
 *                        duplicated communicator, twice
 *   test_dist burst      one process call pushes 10^6 items on rank 0: each
 *                        processed once; weft_dist_stats_print shows the
 *                        counts
 *   test_dist lifeline   rank 0's one item holds its process call until
 *                        every other rank is passive on its lifelines, then
 *                        pushes items: they reach the others only by
 *                        lifeline pushes
 *   test_dist self       weft_dist_run on MPI_COMM_SELF against weft_pool_run
 *   test_dist mismatch   item size and a refused field that differ across
 *                        ranks: EINVAL on every rank, no hang
 *   test_dist single     MPI initialised with MPI_Init (MPI_THREAD_SINGLE):
 *                        ENOTSUP on every rank
 *   test_dist fault      rank 1 dies inside a process call: the launcher
 *                        must end the run (the ctest wrapper checks it)
 *   test_dist latency    (a measurement, not a test) the round trip of an
 *                        empty message and of a 16 KiB one between ranks 0
 *                        and 1, for docs/distributed.md's scaling model
 *
 * "Counts agree": after the return each rank sums its own processed items
 * with MPI_Allreduce; an early return on any rank (its workers stopped
 * with items left) would make the sum short of the tree's size, and the
 * summed counters of weft_dist_stats must say the same on every rank.
 */
#include <weft/dist.h>

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int me, ranks;
static int failures;
/* The suite's cases with every initial item on rank 0: items processed on
 * other ranks and items shipped, summed (some cases are small enough to
 * end before anyone asks; not all of them). */
static uint64_t suite_off_first, suite_shipped_first;

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "FAILED (rank %d, %s:%d): ", me, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__); \
            fprintf(stderr, "\n"); \
            failures++; \
        } \
    } while (0)

/* ---- trees of known size ----
 * A node is (id, depth).  Its children are ids 4*id+1 .. 4*id+4, each
 * present if a hash of it says so, down to MAX_DEPTH: an irregular tree
 * whose every node has a distinct id below 4^(MAX_DEPTH+1). */
#define MAX_DEPTH 9
#define MAX_ID ((1u << (2 * (MAX_DEPTH + 1))) / 3 + 1)

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static bool child_exists(uint64_t id, unsigned salt)
{
    return mix(id * 31 + salt) % 8 < 5; /* 5 of 8: about 2.5 children */
}

static uint64_t tree_size(uint64_t id, unsigned depth, unsigned salt)
{
    uint64_t n = 1;
    if (depth == MAX_DEPTH)
        return n;
    for (uint64_t c = 4 * id + 1; c <= 4 * id + 4; c++)
        if (child_exists(c, salt))
            n += tree_size(c, depth + 1, salt);
    return n;
}

/* An item of `size` bytes: 1 byte: a compact tree of its own (below);
 * 16: id and depth; 256: id, depth and a pattern of the id. */
typedef struct test_case {
    size_t item_size;
    unsigned salt;
    _Atomic uint64_t counts[64 * 8]; /* per worker, 64 bytes apart */
    _Atomic unsigned char *seen;     /* a byte per id: how often processed */
    _Atomic int corrupt;
} test_case;

static void count_one(test_case *t, weft_pool_ctx *ctx)
{
    unsigned w = weft_pool_worker_id(ctx) % 64;
    /* Relaxed: a per-worker counter read after the run (joined). */
    atomic_fetch_add_explicit(&t->counts[w * 8], 1, memory_order_relaxed);
}

static void fill_pattern(unsigned char *item, size_t size, uint64_t id)
{
    for (size_t i = 16; i < size; i++)
        item[i] = (unsigned char)(mix(id + i) & 0xff);
}

/* 1-byte items: depth in the low nibble, a variant in the high one. */
static unsigned small_children(unsigned char b, unsigned char *out)
{
    unsigned d = b & 15, v = b >> 4, k = 0;
    if (d >= 11)
        return 0;
    unsigned n = 1 + (v * 7 + d) % 3;
    for (unsigned i = 0; i < n; i++)
        out[k++] = (unsigned char)((d + 1) | (((v * 5 + i * 3 + d) % 16) << 4));
    return k;
}

static uint64_t small_size(unsigned char b)
{
    unsigned char c[4];
    unsigned n = small_children(b, c);
    uint64_t total = 1;
    for (unsigned i = 0; i < n; i++)
        total += small_size(c[i]);
    return total;
}

/* About a microsecond of work per item, so that runs last long enough for
 * ranks to run dry, steal and ship while others still work. */
static _Atomic uint64_t sink;
static int work_per_item = 150; /* mixes; the duplicates mode asks for more */
static void work_a_little(uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < work_per_item; i++)
        x = mix(x + (uint64_t)i);
    /* Relaxed: only keeps the loop from being optimised away. */
    atomic_store_explicit(&sink, x, memory_order_relaxed);
}

static void visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    test_case *t = arg;
    count_one(t, ctx);
    work_a_little((uint64_t)(uintptr_t)item);
    if (t->item_size == 1) {
        unsigned char c[4];
        unsigned n = small_children(*(unsigned char *)item, c);
        for (unsigned i = 0; i < n; i++)
            weft_pool_push(ctx, &c[i]);
        return;
    }
    unsigned char *it = item;
    uint64_t id;
    uint32_t depth;
    memcpy(&id, it, 8);
    memcpy(&depth, it + 8, 4);
    if (id >= MAX_ID || depth > MAX_DEPTH) {
        /* Relaxed: a flag read after the run. */
        atomic_store_explicit(&t->corrupt, 1, memory_order_relaxed);
        return;
    }
    if (t->item_size > 16) {
        unsigned char want[256];
        fill_pattern(want, t->item_size, id);
        if (memcmp(it + 16, want + 16, t->item_size - 16) != 0)
            /* Relaxed: a flag read after the run. */
            atomic_store_explicit(&t->corrupt, 1, memory_order_relaxed);
    }
    /* Relaxed: a count per id, read after the run. */
    atomic_fetch_add_explicit(&t->seen[id], 1, memory_order_relaxed);
    if (depth == MAX_DEPTH)
        return;
    for (uint64_t c = 4 * id + 1; c <= 4 * id + 4; c++) {
        if (!child_exists(c, t->salt))
            continue;
        unsigned char child[256] = {0};
        uint32_t d = depth + 1;
        memcpy(child, &c, 8);
        memcpy(child + 8, &d, 4);
        fill_pattern(child, t->item_size, c);
        weft_pool_push(ctx, child);
    }
}

enum placement { ON_FIRST, ON_LAST, ON_ALL };
static const char *const placement_names[] = {"rank 0", "the last rank", "every rank"};

/* The initial items of this rank: the root's children (or the compact
 * tree's roots), dealt to the ranks the placement names. */
static size_t make_initial(test_case *t, enum placement where, unsigned char *out,
                           uint64_t *expected)
{
    size_t n = 0;
    *expected = 0;
    if (t->item_size == 1) {
        for (unsigned v = 0; v < 16; v++) {
            unsigned char b = (unsigned char)(v << 4);
            *expected += small_size(b);
            int owner = where == ON_FIRST ? 0 : where == ON_LAST ? ranks - 1 : (int)v % ranks;
            if (owner == me)
                out[n++] = b;
        }
        return n;
    }
    unsigned k = 0;
    for (uint64_t c = 1; c <= 4; c++) {
        if (!child_exists(c, t->salt))
            continue;
        *expected += tree_size(c, 1, t->salt);
        int owner = where == ON_FIRST ? 0 : where == ON_LAST ? ranks - 1 : (int)(k++) % ranks;
        if (owner != me)
            continue;
        unsigned char *it = out + n * t->item_size;
        memset(it, 0, t->item_size);
        uint32_t d = 1;
        memcpy(it, &c, 8);
        memcpy(it + 8, &d, 4);
        fill_pattern(it, t->item_size, c);
        n++;
    }
    return n;
}

static unsigned workers_per_rank(void) { return ranks <= 3 ? 2 : 1; }

/* The items processed and the items of the trees, summed over the cases
 * run so far (every rank has the totals). */
static uint64_t sum_processed, sum_expected;

static void run_case(weft_queue_kind queue, weft_pool_steal steal, bool lifelines, size_t size,
                     enum placement where, unsigned salt)
{
    test_case *t = calloc(1, sizeof *t);
    t->item_size = size;
    t->salt = salt;
    t->seen = calloc(MAX_ID, 1);
    CHECK(t->seen != NULL, "out of memory");
    weft_dist_config cfg;
    weft_dist_config_init(&cfg, size);
    cfg.pool.workers = workers_per_rank();
    cfg.pool.queue = queue;
    cfg.pool.steal = steal;
    cfg.pool.idempotent = weft_queue_is_idempotent(queue);
    cfg.lifelines = lifelines;
    cfg.pool.steal_half_max = 64; /* small shares: more messages */
    unsigned char initial[16 * 256];
    uint64_t expected;
    size_t n = make_initial(t, where, initial, &expected);
    while (size > 1 && expected < 2000) { /* a salt whose tree is not tiny */
        t->salt = salt += 1000;
        n = make_initial(t, where, initial, &expected);
    }
    weft_dist_stats st;
    int err = weft_dist_run(MPI_COMM_WORLD, &cfg, initial, n, visit, t, &st);
    char what[160];
    snprintf(what, sizeof what, "%s, steal %s, lifelines %s, %zu-byte items on %s",
             weft_queue_name(queue), steal == WEFT_POOL_STEAL_HALF ? "half" : "one",
             lifelines ? "on" : "off", size, placement_names[where]);
    CHECK(err == 0, "%s: weft_dist_run returned %d", what, err);
    uint64_t mine = 0;
    for (unsigned w = 0; w < 64; w++)
        mine += atomic_load(&t->counts[w * 8]);
    uint64_t all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    bool twice_ok = cfg.pool.idempotent;
    sum_processed += all;
    sum_expected += expected;
    if (twice_ok)
        CHECK(all >= expected, "%s: %llu items processed, fewer than the %llu of the tree", what,
              (unsigned long long)all, (unsigned long long)expected);
    else
        CHECK(all == expected, "%s: %llu items processed, the tree has %llu", what,
              (unsigned long long)all, (unsigned long long)expected);
    CHECK(st.local.processed == mine, "%s: stats say %llu processed here, the counters %llu", what,
          (unsigned long long)st.local.processed, (unsigned long long)mine);
    CHECK(st.total.processed == all, "%s: stats say %llu processed in all, the ranks %llu", what,
          (unsigned long long)st.total.processed, (unsigned long long)all);
    CHECK(st.total.items_shipped == st.total.items_received,
          "%s: %llu items shipped, %llu received", what, (unsigned long long)st.total.items_shipped,
          (unsigned long long)st.total.items_received);
    CHECK(st.total.messages_sent == st.total.messages_received,
          "%s: %llu messages sent, %llu received", what, (unsigned long long)st.total.messages_sent,
          (unsigned long long)st.total.messages_received);
    /* A duplicated item pushes its children again: a duplicated subtree
     * counts once in duplicates, every node of it in the excess. */
    CHECK(!twice_ok ? st.duplicates == 0 : st.duplicates <= all - expected,
          "%s: %llu duplicates counted, %llu processed, %llu in the tree", what,
          (unsigned long long)st.duplicates, (unsigned long long)all, (unsigned long long)expected);
    CHECK(st.ranks == ranks && st.rank == me, "%s: stats name rank %d of %d", what, st.rank,
          st.ranks);
    int corrupt = atomic_load(&t->corrupt), any_corrupt = 0;
    MPI_Allreduce(&corrupt, &any_corrupt, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(!any_corrupt, "%s: an item arrived damaged", what);
    uint64_t off0 = me == 0 ? 0 : mine, all_off0 = 0;
    MPI_Allreduce(&off0, &all_off0, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (where == ON_FIRST) {
        suite_off_first += all_off0;
        suite_shipped_first += st.total.items_shipped;
    }
    if (size > 1) {
        /* Every id of the tree seen once (at least once when twice is ok). */
        unsigned char *sum = calloc(MAX_ID, 1);
        MPI_Allreduce((void *)t->seen, sum, MAX_ID, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
        uint64_t distinct = 0, wrong = 0;
        for (uint64_t id = 0; id < MAX_ID; id++) {
            distinct += sum[id] != 0;
            wrong += !twice_ok && sum[id] > 1;
        }
        CHECK(distinct == expected && wrong == 0,
              "%s: %llu distinct ids processed (%llu more than once), the tree has %llu", what,
              (unsigned long long)distinct, (unsigned long long)wrong,
              (unsigned long long)expected);
        free(sum);
    }
    if (me == 0)
        printf("ok: %d ranks, %s: %llu items, %llu shipped in %llu messages, %llu steal requests, "
               "%llu lifeline pushes, %llu rounds\n",
               ranks, what, (unsigned long long)all, (unsigned long long)st.total.items_shipped,
               (unsigned long long)st.total.work_messages_sent,
               (unsigned long long)st.total.steal_requests_sent,
               (unsigned long long)st.total.lifeline_pushes,
               (unsigned long long)st.total.termination_rounds);
    free((void *)t->seen);
    free(t);
}

static void suite(void)
{
    static const size_t sizes[] = {1, 16, 256};
    unsigned salt = 1;
    /* Chase-Lev, steal-half: every size on every placement. */
    for (int where = ON_FIRST; where <= ON_ALL; where++)
        for (unsigned s = 0; s < 3; s++)
            run_case(WEFT_QUEUE_CHASE_LEV, WEFT_POOL_STEAL_HALF, true, sizes[s],
                     (enum placement)where, salt++);
    /* Every queue kind, steal one and half, lifelines on and off. */
    for (unsigned q = 0; q < WEFT_QUEUE_KINDS; q++) {
        run_case((weft_queue_kind)q, q % 2 ? WEFT_POOL_STEAL_ONE : WEFT_POOL_STEAL_HALF, q % 4 != 3,
                 sizes[q % 3], (enum placement)(q % 3), salt++);
    }
    /* Work moved: with everything on rank 0 at the start, the other ranks
     * got items only by steals, and processed some. */
    CHECK(ranks == 1 || (suite_shipped_first > 0 && suite_off_first > 0),
          "suite: where every item started on rank 0, %llu items were shipped and %llu "
          "processed on other ranks",
          (unsigned long long)suite_shipped_first, (unsigned long long)suite_off_first);
}

/* ---- duplicates of the idempotent LIFO, shares by single steals ----
 * The idempotent LIFO trades exactness for plain stores: its owner's write
 * of the tail may undo the steals made since its read of it, and every item
 * so re-exposed runs twice, with its subtree.  How many depends on where
 * the owners lose their CPUs, so one run may go far above the usual: of
 * 240 runs here, 3 ran more than 1 % of their items twice (up to 4.4 %),
 * and most under 0.1 %.
 * The check is on the median run: duplicates stay rare, whatever one
 * preemption does.  That a rank's share by single steals takes one item,
 * so that a window does not re-expose a whole share, is
 * test_pool_hosted's deterministic check. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void duplicates(void)
{
    enum { RUNS = 6 };
    double excess[RUNS];
    work_per_item = 3000; /* long enough for the ranks to share all along */
    for (unsigned i = 0; i < RUNS; i++) {
        uint64_t processed_before = sum_processed, expected_before = sum_expected;
        run_case(WEFT_QUEUE_IDEMPOTENT_LIFO, WEFT_POOL_STEAL_ONE, false, 16, ON_FIRST, 7001 + i);
        uint64_t expected = sum_expected - expected_before;
        /* Signed: a run short of its tree (run_case reports it) shows so. */
        int64_t extra = (int64_t)(sum_processed - processed_before) - (int64_t)expected;
        excess[i] = 100.0 * (double)extra / (double)expected;
    }
    char list[RUNS * 16] = "";
    for (unsigned i = 0; i < RUNS; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.2f", i ? " " : "",
                 excess[i]);
    qsort(excess, RUNS, sizeof excess[0], cmp_double);
    double median = (excess[RUNS / 2 - 1] + excess[RUNS / 2]) / 2;
    CHECK(median <= 1.0,
          "idem-lifo, steal one: the median run processed %.2f %% more items than its tree has "
          "(runs: %s %%)",
          median, list);
    if (me == 0)
        printf("ok: %d ranks, idem-lifo, steal one: items processed beyond the tree's, per run: %s "
               "%% (median %.2f %%)\n",
               ranks, list, median);
}

static void nothing(weft_pool_ctx *ctx, void *item, void *arg);

/* ---- adversarial calls: every rank must return the same, no hang ---- */
static void adversarial(void)
{
    weft_dist_config cfg;
    uint64_t item = 1;
    weft_dist_stats st;
    /* No initial item anywhere: an empty run. */
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = 1;
    int err = weft_dist_run(MPI_COMM_WORLD, &cfg, NULL, 0, nothing, NULL, &st);
    CHECK(err == 0 && st.total.processed == 0, "no items anywhere: %d, %llu processed", err,
          (unsigned long long)st.total.processed);
    /* A NULL process function on one rank only: EINVAL everywhere. */
    err = weft_dist_run(MPI_COMM_WORLD, &cfg, &item, 1, me == 0 ? NULL : nothing, NULL, NULL);
    CHECK(err == EINVAL, "a NULL process function on rank 0: returned %d", err);
    /* Items announced but no pointer, on the last rank only. */
    err =
        weft_dist_run(MPI_COMM_WORLD, &cfg, me == ranks - 1 ? NULL : &item, 1, nothing, NULL, NULL);
    CHECK(err == EINVAL, "a NULL initial array with one item: returned %d", err);
    /* Shares of one item, on a duplicated communicator, twice in a row. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int round = 0; round < 2; round++) {
        test_case *t = calloc(1, sizeof *t);
        CHECK(t != NULL, "out of memory");
        t->item_size = 16;
        t->salt = 9001 + (unsigned)round;
        t->seen = calloc(MAX_ID, 1);
        CHECK(t->seen != NULL, "out of memory");
        unsigned char initial[16 * 256];
        uint64_t expected;
        size_t n = make_initial(t, ON_ALL, initial, &expected);
        weft_dist_config_init(&cfg, 16);
        cfg.pool.workers = 1;
        cfg.pool.steal_half_max = 1;
        cfg.pool.queue = round ? WEFT_QUEUE_CENTRAL : WEFT_QUEUE_ABP;
        err = weft_dist_run(dup, &cfg, initial, n, visit, t, &st);
        CHECK(err == 0 && st.total.processed == expected,
              "round %d, shares of one item on a dup'ed communicator: %d, %llu of %llu", round, err,
              (unsigned long long)st.total.processed, (unsigned long long)expected);
        free((void *)t->seen);
        free(t);
    }
    MPI_Comm_free(&dup);
    if (me == 0)
        printf("ok: %d ranks: an empty run, a NULL function and a NULL array on one rank "
               "(EINVAL everywhere), shares of one item on a duplicated communicator\n",
               ranks);
}

/* ---- a burst of 10^6 pushes in one process call on rank 0 ---- */

#define BURST 1000000u

static void burst_visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    test_case *t = arg;
    count_one(t, ctx);
    uint64_t v;
    memcpy(&v, item, 8);
    if (v != UINT64_MAX)
        return;
    for (uint64_t i = 0; i < BURST; i++)
        weft_pool_push(ctx, &i);
}

static void burst(void)
{
    test_case *t = calloc(1, sizeof *t);
    weft_dist_config cfg;
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = workers_per_rank();
    uint64_t root = UINT64_MAX;
    weft_dist_stats st;
    int err = weft_dist_run(MPI_COMM_WORLD, &cfg, &root, me == 0, burst_visit, t, &st);
    CHECK(err == 0, "burst: weft_dist_run returned %d", err);
    uint64_t mine = 0, all = 0;
    for (unsigned w = 0; w < 64; w++)
        mine += atomic_load(&t->counts[w * 8]);
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK(all == BURST + 1ull, "burst: %llu items processed, %u pushed + 1",
          (unsigned long long)all, BURST);
    CHECK(st.total.processed == all && st.total.pushed == BURST,
          "burst: stats say %llu processed, %llu pushed", (unsigned long long)st.total.processed,
          (unsigned long long)st.total.pushed);
    /* Whether any of the burst leaves rank 0 depends on the schedule (rank
     * 0 may process the whole burst before another rank's request is
     * served, on a loaded machine): that work moves between ranks is
     * checked where it is forced, by the lifeline mode. */
    /* weft_dist_stats_print: this rank's line and the totals, as counted. */
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    if (f != NULL) {
        weft_dist_stats_print(&st, f);
        fflush(f);
        rewind(f);
        char buf[4096];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
        char mine_s[96], all_s[96];
        snprintf(mine_s, sizeof mine_s, "rank %d of %d: initial %d  processed %llu  pushed", me,
                 ranks, me == 0, (unsigned long long)st.local.processed);
        snprintf(all_s, sizeof all_s, "all %d ranks: initial 1  processed %llu  pushed %u", ranks,
                 (unsigned long long)all, BURST);
        CHECK(strstr(buf, mine_s) != NULL && strstr(buf, all_s) != NULL,
              "burst: weft_dist_stats_print lacks \"%s\" or \"%s\":\n%s", mine_s, all_s, buf);
    }
    if (me == 0)
        printf("ok: %d ranks, burst of %u pushes: %llu items shipped, rank 0 processed %llu\n",
               ranks, BURST, (unsigned long long)st.total.items_shipped, (unsigned long long)mine);
    free(t);
}

/* ---- lifelines: passive ranks get work only by a push ---- */

#define LIFELINE_ITEMS 200000u

static void lifeline_visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    test_case *t = arg;
    count_one(t, ctx);
    uint64_t v;
    memcpy(&v, item, 8);
    if (v != UINT64_MAX) {
        work_a_little(v);
        return;
    }
    /* The root: hold it (rank 0 has nothing else, so every request is
     * refused) until the other ranks have given up stealing, then push. */
    usleep(300000);
    for (uint64_t i = 0; i < LIFELINE_ITEMS; i++)
        weft_pool_push(ctx, &i);
}

static void lifeline(void)
{
    test_case *t = calloc(1, sizeof *t);
    weft_dist_config cfg;
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = 1;
    cfg.lifelines = true;
    cfg.steal_attempts = 1;
    uint64_t root = UINT64_MAX;
    weft_dist_stats st;
    int err = weft_dist_run(MPI_COMM_WORLD, &cfg, &root, me == 0, lifeline_visit, t, &st);
    CHECK(err == 0, "lifeline: weft_dist_run returned %d", err);
    uint64_t mine = 0, all = 0, off0 = 0;
    for (unsigned w = 0; w < 64; w++)
        mine += atomic_load(&t->counts[w * 8]);
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    uint64_t mine_off0 = me == 0 ? 0 : mine;
    MPI_Allreduce(&mine_off0, &off0, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    CHECK(all == LIFELINE_ITEMS + 1ull, "lifeline: %llu items processed, %u pushed + 1",
          (unsigned long long)all, LIFELINE_ITEMS);
    if (ranks > 1) {
        CHECK(st.total.lifelines_sent > 0 && st.total.lifeline_pushes > 0 && off0 > 0,
              "lifeline: %llu lifelines sent, %llu pushes along them, %llu items processed off "
              "rank 0: the passive ranks got no work by their lifelines",
              (unsigned long long)st.total.lifelines_sent,
              (unsigned long long)st.total.lifeline_pushes, (unsigned long long)off0);
    }
    if (me == 0)
        printf("ok: %d ranks, lifelines: %llu sent, %llu pushes, %llu items processed off rank 0\n",
               ranks, (unsigned long long)st.total.lifelines_sent,
               (unsigned long long)st.total.lifeline_pushes, (unsigned long long)off0);
    free(t);
}

/* ---- a one-rank communicator is weft_pool_run ---- */

static void self(void)
{
    for (unsigned q = 0; q < WEFT_QUEUE_KINDS; q++) {
        weft_pool_config pc;
        weft_pool_config_init(&pc, 16);
        pc.workers = 2;
        pc.queue = (weft_queue_kind)q;
        pc.idempotent = weft_queue_is_idempotent(pc.queue);
        test_case *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
        a->item_size = b->item_size = 16;
        a->salt = b->salt = 7;
        a->seen = calloc(MAX_ID, 1);
        b->seen = calloc(MAX_ID, 1);
        unsigned char initial[16 * 16];
        uint64_t expected;
        int saved = ranks, saved_me = me;
        ranks = 1;
        me = 0;
        size_t n = make_initial(a, ON_FIRST, initial, &expected);
        ranks = saved;
        me = saved_me;
        weft_pool_stats ps;
        int e1 = weft_pool_run(&pc, initial, n, visit, a, &ps);
        weft_dist_config dc;
        weft_dist_config_init(&dc, 16);
        dc.pool = pc;
        weft_dist_stats ds;
        int e2 = weft_dist_run(MPI_COMM_SELF, &dc, initial, n, visit, b, &ds);
        CHECK(e1 == 0 && e2 == 0, "self, %s: weft_pool_run %d, weft_dist_run %d",
              weft_queue_name(pc.queue), e1, e2);
        uint64_t da = 0, db = 0;
        for (uint64_t id = 0; id < MAX_ID; id++) {
            da += a->seen[id] != 0;
            db += b->seen[id] != 0;
        }
        CHECK(da == expected && db == expected, "self, %s: %llu and %llu distinct of %llu",
              weft_queue_name(pc.queue), (unsigned long long)da, (unsigned long long)db,
              (unsigned long long)expected);
        CHECK(ds.ranks == 1 && ds.total.processed == ds.local.pool.processed &&
                  ds.local.pool.workers == 2 && ds.total.messages_sent == 0 &&
                  (pc.idempotent || ds.total.processed == expected),
              "self, %s: the one-rank counters: %d ranks, %llu processed, %u workers, %llu "
              "messages",
              weft_queue_name(pc.queue), ds.ranks, (unsigned long long)ds.total.processed,
              ds.local.pool.workers, (unsigned long long)ds.total.messages_sent);
        free((void *)a->seen);
        free((void *)b->seen);
        free(a);
        free(b);
    }
    if (me == 0)
        printf("ok: weft_dist_run on MPI_COMM_SELF matches weft_pool_run on every queue\n");
}

/* ---- agreement failures ---- */

static void nothing(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx;
    (void)item;
    (void)arg;
}

static void mismatch(void)
{
    uint64_t item[32] = {0};
    weft_dist_config cfg;
    /* The last rank's items are larger. */
    weft_dist_config_init(&cfg, me == ranks - 1 && ranks > 1 ? 16 : 8);
    cfg.pool.workers = 1;
    int err = weft_dist_run(MPI_COMM_WORLD, &cfg, item, 1, nothing, NULL, NULL);
    CHECK(err == (ranks > 1 ? EINVAL : 0), "item size differs: returned %d", err);
    /* Rank 0 refuses its own configuration. */
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = 1;
    if (me == 0)
        cfg.steal_attempts = 0;
    err = weft_dist_run(MPI_COMM_WORLD, &cfg, item, 1, nothing, NULL, NULL);
    CHECK(err == EINVAL, "a refused steal_attempts: returned %d", err);
    /* The polling intervals out of their range (1 .. 1,000,000 us), one
     * rank at a time. */
    for (int k = 0; k < 4; k++) {
        weft_dist_config_init(&cfg, 8);
        cfg.pool.workers = 1;
        if (me == 0) {
            unsigned bad = k % 2 ? 1000001u : 0u;
            if (k < 2)
                cfg.poll_us = bad;
            else
                cfg.idle_poll_us = bad;
        }
        err = weft_dist_run(MPI_COMM_WORLD, &cfg, item, 1, nothing, NULL, NULL);
        CHECK(err == EINVAL, "a refused %s of %u: returned %d", k < 2 ? "poll_us" : "idle_poll_us",
              k % 2 ? 1000001u : 0u, err);
    }
    /* A policy that differs. */
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = 1;
    cfg.lifelines = me % 2 == 0;
    err = weft_dist_run(MPI_COMM_WORLD, &cfg, item, 1, nothing, NULL, NULL);
    CHECK(err == (ranks > 1 ? EINVAL : 0), "lifelines differ: returned %d", err);
    /* And a good run after the refused ones. */
    test_case *t = calloc(1, sizeof *t);
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = 1;
    err = weft_dist_run(MPI_COMM_WORLD, &cfg, item, me == 0, burst_visit, t, NULL);
    CHECK(err == 0, "a run after the refused ones: returned %d", err);
    free(t);
    if (me == 0)
        printf("ok: mismatched and refused configurations: every rank returned EINVAL\n");
}

/* ---- a rank that dies ---- */

static void dying_visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    test_case *t = arg;
    count_one(t, ctx);
    uint64_t v;
    memcpy(&v, item, 8);
    /* Relaxed: one worker per rank here. */
    if (me == 1 && atomic_load_explicit(&t->counts[0], memory_order_relaxed) == 100) {
        fprintf(stderr, "test_dist: rank 1 dies in a process call\n");
        raise(SIGKILL);
    }
    if (v == UINT64_MAX)
        for (uint64_t i = 0; i < 100000; i++)
            weft_pool_push(ctx, &i);
    else
        usleep(10); /* slow enough for the items to spread */
}

static void fault(void)
{
    test_case *t = calloc(1, sizeof *t);
    weft_dist_config cfg;
    weft_dist_config_init(&cfg, 8);
    cfg.pool.workers = 1;
    cfg.pool.steal = WEFT_POOL_STEAL_ONE;
    uint64_t root = UINT64_MAX;
    weft_dist_run(MPI_COMM_WORLD, &cfg, &root, me == 0, dying_visit, t, NULL);
    fprintf(stderr, "test_dist: rank %d: the run returned though rank 1 died\n", me);
    free(t);
}

static void latency(void)
{
    static unsigned char buf[16384];
    if (ranks < 2) {
        printf("latency: needs 2 ranks\n");
        return;
    }
    size_t sizes[2] = {0, sizeof buf};
    for (int s = 0; s < 2; s++) {
        const int rounds = 20000;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < rounds; i++) {
            if (me == 0) {
                MPI_Send(buf, (int)sizes[s], MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)sizes[s], MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (me == 1) {
                MPI_Recv(buf, (int)sizes[s], MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)sizes[s], MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double t = MPI_Wtime() - t0;
        if (me == 0)
            printf("latency: %zu-byte message: round trip %.2f us (%d rounds)\n", sizes[s],
                   t / rounds * 1e6, rounds);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "suite";
    int provided = 0;
    if (strcmp(mode, "single") == 0) {
        MPI_Init(&argc, &argv);
        MPI_Query_thread(&provided);
    } else {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (strcmp(mode, "suite") == 0) {
        suite();
    } else if (strcmp(mode, "adversarial") == 0) {
        adversarial();
    } else if (strcmp(mode, "duplicates") == 0) {
        duplicates();
    } else if (strcmp(mode, "burst") == 0) {
        burst();
    } else if (strcmp(mode, "lifeline") == 0) {
        lifeline();
    } else if (strcmp(mode, "self") == 0) {
        self();
    } else if (strcmp(mode, "mismatch") == 0) {
        mismatch();
    } else if (strcmp(mode, "single") == 0) {
        if (provided >= MPI_THREAD_FUNNELED) {
            if (me == 0)
                printf("ok: MPI_Init provides %d here, not MPI_THREAD_SINGLE: nothing to test\n",
                       provided);
        } else {
            weft_dist_config cfg;
            weft_dist_config_init(&cfg, 8);
            uint64_t item = 1;
            int err = weft_dist_run(MPI_COMM_WORLD, &cfg, &item, 1, nothing, NULL, NULL);
            CHECK(err == ENOTSUP, "MPI_THREAD_SINGLE: returned %d", err);
            if (me == 0 && err == ENOTSUP)
                printf("ok: MPI_THREAD_SINGLE: every rank returned ENOTSUP\n");
        }
    } else if (strcmp(mode, "fault") == 0) {
        fault();
    } else if (strcmp(mode, "latency") == 0) {
        latency();
    } else {
        fprintf(
            stderr,
            "usage: test_dist "
            "[suite|duplicates|adversarial|burst|lifeline|self|mismatch|single|fault|latency]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    if (me == 0)
        printf("%s: %s (%d ranks)\n", mode, all ? "FAILED" : "passed", ranks);
    return all ? 1 : 0;
}
