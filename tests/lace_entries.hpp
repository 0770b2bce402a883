// SPDX-License-Identifier: Apache-2.0
// What tests/lace/test_lace_entries.cpp and tests/lace2/test_lace2_entries.cpp
// share: the pause that lets the workers fall asleep (then a RUN that may
// borrow a sleeping worker's place would, docs/sleep.md) and the watchdog
// that turns a hang into a message.
#ifndef WEFT_TESTS_LACE_ENTRIES_HPP
#define WEFT_TESTS_LACE_ENTRIES_HPP

#include <csignal>
#include <unistd.h>

#include "cpp/check.hpp"

constexpr int CALLS = 80;

// Every 8th call waits until the workers are asleep.
static inline void let_workers_sleep(int i)
{
    if (i % 8 == 0)
        usleep(30000);
}

// A call from outside that does not return within 240 s fails the test.
static inline void watch_for_hangs(void)
{
    std::signal(SIGALRM, [](int) {
        static const char msg[] = "lace entries test: an entry from outside did not return in "
                                  "240 s (a RUN waiting on a suspended pool?)\n";
        ssize_t r = write(2, msg, sizeof msg - 1);
        (void)r;
        _exit(1);
    });
    alarm(240);
}

#endif
