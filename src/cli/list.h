/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_LIST_H
#define PSTAT_LIST_H

#include <stdio.h>

struct pstat_list_opts {
	/*
	 * What to list, as perf list reads it, or NULL for everything: a
	 * section keyword (hw, sw, cache, pmu, tracepoint, ...), a word
	 * matched anywhere in a name, or an fnmatch pattern over names.
	 */
	const char *glob;
	int json;                  /* -j: one JSON document */
	int tracepoints;           /* --tracepoints: list them all */
	int names_only;            /* --names: one name per line (completion) */
	const char *sysfs_root;    /* NULL: /sys */
	const char *tracefs_root;  /* NULL: default tracefs */
};

/*
 * `pstat list [GLOB]`: what can be counted here, grouped (generic
 * hardware, software, cache, each sysfs PMU with its aliases and units,
 * tracepoints when the glob names a subsystem or with --tracepoints, and
 * the events of every PMU libpfm4 detects, with descriptions and umasks).
 * Marks which hardware PMUs the kernel exposes. Writes to out. Returns
 * 0, or -errno when writing failed.
 */
int list_run(const struct pstat_list_opts *o, FILE *out);

/*
 * `pstat list ARGS...` (argv[0] is "list"): read its options, list to
 * stdout. Returns the exit status (errors reported).
 */
int list_main(int argc, char **argv);

#endif
