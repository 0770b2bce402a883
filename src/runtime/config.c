/* Configuration: the defaults, the WEFT_* environment, and the ranges
 * weft_start accepts (docs/configuration.md lists every knob). */
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

/* Parses a size with an optional K/M/G suffix (powers of 1024). */
static bool parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return false;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10, end++;
    else if (*end == 'm' || *end == 'M')
        shift = 20, end++;
    else if (*end == 'g' || *end == 'G')
        shift = 30, end++;
    if (*end != '\0' || (shift && v > (ULLONG_MAX >> shift)))
        return false;
    *out = (size_t)(v << shift);
    return true;
}

/* Reads a size from the environment into *out; leaves it alone if unset. */
static int env_size(const char *name, size_t *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    if (!parse_size(s, out)) {
        weft_warn("%s='%s' is not a size (a number, optionally with K, M or G)", name, s);
        return EINVAL;
    }
    return 0;
}

static int env_choice(const char *name, const char *const *names, int n, int *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcasecmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    weft_warn("%s='%s' is not one of the accepted values", name, s);
    return EINVAL;
}

static int config_from_env(weft_config *cfg)
{
    int err = 0;
    size_t workers = cfg->workers, spin = cfg->idle_spin_us;
    if (env_size("WEFT_WORKERS", &workers) || env_size("WEFT_DEQUE_SIZE", &cfg->deque_size) ||
        env_size("WEFT_STACK_SIZE", &cfg->stack_size) || env_size("WEFT_SPIN_US", &spin))
        err = EINVAL;
    cfg->workers = workers > UINT_MAX ? UINT_MAX : (unsigned)workers; /* validated at start */
    cfg->idle_spin_us = spin > 10000000 ? 10000000u : (unsigned)spin;

    static const char *const policies[] = {"random", "leapfrog", "transitive"};
    int policy = (int)cfg->steal_policy;
    if (env_choice("WEFT_STEAL", policies, 3, &policy))
        err = EINVAL;
    cfg->steal_policy = (weft_steal_policy)policy;

    static const char *const pins[] = {"auto", "0", "1", "off", "on"};
    int pin = -1;
    if (env_choice("WEFT_PIN", pins, 5, &pin))
        err = EINVAL;
    else if (pin >= 0)
        cfg->pin = pin == 0 ? -1 : (pin == 1 || pin == 3) ? 0 : 1;

    static const char *const onoff[] = {"0", "1"};
    int report = cfg->report_stack_overflow ? 1 : 0;
    if (env_choice("WEFT_STACK_OVERFLOW_HANDLER", onoff, 2, &report))
        err = EINVAL;
    cfg->report_stack_overflow = report == 1;
    return err;
}

int weft_config_init(weft_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->steal_policy = WEFT_STEAL_LEAPFROG_RANDOM;
    cfg->pin = -1;
    cfg->idle_spin_us = DEFAULT_IDLE_SPIN_US;
    cfg->report_stack_overflow = true;
    return config_from_env(cfg);
}

int weft_config_validate(const weft_config *cfg, unsigned *workers, size_t *slots, size_t *stack)
{
    *workers = cfg->workers ? cfg->workers : weft_cpus_available();
    *slots = cfg->deque_size ? cfg->deque_size : DEFAULT_DEQUE_SLOTS;
    *stack = cfg->stack_size ? cfg->stack_size : DEFAULT_STACK_SIZE;
    if (*workers < 1 || *workers > WEFT_MAX_WORKERS) {
        weft_warn("weft_start: %u workers requested; weft supports 1 to %u", *workers,
                  WEFT_MAX_WORKERS);
        return EINVAL;
    }
    if (*slots < MIN_DEQUE_SLOTS || *slots > WEFT_MAX_DEQUE_SLOTS) {
        weft_warn("weft_start: deque size %zu tasks is out of range [%zu, %zu]", *slots,
                  MIN_DEQUE_SLOTS, WEFT_MAX_DEQUE_SLOTS);
        return EINVAL;
    }
    if (*stack < MIN_STACK_SIZE || *stack > MAX_STACK_SIZE) {
        weft_warn("weft_start: stack size %zu bytes is out of range [%zu, %zu]", *stack,
                  MIN_STACK_SIZE, MAX_STACK_SIZE);
        return EINVAL;
    }
    if (cfg->steal_policy != WEFT_STEAL_LEAPFROG_RANDOM && cfg->steal_policy != WEFT_STEAL_LEAPFROG &&
        cfg->steal_policy != WEFT_STEAL_TRANSITIVE) {
        weft_warn("weft_start: unknown steal policy %d", (int)cfg->steal_policy);
        return EINVAL;
    }
    if (cfg->pin < -1 || cfg->pin > 1) {
        weft_warn("weft_start: pin must be -1 (auto), 0 or 1, got %d", cfg->pin);
        return EINVAL;
    }
    return 0;
}

