// SPDX-License-Identifier: Apache-2.0
/* Messages for the user, shared by the fork-join runtime and the work
 * pool: every one is a line on stderr that starts with "weft: ".  Not
 * installed. */
#ifndef WEFT_RUNTIME_DIAGNOSTICS_H
#define WEFT_RUNTIME_DIAGNOSTICS_H

#include <weft/bits/lang.h>

/* Exported from a shared libweft: part of the front-end seam (frontend.h),
 * and the dist library calls them. */
WEFT_BEGIN_DECLS

/* The words of the API the program is written in, for the messages about
 * its misuse that the runtime itself gives (a SYNC with no SPAWN, a full
 * deque, a stack overflow, ...): weft's by default; the Lace libraries
 * put Lace's in their lace_start, so that a Lace program is told what it
 * wrote and which Lace call fixes it.  Each field is a plain string. */
typedef struct weft__api_words {
    const char *prefix;      /* each line starts with "<prefix>: " */
    const char *sync_pre;    /* a SYNC of task NAME is sync_pre NAME sync_post: */
    const char *sync_post;   /*   "SYNC(" ")", or Lace 2's "" "_SYNC()" */
    const char *spawn;       /* "SPAWN", or Lace 2's "NAME_SPAWN()" */
    const char *join;        /* what joins a SPAWN: "SYNC or DROP" */
    const char *drop;        /* the DROP: "WEFT_DROP", or Lace 2's "NAME_DROP()" */
    const char *deque_size;  /* how to raise the deque size */
    const char *stack_size;  /* how to raise the workers' stack size */
    const char *barrier;     /* the barrier's name: "weft_barrier" */
    const char *together;    /* "TOGETHER" */
    const char *me;          /* "WEFT_ME used on a thread that is not a weft worker (...)" */
    const char *start;       /* the starting call: "weft_start" */
    const char *stop;        /* the stopping call: "weft_stop" */
    const char *start_first; /* what a call before the start must do: "call weft_start first" */
    const char *not_running; /* the same for RUN, which also may not run during the stop */
} weft__api_words;

/* Sets the words of every message from here on (a static object). */
void weft__speak(const weft__api_words *words);
/* The words in use. */
const weft__api_words *weft__words(void);

/* Reports and goes on. */
void weft__warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports and aborts: for misuse that would otherwise corrupt memory. */
__attribute__((noreturn)) void weft__fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
WEFT_END_DECLS

#endif
