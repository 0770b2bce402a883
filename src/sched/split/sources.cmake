# SPDX-License-Identifier: Apache-2.0
# The split deque of Lace (Figure 4), the default scheduler.
set(WEFT_SCHED_SOURCES split_deque.c)
set(WEFT_SCHED_TESTS test_split_deque.c)
# Forced interleavings of Figure 4's races (perturb builds only).
set(WEFT_SCHED_RACE_TESTS test_split_races.c)
