// SPDX-License-Identifier: Apache-2.0
/* The profiling-off tests' check, for C (check.h) and C++ (cpp/check.hpp),
 * either included first for CHECK: the calling worker's profiler state is
 * as the start left it with profiling off (no strand running, no figures,
 * no slot records or type rows mapped). */
#ifndef WEFT_TESTS_PROFILE_UNTOUCHED_H
#define WEFT_TESTS_PROFILE_UNTOUCHED_H

#include <weft/weft.h>

static inline void check_profile_untouched(const char *where)
{
    weft_worker *w = weft_self();
    CHECK(w != NULL, "%s: not on a worker", where);
    const weft_profile_worker *p = &w->prof;
    CHECK(p->off && p->strand_start == 0 && p->f.work == 0 && p->f.span_less_work == 0 &&
              p->f.tasks == 0 && p->f.spawns == 0 && p->f.type == 0 && p->paused_at == 0 &&
              p->slots == NULL && p->types == NULL,
          "%s: worker %u's profiler state was touched (off %d, strand_start %llu, work %llu, "
          "tasks %llu, spawns %llu, type %u)",
          where, weft_worker_id(w), (int)p->off, (unsigned long long)p->strand_start,
          (unsigned long long)p->f.work, (unsigned long long)p->f.tasks,
          (unsigned long long)p->f.spawns, (unsigned)p->f.type);
}

#endif
