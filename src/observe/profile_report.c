// SPDX-License-Identifier: Apache-2.0
/* The profiler's reports (profile_report.h; docs/profiling.md): the table
 * and the JSON of a snapshot, and the speedup bounds of a region (the
 * API's, which the reports print). */
#include "observe/profile_report.h"

#include "sys/clock.h"
#include "observe/count.h"
#include "observe/json.h"
#include "observe/profile_clock.h"

#include <string.h>

double weft_profile_speedup_bound(const weft_profile_region *r, unsigned workers)
{
    if (!r || workers == 0 || !(r->work_ns > 0.0))
        return 0.0;
    return r->parallelism < (double)workers ? r->parallelism : (double)workers;
}

double weft_profile_burdened_speedup(const weft_profile_region *r, unsigned workers)
{
    if (!r || workers == 0 || !(r->work_ns > 0.0))
        return 0.0;
    return r->work_ns / (r->work_ns / workers + r->burdened_span_ns);
}

#if WEFT_PROFILE

/* Speedup bounds are reported for 1 .. this many workers (JSON). */
#define SPEEDUP_WORKERS 64u

/* A duration in the largest unit it reaches, 3 significant digits. */
static const char *fmt_ns(char *buf, size_t size, double ns)
{
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}};
    double mag = ns < 0 ? -ns : ns; /* (no libm) */
    unsigned u = 0;
    while (u < 3 && mag < units[u].scale)
        u++;
    double v = mag / units[u].scale;
    snprintf(buf, size, "%s%.*f %s", ns < 0 ? "-" : "",
             v >= 99.95   ? 0
             : v >= 9.995 ? 1
                          : 2,
             v, units[u].unit);
    return buf;
}

/* The worker counts of the table's speedup columns. */
static const unsigned table_workers[] = {1, 2, 4, 8, 16, 32, 64};
#define TABLE_WORKERS (sizeof table_workers / sizeof table_workers[0])

/* The first lines: the clock, the burden, the unit. */
static void print_units(FILE *out, const weft__profile_snapshot *sn)
{
    char a[32], b[32], c[32];
    fprintf(out,
            "weft profile: scheduler %s, clock %s (%.3f ticks/ns), burden %s per SPAWN "
            "edge\n",
            WEFT_SCHEDULER_NAME, WEFT_CYCLES_SOURCE, weft__profile_ticks_per_ns(),
            fmt_ns(a, sizeof a, sn->burden_ns));
    /* A sum over threads: with more threads than CPUs it can pass the wall
     * time; one thread's share cannot. */
    /* Counting strands, what is checked against the CPU clock is a window
     * of strands, timed together. */
    const char *timed = sn->strands ? "windows of strands" : "strands";
    if (sn->off_cpu_threads > 0)
        fprintf(out,
                "times are on-CPU time: %s off the CPU taken out of %llu %s longer than "
                "%s, summed over %llu threads (at most %s on one)\n",
                fmt_ns(a, sizeof a, sn->off_cpu_ns), (unsigned long long)sn->off_cpu_strands, timed,
                fmt_ns(b, sizeof b, LONG_STRAND_NS), (unsigned long long)sn->off_cpu_threads,
                fmt_ns(c, sizeof c, sn->off_cpu_max_thread_ns));
    else
        fprintf(out, "times are on-CPU time: none off the CPU in %s longer than %s\n", timed,
                fmt_ns(b, sizeof b, LONG_STRAND_NS));
    if (sn->strands && sn->counted == 0)
        fprintf(out,
                "unit: strands (%s), each counted as 1, but none was timed (no fork-join strand "
                "ran; work pool items are not timed): times converted at a guess of %.0f cycles "
                "a strand (%.3f ns); WEFT_PROFILE_UNIT=time times them\n",
                weft__count_how(), WEFT__COUNT_GUESS_CYCLES_PER_STRAND, sn->ns_per_block);
    else if (sn->strands && sn->ns_per_block > 0.0)
        fprintf(out,
                "unit: strands (%s), each counted as 1, times converted at %.3f ns a strand "
                "(the on-CPU time of %llu strands, read once in %u strands, at the next task's "
                "start)\n",
                weft__count_how(), sn->ns_per_block, (unsigned long long)sn->counted,
                WEFT__PROFILE_STRAND_WINDOW);
    else if (sn->strands)
        fprintf(out,
                "unit: strands (%s), but none was timed to convert them: the times are 0 "
                "(the counts stand)\n",
                weft__count_how());
    else if (sn->blocks && sn->ns_per_block > 0.0)
        fprintf(out,
                "unit: basic blocks (%s; code compiled with -fsanitize-coverage=trace-pc), "
                "times converted from blocks at %.3f ns each (the on-CPU time of the "
                "strands over their blocks)\n",
                weft__count_how(), sn->ns_per_block);
    else if (sn->blocks)
        fprintf(out,
                "unit: basic blocks (%s), but no block was counted: no code that ran is compiled "
                "with -fsanitize-coverage=trace-pc, so the figures are 0 (compile the program "
                "with it, or profile in time: WEFT_PROFILE_UNIT=time)\n",
                weft__count_how());
    else
        fprintf(out, "unit: on-CPU time (%s)\n", weft__count_how());
    /* What each unit gets wrong on memory-bound code (profiling.md,
     * "Counting basic blocks" and "Time on the CPU, not on the wall"). */
    if (sn->strands)
        fprintf(out, "unit's error: every strand counts as the mean one, so a task type or a path "
                     "whose strands are longer than the mean reads shorter than it ran (and "
                     "shorter ones longer), and the mean holds the profiler's own cost per "
                     "strand; the strands themselves are the graph's, the same at any worker "
                     "count; WEFT_PROFILE_UNIT=time times each strand\n");
    else if (sn->blocks)
        fprintf(out, "unit's error: a block counts alike whether it computes or waits for memory, "
                     "so a strand that misses the cache more than the average reads shorter than "
                     "it ran, and memory bandwidth limits no parallelism in blocks; "
                     "WEFT_PROFILE_UNIT=time measures the stalls\n");
    else
        fprintf(out, "unit's error: on-CPU time includes memory stalls, which grow when workers "
                     "share the memory bus (the work at 2 workers can exceed the work at 1), and "
                     "the profiler's own cost per strand; counted basic blocks hold neither "
                     "(the times converted from them move with the run)\n");
    if (sn->note)
        fprintf(out, "note: %s\n", sn->note);
}

/* A name as the table shows it: its control characters (a newline, a
 * tab) as '?', so that a row stays one line with its columns (the JSON
 * keeps the name as given, escaped).  `buf` holds the copy when one is
 * needed; a longer name keeps its first NAME_SHOWN - 1 bytes. */
#define NAME_SHOWN 256
static const char *shown(const char *name, char buf[NAME_SHOWN])
{
    size_t n = 0;
    bool plain = true;
    for (const char *c = name; *c; c++, n++)
        plain = plain && (unsigned char)*c >= 0x20 && *c != 0x7f;
    if (plain)
        return name;
    if (n >= NAME_SHOWN)
        n = NAME_SHOWN - 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
    buf[n] = '\0';
    return buf;
}

/* One row of the regions' table. */
static void print_region(FILE *out, const weft_profile_region *r, int w)
{
    char a[32], b[32], c[32], d[32], name[NAME_SHOWN];
    fprintf(out, "%-*s %6llu %11s %11s %12.2f %13s %13.2f %15s %14llu %12llu\n", w,
            shown(r->name, name), (unsigned long long)r->runs, fmt_ns(a, sizeof a, r->work_ns),
            fmt_ns(b, sizeof b, r->span_ns), r->parallelism,
            fmt_ns(c, sizeof c, r->burdened_span_ns), r->burdened_parallelism,
            fmt_ns(d, sizeof d, r->longest_strand_ns), (unsigned long long)r->tasks,
            (unsigned long long)r->spawns);
}

/* The regions' figures, by kind (docs/profiling.md, "Nested RUNs"): the
 * RUNs from outside with their total, the ranges the program named, the
 * RUNs inside tasks per call; in counting mode the same in blocks. */
static void print_regions(FILE *out, const weft__profile_snapshot *sn, int w)
{
    const weft_profile_region *r = sn->r;
    size_t n = sn->n;
    char a[32], b[32], c[32], name[NAME_SHOWN];
    size_t of_kind[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++)
        if (r[i].kind >= 0 && r[i].kind < 3)
            of_kind[r[i].kind]++;
    fprintf(out, "%-*s %6s %11s %11s %12s %13s %13s %15s %14s %12s\n", w, "region", "runs", "work",
            "span", "parallelism", "burdened-span", "burdened-par", "longest-strand", "tasks",
            "spawns");
    double work = 0;
    uint64_t tasks = 0, spawns = 0;
    for (size_t i = 0; i < n; i++)
        if (r[i].kind == WEFT_PROFILE_REGION_RUN) {
            print_region(out, &r[i], w);
            work += r[i].work_ns;
            tasks += r[i].tasks;
            spawns += r[i].spawns;
        }
    if (of_kind[WEFT_PROFILE_REGION_RUN] > 1)
        fprintf(out, "%-*s %6s %11s %11s %12s %13s %13s %15s %14llu %12llu\n", w,
                "total (the rows above)", "", fmt_ns(a, sizeof a, work), "", "", "", "", "",
                (unsigned long long)tasks, (unsigned long long)spawns);
    if (of_kind[WEFT_PROFILE_REGION_NAMED]) {
        fprintf(out, "ranges named by weft_profile_begin/end (their RUNs are in the rows "
                     "above too):\n");
        for (size_t i = 0; i < n; i++)
            if (r[i].kind == WEFT_PROFILE_REGION_NAMED)
                print_region(out, &r[i], w);
    }
    if (of_kind[WEFT_PROFILE_REGION_INSIDE_TASK]) {
        fprintf(out,
                "RUNs inside tasks, per call (each is a call of the task that made it: its "
                "work is in that task's region above):\n%-*s %8s %13s %13s %12s %17s %14s\n",
                w, "RUN of", "calls", "work/call", "span/call", "parallelism", "longest-call-span",
                "tasks/call");
        for (size_t i = 0; i < n; i++) {
            if (r[i].kind != WEFT_PROFILE_REGION_INSIDE_TASK)
                continue;
            double k = r[i].runs ? 1.0 / (double)r[i].runs : 0.0;
            fprintf(out, "%-*s %8llu %13s %13s %12.2f %17s %14.1f\n", w, shown(r[i].name, name),
                    (unsigned long long)r[i].runs, fmt_ns(a, sizeof a, r[i].work_ns * k),
                    fmt_ns(b, sizeof b, r[i].span_ns * k), r[i].parallelism,
                    fmt_ns(c, sizeof c, r[i].longest_run_span_ns), (double)r[i].tasks * k);
        }
    }
    if (n == 0)
        fprintf(out, "(no region has finished)\n");
    if (sn->runs_in_other_regions)
        fprintf(out,
                "%llu runs of regions past the %u names a profile keeps are in the \"(other ...)\" "
                "rows\n",
                (unsigned long long)sn->runs_in_other_regions, sn->names_kept);
    if (sn->blocks && sn->ns_per_block > 0.0) { /* the counts (strands: no longest one) */
        fprintf(out, "%-*s %14s %14s %14s", w, "region", "work", "span", "burdened-span");
        if (sn->strands)
            fputs("   (strands)\n", out);
        else
            fprintf(out, " %15s   (basic blocks)\n", "longest-strand");
        /* In the order and with the headings of the table above: the RUNs
         * inside tasks per call. */
        static const char *const headings[3] = {
            [WEFT_PROFILE_REGION_NAMED] = "ranges named by weft_profile_begin/end:\n",
            [WEFT_PROFILE_REGION_INSIDE_TASK] = "RUNs inside tasks, per call:\n",
        };
        static const int kinds[3] = {WEFT_PROFILE_REGION_RUN, WEFT_PROFILE_REGION_NAMED,
                                     WEFT_PROFILE_REGION_INSIDE_TASK};
        for (size_t kind = 0; kind < 3; kind++) {
            if (of_kind[kinds[kind]] && headings[kinds[kind]])
                fputs(headings[kinds[kind]], out);
            for (size_t i = 0; i < n; i++) {
                if (r[i].kind != kinds[kind])
                    continue;
                double per_block = 1.0 / sn->ns_per_block, k = per_block;
                if (r[i].kind == WEFT_PROFILE_REGION_INSIDE_TASK && r[i].runs)
                    k /= (double)r[i].runs; /* sums, per call */
                fprintf(out, "%-*s %14.0f %14.0f %14.0f", w, shown(r[i].name, name),
                        r[i].work_ns * k, r[i].span_ns * k, r[i].burdened_span_ns * k);
                if (!sn->strands) /* a maximum over the calls, not a sum */
                    fprintf(out, " %15.0f", r[i].longest_strand_ns * per_block);
                fputc('\n', out);
            }
        }
    }
}

/* The speedup bounds of each region at the table's worker counts. */
static void print_speedups(FILE *out, const weft__profile_snapshot *sn, int w)
{
    const weft_profile_region *r = sn->r;
    fprintf(out,
            "speedup on P workers: at most min(P, parallelism) / burdened estimate "
            "work/(work/P + burdened span)\n%-*s",
            w, "region");
    for (size_t k = 0; k < TABLE_WORKERS; k++)
        fprintf(out, " %13s%-2u", "P=", table_workers[k]);
    fputc('\n', out);
    for (size_t i = 0; i < sn->n; i++) {
        if (r[i].kind == WEFT_PROFILE_REGION_INSIDE_TASK)
            continue; /* a call's bound is its caller's business */
        char name[NAME_SHOWN];
        fprintf(out, "%-*s", w, shown(r[i].name, name));
        for (size_t k = 0; k < TABLE_WORKERS; k++) {
            char cell[40];
            snprintf(cell, sizeof cell, "%.1f/%.1f",
                     weft_profile_speedup_bound(&r[i], table_workers[k]),
                     weft_profile_burdened_speedup(&r[i], table_workers[k]));
            fprintf(out, " %15s", cell);
        }
        fputc('\n', out);
    }
}

/* The task types: count, work, share of all the types' work. */
static void print_types(FILE *out, const weft__profile_snapshot *sn, int w)
{
    const weft_profile_task_type *t = sn->t;
    char a[32], name[NAME_SHOWN];
    double total = 0;
    for (size_t i = 0; i < sn->nt; i++)
        total += t[i].work_ns;
    fprintf(out, "%-*s %14s %11s %7s\n", w, "task type", "count", "work", "share");
    for (size_t i = 0; i < sn->nt; i++)
        fprintf(out, "%-*s %14llu %11s %6.1f%%\n", w, shown(t[i].name, name),
                (unsigned long long)t[i].count, fmt_ns(a, sizeof a, t[i].work_ns),
                total > 0 ? 100.0 * t[i].work_ns / total : 0.0);
}

void weft__profile_print_table(FILE *out, const weft__profile_snapshot *sn)
{
    print_units(out, sn);
    /* The name column fits the longest name (names are cut at 63 bytes). */
    int w = 20;
    for (size_t i = 0; i < sn->n; i++)
        if ((int)strlen(sn->r[i].name) > w)
            w = (int)strlen(sn->r[i].name);
    for (size_t i = 0; i < sn->nt; i++)
        if ((int)strlen(sn->t[i].name) > w)
            w = (int)strlen(sn->t[i].name);
    print_regions(out, sn, w);
    if (sn->n > 0)
        print_speedups(out, sn, w);
    print_types(out, sn, w);
}

/* One region's object. */
static void json_region(FILE *out, const weft__profile_snapshot *sn, const weft_profile_region *r)
{
    static const char *const kinds[] = {"run", "inside_task", "named"};
    fprintf(out, "{\"name\": ");
    weft__json_string(out, r->name);
    fprintf(out, ", \"kind\": \"%s\", \"longest_run_span_ns\": %.1f",
            r->kind >= 0 && r->kind < 3 ? kinds[r->kind] : "run", r->longest_run_span_ns);
    fprintf(out,
            ", \"runs\": %llu, \"work_ns\": %.1f, \"span_ns\": %.1f, "
            "\"burdened_span_ns\": %.1f, \"parallelism\": %.4f, "
            "\"burdened_parallelism\": %.4f, \"longest_strand_ns\": %.1f, "
            "\"tasks\": %llu, \"spawns\": %llu, "
            "\"strands\": %llu,",
            (unsigned long long)r->runs, r->work_ns, r->span_ns, r->burdened_span_ns,
            r->parallelism, r->burdened_parallelism, r->longest_strand_ns,
            (unsigned long long)r->tasks, (unsigned long long)r->spawns,
            (unsigned long long)r->strands);
    if (sn->blocks && sn->ns_per_block > 0.0) { /* the counts (strands: no longest one) */
        const char *unit = sn->strands ? "strands" : "blocks";
        fprintf(out, " \"work_%s\": %.0f, \"span_%s\": %.0f, \"burdened_span_%s\": %.0f,", unit,
                r->work_ns / sn->ns_per_block, unit, r->span_ns / sn->ns_per_block, unit,
                r->burdened_span_ns / sn->ns_per_block);
        if (!sn->strands)
            fprintf(out, " \"longest_strand_blocks\": %.0f,",
                    r->longest_strand_ns / sn->ns_per_block);
    }
    fprintf(out, "\n   \"speedup\": [");
    for (unsigned p = 1; p <= SPEEDUP_WORKERS; p++)
        fprintf(out, "%s{\"workers\": %u, \"bound\": %.3f, \"burdened\": %.3f}", p > 1 ? ", " : "",
                p, weft_profile_speedup_bound(r, p), weft_profile_burdened_speedup(r, p));
    fprintf(out, "]}");
}

void weft__profile_print_json(FILE *out, const weft__profile_snapshot *sn)
{
    char time[96];
    if (sn->strands && sn->counted == 0)
        snprintf(time, sizeof time, "ns (from strands at a guess of %.4f ns each, none timed)",
                 sn->ns_per_block);
    else if (sn->strands)
        snprintf(time, sizeof time, "ns (from strands at %.4f ns each, over %llu timed)",
                 sn->ns_per_block, (unsigned long long)sn->counted);
    else if (sn->blocks)
        snprintf(time, sizeof time, "ns (from basic blocks at %.4f ns each)", sn->ns_per_block);
    else
        snprintf(time, sizeof time, "on-CPU ns");
    fprintf(out,
            "{\"weft_profile\": 1, \"scheduler\": \"%s\", \"clock\": \"%s\", "
            "\"ticks_per_ns\": %.6f, \"unit\": \"%s\", \"unit_chosen\": \"%s\", "
            "\"ns_per_block\": %.6f, \"time\": \"%s\", \"off_cpu_ns\": %.1f, "
            "\"off_cpu_strands\": %llu, \"off_cpu_threads\": %llu, "
            "\"off_cpu_max_thread_ns\": %.1f, \"long_strand_ns\": %.1f, "
            "\"burden_ns\": %.1f, \"runs_in_other_regions\": %llu,\n",
            WEFT_SCHEDULER_NAME, WEFT_CYCLES_SOURCE, weft__profile_ticks_per_ns(),
            sn->strands  ? "strands"
            : sn->blocks ? "basic blocks"
                         : "time",
            weft__count_how(), sn->ns_per_block, time, sn->off_cpu_ns,
            (unsigned long long)sn->off_cpu_strands, (unsigned long long)sn->off_cpu_threads,
            sn->off_cpu_max_thread_ns, LONG_STRAND_NS, sn->burden_ns,
            (unsigned long long)sn->runs_in_other_regions);
    if (sn->note) {
        fprintf(out, " \"note\": ");
        weft__json_string(out, sn->note);
        fprintf(out, ",\n");
    }
    fprintf(out, " \"regions\": [");
    for (size_t i = 0; i < sn->n; i++) {
        fprintf(out, "%s\n  ", i ? "," : "");
        json_region(out, sn, &sn->r[i]);
    }
    fprintf(out, "],\n \"task_types\": [");
    for (size_t i = 0; i < sn->nt; i++) {
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        weft__json_string(out, sn->t[i].name);
        fprintf(out, ", \"count\": %llu, \"work_ns\": %.1f}", (unsigned long long)sn->t[i].count,
                sn->t[i].work_ns);
    }
    fprintf(out, "]}\n");
}

#endif
