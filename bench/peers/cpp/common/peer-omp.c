// SPDX-License-Identifier: Apache-2.0
/* peer_start/peer_stop for the OpenMP peers (libgomp with gcc, LLVM's
 * libomp with clang).
 *
 * Every kernel runs as `#pragma omp parallel` + `#pragma omp single`: one
 * thread starts the recursion and the team executes its tasks.  The team
 * is made once here (omp_set_num_threads, dynamic adjustment off) so its
 * threads exist before the timed part; both runtimes keep them between
 * parallel regions. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "peer.h"

/* Worker stacks must be set before the runtime makes its threads, and the
 * two runtimes take the size from different places: libgomp reads
 * OMP_STACKSIZE when it is loaded (before main) and otherwise creates its
 * threads with the process's default thread attributes; libomp reads
 * OMP_STACKSIZE at its first use.  So set both.  An OMP_STACKSIZE given by
 * the user wins. */
static void set_worker_stack(size_t bytes)
{
    pthread_attr_t attr;
    int err = pthread_attr_init(&attr);
    if (err == 0)
        err = pthread_attr_setstacksize(&attr, bytes);
    if (err == 0)
        err = pthread_setattr_default_np(&attr);
    if (err != 0) {
        fprintf(stderr, "peer: cannot set a %zu-byte thread stack: %s\n", bytes, strerror(err));
        exit(1);
    }
    pthread_attr_destroy(&attr);
    char size[32];
    snprintf(size, sizeof size, "%zuK", (bytes + 1023) / 1024);
    if (setenv("OMP_STACKSIZE", size, 0) != 0) {
        fprintf(stderr, "peer: setenv OMP_STACKSIZE: %s\n", strerror(errno));
        exit(1);
    }
}

unsigned peer_start(unsigned workers, size_t worker_stack)
{
    if (worker_stack > 0)
        set_worker_stack(worker_stack);
    omp_set_dynamic(0); /* exactly the threads asked for */
    if (workers > 0)
        omp_set_num_threads((int)workers);
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
        team = omp_get_num_threads();
    }
    if (workers > 0 && team != (int)workers) {
        fprintf(stderr, "peer: asked OpenMP for %u threads, got %d\n", workers, team);
        exit(1);
    }
    return (unsigned)team;
}

void peer_stop(void) {}

const char *peer_runtime(void)
{
    static char name[64];
#if defined(__clang__)
    const char *lib = "libomp";
#elif defined(__GNUC__)
    const char *lib = "libgomp";
#else
    const char *lib = "unknown runtime";
#endif
    snprintf(name, sizeof name, "OpenMP %d (%s)", _OPENMP, lib);
    return name;
}
