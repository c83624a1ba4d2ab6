/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TARGETS_H
#define PSTAT_TARGETS_H

#include <stddef.h>
#include <sys/types.h>

#include "cli/options.h"
#include "report/print.h"
#include "run/target.h"

/* What -p, -t, -a and -C name: processes, threads or CPUs. */
struct targets {
	pid_t *pids, *tids;
	size_t npids, ntids;
	int *cpus;
	size_t ncpus;
	enum pstat_target_kind kind;
	int all_threads;        /* -a --per-thread: tids are every thread */
};

/*
 * Fill t from the options: the pids and their threads, or the CPUs.
 * Reports errors. Returns 0 or -1; targets_free frees t either way.
 */
int targets_build(const struct pstat_opts *o, struct targets *t);
void targets_free(struct targets *t);

/*
 * events x CPUs x threads descriptors may exceed the soft limit: raise
 * it to the hard limit (the command gets its own back), or fail with
 * the number needed before anything is opened. need: the counters'
 * descriptors; npids: the -p processes. Returns 0 or -1 (reported).
 */
int targets_fd_limit(size_t need, size_t npids);

#endif
