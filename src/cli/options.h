/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_OPTIONS_H
#define PSTAT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/topology.h"
#include "run/control.h"

/* One -G LIST, given after `after` -e lists. */
struct pstat_cgroup_arg {
	const char *list;
	size_t after;
};

struct pstat_opts {
	char **events;           /* each -e LIST, in order */
	size_t nevents;
	int detailed;            /* -d: 1, -dd: 2, -ddd: 3 */
	int null_run;            /* -n: no default events */
	int quiet;               /* --quiet: no report */
	const char *pre_cmd;     /* --pre CMD: before each run */
	const char *post_cmd;    /* --post CMD: after each run */
	int summary;             /* --summary: the summary after -I (table, CSV) */
	int no_csv_summary;      /* --no-csv-summary */
	int no_merge;            /* --no-merge: a row per PMU instance */
	int sync;                /* -S: sync(2) before each run */
	char **metrics;          /* each -M LIST */
	size_t nmetrics;
	char **metric_defs;      /* each --metric DEF */
	size_t nmetric_defs;
	char **metric_files;     /* each --metrics-file FILE */
	size_t nmetric_files;
	uint64_t td_level;       /* --topdown 1, --td-level N; 0: none */
	int metric_only;         /* --metric-only */
	int metric_no_group;     /* --metric-no-group */
	int no_inherit;          /* -i */
	const char *output;      /* -o FILE */
	int log_fd;              /* --log-fd FD, or -1 */
	int append;              /* --append */
	int json;                /* -j: 1; --json=perf: 2 */
	const char *csv_sep;     /* -x SEP */
	int openmetrics;         /* --openmetrics 1, --prometheus 2 */
	const char *openmetrics_opt;  /* which, for messages */
	int big_num;             /* -B 1, --no-big-num 0, default -1 */
	int dry_run;             /* --dry-run */
	unsigned fail_on;        /* --fail-on */
	const char *pids;        /* -p LIST */
	const char *tids;        /* -t LIST */
	int all_cpus;            /* -a */
	const char *cpu_list;    /* -C LIST */
	int no_aggr;             /* -A */
	int per_thread;          /* --per-thread */
	enum pstat_aggr_mode aggr;  /* --per-socket, ...: AGGR_NONE when none */
	int aggr_cache_level;    /* --per-cache=LEVEL, 0: each CPU's last */
	const char *aggr_opt;    /* which --per-*, for messages */
	uint64_t timeout_ms;     /* --timeout, 0 = none */
	uint64_t delay_ms;       /* -D */
	int start_disabled;      /* -D -1 */
	struct pstat_control_spec control;  /* --control */
	int have_control;
	struct pstat_cgroup_arg *cgroups;  /* each -G, in order */
	size_t ncgroups;
	const char *for_each_cgroup;       /* --for-each-cgroup LIST */
	uint64_t repeat;         /* -r, default 1 */
	uint64_t warmup;         /* --warmup */
	int wait_close;          /* --wait-close */
	int keep_on_exit;        /* --keep-on-exit */
	uint64_t interval_ms;    /* -I, 0 = none */
	uint64_t interval_count; /* --interval-count, 0 = unlimited */
	const char *baseline;    /* --baseline FILE: compare the run to it */
	char **thresholds;       /* each --threshold SPEC (compare.h) */
	size_t nthresholds;
	const char *alpha;       /* --alpha A, checked by compare_cli */
	const char *compare_format; /* --format (--compare-format) FMT */
	const char *compare_format_opt; /* which of the two, for messages */
	const char *compare_output; /* --compare-output FILE */
	/* the simulated PMU (cli/sim_cli.h checks the values) */
	int sim;                 /* --sim: the default events on sim */
	char **sim_caches;       /* each --sim-cache LEVEL=SIZE,ASSOC,LINE */
	size_t nsim_caches;
	const char *sim_simulate;    /* --sim-simulate LIST */
	char **sim_toggles;      /* each --sim-toggle-collect FUNCTION */
	size_t nsim_toggles;
	char **argv;             /* the command, NULL-terminated, or NULL */
	int argc;
};

/*
 * Parse argv into o. Stops at the first non-option (the command keeps
 * its own flags). Returns 0 to go on, 1 when --help or --version was
 * handled (exit 0), or -1 after printing a usage error (exit 125).
 */
int options_parse(int argc, char **argv, struct pstat_opts *o);

/*
 * The perf stat option getopt_long did not know (short_name: the letter
 * it stopped at, or 0 for the long option arg, "--name[=value]"): when
 * it is one pstat deliberately lacks, say so and what to use instead
 * (one line, as an error) and return 1; else return 0.
 */
int options_refused(int short_name, const char *arg);

/*
 * The number arg of option opt into *out, within [min, max]; otherwise
 * report it (the range, or "not a number"), with a hint to see help
 * ("pstat --help"), and return -1. Returns 0.
 */
int options_number(const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *out, const char *help);

/* Free what o holds. */
void options_free(struct pstat_opts *o);

/* Print the usage text to stdout. */
void options_usage(void);

#endif
