// SPDX-License-Identifier: Apache-2.0
/* The tracer's names (trace_names.c): tasks, states, tracks.  Not installed; the
 * registration, weft__trace_name, is declared in weft/bits/observe.h for
 * the constructors the task macros define. */
#ifndef WEFT_OBSERVE_TRACE_NAMES_H
#define WEFT_OBSERVE_TRACE_NAMES_H

#include "observe/trace_types.h"

#include <weft/weft.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The name of the task whose wrapper is at `wrapper` ("task" if none was
 * registered). */
const char *weft__trace_task_name(uintptr_t wrapper);

/* What both file formats call the states and the ways a task came to run
 * (weft_trace_how, up to WEFT_TRACE_RESUMED). */
#define WEFT__TRACE_HOWS (WEFT_TRACE_RESUMED + 1)
extern const char *const weft__trace_state_names[WEFT_TRACE_STATES];
extern const char *const weft__trace_how_names[WEFT__TRACE_HOWS];

/* The labels of the fork-join pool's tracks and of work pool run k's
 * (index k, counted from 0). */
void weft__trace_fork_join_label(char *label, size_t size, unsigned workers);
void weft__trace_pool_run_label(char *label, size_t size, unsigned index, const char *queue,
                                bool half, unsigned workers);

#endif
