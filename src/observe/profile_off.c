// SPDX-License-Identifier: Apache-2.0
/* The profiler's API in a build without it (-DWEFT_PROFILE=OFF, the
 * default): every call answers that there is nothing, or ENOTSUP
 * (weft/profile.h), and the runtime's hooks at start and stop do nothing.
 * The configuration calls (the burden, the environment) are profiler.c's
 * in both builds. */
#include "observe/profiler.h"

#include "runtime/diagnostics.h"

#include <weft/profile.h>

#include <errno.h>
#include <string.h>

#if !WEFT_PROFILE

weft_profile_mark weft_profile_begin(void)
{
    weft_profile_mark m;
    memset(&m, 0, sizeof m);
    return m;
}

int weft_profile_end(const weft_profile_mark *mark, const char *name)
{
    (void)mark;
    (void)name;
    return ENOTSUP;
}

size_t weft_profile_regions(weft_profile_region *out, size_t max)
{
    (void)out;
    (void)max;
    return 0;
}

size_t weft_profile_task_types(weft_profile_task_type *out, size_t max)
{
    (void)out;
    (void)max;
    return 0;
}

void weft_profile_reset(void) {}

int weft__profile_worker_init(weft_worker *w)
{
    (void)w;
    return 0;
}

void weft__profile_worker_destroy(weft_worker *w) { (void)w; }

void weft__profile_at_stop(void) {}

int weft_profile_print(FILE *out)
{
    if (!out) {
        weft__warn("weft_profile_print: out is NULL");
        return EINVAL;
    }
    /* The advice for the program that started the pool, if one runs (a
     * Lace program links the lace package's variant), else weft's. */
    const weft__api_words *api = weft__pool_starter();
    fprintf(out, "weft: the profiler is not compiled in (%s)\n",
            weft__profile_variant_advice(api != NULL ? api : weft__words()));
    return ENOTSUP;
}

int weft_profile_write_json(FILE *out)
{
    if (!out) {
        weft__warn("weft_profile_write_json: out is NULL");
        return EINVAL;
    }
    return ENOTSUP;
}

#endif
