// SPDX-License-Identifier: Apache-2.0
/* What every peer driver (<name>-main.c, C) needs from the runtime glue:
 * common/peer-tbb.cpp for the oneTBB peers, common/peer-omp.c for the
 * OpenMP peers.  The driver is the same for both; only the kernel
 * (<name>-tbb.cpp or <name>-omp.c) and this glue differ. */
#ifndef WEFT_PEER_H
#define WEFT_PEER_H

#include <stddef.h>

#ifdef __cplusplus
#define PEER_BEGIN_DECLS extern "C" {
#define PEER_END_DECLS }
#else
#define PEER_BEGIN_DECLS
#define PEER_END_DECLS
#endif

PEER_BEGIN_DECLS

/* Starts the runtime with exactly `workers` threads, the calling thread
 * included (0: the runtime's default), each worker thread with a stack of
 * at least worker_stack bytes (0: the runtime's default), and runs an
 * empty parallel step so the threads exist before the timed part, as
 * weft_start does for weft.  Returns the number of threads.  Exits with a
 * message on failure. */
unsigned peer_start(unsigned workers, size_t worker_stack);

/* Releases what peer_start made. */
void peer_stop(void);

/* The runtime and its version, for the output ("oneTBB 2021.8", ...). */
const char *peer_runtime(void);

PEER_END_DECLS

#endif
