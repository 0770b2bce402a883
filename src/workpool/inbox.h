// SPDX-License-Identifier: Apache-2.0
/* A hosted pool's inbox (inbox.c): the host injects items, idle workers
 * take them.  Not installed; includes only public headers. */
#ifndef WEFT_WORKPOOL_INBOX_H
#define WEFT_WORKPOOL_INBOX_H

#include <weft/bits/lang.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct wp_pool wp_pool;
typedef struct wp_worker wp_worker;

/* Host thread only; exported from a shared libweft (the dist library
 * calls it). */
WEFT_BEGIN_DECLS
/* Copies k items (item_size bytes each) into the inbox and wakes a
 * sleeping worker. */
void weft__wp_hosted_inject(wp_pool *p, const void *items, size_t k);
WEFT_END_DECLS

/* A worker's look at the inbox; true if it took items (pushed to its own
 * queue).  Called outside the idle set. */
bool weft__wp_inbox_take(wp_worker *w);

#endif
