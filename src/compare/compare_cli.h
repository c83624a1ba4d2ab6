/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_COMPARE_CLI_H
#define PSTAT_COMPARE_CLI_H

#include "base/outfile.h"
#include "compare/compare.h"
#include "compare/print_compare.h"
#include "report/print.h"

/*
 * The commands around compare.c: `pstat compare` and `pstat --baseline`.
 * They read the files, report errors ("pstat: ..." on stderr) and pick
 * the exit status: COMPARE_EXIT_* (0, 3, 4), or 125 for usage errors
 * and output that could not be written.
 */

/*
 * `pstat compare [--threshold SPEC]... [--alpha A] [--format FMT]
 * [-o FILE] BASE.json NEW.json`; argv[0] is "compare". Returns the exit
 * status.
 */
int compare_cli_main(int argc, char **argv);

/* What --baseline holds between the start and the end of a run. */
struct pstat_baseline {
	struct pstat_compare_run base;
	struct pstat_compare_rules rules;
	double alpha;
	enum pstat_compare_format format;
	const char *output;     /* --compare-output FILE, NULL: stdout */
	struct outfile out;     /* that file, opened before the run */
	int out_open;
};

/* What --baseline takes from the command line (all borrowed). */
struct pstat_baseline_cfg {
	const char *path;             /* --baseline FILE */
	char *const *thresholds;      /* each --threshold SPEC */
	size_t nthresholds;
	const char *alpha;            /* --alpha A, or NULL */
	const char *format;           /* --format FMT, or NULL */
	const char *format_opt;       /* which option gave it, for messages */
	const char *output;           /* --compare-output FILE, or NULL */
	struct outfile_wait *wait;    /* how to wait for a FIFO's reader */
};

/*
 * Before the run: check --threshold, --alpha and --format
 * (--compare-format), read cfg->path into b and open --compare-output,
 * so that a bad baseline or output fails before the command runs. Returns 0, or the exit status to end
 * with (reported): 125 for a bad option, COMPARE_EXIT_INCOMPARABLE for a
 * baseline that cannot be read or whose command failed.
 */
int compare_cli_baseline_load(struct pstat_baseline *b,
			      const struct pstat_baseline_cfg *cfg);

/*
 * After the run: when run_status is 0, compare what the capture printer
 * p (printer_capture_new) kept with the baseline and print that to
 * --compare-output or stdout, returning COMPARE_EXIT_* (or 125 when the
 * output fails). A failing run's status wins: it is returned as is,
 * with no comparison.
 */
int compare_cli_baseline_finish(struct pstat_baseline *b,
				struct pstat_printer *p, int run_status);

void compare_cli_baseline_free(struct pstat_baseline *b);

#endif
