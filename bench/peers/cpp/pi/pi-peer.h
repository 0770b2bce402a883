// SPDX-License-Identifier: Apache-2.0
/* The pi kernel each peer implements (pi-tbb.cpp, pi-omp.c). */
#ifndef WEFT_PEER_PI_H
#define WEFT_PEER_PI_H

#include "peer.h"

PEER_BEGIN_DECLS
/* Hits among samples [0, samples) (bench/pi/pi.h), the range halved into
 * tasks down to `grain` samples (upper half a task, lower half called),
 * as bench/pi/pi-weft.c. */
long pi_parallel(long samples, long grain);
PEER_END_DECLS

#endif
