/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CGROUP_ARGS_H
#define PSTAT_CGROUP_ARGS_H

#include <stddef.h>

#include "cli/options.h"
#include "events/encode.h"

/*
 * The metrics' events counted once per cgroup: n copies (0: the
 * metrics count no cgroup), the k-th reading input i at its row
 * + k * rows.
 */
struct cgroup_copies {
	size_t n;
	int rows;
};

/*
 * Give the events of evl the cgroups of -G and --for-each-cgroup, by
 * perf's rules. -G pairs its names, in order and across all -G options,
 * with the events listed before it (an empty name leaves its event
 * unrestricted), and a single name given once goes to every event
 * before it. --for-each-cgroup repeats the whole list for each cgroup;
 * a name with regular expression characters stands for every cgroup
 * whose path it matches (*copies: how many times the list was
 * repeated, 0 without --for-each-cgroup). ends[i] is the number of
 * events evl held after the i-th -e list. With metrics, a -G before any
 * -e, or names past the events before it, name the metrics' cgroups
 * alone (cgroup_args_metrics). Returns 0, or -1 after reporting the
 * error.
 */
int cgroup_args_apply(const struct pstat_opts *o, const size_t *ends,
		      struct pstat_evlist *evl, struct cgroup_copies *copies);

/*
 * -G with metrics: the metrics' events, encoded apart in mevl (rows from
 * 0, input i read at input_row[i]), once per cgroup -G names (each once,
 * in the order first named), appended to evl; input_row made evl's rows
 * of the first copy. mevl is emptied. The metrics of each cgroup are
 * computed from its own copy. Returns 0.
 */
int cgroup_args_metrics(const struct pstat_opts *o, struct pstat_evlist *evl,
			struct pstat_evlist *mevl, int *input_row,
			size_t ninputs, struct cgroup_copies *copies);

#endif
