// SPDX-License-Identifier: Apache-2.0
/* Dijkstra-Safra termination detection (EWD998), the rules alone: what a
 * rank does with its counter, its colour and the token when it sends or
 * receives a WORK message, passes the token, or (rank 0) starts a round
 * and judges the token that came back.  comm.c calls these where the
 * events happen (it owns the messages); tests/dist/test_safra.c drives
 * them through the orders of events that make the colours necessary.
 * The model of the whole protocol is verification/dist_term.pml.
 *
 * Only the rank's communicator thread touches its state: no atomics. */
#ifndef WEFT_DIST_SAFRA_H
#define WEFT_DIST_SAFRA_H

#include <stdbool.h>
#include <stdint.h>

typedef struct wd_token {
    int64_t sum;   /* WORK sent - received by the ranks it passed */
    int32_t black; /* some rank it passed had received WORK since its last pass */
    int32_t round;
} wd_token;

typedef struct wd_safra {
    int64_t counter; /* WORK messages sent - received by this rank */
    bool black;      /* received WORK since the token last left */
    bool has_token;  /* the token is here */
    bool round_open; /* rank 0: a token is on its way */
    wd_token token;  /* the token, while it is here */
} wd_safra;

/* A WORK message leaves this rank. */
static inline void wd_safra_sent(wd_safra *s) { s->counter++; }

/* A WORK message arrives: counted, and the rank turns black (it may now
 * hand work to a rank the token has not reached yet). */
static inline void wd_safra_received(wd_safra *s)
{
    s->counter--;
    s->black = true;
}

/* The token arrives from the previous rank. */
static inline void wd_safra_token_arrived(wd_safra *s, const wd_token *t)
{
    s->token = *t;
    s->has_token = true;
}

/* Rank i > 0, passive, with the token: what to send to rank i + 1.  The
 * rank adds its counter, blackens the token if it is black itself, and
 * turns white. */
static inline wd_token wd_safra_pass(wd_safra *s)
{
    wd_token t = s->token;
    t.sum += s->counter;
    if (s->black)
        t.black = 1;
    s->black = false;
    s->has_token = false;
    return t;
}

/* Rank 0, passive, with the token back: true iff the run is over (the
 * token and rank 0 white, and every WORK sent received).  Either way the
 * round is closed. */
static inline bool wd_safra_concludes(wd_safra *s)
{
    s->has_token = false;
    s->round_open = false;
    return !s->token.black && !s->black && s->token.sum + s->counter == 0;
}

/* Rank 0, passive, no round open: the token to send to rank 1 for round
 * `round`; rank 0 turns white (EWD998). */
static inline wd_token wd_safra_start_round(wd_safra *s, int32_t round)
{
    s->black = false;
    s->round_open = true;
    return (wd_token){0, 0, round};
}

#endif
