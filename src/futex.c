/* Address-based wait/wake on a 32-bit atomic word (Linux futex). */
#include "internal.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sleeps while *word == expected.  May return spuriously: callers loop. */
void weft_futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    (void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void weft_futex_wake(_Atomic uint32_t *word, int count)
{
    (void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}
