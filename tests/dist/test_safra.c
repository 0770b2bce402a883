// SPDX-License-Identifier: Apache-2.0
/* The distributed pool's termination rules (src/dist/safra.h, EWD998)
 * driven without MPI: ranks in one process, messages as counts in flight,
 * the token handed along the ring by the test.
 *
 * 1. The order that makes the colours necessary: after the token has
 *    passed rank 1, rank 3 (not yet passed) sends rank 1 work, and rank 1,
 *    busy with it, sends rank 2 (not yet passed) some; rank 2 finishes and
 *    passes the token.  The counts then add up to zero while rank 1 is
 *    still busy: only rank 2's colour (it received work) keeps rank 0 from
 *    concluding.  After rank 1 finishes, the run ends within two rounds.
 * 2. Work in flight when the token passes: the sum is not zero.
 * 3. Random runs: ranks send work to each other, messages arrive late, the
 *    token moves when its holder is passive; rank 0 must never conclude
 *    while a rank is busy or a message is on its way, and must conclude
 *    within two rounds once everything has stopped. */
#include "check.h"

#include "dist/safra.h"

enum { MAX_RANKS = 8 };

typedef struct {
    int n;
    wd_safra rank[MAX_RANKS];
    bool busy[MAX_RANKS];
    int in_flight[MAX_RANKS]; /* WORK messages on their way to each rank */
    int token_at;             /* the rank holding the token, -1: rank 0 holds no round */
    bool done;
    int32_t rounds;
} ring;

static void ring_init(ring *g, int n)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->token_at = -1;
}

static void send_work(ring *g, int from, int to)
{
    CHECK(g->busy[from], "rank %d sends work while passive", from);
    wd_safra_sent(&g->rank[from]);
    g->in_flight[to]++;
}

static void deliver(ring *g, int to)
{
    CHECK(g->in_flight[to] > 0, "no message on its way to rank %d", to);
    g->in_flight[to]--;
    wd_safra_received(&g->rank[to]);
    g->busy[to] = true;
}

/* The token's holder acts if passive (rank 0 also opens a round when
 * none is open); returns true if something happened. */
static bool token_step(ring *g)
{
    if (g->done)
        return false;
    if (g->token_at == -1) { /* rank 0 opens a round */
        if (g->busy[0])
            return false;
        wd_token t = wd_safra_start_round(&g->rank[0], ++g->rounds);
        wd_safra_token_arrived(&g->rank[1 % g->n], &t);
        g->token_at = 1 % g->n;
        return true;
    }
    int at = g->token_at;
    if (g->busy[at])
        return false;
    if (at == 0) {
        bool over = wd_safra_concludes(&g->rank[0]);
        g->token_at = -1;
        if (over) {
            for (int i = 0; i < g->n; i++) {
                CHECK(!g->busy[i], "rank 0 concluded while rank %d is busy (round %d)", i,
                      g->rounds);
                CHECK(g->in_flight[i] == 0, "rank 0 concluded with work on its way to rank %d", i);
            }
            g->done = true;
        }
        return true;
    }
    wd_token t = wd_safra_pass(&g->rank[at]);
    wd_safra_token_arrived(&g->rank[(at + 1) % g->n], &t);
    g->token_at = (at + 1) % g->n;
    return true;
}

/* Moves the token until rank 0 has judged it once more. */
static void finish_round(ring *g)
{
    do
        CHECK(token_step(g), "the token is stuck at rank %d", g->token_at);
    while (g->token_at != -1);
}

static void colours_matter(void)
{
    ring g;
    ring_init(&g, 4);
    g.busy[3] = true; /* rank 3 holds all the work */
    CHECK(token_step(&g) && g.token_at == 1, "round 1 opened");
    CHECK(token_step(&g) && g.token_at == 2, "rank 1 passed the token");
    send_work(&g, 3, 1); /* behind the token */
    deliver(&g, 1);
    send_work(&g, 1, 2); /* ahead of it */
    deliver(&g, 2);
    g.busy[2] = false; /* rank 2 is done with its share */
    CHECK(token_step(&g) && g.token_at == 3, "rank 2 passed the token");
    g.busy[3] = false;
    finish_round(&g); /* rank 1 still busy: rank 0 must not conclude */
    CHECK(!g.done, "concluded in round 1");
    CHECK(g.rank[0].token.black, "round 1's token came back white: rank 2 received work");
    g.busy[1] = false;
    for (int round = 0; round < 2 && !g.done; round++)
        finish_round(&g);
    CHECK(g.done, "not over two rounds after the last rank went passive");
    printf("ok: a rank the token had passed kept busy by work sent behind the token\n");
}

static void in_flight_counts(void)
{
    ring g;
    ring_init(&g, 3);
    g.busy[2] = true;
    send_work(&g, 2, 1); /* rank 1, passive, has work on its way */
    g.busy[2] = false;
    finish_round(&g);
    CHECK(!g.done, "concluded with a message in flight");
    deliver(&g, 1);
    g.busy[1] = false;
    for (int round = 0; round < 2 && !g.done; round++)
        finish_round(&g);
    CHECK(g.done, "not over two rounds after the message arrived and was done");
    printf("ok: a message in flight keeps the run going\n");
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static unsigned rnd(unsigned below)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % below);
}

static void random_runs(void)
{
    unsigned long runs = 0, conclusions = 0;
    for (int n = 2; n <= MAX_RANKS; n++) {
        for (int run = 0; run < 2000; run++) {
            ring g;
            ring_init(&g, n);
            g.busy[rnd((unsigned)n)] = true;
            int sends_left = 1 + (int)rnd(12);
            for (int step = 0; step < 400 && !g.done; step++) {
                int r = (int)rnd((unsigned)n);
                switch (rnd(4)) {
                case 0: /* a busy rank shares */
                    if (g.busy[r] && sends_left > 0) {
                        send_work(&g, r, (r + 1 + (int)rnd((unsigned)n - 1)) % n);
                        sends_left--;
                    }
                    break;
                case 1: /* a message arrives */
                    if (g.in_flight[r] > 0)
                        deliver(&g, r);
                    break;
                case 2: /* a busy rank runs out of work */ g.busy[r] = false; break;
                default: token_step(&g); break;
                }
            }
            if (!g.done) { /* everything stops: then two rounds end it */
                for (int r = 0; r < n; r++)
                    while (g.in_flight[r] > 0)
                        deliver(&g, r);
                memset(g.busy, 0, sizeof g.busy);
                while (g.token_at != -1)
                    token_step(&g);
                for (int round = 0; round < 2 && !g.done; round++)
                    finish_round(&g);
                CHECK(g.done, "%d ranks: not over two rounds after everything stopped", n);
            } else {
                conclusions++;
            }
            runs++;
        }
    }
    CHECK(conclusions > 0, "no random run ended on its own");
    printf("ok: %lu random runs on 2-%d ranks (%lu ended on their own), none ended early\n", runs,
           MAX_RANKS, conclusions);
}

int main(void)
{
    colours_matter();
    in_flight_counts();
    random_runs();
    return 0;
}
