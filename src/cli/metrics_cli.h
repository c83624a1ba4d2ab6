/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_METRICS_CLI_H
#define PSTAT_METRICS_CLI_H

#include <stdio.h>

#include "cli/options.h"
#include "events/encode.h"
#include "events/metric.h"
#include "events/metric_lib.h"

/*
 * The metrics of a run, from -M, --topdown/--td-level, --metric and
 * --metrics-file: the built-in library of this machine (or of the
 * PSTAT_SYSFS_ROOT tree), the set of metrics, and for each event they
 * read the evlist row that counts it.
 */
struct metrics_cli {
	int active;                     /* any metric was asked for */
	struct pstat_metric_lib lib;
	struct pstat_metric_set set;
	int *input_row;                 /* evlist row of each set input */
	/*
	 * A run of the default events with perf's Default group (the
	 * vendor's top-down levels perf 6.5+ adds): how many evlist rows
	 * the default events are, those after them being the metrics'
	 * (which the table leaves out, as perf); 0 otherwise
	 */
	size_t perf_default_rows;
};

/* Whether o asks for metrics (and the default events are then left out). */
int metrics_cli_wanted(const struct pstat_opts *o);

/*
 * Build mc from o and add the events the metrics read to evl (those
 * already in it are shared; a top-down group is added whole, slots
 * first); on a run of the default events, perf's Default group where
 * the vendor's data has one for this CPU (mc->perf_default_rows).
 * Errors are reported here, with a caret under the column of an
 * expression. Returns 0 or -1.
 */
int metrics_cli_build(struct metrics_cli *mc, const struct pstat_opts *o,
		      struct pstat_encode_ctx *ctx, const char *sysfs_root,
		      struct pstat_evlist *evl);
void metrics_cli_free(struct metrics_cli *mc);

/*
 * For metrics_cli_build (metrics_default.c): add perf's Default group
 * to mc's empty set where an Intel core PMU of pmus counts top-down (an
 * Arm core PMU lists the slot events) and the vendor's data has the group, noting evl's rows so far in
 * mc->perf_default_rows; returns 1, or 0 (mc left empty) where there is
 * none. metrics_default_inputs_ok: whether every event the group reads
 * encodes here (else said at -v).
 */
int metrics_default_add(struct metrics_cli *mc, struct pstat_pmus *pmus,
			const char *sysfs_root, struct pstat_evlist *evl);
int metrics_default_inputs_ok(const struct metrics_cli *mc,
			      struct pstat_encode_ctx *ctx);

/*
 * `pstat list metrics [-j|--names]`: the metrics of the library that
 * apply to this machine (or the sysfs_root tree), with their formulas,
 * to out; with names_only their groups' names and theirs, one a line.
 * Returns 0 or -errno.
 */
int metrics_cli_list(FILE *out, int json, int names_only,
		     const char *sysfs_root);

#endif
