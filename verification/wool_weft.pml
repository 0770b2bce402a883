/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of weft's own variant of Wool's direct task stack, as written
 * in src/sched/wool/wool_deque.c, src/sched/wool/owner.h and
 * src/sched/wool/state.h (design: docs/sched-wool.md), with
 * the DONE store of run_stolen (src/runtime/steal.c).  wool.pml models the paper's
 * Figure 3; this model is the code: the thief writes STOLEN(thief) at once,
 * moves `bot` with a CAS that is also the back-off check, restores with a
 * CAS, the owner's public join is a CAS TASK -> EMPTY, and Wool's private
 * tasks (section III-B) with weft's trip wire and boundary are included.
 *
 * Shared words (each access with the order the C code uses):
 *   bot         thieves: relaxed loads (peek), relaxed CAS b -> b+1 (settle);
 *               owner: relaxed load (join_public, serve), relaxed store
 *               (the end of join_public)
 *   public_end  thieves: relaxed load (peek), acquire load (settle);
 *               owner: seq_cst store (serve: raise), relaxed store
 *               (privatize: lowering)
 *   plain_from  thieves: relaxed load, relaxed store of REQUEST (peek,
 *               ask_owner); owner: relaxed loads (push, pop, sync_slow,
 *               poll, privatize), seq_cst stores (serve), relaxed CAS
 *               (privatize)
 *   state[i]    owner: release store of TASK (weft_wool_push), relaxed load
 *               and store (private join, join_private), relaxed CAS
 *               TASK -> EMPTY (public join: weft_wool_pop, join_public),
 *               acquire loads (join_public, weft__join_stolen), relaxed store
 *               of EMPTY (end of join_public); thieves: relaxed loads (peek,
 *               settle), acquire CAS TASK -> STOLEN(me) (weft__wool_claim),
 *               release CAS STOLEN(me) -> TASK (restore), seq_cst store of
 *               DONE (run_stolen)
 *   data[i]     the descriptor's union of arguments and result (one word:
 *               the result overwrites the arguments, as in task_macros.h);
 *               plain accesses
 * The acquire fence at the top of weft__wool_serve orders nothing modelled
 * (it is for sleep.c's counts) and is left out; the seq_cst fence of its
 * no-op branch is kept.
 *
 * Processes: one owner running a script of P (SPAWN: weft_wool_push and its
 * serve), S (SYNC: weft_wool_pop, weft__wool_sync_slow -> join_public /
 * serve + join_private, weft__wool_privatize), Y (WEFT_YIELD: weft_sched_poll
 * + weft__wool_poll_slow); two thieves, each making at most NATT attempts of
 * weft__sched_steal (peek, ask_owner, claim, settle, restore) and running
 * what it commits (run_stolen).  The owner waits for a thief (join_public,
 * join_private, weft__join_stolen) by blocking until a word it reads
 * changes, so a wait nobody ends is an invalid end state.
 *
 * Bounds: NSLOT slots, SCRIPT (at most NOPS operations), NATT attempts per
 * thief, PRIV_AFTER = WEFT_WOOL_PRIVATIZE_AFTER (64 in the code; small here
 * so that privatizing is reached; NO_PRIVATIZE leaves it out).  Everything
 * starts private (public_end = 0), so every steal needs a request first.
 * One wrapper: every TASK value is the same, the worst case for ABA on a
 * reused slot (the paper's back-off case and docs/sched-wool.md point 6).
 *
 * Properties:
 *   - every spawned task runs exactly once (run_task, final check), with the
 *     arguments the owner wrote (owner's inline run and thief's run);
 *   - the owner's join of a stolen task sees its result;
 *   - a thief commits only a live public task: at its bot CAS, the slot is
 *     below the owner's boundary o_public_end (no thief runs a private
 *     task), the task is live and not already stolen, and every live task
 *     below it is stolen (stolen tasks form a prefix, as in wool.pml);
 *   - the owner's private fast path only takes slots at or above its
 *     boundary (plain_from is the boundary or REQUEST);
 *   - the owner never finds a state the code calls an internal error
 *     (weft__fatal in join_private / join_public);
 *   - no deadlock (spin's invalid end states);
 *   - at the end (every process done, every store buffer drained): bot is
 *     0, every state word is EMPTY (weft_current_head's invariant), and
 *     plain_from is the boundary or REQUEST.
 *
 * Coverage (-DCOVER_X=1 makes reaching point X an assertion failure):
 *   COVER_SERVE      a request is served by raising the boundary
 *   COVER_ASK        a thief trips the wire (stores REQUEST)
 *   COVER_STEAL      a thief commits a steal
 *   COVER_BACKOFF    a claim backs off (either check, restore CAS)
 *   COVER_BACKOFF_PE   ... because the slot is no longer public
 *   COVER_BACKOFF_BOT  ... because its bot CAS failed (the paper's case)
 *   COVER_GIVEUP     a claim finds its mark overwritten by a private join
 *   COVER_PRIVATIZE  the owner lowers the boundary
 *   COVER_WAIT       a public join waits for a claiming thief's decision
 *   COVER_PRIVWAIT   a private join waits for a stale thief to back off
 *   COVER_JOINSTOLEN a public join finds its task committed (bot == t + 1)
 *
 * Mutants (-DMUT_X; each a real line of the code, changed):
 *   MUT_BOT_STORE      settle: `victim->bot = b + 1` by a plain store, no
 *                      back-off check (the paper's unsynchronised bot
 *                      without its re-read)
 *   MUT_RESTORE_STORE  restore: a release store of s1 instead of the CAS
 *                      STOLEN(me) -> s1 (the paper's `t->state = s1`)
 *   MUT_JOIN_NOCAS     weft_wool_pop / join_public: the public join loads
 *                      TASK and stores EMPTY instead of its CAS
 *   MUT_SETTLE_NOPE    settle: no re-read of public_end after the claim
 *   MUT_SETTLE_NOSTATE settle: no re-read of the state (mark still there?)
 *   MUT_JOIN_NOBOT     join_public: a STOLEN mark is taken as committed
 *                      (wait for DONE) without checking bot == t + 1
 *   MUT_SPAWN_RLX      weft_wool_push: the TASK store relaxed, not release
 *   MUT_CLAIM_RLX      weft__wool_claim: the CAS relaxed, not acquire: on the
 *                      weak model the later reads (public_end, arguments)
 *                      may be performed before it (MAY_READ_EARLY)
 *   MUT_DONE_RLX       run_stolen: DONE stored relaxed, not seq_cst
 *   MUT_SERVE_RLX      weft__wool_serve: the raise of public_end relaxed,
 *                      not seq_cst: on the weak model settle's relaxed
 *                      re-read of the state may then return what it would
 *                      have before the raise (MAY_READ_EARLY; mm.pml's
 *                      release store of the re-spawned TASK drains the
 *                      private join's EMPTY before the raise is buffered,
 *                      stronger than C11, so the buffer alone does not
 *                      show it)
 *
 * Not modelled: leapfrogging and the other blocked-join policies
 * (weft__join_stolen only waits for DONE), sleep and wake (the seq_cst
 * stores and fences serve sleep.c's Dekker pairings; sleep.pml models them
 * with the split deque), weft__sched_ask_for_sleeper, interrupts
 * (weft__sched_freeze / thaw), nested frames, the OK_MORE hint, deque
 * overflow, more than one wrapper.
 */
#ifndef NSLOT
#define NSLOT 3
#endif
#ifndef NATT
#define NATT 2
#endif
#ifndef SCRIPT
#define SCRIPT P P S S P P S S
#endif
#ifndef PRIV_AFTER
#define PRIV_AFTER 1
#endif
#define NOPS 12
#define NTASK NOPS
#define P_OP 1
#define S_OP 2
#define Y_OP 3
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;
#define Y script[k] = Y_OP; k++;

#define NT 3
#define OWNER 0
/* state words (bits/worker.h): EMPTY 0, TASK(f) the wrapper, DONE 3,
 * STOLEN(x) = x | 2; here STOLEN(x) = 4 + x */
#define EMPTY 0
#define TASK 1
#define DONE 3
#define MARK(x) (4 + (x))
#define IS_STOLEN(s) ((s) >= 4)
/* weft_wool_pop's private test `(s & 2) == 0`: EMPTY or TASK */
#define PLAIN_OK(s) ((s) == EMPTY || (s) == TASK)
#define REQ 15                      /* WEFT_WOOL_REQUEST: above every slot */

#define L_BOT 0
#define L_PE 1
#define L_PF 2
#define L_STATE(i) (3 + (i))
#define L_DATA(i) (3 + NSLOT + (i))
#define NLOC (3 + 2 * NSLOT)
#define RESULT(id) ((id) + 64)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#ifndef COVER_SERVE
#define COVER_SERVE 0
#endif
#ifndef COVER_ASK
#define COVER_ASK 0
#endif
#ifndef COVER_STEAL
#define COVER_STEAL 0
#endif
#ifndef COVER_BACKOFF
#define COVER_BACKOFF 0
#endif
#ifndef COVER_BACKOFF_PE
#define COVER_BACKOFF_PE 0
#endif
#ifndef COVER_BACKOFF_BOT
#define COVER_BACKOFF_BOT 0
#endif
#ifndef COVER_GIVEUP
#define COVER_GIVEUP 0
#endif
#ifndef COVER_PRIVATIZE
#define COVER_PRIVATIZE 0
#endif
#ifndef COVER_WAIT
#define COVER_WAIT 0
#endif
#ifndef COVER_PRIVWAIT
#define COVER_PRIVWAIT 0
#endif
#ifndef COVER_JOINSTOLEN
#define COVER_JOINSTOLEN 0
#endif

#include "mm.pml"

#if defined(MM_SC)
#define ALL_DRAINED true
#else
#define ALL_DRAINED (bn[0] == 0 && bn[1] == 0 && bn[2] == 0)
#endif

byte script[NOPS];
byte slot_id[NSLOT];      /* ghost: the task in each slot */
bool live[NSLOT];         /* ghost: spawned, not yet joined */
bool gstolen[NSLOT];      /* ghost: committed by a thief */
byte ran[NTASK + 1];
byte ope;                 /* the owner's o_public_end (owner-private in C) */
byte ntask;               /* ghost: tasks spawned */
bool owner_done;
bool thief_done[NT];

inline run_task(slot, id)
{
    atomic {
        assert(id == slot_id[slot]);
        assert(ran[id] == 0);
        ran[id]++
    }
}

/* ---------------- owner ---------------- */

/* weft__wool_serve(w, give_end) */
inline serve(give_end)
{
    if
    :: give_end > ope ->
        npe = ope + (give_end - ope + 1) / 2;
        assert(!COVER_SERVE);
        ope = npe;
        inl = 0;
#ifdef MUT_SERVE_RLX
        ST(OWNER, L_PE, npe);
#else
        ST_SC(OWNER, L_PE, npe);                  /* raise: seq_cst */
#endif
        ST_SC(OWNER, L_PF, npe);                  /* clear the request */
        npe = 0
    :: else ->
        /* public_top = min(give_end, pe); public tasks at bot? */
        LD(OWNER, L_BOT, x);
        if
        :: x < give_end && x < ope ->
            ST_SC(OWNER, L_PF, ope);
            FENCE_SC(OWNER)
        :: else                                   /* keep the request */
        fi;
        x = 0
    fi
}

/* weft__wool_privatize(w, t) */
inline privatize(t)
{
    inl = 0;
    LD(OWNER, L_PF, cur);
    if
    :: cur == REQ || t >= ope
    :: else ->
        assert(!COVER_PRIVATIZE);
        ope = t;
        ST(OWNER, L_PE, t);                       /* lowering: relaxed */
        CAS_RLX(OWNER, L_PF, cur, t, ok)
    fi;
    cur = 0; ok = 0
}

inline inlined_public(t)
{
#ifndef NO_PRIVATIZE
    inl++;
    if
    :: inl >= PRIV_AFTER -> privatize(t)
    :: else
    fi
#else
    skip
#endif
}

proctype owner()
{
    byte _i, top, op, id, s, x, pf, b, how, inl, npe, cur, ok;
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP ->                  /* SPAWN: weft_wool_push */
            id++;
            atomic { slot_id[top] = id; live[top] = 1; ntask = id };
            ST(OWNER, L_DATA(top), id);           /* the arguments */
#ifdef MUT_SPAWN_RLX
            ST(OWNER, L_STATE(top), TASK);
#else
            ST_REL(OWNER, L_STATE(top), TASK);
#endif
            top++;
            LD(OWNER, L_PF, pf);
            if
            :: pf == REQ -> serve(top)            /* push_slow(w, t + 1) */
            :: else
            fi
        :: script[op] == Y_OP ->                  /* WEFT_YIELD */
            LD(OWNER, L_PF, pf);
            if
            :: pf == REQ ->
                LD(OWNER, L_PF, pf);              /* poll_slow */
                if
                :: pf == REQ -> serve(top)
                :: else
                fi
            :: else
            fi
        :: script[op] == S_OP ->                  /* SYNC */
            top--;
            /* weft_wool_pop: how = 1 inline, 0 slow path */
            LD(OWNER, L_STATE(top), s);
            LD(OWNER, L_PF, pf);
            if
            :: top >= pf ->                       /* private, nobody asks */
                assert(top >= ope);
                if
                :: PLAIN_OK(s) ->
                    ST(OWNER, L_STATE(top), EMPTY);
                    how = 1
                :: else -> how = 0
                fi
            :: else ->
                if
                :: top < ope && s == TASK ->
#ifdef MUT_JOIN_NOCAS
                    ST(OWNER, L_STATE(top), EMPTY); ok = 1;
#else
                    CAS_RLX(OWNER, L_STATE(top), s, EMPTY, ok);
#endif
                    if
                    :: ok -> how = 1; inlined_public(top)
                    :: else -> how = 0
                    fi;
                    ok = 0
                :: else -> how = 0
                fi
            fi;
            if
            :: how == 0 && top < ope ->           /* join_public */
                do
                :: LD(OWNER, L_STATE(top), s);    /* acquire */
                    if
                    :: s == TASK ->               /* a thief backed off */
#ifdef MUT_JOIN_NOCAS
                        ST(OWNER, L_STATE(top), EMPTY); ok = 1;
#else
                        CAS_RLX(OWNER, L_STATE(top), s, EMPTY, ok);
#endif
                        if
                        :: ok -> ok = 0; how = 1; inlined_public(top); break
                        :: else
                        fi
                    :: s == DONE -> how = 2; break
                    :: IS_STOLEN(s) ->
                        LD(OWNER, L_BOT, b);
#ifdef MUT_JOIN_NOBOT
                        b = top + 1;
#endif
                        if
                        :: b == top + 1 ->        /* committed: weft__join_stolen */
                            assert(!COVER_JOINSTOLEN);
                            atomic { LOC_DRAINED(OWNER, L_STATE(top)) && mem[L_STATE(top)] == DONE };
                            how = 2; break
                        :: else ->                /* wait_for_thief */
                            assert(!COVER_WAIT);
                            atomic { (LOC_DRAINED(OWNER, L_STATE(top)) && mem[L_STATE(top)] != s) ||
                                     (LOC_DRAINED(OWNER, L_BOT) && mem[L_BOT] != b) }
                        fi
                    :: else -> assert(false)      /* weft__fatal */
                    fi
                od;
                if
                :: how == 2 ->                    /* stolen: its result */
                    LD(OWNER, L_DATA(top), x);
                    assert(x == RESULT(slot_id[top]));
                    ST(OWNER, L_STATE(top), EMPTY);
                    ST(OWNER, L_BOT, top);        /* bot-- */
                    inl = 0
                :: else
                fi
            :: how == 0 && top >= ope ->          /* private slow path */
                LD(OWNER, L_PF, pf);
                if
                :: pf == REQ -> serve(top)
                :: else
                fi;
                do                                /* join_private */
                :: LD(OWNER, L_STATE(top), s);
                    if
                    :: s == TASK -> ST(OWNER, L_STATE(top), EMPTY); break
                    :: IS_STOLEN(s) ->
                        assert(!COVER_PRIVWAIT);
                        atomic { LOC_DRAINED(OWNER, L_STATE(top)) && mem[L_STATE(top)] != s }
                    :: else -> assert(false)      /* weft__fatal */
                    fi
                od;
                how = 1
            :: else
            fi;
            if
            :: how == 1 ->                        /* run it inline */
                assert(!gstolen[top]);
                LD(OWNER, L_DATA(top), x);
                run_task(top, x)
            :: else
            fi;
            atomic { live[top] = 0; gstolen[top] = 0 };
            s = 0; x = 0; pf = 0; b = 0; how = 0
        fi;
        op++
    :: else -> break
    od;
    owner_done = 1
}

/* ---------------- thieves ---------------- */

/* restore(a, mark): CAS STOLEN(me) -> s1, release */
inline restore()
{
    assert(!COVER_BACKOFF);
#ifdef MUT_RESTORE_STORE
    ST_REL(me, L_STATE(b), s1)
#else
    s = MARK(me);
    CAS(me, L_STATE(b), s, s1, ok)
#endif
}

proctype thief(byte me)
{
    byte _i, b, pe, s1, s, a, x, ok, attempts, early, epe, ea, early2, es;
    do
    :: attempts < NATT && !owner_done ->
        attempts++;
        /* weft__wool_peek */
        LD(me, L_BOT, b);
        LD(me, L_PE, pe);
        if
        :: b >= pe ->
            if
            :: b < NSLOT ->
                LD(me, L_PF, x);
                if
                :: x != REQ ->
                    LD(me, L_STATE(b), s);
                    if
                    :: s == TASK ->               /* ask_owner */
                        LD(me, L_PF, x);
                        if
                        :: x != REQ -> assert(!COVER_ASK); ST(me, L_PF, REQ)
                        :: else
                        fi
                    :: else
                    fi
                :: else
                fi
            :: else
            fi
        :: else ->
            LD(me, L_STATE(b), s1);
            if
            :: s1 == TASK ->
#ifdef MUT_CLAIM_RLX
                /* a relaxed claim: settle's acquire load of public_end and
                 * the reads of the arguments may be performed before it */
                if
                :: MAY_READ_EARLY -> early = 1; LD(me, L_PE, epe); LD(me, L_DATA(b), ea)
                :: true -> early = 0
                fi;
#endif
                /* weft__wool_claim: acquire */
                s = s1;
                CAS(me, L_STATE(b), s, MARK(me), ok);
                if
                :: ok ->
                    /* weft__wool_settle */
#ifdef MUT_SERVE_RLX
                    /* the raise relaxed: a thief that reads it need not see
                     * the private join before it (message passing without
                     * the release), written as settle's state read
                     * performed before its read of public_end */
                    if
                    :: MAY_READ_EARLY -> early2 = 1; LD(me, L_STATE(b), es)
                    :: true -> early2 = 0
                    fi;
#endif
                    LD(me, L_PE, pe);             /* acquire */
#ifdef MUT_CLAIM_RLX
                    if :: early -> pe = epe :: else fi;
#endif
#ifdef MUT_SETTLE_NOPE
                    pe = NSLOT;
#endif
                    if
                    :: b >= pe ->
                        assert(!COVER_BACKOFF_PE);
                        restore()
                    :: else ->
                        LD(me, L_STATE(b), s);    /* relaxed */
#ifdef MUT_SERVE_RLX
                        if :: early2 -> s = es :: else fi;
#endif
#ifdef MUT_SETTLE_NOSTATE
                        s = MARK(me);
#endif
                        if
                        :: s != MARK(me) -> assert(!COVER_GIVEUP)
                        :: else ->
                            /* the bot CAS; the ghost checks of a commit
                             * in the same step (atomic) */
                            atomic {
#ifdef MUT_BOT_STORE
                                ST(me, L_BOT, b + 1); ok = 1;
#else
                                x = b;
                                CAS_RLX(me, L_BOT, x, b + 1, ok);
#endif
                                if
                                :: ok ->
                                    assert(!COVER_STEAL);
                                    assert(live[b] && !gstolen[b]);
                                    assert(b < ope);   /* public */
                                    _i = 0;
                                    do
                                    :: _i < b -> assert(!live[_i] || gstolen[_i]); _i++
                                    :: else -> break
                                    od;
                                    _i = 0;
                                    gstolen[b] = 1
                                :: else
                                fi
                            };
                            if
                            :: !ok ->
                                assert(!COVER_BACKOFF_BOT);
                                restore()
                            :: else ->            /* committed */
                                /* run_stolen */
                                LD(me, L_DATA(b), a);
#ifdef MUT_CLAIM_RLX
                                if :: early -> a = ea :: else fi;
#endif
                                run_task(b, a);
                                ST(me, L_DATA(b), RESULT(a));
#ifdef MUT_DONE_RLX
                                ST(me, L_STATE(b), DONE)
#else
                                ST_SC(me, L_STATE(b), DONE)
#endif
                            fi
                        fi
                    fi
                :: else
                fi
            :: else
            fi
        fi;
        b = 0; pe = 0; s1 = 0; s = 0; a = 0; x = 0; ok = 0; early = 0; epe = 0; ea = 0; early2 = 0; es = 0
    :: else -> break
    od;
    thief_done[me] = 1
}

/* Never stuck: when nothing can move any more (spin's timeout), the owner
 * has finished its script.  A SYNC left waiting for a task nobody will
 * finish fails here by name (owner_done), not only as spin's generic
 * invalid end state. */
active proctype never_stuck()
{
    atomic { timeout -> assert(owner_done) }
}

init {
    byte k, i;
    atomic {
        k = 0;
        SCRIPT
        k = 0;
        run owner();
        run thief(1);
        run thief(2);
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(2)
    };
    /* the end: every process done, every buffer drained */
    atomic {
        owner_done && thief_done[1] && thief_done[2] && ALL_DRAINED ->
        i = 1;
        do
        :: i <= ntask -> assert(ran[i] == 1); i++
        :: else -> break
        od;
        assert(mem[L_BOT] == 0);
        i = 0;
        do
        :: i < NSLOT -> assert(mem[L_STATE(i)] == EMPTY); i++
        :: else -> break
        od;
        assert(mem[L_PF] == REQ || mem[L_PF] == ope)
    }
}
