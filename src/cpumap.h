/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CPUMAP_H
#define PSTAT_CPUMAP_H

#include <stddef.h>

#include "msg.h"

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

#endif
