// SPDX-License-Identifier: Apache-2.0
/* The runner of the generated API-mixing matrix (gen_matrix.py): each case
 * runs in a child process at 1, 2 and 3 workers, and must give its answer
 * (exit 0, the right sum) or the refusal the rule says (an abort whose
 * message names the rule, docs/design.md "Mixing the APIs"). */
#ifndef WEFT_TESTS_MIXING_MATRIX_RUNNER_HPP
#define WEFT_TESTS_MIXING_MATRIX_RUNNER_HPP

#include <lace.h>
#include <weft/pool.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

enum mx_outcome { MX_ANSWER, MX_SPAWN, MX_JOIN };

struct mx_case {
    int index;
    const char *label;
    mx_outcome outcome;
    long answer;
};

static inline long mx_fib(int n) { return n < 2 ? n : mx_fib(n - 1) + mx_fib(n - 2); }

WEFT_TASK_1(long, mx_leaf, int, n) { return mx_fib(n); }
#if LACE_VERSION_MAJOR >= 2
TASK(long, mx_lleaf, int, n)
long mx_lleaf_CALL(lace_worker *, int n) { return mx_fib(n); }
#define MX_LACE_START(workers) lace_start((workers), 0, 0)
#else
TASK_1(long, mx_lleaf, int, n) { return mx_fib(n); }
#define MX_LACE_START(workers) lace_start((workers), 0)
#endif

/* Runs case i on `workers` workers in a child; true if it behaved as told. */
static bool mx_check(const mx_case &c, long (*run)(int), unsigned workers)
{
    int err[2];
    if (pipe(err) != 0)
        return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(err[1], 2);
        close(err[0]);
        alarm(60);
        setenv("WEFT_OVERSUBSCRIBE", "1", 1); /* 3 workers on 2 CPUs: no note */
        MX_LACE_START(workers);
        long r = run(c.index);
        lace_stop();
        std::printf("%s: %ld\n", c.label, r);
        _exit(r == c.answer ? 0 : 3);
    }
    close(err[1]);
    std::string text;
    char buf[512];
    ssize_t k;
    while ((k = read(err[0], buf, sizeof buf)) > 0)
        text.append(buf, (size_t)k);
    close(err[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    bool ok;
    const char *want = c.outcome == MX_SPAWN
                           ? "holds a task still pending, spawned since this task body "
                             "read its head: by another API"
                       : c.outcome == MX_JOIN ? "while the task above it, spawned later, is still "
                                                "pending: spawns and joins nest"
                                              : nullptr;
    if (want == nullptr)
        ok = WIFEXITED(st) && WEXITSTATUS(st) == 0 && text.empty();
    else
        ok = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && text.find(want) != std::string::npos &&
             text.find("Mixing the APIs") != std::string::npos;
    if (!ok)
        std::fprintf(stderr, "FAILED: %s at %u workers (want %s): status %d, stderr: %s\n", c.label,
                     workers, want ? want : "the answer", st, text.c_str());
    return ok;
}

static int mx_main(const mx_case *cases, size_t n, long (*run)(int), int, char **)
{
    size_t failed = 0, runs = 0, refused = 0;
    for (size_t i = 0; i < n; i++) {
        refused += cases[i].outcome != MX_ANSWER;
        for (unsigned workers = 1; workers <= 3; workers++) {
            runs++;
            failed += !mx_check(cases[i], run, workers);
        }
    }
    std::printf("api mixing matrix: %zu cases (%zu refused by the rule), %zu runs at 1-3 workers\n",
                n, refused, runs);
    std::printf("%zu passed, %zu failed\n", runs - failed, failed);
    return failed == 0 ? 0 : 1;
}

#endif
