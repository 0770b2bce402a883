// SPDX-License-Identifier: Apache-2.0
/* The pieces of a run (run.c), shared by weft_pool_run and the hosted
 * pool (hosted.c); the configuration's checks, weft__wp_pool_validate, are
 * exported for the dist library and declared in hosted.h.  Not
 * installed. */
#ifndef WEFT_WORKPOOL_RUN_H
#define WEFT_WORKPOOL_RUN_H

#include "workpool/types.h"

/* A pool with its workers and queues; hosted: with a host and an agent. */
wp_pool *weft__wp_pool_create(const weft_pool_config *cfg, weft_pool_fn fn, void *arg, bool hosted,
                              int *err);
void weft__wp_pool_destroy(wp_pool *p);
/* The initial items, round-robin, before the threads start; false if they
 * do not fit a fixed-size queue with the FAIL policy. */
bool weft__wp_pool_seed(wp_pool *p, const void *initial, size_t n_initial);
/* Threads for workers first .. n-1, waiting at the gate; returns the index
 * of the first worker without one (n if all were created). */
unsigned weft__wp_pool_start_threads(wp_pool *p, unsigned first);
/* Opens the gate: go, or tell the threads to exit. */
void weft__wp_pool_open_gate(wp_pool *p, bool go);
void weft__wp_pool_join_threads(wp_pool *p, unsigned first, unsigned end);

#endif
