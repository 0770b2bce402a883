// SPDX-License-Identifier: Apache-2.0
/* The profiler's tests: a finished region or a task type's row of the
 * profile, by its name (the test fails if there is none). */
#ifndef WEFT_TESTS_PROFILE_REGIONS_H
#define WEFT_TESTS_PROFILE_REGIONS_H

#include "check.h"

#include <stdio.h>
#include <string.h>
#include <weft/profile.h>

/* A report, weft_profile_print's or weft_profile_write_json's, as a
 * string to free (the test fails if it cannot be written). */
static inline char *profile_report(int (*write)(FILE *), const char *what)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && write(f) == 0, "%s", what);
    CHECK(fclose(f) == 0 && text != NULL, "%s: closing the stream", what);
    return text;
}

static inline weft_profile_region region_named(const char *name)
{
    weft_profile_region r[16];
    size_t n = weft_profile_regions(r, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        if (strcmp(r[i].name, name) == 0)
            return r[i];
    CHECK(false, "no region named %s (%zu regions)", name, n);
    return r[0];
}

static inline weft_profile_task_type task_type_named(const char *name)
{
    weft_profile_task_type t[256];
    size_t n = weft_profile_task_types(t, 256);
    for (size_t i = 0; i < n && i < 256; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i];
    CHECK(false, "no task type named %s (%zu task types)", name, n);
    return t[0];
}

#endif
