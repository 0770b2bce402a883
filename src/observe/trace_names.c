// SPDX-License-Identifier: Apache-2.0
/* The tracer's task names: wrapper address -> name, registered before
 * main by one constructor per task (bits/observe.h), looked up when a
 * trace is written (only with -DWEFT_TRACE=ON, as the constructors).
 *
 * Each record holds its own copy of the name: the string is in the code
 * that defines the task, which a plugin's dlclose unmaps while its pool
 * runs on (README.md, "Plugins"), before the trace of weft_stop or exit
 * is written.  A plugin opened again registers its tasks again: a name
 * already held for the same wrapper is not copied twice. */
#include "observe/trace_names.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if WEFT_TRACE

typedef struct task_name_rec {
    uintptr_t wrapper;
    struct task_name_rec *next;
    char name[]; /* the library's copy */
} task_name_rec;
static task_name_rec *task_names; /* under names_lock */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

void weft__trace_name(uintptr_t wrapper, const char *name)
{
    size_t len = strlen(name);
    task_name_rec *r = malloc(sizeof *r + len + 1);
    if (!r)
        return; /* its slices are then named "task" */
    r->wrapper = wrapper;
    memcpy(r->name, name, len + 1);
    pthread_mutex_lock(&names_lock);
    /* The newest record of a wrapper is the one looked up (a task at an
     * address that another plugin's task had before gets its own name). */
    const task_name_rec *newest = task_names;
    while (newest && newest->wrapper != wrapper)
        newest = newest->next;
    bool known = newest && strcmp(newest->name, name) == 0;
    if (!known) {
        r->next = task_names;
        task_names = r;
    }
    pthread_mutex_unlock(&names_lock);
    if (known)
        free(r);
}

/* weft::named's names, one copy per distinct text (a name is held by the
 * program's callables for as long as it likes, so never freed). */
typedef struct given_name_rec {
    struct given_name_rec *next;
    char name[];
} given_name_rec;
static given_name_rec *given_names; /* under names_lock */

const char *weft__trace_name_copy(const char *name)
{
    if (!name)
        return NULL;
    const char *copy = NULL;
    pthread_mutex_lock(&names_lock);
    for (given_name_rec *r = given_names; r && !copy; r = r->next)
        if (strcmp(r->name, name) == 0)
            copy = r->name;
    if (!copy) {
        size_t len = strlen(name);
        given_name_rec *r = malloc(sizeof *r + len + 1);
        if (r) {
            memcpy(r->name, name, len + 1);
            r->next = given_names;
            given_names = r;
            copy = r->name;
        }
    }
    pthread_mutex_unlock(&names_lock);
    return copy;
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

const char *const weft__trace_state_names[WEFT_TRACE_STATES] = {
    [WEFT_TRACE_NONE] = "?",
    [WEFT_TRACE_RUNNING] = "task",
    [WEFT_TRACE_SEARCH] = "looking for work",
    [WEFT_TRACE_JOIN] = "SYNC: stolen task not done, looking for work",
    [WEFT_TRACE_SLEEP] = "asleep",
    [WEFT_TRACE_BARRIER] = "interrupt barrier",
    [WEFT_TRACE_HELP] = "interrupt: looking for its work",
    [WEFT_TRACE_PARKED] = "suspended",
    [WEFT_TRACE_BATCH] = "items",
};

const char *const weft__trace_how_names[WEFT__TRACE_HOWS] = {
    [WEFT_TRACE_BY_STEAL] = "steal",       [WEFT_TRACE_BY_LEAP] = "leap",
    [WEFT_TRACE_BY_RUN] = "RUN",           [WEFT_TRACE_BY_RUN_INSIDE] = "RUN inside a task",
    [WEFT_TRACE_BY_TOGETHER] = "TOGETHER", [WEFT_TRACE_BY_NEWFRAME] = "NEWFRAME",
    [WEFT_TRACE_BY_ADOPTION] = "adopted",  [WEFT_TRACE_RESUMED] = "resumed",
};

void weft__trace_fork_join_label(char *label, size_t size, unsigned workers)
{
    snprintf(label, size, "weft (%s scheduler, %u workers)", WEFT_SCHEDULER_NAME, workers);
}

void weft__trace_pool_run_label(char *label, size_t size, unsigned index, const char *queue,
                                bool half, unsigned workers)
{
    snprintf(label, size, "work pool run %u (%s%s, %u workers)", index + 1, queue,
             half ? ", steal-half" : "", workers);
}

#endif
