/* Configuration: the defaults, the WEFT_* environment, and the ranges
 * weft_start accepts (docs/configuration.md lists every knob).
 *
 * Every value is checked, from the environment or from a weft_config
 * field, and one that is malformed or out of range is refused with EINVAL
 * and a message naming the variable or the field; nothing is clamped or
 * ignored silently.  Numbers are plain decimal digits (sizes may end in K,
 * M or G): no sign, no spaces, no other suffix. */
#include "runtime/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_DEQUE_SLOTS ((size_t)1 << 20)          /* 64 MiB of address space */
#define DEFAULT_STACK_SIZE ((size_t)64 << 20)          /* address space; touched pages only */
#define MIN_STACK_SIZE ((size_t)64 << 10)
#define MAX_STACK_SIZE ((size_t)1 << 40)
#define MIN_DEQUE_SLOTS ((size_t)16)
#define DEFAULT_IDLE_SPIN_US 500u
#define MAX_IDLE_SPIN_US 10000000u                     /* 10 s */
#define MAX_SI_DELTA_US 1000000u                       /* 1 s */

/* ------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */

/* A decimal number, optionally (allow_suffix) with K, M or G (powers of
 * 1024).  False for anything else, or a value that does not fit 64 bits. */
static bool parse_number(const char *s, bool allow_suffix, uint64_t *out)
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
static const char *env(const char *name)
{
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

/* A number from the environment in [min, max] (0 allowed too if
 * zero_is_default) into *out; leaves *out alone if unset.  EINVAL with a
 * message naming the variable otherwise. */
static int env_number(const char *name, bool size, uint64_t min, uint64_t max, bool zero_is_default,
                      const char *unit, uint64_t *out)
{
    const char *s = env(name);
    if (!s)
        return 0;
    uint64_t v;
    if (!parse_number(s, size, &v)) {
        weft_warn("%s='%s' is not %s", name, s,
                  size ? "a size (decimal digits, optionally followed by K, M or G)"
                       : "a number (decimal digits only)");
        return EINVAL;
    }
    if ((v < min || v > max) && !(zero_is_default && v == 0)) {
        weft_warn("%s=%s is out of range: %llu to %llu %s%s", name, s, (unsigned long long)min,
                  (unsigned long long)max, unit, zero_is_default ? " (or 0: the default)" : "");
        return EINVAL;
    }
    *out = v;
    return 0;
}

/* One of `names` (case-insensitive) from the environment: its index into
 * *out; leaves *out alone if unset. */
static int env_choice(const char *name, const char *const *names, int n, int *out)
{
    const char *s = env(name);
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
        at += (size_t)snprintf(accepted + at, sizeof accepted - at, "%s%s", i ? ", " : "", names[i]);
    weft_warn("%s='%s' is not one of: %s", name, s, accepted);
    return EINVAL;
}

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
    err |= env_number("WEFT_WORKERS", false, 1, WEFT_MAX_WORKERS, true, "workers", &v);
    cfg->workers = (unsigned)v;
    v = cfg->deque_size;
    err |= env_number("WEFT_DEQUE_SIZE", true, MIN_DEQUE_SLOTS, WEFT_MAX_DEQUE_SLOTS, true,
                      "task slots", &v);
    cfg->deque_size = (size_t)v;
    v = cfg->stack_size;
    err |= env_number("WEFT_STACK_SIZE", true, MIN_STACK_SIZE, MAX_STACK_SIZE, true, "bytes", &v);
    cfg->stack_size = (size_t)v;
    v = cfg->idle_spin_us;
    err |= env_number("WEFT_SPIN_US", false, 0, MAX_IDLE_SPIN_US, false, "microseconds", &v);
    cfg->idle_spin_us = (unsigned)v;

    static const char *const policies[] = {"random", "leapfrog", "transitive"};
    int policy = (int)cfg->steal_policy;
    err |= env_choice("WEFT_STEAL", policies, 3, &policy);
    cfg->steal_policy = (weft_steal_policy)policy;

    static const char *const pins[] = {"auto", "off", "on", "0", "1"};
    static const int pin_value[] = {-1, 0, 1, 0, 1};
    int pin = -1;
    if (env_choice("WEFT_PIN", pins, 5, &pin) != 0)
        err |= EINVAL;
    else if (pin >= 0)
        cfg->pin = pin_value[pin];

    static const char *const onoff[] = {"0", "1"};
    int report = cfg->report_stack_overflow ? 1 : 0;
    err |= env_choice("WEFT_STACK_OVERFLOW_HANDLER", onoff, 2, &report);
    cfg->report_stack_overflow = report == 1;
    return err ? EINVAL : 0;
}

int weft_config_init(weft_config *cfg)
{
    if (!cfg) {
        weft_warn("weft_config_init: cfg is NULL");
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
        return parse_number(end + 1, false, &seed);
    }
    return *end == '\0';
}

static int check_process_env(void)
{
    int err = 0;
    static const char *const onoff[] = {"0", "1"};
    int stats = 0;
    err |= env_choice("WEFT_STATS", onoff, 2, &stats);
    print_stats_at_stop = stats == 1;
    /* Read by the private-si scheduler (sched/private-si), checked here
     * whatever the scheduler so that a typo is never ignored. */
    uint64_t delta;
    err |= env_number("WEFT_SI_DELTA_US", false, 0, MAX_SI_DELTA_US, false, "microseconds", &delta);
    err |= weft_profile_check_env();
    err |= weft_trace_check_env();
    if (WEFT_PERTURB) {
        const char *s = env("WEFT_PERTURB");
        if (s && !perturb_value_ok(s)) {
            weft_warn("WEFT_PERTURB='%s': expected <probability 0..1>[,<seed>], e.g. 0.05 or "
                      "0.05,42", s);
            err |= EINVAL;
        }
    }
    return err ? EINVAL : 0;
}

bool weft_stats_print_at_stop(void)
{
    return print_stats_at_stop;
}

/* The parsers, for the variables of profile.c and trace.c. */
int weft_config_env_number(const char *name, bool size, uint64_t min, uint64_t max,
                           const char *unit, uint64_t *out)
{
    return env_number(name, size, min, max, false, unit, out);
}

int weft_config_env_flag(const char *name, bool *out)
{
    static const char *const onoff[] = {"0", "1"};
    int v = *out ? 1 : 0;
    int err = env_choice(name, onoff, 2, &v);
    *out = v == 1;
    return err;
}

/* ------------------------------------------------------------------------
 * weft_start's checks
 * ------------------------------------------------------------------------ */

int weft_config_validate(const weft_config *cfg, unsigned *workers, size_t *slots, size_t *stack)
{
    int err = check_process_env();
    if (cfg->workers > WEFT_MAX_WORKERS) {
        weft_warn("weft_start: %u workers requested; weft supports 1 to %u (0: one per CPU)",
                  cfg->workers, WEFT_MAX_WORKERS);
        err = EINVAL;
    }
    if (cfg->deque_size != 0 &&
        (cfg->deque_size < MIN_DEQUE_SLOTS || cfg->deque_size > WEFT_MAX_DEQUE_SLOTS)) {
        weft_warn("weft_start: deque size %zu task slots is out of range: %zu to %zu (0: the "
                  "default, %zu)", cfg->deque_size, MIN_DEQUE_SLOTS, WEFT_MAX_DEQUE_SLOTS,
                  DEFAULT_DEQUE_SLOTS);
        err = EINVAL;
    }
    if (cfg->stack_size != 0 &&
        (cfg->stack_size < MIN_STACK_SIZE || cfg->stack_size > MAX_STACK_SIZE)) {
        weft_warn("weft_start: stack size %zu bytes is out of range: %zu to %zu (0: the default, "
                  "%zu)", cfg->stack_size, MIN_STACK_SIZE, MAX_STACK_SIZE, DEFAULT_STACK_SIZE);
        err = EINVAL;
    }
    if (cfg->steal_policy != WEFT_STEAL_LEAPFROG_RANDOM && cfg->steal_policy != WEFT_STEAL_LEAPFROG &&
        cfg->steal_policy != WEFT_STEAL_TRANSITIVE) {
        weft_warn("weft_start: unknown steal_policy %d", (int)cfg->steal_policy);
        err = EINVAL;
    }
    if (cfg->pin < -1 || cfg->pin > 1) {
        weft_warn("weft_start: pin must be -1 (auto), 0 or 1, got %d", cfg->pin);
        err = EINVAL;
    }
    if (cfg->idle_spin_us > MAX_IDLE_SPIN_US) {
        weft_warn("weft_start: idle_spin_us %u is out of range: 0 to %u microseconds",
                  cfg->idle_spin_us, MAX_IDLE_SPIN_US);
        err = EINVAL;
    }
    *workers = cfg->workers ? cfg->workers : weft_cpus_available();
    if (cfg->workers && err == 0)
        weft__note_oversubscription("weft_start", cfg->workers);
    if (*workers > WEFT_MAX_WORKERS)
        *workers = WEFT_MAX_WORKERS; /* more CPUs than weft supports: use the most it does */
    *slots = cfg->deque_size ? cfg->deque_size : DEFAULT_DEQUE_SLOTS;
    *stack = cfg->stack_size ? cfg->stack_size : DEFAULT_STACK_SIZE;
    return err;
}

/* ------------------------------------------------------------------------
 * More workers than CPUs
 * ------------------------------------------------------------------------ */

void weft__note_oversubscription(const char *who, unsigned workers)
{
    static atomic_bool said;
    unsigned cpus = weft_cpus_available();
    if (workers <= cpus)
        return;
    const char *quiet = env("WEFT_OVERSUBSCRIBE");
    if (quiet && strcmp(quiet, "1") == 0)
        return;
    if (quiet && strcmp(quiet, "0") != 0)
        weft_warn("WEFT_OVERSUBSCRIBE='%s' is not 0 or 1 (taken as 0)", quiet);
    /* Relaxed: only decides which caller prints the one line; it orders
     * nothing else. */
    if (atomic_exchange_explicit(&said, true, memory_order_relaxed))
        return;
    /* The launchers' own variables say that this process is an MPI rank,
     * whose CPU set the launcher may have narrowed (Open MPI binds each
     * rank to a core or a socket when there are few ranks). */
    const char *lift = NULL;
    if (env("OMPI_COMM_WORLD_SIZE"))
        lift = "; this MPI rank is bound to them: mpirun --bind-to none lifts the binding";
    else if (env("PMI_SIZE") || env("PMIX_RANK") || env("MV2_COMM_WORLD_SIZE"))
        lift = "; this MPI rank is bound to them: the launcher's option -bind-to none lifts the "
               "binding";
    weft_warn("%s: %u workers on %u CPU%s (the affinity mask allows %u), so they take turns%s "
              "(WEFT_OVERSUBSCRIBE=1 silences this)",
              who, workers, cpus, cpus == 1 ? "" : "s", cpus, lift ? lift : "");
}
