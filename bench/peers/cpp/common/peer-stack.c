// SPDX-License-Identifier: Apache-2.0
/* See peer-stack.h. */
#include "peer-stack.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uintptr_t peer_stack_floor(void)
{
    pthread_attr_t attr;
    void *low;
    size_t size;
    int err = pthread_getattr_np(pthread_self(), &attr);
    if (err == 0) {
        err = pthread_attr_getstack(&attr, &low, &size);
        pthread_attr_destroy(&attr);
    }
    if (err != 0) {
        fprintf(stderr, "peer: cannot find this thread's stack: %s\n", strerror(err));
        exit(1);
    }
    return (uintptr_t)low + PEER_STACK_MARGIN;
}

void peer_too_deep(const char *what, long depth)
{
    fprintf(stderr, "peer: %s deeper than the thread stacks allow (depth %ld reached)\n", what,
            depth);
    exit(1);
}
