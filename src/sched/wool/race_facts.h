// SPDX-License-Identifier: Apache-2.0
/* What tests/test_races.c expects of this scheduler: the race points it
 * marks, where two thieves race, and the scenarios that do not apply to
 * it, with the reason (the struct's fields are explained there).  Only
 * that test includes this file. */
static const scheduler_facts sched_race_facts = {
    "wool",
    THIEF_ALL | ROLE(THIEF_BEFORE_ASK) | ROLE(OWNER_BEFORE_PUBLISH) | ROLE(OWNER_PUBLISHED) |
        ROLE(OWNER_BEFORE_RECLAIM) | ROLE(OWNER_STOLEN_JOINED),
    WEFT_RP_THIEF_BEFORE_CLAIM,
    NULL,
    "its SYNC takes a public task back with the inlined CAS of owner.h, which has no race "
    "point (OWNER_BEFORE_RECLAIM marks privatizing)",
    "THIEF_CLAIMED comes before the thief settles its claim; the owner's SYNC waits for that "
    "without polling (the stall is at STEAL_TAKEN instead)"};
