// SPDX-License-Identifier: Apache-2.0
/* Three 8-byte arguments: 24 bytes, more than lace32.h's 16 (a compile-time
 * error there, as in Lace) and within lace.h's 48. */
#if LACE2_TEST_HEADER == 32
#include <lace32.h>
#else
#include <lace.h>
#endif

TASK(int, big, double, a, double, b, double, c)
