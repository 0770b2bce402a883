// SPDX-License-Identifier: Apache-2.0
/* Counters of a pool run.  Each worker counts in plain fields of its own
 * structure (no atomics, no shared lines); weft_pool_run sums them after it
 * has joined the worker threads, so the sum races with nothing.  These are
 * the metrics "Work-stealing Queues In Practice" (section 7.2) wished for:
 * failed steals, duplicated work, growths and shrinks. */
#include "workpool/counters.h"

#include <string.h>

void weft__wp_stats_sum(wp_pool *p, uint64_t initial, weft_pool_stats *out)
{
    memset(out, 0, sizeof *out);
    out->workers = p->n;
    out->initial = initial;
    for (unsigned i = 0; i < p->n; i++) {
        const wp_counters *c = &p->workers[i]->ctr;
        out->pushed += c->pushed;
        out->processed += c->processed;
        out->steals += c->steals;
        out->steal_empty += c->steal_empty;
        out->steal_aborts += c->steal_aborts;
        out->stolen_items += c->stolen_items;
        out->requests += c->requests;
        out->splits += c->splits;
        out->grows += c->grows;
        out->shrinks += c->shrinks;
        out->overflows += c->overflows;
        out->reclaimed += c->reclaimed;
        out->sleeps += c->sleeps;
        out->wakes += c->wakes;
    }
    /* A split makes one item out of nothing pushed. */
    uint64_t expected = out->initial + out->pushed + out->splits;
    out->duplicates = out->processed > expected ? out->processed - expected : 0;
}

void weft_pool_stats_print(const weft_pool_stats *s, FILE *out)
{
    if (s == NULL || out == NULL)
        return;
    fprintf(out,
            "workers %u  initial %llu  pushed %llu  processed %llu  duplicates %llu\n"
            "steals %llu  steal_empty %llu  steal_aborts %llu  stolen_items %llu  "
            "requests %llu  splits %llu\n"
            "grows %llu  shrinks %llu  overflows %llu  reclaimed %llu  sleeps %llu  wakes %llu\n",
            s->workers, (unsigned long long)s->initial, (unsigned long long)s->pushed,
            (unsigned long long)s->processed, (unsigned long long)s->duplicates,
            (unsigned long long)s->steals, (unsigned long long)s->steal_empty,
            (unsigned long long)s->steal_aborts, (unsigned long long)s->stolen_items,
            (unsigned long long)s->requests, (unsigned long long)s->splits,
            (unsigned long long)s->grows, (unsigned long long)s->shrinks,
            (unsigned long long)s->overflows, (unsigned long long)s->reclaimed,
            (unsigned long long)s->sleeps, (unsigned long long)s->wakes);
}
