// SPDX-License-Identifier: Apache-2.0
/* Lace 2's lace_config.h on weft: the build options Lace records for its
 * programs, with weft's answers (lace.h includes it, as Lace's does).
 *   LACE_BACKOFF      1: idle workers sleep (weft's always do)
 *   LACE_USE_HWLOC    weft's -DWEFT_USE_HWLOC
 *   LACE_USE_MMAP     1: deques are reserved address space
 *   LACE_PIE_TIMES, LACE_COUNT_TASKS, LACE_COUNT_STEALS, LACE_COUNT_SPLITS
 *                     0: weft counts with -DWEFT_STATS=ON instead */
#ifndef WEFT_LACE2_CONFIG_H
#define WEFT_LACE2_CONFIG_H

#include <weft/config.h>

#define LACE_BACKOFF 1
#define LACE_USE_HWLOC WEFT_USE_HWLOC
#define LACE_USE_MMAP 1
#define LACE_PIE_TIMES 0
#define LACE_COUNT_TASKS 0
#define LACE_COUNT_STEALS 0
#define LACE_COUNT_SPLITS 0

#endif
