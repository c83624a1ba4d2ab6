/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_BENCH_RESULTS_H
#define PSTAT_BENCH_RESULTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "report/print.h"
#include "report/stats.h"

/*
 * `pstat bench`: what the runs of several commands measured, their
 * statistics, and each command against the first. The front end
 * (cli/bench.c) fills the samples; bench_analyze works out the rest,
 * with the statistics `pstat compare` uses (Welch's test and interval,
 * report/stats.h); the printers here write the table, the exports, the
 * pstat-bench/1 document and the plot. Nothing here runs anything.
 */

/* The times every run has, before the counters: rows 0, 1 and 2. */
#define BENCH_ROW_WALL 0
#define BENCH_ROW_USER 1
#define BENCH_ROW_SYS  2
#define BENCH_TIME_ROWS 3

/*
 * A run is an outlier when its wall time's modified z-score (0.6745
 * times its distance from the median over the median absolute
 * deviation) exceeds this: hyperfine's threshold.
 */
#define BENCH_OUTLIER_Z 14.0

/* -u: the unit of times; AUTO: per row, from its mean (as hyperfine). */
enum bench_time_unit {
	BENCH_UNIT_AUTO,
	BENCH_UNIT_US,
	BENCH_UNIT_MS,
	BENCH_UNIT_S,
};

/*
 * --sort: the order of the comparisons and of the Markdown table. AUTO:
 * comparisons by mean wall time, tables as given (hyperfine's auto).
 */
enum bench_sort {
	BENCH_SORT_AUTO,
	BENCH_SORT_COMMAND,
	BENCH_SORT_MEAN,
};

enum pstat_bench_verdict {
	BENCH_UNTESTED,         /* fewer than 2 samples on a side */
	BENCH_SAME,             /* no significant difference */
	BENCH_SLOWER,           /* significantly more than the first */
	BENCH_FASTER,           /* significantly less */
};

/* "slower", "faster", "no significant difference", "not tested";
 * json: "slower", "faster", "same", "untested". */
const char *bench_verdict_name(enum pstat_bench_verdict v, int json);

/* One measure of one command: a time, or a counter. */
struct pstat_bench_row {
	char *name;             /* "wall-time", "user-time", "sys-time", or
				   the event as written */
	char *unit;             /* "msec" for times and clocks, or the
				   counter's; "" when none */
	enum pstat_status status;   /* the worst state of any run */
	int hidden;             /* a default event this machine lacks */
	double *samples;        /* [run]; NaN when the run did not count it */
	double *running_pct;    /* [run]; counters only, else NULL */
	struct pstat_summary sum;   /* of the samples that are numbers;
				       n == 0 when none is */
	double running_min;     /* the lowest running_pct, 100 for times */
};

/* A run far from the rest, and what may explain it. */
struct pstat_bench_outlier {
	size_t run;
	double z;               /* its modified z-score */
	char reason[128];       /* "12 context switches (median 1)", or "" */
};

struct pstat_bench_cmd {
	char *name;             /* -n NAME, else the command */
	char *command;          /* the command as given */
	char *label;            /* name, control characters written out
				   (str_escape): for text, never raw */
	char *label_cmd;        /* command, the same way */
	size_t leftovers;       /* processes its runs left running (ended) */
	int via_shell;          /* run through the shell: its start-up is
				   subtracted (b->shell_probe) */
	char **param_names;     /* -L/-P: the lists' names and this */
	char **param_values;    /* command's values (new) */
	size_t nparams;
	char **argv;            /* as run (through the shell or split) */
	size_t runs;            /* recorded runs */
	size_t alloc;
	int *status;            /* [run]: as a shell reports it */
	double *start_ms;       /* [run]: since the bench started */
	size_t *seq;            /* [run]: its place among all runs, from 0 */
	struct pstat_bench_row *rows;
	size_t nrows;
	char *doc;              /* its pstat/1 summary document, or NULL */
	double per;             /* --per N: its counters divided; 0: off */
	struct pstat_bench_outlier *outliers;
	size_t noutliers;
};

/* One row of a command against the first command's same row. */
struct pstat_bench_diff {
	int tested;             /* both sides have 2 samples or more */
	double ratio;           /* mean / first's mean; NaN when unknown or
				   the first's mean is 0 */
	double ratio_lo, ratio_hi;  /* its interval at 1 - alpha (Fieller's),
				   lo >= 0, hi INFINITY when unbounded */
	double delta;           /* mean - first's mean */
	double ci_lo, ci_hi;    /* Welch's interval of delta at 1 - alpha */
	double p;               /* Welch's two-sided p-value */
	enum pstat_bench_verdict verdict;
};

struct pstat_bench {
	double alpha;
	int shuffle;            /* --order shuffle */
	uint64_t seed;
	unsigned warmup;
	size_t rounds;          /* rounds recorded (each runs every command) */
	struct timespec started_at;
	const char *shell;      /* "sh", or NULL with --shell=none */
	const char *per_unit;   /* --per-unit NAME ("requests"), or NULL */
	enum bench_time_unit time_unit;
	enum bench_sort sort;
	struct pstat_bench_cmd *cmds;
	size_t ncmds;
	struct pstat_bench_cmd *shell_probe;   /* `sh -c ''` in every round,
						  or NULL */
	struct pstat_bench_diff *diffs; /* [cmd * nrows + row]; cmd 0 none */
	int exit_status;        /* what pstat bench exits with */
	const char *failed_cmd; /* the command whose failure ended it */
	int interrupted;        /* the signal that ended the bench early */
	int regression_checked; /* --fail-on-regression */
	int regression_status;  /* its pstat compare status: 0, 3 or 4 */
};

/*
 * Add a command; rows name the measures (times first, then one per
 * counter row, in the order of counter_rows), each with n runs of room.
 * Returns the command (borrowed: it moves when the next is added).
 */
struct pstat_bench_cmd *bench_add_cmd(struct pstat_bench *b, const char *name,
				      const char *command, char **argv);

/*
 * Record one run of cmd: its times (ns), status, start (ms since the
 * bench started), place in the sequence, and the rows of its counters
 * (nrows of them, the same rows in the same order at every run).
 */
void bench_add_run(struct pstat_bench_cmd *cmd, uint64_t wall_ns,
		   uint64_t user_ns, uint64_t sys_ns, int status,
		   double start_ms, size_t seq, const struct pstat_row *rows,
		   size_t nrows);

/*
 * The statistics: each row's summary, the outliers of each command,
 * and every command's rows against the first's (Welch's test at alpha).
 * First the shell's start-up out of the commands run through it (when
 * b->shell_probe measured it), then a command with per divides its
 * counters (not times) by it.
 */
void bench_analyze(struct pstat_bench *b);

/*
 * Measure the shell's start-up: argv (borrowed) runs in every round as
 * a command, into b->shell_probe, which bench_analyze subtracts from
 * the commands with via_shell.
 */
struct pstat_bench_cmd *bench_set_shell_probe(struct pstat_bench *b,
					      const char *name, char **argv);

/*
 * Whether row r (the i-th) has the shell's start-up taken out of it:
 * the wall, user and sys times, and task-clock and cpu-clock, which
 * count the same time as user + sys. Not the counts of events (page
 * faults, instructions): how much of them is the shell's depends on
 * whether it forks or execs the command in its place.
 */
int bench_row_less_shell(const struct pstat_bench_row *r, size_t i);

/* Name command c's parameter: its list's name and its value (copied). */
void bench_cmd_param(struct pstat_bench_cmd *c, const char *name,
		     const char *value);

/*
 * The order to show the commands in, as --sort says (for the
 * comparisons when comparisons, else for the tables): a new array of
 * their indexes, by mean wall time, or as given.
 */
size_t *bench_order(const struct pstat_bench *b, int comparisons);

/* Free what b holds (not b); NULL is fine. */
void bench_free(struct pstat_bench *b);

/* The diff of row r of command c (c >= 1). */
static inline const struct pstat_bench_diff *
bench_diff(const struct pstat_bench *b, size_t c, size_t r)
{
	return &b->diffs[c * b->cmds[0].nrows + r];
}

/*
 * How many runs of c failed (exited non-zero); their distinct exit
 * statuses, lowest first and blank-separated ("1 3"), into buf.
 */
size_t bench_failed_runs(const struct pstat_bench_cmd *c, char *buf,
			 size_t len);

/*
 * The ratio's interval of d: "[0.912x, 1.104x]", "[0.000x, unbounded]"
 * when the first command's mean is not surely above 0, "-" when there
 * is none; into buf.
 */
const char *bench_format_interval(char *buf, size_t len,
				  const struct pstat_bench_diff *d);

/*
 * The unit of a time row: -u's, else from its mean as hyperfine
 * chooses (s from 1 s, ms from 1 ms, else µs), one for the whole row.
 */
enum bench_time_unit bench_row_unit(const struct pstat_bench *b,
				    const struct pstat_bench_row *row);

/*
 * How a value of row is shown, into buf: a time in unit ("12.345 ms"),
 * a count grouped ("1,234").
 */
const char *bench_format_value(char *buf, size_t len,
			       const struct pstat_bench_row *row, double v,
			       enum bench_time_unit unit);

/* ---- the printers (print_bench.c, print_json_bench.c, bench_plot.c) */

struct pstat_bench_print_cfg {
	int color;              /* ANSI colours (a terminal) */
	int utf8;               /* the sparkline's glyphs */
};

/* The terminal report. Returns 0 or -errno. */
int bench_print_table(FILE *out, const struct pstat_bench *b,
		      const struct pstat_bench_print_cfg *cfg);
/* --export-markdown: one table of every command and row. 0 or -errno. */
int bench_print_markdown(FILE *out, const struct pstat_bench *b);
/* --export-csv: a line per command and row, C locale. 0 or -errno. */
int bench_print_csv(FILE *out, const struct pstat_bench *b);
/* --export-json: hyperfine's JSON document. Returns 0 or -errno. */
int print_json_hyperfine(FILE *out, const struct pstat_bench *b);
/* -j: the pstat-bench/1 document. Returns 0 or -errno. */
int print_json_bench(FILE *out, const struct pstat_bench *b);
/* --plot: an SVG of every shown row's distributions. 0 or -errno. */
int bench_plot_svg(FILE *out, const struct pstat_bench *b);

#endif
