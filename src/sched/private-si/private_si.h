// SPDX-License-Identifier: Apache-2.0
/* private-si's own internals (private_si.c), shared only with the
 * white-box test (../private-common/test_private_deque.c). */
#ifndef WEFT_SCHED_PRIVATE_SI_H
#define WEFT_SCHED_PRIVATE_SI_H

#include "sched/private-common/private_deque.h"

/* Parses WEFT_SI_DELTA_US; false (and *us untouched) if malformed. */
bool weft__si_parse_delta_us(const char *s, uint64_t *us);
#define WEFT_SI_DEFAULT_DELTA_US 30u
#define WEFT_SI_MAX_DELTA_US 1000000u
/* Most polls between two clock reads. */
#define WEFT_SI_MAX_BUDGET 1024u

#endif
