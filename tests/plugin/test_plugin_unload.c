// SPDX-License-Identifier: Apache-2.0
/* dlclose of a plugin whose pool still runs: the plugin (argv[1]) starts a
 * pool, computes on it and is closed; its workers keep running weft's
 * code, which must stay mapped (libweft.so is linked -z nodelete; a plugin
 * that links libweft.a is pinned when its pool starts), so the program
 * goes on, loads the plugin again, finds the same pool, and exits
 * cleanly.
 * With argv[2], the weft library the plugin links (a shared one), the
 * pool is then stopped through it, after the last dlclose: with the
 * profiler's or the tracer's library, weft_stop writes the report with
 * the closed plugin's task names (tests/plugin/reports.sh); without it,
 * the pool runs until exit, which writes it. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

typedef long (*plugin_fib_fn)(unsigned, int);
typedef unsigned (*workers_fn)(void);
typedef int (*stop_fn)(void);

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test_plugin_unload <plugin.so> [<weft library.so>]\n");
        return 2;
    }
    for (int round = 0; round < 3; round++) {
        void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
            return 1;
        }
        plugin_fib_fn fib = (plugin_fib_fn)(void (*)(void))dlsym(h, "plugin_fib");
        if (!fib) {
            fprintf(stderr, "FAIL: dlsym: %s\n", dlerror());
            return 1;
        }
        long got = fib(2, 20);
        if (got != 6765) {
            fprintf(stderr, "FAIL: round %d: fib(20) = %ld\n", round, got);
            return 1;
        }
        if (dlclose(h) != 0) {
            fprintf(stderr, "FAIL: dlclose: %s\n", dlerror());
            return 1;
        }
        /* The workers go idle, spin, yield and sleep in weft's code. */
        pause_ms(50);
    }
    if (argc == 3) {
        /* The library the plugin loaded (pinned by its pool): the same
         * object, found by its file. */
        void *lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            fprintf(stderr, "FAIL: dlopen: %s\n", dlerror());
            return 1;
        }
        workers_fn workers = (workers_fn)(void (*)(void))dlsym(lib, "weft_workers");
        stop_fn stop = (stop_fn)(void (*)(void))dlsym(lib, "weft_stop");
        if (!workers || !stop) {
            fprintf(stderr, "FAIL: dlsym: %s\n", dlerror());
            return 1;
        }
        if (workers() != 2) {
            fprintf(stderr, "FAIL: %s runs %u workers, not the plugin's pool of 2\n", argv[2],
                    workers());
            return 1;
        }
        int err = stop();
        if (err != 0) {
            fprintf(stderr, "FAIL: weft_stop after the plugin's dlclose: %d\n", err);
            return 1;
        }
        dlclose(lib);
    }
    printf("test_plugin_unload: ok\n");
    return 0;
}
