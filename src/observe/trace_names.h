// SPDX-License-Identifier: Apache-2.0
/* The tracer's task names (trace_names.c).  Not installed; the
 * registration, weft__trace_name, is declared in weft/bits/observe.h for
 * the constructors the task macros define. */
#ifndef WEFT_OBSERVE_TRACE_NAMES_H
#define WEFT_OBSERVE_TRACE_NAMES_H

#include <weft/weft.h>

#include <stdint.h>

/* The name of the task whose wrapper is at `wrapper` ("task" if none was
 * registered). */
const char *weft__trace_task_name(uintptr_t wrapper);

#endif
