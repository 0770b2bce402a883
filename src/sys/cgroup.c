// SPDX-License-Identifier: Apache-2.0
/* The process's CPU quota from its cgroups (see cgroup.h).
 *
 * The kernel lets a cgroup run `quota` microseconds of CPU time in every
 * `period`; quota / period CPUs is what the group may use, and a child
 * group never gets more than its ancestors.  Both cgroup versions are read:
 * v1 when the cpu controller is mounted on a v1 hierarchy (hybrid systems
 * have both, the controller in one of them), v2 otherwise.  A file that is
 * missing or holds something else than a quota means "no limit here":
 * nothing read here can make the process fail, only fall back to the
 * affinity mask. */
#include "sys/cgroup.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file root + path, or NULL (missing or unreadable): a malloc'ed
 * NUL-terminated string. */
static char *read_text(const char *root, const char *path)
{
    size_t n = strlen(root) + strlen(path) + 1;
    char *name = malloc(n);
    if (!name)
        return NULL;
    snprintf(name, n, "%s%s", root, path);
    FILE *f = fopen(name, "r");
    free(name);
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        len += fread(text + len, 1, cap - 1 - len, f);
        if (len < cap - 1 || ferror(f))
            break;
        char *bigger = realloc(text, cap * 2);
        if (!bigger) {
            free(text);
            text = NULL;
            break;
        }
        text = bigger;
        cap *= 2;
    }
    bool failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

/* This system's /proc/self/mountinfo, read once.  Where the cgroup
 * hierarchies are mounted does not change while a program runs (short of
 * it mounting them again in a namespace of its own), and the kernel
 * formats the whole table at each read: that was half of the time a work
 * pool of one worker took to start and stop.  The process's cgroup and
 * the quota files are read at each call. */
static pthread_once_t system_mounts_once = PTHREAD_ONCE_INIT;
static char *system_mounts;

static void read_system_mounts(void) { system_mounts = read_text("", "/proc/self/mountinfo"); }

/* root's /proc/self/mountinfo (a copy the caller frees: cgroup_dir cuts it
 * into lines), or NULL; a failed first read of this system's is not kept. */
static char *mount_table(const char *root)
{
    if (root[0] != '\0')
        return read_text(root, "/proc/self/mountinfo");
    pthread_once(&system_mounts_once, read_system_mounts);
    if (!system_mounts)
        return read_text(root, "/proc/self/mountinfo");
    return strdup(system_mounts);
}

/* Whether the comma-separated list names `item`. */
static bool list_has(const char *list, size_t list_len, const char *item)
{
    size_t n = strlen(item);
    const char *end = list + list_len;
    for (const char *p = list; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t len = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (len == n && memcmp(p, item, n) == 0)
            return true;
        p += len + 1;
    }
    return false;
}

/* A decimal number filling [s, s + len), at most 2^62 (a quota or
 * period in microseconds). */
static bool parse_count(const char *s, size_t len, unsigned long long *out)
{
    if (len == 0 || len > 19)
        return false;
    unsigned long long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned long long)(s[i] - '0');
    }
    if (v > (1ull << 62))
        return false;
    *out = v;
    return true;
}

/* The first line of `text` without surrounding blanks: [*s, *s + *len). */
static void first_line_trimmed(const char *text, const char **s, size_t *len)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t n = strcspn(text, "\n");
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\r'))
        n--;
    *s = text;
    *len = n;
}

/* The quota of one cgroup directory: true with *quota and *period set when
 * it has one. */
static bool read_quota(const char *root, const char *dir, bool v1, unsigned long long *quota,
                       unsigned long long *period)
{
    size_t n = strlen(dir) + sizeof "/cpu.cfs_period_us";
    char *path = malloc(n);
    if (!path)
        return false;
    bool found = false;
    const char *s;
    size_t len;
    if (!v1) {
        /* cgroup v2: "max 100000" (no limit) or "50000 100000". */
        snprintf(path, n, "%s/cpu.max", dir);
        char *text = read_text(root, path);
        if (text) {
            first_line_trimmed(text, &s, &len);
            const char *space = memchr(s, ' ', len);
            if (space) {
                size_t qlen = (size_t)(space - s);
                const char *p = space + 1;
                size_t plen = len - qlen - 1;
                found = parse_count(s, qlen, quota) && parse_count(p, plen, period);
            }
            free(text);
        }
    } else {
        /* cgroup v1: cpu.cfs_quota_us is -1 for no limit. */
        snprintf(path, n, "%s/cpu.cfs_quota_us", dir);
        char *q = read_text(root, path);
        snprintf(path, n, "%s/cpu.cfs_period_us", dir);
        char *p = read_text(root, path);
        if (q && p) {
            first_line_trimmed(q, &s, &len);
            if (parse_count(s, len, quota)) {
                first_line_trimmed(p, &s, &len);
                found = parse_count(s, len, period);
            }
        }
        free(q);
        free(p);
    }
    free(path);
    return found && *quota > 0 && *period > 0;
}

/* mountinfo writes a blank, tab, newline and backslash in a path as \ooo. */
static void unescape(char *s)
{
    char *out = s;
    for (char *p = s; *p;) {
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
            p[3] >= '0' && p[3] <= '7') {
            *out++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 4;
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
}

/* Whether `path` has a component that is exactly "..", as the path of a
 * process outside the cgroup namespace has ("/../x": the kernel goes up
 * from the namespace's root).  Names that only start with dots
 * ("..slice", "...") are names. */
static bool has_dotdot(const char *path)
{
    for (const char *p = path; *p;) {
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.')
            return true;
        p += len;
        p += strspn(p, "/");
    }
    return false;
}

/* In /proc/self/mountinfo's `text`, the mount of the hierarchy (v1: the
 * one with the cpu controller; v2: the unified one) whose root holds
 * `cgroup` (the process's path in that hierarchy): the directory of the
 * process's cgroup as a malloc'ed string, or NULL.  *top is set to the
 * length of its mount point, where the walk up stops. */
static char *cgroup_dir(char *text, const char *cgroup, bool v1, size_t *top)
{
    char *rest;
    for (char *line = strtok_r(text, "\n", &rest); line; line = strtok_r(NULL, "\n", &rest)) {
        /* id parent major:minor root mount-point options [optional...] -
         * fstype source super-options */
        char *sep = strstr(line, " - ");
        if (!sep)
            continue;
        *sep = '\0';
        char *fields = sep + 3;
        char *fstype = fields;
        char *source = strchr(fstype, ' ');
        if (!source)
            continue;
        *source++ = '\0';
        char *super = strchr(source, ' ');
        super = super ? super + 1 : source + strlen(source);
        if (v1 ? strcmp(fstype, "cgroup") != 0 || !list_has(super, strcspn(super, " "), "cpu")
               : strcmp(fstype, "cgroup2") != 0)
            continue;
        char *field[5];
        char *p = line;
        int k = 0;
        for (; k < 5 && p; k++) {
            field[k] = p;
            p = strchr(p, ' ');
            if (p)
                *p++ = '\0';
        }
        if (k < 5)
            continue;
        char *mount_root = field[3], *mount_point = field[4];
        unescape(mount_root);
        unescape(mount_point);
        /* The part of the process's path below the mount's root; a path
         * outside it (another cgroup namespace) leaves the mount point. */
        size_t rlen = strlen(mount_root);
        const char *below = "";
        if (strcmp(mount_root, "/") == 0)
            below = cgroup;
        else if (strncmp(cgroup, mount_root, rlen) == 0 &&
                 (cgroup[rlen] == '/' || cgroup[rlen] == '\0'))
            below = cgroup + rlen;
        if (has_dotdot(below))
            below = "";
        size_t plen = strlen(mount_point);
        while (plen > 1 && mount_point[plen - 1] == '/')
            plen--;
        if (plen == 1 && mount_point[0] == '/')
            plen = 0;
        size_t n = plen + strlen(below) + 1;
        char *dir = malloc(n);
        if (!dir)
            return NULL;
        memcpy(dir, mount_point, plen);
        strcpy(dir + plen, below);
        size_t dlen = strlen(dir);
        while (dlen > plen && dir[dlen - 1] == '/')
            dir[--dlen] = '\0';
        *top = plen;
        return dir;
    }
    return NULL;
}

unsigned weft__cgroup_cpu_limit(const char *root)
{
    char *self = read_text(root, "/proc/self/cgroup");
    if (!self)
        return 0;
    /* Lines "hierarchy-id:controllers:path"; v2's is "0::path". */
    char *v1_path = NULL, *v2_path = NULL;
    char *rest;
    for (char *line = strtok_r(self, "\n", &rest); line; line = strtok_r(NULL, "\n", &rest)) {
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || c2[1] != '/')
            continue;
        if (c1 == line + 1 && line[0] == '0' && c2 == c1 + 1)
            v2_path = c2 + 1;
        else if (list_has(c1 + 1, (size_t)(c2 - c1 - 1), "cpu"))
            v1_path = c2 + 1;
    }
    char *mounts = mount_table(root);
    char *dir = NULL;
    size_t top = 0;
    bool v1 = false;
    if (mounts && v1_path) {
        dir = cgroup_dir(mounts, v1_path, true, &top);
        v1 = dir != NULL;
    }
    if (mounts && !dir && v2_path) {
        free(mounts); /* cgroup_dir cut the text into lines */
        mounts = mount_table(root);
        if (mounts)
            dir = cgroup_dir(mounts, v2_path, false, &top);
    }
    free(mounts);
    free(self);
    if (!dir)
        return 0;
    /* The smallest quota / period from the process's cgroup up to the
     * mount point, compared as fractions. */
    unsigned long long best_q = 0, best_p = 0;
    for (size_t len = strlen(dir);;) {
        unsigned long long q, p;
        if (read_quota(root, dir, v1, &q, &p) &&
            (best_p == 0 || (long double)q * best_p < (long double)best_q * p)) {
            best_q = q;
            best_p = p;
        }
        if (len <= top)
            break;
        while (len > top && dir[len - 1] != '/')
            len--;
        if (len > top)
            len--; /* the '/' before the last name */
        dir[len] = '\0';
    }
    free(dir);
    if (best_p == 0)
        return 0;
    unsigned long long cpus = best_q / best_p + (best_q % best_p != 0);
    return cpus > UINT_MAX ? UINT_MAX : cpus == 0 ? 1u : (unsigned)cpus;
}
