/* The table of queue kinds and the slot arrays they share. */
#include "pool_internal.h"

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

void pq_ring_free_list(pq_ring *r)
{
    while (r != NULL) {
        pq_ring *next = r->next;
        free(r);
        r = next;
    }
}
