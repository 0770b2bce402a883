// SPDX-License-Identifier: Apache-2.0
/* The CPU bandwidth the process's cgroups allow (a container's CPU quota:
 * `docker --cpus`, a Kubernetes CPU limit).  Not installed. */
#ifndef WEFT_SYS_CGROUP_H
#define WEFT_SYS_CGROUP_H

/* The smallest CPU quota of the process's cgroup and its ancestors, in
 * CPUs rounded up (at least 1), or 0 when none of them sets one or the
 * files cannot be read.  What is read (docs/configuration.md, "Worker
 * count"): /proc/self/cgroup for the process's cgroup, /proc/self/mountinfo
 * for where its hierarchy is mounted (this system's read at the first
 * call only), and in that directory and each
 * ancestor up to the mount point, cgroup v2's cpu.max or, when the cpu
 * controller is on a v1 hierarchy, cpu.cfs_quota_us and cpu.cfs_period_us.
 * `root` is put before every path read: "" for this system, a directory of
 * fixture files in tests. */
unsigned weft__cgroup_cpu_limit(const char *root);

#endif
