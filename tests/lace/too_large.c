// SPDX-License-Identifier: Apache-2.0
/* Seven 8-byte arguments: 56 bytes, more than the 48 a 64-byte descriptor
 * holds (LACE_TASKSIZE): a compile-time error naming the task. */
#include <lace.h>

TASK_7(long, big, long, a, long, b, long, c, long, d, long, e, long, f, long, g)
{
    return a + b + c + d + e + f + g;
}
