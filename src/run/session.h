/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SESSION_H
#define PSTAT_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/topology.h"
#include "events/encode.h"
#include "events/metric.h"
#include "report/print.h"
#include "run/control.h"
#include "run/sim_valgrind.h"

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
	/*
	 * -a --per-thread: tids are every thread in the system, counted as
	 * attached ones are; the report says system wide and, as perf's,
	 * leaves out the threads that counted nothing.
	 */
	int all_threads;
	/*
	 * --per-socket, --per-die, ...: with cpus, the counts of the CPUs
	 * of one unit of topo (borrowed; NULL: the units of unknown CPUs)
	 * are added up in one row per event; --per-cache's level, 0 for
	 * each CPU's last.
	 */
	enum pstat_aggr_mode aggr;
	const struct pstat_topo *topo;
	int aggr_cache_level;
	uint64_t timeout_ms, delay_ms;
	int start_disabled;                /* -D -1: until enabled by control */
	const struct pstat_control_spec *control;  /* --control, or NULL */
	uint64_t interval_ms, interval_count;
	unsigned repeat, warmup;
	unsigned fail_on;
	int wait_close;                    /* --wait-close */
	int keep_on_exit;                  /* --keep-on-exit */
	const char *pre_cmd, *post_cmd;    /* --pre, --post: sh -c, uncounted */
	int sync;                          /* -S: sync(2) before each run */
	struct pstat_printer *printer;     /* borrowed */
	const char *output_name;           /* for write errors */
	/* metrics (-M, --metric): NULL when none */
	const struct pstat_metric_set *metrics;     /* borrowed */
	const int *metric_input_row;       /* evlist row of each input */
	/*
	 * -G, --for-each-cgroup: the metrics' events are counted in this
	 * many cgroups (0: none), the k-th copy of input i at
	 * metric_input_row[i] + k * metric_copy_rows; each cgroup's
	 * metrics are computed from its own copy
	 */
	size_t metric_copies;
	int metric_copy_rows;
	const struct pstat_metric_consts *metric_consts;
	/* the default events' rows, before perf's Default metrics' (or 0) */
	size_t perf_default_rows;
	const char *sysfs_root;            /* PSTAT_SYSFS_ROOT, or NULL */
	/*
	 * The command runs under Valgrind, which counts the sim events
	 * (run/sim_valgrind.h); NULL when none is counted.
	 */
	const struct pstat_sim_cfg *sim;
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

/*
 * The runs of one command, one at a time, for `pstat bench`: the caller
 * interleaves the steps of several sessions (one per command) and runs
 * other commands between them. Counting is session_run's, run for run:
 * the same counters, scaling, states and, with events slow to close,
 * the same counters on pstat itself for every run.
 */
struct session;

/* What one run of session_step measured. */
struct pstat_step {
	int status;          /* as a shell reports it: the exit code, or
				128 + the signal; 126/127 when the exec
				failed */
	int signal;          /* the signal that ended the command, or 0 */
	int exec_err;        /* errno of a failed exec, or 0 */
	int interrupted;     /* SIGINT, SIGTERM or SIGHUP came (its
				number): stop */
	uint64_t elapsed_ns, user_ns, sys_ns;
	/* a recorded run's rows, borrowed until the next call; else 0 */
	const struct pstat_row *rows;
	size_t nrows;
};

/*
 * A session for cfg (borrowed: it must outlive the session), which
 * names a command; cfg->repeat is the number of runs expected (more
 * may be recorded), cfg->printer the one session_step_report prints
 * to. Installs the signal handlers as session_run does. New; free with
 * session_step_free.
 */
struct session *session_step_new(const struct pstat_session_cfg *cfg);

/*
 * Run the command once, counted; record is 0 for a warm-up run, which
 * is measured but kept out of the report. Returns 0 with *st filled,
 * also when the command failed or could not be executed, or -1 when
 * counting failed (reported).
 */
int session_step(struct session *s, int record, struct pstat_step *st);

/*
 * Print the summary of the recorded runs through cfg->printer, as
 * session_run prints it, with exit_status as pstat's status. Returns 0,
 * or -errno when no run was recorded or writing failed (not reported).
 */
int session_step_report(struct session *s, int exit_status);

/* Close the counters and free s; NULL is fine. */
void session_step_free(struct session *s);

#endif
