// SPDX-License-Identifier: Apache-2.0
/* The cgroup CPU quota reader (src/sys/cgroup.c) against fixture trees:
 * /proc/self/cgroup, /proc/self/mountinfo and the cgroup files of v1 and v2
 * layouts, written under a temporary directory that stands for "/".
 * Nested limits (the smallest counts), "max" and -1, containers whose mount
 * root is their own cgroup, escaped mount points, group names that start
 * with dots beside paths with a ".." component (outside the namespace: the
 * mount point alone), and garbage, which must read as "no limit" and never
 * fail. */
#include "check.h"

#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>

#include "sys/cgroup.h"

static char root[64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* A fresh, empty fixture root. */
static void fresh(void)
{
    if (root[0])
        CHECK(nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0, "removing %s", root);
    snprintf(root, sizeof root, "/tmp/weft-cgroup-XXXXXX");
    CHECK(mkdtemp(root) != NULL, "mkdtemp: %s", strerror(errno));
}

/* Writes `text` to root + path, creating its directories. */
static void put(const char *path, const char *text)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s", root, path);
    for (char *slash = strchr(full + strlen(root) + 1, '/'); slash;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        CHECK(mkdir(full, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", full, strerror(errno));
        *slash = '/';
    }
    FILE *f = fopen(full, "w");
    CHECK(f != NULL, "fopen %s: %s", full, strerror(errno));
    fputs(text, f);
    CHECK(fclose(f) == 0, "fclose %s", full);
}

#define V2_MOUNT "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
#define PROC_MOUNT "22 1 0:21 / /proc rw,nosuid - proc proc rw\n"

static void expect_on(unsigned want, const char *what, const char *detail)
{
    unsigned got = weft__cgroup_cpu_limit(root);
    CHECK(got == want, "%s%s: %u CPUs, expected %u", what, detail, got, want);
    printf("ok: %s%s: %u\n", what, detail, got);
}

static void expect(unsigned want, const char *what) { expect_on(want, what, ""); }

int main(void)
{
    /* cgroup v2: a quota on the process's own group, rounded up. */
    fresh();
    put("/proc/self/cgroup", "0::/app.slice/job\n");
    put("/proc/self/mountinfo", PROC_MOUNT V2_MOUNT);
    put("/sys/fs/cgroup/app.slice/job/cpu.max", "150000 100000\n");
    expect(2, "v2, 1.5 CPUs");
    put("/sys/fs/cgroup/app.slice/job/cpu.max", "1000 100000\n");
    expect(1, "v2, 1% of a CPU (at least 1)");
    put("/sys/fs/cgroup/app.slice/job/cpu.max", "max 100000\n");
    expect(0, "v2, max");
    /* Nested: an ancestor's smaller quota counts; so does the group's own
     * when it is the smaller. */
    put("/sys/fs/cgroup/app.slice/cpu.max", "50000 100000\n");
    expect(1, "v2, max below an ancestor's half CPU");
    put("/sys/fs/cgroup/app.slice/cpu.max", "400000 100000\n");
    put("/sys/fs/cgroup/app.slice/job/cpu.max", "250000 100000\n");
    expect(3, "v2, 2.5 CPUs below an ancestor's 4");
    put("/sys/fs/cgroup/app.slice/job/cpu.max", "1000000 200000\n");
    expect(4, "v2, 5 CPUs (another period) below an ancestor's 4");
    /* The root group (no cpu.max there). */
    put("/proc/self/cgroup", "0::/\n");
    expect(0, "v2, the root group");

    /* Names that start with dots are names: only a component that is
     * exactly ".." leaves the namespace. */
    fresh();
    put("/proc/self/mountinfo", PROC_MOUNT V2_MOUNT);
    put("/proc/self/cgroup", "0::/..slice\n");
    put("/sys/fs/cgroup/..slice/cpu.max", "200000 100000\n");
    expect(2, "v2, a group named ..slice");
    put("/proc/self/cgroup", "0::/x/..slice\n");
    put("/sys/fs/cgroup/x/..slice/cpu.max", "300000 100000\n");
    expect(3, "v2, x/..slice");
    put("/proc/self/cgroup", "0::/x/..slice/y\n");
    put("/sys/fs/cgroup/x/..slice/y/cpu.max", "max 100000\n");
    expect(3, "v2, x/..slice/y below x/..slice's 3 CPUs");
    put("/sys/fs/cgroup/x/..slice/y/cpu.max", "50000 100000\n");
    expect(1, "v2, x/..slice/y, half a CPU");
    put("/proc/self/cgroup", "0::/...\n");
    put("/sys/fs/cgroup/.../cpu.max", "400000 100000\n");
    expect(4, "v2, a group named ...");
    put("/proc/self/cgroup", "0::/x/.../..z.\n");
    put("/sys/fs/cgroup/x/.../..z./cpu.max", "500000 100000\n");
    expect(5, "v2, x/.../..z.");
    put("/proc/self/cgroup", "4:cpu,cpuacct:/..batch/job\n");
    put("/proc/self/mountinfo",
        PROC_MOUNT "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n");
    put("/sys/fs/cgroup/cpu,cpuacct/..batch/cpu.cfs_quota_us", "150000\n");
    put("/sys/fs/cgroup/cpu,cpuacct/..batch/cpu.cfs_period_us", "100000\n");
    expect(2, "v1, job below ..batch's 1.5 CPUs");
    /* A path with a ".." component (outside the namespace) still reads
     * only the mount point: the quotas it would reach if followed are
     * never read. */
    fresh();
    put("/proc/self/mountinfo", PROC_MOUNT V2_MOUNT);
    put("/sys/fs/cpu.max", "100000 100000\n");          /* /sys/fs/cgroup/.. */
    put("/sys/fs/x/cpu.max", "100000 100000\n");        /* /sys/fs/cgroup/../x */
    put("/sys/fs/cgroup/x/cpu.max", "100000 100000\n"); /* a walk up from x/.. */
    const char *outside[] = {"/..", "/../x", "/x/..", "/x/../..", "/x/../../x", "/../..slice"};
    for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) {
        char line[64], detail[64];
        snprintf(line, sizeof line, "0::%s\n", outside[i]);
        snprintf(detail, sizeof detail, " %s", outside[i]);
        put("/proc/self/cgroup", line);
        expect_on(0, "v2, outside the namespace: the mount point alone,", detail);
    }
    put("/sys/fs/cgroup/cpu.max", "300000 100000\n");
    put("/proc/self/cgroup", "0::/x/..\n");
    expect(3, "v2, outside the namespace: the mount point's own quota, x/..");

    /* cgroup v1: cpu and cpuacct on one hierarchy; a container whose mount
     * root is its own group (no cgroup namespace). */
    fresh();
    put("/proc/self/cgroup", "5:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n0::/\n");
    put("/proc/self/mountinfo",
        PROC_MOUNT "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n"
                   "33 31 0:30 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
                   "32 31 0:29 /docker/abc /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup "
                   "rw,cpu,cpuacct\n" V2_MOUNT);
    put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "200000\n");
    put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    /* v2's file beside it is not read: the cpu controller is on v1. */
    put("/sys/fs/cgroup/cpu.max", "50000 100000\n");
    expect(2, "v1 in a container, 2 CPUs");
    put("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    expect(0, "v1, -1");
    /* v1 on the host: the group below the mount, nested. */
    put("/proc/self/cgroup", "4:cpu,cpuacct:/batch/job\n");
    put("/sys/fs/cgroup/cpu,cpuacct/batch/job/cpu.cfs_quota_us", "-1\n");
    put("/sys/fs/cgroup/cpu,cpuacct/batch/job/cpu.cfs_period_us", "100000\n");
    put("/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_quota_us", "75000\n");
    put("/sys/fs/cgroup/cpu,cpuacct/batch/cpu.cfs_period_us", "50000\n");
    expect(0, "v1, outside the container's mount root: the mount point alone");
    put("/proc/self/mountinfo",
        PROC_MOUNT "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n");
    expect(2, "v1, nested: 1.5 CPUs on the parent");

    /* A mount point with a blank (mountinfo writes it \040). */
    fresh();
    put("/proc/self/cgroup", "0::/job\n");
    put("/proc/self/mountinfo", "30 23 0:26 / /cg\\040root rw - cgroup2 cgroup2 rw\n");
    put("/cg root/job/cpu.max", "300000 100000\n");
    expect(3, "v2, an escaped mount point");

    /* Garbage reads as no limit at that level, and an ancestor's quota
     * still counts. */
    const char *garbage[] = {"",
                             "\n",
                             "fifty 100000\n",
                             "50000\n",
                             "50000 0\n",
                             "0 100000\n",
                             "-50000 100000\n",
                             "50000 100000x\n",
                             "99999999999999999999 1\n",
                             "50000  100000\n"};
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
        char detail[64];
        snprintf(detail, sizeof detail, " \"%.*s\"", (int)strcspn(garbage[i], "\n"), garbage[i]);
        put("/cg root/job/cpu.max", garbage[i]);
        expect_on(0, "v2, garbage", detail);
        put("/cg root/cpu.max", "50000 100000\n");
        expect_on(1, "v2, an ancestor's half CPU above garbage", detail);
        put("/cg root/cpu.max", "max 100000\n");
    }
    /* Garbage in the process's and the mounts' lists; missing files. */
    put("/cg root/job/cpu.max", "50000 100000\n");
    expect(1, "v2, half a CPU (before the garbage lists)");
    put("/proc/self/mountinfo", "nonsense\n - \n30 23 - cgroup2\n\n");
    expect(0, "mountinfo of garbage");
    put("/proc/self/mountinfo", "30 23 0:26 / /cg\\040root rw - cgroup2 cgroup2 rw\n");
    put("/proc/self/cgroup", "garbage\n::\n1:cpu\n");
    expect(0, "/proc/self/cgroup of garbage");
    put("/proc/self/cgroup", "");
    expect(0, "an empty /proc/self/cgroup");
    fresh();
    expect(0, "no files at all");

    CHECK(nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0, "removing %s", root);
    /* This machine's own answer: whatever it is, reading it succeeds. */
    printf("this system: %u\n", weft__cgroup_cpu_limit(""));
    return 0;
}
