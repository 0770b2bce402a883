// SPDX-License-Identifier: Apache-2.0
/* Minimal test support: CHECK, and death tests run in a child process. */
#ifndef WEFT_TESTS_CHECK_H
#define WEFT_TESTS_CHECK_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
            exit(1); \
        } \
    } while (0)

#define CHECK_EQ_U64(a, b) \
    do { \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        CHECK(a_ == b_, "%s = %llu, %s = %llu", #a, a_, #b, b_); \
    } while (0)

/* Runs fn in a child with its stderr captured into buf (NUL-terminated)
 * and returns the child's exit status (or 128 + signal): fn's result, or
 * `survived` if fn returns nothing (a death test's child that lived). */
static inline int run_child(int (*fn)(void), void (*vfn)(void), int survived, char *buf, size_t cap)
{
    int fds[2];
    CHECK(pipe(fds) == 0, "pipe");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDERR_FILENO);
        /* No core files from the expected aborts. */
        signal(SIGABRT, SIG_DFL);
        int r = survived;
        if (fn != NULL)
            r = fn();
        else
            vfn();
        fflush(stderr);
        _exit(r & 0xff);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fds[0], buf + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    buf[n] = '\0';
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs fn in a child with stderr captured.  Passes if the child dies by a
 * signal or exits non-zero, and its stderr contains `expect` (or, if it is
 * not NULL, `or_expect`). */
static inline void expect_death_either(void (*fn)(void), const char *expect, const char *or_expect,
                                       const char *what)
{
    char buf[8192];
    bool died = run_child(NULL, fn, 0, buf, sizeof buf) != 0;
    CHECK(died, "%s: the child survived (stderr: %s)", what, buf);
    CHECK(strstr(buf, expect) != NULL || (or_expect && strstr(buf, or_expect) != NULL),
          "%s: stderr lacks \"%s\"; it was:\n%s", what, expect, buf);
    printf("ok: %s -> %s", what, strchr(buf, '\n') ? buf : "(died)\n");
}

static inline void expect_death(void (*fn)(void), const char *expect, const char *what)
{
    expect_death_either(fn, expect, NULL, what);
}

/* Runs fn in a child with stderr captured into buf (NUL-terminated);
 * returns fn's result as the child's exit status (or 128 + signal). */
static inline int run_capturing_stderr(int (*fn)(void), char *buf, size_t cap)
{
    return run_child(fn, NULL, 0, buf, cap);
}

/* Worker counts every concurrency test runs with: 1 up to far more than
 * the 2 cores CI has. */
static const unsigned test_worker_counts[] = {1, 2, 3, 8, 32};
#define N_TEST_WORKER_COUNTS (sizeof test_worker_counts / sizeof test_worker_counts[0])

#endif
