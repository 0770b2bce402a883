// SPDX-License-Identifier: Apache-2.0
/* Reading the WEFT_* environment: every variable is checked, and one that
 * is malformed or out of range is refused with EINVAL and a message naming
 * it; nothing is clamped or ignored silently.  Numbers are plain decimal
 * digits (sizes may end in K, M or G): no sign, no spaces, no other
 * suffix. */
#include "runtime/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/diagnostics.h"

/* ------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */

/* A decimal number, optionally (allow_suffix) with K, M or G (powers of
 * 1024).  False for anything else, or a value that does not fit 64 bits. */
bool weft__parse_number(const char *s, bool allow_suffix, uint64_t *out)
{
    if (*s < '0' || *s > '9') /* no sign, no leading space */
        return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    unsigned shift = 0;
    if (allow_suffix && (*s == 'k' || *s == 'K'))
        shift = 10, s++;
    else if (allow_suffix && (*s == 'm' || *s == 'M'))
        shift = 20, s++;
    else if (allow_suffix && (*s == 'g' || *s == 'G'))
        shift = 30, s++;
    if (*s != '\0' || (shift && v > (UINT64_MAX >> shift)))
        return false;
    *out = v << shift;
    return true;
}

/* The value of an environment variable, or NULL if unset or empty. */
const char *weft__env_value(const char *name)
{
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

static int out_of_range(const char *name, const char *s, uint64_t min, uint64_t max,
                        bool zero_is_default, const char *unit)
{
    weft__warn("%s=%s is out of range: %llu to %llu %s%s", name, s, (unsigned long long)min,
               (unsigned long long)max, unit, zero_is_default ? " (or 0: the default)" : "");
    return EINVAL;
}

/* A number from the environment in [min, max] (0 allowed too if
 * zero_is_default) into *out; leaves *out alone if unset.  EINVAL with a
 * message naming the variable otherwise. */
int weft__env_number(const char *name, bool size, uint64_t min, uint64_t max, bool zero_is_default,
                     const char *unit, uint64_t *out)
{
    const char *s = weft__env_value(name);
    if (!s)
        return 0;
    uint64_t v;
    size_t digits = strspn(s, "0123456789");
    bool well_formed = digits > 0 && (s[digits] == '\0' || (size && s[digits + 1] == '\0' &&
                                                            strchr("kKmMgG", s[digits]) != NULL));
    if (!weft__parse_number(s, size, &v) && well_formed) /* more than 64 bits hold */
        return out_of_range(name, s, min, max, zero_is_default, unit);
    if (!well_formed) {
        weft__warn("%s='%s' is not %s", name, s,
                   size ? "a size (decimal digits, optionally followed by K, M or G)"
                        : "a number (decimal digits only)");
        return EINVAL;
    }
    if ((v < min || v > max) && !(zero_is_default && v == 0))
        return out_of_range(name, s, min, max, zero_is_default, unit);
    *out = v;
    return 0;
}

/* One of `names` (case-insensitive) from the environment: its index into
 * *out; leaves *out alone if unset. */
int weft__env_choice(const char *name, const char *const *names, int n, int *out)
{
    const char *s = weft__env_value(name);
    if (!s)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcasecmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    char accepted[128];
    size_t at = 0;
    for (int i = 0; i < n && at < sizeof accepted; i++)
        at +=
            (size_t)snprintf(accepted + at, sizeof accepted - at, "%s%s", i ? ", " : "", names[i]);
    weft__warn("%s='%s' is not one of: %s", name, s, accepted);
    return EINVAL;
}

int weft__env_flag(const char *name, bool *out)
{
    static const char *const onoff[] = {"0", "1"};
    int v = *out ? 1 : 0;
    int err = weft__env_choice(name, onoff, 2, &v);
    *out = v == 1;
    return err;
}
