// SPDX-License-Identifier: Apache-2.0
/* Compiled, not run, by check.sh: a Lace 2 task of four word arguments
 * whose body spawns and calls itself, with Lace 2's layer on weft. */
#include <lace.h>

#include <stdint.h>

TASK_4(uint64_t, walk4l, uint64_t, a, uint64_t, b, uint64_t, c, uint64_t, d)

uint64_t walk4l_CALL(lace_worker *lw, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    if (a < 2)
        return b ^ c ^ d;
    walk4l_SPAWN(lw, a - 1, b + 1, c * 3, d ^ a);
    uint64_t x = walk4l_CALL(lw, a - 2, c, b, d + 1);
    return x + walk4l_SYNC(lw);
}
