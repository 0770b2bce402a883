// SPDX-License-Identifier: Apache-2.0
/* Counting basic blocks (docs/profiling.md, "Counting basic blocks"):
 * this file is compiled with -fsanitize-coverage=trace-pc (the target
 * weft::profile_count), so the profiler measures its strands in basic
 * blocks, automatically.  Quiet and with a busy-looping process per CPU
 * beside it (started here, killed at the end, each bounded by an alarm),
 * at 2 workers:
 *
 *   unit          the profile says it counted basic blocks
 *   long strand   a task that computes for 100 ms of its CPU time before
 *                 it spawns: its strand, converted to time with the run's
 *                 own ratio, is within 25 % of the CPU time it measured
 *   fib(30)       every run's parallelism is at least 1,000, and the
 *                 quiet and loaded runs agree within a factor of 2
 *
 * Timed strands cannot pass the fib check on the KVM guests weft is tested
 * on: interruptions charged to the thread as CPU time land on strands, and
 * the span becomes one of them (docs/profiling.md). */
#include "check.h"

#include <sched.h>
#include <time.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "hogs.h"
#include "profile_regions.h"

#if !WEFT_PROFILE
#error "test_profile_count is built only with -DWEFT_PROFILE=ON (tests/CMakeLists.txt)"
#endif

#define LONG_NS 100000000L /* the long strand: 100 ms of CPU time */
#define RUNS 3
#define FIB_N 30
#define MIN_PARALLELISM 1000.0

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long sfib(int n) { return n < 2 ? n : sfib(n - 1) + sfib(n - 2); }

/* The long strand's CPU time, measured by the strand itself. */
static uint64_t long_cpu_ns;

/* Computes (counted code: serial fib) for about ns of CPU time. */
static long compute_ns(uint64_t ns)
{
    uint64_t start = cpu_ns(), now = start;
    long sum = 0;
    while (now - start < ns) {
        sum += sfib(16);
        now = cpu_ns();
    }
    long_cpu_ns = now - start;
    return sum;
}

WEFT_TASK_1(long, long_then_spawn, long, ns)
{
    long sum = compute_ns((uint64_t)ns);
    WEFT_SPAWN(pfib, 12);
    long a = WEFT_CALL(pfib, 11);
    return WEFT_SYNC(pfib) + a + (sum & 0);
}

/* The profile's JSON names the unit it used. */
static void check_unit_is_blocks(void)
{
    FILE *f = tmpfile();
    CHECK(f && weft_profile_write_json(f) == 0, "write the profile");
    rewind(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK(strstr(buf, "\"unit\": \"basic blocks\"") &&
              strstr(buf, "\"unit_chosen\": \"automatic\""),
          "the profile's unit is basic blocks, chosen automatically: %.300s", buf);
    CHECK(strstr(buf, "\"work_blocks\": "), "the profile gives the figures in blocks too");
}

typedef struct figures {
    double long_strand, long_cpu; /* the long task's longest strand, its CPU time */
    double par[RUNS], work[RUNS];
} figures;

static figures measure(const char *when)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    figures f;
    weft_profile_reset();
    CHECK(WEFT_RUN(long_then_spawn, LONG_NS) == fib_ref(12) + fib_ref(11), "long_then_spawn");
    f.long_strand = region_named("long_then_spawn").longest_strand_ns;
    f.long_cpu = (double)long_cpu_ns;
    check_unit_is_blocks();
    for (int i = 0; i < RUNS; i++) {
        weft_profile_reset();
        CHECK(WEFT_RUN(pfib, FIB_N) == fib_ref(FIB_N), "pfib");
        weft_profile_region r = region_named("pfib");
        f.par[i] = r.parallelism;
        f.work[i] = r.work_ns;
    }
    CHECK(weft_stop() == 0, "stop");
    printf("%s: long strand %.1f ms (its CPU time %.1f ms); fib(%d) parallelism", when,
           f.long_strand / 1e6, f.long_cpu / 1e6, FIB_N);
    for (int i = 0; i < RUNS; i++)
        printf(" %.0f (work %.1f ms)", f.par[i], f.work[i] / 1e6);
    printf("\n");
    return f;
}

static void check_figures(const char *when, const figures *f)
{
    CHECK(f->long_strand >= 0.75 * f->long_cpu && f->long_strand <= 1.25 * f->long_cpu,
          "%s: the long strand is reported at %.1f ms, its CPU time was %.1f ms", when,
          f->long_strand / 1e6, f->long_cpu / 1e6);
    for (int i = 0; i < RUNS; i++)
        CHECK(f->par[i] >= MIN_PARALLELISM, "%s: fib(%d) parallelism %.0f < %.0f", when, FIB_N,
              f->par[i], MIN_PARALLELISM);
}

/* In a process of its own (the unit is chosen at the first weft_start):
 * WEFT_PROFILE_UNIT=time times the strands of this counted code. */
static void forced_time(void)
{
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        setenv("WEFT_PROFILE_UNIT", "time", 1);
        CHECK(weft_start(2, 0, 0) == 0, "start");
        CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib");
        char *json = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&json, &len);
        CHECK(f && weft_profile_write_json(f) == 0, "json");
        fclose(f);
        CHECK(strstr(json, "\"unit\": \"time\"") &&
                  strstr(json, "\"unit_chosen\": \"WEFT_PROFILE_UNIT\"") &&
                  !strstr(json, "\"work_blocks\""),
              "WEFT_PROFILE_UNIT=time: %.300s", json);
        CHECK(weft_stop() == 0, "stop");
        _exit(0);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "the WEFT_PROFILE_UNIT=time child failed (status %d)", st);
    printf("ok: WEFT_PROFILE_UNIT=time times counted code\n");
}

int main(void)
{
    alarm(60);
    forced_time();
    figures quiet = measure("quiet");
    pid_t hogs[MAX_HOGS];
    int n = start_hogs(hogs, 30);
    figures loaded = measure("loaded");
    stop_hogs(hogs, n);
    printf("(%d busy-looping processes beside the loaded run)\n", n);
    check_figures("quiet", &quiet);
    check_figures("loaded", &loaded);
    for (int i = 0; i < RUNS; i++)
        for (int j = 0; j < RUNS; j++)
            CHECK(loaded.par[j] >= quiet.par[i] / 2 && loaded.par[j] <= quiet.par[i] * 2,
                  "fib(%d) parallelism: quiet %.0f, loaded %.0f: not within 2x", FIB_N,
                  quiet.par[i], loaded.par[j]);
    printf("ok: basic blocks; fib(%d) parallelism >= %.0f and within 2x quiet and loaded; the "
           "100 ms strand within 25 %% of its CPU time\n",
           FIB_N, MIN_PARALLELISM);
    return 0;
}
