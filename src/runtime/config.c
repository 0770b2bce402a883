// SPDX-License-Identifier: Apache-2.0
/* Configuration: the defaults, the WEFT_* environment, and the ranges
 * weft_start accepts (docs/configuration.md lists every knob).
 *
 * Every value is checked, from the environment or from a weft_config
 * field, and one that is malformed or out of range is refused with EINVAL
 * and a message naming the variable or the field; nothing is clamped or
 * ignored silently.  Numbers are plain decimal digits (sizes may end in K,
 * M or G): no sign, no spaces, no other suffix. */
#include "runtime/config.h"

#include "observe/hooks.h"
#include "runtime/diagnostics.h"
#include "runtime/env.h"
#include "runtime/memory.h"
#include "runtime/parking.h"
#include "runtime/state.h"
#include "runtime/topology.h"
#include "sys/cpu.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_DEQUE_SLOTS ((size_t)1 << 20) /* 64 MiB of address space */
#define MIN_DEQUE_SLOTS WEFT_MIN_DEQUE_SLOTS
#define DEFAULT_IDLE_SPIN_US 500u
#define MAX_IDLE_SPIN_US WEFT_MAX_SPIN_US
#define DEFAULT_STACK_SIZE WEFT_DEFAULT_STACK_SIZE
#define MIN_STACK_SIZE WEFT_MIN_STACK_SIZE
#define MAX_STACK_SIZE WEFT_MAX_STACK_SIZE
#define MAX_SI_DELTA_US 1000000u /* 1 s */

/* ------------------------------------------------------------------------
 * weft_config: defaults and environment
 * ------------------------------------------------------------------------ */

/* Every variable is read (and every malformed one reported), not only up
 * to the first bad one; the bad ones leave their field at its default. */
static int config_from_env(weft_config *cfg)
{
    int err = 0;
    uint64_t v;

    v = cfg->workers;
    err |= weft__env_number("WEFT_WORKERS", false, 1, WEFT_MAX_WORKERS, true, "workers", &v);
    cfg->workers = (unsigned)v;
    v = cfg->deque_size;
    err |= weft__env_number("WEFT_DEQUE_SIZE", true, MIN_DEQUE_SLOTS, WEFT_MAX_DEQUE_SLOTS, true,
                            "task slots", &v);
    cfg->deque_size = (size_t)v;
    v = cfg->stack_size;
    err |= weft__env_number("WEFT_STACK_SIZE", true, MIN_STACK_SIZE, MAX_STACK_SIZE, true, "bytes",
                            &v);
    cfg->stack_size = (size_t)v;
    v = cfg->idle_spin_us;
    err |= weft__env_number("WEFT_SPIN_US", false, 0, MAX_IDLE_SPIN_US, false, "microseconds", &v);
    cfg->idle_spin_us = (unsigned)v;

    static const char *const policies[] = {"random", "leapfrog", "transitive"};
    int policy = (int)cfg->steal_policy;
    err |= weft__env_choice("WEFT_STEAL", policies, 3, &policy);
    cfg->steal_policy = (weft_steal_policy)policy;

    static const char *const pins[] = {"auto", "off", "on", "0", "1"};
    static const int pin_value[] = {-1, 0, 1, 0, 1};
    int pin = -1;
    if (weft__env_choice("WEFT_PIN", pins, 5, &pin) != 0)
        err |= EINVAL;
    else if (pin >= 0)
        cfg->pin = pin_value[pin];

    static const char *const onoff[] = {"0", "1"};
    int report = cfg->report_stack_overflow ? 1 : 0;
    err |= weft__env_choice("WEFT_STACK_OVERFLOW_HANDLER", onoff, 2, &report);
    cfg->report_stack_overflow = report == 1;
    return err ? EINVAL : 0;
}

int weft_config_init(weft_config *cfg)
{
    if (!cfg) {
        weft__warn("weft_config_init: cfg is NULL");
        return EINVAL;
    }
    memset(cfg, 0, sizeof *cfg);
    cfg->steal_policy = WEFT_STEAL_LEAPFROG_RANDOM;
    cfg->pin = -1;
    cfg->idle_spin_us = DEFAULT_IDLE_SPIN_US;
    cfg->report_stack_overflow = true;
    return config_from_env(cfg);
}

/* ------------------------------------------------------------------------
 * Process-wide variables (not weft_config fields): checked at every start
 * ------------------------------------------------------------------------ */

static bool print_stats_at_stop;
/* WEFT_ACTIVE_LIMIT at the last start; UINT_MAX: unset (the default). */
static unsigned active_limit_env = UINT_MAX;

/* WEFT_PERTURB=<probability 0..1>[,<seed>] (perturb builds; perturb.c). */
static bool perturb_value_ok(const char *s)
{
    char *end;
    errno = 0;
    double p = strtod(s, &end);
    if (*s < '0' || *s > '9' || errno || end == s || !(p >= 0.0 && p <= 1.0))
        return false;
    if (*end == ',') {
        uint64_t seed;
        return weft__parse_number(end + 1, false, &seed);
    }
    return *end == '\0';
}

static int check_process_env(void)
{
    int err = 0;
    static const char *const onoff[] = {"0", "1"};
    int stats = 0;
    err |= weft__env_choice("WEFT_STATS", onoff, 2, &stats);
    print_stats_at_stop = stats == 1;
    /* Read where workers are started (topology.c), checked here so that
     * a value other than 0 or 1 is refused rather than taken as 0. */
    int quiet = 0;
    err |= weft__env_choice("WEFT_OVERSUBSCRIBE", onoff, 2, &quiet);
    uint64_t limit = UINT_MAX;
    err |=
        weft__env_number("WEFT_ACTIVE_LIMIT", false, 0, WEFT_MAX_WORKERS, false, "workers", &limit);
    active_limit_env = (unsigned)limit;
    /* Read by the private-si scheduler (sched/private-si), checked here
     * whatever the scheduler so that a typo is never ignored. */
    uint64_t delta;
    err |= weft__env_number("WEFT_SI_DELTA_US", false, 0, MAX_SI_DELTA_US, false, "microseconds",
                            &delta);
    err |= weft__profile_check_env();
    err |= weft__trace_check_env();
    if (WEFT_PERTURB) {
        const char *s = weft__env_value("WEFT_PERTURB");
        if (s && !perturb_value_ok(s)) {
            weft__warn("WEFT_PERTURB='%s': expected <probability 0..1>[,<seed>], e.g. 0.05 or "
                       "0.05,42",
                       s);
            err |= EINVAL;
        }
    }
    return err ? EINVAL : 0;
}

bool weft__stats_print_at_stop(void) { return print_stats_at_stop; }

unsigned weft__config_active_limit(unsigned workers, unsigned cpus)
{
    unsigned limit = active_limit_env == UINT_MAX ? cpus : active_limit_env;
    return limit != 0 && limit < workers ? limit : 0;
}

/* ------------------------------------------------------------------------
 * weft_start's checks
 * ------------------------------------------------------------------------ */

int weft__config_validate(const weft_config *cfg, unsigned *workers, size_t *slots, size_t *stack,
                          unsigned *cpus)
{
    int err = check_process_env();
    const char *start = weft__words()->start; /* the call: weft_start, lace_start, ... */
    if (cfg->workers > WEFT_MAX_WORKERS) {
        weft__warn("%s: %u workers requested; weft supports 1 to %u (0: one per CPU)", start,
                   cfg->workers, WEFT_MAX_WORKERS);
        err = EINVAL;
    }
    if (cfg->deque_size != 0 &&
        (cfg->deque_size < MIN_DEQUE_SLOTS || cfg->deque_size > WEFT_MAX_DEQUE_SLOTS)) {
        weft__warn("%s: deque size %zu task slots is out of range: %zu to %zu (0: the "
                   "default, %zu)",
                   start, cfg->deque_size, MIN_DEQUE_SLOTS, WEFT_MAX_DEQUE_SLOTS,
                   DEFAULT_DEQUE_SLOTS);
        err = EINVAL;
    }
    if (cfg->stack_size != 0 &&
        (cfg->stack_size < MIN_STACK_SIZE || cfg->stack_size > MAX_STACK_SIZE)) {
        weft__warn("%s: stack size %zu bytes is out of range: %zu to %zu (0: the default, "
                   "%zu)",
                   start, cfg->stack_size, MIN_STACK_SIZE, MAX_STACK_SIZE, DEFAULT_STACK_SIZE);
        err = EINVAL;
    }
    if (cfg->steal_policy != WEFT_STEAL_LEAPFROG_RANDOM &&
        cfg->steal_policy != WEFT_STEAL_LEAPFROG && cfg->steal_policy != WEFT_STEAL_TRANSITIVE) {
        weft__warn("%s: unknown steal_policy %d", start, (int)cfg->steal_policy);
        err = EINVAL;
    }
    if (cfg->pin < -1 || cfg->pin > 1) {
        weft__warn("%s: pin must be -1 (auto), 0 or 1, got %d", start, cfg->pin);
        err = EINVAL;
    }
    if (cfg->idle_spin_us > MAX_IDLE_SPIN_US) {
        weft__warn("%s: idle_spin_us %u is out of range: 0 to %u microseconds", start,
                   cfg->idle_spin_us, MAX_IDLE_SPIN_US);
        err = EINVAL;
    }
    weft__cpu_budget budget = weft__cpu_budget_read();
    *cpus = budget.usable;
    *workers = cfg->workers ? cfg->workers : budget.usable;
    if (cfg->workers && err == 0)
        weft__note_oversubscription(weft__words()->start, cfg->workers, budget);
    if (*workers > WEFT_MAX_WORKERS)
        *workers = WEFT_MAX_WORKERS; /* more CPUs than weft supports: use the most it does */
    *slots = cfg->deque_size ? cfg->deque_size : DEFAULT_DEQUE_SLOTS;
    *stack = cfg->stack_size ? cfg->stack_size : DEFAULT_STACK_SIZE;
    return err;
}
