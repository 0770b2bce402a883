/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of a trace track's ring as a streamed session uses it
 * (src/observe/trace.c: append, stream_drain_locked).
 *
 * One owner appends K events to a ring of CAP slots; one stream thread
 * drains it.  The owner keeps how far it may write (`room`, the consumed
 * count plus CAP, as last read); when its next write would pass it, it
 * reads the consumed count again (acquire) and, if there is still no
 * room, drops the event and remembers the drop.  Before its next event
 * after drops it writes a marker.  It writes a slot (plain) and then the
 * count (release).  The stream reads the count (acquire), reads the slots
 * below it, then stores the consumed count (release).  The stream drains
 * up to DRAINS times while the owner runs and once after it is done (the
 * session's end joins the thread before its last drain).
 *
 * Properties:
 *   - every slot the stream reads holds what the owner wrote there for
 *     that count (neither an older event nor one written over it);
 *   - every gap is marked: an event that does not follow the one before
 *     comes after a marker;
 *   - at the end, the events read and the events dropped are the K.
 *
 * Mutants (-D, one at a time):
 *   MUT_CONSUME_EARLY  the stream stores the consumed count before it
 *                      reads the slots (what a relaxed store may do on a
 *                      weak machine; found under SC)
 *   MUT_NO_MARKER      the owner writes no marker after drops (found
 *                      under SC)
 *   MUT_COUNT_RELAXED  the owner's count a relaxed store: its slot may
 *                      reach memory after the count (found under the weak
 *                      model, not under TSO)
 * Coverage (-DCOVER_P=1 makes reaching P an error): DROP, an event
 * dropped; MARKER, a marker written.
 */
#ifndef K
#define K 4
#endif
#ifndef CAP
#define CAP 2
#endif
#ifndef DRAINS
#define DRAINS 3
#endif
#define NT 2
#define OWNER 0
#define STREAM 1
#define L_SLOT(c) ((c) % CAP)
#define L_N CAP
#define L_CONSUMED (CAP + 1)
#define NLOC (CAP + 2)
#ifndef BUFSZ
#define BUFSZ 3
#endif
#define MARKER 100 /* a marker's value: MARKER + the drops so far */

#include "mm.pml"

byte wrote[2 * K]; /* ghost: what the owner wrote for each count */
byte dropped;      /* ghost: the owner's drops */
bool done;         /* ghost: the owner finished (its stores drained) */

proctype owner()
{
    byte _i, n = 0, room = 0, c, k = 1, need;
    bool unmarked = false;
    do
    :: k > K -> break
    :: else ->
        need = (unmarked -> 2 : 1);
        if
        :: n + need > room ->
            LD(OWNER, L_CONSUMED, c);          /* acquire */
            room = c + CAP
        :: else
        fi;
        if
        :: n + need > room ->
#ifdef COVER_DROP
            assert(false);
#endif
            dropped++;
            unmarked = true
        :: else ->
#ifndef MUT_NO_MARKER
            if
            :: unmarked ->
#ifdef COVER_MARKER
                assert(false);
#endif
                wrote[n] = MARKER + dropped;
                ST(OWNER, L_SLOT(n), MARKER + dropped);
                n++;
                unmarked = false
            :: else
            fi;
#else
            unmarked = false;
#endif
            wrote[n] = k;
            ST(OWNER, L_SLOT(n), k);
#ifdef MUT_COUNT_RELAXED
            ST(OWNER, L_N, n + 1);
#else
            ST_REL(OWNER, L_N, n + 1);         /* release: the slot first */
#endif
            n++
        fi;
        k++
    od;
    FENCE_SC(OWNER);
    done = true
}

proctype stream()
{
    byte _i, n, c = 0, v, last = 0, d = 0, events = 0;
    bool marked = false, final;
    do
    :: d < DRAINS || done ->
        final = done;
        LD(STREAM, L_N, n);                    /* acquire */
#ifdef MUT_CONSUME_EARLY
        ST_REL(STREAM, L_CONSUMED, n);
#endif
        do
        :: c == n -> break
        :: else ->
            LD(STREAM, L_SLOT(c), v);
            assert(v == wrote[c]);
            if
            :: v >= MARKER -> marked = true
            :: else ->
                assert(v == last + 1 || marked);
                marked = false;
                last = v;
                events++
            fi;
            c++
        od;
#ifndef MUT_CONSUME_EARLY
        ST_REL(STREAM, L_CONSUMED, c);         /* release: the reads first */
#endif
        d++;
        if
        :: final -> break
        :: else
        fi
    od;
    assert(events + dropped == K)
}

init
{
    atomic {
        run owner();
        run stream();
        START_FLUSHER(OWNER);
        START_FLUSHER(STREAM)
    }
}
