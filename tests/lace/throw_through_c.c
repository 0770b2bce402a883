// SPDX-License-Identifier: Apache-2.0
/* A Lace task compiled as C, for test_lace_throw: it spawns, then calls
 * back into C++ (lace_throw_hook), which may throw through its frame. */
#include <lace.h>

void lace_throw_hook(int n);

TASK_1(long, c_spawner, int, n)
{
    if (n == 0) {
        lace_throw_hook(n);
        return 0;
    }
    SPAWN(c_spawner, n - 1);
    long here = CALL(c_spawner, n - 1);
    return SYNC(c_spawner) + here + 1;
}
