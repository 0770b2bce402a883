// SPDX-License-Identifier: Apache-2.0
/* Public entries whose effect no other test observed: the counters by name
 * (weft_stats_counters), the counter table and the pool's counters written
 * to a real stream (weft_stats_print, weft_pool_stats_print), each checked
 * against the figures the run must have produced. */
#include "check.h"

#include <weft/pool.h>
#include <weft/weft.h>

#include "fib_task.h"

/* Reads a temporary stream back into buf (NUL-terminated). */
static void read_back(FILE *f, char *buf, size_t cap)
{
    CHECK(fflush(f) == 0, "fflush");
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

#if WEFT_STATS
/* The line of buf that starts with `label` (a static copy), or "". */
static const char *line_of(const char *buf, const char *label)
{
    static char line[4096];
    line[0] = '\0';
    for (const char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, label, strlen(label)) == 0) {
            size_t n = strcspn(p, "\n");
            n = n < sizeof line - 1 ? n : sizeof line - 1;
            memcpy(line, p, n);
            line[n] = '\0';
            break;
        }
    }
    return line;
}

/* The whitespace-separated field k (0 = the label) of line, as a number. */
static unsigned long long field(const char *line, int k)
{
    const char *p = line;
    for (int i = 0; i < k && p; i++) {
        p += strcspn(p, " ");
        p += strspn(p, " ");
    }
    return p && *p ? strtoull(p, NULL, 10) : ~0ull;
}

/* The column of `name` in the header line (0 = the row label). */
static int column_of(const char *header, const char *name)
{
    int col = 0;
    const char *p = header;
    while (*p) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        if (n == strlen(name) && strncmp(p, name, n) == 0)
            return col;
        p += n;
        col++;
    }
    return -1;
}

#endif

static void counters_and_table(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    weft_stats_reset();
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "fib");
    size_t n = weft_stats_counters(NULL, 0);
    char buf[16384];
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    weft_stats_print(f);
    read_back(f, buf, sizeof buf);
#if WEFT_STATS
    const uint64_t spawns = fib_ref(21) - 1; /* pfib(20)'s spawns: one per call with n >= 2 */
    /* By name: every runtime counter, "tasks" exact, names unique. */
    CHECK(n >= 8 && n <= 64, "weft_stats_counters(NULL, 0) = %zu", n);
    weft_counter c[64];
    for (size_t i = 0; i < 64; i++)
        c[i] = (weft_counter){"sentinel", 12345};
    CHECK(weft_stats_counters(c, 2) == n, "a short array: still the full count");
    CHECK(strcmp(c[2].name, "sentinel") == 0 && c[2].value == 12345,
          "weft_stats_counters wrote past max");
    CHECK(weft_stats_counters(c, 64) == n, "count");
    weft_stats s;
    CHECK(weft_stats_get(&s) == 0, "weft_stats_get");
    bool seen_tasks = false, seen_steals = false;
    for (size_t i = 0; i < n; i++) {
        CHECK(c[i].name != NULL && c[i].name[0] != '\0', "counter %zu has no name", i);
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(c[i].name, c[j].name) != 0, "counter %s listed twice", c[i].name);
        if (strcmp(c[i].name, "tasks") == 0) {
            seen_tasks = true;
            CHECK_EQ_U64(c[i].value, spawns);
        }
        if (strcmp(c[i].name, "steals") == 0) {
            seen_steals = true;
            CHECK_EQ_U64(c[i].value, s.steals);
        }
    }
    CHECK(seen_tasks && seen_steals, "no \"tasks\" or \"steals\" among the %zu counters", n);
    /* The table: a header naming every counter, a row per worker, and a
     * total whose tasks column is the run's spawn count. */
    const char *header = line_of(buf, "worker");
    CHECK(header[0] != '\0', "weft_stats_print wrote no header:\n%s", buf);
    char hdr[4096];
    snprintf(hdr, sizeof hdr, "%s", header);
    for (size_t i = 0; i < n; i++)
        CHECK(column_of(hdr, c[i].name) > 0, "the table lacks the counter %s:\n%s", c[i].name, buf);
    CHECK(line_of(buf, "0 ")[0] != '\0' && line_of(buf, "1 ")[0] != '\0', "no row per worker:\n%s",
          buf);
    int tc = column_of(hdr, "tasks");
    unsigned long long total_tasks = field(line_of(buf, "total"), tc);
    CHECK(total_tasks == spawns, "the table's total tasks is %llu, the run spawned %llu:\n%s",
          total_tasks, (unsigned long long)spawns, buf);
    printf("ok: weft_stats_counters (%zu counters, tasks exact) and weft_stats_print's table\n", n);
#else
    CHECK(n == 0, "counters compiled out, yet weft_stats_counters says %zu", n);
    CHECK(strstr(buf, "not compiled in") != NULL, "weft_stats_print said:\n%s", buf);
    printf("ok: counters compiled out: weft_stats_counters 0, weft_stats_print says so\n");
#endif
    CHECK(weft_stop() == 0, "stop");
}

/* ---- weft_pool_stats_print ---- */

static void pool_node(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    uint32_t depth;
    memcpy(&depth, item, sizeof depth);
    if (depth == 0)
        return;
    depth--;
    weft_pool_push(ctx, &depth);
    weft_pool_push(ctx, &depth);
}

static void pool_print(void)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(uint32_t));
    cfg.workers = 2;
    uint32_t root = 10; /* 2^11 - 1 items, 2^11 - 2 pushed */
    weft_pool_stats st;
    CHECK(weft_pool_run(&cfg, &root, 1, pool_node, NULL, &st) == 0, "weft_pool_run");
    char buf[4096];
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    weft_pool_stats_print(&st, f);
    read_back(f, buf, sizeof buf);
    char want[128];
    snprintf(want, sizeof want, "workers 2  initial 1  pushed %u  processed %u", (1u << 11) - 2,
             (1u << 11) - 1);
    CHECK(strstr(buf, want) != NULL, "weft_pool_stats_print lacks \"%s\":\n%s", want, buf);
    CHECK(strstr(buf, "steals ") != NULL && strstr(buf, "sleeps ") != NULL,
          "weft_pool_stats_print lacks its other lines:\n%s", buf);
    printf("ok: weft_pool_stats_print: %s\n", want);
}

int main(void)
{
    counters_and_table();
    pool_print();
    return 0;
}
