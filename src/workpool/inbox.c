// SPDX-License-Identifier: Apache-2.0
/* A hosted pool's inbox (hosted.h): items the host injects, which idle
 * workers take from like a victim's queue.  The host copies items in under
 * the lock and wakes a sleeper after a fence (a wake point of sleep.h);
 * a worker takes them all under the lock into its own queue.  Why the
 * inbox keeps termination detection exact: hosted.c. */
#include "workpool/inbox.h"

#include "workpool/hooks.h"
#include "workpool/own_queue.h"
#include "workpool/sleep.h"

#include <stdlib.h>

void weft__wp_hosted_inject(wp_pool *p, const void *items, size_t k)
{
    wp_host *h = p->host;
    unsigned words = p->words;
    pthread_mutex_lock(&h->lock);
    /* Relaxed: we hold the lock, which orders every writer. */
    size_t n = atomic_load_explicit(&h->inbox_n, memory_order_relaxed);
    if (n + k > h->inbox_cap) {
        size_t cap = h->inbox_cap ? h->inbox_cap : 64;
        while (cap < n + k)
            cap *= 2;
        uint64_t *bigger = realloc(h->inbox, cap * words * sizeof(uint64_t));
        if (bigger == NULL)
            weft__fatal("out of memory: inbox of %zu items", n + k);
        h->inbox = bigger;
        h->inbox_cap = cap;
    }
    const unsigned char *src = items;
    for (size_t i = 0; i < k; i++) {
        uint64_t *slot = h->inbox + (n + i) * words;
        wp_item_from_user(p, slot, src + i * p->item_size);
        wp_item_set_path(p, slot, 0); /* (hosted runs are not profiled) */
    }
    /* Relaxed: the takers read the items under the lock; the count is for
     * peeks, ordered by the fence below. */
    atomic_store_explicit(&h->inbox_n, n + k, memory_order_relaxed);
    pthread_mutex_unlock(&h->lock);
    /* F_W of this wake point, against a sleeper's last look, which counts
     * the inbox. */
    weft__park_publish_fence();
    wp_worker *agent = p->workers[p->n];
    /* Relaxed: the waker's read after the fence above. */
    if (atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) != 0)
        wp_wake_one(agent);
}

bool weft__wp_inbox_take(wp_worker *w)
{
    wp_pool *p = w->pool;
    wp_host *h = p->host;
    pthread_mutex_lock(&h->lock);
    /* Relaxed: under the lock. */
    size_t n = atomic_load_explicit(&h->inbox_n, memory_order_relaxed);
    for (size_t i = 0; i < n; i++)
        weft__wp_local_push(w, h->inbox + i * p->words, false);
    /* Relaxed: under the lock; peeks only hint. */
    atomic_store_explicit(&h->inbox_n, 0, memory_order_relaxed);
    pthread_mutex_unlock(&h->lock);
    if (n == 0)
        return false;
    wp_wake_for(w, w->q, p->wake_min); /* a hint: more than we need */
    return true;
}
