// SPDX-License-Identifier: Apache-2.0
/* Misuse of the work-pool API: every bad configuration or call returns an
 * error code with a "weft:" message naming the problem, never a crash or a
 * hang, and nothing is processed.
 *
 * Usage: test_pool_misuse
 */
#include "../check.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <weft/pool.h>

/* Runs fn with stderr redirected to a file; returns what it printed. */
static char captured[4096];
static const char *capture(void (*fn)(void *), void *arg)
{
    fflush(stderr);
    char path[] = "/tmp/weft-pool-misuse-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    fn(arg);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, captured, sizeof captured - 1);
    captured[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return captured;
}

static _Atomic int calls;

static void count_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx, (void)item, (void)arg;
    /* Relaxed: a count, read after the run. */
    atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed);
}

typedef struct bad_run {
    weft_pool_config cfg;
    bool null_cfg, null_fn, null_initial;
    int result;
} bad_run;

static void do_run(void *arg)
{
    bad_run *b = arg;
    uint64_t items[4] = {1, 2, 3, 4};
    b->result = weft_pool_run(b->null_cfg ? NULL : &b->cfg, b->null_initial ? NULL : items, 4,
                              b->null_fn ? NULL : count_fn, NULL, NULL);
}

static void expect_refused(bad_run *b, int err, const char *needle, const char *what)
{
    /* Relaxed: no pool runs. */
    atomic_store_explicit(&calls, 0, memory_order_relaxed);
    const char *out = capture(do_run, b);
    CHECK(b->result == err, "%s: returned %d, expected %d", what, b->result, err);
    CHECK(strstr(out, "weft: ") != NULL && strstr(out, needle) != NULL,
          "%s: message lacks \"%s\": %s", what, needle, out);
    /* Relaxed: the run is over. */
    CHECK(atomic_load_explicit(&calls, memory_order_relaxed) == 0, "%s: items were processed",
          what);
    printf("ok: %s -> %s", what, out);
}

static bad_run base(void)
{
    bad_run b;
    memset(&b, 0, sizeof b);
    weft_pool_config_init(&b.cfg, 8);
    b.cfg.workers = 2;
    return b;
}

/* ---- pushes that are not allowed ---- */

static weft_pool_ctx *saved_ctx;
static int push_results[4];

static void inner_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx, (void)item, (void)arg;
    uint64_t x = 5;
    /* The outer pool's ctx inside an inner pool's process function. */
    push_results[2] = weft_pool_push(saved_ctx, &x);
}

static void misuse_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)item, (void)arg;
    saved_ctx = ctx;
    push_results[0] = weft_pool_push(ctx, NULL);
    uint64_t x = 1;
    push_results[1] = weft_pool_push(NULL, &x);
    /* A nested pool is fine; pushing to the outer one from it is not. */
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = 2;
    CHECK(weft_pool_run(&cfg, &x, 1, inner_fn, NULL, NULL) == 0, "nested run");
}

static void do_push_misuse(void *arg)
{
    (void)arg;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = 1;
    uint64_t x = 0;
    CHECK(weft_pool_run(&cfg, &x, 1, misuse_fn, NULL, NULL) == 0, "run");
    /* After the run the context is dead (its memory is freed: the calls
     * must not read it, which ASan checks in CI). */
    push_results[3] = weft_pool_push(saved_ctx, &x);
    CHECK(weft_pool_worker_id(saved_ctx) == UINT32_MAX && weft_pool_workers(saved_ctx) == 0,
          "a dead ctx is invalid");
}

/* A process function that ends its thread (pthread_exit) on a thread of
 * the pool's: the run cannot end without it, and says so.  Worker 0 waits
 * for that, so that another worker takes an item first. */
static _Atomic int exiting;
static void exits_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    uint64_t n = *(uint64_t *)item;
    if (weft_pool_worker_id(ctx) != 0) {
        /* Relaxed: a flag for worker 0's wait below. */
        atomic_store_explicit(&exiting, 1, memory_order_relaxed);
        pthread_exit(NULL);
    }
    for (uint64_t i = 0; n == 0 && i < 64; i++)
        CHECK(weft_pool_push(ctx, &i) == 0, "push");
    /* Relaxed: as above. */
    for (int ms = 0; n == 0 && ms < 10000 && !atomic_load_explicit(&exiting, memory_order_relaxed);
         ms++)
        usleep(1000);
}

static void pthread_exit_child(void)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = 2;
    uint64_t x = 0;
    (void)weft_pool_run(&cfg, &x, 1, exits_fn, NULL, NULL);
}

/* A process function that forks, the child going on with the item: the
 * child stops with the reason where the item returns (it hung, waiting
 * for the pool's other threads).  The parent waits for the child and
 * exits non-zero if the child aborted. */
static _Atomic int forked_child_aborted;
static void forks_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx, (void)item, (void)arg;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        return; /* the child continues the item */
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "fork and wait");
    atomic_store(&forked_child_aborted, WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

static __attribute__((unused)) void fork_child(void)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = 2;
    uint64_t x = 0;
    CHECK(weft_pool_run(&cfg, &x, 1, forks_fn, NULL, NULL) == 0, "run");
    _exit(atomic_load(&forked_child_aborted) ? 1 : 0);
}

/* The calling thread cancelled during its run, by an item of its own
 * (`self`) or by another thread while a pool thread's item holds the run
 * open: the run ends whole, every item processed and every thread
 * joined, and the cancellation acts at the caller's next cancellation
 * point after it. */
typedef struct cancel_run {
    bool self;
    _Atomic int requested; /* the other thread has cancelled the caller */
    _Atomic unsigned processed;
    int result;
    unsigned processed_at_return;
    bool returned, survived;
} cancel_run;

#define CANCEL_CHILDREN 32u

static void cancels_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    cancel_run *c = arg;
    uint64_t n = *(uint64_t *)item;
    if (n < 2) {
        for (uint64_t i = 0; i < CANCEL_CHILDREN; i++) {
            uint64_t child = 2 + i;
            CHECK(weft_pool_push(ctx, &child) == 0, "push");
        }
    }
    if (n == 0 && c->self)
        CHECK(pthread_cancel(pthread_self()) == 0, "cancel self");
    /* Relaxed: a flag that only holds this item open, no data with it. */
    for (int ms = 0; n == 1 && !c->self && ms < 10000 &&
                     !atomic_load_explicit(&c->requested, memory_order_relaxed);
         ms++)
        usleep(1000);
    usleep(100); /* a cancellation point in every item */
    /* Relaxed: a count, read once the run has joined its threads. */
    atomic_fetch_add_explicit(&c->processed, 1, memory_order_relaxed);
}

/* The run, in a frame of its own that returns before the cancellation
 * acts: a cancellation unwinds the frames it leaves without their
 * epilogues, and AddressSanitizer would find the redzones it had put
 * around their locals still marked when the thread's exit code reuses
 * that stack (a false report); the caller below has no such locals. */
static __attribute__((noinline)) void run_to_be_cancelled(cancel_run *c)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = 2;
    uint64_t seeds[2] = {0, 1}; /* one per worker: the caller's and a pool thread's */
    c->result = weft_pool_run(&cfg, seeds, 2, cancels_fn, c, NULL);
    /* Relaxed: the run is over. */
    c->processed_at_return = atomic_load_explicit(&c->processed, memory_order_relaxed);
    c->returned = true;
}

static void *cancelled_caller(void *arg)
{
    cancel_run *c = arg;
    run_to_be_cancelled(c);
    pthread_testcancel();
    c->survived = true;
    return NULL;
}

static void test_cancelled_caller(bool self)
{
    cancel_run c = {.self = self};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, cancelled_caller, &c) == 0, "create");
    if (!self) {
        /* Relaxed: the count only tells that the run has begun. */
        while (atomic_load_explicit(&c.processed, memory_order_relaxed) == 0)
            usleep(1000);
        CHECK(pthread_cancel(t) == 0, "cancel");
        /* Relaxed: as in cancels_fn. */
        atomic_store_explicit(&c.requested, 1, memory_order_relaxed);
    }
    void *ret = NULL;
    CHECK(pthread_join(t, &ret) == 0, "join");
    const char *by = self ? "by its own item" : "by another thread";
    CHECK(ret == PTHREAD_CANCELED, "caller cancelled %s: the cancellation never acted", by);
    CHECK(c.returned && !c.survived, "caller cancelled %s: returned %d, survived %d", by,
          c.returned, c.survived);
    CHECK(c.result == 0 && c.processed_at_return == 2 + 2 * CANCEL_CHILDREN,
          "caller cancelled %s: result %d, %u of %u items processed", by, c.result,
          c.processed_at_return, 2 + 2 * CANCEL_CHILDREN);
    printf("ok: a caller cancelled %s during its run: the run ended whole, then the thread\n", by);
}

int main(void)
{
    bad_run b;

    b = base();
    b.null_cfg = true;
    expect_refused(&b, EINVAL, "cfg is NULL", "NULL configuration");
    b = base();
    b.null_fn = true;
    expect_refused(&b, EINVAL, "process function is NULL", "NULL process function");
    b = base();
    b.null_initial = true;
    expect_refused(&b, EINVAL, "initial is NULL", "NULL initial items");
    b = base();
    b.cfg.item_size = 0;
    expect_refused(&b, EINVAL, "item_size 0", "item_size 0");
    b = base();
    b.cfg.item_size = WEFT_POOL_MAX_ITEM_SIZE + 1;
    expect_refused(&b, EINVAL, "item_size 257", "item_size too large");
    b = base();
    b.cfg.queue = (weft_queue_kind)99;
    expect_refused(&b, EINVAL, "unknown queue kind 99", "unknown queue kind");
    b = base();
    b.cfg.workers = WEFT_POOL_MAX_WORKERS + 1;
    expect_refused(&b, EINVAL, "more than the limit", "too many workers");
    b = base();
    b.cfg.steal = (weft_pool_steal)7;
    expect_refused(&b, EINVAL, "unknown steal policy", "unknown steal policy");
    b = base();
    b.cfg.overflow = (weft_pool_overflow)7;
    expect_refused(&b, EINVAL, "unknown overflow policy", "unknown overflow policy");
    b = base();
    b.cfg.capacity = (size_t)1 << 40;
    expect_refused(&b, EINVAL, "capacity", "capacity too large");
    b = base();
    b.cfg.steal_half_max = 0;
    expect_refused(&b, EINVAL, "steal_half_max 0", "steal_half_max 0");
    /* Every queue that may deliver an item twice needs cfg.idempotent. */
    for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++) {
        if (!weft_queue_is_idempotent((weft_queue_kind)k))
            continue;
        b = base();
        b.cfg.queue = (weft_queue_kind)k;
        char what[64];
        snprintf(what, sizeof what, "non-idempotent work on %s", weft_queue_name(b.cfg.queue));
        expect_refused(&b, EINVAL, "may process an item more than once", what);
        b.cfg.idempotent = true;
        /* Relaxed: no pool runs. */
        atomic_store_explicit(&calls, 0, memory_order_relaxed);
        do_run(&b);
        CHECK(b.result == 0, "%s with cfg.idempotent: %d", what, b.result);
        /* Relaxed: the run is over. */
        CHECK(atomic_load_explicit(&calls, memory_order_relaxed) >= 4, "items missing");
    }

    /* Names. */
    weft_queue_kind kind;
    for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++) {
        CHECK(weft_queue_from_name(weft_queue_name((weft_queue_kind)k), &kind) == 0 && kind == k,
              "name round trip of kind %u", k);
    }
    CHECK(weft_queue_from_name("no-such-queue", &kind) == EINVAL, "unknown name");
    CHECK(weft_queue_from_name(NULL, &kind) == EINVAL, "NULL name");
    CHECK(strcmp(weft_queue_name((weft_queue_kind)42), "?") == 0, "unknown kind's name");
    CHECK(weft_pool_worker_id(NULL) == UINT32_MAX && weft_pool_workers(NULL) == 0, "NULL ctx");

    /* Zero items: nothing to do, success. */
    b = base();
    weft_pool_stats st;
    CHECK(weft_pool_run(&b.cfg, NULL, 0, count_fn, NULL, &st) == 0 && st.processed == 0,
          "zero items");

    /* Pushes outside the rules. */
    uint64_t x = 3;
    const char *out = capture(do_push_misuse, NULL);
    CHECK(push_results[0] == EINVAL && strstr(out, "item is NULL"), "push NULL item: %d, %s",
          push_results[0], out);
    CHECK(push_results[1] == EINVAL && strstr(out, "not the context"), "push NULL ctx: %d",
          push_results[1]);
    CHECK(push_results[2] == EINVAL, "push with the outer ctx from a nested pool: %d",
          push_results[2]);
    CHECK(push_results[3] == EINVAL && strstr(out, "outside a pool's process function"),
          "push after the run: %d", push_results[3]);
    CHECK(weft_pool_push(NULL, &x) == EINVAL, "push from main");
    printf("ok: bad pushes -> EINVAL:\n%s", out);
    expect_death(pthread_exit_child,
                 "weft: work pool worker 1's thread ended inside an item's process function "
                 "(pthread_exit, or a cancellation)",
                 "pthread_exit in a process function on a pool thread");
    test_cancelled_caller(true);
    test_cancelled_caller(false);
#if !defined(__SANITIZE_THREAD__) /* (fork in a multi-threaded process) */
    expect_death(fork_child, "weft: fork() in a work pool's process function",
                 "fork in a process function, the child going on with the item");
#endif
    printf("all pool misuse tests passed\n");
    return 0;
}
