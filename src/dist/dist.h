// SPDX-License-Identifier: Apache-2.0
/* The distributed work pool (include/weft/dist.h): declarations shared by
 * the files of src/dist.  Not installed.  Internal names start with wd_.
 *
 *   run.c    weft_dist_run: checks, the agreement on the configuration
 *            across ranks, the one-rank case, the counters
 *   comm.c   the communicator: the calling thread of each rank, which
 *            talks MPI while the local pool (src/workpool/hosted.h) runs:
 *            steal requests and shares, lifelines, Dijkstra-Safra
 *            termination detection, the final drain
 * The design note is docs/distributed.md.
 */
#ifndef WEFT_DIST_INTERNAL_H
#define WEFT_DIST_INTERNAL_H

#include <weft/dist.h>

#include "workpool/hosted.h"

/* Runs the communicator of this rank on a pool that was created and
 * agreed on by every rank; starts it, returns when the run is over
 * everywhere (the pool stopped, every message of the run received), with
 * this rank's counters in *st (pool counters excepted).  comm is the run's
 * own duplicate; an MPI error aborts the run. */
void weft__wd_communicate(MPI_Comm comm, const weft_dist_config *cfg, wp_pool *pool,
                          size_t n_initial, weft_dist_rank_stats *st);

/* An MPI error: a message naming this rank, the call and the peer (-1:
 * none), then MPI_Abort of comm.  Never returns. */
__attribute__((noreturn)) void weft__wd_mpi_failed(MPI_Comm comm, int rc, const char *call,
                                                   int peer);

/* rc of an MPI call: returns if MPI_SUCCESS, else weft__wd_mpi_failed. */
static inline void wd_check(MPI_Comm comm, int rc, const char *call, int peer)
{
    if (rc != MPI_SUCCESS)
        weft__wd_mpi_failed(comm, rc, call, peer);
}

#endif
