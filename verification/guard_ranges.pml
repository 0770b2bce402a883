/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the table of guards that the SIGSEGV handler reads
 * (src/runtime/memory.c: slot_claim, slot_write, weft__guard_note,
 * weft__guard_forget, weft__guard_holds).
 *
 * Two slots, each a count and a range [lo, hi).  Writer A notes range
 * (1,2) and then forgets it; writer B notes range (3,4).  A writer notes
 * by claiming the first free slot (the count read with acquire, even, and
 * hi == 0; the count moved from even to odd by a relaxed CAS), a release
 * fence, the range (relaxed), the count made even (release).  It forgets
 * by moving its slot's count to odd by a relaxed CAS, a release fence, the
 * range cleared, the count made even (release).  The reader, the handler, reads
 * each slot ROUNDS times: the count (acquire), skipped if odd; lo and hi
 * (relaxed); an acquire fence; the count again; it takes the range only
 * if the count is unchanged.
 *
 * Properties:
 *   - a range the reader takes is one a writer wrote whole: (0,0), (1,2)
 *     or (3,4), never words of two;
 *   - a claim takes a slot that holds no range and that no other writer
 *     is writing;
 *   - at the end, B's range is in one slot and A's in none.
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_ODD      forgetting clears the range without first making the
 *                   count odd (found under SC)
 *   MUT_EARLY_SEQ2  the reader reads the count the second time before the
 *                   range, as without its acquire fence (found under SC)
 *   MUT_CLAIM_STORE a claim is a plain store of the odd count after the
 *                   check, not a CAS (found under SC)
 *   MUT_END_RELAXED the even count a relaxed store: it may reach memory
 *                   before the range (found under the weak model, not
 *                   under TSO)
 * Not shown: the release fence between the odd count and the range.  The
 * model's CAS writes memory at once, so the range can never pass it, with
 * the fence or without.
 * Coverage (-DCOVER_P=1 makes reaching P an error): SKIP, the reader
 * passes a slot by because its count changed while it read the range;
 * SECOND, a writer notes its range in the second slot.
 */
#ifndef ROUNDS
#define ROUNDS 2
#endif
#define NT 3
#define WA 0
#define WB 1
#define READER 2
#define NSLOT 2
#define L_SEQ(k) (3 * (k))
#define L_LO(k) (3 * (k) + 1)
#define L_HI(k) (3 * (k) + 2)
#define NLOC (3 * NSLOT)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#include "mm.pml"

byte writing[NSLOT]; /* ghost: writers inside a claim's or forget's write */
byte done_writers;   /* ghost */

/* A release fence: the thread's older stores reach memory before any
 * younger one (stronger than C11's, which orders only against a reader's
 * acquire, and enough for the stores here). */
inline FENCE_REL(me) { atomic { DRAINED(me) } }

inline write_range(me, k, seq, lo, hi)
{
    FENCE_REL(me);
    ST(me, L_LO(k), lo);
    ST(me, L_HI(k), hi);
    writing[k]--;
#ifdef MUT_END_RELAXED
    ST(me, L_SEQ(k), seq + 1)
#else
    ST_REL(me, L_SEQ(k), seq + 1)
#endif
}

/* Notes (lo, hi) in the first free slot; `k` is the slot. */
inline note(me, lo, hi, k)
{
    k = 0;
    do
    :: k == NSLOT -> assert(false) /* two slots are enough for two ranges */
    :: else ->
        LD(me, L_SEQ(k), seq);                 /* acquire */
        LD(me, L_HI(k), h);
        if
        :: seq % 2 == 0 && h == 0 ->
#ifdef MUT_CLAIM_STORE
            atomic { writing[k]++; assert(writing[k] == 1) };
            ST(me, L_SEQ(k), seq + 1);
            ok = 1;
#else
            CAS_RLX(me, L_SEQ(k), seq, seq + 1, ok);
            if
            :: ok -> writing[k]++; assert(writing[k] == 1)
            :: else
            fi;
#endif
            if
            :: ok ->
#ifdef COVER_SECOND
                assert(k == 0);
#endif
                write_range(me, k, seq + 1, lo, hi);
                break
            :: else -> k++
            fi
        :: else -> k++
        fi
    od
}

proctype writer_a()
{
    byte _i, seq, h, ok, k, l;
    note(WA, 1, 2, k);
    /* forget: its own slot, found by its range */
    LD(WA, L_SEQ(k), seq);                     /* acquire */
    LD(WA, L_LO(k), l);
    assert(seq % 2 == 0 && l == 1);
    writing[k]++;
    assert(writing[k] == 1);
#ifndef MUT_NO_ODD
    CAS_RLX(WA, L_SEQ(k), seq, seq + 1, ok);
    assert(ok);
#endif
    write_range(WA, k, seq + 1, 0, 0);
    FENCE_SC(WA);
    done_writers++
}

proctype writer_b()
{
    byte _i, seq, h, ok, k;
    note(WB, 3, 4, k);
    FENCE_SC(WB);
    done_writers++
}

proctype reader()
{
    byte _i, r = 0, k, before, after, lo, hi, a, b, c;
    do
    :: r == ROUNDS -> break
    :: else ->
        k = 0;
        do
        :: k == NSLOT -> break
        :: else ->
            LD(READER, L_SEQ(k), before);      /* acquire */
            if
            :: before % 2 == 1 -> skip
            :: else ->
#ifdef MUT_EARLY_SEQ2
                LD(READER, L_SEQ(k), after);
#endif
                LD(READER, L_LO(k), lo);
                LD(READER, L_HI(k), hi);
                /* acquire fence */
#ifndef MUT_EARLY_SEQ2
                LD(READER, L_SEQ(k), after);
#endif
                if
                :: after == before ->
                    assert((lo == 0 && hi == 0) || (lo == 1 && hi == 2) || (lo == 3 && hi == 4))
                :: else ->
#ifdef COVER_SKIP
                    assert(false);
#endif
                    skip
                fi
            fi;
            k++
        od;
        r++
    od;
    /* the end: every store has reached memory */
    done_writers == 2;
    a = 0;
    b = 0;
    k = 0;
    do
    :: k == NSLOT -> break
    :: else ->
        LD(READER, L_LO(k), lo);
        LD(READER, L_HI(k), hi);
        LD(READER, L_SEQ(k), c);
        assert(c % 2 == 0);
        if
        :: lo == 1 || hi == 2 -> a++
        :: lo == 3 && hi == 4 -> b++
        :: else -> assert(lo == 0 && hi == 0)
        fi;
        k++
    od;
    assert(a == 0 && b == 1)
}

init
{
    atomic {
        run writer_a();
        run writer_b();
        run reader();
        START_FLUSHER(WA);
        START_FLUSHER(WB);
        START_FLUSHER(READER)
    }
}
