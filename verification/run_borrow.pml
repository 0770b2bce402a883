/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of lending an idle worker to a RUN caller
 * (src/runtime/sleep.c: idle_wait, weft__borrow_idle,
 * weft__sleep_lent_return; src/runtime/external.c; docs/sleep.md, "RUN on
 * the calling thread").
 *
 * Threads:
 *   WT  the worker's own thread: takes work when awake, sleeps as IDLE
 *       (word, count, last look), becomes lendable (CAS IDLE ->
 *       IDLE_LENDABLE) and waits while the word is not AWAKE; on AWAKE it
 *       waits on the loan count until the last borrower is done.
 *   BT  a RUN caller: borrows the worker (CAS IDLE_LENDABLE -> LENT, count
 *       - 1, loans + 2) NB times; as the worker it may take published work
 *       and may sleep as a joiner (JOIN | GUEST) on the worker's word until
 *       a thief completes its stolen task (a claim of a GUEST sleep makes
 *       the word LENT again, not AWAKE); then it gives the worker back:
 *       the sleeper's announce (word IDLE, count + 1) and last look, then
 *       a claim if the look found work, else CAS IDLE -> IDLE_LENDABLE;
 *       loans - 2 and a wake-up of the worker's thread if it waits on them.
 *   PT  publishes work NPUB times: work = 1 (seq_cst), then reads the idle
 *       count (seq_cst) and claims the worker if it sleeps IDLE (a claim:
 *       CAS of the word from a sleep kind to AWAKE, again while the word
 *       is still a kind it accepts; count - 1; wake every waiter of the
 *       word).
 *   TT  the thief of the borrower's stolen task: DONE (seq_cst), then
 *       claims the worker's word if it holds JOIN.
 * The futex is modelled exactly, with waiters by address: futex_wait
 * blocks only if the word holds the expected value; a wake releases every
 * waiter of that address (MUT_WAKE_ONE: one of them).
 *
 * The worker's own state (its deque, scheduler fields, counters and trace
 * buffer: what a borrower takes over with its identity) is a real
 * location, L_STATE, written with plain stores: the worker's thread writes
 * it after its last look finds nothing (the sleep's counter and trace
 * entry, before idle_wait's CAS to lendable), a borrower when it takes the
 * worker over (its task runs as the worker); each write is a new stamp
 * (the writer's; the ghost state_last is the newest's).  Each user reads it when it takes
 * the worker (its thread when it wakes, a borrower after its CAS to
 * LENT), and a borrower reads it once more after its last look (the reads
 * of w in something_to_do, weft__sleep_lent_return's last use of w).
 * What orders these accesses is the loan's: the CAS to lendable
 * (release) and the borrower's CAS to LENT (acquire); the borrower's
 * decrement of the loans (release) and the thread's load of them
 * (acquire).  On the weak model a relaxed decrement lets the borrower's
 * last read be satisfied after it (load->store reordering, written as an
 * explicit late read, like mm.pml's early reads), when no successful CAS
 * of the borrower's (acq_rel) after the read orders it first.
 *
 * Checked:
 *   - one actor at a time uses the worker's state (`holder`): its thread
 *     from waking to just before it becomes lendable, a borrower from its
 *     borrow to just before its last CAS of the word (then only the word
 *     and the loan count are touched);
 *   - the worker's state is handed over: whoever takes the worker reads
 *     the last user's stamp (st == state_last), and a borrower's last
 *     read of it still sees its own (st == my_stamp: the worker's thread
 *     has not written it yet);
 *   - when nothing can move any more (spin's `timeout`): no published
 *     work is left while the worker's thread sleeps (no lost wake-up); the
 *     borrower is not stranded in a JOIN sleep; the worker's thread does
 *     not wait for a loan that is over; the idle count is exact.
 *
 * Mutants:
 *   MUT_LEND_NO_LASTLOOK   the borrower gives the worker back without the
 *                          last look
 *   MUT_LEND_NO_RECOUNT    ... without counting it among the idle sleepers
 *   MUT_WAKE_ONE           a claim wakes one waiter of the word, not all:
 *                          the borrower's JOIN wake-up may go to the
 *                          worker's own thread
 *   MUT_NO_LOAN_CHECK      the worker's thread returns on AWAKE without
 *                          waiting for the loan to end
 *   MUT_NO_GUEST_BIT       the borrower's sleeps are plain JOIN and end in
 *                          AWAKE: the worker's thread may take such an AWAKE
 *                          for its own, read the loan count after the loan
 *                          ended, and run beside the next borrower (the
 *                          first version of the protocol)
 *   MUT_LENDABLE_EARLY     the sleeper announces itself lendable at once,
 *                          before its last look
 *   MUT_LEND_CLAIM_LENT    claims accept LENT (a waker "wakes" a lent worker)
 *   MUT_CLAIM_NO_RETRY     a claim whose CAS fails gives up, also when the
 *                          sleeper only became lendable (IDLE -> LENDABLE)
 *                          since the peek
 *   MUT_FUTEX_NOCMP        futex_wait blocks without comparing the word
 *   MUT_LENDABLE_RLX       idle_wait's CAS to lendable is relaxed: the
 *                          thread's last writes of the worker's state may
 *                          reach a borrower late (weak model: state_last)
 *   MUT_LOAN_RLX           the borrower's decrement of the loans is
 *                          relaxed: its last read of the worker's state may
 *                          see what the woken thread wrote (weak model:
 *                          my_stamp)
 */
#ifndef NB
#define NB 2          /* borrows */
#endif
#ifndef NPUB
#define NPUB 1        /* publications of work */
#endif
#ifndef NJOIN
#define NJOIN 1       /* JOIN sleeps of the borrower (at most one stolen task) */
#endif

#ifndef NBT
#define NBT 1         /* RUN callers (threads BT .. BT + NBT - 1) */
#endif

#define WT 0
#define PT 1
#define TT 2
#define BT 3
#define NT (BT + NBT)

#define L_WORD 0      /* the worker's sleep word */
#define L_IDLE 1      /* sleeping_idle */
#define L_JOINC 2     /* sleeping_join */
#define L_LOANS 3     /* the seat's loan count (x2) | waiter bit */
#define L_WORK 4      /* published work (what the last look reads) */
#define L_DONE 5      /* the borrower's stolen task is DONE */
#define L_STATE 6     /* the worker's own state (deque, fields): a stamp */
#define NLOC 7
#ifndef BUFSZ
#define BUFSZ 3
#endif

#define AWAKE 0
#define K_IDLE 1
#define K_JOIN 2
#define LENT 4
#define LENDABLE 5
#ifdef MUT_NO_GUEST_BIT
#define GUEST 0
#else
#define GUEST 8       /* a borrower's sleep on the worker's word */
#endif
#define KIND(s) ((s) & 3)
/* What ends a sleep: LENT for a borrower's, else AWAKE. */
#define WOKEN(s) (((s) & GUEST) -> LENT : AWAKE)

#define COVER(x) assert(!(x))
#ifndef COVER_BORROW
#define COVER_BORROW 0          /* a RUN caller borrows the worker */
#endif
#ifndef COVER_GUEST_SLEEP
#define COVER_GUEST_SLEEP 0     /* the borrower waits on the worker's word as JOIN */
#endif
#ifndef COVER_GUEST_WOKEN
#define COVER_GUEST_WOKEN 0     /* ... and the thief's claim wakes it */
#endif
#ifndef COVER_RETURN_CLAIM
#define COVER_RETURN_CLAIM 0    /* the borrower's last look finds work and wakes the worker */
#endif
#ifndef COVER_LOAN_WAIT
#define COVER_LOAN_WAIT 0       /* the worker's thread waits on the loan count */
#endif
#ifndef COVER_REBORROW
#define COVER_REBORROW 0        /* a borrow while the previous loan is still being ended */
#endif
#ifndef COVER_WOKEN_IN_LOAN
#define COVER_WOKEN_IN_LOAN 0   /* the worker's thread is woken while the worker is lent */
#endif

#include "mm.pml"

byte fwait[NT];          /* 0, or 1 + the location a thread waits on */
byte holder;             /* 0, or 1 + the thread using the worker's state */
bit stolen;              /* a borrower's task was stolen: the thief may complete it */
byte joins;              /* JOIN sleeps so far (all borrowers) */
byte state_last;         /* ghost: the stamp of the newest write of L_STATE */

inline ACQUIRE_WORKER(me)
{
    atomic { assert(holder == 0 || holder == me + 1); holder = me + 1 }
}
inline RELEASE_WORKER(me) { holder = 0 }

/* A plain write of the worker's state, stamped with the writer (1 + its
 * thread: consecutive users differ, so a read that misses the newest
 * write sees another stamp). */
inline WRITE_STATE(me)
{
    atomic { ST(me, L_STATE, me + 1); state_last = me + 1 }
}
/* Taking the worker: its state is the last user's. */
inline TAKE_STATE(me)
{
    atomic { LD(me, L_STATE, st); assert(st == state_last); st = 0 }
}
/* A borrower's last use of the worker's state: still its own. */
inline LAST_USE(me)
{
    atomic { LD(me, L_STATE, st); assert(st == my_stamp); st = 0 }
}

/* Wake waiters of loc: all of them (the code: INT_MAX), or one. */
inline futex_wake(loc)
{
    atomic {
        _i = 0;
        do
        :: _i < NT ->
            if
            :: fwait[_i] == loc + 1 ->
                fwait[_i] = 0;
#ifdef MUT_WAKE_ONE
                break
            :: fwait[_i] == loc + 1 -> skip    /* wake-one: may pick a later waiter */
#else
                skip
#endif
            :: else
            fi;
            _i++
        :: else -> break
        od;
        _i = 0
    }
}

/* Block on loc while it holds expv (one call site per label). */
#ifdef MUT_FUTEX_NOCMP
#define FUTEX_BLOCK(me, loc, expv) atomic { DRAINED(me) -> fwait[me] = (loc) + 1 }
#else
#define FUTEX_BLOCK(me, loc, expv) \
    atomic { DRAINED(me) -> if :: mem[loc] == (expv) -> fwait[me] = (loc) + 1 :: else fi }
#endif

#ifdef MUT_LEND_CLAIM_LENT
#define ACCEPTS(accept, s) (s != AWAKE && ((accept & (1 << KIND(s))) || s == LENT))
#else
#define ACCEPTS(accept, s) (s != AWAKE && (accept & (1 << KIND(s))))
#endif

/* claim(): thread me claims the worker if its word is a sleep kind in
 * accept (bit mask); decrements the count that kind is in. */
inline claim(me, accept)
{
    LD(me, L_WORD, cs);                        /* relaxed peek */
    do
    :: ACCEPTS(accept, cs) ->
        CAS(me, L_WORD, cs, WOKEN(cs), cok);   /* acq_rel; on failure cs = the word */
        if
        :: cok ->
            claimed = 1;
            if
            :: KIND(cs) == K_JOIN -> FADD_RLX(me, L_JOINC, -1, cold)
            :: KIND(cs) == K_IDLE -> FADD_RLX(me, L_IDLE, -1, cold)
            :: else
            fi;
            futex_wake(L_WORD);
            break
#ifdef MUT_CLAIM_NO_RETRY
        :: else -> break
#else
        :: else                                /* IDLE -> LENDABLE meanwhile: again */
#endif
        fi
    :: else -> break
    od;
    cs = 0; cok = 0; cold = 0
}

proctype worker()
{
    byte _i, x, s, l, exp, ok, st;
    atomic { ACQUIRE_WORKER(WT); TAKE_STATE(WT) }   /* awake: it is the worker */
    do
    :: /* take the work if there is some (a steal) */
        exp = 1;
        CAS(WT, L_WORK, exp, 0, ok);
        /* weft__sleep(IDLE): announce */
#ifdef MUT_LENDABLE_EARLY
        ST_SC(WT, L_WORD, LENDABLE);
#else
        ST_SC(WT, L_WORD, K_IDLE);
#endif
        FADD(WT, L_IDLE, 1, x);
        LD_SC(WT, L_WORK, x);                  /* the last look */
        if
        :: x ->                                /* withdraw unless claimed */
            exp = K_IDLE;
            CAS(WT, L_WORD, exp, AWAKE, ok);
            if
            :: ok -> FADD_RLX(WT, L_IDLE, -1, x)
            :: else
            fi
        :: else ->
            /* the sleep's counter and trace entry, then no more use */
            atomic { WRITE_STATE(WT); RELEASE_WORKER(WT) };
#ifdef MUT_LENDABLE_EARLY
            ok = 1;
#else
            exp = K_IDLE;                      /* idle_wait: become lendable */
#ifdef MUT_LENDABLE_RLX
            CAS_RLX(WT, L_WORD, exp, LENDABLE, ok);
#else
            CAS(WT, L_WORD, exp, LENDABLE, ok);   /* acq_rel: publishes the state */
#endif
#endif
            if
            :: ok ->
                do
                :: LD(WT, L_WORD, s);          /* acquire */
                    if
                    :: s != AWAKE ->           /* asleep, lent, or the borrower's sleep */
                        FUTEX_BLOCK(WT, L_WORD, s);
end_word:               atomic { fwait[WT] == 0 }
                    :: else ->                 /* a claim ended a sleep of the worker's */
#ifdef MUT_NO_LOAN_CHECK
                        break
#else
                        LD(WT, L_LOANS, l);    /* acquire */
                        if
                        :: l < 2 -> break
                        :: else ->
                            COVER(COVER_WOKEN_IN_LOAN);
                            if
                            :: (l & 1) -> ok = 1
                            :: else ->
                                exp = l;
                                CAS_RLX(WT, L_LOANS, exp, l | 1, ok)
                            fi;
                            if
                            :: ok ->
                                COVER(COVER_LOAN_WAIT);
                                FUTEX_BLOCK(WT, L_LOANS, l | 1);
end_loans:                      atomic { fwait[WT] == 0 }
                            :: else
                            fi
                        fi
#endif
                    fi
                od
            :: else                            /* claimed before lendable */
            fi;
            atomic { ACQUIRE_WORKER(WT); TAKE_STATE(WT) }
        fi;
        x = 0; s = 0; l = 0; exp = 0; ok = 0
    od
}

proctype borrower(byte BTx)
{
    byte _i, x, s, l, exp, ok, rounds, cs, cok, cold, st;
    bit claimed, late;
    byte my_stamp = BTx + 1;                   /* what our writes of L_STATE hold */
    do
    :: rounds < NB ->
        rounds++;
        LD(BTx, L_WORD, s);                     /* weft__borrow_idle: relaxed peek */
        if
        :: s == LENDABLE ->
            exp = LENDABLE;
            CAS(BTx, L_WORD, exp, LENT, ok);    /* acq_rel */
            if
            :: ok ->
                COVER(COVER_BORROW);
                FADD_RLX(BTx, L_IDLE, -1, x);
                FADD_RLX(BTx, L_LOANS, 2, x);
                COVER(COVER_REBORROW && x >= 2);
                /* the task runs as the worker: its state is ours */
                atomic { ACQUIRE_WORKER(BTx); TAKE_STATE(BTx); WRITE_STATE(BTx) };
                /* the task, as the worker: may take the work */
                if
                :: exp = 1; CAS(BTx, L_WORK, exp, 0, ok)
                :: skip
                fi;
                /* a SYNC on a stolen task: sleeps as JOIN on the worker's word */
                if
                :: atomic { joins < NJOIN -> joins++ };
                    stolen = 1;
                    ST_SC(BTx, L_WORD, K_JOIN | GUEST);
                    FADD(BTx, L_JOINC, 1, x);
                    LD_SC(BTx, L_DONE, x);
                    if
                    :: x ->
                        exp = K_JOIN | GUEST;
                        CAS(BTx, L_WORD, exp, WOKEN(K_JOIN | GUEST), ok);
                        if
                        :: ok -> FADD_RLX(BTx, L_JOINC, -1, x)
                        :: else
                        fi
                    :: else ->
                        do
                        :: LD(BTx, L_WORD, s);  /* acquire */
                            if
                            :: s == WOKEN(K_JOIN | GUEST) -> break
                            :: else ->
                                COVER(COVER_GUEST_SLEEP);
                                FUTEX_BLOCK(BTx, L_WORD, s);
end_join:                       atomic { fwait[BTx] == 0 };
                                COVER(COVER_GUEST_WOKEN)
                            fi
                        od
                    fi
                :: skip
                fi;
                /* weft__sleep_lent_return: the sleeper's announce ... */
                ST_SC(BTx, L_WORD, K_IDLE);
#ifndef MUT_LEND_NO_RECOUNT
                FADD(BTx, L_IDLE, 1, x);
#endif
                /* ... and its last look */
#ifdef MUT_LEND_NO_LASTLOOK
                x = 0;
#else
                LD_SC(BTx, L_WORK, x);
#endif
                /* the last use of the worker's state: still ours */
#if defined(MUT_LOAN_RLX) && defined(MM_WEAK)
                if
                :: LAST_USE(BTx)
                :: late = 1                     /* satisfied after the decrement */
                fi;
#else
                LAST_USE(BTx);
#endif
                /* From here on only the word and the loan count are touched. */
                RELEASE_WORKER(BTx);
                ok = 0;
                if
                :: x ->
                    COVER(COVER_RETURN_CLAIM);
                    claim(BTx, 2)               /* IDLE */
                :: else ->
                    exp = K_IDLE;
                    CAS(BTx, L_WORD, exp, LENDABLE, ok)
                fi;
                /* a successful CAS (acq_rel) orders the late read before it;
                 * the worker's thread cannot take the worker before the
                 * decrement below, so reading here is reading before it */
                if
                :: late && (ok || claimed) -> LAST_USE(BTx); late = 0
                :: else
                fi;
#ifdef MUT_LOAN_RLX
                FADD_RLX(BTx, L_LOANS, -2, l);
#else
                FADD(BTx, L_LOANS, -2, l);      /* release: our use of the worker is over */
#endif
                if
                :: late -> LAST_USE(BTx); late = 0
                :: else
                fi;
                claimed = 0;
                if
                :: (l & 1) && (l >> 1) == 1 ->
                    atomic { RMW_GUARD_RLX(BTx, L_LOANS) -> mem[L_LOANS] = mem[L_LOANS] & 254 };
                    futex_wake(L_LOANS)
                :: else
                fi
            :: else
            fi
        :: else                                /* the hand-off path: not modelled */
        fi;
        x = 0; s = 0; l = 0; exp = 0; ok = 0
    :: else -> break
    od
}

proctype publisher()
{
    byte _i, x, pubs, cs, cok, cold;
    bit claimed;
    do
    :: pubs < NPUB ->
        pubs++;
        ST_SC(PT, L_WORK, 1);                  /* the work, seq_cst */
        LD_SC(PT, L_IDLE, x);                  /* weft__wake_for_work's count */
        if
        :: x != 0 -> claim(PT, 6)              /* IDLE or JOIN */
        :: else
        fi;
        x = 0
    :: else -> break
    od
}

proctype thief()
{
    byte _i, x, cs, cok, cold;
    bit claimed;
end_idle:
    stolen == 1;
    ST_SC(TT, L_DONE, 1);                      /* DONE, seq_cst */
    LD_SC(TT, L_WORD, x);                      /* weft__wake_joiner */
    if
    :: KIND(x) == K_JOIN -> claim(TT, 4)       /* JOIN */
    :: else
    fi
}

/* When nothing can move: nobody is stranded. */
proctype monitor()
{
    byte _i;
    atomic {
        timeout ->
        assert(!(mem[L_WORK] == 1 && fwait[WT] != 0));     /* lost wake-up */
        _i = BT;
        do
        :: _i < NT -> assert(fwait[_i] == 0); _i++      /* a borrower stranded */
        :: else -> break
        od;
        assert(fwait[WT] != L_LOANS + 1);                  /* waits for a loan that is over */
#ifndef NO_COUNT_CHECK
        assert(mem[L_IDLE] == (KIND(mem[L_WORD]) == K_IDLE -> 1 : 0))
#endif
    }
}

init {
    atomic {
        run worker();
        byte b = BT;
        do
        :: b < NT -> run borrower(b); b++
        :: else -> break
        od;
        run publisher();
        run thief();
        run monitor();
        START_FLUSHER(WT);
        START_FLUSHER(PT);
        START_FLUSHER(TT);
        b = BT;
        do
        :: b < NT -> START_FLUSHER(b); b++
        :: else -> break
        od
    }
}
