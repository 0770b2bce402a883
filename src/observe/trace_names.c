// SPDX-License-Identifier: Apache-2.0
/* The tracer's task names: wrapper address -> name, registered before
 * main by one constructor per task (bits/observe.h), looked up when a
 * trace is written (only with -DWEFT_TRACE=ON, as the constructors). */
#include "observe/trace_names.h"

#include <pthread.h>
#include <stdlib.h>

#if WEFT_TRACE

typedef struct task_name_rec {
    uintptr_t wrapper;
    const char *name;
    struct task_name_rec *next;
} task_name_rec;
static task_name_rec *task_names; /* under names_lock */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

void weft__trace_name(uintptr_t wrapper, const char *name)
{
    task_name_rec *r = malloc(sizeof *r);
    if (!r)
        return; /* its slices are then named "task" */
    pthread_mutex_lock(&names_lock);
    *r = (task_name_rec){wrapper, name, task_names};
    task_names = r;
    pthread_mutex_unlock(&names_lock);
}

const char *weft__trace_task_name(uintptr_t wrapper)
{
    const char *name = "task";
    pthread_mutex_lock(&names_lock);
    for (task_name_rec *r = task_names; r; r = r->next)
        if (r->wrapper == wrapper) {
            name = r->name;
            break;
        }
    pthread_mutex_unlock(&names_lock);
    return name;
}

#endif
