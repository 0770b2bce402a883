# SPDX-License-Identifier: Apache-2.0
# Sender-initiated private deques (Acar et al., Figure 3), over the base
# shared with private-ri.
set(WEFT_SCHED_SOURCES ../private-common/private_deque.c private_si.c)
set(WEFT_SCHED_TESTS ../private-common/test_private_deque.c)
# Installed beside state.h, which includes it.
set(WEFT_SCHED_HEADERS ../private-common/state_base.h)
