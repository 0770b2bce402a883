/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of Wool's direct task stack protocol (Faxén, "Wool - a work
 * stealing library", Figure 3): synchronisation on each task descriptor's
 * state (TASK / EMPTY / STOLEN / DONE), `top` private to the owner and
 * `bot` implicitly owned by whoever stole or joined the task below it.
 * Modelled from the paper's pseudo-code with C11 orders where the paper
 * assumes TSO (docs/verification.md says which weft version it was
 * compared with).
 *
 * Properties:
 *   - every spawned task runs exactly once, with the arguments the owner
 *     wrote, and the joiner of a stolen task sees its result;
 *   - stolen tasks form a prefix: a thief that wins slot t finds every
 *     live task below t already stolen (what the `bot` re-check is for);
 *   - no deadlock (spin's invalid end states).
 *
 * Mutants:
 *   MUT_WOOL_NOBOTCHECK  the thief does not re-read bot after its CAS
 *   MUT_WOOL_NORESTORE   a thief that backs off leaves the slot EMPTY
 *   MUT_WOOL_JOIN_NOSWAP the owner's join reads, then writes EMPTY (no swap)
 *   MUT_WOOL_SPAWN_RLX   the spawn's TASK store relaxed instead of release
 *   MUT_WOOL_DONE_RLX    the thief's DONE store relaxed instead of release
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
#define NOPS 12
#define NTASK NOPS
#define P_OP 1
#define S_OP 2
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;

#define NT 3
#define OWNER 0
#define EMPTY 0
#define TASK 1
#define STOLEN 2
#define DONE 3
#define L_BOT 0
#define L_STATE(i) (1 + (i))
#define L_ARG(i) (1 + NSLOT + (i))
#define L_RES(i) (1 + 2 * NSLOT + (i))
#define NLOC (1 + 3 * NSLOT)
#define RESULT(id) ((id) + 64)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#include "mm.pml"

byte script[NOPS];
byte slot_id[NSLOT];      /* ghost: the task in each slot */
bool live[NSLOT];         /* ghost: spawned, not yet joined */
bool gstolen[NSLOT];      /* ghost: won by a thief */
byte ran[NTASK + 1];
bool owner_done;

inline run_task(slot, id)
{
    atomic {
        assert(id == slot_id[slot]);
        assert(ran[id] == 0);
        ran[id]++
    }
}

proctype owner()
{
    byte _i, top, op, id, s, x;
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP ->                      /* spawn_f */
            id++;
            atomic { slot_id[top] = id; live[top] = 1 };
            ST(OWNER, L_ARG(top), id);
#ifdef MUT_WOOL_SPAWN_RLX
            ST(OWNER, L_STATE(top), TASK);
#else
            ST_REL(OWNER, L_STATE(top), TASK);        /* the write that exposes it */
#endif
            top++
        :: script[op] == S_OP ->                      /* join_f */
            top--;
#ifdef MUT_WOOL_JOIN_NOSWAP
            LD(OWNER, L_STATE(top), s);
            ST(OWNER, L_STATE(top), EMPTY);
#else
            XCHG(OWNER, L_STATE(top), EMPTY, s);      /* swap, acq_rel */
#endif
            if
            :: s == TASK ->
                LD(OWNER, L_ARG(top), x); run_task(top, x)
            :: else ->                                /* RTS_join */
                do
                :: s == EMPTY ->                      /* a thief is mid-steal */
                    atomic { LOC_DRAINED(OWNER, L_STATE(top)) && mem[L_STATE(top)] != EMPTY -> s = mem[L_STATE(top)] }
                :: s == TASK ->
                    XCHG(OWNER, L_STATE(top), EMPTY, s);
                    if
                    :: s == TASK -> break
                    :: else
                    fi
                :: else -> break
                od;
                if
                :: s == TASK ->
                    LD(OWNER, L_ARG(top), x); run_task(top, x)
                :: else ->                            /* STOLEN or DONE */
                    if
                    :: s == STOLEN ->                 /* wait (leapfrogging not modelled) */
                        atomic { LOC_DRAINED(OWNER, L_STATE(top)) && mem[L_STATE(top)] == DONE }
                    :: else
                    fi;
                    LD(OWNER, L_RES(top), x);         /* after the acquire of DONE */
                    assert(x == RESULT(slot_id[top]))
                fi;
                LD(OWNER, L_BOT, x);                  /* bot-- */
                ST(OWNER, L_BOT, x - 1)
            fi;
            atomic { live[top] = 0; gstolen[top] = 0 };
            s = 0; x = 0
        fi;
        op++
    :: else -> break
    od;
    atomic {
        _i = 1;
        do
        :: _i <= id -> assert(ran[_i] == 1); _i++
        :: else -> break
        od;
        owner_done = 1
    }
}

proctype thief(byte me)
{
    byte _i, t, s1, s2, b, a, attempts, ok;
    do
    :: attempts < NATT && !owner_done ->
        attempts++;
        LD(me, L_BOT, t);                             /* Task *t = victim->bot */
        if
        :: t < NSLOT ->
            LD(me, L_STATE(t), s1);
            if
            :: s1 == TASK ->
                s2 = s1;
                CAS(me, L_STATE(t), s2, EMPTY, ok);   /* cas_val, acq_rel */
                if :: ok -> s2 = s1 :: else fi;
                LD(me, L_BOT, b);
#ifdef MUT_WOOL_NOBOTCHECK
                b = t;
#endif
                if
                :: s1 != s2 || b != t ->              /* lost, or bot moved: back off */
#ifndef MUT_WOOL_NORESTORE
                    if
                    :: s1 == s2 -> ST_REL(me, L_STATE(t), s1)
                    :: else
                    fi
#endif
                :: else ->
                    atomic {
                        /* stolen tasks form a prefix */
                        _i = 0;
                        do
                        :: _i < t -> assert(!live[_i] || gstolen[_i]); _i++
                        :: else -> break
                        od;
                        _i = 0;
                        gstolen[t] = 1
                    };
                    ST(me, L_STATE(t), STOLEN);
                    ST(me, L_BOT, t + 1);
                    LD(me, L_ARG(t), a);
                    run_task(t, a);
                    ST(me, L_RES(t), RESULT(a));
#ifdef MUT_WOOL_DONE_RLX
                    ST(me, L_STATE(t), DONE)
#else
                    ST_REL(me, L_STATE(t), DONE)
#endif
                fi
            :: else
            fi
        :: else
        fi;
        t = 0; s1 = 0; s2 = 0; b = 0; a = 0; ok = 0
    :: else -> break
    od
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
    atomic {
        byte k = 0;
        SCRIPT
        k = 0;
        run owner();
        run thief(1);
        run thief(2);
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(2)
    }
}
