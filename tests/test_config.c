// SPDX-License-Identifier: Apache-2.0
/* Configuration: every WEFT_* variable and weft_config field is checked;
 * a malformed or out-of-range value is refused with EINVAL and a message
 * that names it (docs/configuration.md gives the ranges).  Each case runs
 * in a child with its own environment. */
#include "check.h"

#include <errno.h>
#include <weft/weft.h>

/* The case a child runs: the variable to set and its value, or a field. */
static const char *env_name, *env_value;

static int start_with_env(void)
{
    setenv(env_name, env_value, 1);
    return weft_start(1, 0, 0);
}

/* WEFT_<name>=<value> makes weft_start return EINVAL with a message that
 * names the variable and contains `expect`. */
static void refuses(const char *name, const char *value, const char *expect)
{
    char buf[4096];
    env_name = name;
    env_value = value;
    int r = run_capturing_stderr(start_with_env, buf, sizeof buf);
    CHECK(r == EINVAL, "%s='%s': weft_start returned %d, not EINVAL (stderr: %s)", name, value, r,
          buf);
    CHECK(strstr(buf, name) != NULL, "%s='%s': the message does not name it: %s", name, value, buf);
    CHECK(strstr(buf, expect) != NULL, "%s='%s': the message lacks \"%s\": %s", name, value, expect,
          buf);
    printf("ok: %s='%s' -> %s", name, value, buf);
}

static int start_and_report_workers(void)
{
    setenv(env_name, env_value, 1);
    if (weft_start(0, 0, 0) != 0)
        return 100;
    unsigned n = weft_workers();
    weft_stop();
    return (int)n;
}

/* Several malformed variables: every one is reported, not only the first. */
static int start_with_three_bad(void)
{
    setenv("WEFT_WORKERS", "x", 1);
    setenv("WEFT_DEQUE_SIZE", "-5", 1);
    setenv("WEFT_STACK_SIZE", "1", 1);
    return weft_start(0, 0, 0);
}

/* A weft_config field out of range: EINVAL naming the field. */
static weft_config field_cfg;
static int start_with_field(void) { return weft_start_config(&field_cfg); }

static void field_refused(const char *expect)
{
    char buf[4096];
    int r = run_capturing_stderr(start_with_field, buf, sizeof buf);
    CHECK(r == EINVAL, "field: weft_start_config returned %d, not EINVAL (stderr: %s)", r, buf);
    CHECK(strstr(buf, expect) != NULL, "field: the message lacks \"%s\": %s", expect, buf);
    printf("ok: field -> %s", buf);
}

static int null_config(void)
{
    return weft_config_init(NULL) == EINVAL && weft_stats_get(NULL) == EINVAL ? 0 : 1;
}

int main(void)
{
    /* Leading whitespace, signs, suffixes where there are none, junk. */
    refuses("WEFT_SPIN_US", " -1", "not a number");
    refuses("WEFT_SPIN_US", "1G", "not a number");
    refuses("WEFT_SPIN_US", "99999999999", "out of range");
    refuses("WEFT_SPIN_US", "10000001", "out of range");
    refuses("WEFT_WORKERS", "2K", "not a number");
    refuses("WEFT_WORKERS", "4294967297", "out of range");
    refuses("WEFT_WORKERS", "99999999", "out of range");
    refuses("WEFT_WORKERS", "three", "not a number");
    refuses("WEFT_WORKERS", "+2", "not a number");
    refuses("WEFT_STACK_SIZE", "1", "out of range");
    refuses("WEFT_STACK_SIZE", "2T", "not a size");
    refuses("WEFT_DEQUE_SIZE", " -5", "not a size");
    refuses("WEFT_DEQUE_SIZE", "8", "out of range");
    refuses("WEFT_DEQUE_SIZE", "99999999999999999999", "is out of range"); /* over 64 bits */
    refuses("WEFT_STEAL", "sideways", "not one of");
    refuses("WEFT_PIN", "maybe", "not one of");
    refuses("WEFT_STACK_OVERFLOW_HANDLER", "yes", "not one of");
    refuses("WEFT_STATS", "on", "not one of");
    refuses("WEFT_SI_DELTA_US", "30us", "not a number");
    refuses("WEFT_SI_DELTA_US", "2000000", "out of range");
    refuses("WEFT_OVERSUBSCRIBE", "yes", "not one of");
    refuses("WEFT_OVERSUBSCRIBE", "2", "not one of");
    refuses("WEFT_ACTIVE_LIMIT", "-1", "not a number");
    refuses("WEFT_ACTIVE_LIMIT", "two", "not a number");
    refuses("WEFT_ACTIVE_LIMIT", "5000", "out of range");
#if WEFT_PERTURB
    refuses("WEFT_PERTURB", "2", "expected <probability");
    refuses("WEFT_PERTURB", "0.1,x", "expected <probability");
#endif

    /* Accepted forms. */
    char buf[4096];
    env_name = "WEFT_WORKERS";
    env_value = "3";
    CHECK(run_capturing_stderr(start_and_report_workers, buf, sizeof buf) == 3,
          "WEFT_WORKERS=3 did not give 3 workers: %s", buf);
    env_name = "WEFT_DEQUE_SIZE";
    env_value = "64K";
    CHECK(run_capturing_stderr(start_and_report_workers, buf, sizeof buf) != 100,
          "WEFT_DEQUE_SIZE=64K refused: %s", buf);

    CHECK(run_capturing_stderr(start_with_three_bad, buf, sizeof buf) == EINVAL, "three bad");
    CHECK(strstr(buf, "WEFT_WORKERS") && strstr(buf, "WEFT_DEQUE_SIZE") &&
              strstr(buf, "WEFT_STACK_SIZE"),
          "not every malformed variable was reported: %s", buf);
    printf("ok: three malformed variables, all reported\n");

    /* Fields. */
    CHECK(weft_config_init(&field_cfg) == 0, "config");
    field_cfg.idle_spin_us = 10000001;
    field_refused("idle_spin_us");
    CHECK(weft_config_init(&field_cfg) == 0, "config");
    field_cfg.workers = 99999;
    field_refused("99999 workers");
    CHECK(weft_config_init(&field_cfg) == 0, "config");
    field_cfg.deque_size = 3;
    field_refused("deque size 3");
    CHECK(weft_config_init(&field_cfg) == 0, "config");
    field_cfg.stack_size = 1000;
    field_refused("stack size 1000");
    CHECK(weft_config_init(&field_cfg) == 0, "config");
    field_cfg.pin = 7;
    field_refused("pin must be");
    CHECK(weft_config_init(&field_cfg) == 0, "config");
    field_cfg.steal_policy = (weft_steal_policy)9;
    field_refused("steal_policy");

    /* NULL pointers are refused with a message, not a crash. */
    CHECK(run_capturing_stderr(null_config, buf, sizeof buf) == 0, "NULL: %s", buf);
    CHECK(strstr(buf, "weft_config_init: cfg is NULL") &&
              strstr(buf, "weft_stats_get: out is NULL"),
          "NULL messages: %s", buf);
    printf("ok: NULL config and stats pointers -> EINVAL with messages\n");
    return 0;
}
