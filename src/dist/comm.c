// SPDX-License-Identifier: Apache-2.0
/* The communicator of one rank: the thread that called weft_dist_run,
 * the only one that talks MPI (MPI_THREAD_FUNNELED is enough), while the
 * local pool's workers process items.  docs/distributed.md has the
 * argument in full; the model of its termination detection is
 * verification/dist_term.pml.
 *
 * Messages (tags), all point-to-point on the run's own communicator:
 *   REQ        thief -> random victim: "send me a share"
 *   LIFELINE   thief -> lifeline buddy: the same, and if you have nothing
 *              now, remember me and push a share when you have one
 *   WORK       victim -> thief: k items, the answer to a REQ
 *   WORK_LL    the answer to a LIFELINE, at once or later (a push)
 *   NOWORK     victim -> thief: refusal of a REQ
 *   TOKEN      rank i -> rank i+1: the termination token
 *   DONE       rank 0 -> every rank: the run is over
 *
 * A rank is *active* while its local pool may hold items, *passive* once
 * the pool is quiescent (hosted.h): then nothing can create an item here
 * until a WORK message arrives.  The communicator never holds items: a
 * share is taken and sent in one step.
 *
 * Stealing: a passive rank asks up to steal_attempts random victims, one
 * at a time (each answers WORK or NOWORK), then sends LIFELINE to its
 * hypercube buddies (rank ^ 2^k) and waits quietly; a rank that gets work
 * answers its recorded lifelines with shares as long as it has items to
 * share.  Any WORK ends the idle period; the next one starts again with
 * random victims, and lifelines still registered are not sent again.
 *
 * Termination: Dijkstra-Safra (EWD998).  Every rank counts WORK messages
 * sent minus received (c) and turns black when it receives one.  Rank 0,
 * when passive, sends a white token with sum 0 to rank 1 and turns white;
 * rank i, when passive, adds c to the token's sum, blackens it if it is
 * black itself, turns white and passes it to i+1; when the token is back,
 * rank 0 (passive) concludes that the run is over iff the token is white,
 * it is white itself and sum + c == 0; else it starts a new round.  Only
 * WORK messages create work, so only they are counted.  The rules are
 * safra.h; this file calls them where the events happen.
 *
 * The end: rank 0 sends DONE to every rank; each stops its pool, then all
 * learn (one MPI_Reduce_scatter_block of the per-destination message
 * counts) how many messages were sent to them in all and receive the ones
 * still on the way (refusals, requests, lifelines), so that nothing of the
 * run is left in MPI; a WORK message among them would be a bug and aborts.
 */
#include "dist/dist.h"
#include "dist/safra.h"

#include "runtime/diagnostics.h"
#include "sys/clock.h"
#include "sys/rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    TAG_REQ = 1,
    TAG_LIFELINE = 2,
    TAG_WORK = 3,
    TAG_WORK_LL = 4,
    TAG_NOWORK = 5,
    TAG_TOKEN = 6,
    TAG_DONE = 7,
};

typedef struct wd_rank {
    MPI_Comm comm;
    int me, n;
    const weft_dist_config *cfg;
    wp_pool *pool;
    size_t item_size;
    size_t share_cap;     /* items per WORK message: steal_half_max */
    unsigned char *taken; /* a share as taken from the pool */
    unsigned char *share; /* its items that go */
    unsigned char *kept;  /* its items that stay */
    /* The one posted receive, for any source and tag. */
    unsigned char *rbuf;
    int rbuf_bytes;
    MPI_Request rreq;
    /* Sends not yet complete, and their buffers. */
    MPI_Request *sreq;
    void **sbuf;
    size_t ns, scap;
    /* Work and stealing. */
    bool active;
    bool done;
    uint64_t idle_since;
    int victim;            /* the outstanding REQ's victim, -1: none */
    unsigned attempts;     /* random attempts left in this idle period */
    bool quiet;            /* lifelines sent: waiting for a push */
    uint64_t lifeline_out; /* bit k: registered with buddy me ^ 2^k */
    uint64_t lifeline_in;  /* bit k: buddy me ^ 2^k waits for a push */
    wd_safra safra;        /* Dijkstra-Safra termination detection (safra.h) */
    /* Every message sent, per destination; every message handled. */
    uint64_t *sent_to;
    uint64_t received;
    uint64_t rng;
    weft_dist_rank_stats *st;
} wd_rank;

static void protocol_failed(wd_rank *r, const char *what, int peer)
{
    weft__warn("weft_dist_run: rank %d: %s (from rank %d); aborting the run on every rank", r->me,
               what, peer);
    MPI_Abort(r->comm, 70);
    abort();
}

void weft__wd_mpi_failed(MPI_Comm comm, int rc, const char *call, int peer)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    int me = -1;
    MPI_Comm_rank(comm, &me);
    if (peer >= 0)
        weft__warn("weft_dist_run: rank %d: %s with rank %d failed: %s; aborting the run on every "
                   "rank (no fault tolerance: docs/distributed.md, Faults)",
                   me, call, peer, text);
    else
        weft__warn("weft_dist_run: rank %d: %s failed: %s; aborting the run on every rank (no "
                   "fault tolerance: docs/distributed.md, Faults)",
                   me, call, text);
    MPI_Abort(comm, 70);
    abort();
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- sending and receiving ---- */

static void post_receive(wd_rank *r)
{
    wd_check(
        r->comm,
        MPI_Irecv(r->rbuf, r->rbuf_bytes, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, r->comm, &r->rreq),
        "MPI_Irecv", -1);
}

/* Sends a copy of buf (bytes) without waiting; the copy is freed when the
 * send completes. */
static void send_msg(wd_rank *r, int dest, int tag, const void *buf, size_t bytes)
{
    if (r->ns == r->scap) {
        size_t cap = r->scap ? r->scap * 2 : 16;
        MPI_Request *req = realloc(r->sreq, cap * sizeof *req);
        if (req != NULL)
            r->sreq = req;
        void **bufs = realloc(r->sbuf, cap * sizeof *bufs);
        if (req == NULL || bufs == NULL)
            weft__fatal("out of memory: %zu messages in flight on rank %d", r->ns, r->me);
        r->sbuf = bufs;
        r->scap = cap;
    }
    void *copy = NULL;
    if (bytes > 0) {
        copy = malloc(bytes);
        if (copy == NULL)
            weft__fatal("out of memory: a message of %zu bytes on rank %d", bytes, r->me);
        memcpy(copy, buf, bytes);
    }
    wd_check(r->comm, MPI_Isend(copy, (int)bytes, MPI_BYTE, dest, tag, r->comm, &r->sreq[r->ns]),
             "MPI_Isend", dest);
    r->sbuf[r->ns++] = copy;
    r->sent_to[dest]++;
    r->st->messages_sent++;
}

/* Frees the buffers of completed sends. */
static void reap_sends(wd_rank *r)
{
    for (size_t i = 0; i < r->ns;) {
        int flag = 0;
        wd_check(r->comm, MPI_Test(&r->sreq[i], &flag, MPI_STATUS_IGNORE), "MPI_Test (send)", -1);
        if (!flag) {
            i++;
            continue;
        }
        free(r->sbuf[i]);
        r->ns--;
        r->sreq[i] = r->sreq[r->ns];
        r->sbuf[i] = r->sbuf[r->ns];
    }
}

/* k items of r->share to dest. */
static void send_work(wd_rank *r, int dest, size_t k, int tag)
{
    wd_safra_sent(&r->safra);
    r->st->work_messages_sent++;
    r->st->items_shipped += k;
    r->st->bytes_shipped += k * r->item_size;
    send_msg(r, dest, tag, r->share, k * r->item_size);
}

/* ---- lifelines: the hypercube ---- */

/* The bit of buddy b (b differs from me in one bit), or 0 if b is none. */
static uint64_t buddy_bit(const wd_rank *r, int b)
{
    unsigned x = (unsigned)(r->me ^ b);
    return x != 0 && (x & (x - 1)) == 0 ? (uint64_t)x : 0;
}

/* ---- states ---- */

/* A new round of random steal attempts: as many as configured, at most
 * one per other rank. */
static void reset_attempts(wd_rank *r)
{
    unsigned others = (unsigned)r->n - 1;
    r->attempts = r->cfg->steal_attempts < others ? r->cfg->steal_attempts : others;
}

static void become_active(wd_rank *r)
{
    if (r->active)
        return;
    r->active = true;
    r->st->idle_ns += weft_now_ns() - r->idle_since;
    r->quiet = false;
}

static void become_passive(wd_rank *r)
{
    r->active = false;
    r->idle_since = weft_now_ns();
    reset_attempts(r);
    r->quiet = false;
}

/* A share for another rank: about half of this rank's fullest queue, taken
 * from the end its thieves steal from (the oldest items: in a depth-first
 * search the shallowest, the largest subtrees), of which every other item
 * is kept: the items at even positions go, those at odd positions go back
 * to this rank's pool (its inbox).  Shipping the whole oldest half would
 * give the thief nearly all the work of a depth-first stack (its oldest
 * items hold it) and leave this rank to run dry and ask back at once; the
 * alternation halves the work at every depth, like GLB's split of each
 * level of a UTS stack.  Returns the number of items to ship, in share. */
static size_t take_share(wd_rank *r)
{
    if (!r->active)
        return 0;
    size_t k = weft__wp_hosted_take_share(r->pool, r->taken);
    size_t go = 0, kept = 0, z = r->item_size;
    for (size_t i = 0; i < k; i++) {
        if (i % 2 == 0)
            memcpy(r->share + go++ * z, r->taken + i * z, z);
        else
            memcpy(r->kept + kept++ * z, r->taken + i * z, z);
    }
    if (kept > 0)
        weft__wp_hosted_inject(r->pool, r->kept, kept);
    return go;
}

/* A REQ or LIFELINE from src: a share now, or a refusal (REQ), or a
 * record to push later (LIFELINE). */
static void answer_request(wd_rank *r, int src, bool lifeline)
{
    size_t k = take_share(r);
    if (k > 0) {
        send_work(r, src, k, lifeline ? TAG_WORK_LL : TAG_WORK);
        r->st->steal_requests_served++;
    } else if (lifeline) {
        uint64_t bit = buddy_bit(r, src);
        if (bit == 0)
            protocol_failed(r, "a lifeline request from a rank that is no lifeline buddy", src);
        r->lifeline_in |= bit;
    } else {
        send_msg(r, src, TAG_NOWORK, NULL, 0);
        r->st->steal_requests_refused++;
    }
}

static void on_message(wd_rank *r, int src, int tag, int bytes, bool draining)
{
    r->received++;
    r->st->messages_received++;
    if (draining) {
        if (tag == TAG_WORK || tag == TAG_WORK_LL)
            protocol_failed(r, "items arrived after the end of the run", src);
        return; /* requests and refusals of the finished run */
    }
    switch (tag) {
    case TAG_REQ: answer_request(r, src, false); break;
    case TAG_LIFELINE: answer_request(r, src, true); break;
    case TAG_WORK:
    case TAG_WORK_LL: {
        size_t k = (size_t)bytes / r->item_size;
        if (bytes <= 0 || (size_t)bytes % r->item_size != 0 || k > r->share_cap)
            protocol_failed(r, "a work message of a size that is no whole number of items", src);
        wd_safra_received(&r->safra);
        r->st->work_messages_received++;
        r->st->items_received += k;
        weft__wp_hosted_inject(r->pool, r->rbuf, k);
        become_active(r);
        if (tag == TAG_WORK && src == r->victim)
            r->victim = -1;
        if (tag == TAG_WORK_LL)
            r->lifeline_out &= ~buddy_bit(r, src);
        break;
    }
    case TAG_NOWORK:
        if (src != r->victim)
            protocol_failed(r, "a refusal of a request this rank did not make", src);
        r->victim = -1;
        r->st->steal_requests_failed++;
        break;
    case TAG_TOKEN:
        if ((size_t)bytes != sizeof(wd_token) || src != (r->me + r->n - 1) % r->n)
            protocol_failed(r, "a malformed termination token", src);
        wd_token token;
        memcpy(&token, r->rbuf, sizeof token);
        wd_safra_token_arrived(&r->safra, &token);
        break;
    case TAG_DONE:
        if (src != 0)
            protocol_failed(r, "an end of the run not sent by rank 0", src);
        r->done = true;
        break;
    default: protocol_failed(r, "a message with an unknown tag", src);
    }
}

/* Handles every message that has arrived; true if there was one. */
static bool progress(wd_rank *r)
{
    bool any = false;
    while (!r->done) {
        int flag = 0;
        MPI_Status status;
        wd_check(r->comm, MPI_Test(&r->rreq, &flag, &status), "MPI_Test (receive)", -1);
        if (!flag)
            break;
        int bytes = 0;
        wd_check(r->comm, MPI_Get_count(&status, MPI_BYTE, &bytes), "MPI_Get_count",
                 status.MPI_SOURCE);
        on_message(r, status.MPI_SOURCE, status.MPI_TAG, bytes, false);
        any = true;
        if (!r->done)
            post_receive(r);
    }
    reap_sends(r);
    return any;
}

/* Active: shares for the buddies that wait on their lifelines. */
static bool push_lifelines(wd_rank *r)
{
    bool sent = false;
    while (r->lifeline_in != 0) {
        uint64_t bit = r->lifeline_in & (~r->lifeline_in + 1);
        size_t k = take_share(r);
        if (k == 0)
            break;
        send_work(r, r->me ^ (int)bit, k, TAG_WORK_LL);
        r->st->lifeline_pushes++;
        r->lifeline_in &= ~bit;
        sent = true;
    }
    return sent;
}

/* Passive: the token, then a random victim or the lifelines.  True if it
 * did something. */
static bool idle_step(wd_rank *r)
{
    bool acted = false;
    if (r->me == 0) {
        if (r->safra.has_token && wd_safra_concludes(&r->safra)) {
            for (int i = 1; i < r->n; i++)
                send_msg(r, i, TAG_DONE, NULL, 0);
            r->done = true;
            return true;
        }
        if (!r->safra.round_open) {
            wd_token t = wd_safra_start_round(&r->safra, (int32_t)(r->st->termination_rounds + 1));
            send_msg(r, 1, TAG_TOKEN, &t, sizeof t);
            r->st->termination_rounds++;
            acted = true;
        }
    } else if (r->safra.has_token) {
        wd_token t = wd_safra_pass(&r->safra);
        send_msg(r, (r->me + 1) % r->n, TAG_TOKEN, &t, sizeof t);
        r->st->tokens_passed++;
        acted = true;
    }
    if (r->victim >= 0)
        return acted;
    if (r->attempts > 0) {
        int v = (int)weft_rng_below(&r->rng, (uint32_t)r->n - 1);
        if (v >= r->me)
            v++; /* anyone but me */
        send_msg(r, v, TAG_REQ, NULL, 0);
        r->victim = v;
        r->attempts--;
        r->st->steal_requests_sent++;
        return true;
    }
    if (!r->cfg->lifelines) {
        /* Keep asking random victims; the caller's back-off paces it. */
        reset_attempts(r);
        return acted;
    }
    if (!r->quiet) {
        for (unsigned k = 0; k < 31; k++) {
            int b = r->me ^ (1 << k);
            if ((1 << k) >= r->n)
                break;
            if (b >= r->n || (r->lifeline_out & ((uint64_t)1 << k)))
                continue;
            send_msg(r, b, TAG_LIFELINE, NULL, 0);
            r->lifeline_out |= (uint64_t)1 << k;
            r->st->lifelines_sent++;
        }
        r->quiet = true;
        acted = true;
    }
    return acted;
}

/* ---- the end ---- */

/* Receives every message of the run still on its way to this rank, then
 * completes every send. */
static void drain(wd_rank *r)
{
    uint64_t to_me = 0;
    wd_check(r->comm,
             MPI_Reduce_scatter_block(r->sent_to, &to_me, 1, MPI_UINT64_T, MPI_SUM, r->comm),
             "MPI_Reduce_scatter_block", -1);
    if (to_me < r->received)
        protocol_failed(r, "more messages received than were sent to this rank", -1);
    uint64_t pending = to_me - r->received;
    while (pending > 0) {
        MPI_Status status;
        wd_check(r->comm, MPI_Wait(&r->rreq, &status), "MPI_Wait (receive)", -1);
        on_message(r, status.MPI_SOURCE, status.MPI_TAG, 0, true);
        if (--pending > 0)
            post_receive(r);
    }
    if (r->rreq != MPI_REQUEST_NULL) {
        wd_check(r->comm, MPI_Cancel(&r->rreq), "MPI_Cancel", -1);
        wd_check(r->comm, MPI_Wait(&r->rreq, MPI_STATUS_IGNORE), "MPI_Wait (cancel)", -1);
    }
    if (r->ns > 0)
        wd_check(r->comm, MPI_Waitall((int)r->ns, r->sreq, MPI_STATUSES_IGNORE), "MPI_Waitall", -1);
    for (size_t i = 0; i < r->ns; i++)
        free(r->sbuf[i]);
    r->ns = 0;
}

/* This rank's communicator state, its buffers allocated and the first
 * receive posted. */
static void rank_init(wd_rank *r, MPI_Comm comm, const weft_dist_config *cfg, wp_pool *pool,
                      weft_dist_rank_stats *st)
{
    memset(r, 0, sizeof *r);
    r->comm = comm;
    MPI_Comm_rank(comm, &r->me);
    MPI_Comm_size(comm, &r->n);
    r->cfg = cfg;
    r->pool = pool;
    r->item_size = cfg->pool.item_size;
    r->share_cap = cfg->pool.steal_half_max;
    r->st = st;
    r->victim = -1;
    r->rng = weft_rng_seed(0x243F6A8885A308D3ull, (uint64_t)r->me);
    r->rbuf_bytes = (int)(r->share_cap * r->item_size);
    if ((size_t)r->rbuf_bytes < sizeof(wd_token))
        r->rbuf_bytes = (int)sizeof(wd_token);
    r->rbuf = malloc((size_t)r->rbuf_bytes);
    r->taken = malloc(r->share_cap * r->item_size);
    r->share = malloc(r->share_cap * r->item_size);
    r->kept = malloc(r->share_cap * r->item_size);
    r->sent_to = calloc((size_t)r->n, sizeof *r->sent_to);
    if (r->rbuf == NULL || r->taken == NULL || r->share == NULL || r->kept == NULL ||
        r->sent_to == NULL)
        weft__fatal("out of memory: the communicator of rank %d", r->me);
    r->rreq = MPI_REQUEST_NULL;
    post_receive(r);
}

static void rank_free(wd_rank *r)
{
    free(r->rbuf);
    free(r->taken);
    free(r->share);
    free(r->kept);
    free(r->sent_to);
    free(r->sreq);
    free(r->sbuf);
}

/* The communicator's loop, until termination is detected. */
static void communicate_until_done(wd_rank *r, const weft_dist_config *cfg, wp_pool *pool)
{
    uint64_t busy_ns = (uint64_t)cfg->poll_us * 1000u;
    uint64_t quiet_ns = (uint64_t)cfg->idle_poll_us * 1000u;
    uint64_t wait_ns = 0;
    for (;;) {
        bool acted = progress(r);
        if (r->done)
            break;
        uint32_t bell = weft__wp_hosted_bell(pool);
        if (r->active && weft__wp_hosted_quiescent(pool)) {
            become_passive(r);
            acted = true;
        }
        if (r->active && r->lifeline_in != 0)
            acted |= push_lifelines(r);
        if (!r->active)
            acted |= idle_step(r);
        if (r->done)
            break;
        /* Back off while nothing happens: 1 us doubling up to poll_us
         * (idle_poll_us without work); the bell (the local pool running
         * dry) cuts a wait short. */
        uint64_t max_ns = r->active ? busy_ns : quiet_ns;
        wait_ns = acted ? 0 : wait_ns == 0 ? 1000 : wait_ns * 2 < max_ns ? wait_ns * 2 : max_ns;
        if (wait_ns != 0)
            weft__wp_hosted_wait(pool, bell, wait_ns);
    }
}

void weft__wd_communicate(MPI_Comm comm, const weft_dist_config *cfg, wp_pool *pool,
                          size_t n_initial, weft_dist_rank_stats *st)
{
    wd_rank r;
    rank_init(&r, comm, cfg, pool, st);

    uint64_t cpu0 = thread_cpu_ns(), t0 = weft_now_ns();
    weft__wp_hosted_start(pool, true);
    r.active = true;
    r.idle_since = t0;
    if (n_initial == 0 && weft__wp_hosted_quiescent(pool))
        become_passive(&r);
    communicate_until_done(&r, cfg, pool);
    uint64_t t1 = weft_now_ns();
    if (!r.active)
        st->idle_ns += t1 - r.idle_since;
    else
        protocol_failed(&r, "the end of the run reached a rank that still had work", 0);
    weft__wp_hosted_stop(pool);
    st->run_ns = t1 - t0;
    drain(&r);
    st->comm_cpu_ns = thread_cpu_ns() - cpu0;
    rank_free(&r);
}
