// SPDX-License-Identifier: Apache-2.0
/* SIGSEGV handlers for the tests of weft's handler and the application's
 * around it: a page every access to faults on, and one way to install a
 * handler and to ask which one is in place. */
#ifndef WEFT_TESTS_SEGV_ACTIONS_H
#define WEFT_TESTS_SEGV_ACTIONS_H

#include "check.h"

#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>

typedef void segv_handler_fn(int, siginfo_t *, void *);

static inline char *no_access_page(void)
{
    char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED, "mmap");
    return p;
}

/* An action with `flags` and `mask` (none if NULL), its handler unset. */
static inline struct sigaction segv_action(int flags, const sigset_t *mask)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_flags = flags;
    if (mask)
        sa.sa_mask = *mask;
    else
        sigemptyset(&sa.sa_mask);
    return sa;
}

/* Installs `fn` with SA_SIGINFO and `flags`; the action it replaces goes to
 * `old` unless that is NULL. */
static inline void install_segv_handler(segv_handler_fn *fn, int flags, const sigset_t *mask,
                                        struct sigaction *old)
{
    struct sigaction sa = segv_action(SA_SIGINFO | flags, mask);
    sa.sa_sigaction = fn;
    CHECK(sigaction(SIGSEGV, &sa, old) == 0, "sigaction");
}

static inline bool segv_handler_installed(segv_handler_fn *fn)
{
    struct sigaction now;
    CHECK(sigaction(SIGSEGV, NULL, &now) == 0, "sigaction");
    return (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == fn;
}

#endif
