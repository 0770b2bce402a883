// SPDX-License-Identifier: Apache-2.0
/* Memory for deques and stacks.
 *
 * Deques and stacks are reserved with mmap: address space is cheap, and
 * the kernel supplies real pages only where they are touched, so a 64 MiB
 * stack or a million-task deque costs what the computation uses.  Each
 * region has PROT_NONE guard pages: below a stack (it grows down) and
 * above a deque.  The deque never reaches its guard (SPAWN checks the
 * bound and stops with a message); the stack guard turns an overflow into
 * a SIGSEGV, which overflow.c explains before aborting.
 *
 * A stack's guard is as large as the stack (weft__stack_guard), so a frame
 * can only jump over it into whatever lies below by being larger than the
 * whole stack; and weft and its users compile with -fstack-clash-protection
 * where the compiler has it (the CMake target and pkg-config export it),
 * which probes every page of a large frame, so such code always hits the
 * guard.  docs/configuration.md says what is and is not caught.
 * overflow.c explains what hits a guard.
 */
#include "runtime/memory.h"

#include <weft/weft.h>

#include "runtime/topology.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t weft__page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void *weft__map(size_t bytes, size_t guard_below, size_t guard_above, int placement)
{
    size_t page = weft__page_size();
    bytes = round_up(bytes, page);
    guard_below = round_up(guard_below, page);
    guard_above = round_up(guard_above, page);
    size_t total = guard_below + bytes + guard_above;
    char *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    if ((guard_below && mprotect(base, guard_below, PROT_NONE) != 0) ||
        (guard_above && mprotect(base + guard_below + bytes, guard_above, PROT_NONE) != 0)) {
        munmap(base, total);
        return NULL;
    }
    weft__topology_bind_area(base + guard_below, bytes, placement);
    return base + guard_below;
}

void weft__unmap(void *usable, size_t bytes, size_t guard_below, size_t guard_above)
{
    size_t page = weft__page_size();
    bytes = round_up(bytes, page);
    guard_below = round_up(guard_below, page);
    guard_above = round_up(guard_above, page);
    munmap((char *)usable - guard_below, guard_below + bytes + guard_above);
}

size_t weft__stack_guard(size_t stack_size)
{
    size_t guard = stack_size;
    if (guard < WEFT_MIN_STACK_GUARD)
        guard = WEFT_MIN_STACK_GUARD;
    if (guard > WEFT_MAX_STACK_GUARD)
        guard = WEFT_MAX_STACK_GUARD;
    return round_up(guard, weft__page_size());
}

size_t weft__deque_bytes(size_t slots)
{
    /* Two slots more than usable: `end` stays EMPTY, so a task running at
     * a full deque's top can check its slot (weft_check_return); and the
     * floor below dq holds WEFT_STATE_END, so that the slot below any
     * head can be read (weft_fj_spawn_slot_exact_as). */
    return round_up((slots + 2) * sizeof(weft_task), weft__page_size());
}
