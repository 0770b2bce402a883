/* SPDX-License-Identifier: Apache-2.0 */
/* Store-buffer memory models for the weft protocol models.
 *
 * Select one with -D on the spin command line:
 *   MM_SC    sequential consistency: every access goes straight to memory.
 *   MM_TSO   x86-TSO: one FIFO store buffer per thread; a load reads the
 *            thread's newest buffered store to that location, else memory;
 *            locked RMWs (CAS, fetch_add, xchg), seq_cst stores (compiled
 *            to XCHG) and seq_cst fences drain the buffer first.
 *   MM_WEAK  stores may be reordered (as on ARM/POWER): a buffered store
 *            may reach memory before older stores to other locations (the
 *            buffer is only FIFO per location, i.e. coherent).  A release
 *            store, a release-or-stronger RMW and a seq_cst fence first
 *            drain every older store; a relaxed RMW only the older stores
 *            to its own location; a seq_cst load waits until the
 *            thread's seq_cst store (if one is buffered) reached memory
 *            (ARMv8: STLR -> LDAR is ordered, a plain STR -> LDAR is not).
 *            Load->load reordering is not a property of a buffer: each
 *            model writes it where an acquire matters, as an explicit
 *            early read (see docs/verification.md).
 *
 * The including model defines, before including this file:
 *   NT      number of threads (ids 0 .. NT-1)
 *   NLOC    number of shared locations (ids 0 .. NLOC-1, bytes)
 *   BUFSZ   store buffer entries per thread
 *   WORD(l) the location whose coherence order l belongs to (normally l)
 * and every process that accesses memory declares `byte _i;`.
 */
#ifndef WORD
#define WORD(l) (l)
#endif
#ifndef COMMIT_WRITE
#define COMMIT_WRITE(loc, v) mem[loc] = v
#endif

byte mem[NLOC];
#if !defined(MM_SC)
byte bloc[NT * BUFSZ];   /* thread t's entry k: index t*BUFSZ+k, oldest first */
byte bval[NT * BUFSZ];
byte bn[NT];             /* entries in use */
byte bcnt[NT * NLOC];    /* entries per location, for cheap guards */
bit bsc[NT * BUFSZ];     /* the entry is a seq_cst store */
byte bnsc[NT];           /* seq_cst entries in use */
#endif

#define B(me, k) ((me) * BUFSZ + (k))
#define PENDING(me, loc) bcnt[(me) * NLOC + (loc)]

#if defined(MM_SC)
#define DRAINED(me) true
#define LOC_DRAINED(me, loc) true
#else
#define DRAINED(me) (bn[me] == 0)
#define LOC_DRAINED(me, loc) (PENDING(me, loc) == 0)
#endif

/* ---- stores ---- */
#if defined(MM_SC)
inline ST(me, loc, v)     { COMMIT_WRITE(loc, v) }
inline ST_REL(me, loc, v) { mem[loc] = v }
inline ST_SC(me, loc, v)  { mem[loc] = v }
#else
inline enqueue(me, loc, v)
{
    bloc[B(me, bn[me])] = loc;
    bval[B(me, bn[me])] = v;
    bn[me] = bn[me] + 1;
    PENDING(me, loc) = PENDING(me, loc) + 1
}
/* relaxed (and plain) store */
inline ST(me, loc, v)     { atomic { bn[me] < BUFSZ -> enqueue(me, loc, v) } }
#if defined(MM_TSO)
/* x86: a release store is a plain MOV; a seq_cst store is XCHG (drains). */
inline ST_REL(me, loc, v) { atomic { bn[me] < BUFSZ -> enqueue(me, loc, v) } }
inline ST_SC(me, loc, v)  { atomic { DRAINED(me) -> mem[loc] = v } }
#else
/* weak: older stores first; the store itself may still wait in the buffer */
inline ST_REL(me, loc, v) { atomic { DRAINED(me) -> enqueue(me, loc, v) } }
inline ST_SC(me, loc, v)
{
    atomic { DRAINED(me) -> bsc[B(me, 0)] = 1; bnsc[me] = 1; enqueue(me, loc, v) }
}
#endif
#endif

/* ---- loads: own newest buffered store, else memory ---- */
#if defined(MM_SC)
inline LD(me, loc, out)    { out = mem[loc] }
inline LD_SC(me, loc, out) { out = mem[loc] }
#else
inline LD(me, loc, out)
{
    atomic {
        if
        :: PENDING(me, loc) == 0 -> out = mem[loc]
        :: else ->
            _i = bn[me];
            do
            :: bloc[B(me, _i - 1)] == loc -> out = bval[B(me, _i - 1)]; break
            :: else -> _i--
            od
        fi;
        _i = 0
    }
}
#if defined(MM_TSO)
inline LD_SC(me, loc, out) { LD(me, loc, out) }
#else
/* after the thread's seq_cst stores (STLR -> LDAR); relaxed ones may wait */
inline LD_SC(me, loc, out) { atomic { bnsc[me] == 0 -> LD(me, loc, out) } }
#endif
#endif

/* ---- read-modify-writes: atomic on memory ----
 * RLX: relaxed (weak: drains only this location; x86: LOCK drains all).
 * Everything else (acquire, release, acq_rel, seq_cst): drains all.  On
 * the weak model an acquire-only RMW need not drain older stores; no
 * protocol here relies on that, so it is modelled as the stronger one. */
#if defined(MM_WEAK)
#define RMW_GUARD_RLX(me, loc) LOC_DRAINED(me, loc)
#else
#define RMW_GUARD_RLX(me, loc) DRAINED(me)
#endif
#define RMW_GUARD(me, loc) DRAINED(me)

/* CAS: on failure `exp` gets the current value, as in C11. */
inline CAS_G(guard, loc, exp, new, ok)
{
    atomic {
        guard ->
        if
        :: mem[loc] == exp -> mem[loc] = new; ok = 1
        :: else -> exp = mem[loc]; ok = 0
        fi
    }
}
#define CAS(me, loc, exp, new, ok)     CAS_G(RMW_GUARD(me, loc), loc, exp, new, ok)
#define CAS_RLX(me, loc, exp, new, ok) CAS_G(RMW_GUARD_RLX(me, loc), loc, exp, new, ok)

/* fetch_add / fetch_sub (d may be negative): old value in `old` */
inline FADD_G(guard, loc, d, old) { atomic { guard -> old = mem[loc]; mem[loc] = mem[loc] + d } }
#define FADD(me, loc, d, old)     FADD_G(RMW_GUARD(me, loc), loc, d, old)
#define FADD_RLX(me, loc, d, old) FADD_G(RMW_GUARD_RLX(me, loc), loc, d, old)

inline XCHG(me, loc, v, old) { atomic { RMW_GUARD(me, loc) -> old = mem[loc]; mem[loc] = v } }

/* seq_cst fence (x86 MFENCE, ARM DMB ISH): drains the buffer. */
inline FENCE_SC(me) { atomic { DRAINED(me) } }

/* ---- the store buffer drains in the background ---- */
#if !defined(MM_SC)
/* Commit entry j of thread me to memory and remove it. */
inline commit(me, j)
{
    COMMIT_WRITE(bloc[B(me, j)], bval[B(me, j)]);
    PENDING(me, bloc[B(me, j)]) = PENDING(me, bloc[B(me, j)]) - 1;
#if defined(MM_WEAK)
    if
    :: bsc[B(me, j)] -> bnsc[me] = 0
    :: else
    fi;
#endif
    do
    :: j + 1 < bn[me] ->
        bloc[B(me, j)] = bloc[B(me, j + 1)];
        bval[B(me, j)] = bval[B(me, j + 1)];
#if defined(MM_WEAK)
        bsc[B(me, j)] = bsc[B(me, j + 1)];
#endif
        j++
    :: else -> break
    od;
    bn[me] = bn[me] - 1;
    bloc[B(me, bn[me])] = 0;
    bval[B(me, bn[me])] = 0;
    bsc[B(me, bn[me])] = 0
}
proctype flusher(byte me)
{
    byte k, j;
end:
    do
    :: atomic {
        bn[me] > 0 ->
#if defined(MM_WEAK)
        /* any entry ... */
        k = 0;
        do
        :: k + 1 < bn[me] -> k++
        :: break
        od;
        /* ... but per location in order: the oldest one to its word */
        j = 0;
        do
        :: WORD(bloc[B(me, j)]) == WORD(bloc[B(me, k)]) -> break
        :: else -> j++
        od;
#else
        j = 0;     /* x86: oldest first */
#endif
        commit(me, j);
        k = 0;
        j = 0
    }
    od
}
#define START_FLUSHER(me) run flusher(me)
#else
#define START_FLUSHER(me) skip
#endif

/* Explicit load->load reordering (weak model only): may a read that
 * program order puts after an acquire be performed before it?  Only where
 * a model's mutant weakens that acquire to relaxed. */
#if defined(MM_WEAK)
#define MAY_READ_EARLY true
#else
#define MAY_READ_EARLY false
#endif
