// SPDX-License-Identifier: Apache-2.0
/* Eleven parameters: Lace's lace14.h has such tasks, weft's take up to 10;
 * a compile-time error naming the task and the limit. */
#include <lace14.h>

TASK_11(long, sum11, long, a, long, b, long, c, long, d, long, e, long, f, long, g, long, h, long,
        i, long, j, long, k)
{
    return a + b + c + d + e + f + g + h + i + j + k;
}
