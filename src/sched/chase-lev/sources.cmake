# SPDX-License-Identifier: Apache-2.0
# Chase-Lev's growable circular deque of task pointers.
set(WEFT_SCHED_SOURCES chase_lev_deque.c)
set(WEFT_SCHED_TESTS test_chase_lev_deque.c)
