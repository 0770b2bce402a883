// SPDX-License-Identifier: Apache-2.0
/* The CPU count that weft_start(0, ...) uses and that its messages about
 * more workers than CPUs quote is the affinity mask's, also when memory
 * is short: a count that needs an allocation which fails must not read
 * as one CPU.  The heap is used up under an address space limit, then
 * the count is taken.  Not under the sanitizers, whose runtimes need more
 * address space than any limit that leaves malloc failing.
 *
 * Usage: test_cpus_no_memory
 */
#include "check.h"

#include <sched.h>
#include <sys/resource.h>

#include "sys/cpu.h"

/* The blocks taken, chained through their first word. */
static void *taken;

static void take_all(size_t size)
{
    for (;;) {
        void **block = malloc(size);
        if (!block)
            return;
        *block = taken;
        taken = block;
    }
}

static long address_space_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    CHECK(f, "/proc/self/statm");
    long pages = 0;
    CHECK(fscanf(f, "%ld", &pages) == 1, "statm");
    fclose(f);
    return pages * sysconf(_SC_PAGESIZE);
}

int main(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
    unsigned expected = (unsigned)CPU_COUNT(&set);
    CHECK(weft__cpus_available() == expected, "with memory: %u CPUs, not %u",
          weft__cpus_available(), expected);

    struct rlimit old, tight;
    CHECK(getrlimit(RLIMIT_AS, &old) == 0, "getrlimit");
    tight = old;
    tight.rlim_cur = (rlim_t)address_space_bytes() + (16 << 20);
    CHECK(setrlimit(RLIMIT_AS, &tight) == 0, "setrlimit");
    /* Every size down to a word: free blocks of one size (of the count
     * taken above, which may allocate) serve that size only. */
    for (size_t size = (size_t)1 << 20; size >= sizeof(void *); size /= 2)
        take_all(size);
    void *probe = malloc(128);
    unsigned got = weft__cpus_available();
    CHECK(setrlimit(RLIMIT_AS, &old) == 0, "setrlimit back");
    while (taken) {
        void *next = *(void **)taken;
        free(taken);
        taken = next;
    }
    CHECK(probe == NULL, "the heap was not used up: malloc(128) succeeded");
    CHECK(got == expected, "with the heap used up: %u CPUs, not the mask's %u", got, expected);
    printf("ok: %u CPUs counted with the heap used up\n", got);
    return 0;
}
