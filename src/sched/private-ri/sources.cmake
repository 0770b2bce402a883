# SPDX-License-Identifier: Apache-2.0
# Receiver-initiated private deques (Acar et al., Figure 2 / Figure 8),
# over the base shared with private-si.
set(WEFT_SCHED_SOURCES ../private-common/private_deque.c private_ri.c)
set(WEFT_SCHED_TESTS ../private-common/test_private_deque.c)
# Installed beside state.h, which includes it.
set(WEFT_SCHED_HEADERS ../private-common/state_base.h)
