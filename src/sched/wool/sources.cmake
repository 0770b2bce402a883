# SPDX-License-Identifier: Apache-2.0
# Wool's direct task stack with private tasks (Figure 3, section III-B).
set(WEFT_SCHED_SOURCES wool_deque.c)
set(WEFT_SCHED_TESTS test_wool_deque.c)
