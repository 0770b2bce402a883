// SPDX-License-Identifier: Apache-2.0
/* Memory for deques and stacks.
 *
 * Deques and stacks are reserved with mmap: address space is cheap, and
 * the kernel supplies real pages only where they are touched, so a 64 MiB
 * stack or a million-task deque costs what the computation uses.  Each
 * region has PROT_NONE guard pages: below a stack (it grows down) and
 * above a deque.  The deque never reaches its guard (SPAWN checks the
 * bound and stops with a message); the stack guard turns an overflow into
 * a SIGSEGV, which overflow.c explains before aborting.
 *
 * A stack's guard is as large as the stack (weft__stack_guard), so a frame
 * can only jump over it into whatever lies below by being larger than the
 * whole stack; and weft and its users compile with -fstack-clash-protection
 * where the compiler has it (the CMake target and pkg-config export it),
 * which probes every page of a large frame, so such code always hits the
 * guard.  docs/configuration.md says what is and is not caught.
 * overflow.c explains what hits a guard.
 *
 * Every guard made here is noted in a table that the SIGSEGV handler
 * reads without a lock, a wait or a thread-local (weft__guard_holds):
 * a fault outside the table is not weft's, and goes on to the handler
 * before weft's without weft touching anything of the faulting thread's.
 */
#include "runtime/memory.h"

#include <weft/weft.h>

#include "runtime/topology.h"

#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t weft__page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

/* ---- The table of guards ----
 *
 * A SIGSEGV handler must not call malloc (the fault may be inside it),
 * and reading a thread-local can: in a shared object that links weft's
 * static library, a thread that existed before the object was loaded
 * gets the object's thread-locals on its first use of them, from malloc.
 * So the handler first asks this table whether the address lies in a
 * range of weft's, and reads weft's thread-locals only if it does.
 *
 * The table is chunks of slots, each chunk a page that is never freed
 * (the handler may be reading it); a chunk is linked on when every slot
 * is in use.  No lock: a fork or a signal may come at any point.  Each
 * slot is a sequence lock: a writer claims a free slot by moving its even
 * count to odd (CAS: one claimer wins), writes the range, and makes the
 * count even again; only the writer that noted a range forgets it, the
 * same way.  A reader takes a range only if it read the same even count
 * before and after it, and otherwise passes the slot by (a slot being
 * written holds a range being added, not in use yet, or being removed, in
 * use no more), so the handler never waits.  verification/guard_ranges.pml
 * models a slot's writers and reader.
 */
typedef struct guard_slot {
    _Atomic(uintptr_t) seq;    /* odd while a writer changes the range */
    _Atomic(uintptr_t) lo, hi; /* [lo, hi); hi == 0: free */
} guard_slot;

/* The handler reads the table: its atomics must need no lock. */
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "the guard table needs lock-free word atomics");

#define GUARD_CHUNK_BYTES ((size_t)4096)
#define GUARD_SLOTS ((GUARD_CHUNK_BYTES - sizeof(void *)) / sizeof(guard_slot))

typedef struct guard_chunk {
    _Atomic(struct guard_chunk *) next;
    guard_slot slot[GUARD_SLOTS];
} guard_chunk;

static _Atomic(guard_chunk *) guard_chunks;

/* The count at `seq` is the caller's (odd, claimed): write the range and
 * let readers have it. */
static void slot_write(guard_slot *s, uintptr_t seq, uintptr_t lo, uintptr_t hi)
{
    /* Release fence: a reader that reads either new word of the range
     * reads the odd count after it (its acquire fence pairs). */
    atomic_thread_fence(memory_order_release);
    /* Relaxed (both): ordered by the fence above and the store below. */
    atomic_store_explicit(&s->lo, lo, memory_order_relaxed);
    atomic_store_explicit(&s->hi, hi, memory_order_relaxed);
    /* Release: a reader or claimer that reads the even count reads this
     * range. */
    atomic_store_explicit(&s->seq, seq + 1, memory_order_release);
}

/* Claims s if it is free: its count, now odd, or 0. */
static uintptr_t slot_claim(guard_slot *s)
{
    /* Acquire: the range read next is the one this count published. */
    uintptr_t seq = atomic_load_explicit(&s->seq, memory_order_acquire);
    /* Relaxed: ordered by the acquire above; the CAS checks it still holds
     * (a forget moves the count by CAS too, so no two writers both move
     * one even count). */
    if ((seq & 1) || atomic_load_explicit(&s->hi, memory_order_relaxed) != 0)
        return 0;
    /* Relaxed: the count alone is claimed here; slot_write's fence orders
     * the range's stores after it. */
    if (!atomic_compare_exchange_strong_explicit(&s->seq, &seq, seq + 1, memory_order_relaxed,
                                                 memory_order_relaxed))
        return 0;
    return seq + 1;
}

int weft__guard_note(void *lo, size_t bytes)
{
    if (bytes == 0)
        return 0;
    /* Acquire (all): pairs with the release that linked the chunk. */
    _Atomic(guard_chunk *) *link = &guard_chunks;
    for (;;) {
        guard_chunk *c = atomic_load_explicit(link, memory_order_acquire);
        if (!c) {
            guard_chunk *fresh = mmap(NULL, GUARD_CHUNK_BYTES, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (fresh == MAP_FAILED)
                return ENOMEM;
            /* Release: a reader that finds the chunk reads its zeroes,
             * free slots; acquire on failure: the chunk linked instead. */
            if (!atomic_compare_exchange_strong_explicit(link, &c, fresh, memory_order_release,
                                                         memory_order_acquire))
                munmap(fresh, GUARD_CHUNK_BYTES);
            else
                c = fresh;
        }
        for (size_t i = 0; i < GUARD_SLOTS; i++) {
            uintptr_t seq = slot_claim(&c->slot[i]);
            if (seq) {
                slot_write(&c->slot[i], seq, (uintptr_t)lo, (uintptr_t)lo + bytes);
                return 0;
            }
        }
        link = &c->next;
    }
}

void weft__guard_forget(void *lo, size_t bytes)
{
    if (bytes == 0)
        return;
    uintptr_t want_lo = (uintptr_t)lo, want_hi = (uintptr_t)lo + bytes;
    /* Acquire (all): pairs with the release that linked the chunk. */
    for (guard_chunk *c = atomic_load_explicit(&guard_chunks, memory_order_acquire); c;
         c = atomic_load_explicit(&c->next, memory_order_acquire))
        for (size_t i = 0; i < GUARD_SLOTS; i++) {
            guard_slot *s = &c->slot[i];
            /* Acquire: the range read next is no older than this count's. */
            uintptr_t seq = atomic_load_explicit(&s->seq, memory_order_acquire);
            /* Relaxed (both): ordered by the acquire above. */
            if ((seq & 1) || atomic_load_explicit(&s->lo, memory_order_relaxed) != want_lo ||
                atomic_load_explicit(&s->hi, memory_order_relaxed) != want_hi)
                continue;
            /* Relaxed: a CAS, as a claim's, so that a claimer that read
             * this even count cannot take the slot too; slot_write's fence
             * orders the range's stores after the odd count.  It does not
             * fail: a claimer's CAS wins only on the count of a free slot,
             * and this count's slot holds the caller's range; if it ever
             * did, the slot is read again. */
            if (!atomic_compare_exchange_strong_explicit(
                    &s->seq, &seq, seq + 1, memory_order_relaxed, memory_order_relaxed)) {
                i--;
                continue;
            }
            slot_write(s, seq + 1, 0, 0);
            return;
        }
}

bool weft__guard_holds(const void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    /* Acquire (both): pairs with the release that linked the chunk. */
    for (guard_chunk *c = atomic_load_explicit(&guard_chunks, memory_order_acquire); c;
         c = atomic_load_explicit(&c->next, memory_order_acquire))
        for (size_t i = 0; i < GUARD_SLOTS; i++) {
            guard_slot *s = &c->slot[i];
            /* Acquire: the range read below is no older than this count. */
            uintptr_t before = atomic_load_explicit(&s->seq, memory_order_acquire);
            if (before & 1)
                continue;
            /* Relaxed (both): checked by the count read again below. */
            uintptr_t lo = atomic_load_explicit(&s->lo, memory_order_relaxed);
            uintptr_t hi = atomic_load_explicit(&s->hi, memory_order_relaxed);
            /* Acquire fence: the range's reads before the count's second
             * read (pairs with slot_write's release fence). */
            atomic_thread_fence(memory_order_acquire);
            /* Relaxed: ordered by the fence above. */
            if (atomic_load_explicit(&s->seq, memory_order_relaxed) != before)
                continue;
            if (a >= lo && a < hi)
                return true;
        }
    return false;
}

void *weft__map(size_t bytes, size_t guard_below, size_t guard_above, int placement)
{
    size_t page = weft__page_size();
    bytes = round_up(bytes, page);
    guard_below = round_up(guard_below, page);
    guard_above = round_up(guard_above, page);
    size_t total = guard_below + bytes + guard_above;
    char *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    if ((guard_below && mprotect(base, guard_below, PROT_NONE) != 0) ||
        (guard_above && mprotect(base + guard_below + bytes, guard_above, PROT_NONE) != 0)) {
        munmap(base, total);
        return NULL;
    }
    if (weft__guard_note(base, guard_below) != 0) {
        munmap(base, total);
        return NULL;
    }
    if (weft__guard_note(base + guard_below + bytes, guard_above) != 0) {
        weft__guard_forget(base, guard_below);
        munmap(base, total);
        return NULL;
    }
    weft__topology_bind_area(base + guard_below, bytes, placement);
    return base + guard_below;
}

void weft__unmap(void *usable, size_t bytes, size_t guard_below, size_t guard_above)
{
    size_t page = weft__page_size();
    bytes = round_up(bytes, page);
    guard_below = round_up(guard_below, page);
    guard_above = round_up(guard_above, page);
    weft__guard_forget((char *)usable - guard_below, guard_below);
    weft__guard_forget((char *)usable + bytes, guard_above);
    munmap((char *)usable - guard_below, guard_below + bytes + guard_above);
}

size_t weft__stack_guard(size_t stack_size)
{
    size_t guard = stack_size;
    if (guard < WEFT_MIN_STACK_GUARD)
        guard = WEFT_MIN_STACK_GUARD;
    if (guard > WEFT_MAX_STACK_GUARD)
        guard = WEFT_MAX_STACK_GUARD;
    return round_up(guard, weft__page_size());
}

size_t weft__deque_bytes(size_t slots)
{
    /* Two slots more than usable: `end` stays EMPTY, so a task running at
     * a full deque's top can check its slot (weft_check_return); and the
     * floor below dq holds WEFT_STATE_END, so that the slot below any
     * head can be read (weft_fj_spawn_slot_exact_as). */
    return round_up((slots + 2) * sizeof(weft_task), weft__page_size());
}
