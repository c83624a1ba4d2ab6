/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_COMPARE_H
#define PSTAT_COMPARE_H

#include <stddef.h>

#include "base/msg.h"
#include "report/print.h"

/*
 * `pstat compare` and `pstat --baseline`: the logic, pure. Two runs as
 * read from pstat/1 documents (print_json_read_run) are matched counter
 * by counter, each pair gets a delta, Welch's test when both sides have
 * samples, and a verdict against a threshold rule. Nothing here reads a
 * file or prints.
 */

/* Exit statuses of a comparison (usage errors are 125). */
#define COMPARE_EXIT_OK            0  /* no counter regressed */
#define COMPARE_EXIT_REGRESSION    3  /* at least one regressed */
#define COMPARE_EXIT_INCOMPARABLE  4  /* unusable input, or a counter is
					 missing or invalid and none
					 regressed */
#define COMPARE_EXIT_CORE_SPLIT    6  /* one run counted an event per
					 core PMU (a hybrid CPU), the
					 other as one event */

/* The limit a rule without '*' fallback uses: "*=5%". */
#define COMPARE_DEFAULT_LIMIT_PCT  5.0
#define COMPARE_DEFAULT_ALPHA      0.05

/* One counter of a run document, as read. */
struct pstat_compare_counter {
	char *event;
	int cpu;                /* -A: the CPU, else -1 */
	char *thread;           /* --per-thread: "comm-tid", else NULL */
	char *aggr;             /* --per-socket...: the unit's id, "S0-D0-C3",
				   else NULL */
	char *cgroup;           /* -G, --for-each-cgroup: its cgroup, or NULL */
	char *unit;             /* "" when none */
	enum pstat_status status;
	double value;           /* NaN when the document has null */
	double *samples;        /* with -r N: N values, else NULL */
	size_t nsamples;
	int has_metric;
	char *metric_name;
	char *metric_unit;
	double metric_value;    /* NaN when null */
};

/*
 * A metric of the metric engine (-M, --metric) in a run document's
 * "metrics" array, as read.
 */
struct pstat_compare_metric {
	char *name;
	int cpu;                /* -A: the CPU, else -1 */
	char *thread;           /* --per-thread, else NULL */
	char *aggr;             /* --per-socket...: the unit's id, else NULL */
	char *cgroup;           /* -G, --for-each-cgroup: its cgroup, or NULL */
	char *unit;             /* "" when none */
	double value;           /* NaN when the document has null */
	double *samples;        /* with -r N: N values, else NULL */
	size_t nsamples;
	int higher_is_better;   /* 1, 0, or -1 unsaid (lower is better) */
	int multiplexed;
};

/* A run document: what a comparison needs of it. */
struct pstat_compare_run {
	char *label;            /* the file name, or "this run" (new) */
	int runs;
	/* How the command ended: the document's "exit" object. */
	int exit_status;        /* "status": what pstat exited with */
	char *exit_signal;      /* "signal": "SIGSEGV", or NULL */
	size_t exit_failed_run; /* 1 + the index of the first non-zero
				   entry of "runs", or 0 */
	int exit_failed_status; /* that entry */
	int has_command;        /* "command" is not null (no -p, -a) */
	struct pstat_compare_counter *counters;
	size_t ncounters;
	size_t alloc;
	struct pstat_compare_metric *metrics;
	size_t nmetrics;
	size_t metrics_alloc;
};

/*
 * Append a zeroed counter (cpu -1, value NaN) to run and return it
 * (borrowed: it moves when the next one is added). The caller fills in
 * xmalloc'd strings and samples; compare_run_free frees them.
 */
struct pstat_compare_counter *compare_run_add(struct pstat_compare_run *run);
/* The same for a metric (cpu -1, value NaN, higher_is_better -1). */
struct pstat_compare_metric *
compare_run_add_metric(struct pstat_compare_run *run);
/* Free what run holds (not run itself); NULL is fine. */
void compare_run_free(struct pstat_compare_run *run);
/* Free what counter c holds (not c itself). */
void compare_counter_free(struct pstat_compare_counter *c);

/*
 * Whether the command of run failed: a non-zero exit status, a signal,
 * or a run of -r N that exited non-zero. Such a run measured a crash or
 * an error path, not the program, and is not compared. A run without a
 * command (-p, -a) ended by SIGINT, SIGTERM or SIGHUP did not fail. Returns 0, or 1
 * with a description ("exit status 139, SIGSEGV") in buf.
 */
int compare_run_failed(const struct pstat_compare_run *run, char *buf,
		       size_t len);

enum pstat_compare_limit_kind {
	LIMIT_RELATIVE,         /* "N%": |delta| > N% of |base| */
	LIMIT_ABSOLUTE,         /* "+N": |delta| > N, in the event's unit */
};

struct pstat_compare_rule {
	char *pattern;          /* an entry name, a metric name, a glob or * */
	enum pstat_compare_limit_kind kind;
	double limit;
	char *text;             /* the rule, "cycles=3%", blanks left out */
};

struct pstat_compare_rules {
	struct pstat_compare_rule *rule;
	size_t n;
	size_t alloc;
};

/*
 * Parse a --threshold SPEC and append its rules: comma-separated
 * NAME=N% (relative) or NAME=+N (absolute, in the event's unit), blanks
 * around NAME and the limit ignored. NAME is an event as written in the
 * run (instructions:u, syscalls:sys_enter_write, a PMU event whose
 * /.../ holds commas and '=' is fine), a metric's name ("insn per
 * cycle"), a full entry name ("instructions: insn per cycle"), or an
 * fnmatch(3) pattern ("syscalls:*", "*"). Returns 0, or -1 with err
 * set (nothing appended then).
 */
int compare_rules_parse(struct pstat_compare_rules *rules, const char *spec,
			struct pstat_error *err);
void compare_rules_free(struct pstat_compare_rules *rules);

/*
 * The rule for item it: an exact entry, event or metric name first, then
 * patterns, then "*"; within each kind the last given wins. Borrowed
 * from rules; NULL when none applies.
 */
struct pstat_compare_item;
const struct pstat_compare_rule *
compare_rules_find(const struct pstat_compare_rules *rules,
		   const struct pstat_compare_item *it);

/*
 * Parse a significance level: a number as strtod(3) reads it in the C
 * locale (0.05, 5e-2, 0x1p-4), whole, strictly between 0 and 1, read
 * the same in any locale. Returns 0, -EINVAL (not a number) or -ERANGE.
 */
int compare_parse_alpha(const char *s, double *alpha);

enum pstat_compare_verdict {
	VERDICT_REGRESSED,
	VERDICT_IMPROVED,
	VERDICT_UNCHANGED,      /* the change is within its limit */
	VERDICT_NOISE,          /* beyond the limit, but not significant */
	VERDICT_MISSING,        /* present on one side only */
	VERDICT_INVALID,        /* not counted cleanly on a side */
};

/* "regressed", ..., "within noise"; json: "within_noise". */
const char *compare_verdict_name(enum pstat_compare_verdict v, int json);

/* One side of an entry. */
struct pstat_compare_side {
	int present;
	enum pstat_status status;   /* counted for a metric */
	double value;               /* NaN when unknown */
	size_t n;                   /* samples, 0 without -r; for a
				       metric, its per-run values */
	double stddev;              /* NaN without samples */
};

/* One line of a comparison: a counter, or a metric of one. */
struct pstat_compare_item {
	char *name;             /* "cycles", "cycles (CPU 3)",
				   "instructions: insn per cycle" */
	const char *event;      /* borrowed from a run */
	const char *metric;     /* the metric's name, NULL for a counter */
	const char *unit;       /* borrowed, "" when none */
	int higher_is_better;
	struct pstat_compare_side base, new;
	double delta;           /* new - base; NaN unless both are valid */
	double delta_pct;       /* 100 delta / |base|; NaN when base is 0 */
	int tested;             /* samples on both sides: p and CI are set */
	double t, df, p;
	double ci_lo, ci_hi;    /* CI of new - base at level 1 - alpha
				   (0.95 by default) */
	const struct pstat_compare_rule *rule;  /* borrowed; NULL: default */
	enum pstat_compare_limit_kind limit_kind;
	double limit;
	enum pstat_compare_verdict verdict;
	const char *reason;     /* static: why missing or invalid, or NULL */
};

struct pstat_compare {
	const char *base_label, *new_label;     /* borrowed */
	int base_runs, new_runs;
	double alpha;
	struct pstat_compare_item *items;
	size_t nitems;
	size_t count[VERDICT_INVALID + 1];      /* items per verdict */
	int status;             /* COMPARE_EXIT_* */
};

/*
 * Compare run new against run base, under rules (the last matching rule
 * of the most specific kind wins: exact entry name, then metric name,
 * then patterns; no match: *=5%) at significance alpha. Fills out, which
 * borrows from base, new and rules: free it first. The verdicts:
 * invalid when either side is not cleanly counted (multiplexed, not
 * counted, not supported, error, or a sample that is not finite);
 * missing when on one side only; otherwise the change is beyond its
 * limit or not (unchanged), and when both sides have samples a change
 * beyond the limit counts only if Welch's p < alpha (within noise
 * otherwise). Lower is better for counters; metrics carry their own
 * direction, and only those with one are compared.
 *
 * A metric is a ratio of two counters of its run (insn per cycle:
 * instructions / cycles). When both sides have samples of both, its
 * per-run ratios are its samples and Welch's test applies to them as to
 * a counter. When they cannot be had, a metric whose counter was tested
 * changes significantly only if that counter did: a ratio is never a
 * regression on its own when the counts under it are within noise.
 *
 * out->status: COMPARE_EXIT_INCOMPARABLE when no counter could be
 * compared; else COMPARE_EXIT_REGRESSION when one regressed; else
 * COMPARE_EXIT_INCOMPARABLE when an entry, a counter or a metric, is
 * missing or invalid; else COMPARE_EXIT_OK. The failure of a run's
 * command (compare_run_failed) is the caller's to check first.
 */
void compare_runs(const struct pstat_compare_run *base,
		  const struct pstat_compare_run *new,
		  const struct pstat_compare_rules *rules, double alpha,
		  struct pstat_compare *out);
void compare_free(struct pstat_compare *c);

#endif
