// SPDX-License-Identifier: Apache-2.0
/* Adversarial programs as tables of cases (tests/lace, tests/lace2): each
 * case runs in a child process, and the parent checks its exit status
 * and the lines it wrote to stderr, which must speak Lace: none of weft's
 * own words (adv_weft_words). */
#ifndef WEFT_TESTS_ADVERSARIAL_H
#define WEFT_TESTS_ADVERSARIAL_H

#include "check.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sanitizer.h"

/* The status of a case that must abort (run_child: 128 + the signal). */
#define ABORTED (128 + SIGABRT)
/* The slots of a Lace deque of 16 in the runtime's message (the split
 * deque keeps one more, its last, free). */
#if defined(WEFT_SCHED_SPLIT)
#define WEFT_TEST_DEQUE_OF_16 "17"
#define WEFT_TEST_LACE_MAX_DQSIZE "2147483646"
#else
#define WEFT_TEST_DEQUE_OF_16 "16"
#define WEFT_TEST_LACE_MAX_DQSIZE "2147483647"
#endif

/* Words of weft's own API, which no message to a Lace program may use:
 * it is told what it called and the Lace call that fixes it. */
static const char *const adv_weft_words[] = {"weft: ",       "weft_start",  "weft_stop",
                                             "weft_barrier", "weft_resume", "WEFT_ME",
                                             "WEFT_RUN",     "weft::"};

typedef struct {
    const char *name;
    void (*fn)(void);
    int status; /* 0, or ABORTED */
    bool quiet; /* stderr must be empty */
    /* Lines (or parts of lines) stderr must hold; one that begins with
     * '!': a part of a line it must not hold. */
    const char *expect[3];
} adv_case;

/* The case a child runs; a hang ends it with SIGALRM (a failure naming
 * the case) instead of holding up the test until ctest's timeout. */
static const adv_case *adv_current;
static void adv_run_current(void)
{
    alarm(60);
    adv_current->fn();
}

/* main's body: with a case's name as argv[1], runs that case (a child);
 * else runs every case in a child and reports; `what` names the program
 * in the summary.  Returns main's exit status. */
static int adv_main(const adv_case *cases, size_t n, int argc, char **argv, const char *what)
{
    /* The children's configuration is the cases', not the caller's. */
    unsetenv("WEFT_WORKERS");
    unsetenv("WEFT_DEQUE_SIZE");
    unsetenv("WEFT_STACK_SIZE");
    setenv("WEFT_OVERSUBSCRIBE", "1", 1); /* 3 workers on 2 CPUs: no warning */
    if (argc > 1) {
        for (size_t i = 0; i < n; i++)
            if (strcmp(argv[1], cases[i].name) == 0) {
                cases[i].fn();
                return 0;
            }
        fprintf(stderr, "no case %s\n", argv[1]);
        return 2;
    }
    static char buf[1 << 16];
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        const adv_case *c = &cases[i];
        adv_current = c;
        int status = run_child(NULL, adv_run_current, 0, buf, sizeof buf);
        bool ok = status == c->status;
        for (int k = 0; k < 3 && c->expect[k] != NULL; k++)
            if (c->expect[k][0] == '!')
                ok &= strstr(buf, c->expect[k] + 1) == NULL;
            else
                ok &= strstr(buf, c->expect[k]) != NULL;
        if (c->quiet)
            ok &= buf[0] == '\0';
        const char *weft_word = NULL;
        for (size_t k = 0; k < sizeof adv_weft_words / sizeof adv_weft_words[0]; k++)
            if (strstr(buf, adv_weft_words[k]) != NULL)
                weft_word = adv_weft_words[k];
        ok &= weft_word == NULL;
        printf("%s: %s (status %d)\n", ok ? "ok" : "FAILED", c->name, status);
        if (!ok) {
            printf("  expected status %d and stderr with (!: without)", c->status);
            for (int k = 0; k < 3 && c->expect[k] != NULL; k++)
                printf(" \"%s\"", c->expect[k]);
            if (weft_word != NULL)
                printf(", and no \"%s\" (weft's words, not Lace's)", weft_word);
            printf("%s; stderr was:\n%s\n", c->quiet ? " nothing else" : "", buf);
            failed++;
        }
    }
    printf("%d of %zu cases failed (%s)\n", failed, n, what);
    return failed != 0;
}

#endif
