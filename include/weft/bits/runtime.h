// SPDX-License-Identifier: Apache-2.0
/* What weft.h's macros and inline paths call in the runtime: DROP,
 * WEFT_ME and YIELD's slow paths, and the words the C++ API's starts
 * speak.  Not part of the API: user code goes through weft.h. */
#ifndef WEFT_BITS_RUNTIME_H
#define WEFT_BITS_RUNTIME_H

#include <weft/bits/lang.h>
#include <weft/bits/sched.h>
#include <weft/bits/worker.h>

WEFT_BEGIN_DECLS

/* A DROP: joins the task at held head t without running it if nobody
 * stole it; true if a thief ran it (its result is in the slot).  Its
 * refusals name `what`: the DROP as its front-end's program wrote it
 * (WEFT_DROP, Lace's DROP()), or the C++ API's join left by an exception,
 * whose drop is not the program's. */
bool weft__drop_as(weft_worker *w, weft_task *t, const char *what);
/* WEFT_ME: the calling thread's worker, or stop with a message. */
weft_worker *weft__self_checked(void);

/* The words of the runtime's messages (src/runtime/diagnostics.h), for
 * the C++ API: it speaks as a weft::scheduler, or as its default pool,
 * around the starts it makes, so that their messages name it; and it asks
 * which API started the running pool (NULL: none runs). */
struct weft__api_words;
extern const struct weft__api_words weft__cpp_scheduler_words;
extern const struct weft__api_words weft__cpp_default_pool_words;
const struct weft__api_words *weft__speak_as(const struct weft__api_words *words);
const struct weft__api_words *weft__pool_starter(void);

/* WEFT_YIELD: the bits of weft__attention_g that send a yield to its slow
 * path (src/runtime/interrupt.c sets them). */
extern WEFT_ATOMIC(uint32_t) weft__attention_g;
#define WEFT_ATTN_INTERRUPT 1u /* an interrupt is pending */
#define WEFT_ATTN_SUSPEND 2u   /* weft_suspend waits for the workers to park */
void weft__yield_slow(weft_worker *w, weft_task *head);
static WEFT_ALWAYS_INLINE void weft_yield(weft_worker *w, weft_task *head)
{
    if (WEFT_UNLIKELY(weft_sched_poll(w, head)))
        weft_sched_poll_slow(w, head);
    /* Relaxed: a stale value only delays joining the interrupt or parking. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&weft__attention_g, memory_order_relaxed)))
        weft__yield_slow(w, head);
}

WEFT_END_DECLS

#endif
