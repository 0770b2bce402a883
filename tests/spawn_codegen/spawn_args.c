// SPDX-License-Identifier: Apache-2.0
/* Compiled, not run, by check.sh: a profiling build's task of four word
 * arguments whose body spawns and calls itself, and a control function
 * that stores four words as one vector with a call beside it. */
#include <weft/weft.h>

#include <stdint.h>

WEFT_TASK_4(uint64_t, walk4, uint64_t, a, uint64_t, b, uint64_t, c, uint64_t, d)
{
    if (a < 2)
        return b ^ c ^ d;
    WEFT_SPAWN(walk4, a - 1, b + 1, c * 3, d ^ a);
    uint64_t x = WEFT_CALL(walk4, a - 2, c, b, d + 1);
    return x + WEFT_SYNC(walk4);
}

void codegen_control(uint64_t *p, uint64_t a, uint64_t b, uint64_t c, uint64_t d, void (*f)(void));
void codegen_control(uint64_t *p, uint64_t a, uint64_t b, uint64_t c, uint64_t d, void (*f)(void))
{
    if (p[4] != 0)
        f();
    p[0] = a;
    p[1] = b;
    p[2] = c;
    p[3] = d;
    if (p[5] != 0)
        f();
}
