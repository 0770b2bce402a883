// SPDX-License-Identifier: Apache-2.0
/* Shared helpers for weft's benchmark programs (bench/README.md).
 *
 * Command-line convention (the Lace benchmarks'): the parallel binary takes
 * `-w <workers>` before its input (`fib -w 2 40`), the sequential binary the
 * input alone (`fib-seq 40`).  Both print the answer and a line
 * `Time: <seconds>` for the timed part only, so a harness can compare them.
 *
 * A main() is made of these pieces: bench_take_workers (the -w flag),
 * bench_expect_args and bench_arg_long (the input), bench_weft_start (the
 * pool), bench_now / bench_seconds_since (the timed part), the benchmark's
 * own check with BENCH_CHECK (the answer), bench_weft_finish (Time, the
 * counters, the pool stopped) or bench_print_time in a sequential program.
 * The bench_weft_* helpers exist in the weft programs only: CMake's
 * weft_benchmark() defines BENCH_WEFT for <name>-weft (sequential programs
 * and the peers do not link weft).
 */
#ifndef WEFT_BENCH_COMMON_H
#define WEFT_BENCH_COMMON_H

#include <stdarg.h>
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

/* Seconds since t0, a bench_now() reading: the end of a timed part. */
static inline double bench_seconds_since(double t0) { return bench_now() - t0; }

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

/* Removes a leading `flag` (such as -c) from argv; returns whether it was
 * there. */
static inline int bench_take_flag(int *argc, char ***argv, const char *flag)
{
    if (*argc < 2 || strcmp((*argv)[1], flag) != 0)
        return 0;
    (*argv)[1] = (*argv)[0];
    *argv += 1;
    *argc -= 1;
    return 1;
}

/* Exits with status 2 and `usage: <program> <usage>`, followed by
 * `details` (a printf format for the lines that explain the arguments, or
 * NULL), unless the program got between min and max arguments after its
 * name (after bench_take_workers took -w out). */
__attribute__((format(printf, 6, 7))) static inline void bench_expect_args(int argc, char **argv,
                                                                           int min, int max,
                                                                           const char *usage,
                                                                           const char *details, ...)
{
    if (argc - 1 >= min && argc - 1 <= max)
        return;
    fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    if (details != NULL) {
        va_list ap;
        va_start(ap, details);
        vfprintf(stderr, details, ap);
        va_end(ap);
    }
    exit(2);
}

/* Reads a decimal integer argument in [lo, hi] or exits with a usage error. */
static inline long bench_arg_long(const char *prog, const char *what, const char *text, long lo,
                                  long hi)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: %s must be an integer in [%ld, %ld], got '%s'\n", prog, what, lo, hi,
                text);
        exit(2);
    }
    return v;
}

/* Prints "FAILED: ..." and exits non-zero: every benchmark checks its answer. */
#define BENCH_CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "FAILED: " __VA_ARGS__); \
            fputc('\n', stderr); \
            exit(1); \
        } \
    } while (0)

/* count objects of `size` bytes from malloc, or "FAILED: cannot allocate
 * <count> <what>" and exit 1. */
static inline void *bench_alloc(size_t count, size_t size, const char *what)
{
    void *p = malloc(count * size);
    BENCH_CHECK(p != NULL, "cannot allocate %zu %s", count, what);
    return p;
}

/* Sorts n timings in ascending order, for their median, percentiles and
 * extremes. */
static inline int bench_cmp_double_(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static inline void bench_sort_doubles(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_double_);
}

#ifdef BENCH_WEFT
#include <weft/weft.h>

/* Starts weft as configured, or exits 1 with weft_start's error; returns
 * the number of workers, for the program's `workers: N` line. */
static inline unsigned bench_weft_start_config(const weft_config *cfg)
{
    int err = weft_start_config(cfg);
    if (err != 0) {
        fprintf(stderr, "weft_start: %s\n", strerror(err));
        exit(1);
    }
    return weft_workers();
}

/* bench_weft_start_config with the defaults (and WEFT_* environment) and
 * `workers` workers (0: one per CPU), as bench_take_workers returned. */
static inline unsigned bench_weft_start(unsigned workers)
{
    weft_config cfg;
    if (weft_config_init(&cfg) != 0) /* it said which WEFT_* variable is wrong */
        exit(1);
    if (workers)
        cfg.workers = workers;
    return bench_weft_start_config(&cfg);
}

/* The counters' table, in a -DWEFT_STATS=ON build (others have none to
 * print, and say nothing). */
static inline void bench_weft_print_counters(void)
{
    if (WEFT_STATS)
        weft_stats_print(stdout);
}

/* The counters and the pool stopped: the end of every weft program. */
static inline void bench_weft_stop(void)
{
    bench_weft_print_counters();
    weft_stop();
}

/* `Time: <seconds>` and the counters: the end of a program whose pool
 * another owner stops (a C++ program's weft::scheduler). */
static inline void bench_weft_report(double seconds)
{
    bench_print_time(seconds);
    bench_weft_print_counters();
}

/* `Time: <seconds>`, then bench_weft_stop: after the answer was printed
 * and checked. */
static inline void bench_weft_finish(double seconds)
{
    bench_print_time(seconds);
    bench_weft_stop();
}
#endif

#endif
