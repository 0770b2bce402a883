// SPDX-License-Identifier: Apache-2.0
/* An alternate signal stack of the caller's own, too small for weft's
 * overflow report: the kernel's least (MINSIGSTKSZ, 2 KiB), less than the
 * signal frame of a CPU with large registers.  It sits at the top of a
 * page above a page that faults, so a handler's frames past it fault
 * instead of running on in other memory.  For the tests that check weft
 * installs its own while the caller runs on weft's stacks, and puts the
 * caller's back after. */
#ifndef WEFT_TESTS_SMALL_ALTSTACK_H
#define WEFT_TESTS_SMALL_ALTSTACK_H

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"

enum { SMALL_ALTSTACK = 2048 };

/* The stack's memory, mapped once per process. */
static inline char *small_altstack(void)
{
    static char *mem;
    if (!mem) {
        long page = sysconf(_SC_PAGESIZE);
        char *map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        CHECK(map != MAP_FAILED && mprotect(map, (size_t)page, PROT_NONE) == 0, "mmap");
        mem = map + 2 * page - SMALL_ALTSTACK;
    }
    return mem;
}

/* Makes it the calling thread's alternate signal stack. */
static inline void set_small_altstack(void)
{
    stack_t ss = {.ss_sp = small_altstack(), .ss_size = SMALL_ALTSTACK, .ss_flags = 0};
    CHECK(sigaltstack(&ss, NULL) == 0, "sigaltstack");
}

/* Stops the test unless it is still the calling thread's (`after`: what
 * left another in its place). */
static inline void check_small_altstack_kept(const char *after)
{
    stack_t now;
    CHECK(sigaltstack(NULL, &now) == 0, "sigaltstack");
    CHECK(now.ss_sp == small_altstack() && now.ss_size == SMALL_ALTSTACK &&
              !(now.ss_flags & SS_DISABLE),
          "%s left its caller another alternate signal stack (%p, %zu bytes, flags %d)", after,
          now.ss_sp, now.ss_size, now.ss_flags);
}

#endif
