/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CPUMAP_H
#define PSTAT_CPUMAP_H

#include <stddef.h>

#include "base/msg.h"

/*
 * Parse a CPU list such as "0-3,7" into a new sorted array without
 * duplicates (caller frees). Returns 0, or -1 with err filled.
 */
int cpumap_parse(const char *s, int **cpus, size_t *n,
		 struct pstat_error *err);

/*
 * The online CPUs from <sysfs_root>/devices/system/cpu/online (root NULL
 * means /sys). Returns 0, or -errno.
 */
int cpumap_online(const char *sysfs_root, int **cpus, size_t *n);

/* Whether cpu is in the sorted list cpus[0..n-1]. */
int cpumap_has(const int *cpus, size_t n, int cpu);

/*
 * Write the sorted list cpus[0..n-1] into buf as ranges ("0-3,7"),
 * truncated to len bytes. Returns buf.
 */
char *cpumap_format(const int *cpus, size_t n, char *buf, size_t len);

#endif
