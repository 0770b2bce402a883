// SPDX-License-Identifier: Apache-2.0
/* NEWFRAME and TOGETHER as Lace's APIs show them (interrupts.h).  Built
 * into each Lace library; a program links one, so each has its own list. */
#include "lace/common/interrupts.h"

#include "lace/common/suspend.h"

#include "runtime/frontend.h"

#include <pthread.h>
#include <sched.h>

/* The interrupts in progress, newest first; each initiator's node lives on
 * its stack for as long as its interrupt is pending or running. */
typedef struct pending_interrupt {
    const void *task;
    struct pending_interrupt *next;
} pending_interrupt;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static pending_interrupt *pending;

void weft__lace_interrupts_forget_in_child(void)
{
    pthread_mutex_init(&pending_lock, NULL);
    pending = NULL; /* the nodes were on the stacks of threads the child has not */
}

static void pending_push(pending_interrupt *node, const void *t, weft_lace_show_fn *show)
{
    pthread_mutex_lock(&pending_lock);
    node->task = t;
    node->next = pending;
    pending = node;
    show((void *)t, true);
    pthread_mutex_unlock(&pending_lock);
}

static void pending_pop(pending_interrupt *node, weft_lace_show_fn *show)
{
    pthread_mutex_lock(&pending_lock);
    pending_interrupt **p = &pending;
    while (*p != node)
        p = &(*p)->next;
    *p = node->next;
    show(pending ? (void *)pending->task : NULL, false);
    pthread_mutex_unlock(&pending_lock);
}

static bool is_pending(const void *t)
{
    pthread_mutex_lock(&pending_lock);
    pending_interrupt *p = pending;
    while (p != NULL && p->task != t)
        p = p->next;
    pthread_mutex_unlock(&pending_lock);
    return p != NULL;
}

void weft__lace_interrupt(weft_task *t, uintptr_t wrapper, bool together, weft_lace_show_fn *show,
                          const weft__api_words *lace)
{
    bool outside = weft__lace_outside_begin(); /* runs even while suspended, as in Lace */
    /* From outside, the caller waits and runs no task: the runtime's
     * messages about the call speak Lace.  On a worker they are its
     * pool's, as the tasks it runs meanwhile. */
    const weft__api_words *was = outside ? weft__speak_as(lace) : NULL;
    pending_interrupt node;
    pending_push(&node, t, show);
    if (together)
        weft__together_task(t, wrapper);
    else
        weft__newframe_task(t, wrapper);
    pending_pop(&node, show);
    if (outside)
        (void)weft__speak_as(was);
    weft__lace_outside_end(outside);
}

/* An interrupt shown cannot end without every worker, this one included,
 * so once it is no longer pending the caller has taken part in it. */
void weft__lace_yield_until_over(weft_worker *w, weft_task *head, const void *shown)
{
    weft_yield(w, head);
    if (shown == NULL || w->in_interrupt != 0)
        return;
    for (unsigned spins = 0; is_pending(shown); spins++) {
        if (spins < 64)
            weft_cpu_relax();
        else
            sched_yield();
        weft_yield(w, head);
    }
}
