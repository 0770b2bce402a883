// SPDX-License-Identifier: Apache-2.0
/* What tests/test_races.c expects of this scheduler: the race points it
 * marks, where two thieves race, and the scenarios that do not apply to
 * it, with the reason (the struct's fields are explained there).  Only
 * that test includes this file. */
static const scheduler_facts sched_race_facts = {
    "split", THIEF_ALL | ROLE(THIEF_BEFORE_ASK) | OWNER_ALL, WEFT_RP_THIEF_BEFORE_CLAIM, NULL, NULL,
    NULL};
