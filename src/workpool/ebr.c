// SPDX-License-Identifier: Apache-2.0
/* Epoch-based reclamation for the arrays of the shrinking Chase-Lev queue.
 *
 * A global epoch G (wp_pool.epoch) and one announcement word per worker:
 * (e << 1) | 1 while the worker is inside a steal that may dereference an
 * array, 0 otherwise.
 *
 *   thief T:  e = G (relaxed); ann = e|1 (relaxed);
 *             ... the steal's seq_cst fence F_T ...; load array; use it;
 *             ann = 0 (release)
 *   owner O:  store the new array pointer (release); seq_cst fence F_O;
 *             r = G (relaxed); retire(old, r) ... free(old) once G >= r + 2
 *   advance:  e = G (relaxed); seq_cst fence F_A; every announcement
 *             (acquire) is 0 or e|1; then CAS G e -> e+1 (acq_rel)
 *
 * Why an array is never freed while a thief uses it (C11, with the
 * coherence rules for seq_cst fences): let T load the old array.  Then F_T
 * precedes F_O in the fence order S, or T's load (after F_T) would see O's
 * store of the new pointer (before F_O).  So T's read of G, before F_T,
 * cannot return a value later than the r that O read after F_O: T announced
 * some e <= r.  Freeing needs the advance r+1 -> r+2; that advancer read
 * G = r+1, which is after O's read of r, so its fence F_A follows F_O and
 * hence F_T in S, and its acquire load of T's announcement sees T's store of
 * e|1 or a later one.  e|1 with e <= r < r+1 blocks the advance; so it saw
 * T's withdrawal (release, after T's last use of the array) or a later
 * store, which puts T's accesses before the advancer's CAS, and that CAS
 * before O's acquire load of G >= r+2, before the free.
 *
 * Costs: a thief pays a relaxed load and a relaxed store before its steal
 * and a release store after it (no extra fence: the steal already has
 * one).  The owner pays a fence per retired array and an O(workers) scan
 * per collection attempt (at each resize and when it runs out of work).  A
 * thief descheduled inside a steal delays reclamation (memory), never
 * correctness.
 */
#include "workpool/ebr.h"

#include <stdlib.h>

void weft__wp_ebr_enter(wp_worker *w)
{
    wp_pool *p = w->pool;
    /* Relaxed: ordered before the array load by the steal's seq_cst fence. */
    uint64_t e = atomic_load_explicit(&p->epoch, memory_order_relaxed);
    /* Relaxed: ordered by the steal's seq_cst fence (see the top). */
    atomic_store_explicit(&w->ebr_ann, (e << 1) | 1, memory_order_relaxed);
}

void weft__wp_ebr_exit(wp_worker *w)
{
    /* Release: our accesses to the array before an advancer's acquire load. */
    atomic_store_explicit(&w->ebr_ann, 0, memory_order_release);
}

static bool try_advance(wp_pool *p)
{
    /* Relaxed: the CAS below validates it. */
    uint64_t e = atomic_load_explicit(&p->epoch, memory_order_relaxed);
    /* seq_cst fence: F_A of the proof at the top. */
    atomic_thread_fence(memory_order_seq_cst);
    /* A hosted pool's agent (index n) steals too. */
    for (unsigned i = 0; i < p->n + (p->host != NULL); i++) {
        /* Acquire: pairs with a thief's release withdrawal. */
        uint64_t a = atomic_load_explicit(&p->workers[i]->ebr_ann, memory_order_acquire);
        if ((a & 1) && (a >> 1) != e)
            return false;
    }
    /* Acq_rel: releases what we saw to the owners that acquire G. */
    return atomic_compare_exchange_strong_explicit(&p->epoch, &e, e + 1, memory_order_acq_rel,
                                                   memory_order_relaxed);
}

void weft__wp_ebr_collect(wp_worker *owner)
{
    if (owner->n_retired == 0)
        return;
    wp_pool *p = owner->pool;
    try_advance(p);
    /* Acquire: pairs with the advancers' CAS (see the top). */
    uint64_t g = atomic_load_explicit(&p->epoch, memory_order_acquire);
    size_t keep = 0;
    for (size_t i = 0; i < owner->n_retired; i++) {
        if (owner->retired[i].epoch + 2 <= g) {
            free(owner->retired[i].ptr);
            owner->ctr.reclaimed++;
        } else {
            owner->retired[keep++] = owner->retired[i];
        }
    }
    owner->n_retired = keep;
}

void weft__wp_ebr_retire(wp_worker *owner, void *ptr)
{
    wp_pool *p = owner->pool;
    /* seq_cst fence: F_O, after our store of the new array pointer. */
    atomic_thread_fence(memory_order_seq_cst);
    /* Relaxed: ordered by the fence above. */
    uint64_t r = atomic_load_explicit(&p->epoch, memory_order_relaxed);
    if (owner->n_retired == owner->cap_retired) {
        size_t cap = owner->cap_retired ? owner->cap_retired * 2 : 16;
        wp_retired *bigger = realloc(owner->retired, cap * sizeof *bigger);
        if (bigger == NULL)
            weft__fatal("out of memory retiring a queue array (worker %u)", owner->id);
        owner->retired = bigger;
        owner->cap_retired = cap;
    }
    owner->retired[owner->n_retired++] = (wp_retired){ptr, r};
    weft__wp_ebr_collect(owner);
}

void weft__wp_ebr_drain(wp_worker *w)
{
    for (size_t i = 0; i < w->n_retired; i++)
        free(w->retired[i].ptr);
    w->n_retired = 0;
    free(w->retired);
    w->retired = NULL;
    w->cap_retired = 0;
}
