/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the distributed work pool's termination detection and
 * stealing (src/dist/comm.c, docs/distributed.md): Dijkstra-Safra
 * (EWD998) over counters of work messages, with random steal requests,
 * refusals and hypercube lifelines, on asynchronous channels that deliver
 * in any order between different senders (one channel per receiver, as
 * MPI_ANY_SOURCE receives do; each sender's messages to one receiver stay
 * in order, as MPI promises).
 *
 * Ranks: NR processes.  A rank's local pool is abstracted to its item
 * count work[i] (the pool's own termination, the idle set, is checked in
 * pool_term.pml and pool_sleep.pml; hosted.c makes it the rank's
 * "passive": work[i] == 0).  Processing an item may create one child on
 * the same rank, NITEMS items in all.  A passive rank asks one random
 * victim (REQ; WORK or NOWORK comes back), then registers with its
 * lifeline buddies (LIFELINE) and waits; a rank with at least 2 items
 * answers a request, or a recorded lifeline, with half of them (WORK).
 * Rank 0 runs the token rounds; DONE ends every rank.
 *
 * Properties (assertions; invalid end states are hangs):
 *   - never early: when rank 0 concludes, no rank holds an item and no
 *     WORK message is on its way; no item is processed after the end;
 *   - never stuck: every rank ends (DONE reaches all; no rank waits for
 *     an answer that cannot come), and termination is detected within two
 *     rounds started after the last item was processed (a round that
 *     starts later than that is an error: the bound makes liveness a
 *     safety property);
 *   - no starved rank: a rank never waits, idle, on a lifeline to a buddy
 *     that holds a share (2 items or more) while that buddy does not know
 *     of it (the LIFELINE neither on its way nor recorded) and no push is
 *     on its way back: from there the waiting rank can get nothing from
 *     that buddy however long its work lasts.  A monitor asserts it in
 *     every state (`starved`); ghost bits mirror the messages on their way.
 *
 * Bounds: NR ranks (3), NITEMS items in all (3); INIT_LAST puts the first
 * item on the last rank instead of rank 0; TWO_CHILDREN makes every item
 * have two children while items are left (a smaller space, for the
 * larger NITEMS the black-colour mutant needs); NO_ROUND_BOUND drops the
 * two-round bound (to see a mutant's early end rather than its hang).
 * NO_LIFELINES (ranks only make their random requests) and
 * NO_STEAL_FROM_0 (requests go to ranks 1..NR-1 only) narrow the stealing:
 * every trace of the narrowed model is a trace of the full one, small
 * enough for five items in the quick set.
 *
 * Mutants:
 *   MUT_SEND_NOCOUNT   a rank does not count a WORK message it sends
 *   MUT_RECV_NOCOUNT   ... nor one it receives (never terminates)
 *   MUT_NO_BLACK       receiving WORK does not turn a rank black
 *   MUT_PASS_ACTIVE    a rank passes the token while it still has items
 *   MUT_PASS_NOBLACKEN a black rank passes the token without blackening it
 *   MUT_NO_WHITEN      a rank stays black after passing the token
 *   MUT_INIT_BLACK     rank 0 does not turn white when it starts a round
 *   MUT_LL_DROP        a LIFELINE that finds no share is dropped, not
 *                      recorded (the buddy never pushes: `starved`)
 * (Rank 0 judging the returned token while it has items is no mutant:
 * it starts rounds only when passive and can get items during a round only
 * by receiving them, which blackens it.)
 */
#ifndef NR
#define NR 3
#endif
#ifndef NITEMS
#define NITEMS 3
#endif
#define QSZ 8
#define NONE 255

mtype = { REQ, LIFELINE, WORK, WORK_LL, NOWORK, TOKEN, DONE };
/* kind, sender, payload (items, or the token's sum), the token's colour */
chan inbox[NR] = [QSZ] of { mtype, byte, short, bit };

byte work[NR];
byte created;            /* items created so far */
byte processed;          /* ghosts */
byte items_in_flight;    /* items in WORK messages not yet received */
bool gdone;
byte quiet_rounds;       /* rounds started after the last item was processed */
/* STARVE_CHECK: ghosts of the lifeline messages on their way (bit k:
 * buddy i ^ 2^k): ll_sent[i], a LIFELINE from the buddy to i (until i has
 * handled it); wll_to[i], a WORK_LL from the buddy to i.  The monitor
 * reads the ranks' ll_out and ll_in (rank i is process i + 1). */
#ifdef STARVE_CHECK
byte ll_sent[NR];
byte wll_to[NR];
bit starved;
#define GHOST(x) x
#else
#define GHOST(x) skip
#endif

/* Rank j waits on its lifeline to buddy j ^ b, which holds a share and
 * knows nothing of it, with no push on its way. */
#define STARVES_ON(j, b) (work[j] == 0 && (rank[(j) + 1]:ll_out & (b)) && ((j) ^ (b)) < NR && \
    work[(j) ^ (b)] >= 2 && !(rank[((j) ^ (b)) + 1]:ll_in & (b)) && !(ll_sent[(j) ^ (b)] & (b)) && \
    !(wll_to[j] & (b)))
#define STARVES(j) (STARVES_ON(j, 1) || STARVES_ON(j, 2))
#define SOME_RANK_STARVES (!gdone && (STARVES(0) || STARVES(1) || (NR > 2 && STARVES(2)) || (NR > 3 && STARVES(3))))

#define ALL_IDLE (items_in_flight == 0 && work[0] == 0 && work[1] == 0 && (NR < 3 || work[2] == 0) && (NR < 4 || work[3] == 0))

inline send_work(dest, tag)
{
    atomic {
        k = work[me] / 2;
        work[me] = work[me] - k;
        items_in_flight = items_in_flight + k;
#ifdef STARVE_CHECK
        if
        :: tag == WORK_LL -> wll_to[dest] = wll_to[dest] | (me ^ dest)
        :: else
        fi;
#endif
#ifndef MUT_SEND_NOCOUNT
        c++;
#endif
        inbox[dest]!tag, me, k, 0
    }
}

proctype rank(byte me)
{
    short c;            /* WORK sent - received */
    bool black;
    bool has_token, round_open;
    short tsum;
    bit tblack;
    byte ll_in, ll_out; /* bit k: buddy me ^ 2^k */
    byte victim = NONE;
    byte attempts = 1;  /* random requests left in this idle period */
    bool quiet;
    byte k, b, bit_k;
    mtype m;
    byte from;
    short s;
    bit tb;

    do
    /* ---- work ---- */
    :: work[me] > 0 ->
        atomic {
            assert(!gdone);
            work[me]--;
            processed++;
#ifndef TWO_CHILDREN
            if   /* children: none, one or two */
            :: created < NITEMS -> created++; work[me]++;
                if
                :: created < NITEMS -> created++; work[me]++
                :: true
                fi
            :: true
            fi;
#else
            /* a smaller space: two children while items are left */
            if
            :: created < NITEMS -> created++; work[me]++
            :: else
            fi;
            if
            :: created < NITEMS -> created++; work[me]++
            :: else
            fi;
#endif
            if
            :: work[me] == 0 -> attempts = 1; quiet = false  /* passive: a new idle period */
            :: else
            fi
        }
    /* an active rank pushes a share along a recorded lifeline */
    :: work[me] >= 2 && ll_in != 0 ->
        atomic {
            bit_k = (ll_in & 1 -> 1 : 2);
            ll_in = ll_in & ~bit_k;
            send_work(me ^ bit_k, WORK_LL)
        }
    /* ---- messages ---- */
    :: inbox[me]?m, from, s, tb ->
        if
        :: m == REQ || m == LIFELINE ->
            if
            :: work[me] >= 2 ->
                atomic {
                    GHOST(ll_sent[me] = ll_sent[me] & ~(m == LIFELINE -> me ^ from : 0));
                    send_work(from, (m == REQ -> WORK : WORK_LL))
                }
            :: else ->
                if
#ifndef MUT_LL_DROP
                :: m == LIFELINE ->
                    atomic { ll_in = ll_in | (me ^ from); GHOST(ll_sent[me] = ll_sent[me] & ~(me ^ from)) }
#else
                :: m == LIFELINE -> GHOST(ll_sent[me] = ll_sent[me] & ~(me ^ from))
#endif
                :: else -> inbox[from]!NOWORK, me, 0, 0
                fi
            fi
        :: m == WORK || m == WORK_LL ->
            atomic {
                assert(!gdone);
                work[me] = work[me] + s;
                items_in_flight = items_in_flight - s;
#ifndef MUT_RECV_NOCOUNT
                c--;
#endif
#ifndef MUT_NO_BLACK
                black = true;
#endif
                if
                :: m == WORK && from == victim -> victim = NONE
                :: m == WORK_LL ->
                    ll_out = ll_out & ~(me ^ from);
                    GHOST(wll_to[me] = wll_to[me] & ~(me ^ from))
                :: else
                fi
            }
        :: m == NOWORK -> assert(from == victim); victim = NONE
        :: m == TOKEN -> has_token = true; tsum = s; tblack = tb
        :: m == DONE -> break
        fi
    /* ---- the token (passive ranks only) ---- */
#ifndef MUT_PASS_ACTIVE
    :: me != 0 && has_token && work[me] == 0 ->
#else
    :: me != 0 && has_token ->
#endif
#ifndef MUT_PASS_NOBLACKEN
        inbox[(me + 1) % NR]!TOKEN, me, tsum + c, (tblack || black);
#else
        inbox[(me + 1) % NR]!TOKEN, me, tsum + c, tblack;
#endif
#ifndef MUT_NO_WHITEN
        black = false;
#endif
        has_token = false
    :: me == 0 && has_token && work[0] == 0 ->
        has_token = false;
        round_open = false;
        if
        :: !tblack && !black && tsum + c == 0 ->
            atomic {
                assert(ALL_IDLE);   /* never early */
                gdone = true
            };
            b = 1;
            do
            :: b < NR -> inbox[b]!DONE, 0, 0, 0; b++
            :: else -> break
            od;
            break
        :: else
        fi
    :: me == 0 && !round_open && !has_token && work[0] == 0 ->
        atomic {
            if
#ifndef NO_ROUND_BOUND
            :: ALL_IDLE -> quiet_rounds++; assert(quiet_rounds <= 2)  /* never stuck */
#else
            :: ALL_IDLE -> quiet_rounds++
#endif
            :: else
            fi;
#ifndef MUT_INIT_BLACK
            black = false;      /* EWD998: the initiator turns white */
#endif
            round_open = true
        };
        inbox[1]!TOKEN, 0, 0, 0
    /* ---- stealing (passive ranks only) ---- */
    :: work[me] == 0 && victim == NONE && attempts > 0 ->
        attempts--;
        if
#ifndef NO_STEAL_FROM_0
        :: me != 0 -> victim = 0
#endif
        :: me != 1 -> victim = 1
        :: NR > 2 && me != 2 -> victim = 2
        :: NR > 3 && me != 3 -> victim = 3
        fi;
        inbox[victim]!REQ, me, 0, 0
#ifndef NO_LIFELINES
    :: work[me] == 0 && victim == NONE && attempts == 0 && !quiet ->
        /* the lifelines: me ^ 1 and me ^ 2 where they exist */
        if
        :: (me ^ 1) < NR && !(ll_out & 1) ->
            atomic { ll_out = ll_out | 1; inbox[me ^ 1]!LIFELINE, me, 0, 0; GHOST(ll_sent[me ^ 1] = ll_sent[me ^ 1] | 1) }
        :: else
        fi;
        if
        :: (me ^ 2) < NR && !(ll_out & 2) ->
            atomic { ll_out = ll_out | 2; inbox[me ^ 2]!LIFELINE, me, 0, 0; GHOST(ll_sent[me ^ 2] = ll_sent[me ^ 2] | 2) }
        :: else
        fi;
        quiet = true
#endif
    od;
    assert(ALL_IDLE)
}

#ifdef STARVE_CHECK
/* No starved rank, in every state (the guard is evaluated in each). */
proctype starve_monitor()
{
end_watch:
    atomic { SOME_RANK_STARVES -> starved = 1; assert(!starved) }
}
#endif

init
{
    atomic {
        created = 1;
#ifdef INIT_LAST
        work[NR - 1] = 1;
#else
        work[0] = 1;
#endif
        byte i = 0;
        do
        :: i < NR -> run rank(i); i++
        :: else -> break
        od;
#ifdef STARVE_CHECK
        run starve_monitor()
#endif
    }
}
