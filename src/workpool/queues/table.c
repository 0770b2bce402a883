/* The table of queue kinds and the slot arrays they share. */
#include "workpool/workpool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const pq_ops *const kinds[WEFT_QUEUE_KINDS] = {
    [WEFT_QUEUE_ABP] = &pq_abp_ops,
    [WEFT_QUEUE_CHASE_LEV] = &pq_chaselev_ops,
    [WEFT_QUEUE_CHASE_LEV_SHRINK] = &pq_chaselev_shrink_ops,
    [WEFT_QUEUE_IDEMPOTENT_LIFO] = &pq_idem_lifo_ops,
    [WEFT_QUEUE_IDEMPOTENT_FIFO] = &pq_idem_fifo_ops,
    [WEFT_QUEUE_IDEMPOTENT_DEQUE] = &pq_idem_deque_ops,
    [WEFT_QUEUE_DUPLICATING] = &pq_dup_ops,
    [WEFT_QUEUE_CENTRAL] = &pq_central_ops,
};

const pq_ops *pq_ops_of(weft_queue_kind kind)
{
    if ((unsigned)kind >= WEFT_QUEUE_KINDS)
        return NULL;
    return kinds[kind];
}

const char *weft_queue_name(weft_queue_kind kind)
{
    const pq_ops *ops = pq_ops_of(kind);
    return ops ? ops->name : "?";
}

int weft_queue_from_name(const char *name, weft_queue_kind *out)
{
    if (name == NULL || out == NULL)
        return EINVAL;
    for (unsigned k = 0; k < WEFT_QUEUE_KINDS; k++) {
        if (strcmp(kinds[k]->name, name) == 0) {
            *out = (weft_queue_kind)k;
            return 0;
        }
    }
    return EINVAL;
}

bool weft_queue_is_idempotent(weft_queue_kind kind)
{
    const pq_ops *ops = pq_ops_of(kind);
    return ops != NULL && ops->idempotent;
}

size_t pq_pow2(size_t n)
{
    size_t c = 2;
    while (c < n && c < ((size_t)1 << 62))
        c <<= 1;
    return c;
}

pq_ring *pq_ring_new(size_t cap, unsigned words)
{
    if (cap > ((size_t)1 << 40) / words)
        return NULL;
    /* calloc: slots start zeroed, so a thief's speculative read of a slot
     * never written is a read of defined memory. */
    pq_ring *r = calloc(1, sizeof *r + cap * words * sizeof(uint64_t));
    if (r == NULL)
        return NULL;
    r->cap = cap;
    r->mask = cap - 1;
    r->next = NULL;
    return r;
}

void pq_ring_copy(pq_ring *from, pq_ring *to, uint64_t lo, uint64_t hi, unsigned words)
{
    for (uint64_t i = lo; i != hi; i++) {
        uint64_t tmp[POOL_MAX_WORDS];
        pq_slot_load(pq_ring_slot(from, i, words), tmp, words);
        pq_slot_store(pq_ring_slot(to, i, words), tmp, words);
    }
}

bool pq_ring_double(_Atomic(pq_ring *) *shared, pq_ring **own, pq_ring **retired, uint64_t lo,
                    uint64_t hi, size_t max_cap, unsigned words)
{
    pq_ring *old = *own;
    if (old->cap >= max_cap)
        return false;
    pq_ring *fresh = pq_ring_new(old->cap * 2, words);
    if (fresh == NULL)
        return false;
    pq_ring_copy(old, fresh, lo, hi, words);
    /* Release: the copied slots before the pointer (thieves acquire it). */
    atomic_store_explicit(shared, fresh, memory_order_release);
    *own = fresh;
    old->next = *retired;
    *retired = old;
    return true;
}

void pq_ring_free_list(pq_ring *r)
{
    while (r != NULL) {
        pq_ring *next = r->next;
        free(r);
        r = next;
    }
}
