// SPDX-License-Identifier: Apache-2.0
/* The observers' environment, by effect: bad WEFT_TRACE_EVENTS and
 * WEFT_PROFILE_BURDEN_NS values make weft_start fail with a "weft:"
 * message in every build; with the profiler compiled in, WEFT_PROFILE=1
 * prints the profile at weft_stop, WEFT_PROFILE_JSON writes it to the
 * file named, and WEFT_PROFILE_BURDEN_NS sets the burden; without it,
 * WEFT_PROFILE and WEFT_PROFILE_JSON are reported as having no effect,
 * and so is WEFT_TRACE without the tracer, naming the installed variants.
 * A program that only runs work pools gets its report at exit; counting
 * strands, its items are one strand each, and the times' conversion is
 * said to be a guess (no strand was timed).  Messages
 * that carry a value or a path carry them whole, with their reason, on one
 * line: a value of kilobytes, and a WEFT_TRACE or WEFT_PROFILE_JSON path
 * of up to PATH_MAX that cannot be opened; a full disk is said as such,
 * for a profile shorter and longer than a stream's buffer, and so is a
 * file past the file size limit (the program goes on, not killed by
 * SIGXFSZ).  A FIFO that nobody reads, named
 * as the trace's or the profile's file, is refused with a message instead
 * of blocking the program; one that is read gets the whole file.  Each case
 * runs in a child with its environment. */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <weft/pool.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "fib_task.h"

static char json_path[64];

/* A start, a run and a stop; returns weft_start's error (0 when started). */
static int start_run_stop(void)
{
    int err = weft_start(2, 0, 0);
    if (err != 0)
        return err;
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "fib");
#if WEFT_PROFILE
    if (getenv("WEFT_PROFILE_BURDEN_NS"))
        CHECK(weft_profile_burden_ns() == 750.0, "WEFT_PROFILE_BURDEN_NS=750: the burden is %g",
              weft_profile_burden_ns());
#endif
    CHECK(weft_stop() == 0, "stop");
    return 0;
}

#if WEFT_PROFILE
/* Three starts, runs and stops in one process. */
static int three_lives(void)
{
    for (int i = 0; i < 3; i++)
        CHECK(start_run_stop() == 0, "start %d", i + 1);
    return 0;
}

/* A start, 100 ranges of one RUN each, every one named apart (a profile
 * far longer than a stream's buffer), and a stop. */
static int many_ranges(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    for (int i = 0; i < 100; i++) {
        char name[32];
        snprintf(name, sizeof name, "range-%03d", i);
        WEFT_PROFILE_BEGIN(mark);
        CHECK(WEFT_RUN(pfib, 10) == fib_ref(10), "fib");
        CHECK(WEFT_PROFILE_END(mark, name) == 0, "range %s", name);
    }
    CHECK(weft_stop() == 0, "stop");
    return 0;
}

/* How many times `what` is in `buf`. */
static int occurrences(const char *buf, const char *what)
{
    int n = 0;
    for (const char *at = strstr(buf, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

/* A binary tree of depth 10 as work pool items. */
static void visit_node(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    unsigned depth = *(unsigned *)item + 1;
    if (depth <= 10) {
        weft_pool_push(ctx, &depth);
        weft_pool_push(ctx, &depth);
    }
}

/* A program that runs one work pool and no fork-join pool, and exits. */
static int pool_only_then_exit(void)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(unsigned));
    cfg.workers = 2;
    unsigned root = 0;
    CHECK(weft_pool_run(&cfg, &root, 1, visit_node, NULL, NULL) == 0, "pool run");
    exit(0); /* atexit handlers run: the profile's report is due there */
}
#endif

/* Runs fn in a child with NAME=VALUE set; returns its status and leaves
 * its stderr in buf. */
static int fn_with_env(int (*fn)(void), const char *name, const char *value, char *buf, size_t cap)
{
    setenv(name, value, 1);
    int st = run_capturing_stderr(fn, buf, cap);
    unsetenv(name);
    return st;
}

static WEFT_UNUSED int start_run_stop_twice(void)
{
    int err = start_run_stop();
    return err ? err : start_run_stop();
}

static int with_env(const char *name, const char *value, char *buf, size_t cap)
{
    return fn_with_env(start_run_stop, name, value, buf, cap);
}

/* Whether stderr (`buf`) has one line that starts with "weft: " and holds
 * `whole` (a value or a path) and, after it, `reason`. */
static bool one_line_with(const char *buf, const char *whole, const char *reason)
{
    for (const char *line = buf; *line;) {
        size_t len = strcspn(line, "\n");
        const char *at = strstr(line, whole);
        if (at && at < line + len && strncmp(line, "weft: ", 6) == 0) {
            const char *why = strstr(at + strlen(whole), reason);
            return why && why + strlen(reason) <= line + len;
        }
        line += len + (line[len] == '\n');
    }
    return false;
}

/* The lengths of the long values and paths: about 1 KB, 2 KB, and the
 * longest path there is (PATH_MAX counts the NUL). */
static const size_t long_lengths[] = {1024, 2048, PATH_MAX - 1};

#if WEFT_TRACE || WEFT_PROFILE
/* A path of exactly `len` bytes that cannot be opened: directories of
 * ordinary names under one that does not exist. */
static void unopenable_path(char *path, size_t len)
{
    static const char tail[] = "trace-of-the-last-run.json";
    size_t at = (size_t)snprintf(path, len + 1, "/tmp/weft-no-such-dir-%d", (int)getpid());
    for (unsigned i = 0; at + 17 + sizeof tail < len; i++)
        at += (size_t)snprintf(path + at, len + 1 - at, "/run-%03u-results", i);
    path[at++] = '/';
    size_t pad = len - at - (sizeof tail - 1);
    memset(path + at, 'x', pad);
    memcpy(path + at + pad, tail, sizeof tail);
    CHECK(strlen(path) == len, "a path of %zu bytes has %zu", len, strlen(path));
}
#endif

static void long_values(void)
{
    static char buf[65536], value[PATH_MAX + 1];
    for (size_t i = 0; i < sizeof long_lengths / sizeof long_lengths[0]; i++) {
        size_t len = long_lengths[i];
        memset(value, '7', len);
        value[len - 1] = 'x';
        value[len] = '\0';
        int st = with_env("WEFT_TRACE_EVENTS", value, buf, sizeof buf);
        CHECK(st == EINVAL && one_line_with(buf, value, "is not a size"),
              "WEFT_TRACE_EVENTS of %zu bytes: weft_start returned %d; no line with the whole "
              "value and the reason, stderr (%zu bytes) ends:\n%s",
              len, st, strlen(buf), buf + (strlen(buf) > 300 ? strlen(buf) - 300 : 0));
    }
    printf("ok: a bad value of up to %zu bytes: the whole value and the reason on one line\n",
           (size_t)PATH_MAX - 1);
#if WEFT_TRACE || WEFT_PROFILE
    const char *reason = strerror(ENOENT);
    for (size_t i = 0; i < sizeof long_lengths / sizeof long_lengths[0]; i++) {
        size_t len = long_lengths[i];
        unopenable_path(value, len);
        int st = 0;
#if WEFT_TRACE
        st = with_env("WEFT_TRACE", value, buf, sizeof buf);
        CHECK(st == 0 && one_line_with(buf, value, reason),
              "WEFT_TRACE, a path of %zu bytes that cannot be opened: status %d; no line with "
              "the whole path and \"%s\", stderr (%zu bytes) ends:\n%s",
              len, st, reason, strlen(buf), buf + (strlen(buf) > 300 ? strlen(buf) - 300 : 0));
#endif
#if WEFT_PROFILE
        st = with_env("WEFT_PROFILE_JSON", value, buf, sizeof buf);
        CHECK(st == 0 && one_line_with(buf, value, reason),
              "WEFT_PROFILE_JSON, a path of %zu bytes that cannot be opened: status %d; no line "
              "with the whole path and \"%s\", stderr (%zu bytes) ends:\n%s",
              len, st, reason, strlen(buf), buf + (strlen(buf) > 300 ? strlen(buf) - 300 : 0));
        /* Said at the start, and the profile not lost at the end. */
        const char *early = strstr(buf, "it cannot be written");
        const char *table = strstr(buf, "weft profile: ");
        CHECK(early && table && early < table && strstr(buf, "the profile follows on stderr"),
              "WEFT_PROFILE_JSON, a path of %zu bytes that cannot be opened: no warning at the "
              "start, or no table on stderr at the end; stderr (%zu bytes) ends:\n%s",
              len, strlen(buf), buf + (strlen(buf) > 300 ? strlen(buf) - 300 : 0));
#endif
    }
    printf("ok: an unopenable path of up to %zu bytes: the whole path and the reason on one "
           "line\n",
           (size_t)PATH_MAX - 1);
#endif
#if WEFT_PROFILE
    /* A program that starts three times: the path is said unwritable at
     * the first start only, and each stop's profile goes to stderr. */
    unopenable_path(value, 1024);
    int lives = fn_with_env(three_lives, "WEFT_PROFILE_JSON", value, buf, sizeof buf);
    CHECK(lives == 0 && occurrences(buf, "it cannot be written") == 1 &&
              occurrences(buf, "the profile follows on stderr") == 3,
          "WEFT_PROFILE_JSON unwritable, three starts: status %d, said %d times at a start and "
          "%d at a stop (want 1 and 3); stderr ends:\n%s",
          lives, occurrences(buf, "it cannot be written"),
          occurrences(buf, "the profile follows on stderr"),
          buf + (strlen(buf) > 600 ? strlen(buf) - 600 : 0));
    printf("ok: an unwritable WEFT_PROFILE_JSON is said once at the first of three starts, and "
           "each stop's profile goes to stderr\n");
#endif
}

static void bad_values(void)
{
    static const char *const bad_events[] = {"lots", "0", "-5", "99999999999999999999", "12x"};
    static const char *const bad_burden[] = {"fast", "-1", "1e99", "12ns"};
    char buf[8192];
    for (size_t i = 0; i < sizeof bad_events / sizeof bad_events[0]; i++) {
        int st = with_env("WEFT_TRACE_EVENTS", bad_events[i], buf, sizeof buf);
        CHECK(st == EINVAL && strstr(buf, "weft: ") && strstr(buf, "WEFT_TRACE_EVENTS"),
              "WEFT_TRACE_EVENTS=%s: weft_start returned %d, stderr:\n%s", bad_events[i], st, buf);
        /* Digits that overflow 64 bits are out of range, not "not a number". */
        if (strcmp(bad_events[i], "99999999999999999999") == 0)
            CHECK(strstr(buf, "WEFT_TRACE_EVENTS=99999999999999999999 is out of range"),
                  "a too-large number: %s", buf);
    }
    for (size_t i = 0; i < sizeof bad_burden / sizeof bad_burden[0]; i++) {
        int st = with_env("WEFT_PROFILE_BURDEN_NS", bad_burden[i], buf, sizeof buf);
        CHECK(st == EINVAL && strstr(buf, "weft: ") && strstr(buf, "WEFT_PROFILE_BURDEN_NS"),
              "WEFT_PROFILE_BURDEN_NS=%s: weft_start returned %d, stderr:\n%s", bad_burden[i], st,
              buf);
    }
#if WEFT_PROFILE
    static const char *const bad_unit[] = {"cycles", "block", "strand", "1"};
    for (size_t i = 0; i < sizeof bad_unit / sizeof bad_unit[0]; i++) {
        int st = with_env("WEFT_PROFILE_UNIT", bad_unit[i], buf, sizeof buf);
        CHECK(st == EINVAL && strstr(buf, "weft: ") && strstr(buf, "WEFT_PROFILE_UNIT"),
              "WEFT_PROFILE_UNIT=%s: weft_start returned %d, stderr:\n%s", bad_unit[i], st, buf);
    }
    printf("ok: bad WEFT_PROFILE_UNIT values: EINVAL and a message\n");
#endif
    printf("ok: bad WEFT_TRACE_EVENTS and WEFT_PROFILE_BURDEN_NS values: EINVAL and a message\n");
}

static void profile_env(void)
{
    char buf[65536];
#if WEFT_PROFILE
    int st = with_env("WEFT_PROFILE", "1", buf, sizeof buf);
    CHECK(st == 0 && strstr(buf, "span") && strstr(buf, "work"),
          "WEFT_PROFILE=1: no profile printed at stop (status %d):\n%s", st, buf);
    remove(json_path);
    st = with_env("WEFT_PROFILE_JSON", json_path, buf, sizeof buf);
    FILE *f = fopen(json_path, "r");
    char head[256] = "";
    if (f) {
        size_t n = fread(head, 1, sizeof head - 1, f);
        head[n] = '\0';
        fclose(f);
    }
    CHECK(st == 0 && f != NULL && head[0] == '{' && strstr(head, "\"") != NULL,
          "WEFT_PROFILE_JSON=%s: status %d, file %s, starts with: %.60s", json_path, st,
          f ? "written" : "missing", head);
    remove(json_path);
    st = with_env("WEFT_PROFILE_BURDEN_NS", "750", buf, sizeof buf);
    CHECK(st == 0, "WEFT_PROFILE_BURDEN_NS=750: status %d:\n%s", st, buf);
    printf("ok: WEFT_PROFILE prints, WEFT_PROFILE_JSON writes, WEFT_PROFILE_BURDEN_NS sets the "
           "burden\n");
    /* A full disk is said as such, whether the profile fits in the
     * stream's buffer (the close fails) or not (a write before it). */
    st = with_env("WEFT_PROFILE_JSON", "/dev/full", buf, sizeof buf);
    CHECK(st == 0 &&
              strstr(buf, "WEFT_PROFILE_JSON=/dev/full: writing failed: No space left on device"),
          "WEFT_PROFILE_JSON=/dev/full, a short profile: status %d:\n%.600s", st, buf);
    st = fn_with_env(many_ranges, "WEFT_PROFILE_JSON", "/dev/full", buf, sizeof buf);
    CHECK(st == 0 &&
              strstr(buf, "WEFT_PROFILE_JSON=/dev/full: writing failed: No space left on device") &&
              strstr(buf, "range-099"),
          "WEFT_PROFILE_JSON=/dev/full, a profile of 100 ranges: status %d:\n%.600s", st, buf);
    printf("ok: WEFT_PROFILE_JSON=/dev/full: \"No space left on device\", the profile on stderr, "
           "short or long\n");
    /* Blocks asked for, none counted (nothing here is compiled with the
     * counting flag): the table says so, not that the code was. */
    setenv("WEFT_PROFILE", "1", 1);
    st = with_env("WEFT_PROFILE_UNIT", "blocks", buf, sizeof buf);
    unsetenv("WEFT_PROFILE");
    CHECK(st == 0 && strstr(buf, "unit: basic blocks (WEFT_PROFILE_UNIT), but no block was "
                                 "counted: no code that ran is compiled with "
                                 "-fsanitize-coverage=trace-pc"),
          "WEFT_PROFILE_UNIT=blocks with nothing counted (status %d):\n%s", st, buf);
    printf("ok: WEFT_PROFILE_UNIT=blocks with nothing compiled to count: said\n");
    /* A pool-only program: the table and the JSON at exit, with the
     * pool's region and its 2^11 - 1 items. */
    st = fn_with_env(pool_only_then_exit, "WEFT_PROFILE", "1", buf, sizeof buf);
    CHECK(st == 0 && strstr(buf, "work pool (") && strstr(buf, "2047"),
          "WEFT_PROFILE=1, a pool-only program: no pool region reported at exit (status %d):\n%s",
          st, buf);
    /* Counting strands, the items are one strand each (2047, on a path of
     * 11), and with no fork-join strand timed the times' conversion is
     * said to be a guess. */
    setenv("WEFT_PROFILE", "1", 1);
    st = fn_with_env(pool_only_then_exit, "WEFT_PROFILE_UNIT", "strands", buf, sizeof buf);
    unsetenv("WEFT_PROFILE");
    const char *counts = strstr(buf, "(strands)\n");
    const char *row = counts ? strstr(counts, "\nwork pool (") : NULL;
    const char *after_name = row ? strchr(row, ')') : NULL;
    unsigned long long pool_work = 0, pool_span = 0;
    CHECK(st == 0 &&
              strstr(buf, "but none was timed (no fork-join strand ran; work pool items are not "
                          "timed): times converted at a guess of 200 cycles a strand") &&
              after_name && sscanf(after_name + 1, "%llu %llu", &pool_work, &pool_span) == 2 &&
              pool_work == 2047 && pool_span == 11,
          "WEFT_PROFILE_UNIT=strands, a pool-only program: status %d, %llu strands of work and "
          "%llu of span (2047 items on a path of 11):\n%s",
          st, pool_work, pool_span, buf);
    remove(json_path);
    st = fn_with_env(pool_only_then_exit, "WEFT_PROFILE_JSON", json_path, buf, sizeof buf);
    char whole[16384] = "";
    f = fopen(json_path, "r");
    if (f) {
        size_t n = fread(whole, 1, sizeof whole - 1, f);
        whole[n] = '\0';
        fclose(f);
    }
    CHECK(st == 0 && f != NULL && strstr(whole, "\"work pool (") && strstr(whole, "2047"),
          "WEFT_PROFILE_JSON, a pool-only program: status %d, file %s:\n%.400s", st,
          f ? "written" : "missing", whole);
    remove(json_path);
    printf("ok: a program that only runs work pools reports its profile at exit\n");
#else
    int st = with_env("WEFT_PROFILE", "1", buf, sizeof buf);
    CHECK(st == 0 && strstr(buf, "WEFT_PROFILE is set, but this build has no profiler") &&
              strstr(buf, "weft::weft_profile, pkg-config weft-profile"),
          "WEFT_PROFILE=1 without the profiler (naming the installed variant): status %d:\n%s", st,
          buf);
    st = with_env("WEFT_PROFILE_JSON", json_path, buf, sizeof buf);
    CHECK(st == 0 && strstr(buf, "WEFT_PROFILE_JSON is set, but this build has no profiler"),
          "WEFT_PROFILE_JSON without the profiler: status %d:\n%s", st, buf);
    CHECK(fopen(json_path, "r") == NULL, "a JSON file written without the profiler");
    printf("ok: WEFT_PROFILE and WEFT_PROFILE_JSON without the profiler: said to do nothing\n");
#endif
#if WEFT_PROFILE && WEFT_TRACE
    /* One file named for both, spelled two ways: the profile is not
     * written over the timeline, and the program is told. */
    char other_spelling[128];
    snprintf(other_spelling, sizeof other_spelling, "/tmp/../tmp/%s", json_path + 5);
    remove(json_path);
    setenv("WEFT_TRACE", json_path, 1);
    int both = with_env("WEFT_PROFILE_JSON", other_spelling, buf, sizeof buf);
    unsetenv("WEFT_TRACE");
    char start[64] = "";
    FILE *tf = fopen(json_path, "r");
    if (tf) {
        size_t n = fread(start, 1, sizeof start - 1, tf);
        start[n] = '\0';
        fclose(tf);
    }
    CHECK(
        both == 0 &&
            one_line_with(buf, other_spelling,
                          "names a file a timeline of this process is written to: the profile is "
                          "not written, so that the timeline stays whole") &&
            strstr(start, "traceEvents"),
        "WEFT_PROFILE_JSON and WEFT_TRACE naming one file: status %d, file starts with %.40s:\n%s",
        both, start, buf);
    remove(json_path);
    /* The same file by a hard link, and by a symbolic link to the
     * timeline's name before the timeline is written. */
    char link_path[80];
    snprintf(link_path, sizeof link_path, "%s.link", json_path);
    for (int hard = 0; hard < 2; hard++) {
        remove(link_path);
        if (hard) {
            int fd = open(json_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            CHECK(fd >= 0 && close(fd) == 0 && link(json_path, link_path) == 0,
                  "a hard link to %s: %s", json_path, strerror(errno));
        } else {
            CHECK(symlink(json_path, link_path) == 0, "a link to %s: %s", json_path,
                  strerror(errno));
        }
        setenv("WEFT_TRACE", json_path, 1);
        both = with_env("WEFT_PROFILE_JSON", link_path, buf, sizeof buf);
        unsetenv("WEFT_TRACE");
        start[0] = '\0';
        tf = fopen(json_path, "r");
        if (tf) {
            size_t n = fread(start, 1, sizeof start - 1, tf);
            start[n] = '\0';
            fclose(tf);
        }
        CHECK(
            both == 0 &&
                one_line_with(buf, link_path,
                              "names a file a timeline of this process is written to: the profile "
                              "is not written, so that the timeline stays whole") &&
                strstr(start, "traceEvents"),
            "WEFT_PROFILE_JSON a %s link to WEFT_TRACE's file: status %d, file starts with "
            "%.40s:\n%s",
            hard ? "hard" : "symbolic", both, start, buf);
        remove(link_path);
        remove(json_path);
    }
    printf("ok: WEFT_PROFILE_JSON naming WEFT_TRACE's file (spelled otherwise, a hard or a "
           "symbolic link): the timeline kept, the program told\n");
    /* A program that starts its pool twice: the second pool's timeline
     * goes to <stem>.2<ext>, and the profile, written at each stop, is
     * kept off the first pool's file as off the second's. */
    char second[96];
    snprintf(second, sizeof second, "%.*s.2.json", (int)(strlen(json_path) - 5), json_path);
    for (int which = 0; which < 2; which++) {
        remove(json_path);
        remove(second);
        setenv("WEFT_TRACE", json_path, 1);
        setenv("WEFT_PROFILE_JSON", which ? second : json_path, 1);
        both = run_capturing_stderr(start_run_stop_twice, buf, sizeof buf);
        unsetenv("WEFT_PROFILE_JSON");
        unsetenv("WEFT_TRACE");
        for (int f = 0; f < 2; f++) {
            start[0] = '\0';
            tf = fopen(f ? second : json_path, "r");
            if (tf) {
                size_t n = fread(start, 1, sizeof start - 1, tf);
                start[n] = '\0';
                fclose(tf);
            }
            CHECK(both == 0 && strstr(start, "traceEvents"),
                  "two pools traced to %s, WEFT_PROFILE_JSON=%s: status %d, %s starts with "
                  "%.40s:\n%s",
                  json_path, which ? second : json_path, both, f ? second : json_path, start, buf);
        }
        char told[200];
        snprintf(told, sizeof told,
                 "weft: WEFT_PROFILE_JSON=%s names a file a timeline of this process is written "
                 "to",
                 which ? second : json_path);
        CHECK(strstr(buf, told) != NULL, "two pools traced, WEFT_PROFILE_JSON=%s: not told:\n%s",
              which ? second : json_path, buf);
    }
    remove(json_path);
    remove(second);
    printf("ok: WEFT_PROFILE_JSON naming the first or the second pool's timeline of a program "
           "that starts two: both timelines kept\n");
#endif
#if !WEFT_TRACE
    int tst = with_env("WEFT_TRACE", json_path, buf, sizeof buf);
    CHECK(tst == 0 && strstr(buf, "WEFT_TRACE is set, but this build has no tracer") &&
              strstr(buf, "weft::trace, pkg-config weft-trace"),
          "WEFT_TRACE without the tracer (naming the installed variant): status %d:\n%s", tst, buf);
    CHECK(fopen(json_path, "r") == NULL, "a trace written without the tracer");
    printf("ok: WEFT_TRACE without the tracer: said to do nothing, naming weft-trace\n");
#endif
}

#if WEFT_TRACE || WEFT_PROFILE
/* start_run_stop, killed by SIGALRM if it blocks. */
static int start_run_stop_alarmed(void)
{
    alarm(30);
    return start_run_stop();
}

static void fifos(void)
{
    static char buf[65536];
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/weft-profile-env-fifo-%d", (int)getpid());
    CHECK(mkdir(dir, 0700) == 0, "mkdir %s", dir);
    static const struct {
        const char *var, *name;
        bool profile;
    } cases[] = {{"WEFT_PROFILE_JSON", "profile.json", true},
                 {"WEFT_TRACE", "trace.json", false},
                 {"WEFT_TRACE", "trace.pftrace", false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].profile ? !WEFT_PROFILE : !WEFT_TRACE)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, cases[i].name);
        CHECK(mkfifo(path, 0600) == 0, "mkfifo %s", path);
        /* Nobody reads it. */
        int st = fn_with_env(start_run_stop_alarmed, cases[i].var, path, buf, sizeof buf);
        CHECK(st == 0 && one_line_with(buf, path, "a FIFO that no process has open for reading"),
              "%s=%s, a FIFO without a reader: status %d (142: blocked), stderr:\n%s", cases[i].var,
              path, st, buf);
        /* A reader that counts what comes: the whole file, written as to
         * a blocking FIFO (no write refused for a full pipe).  The FIFO is
         * open for reading before the run begins (the reader's end, opened
         * here), and for writing until it has ended (ours: the reader
         * waits for data instead of seeing an end of file). */
        int counted[2];
        CHECK(pipe(counted) == 0, "pipe");
        int read_end = open(path, O_RDONLY | O_NONBLOCK);
        CHECK(read_end >= 0, "open %s for reading", path);
        int held_open = open(path, O_WRONLY | O_NONBLOCK);
        CHECK(held_open >= 0, "open %s for writing", path);
        pid_t reader = fork();
        CHECK(reader >= 0, "fork");
        if (reader == 0) {
            close(counted[0]);
            close(held_open);
            int fd = read_end;
            int fl = fcntl(fd, F_GETFL);
            if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0)
                fd = -1;
            char chunk[4096], first = 0;
            long total = 0;
            ssize_t n;
            while (fd >= 0 && (n = read(fd, chunk, sizeof chunk)) > 0) {
                if (total == 0)
                    first = chunk[0];
                total += n;
                usleep(100); /* slower than the writer: the pipe fills */
            }
            dprintf(counted[1], "%ld %d\n", total, (int)first);
            _exit(0);
        }
        close(counted[1]);
        close(read_end);
        st = fn_with_env(start_run_stop_alarmed, cases[i].var, path, buf, sizeof buf);
        close(held_open); /* the writers gone: the reader sees the end */
        char got[64] = {0};
        CHECK(read(counted[0], got, sizeof got - 1) > 0, "the reader's count");
        close(counted[0]);
        CHECK(waitpid(reader, NULL, 0) == reader, "reader");
        long total = 0;
        int first = 0;
        CHECK(sscanf(got, "%ld %d", &total, &first) == 2, "the reader's count: %s", got);
        /* JSON starts with '{'; Perfetto's first packet with field 1 (0x0a). */
        CHECK(st == 0 && total > 1000 && (first == '{' || first == 0x0a) &&
                  !strstr(buf, "cannot") && !strstr(buf, "failed"),
              "%s=%s, a FIFO with a reader: status %d, %ld bytes read (first 0x%02x), "
              "stderr:\n%s",
              cases[i].var, path, st, total, first & 0xff, buf);
        CHECK(unlink(path) == 0, "unlink");
    }
    CHECK(rmdir(dir) == 0, "rmdir");
    printf("ok: a FIFO without a reader as the trace's or the profile's file: refused with a "
           "message, not waited on; with a reader: the whole file\n");
}

/* A start, a run and a stop under a file size limit of 1 KiB, which the
 * profile's or the trace's file outgrows; the program goes on after. */
static int start_run_stop_file_limited(void)
{
    struct rlimit limit = {1024, 1024};
    CHECK(setrlimit(RLIMIT_FSIZE, &limit) == 0, "setrlimit");
    int err = start_run_stop();
    fprintf(stderr, "the program went on after weft_stop\n");
    return err;
}

static void file_size_limit(void)
{
    static char buf[65536];
    char path[128];
    static const struct {
        const char *var, *name;
        bool profile;
    } cases[] = {{"WEFT_PROFILE_JSON", "json", true},
                 {"WEFT_TRACE", "json", false},
                 {"WEFT_TRACE", "pftrace", false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].profile ? !WEFT_PROFILE : !WEFT_TRACE)
            continue;
        snprintf(path, sizeof path, "/tmp/weft-profile-env-limit-%d.%s", (int)getpid(),
                 cases[i].name);
        int st = fn_with_env(start_run_stop_file_limited, cases[i].var, path, buf, sizeof buf);
        CHECK(st == 0 && one_line_with(buf, path, "File too large") &&
                  strstr(buf, "the program went on after weft_stop"),
              "%s=%s under ulimit -f 1: status %d (153: killed by SIGXFSZ), stderr:\n%s",
              cases[i].var, path, st, buf);
        unlink(path);
    }
    printf("ok: a trace or profile file past the file size limit: a message, and the program "
           "goes on\n");
}
#endif

int main(void)
{
    unsetenv("WEFT_PROFILE");
    unsetenv("WEFT_PROFILE_JSON");
    unsetenv("WEFT_PROFILE_BURDEN_NS");
    unsetenv("WEFT_TRACE_EVENTS");
    unsetenv("WEFT_TRACE");
    snprintf(json_path, sizeof json_path, "/tmp/weft-profile-env-%d.json", (int)getpid());
    bad_values();
    long_values();
    profile_env();
#if WEFT_TRACE || WEFT_PROFILE
    fifos();
    file_size_limit();
#endif
    return 0;
}
