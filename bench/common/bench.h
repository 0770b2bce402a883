/* Shared helpers for weft's benchmark programs.
 *
 * Command-line convention (the Lace benchmarks'): the parallel binary takes
 * `-w <workers>` before its input (`fib -w 2 40`), the sequential binary the
 * input alone (`fib-seq 40`).  Both print the answer and a line
 * `Time: <seconds>` for the timed part only, so a harness can compare them.
 */
#ifndef WEFT_BENCH_COMMON_H
#define WEFT_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void bench_print_time(double seconds)
{
    printf("Time: %f\n", seconds);
    fflush(stdout);
}

/* Parses and removes a leading `-w <n>` from argv.  Returns n, or 0 (the
 * runtime's default: one worker per CPU in the affinity mask) if absent.
 * Exits with a usage message on a malformed count. */
static inline unsigned bench_take_workers(int *argc, char ***argv)
{
    if (*argc >= 2 && strcmp((*argv)[1], "-w") == 0) {
        if (*argc < 3) {
            fprintf(stderr, "%s: -w needs a worker count\n", (*argv)[0]);
            exit(2);
        }
        char *end;
        long n = strtol((*argv)[2], &end, 10);
        if (*end != '\0' || n < 0 || n > 4096) {
            fprintf(stderr, "%s: bad worker count '%s'\n", (*argv)[0], (*argv)[2]);
            exit(2);
        }
        (*argv)[2] = (*argv)[0];
        *argv += 2;
        *argc -= 2;
        return (unsigned)n;
    }
    return 0;
}

/* Reads a decimal integer argument in [lo, hi] or exits with a usage error. */
static inline long bench_arg_long(const char *prog, const char *what, const char *text,
                                  long lo, long hi)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: %s must be an integer in [%ld, %ld], got '%s'\n",
                prog, what, lo, hi, text);
        exit(2);
    }
    return v;
}

/* Prints "FAILED: ..." and exits non-zero: every benchmark checks its answer. */
#define BENCH_CHECK(cond, ...)                                   \
    do {                                                         \
        if (!(cond)) {                                           \
            fprintf(stderr, "FAILED: " __VA_ARGS__);             \
            fputc('\n', stderr);                                 \
            exit(1);                                             \
        }                                                        \
    } while (0)

#endif
