/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CGROUP_ARGS_H
#define PSTAT_CGROUP_ARGS_H

#include <stddef.h>

#include "cli/options.h"
#include "events/encode.h"

/*
 * Give the events of evl the cgroups of -G and --for-each-cgroup, by
 * perf's rules. -G pairs its names, in order and across all -G options,
 * with the events listed before it (an empty name leaves its event
 * unrestricted), and a single name given once goes to every event
 * before it. --for-each-cgroup repeats the whole list for each cgroup;
 * a name with regular expression characters stands for every cgroup
 * whose path it matches. ends[i] is the number of events evl held after
 * the i-th -e list. Returns 0, or -1 after reporting the error.
 */
int cgroup_args_apply(const struct pstat_opts *o, const size_t *ends,
		      struct pstat_evlist *evl);

#endif
