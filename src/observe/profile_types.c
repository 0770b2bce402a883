// SPDX-License-Identifier: Apache-2.0
/* The profiler's task types (profile_types.h): a name per type id,
 * registered by the inline hooks (include/weft/bits/observe.h) the first
 * time a task of the type runs.  Names are only added, under types_lock.
 *
 * The table keeps its own copy of each name: a task type's record and its
 * name are in the code that defines the task, which a plugin's dlclose
 * unmaps while its pool runs on (README.md, "Plugins"), before the report
 * of weft_stop or exit reads the names.  One copy per type, made once. */
#include "observe/profile_types.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if WEFT_PROFILE

static pthread_mutex_t types_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *type_names[WEFT_PROFILE_MAX_TYPES]; /* the library's copies */
static uint32_t n_types = 1; /* id 0: no task (the runtime between tasks) */
/* The records weft__profile_type_named made, one per name. */
static weft_profile_type *named_types[WEFT_PROFILE_MAX_TYPES];
static uint32_t n_named_types;

static uint32_t type_id_of(weft_profile_type *type)
{
    pthread_mutex_lock(&types_lock);
    /* Relaxed: under the lock that every registration takes. */
    uint32_t id = atomic_load_explicit(&type->id, memory_order_relaxed);
    if (id == WEFT__PROFILE_UNREGISTERED) {
        id = 0; /* none yet */
        for (uint32_t i = 1; i < n_types && id == 0; i++)
            if (strcmp(type_names[i], type->name) == 0)
                id = i; /* the same name from another record: one type */
        if (id == 0 && n_types < WEFT_PROFILE_MAX_TYPES - 1) {
            char *copy = strdup(type->name);
            if (copy) {
                id = n_types;
                type_names[n_types++] = copy;
            }
        }
        if (id == 0) { /* the table is full, or memory is short */
            id = WEFT_PROFILE_MAX_TYPES - 1;
            type_names[id] = "(other task types)";
        }
        /* Relaxed: readers use only the number (the name is read under
         * the lock). */
        atomic_store_explicit(&type->id, id, memory_order_relaxed);
    }
    pthread_mutex_unlock(&types_lock);
    return id;
}

/* A type's first body starts.  Its registration (the lock, the name's
 * copy and, in a thread's first allocation, a malloc arena of the
 * thread's own: tens of microseconds) is the profiler's time, none of the
 * strand's that runs: the strand, and a window of counted strands, start
 * that much later. */
uint32_t weft__profile_register(weft_profile_worker *p, weft_profile_type *type)
{
    uint64_t start = weft_cycles();
    uint32_t id = type_id_of(type);
    uint64_t spent = weft_cycles() - start;
    if (p->strand_start != 0)
        p->strand_start += spent;
    if (p->window_start != 0)
        p->window_start += spent;
    return id;
}

/* Under the lock that a fork()ed child re-initialises (not a lock of the
 * C++ header's own): a child must not find it held by a thread it does
 * not have. */
weft_profile_type *weft__profile_type_named(const char *name)
{
    static weft_profile_type others = {"(other named tasks)", WEFT__PROFILE_UNREGISTERED};
    weft_profile_type *type = NULL;
    pthread_mutex_lock(&types_lock);
    for (uint32_t i = 0; i < n_named_types && !type; i++)
        if (strcmp(named_types[i]->name, name) == 0)
            type = named_types[i];
    if (!type && n_named_types < WEFT_PROFILE_MAX_TYPES) {
        size_t len = strlen(name);
        char *copy = malloc(len + 1);
        type = copy ? malloc(sizeof *type) : NULL;
        if (type) {
            memcpy(copy, name, len + 1);
            type->name = copy;
            /* Relaxed: not yet shared; handed out under the lock. */
            atomic_init(&type->id, WEFT__PROFILE_UNREGISTERED);
            named_types[n_named_types++] = type;
        } else {
            free(copy);
        }
    } else if (!type) {
        type = &others;
    }
    pthread_mutex_unlock(&types_lock);
    return type;
}

const char *weft__profile_type_name(uint32_t id)
{
    pthread_mutex_lock(&types_lock);
    const char *name = id < WEFT_PROFILE_MAX_TYPES ? type_names[id] : NULL;
    pthread_mutex_unlock(&types_lock);
    return name;
}

uint32_t weft__profile_types_in_use(void)
{
    pthread_mutex_lock(&types_lock);
    uint32_t n = type_names[WEFT_PROFILE_MAX_TYPES - 1] ? WEFT_PROFILE_MAX_TYPES : n_types;
    pthread_mutex_unlock(&types_lock);
    return n;
}

void weft__profile_types_forget_in_child(void) { pthread_mutex_init(&types_lock, NULL); }

#endif
