/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SESSION_H
#define PSTAT_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/encode.h"
#include "report/print.h"
#include "run/control.h"

/* Exit statuses of pstat itself. */
#define EXIT_TIMEOUT       124
#define EXIT_FAIL_ON       5    /* --fail-on matched a counter */
#define EXIT_BROKEN_PIPE   (128 + SIGPIPE)  /* the output was closed */

/* --fail-on states */
#define FAIL_ON_NOT_SUPPORTED 0x1
#define FAIL_ON_NOT_COUNTED   0x2
#define FAIL_ON_MULTIPLEXED   0x4

struct pstat_session_cfg {
	const struct pstat_evlist *evl;    /* borrowed */
	char *const *argv;                 /* command, or NULL */
	enum pstat_target_kind kind;
	const pid_t *pids;                 /* -p: the processes */
	size_t npids;
	const pid_t *tids;                 /* -p/-t: the threads */
	size_t ntids;
	const int *cpus;                   /* -a/-C: the CPUs, else NULL */
	size_t ncpus;
	int cpu_subset;                    /* -C rather than -a */
	int inherit;
	int no_aggr;                       /* -A */
	int per_thread;                    /* --per-thread */
	uint64_t timeout_ms, delay_ms;
	int start_disabled;                /* -D -1: until enabled by control */
	const struct pstat_control_spec *control;  /* --control, or NULL */
	uint64_t interval_ms, interval_count;
	unsigned repeat, warmup;
	unsigned fail_on;
	int wait_close;                    /* --wait-close */
	int keep_on_exit;                  /* --keep-on-exit */
	struct pstat_printer *printer;     /* borrowed */
	const char *output_name;           /* for write errors */
};

/*
 * Run the measurement as configured: fork the command or attach,
 * count, print through cfg->printer, and return the exit status pstat
 * should end with (the command's, 128+N, 124 on --timeout, 125 when
 * pstat failed, EXIT_FAIL_ON, EXIT_BROKEN_PIPE when the output was
 * closed under it). Errors are reported here. *report_ok says whether
 * the report was written whole, whatever the status (the command's own
 * may be 125 or 141 too): the output file is kept then.
 */
int session_run(const struct pstat_session_cfg *cfg, bool *report_ok);

#endif
