// SPDX-License-Identifier: Apache-2.0
/* A pool's configuration checks (config.c), for weft_pool_run and the
 * hosted pool.  Not installed; includes only public headers. */
#ifndef WEFT_WORKPOOL_CONFIG_H
#define WEFT_WORKPOOL_CONFIG_H

#include <weft/bits/lang.h>

#include <stddef.h>
#include <weft/pool.h>

/* Exported from a shared libweft: the dist library calls it. */
WEFT_BEGIN_DECLS
/* weft_pool_run's checks of a configuration and its arguments: 0, or
 * EINVAL with a message naming the field. */
int weft__wp_pool_validate(const weft_pool_config *cfg, const void *initial, size_t n_initial,
                           weft_pool_fn fn);
WEFT_END_DECLS

#endif
