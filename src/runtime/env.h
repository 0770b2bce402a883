// SPDX-License-Identifier: Apache-2.0
/* Reading the WEFT_* environment (env.c): shared by the configuration,
 * the schedulers' own variables and the observability module.  Not
 * installed. */
#ifndef WEFT_RUNTIME_ENV_H
#define WEFT_RUNTIME_ENV_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal number, optionally (allow_suffix) with K, M or G (powers of
 * 1024).  False for anything else, or a value that does not fit 64 bits. */
bool weft__parse_number(const char *s, bool allow_suffix, uint64_t *out);
/* The value of an environment variable, or NULL if unset or empty. */
const char *weft__env_value(const char *name);
/* A number (size: with K, M or G) from the environment in [min, max] (0
 * allowed too if zero_is_default) into *out; unset leaves *out alone.
 * EINVAL with a message naming the variable otherwise. */
int weft__env_number(const char *name, bool size, uint64_t min, uint64_t max, bool zero_is_default,
                     const char *unit, uint64_t *out);
/* One of `names` (case-insensitive): its index into *out; unset leaves
 * *out alone; EINVAL with a message listing the accepted names. */
int weft__env_choice(const char *name, const char *const *names, int n, int *out);
/* 0 or 1 into *out; unset leaves it alone. */
int weft__env_flag(const char *name, bool *out);

#endif
