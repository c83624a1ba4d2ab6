/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_PRINT_H
#define PSTAT_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include <linux/perf_event.h>

#include "base/topology.h"
#include "report/stats.h"

/*
 * Report rows: the finished results every printer receives. A printer
 * never sees options, file descriptors or counters, only these records.
 */

enum pstat_status {
	PSTAT_COUNTED,
	PSTAT_MULTIPLEXED,
	PSTAT_NOT_COUNTED,
	PSTAT_NOT_SUPPORTED,
	PSTAT_ERROR,
};

/* JSON/CSV spelling of a status: "counted", "not_supported", ... */
const char *print_status_name(enum pstat_status st);

/* A derived value shown after '#'. */
struct pstat_metric {
	const char *name;   /* "CPUs utilized", "GHz", "insn per cycle",
			       "of all branches", "/sec", ... (static) */
	const char *unit;   /* "%" for percentages, else "" (static) */
	double value;
	int higher_is_better;
};

/* What a metric of the metric engine is, the same in each of its values. */
struct pstat_metric_about {
	const char *name;
	const char *unit;           /* "" when none; "%" for percentages */
	const char *expr;           /* the formula as written */
	const char *group;          /* its library group, or NULL */
	const char *const *inputs;  /* the events it reads */
	size_t ninputs;
	int higher_is_better;       /* 1, 0, or -1 unsaid */
};

/* A metric value's repeats (-r N, N > 1). */
struct pstat_metric_runs {
	const struct pstat_summary *stats;
	const double *samples;
	size_t nsamples;
};

/* A metric value's anchor, and its metric: its about is abouts[metric]. */
struct pstat_metric_place {
	unsigned anchor;
	unsigned metric;
};

/*
 * The value of a metric of the metric engine (-M, --metric) in one
 * report: once per CPU (-A) or thread (--per-thread) when the rows are
 * split so. One cache line: with --per-thread there are thousands an
 * interval, written by the session and read by each printer, so what
 * is the same in every value of a metric is in its about.
 */
struct pstat_metric_value {
	const struct pstat_metric_about *about;
	double value;               /* NAN: no value, why says why */
	const char *why;
	const char *thread;         /* --per-thread: "comm-tid"; else NULL */
	const struct pstat_aggr_id *aggr;   /* --per-socket...: its unit */
	const struct pstat_metric_runs *runs;       /* NULL but with -r */
	const char *cgroup;         /* -G, --for-each-cgroup: its cgroup */
	unsigned anchor;            /* the table prints it after rows[anchor] */
	int aggr_nr;
	int cpu;                    /* -A: the CPU; else -1 */
	signed char multiplexed;    /* from counts that were multiplexed */
	signed char threshold;      /* 1 crossed, 0 not, -1 none */
};


struct pstat_row {
	/* ints in pairs: with thousands of rows an interval, size is time */
	const char *event;          /* as written, or its name= */
	const char *pmu;            /* "software", "cpu", "msr", ... */
	int group;                  /* members of one {} share it */
	enum pstat_status status;
	const char *group_name;     /* a named group's name ("g1{...}"), or NULL */
	double value;               /* scaled count x sysfs scale (mean) */
	uint64_t raw;               /* unscaled count */
	const char *unit;           /* "msec" for clocks, sysfs unit, or "" */
	uint64_t ena, run;          /* time enabled / running, ns */
	double running_pct;
	int err;                    /* errno for not_supported / error */
	int has_metric;
	const char *note;           /* e.g. "kernel excluded", or NULL */
	struct pstat_metric metric;
	int cpu;                    /* -A: the CPU; else -1 */
	/*
	 * --per-socket, --per-die, ...: the unit the row adds up (rows of
	 * one unit share the pointer), and how many of its CPUs the row's
	 * event was counted on; NULL and 0 otherwise.
	 */
	int aggr_nr;
	const struct pstat_aggr_id *aggr;
	const char *thread;         /* --per-thread: "comm-tid"; else NULL */
	const char *cgroup;         /* -G, --for-each-cgroup: its cgroup */
	/* repeats (-r N, N > 1): NULL / 0 otherwise */
	const struct pstat_summary *stats;
	const double *samples;
	size_t nsamples;
};

/*
 * Ask for row r's cache lines ahead of use (write: for writing), and how
 * many rows ahead: an interval's thousands of rows are out of the caches
 * after the 100 ms pstat slept, and waiting for each line in turn cost
 * more than building the row.
 */
#define PRINT_ROW_AHEAD 8
static inline void print_row_prefetch(const struct pstat_row *r, int write)
{
	uintptr_t line = (uintptr_t)r & ~(uintptr_t)63;

	for (; line < (uintptr_t)(r + 1); line += 64) {
		if (write)
			__builtin_prefetch((const void *)line, 1);
		else
			__builtin_prefetch((const void *)line, 0);
	}
}

enum pstat_target_kind {
	TARGET_COMMAND,
	TARGET_PID,
	TARGET_TID,
	TARGET_SYSTEM,
};

struct pstat_report {
	int is_interval;            /* 1: one interval's deltas */
	char *const *argv;          /* the command, or NULL when attaching */
	enum pstat_target_kind target;
	const pid_t *pids;
	size_t npids;
	const pid_t *tids;
	size_t ntids;
	const int *cpus;            /* CPUs counted, NULL when per-task */
	size_t ncpus;
	int system_wide;
	int cpu_subset;             /* -C: the CPUs were chosen */
	enum pstat_aggr_mode aggr;  /* --per-socket, ...; AGGR_NONE */
	int cgroups;                /* some rows count a cgroup (-G) */

	const struct pstat_row *rows;
	size_t nrows;
	/*
	 * An interval's: whether every row is the same as in the last
	 * report (all threads idle), which a printer may then write again
	 * as it wrote it.
	 */
	bool rows_as_last;
	/*
	 * The order the table and CSV print rows in, or NULL for theirs:
	 * with --per-thread each event's threads by count, largest first,
	 * as perf (JSON and OpenMetrics keep the rows' order); norder of
	 * them (-a --per-thread leaves out the threads that counted nothing).
	 */
	const size_t *order;
	size_t norder;
	const struct pstat_metric_value *metrics;
	size_t nmetrics;
	/*
	 * A run of the default events with perf's Default group: the rows
	 * before this are the default events; those from it on are read by
	 * the Default metrics only, and the table prints those metrics as
	 * perf's default output does instead of them. 0 otherwise.
	 */
	size_t perf_default_rows;
	/*
	 * Beside the values, or NULL: where each is printed and which
	 * metric it is (8 bytes a value, where a value is a cache line:
	 * with thousands an interval, a printer's pass over them all reads
	 * these), and what the metrics are.
	 */
	const struct pstat_metric_place *metric_places;
	const struct pstat_metric_about *abouts;
	size_t nabouts;

	uint64_t elapsed_ns, user_ns, sys_ns;
	const struct pstat_summary *elapsed_stats;  /* repeats only */
	const double *elapsed_samples;  /* repeats: each run's elapsed ns */
	int runs;
	int exit_status;            /* what pstat exits with */
	int exit_signal;            /* signal that ended the command, or 0 */
	const int *run_status;      /* each run's status (runs of them) */
	struct timespec started_at; /* CLOCK_REALTIME at start */

	/* intervals */
	unsigned long interval_index;
	uint64_t interval_start_ns, interval_end_ns;
	int interval_partial;
	unsigned interval_run;      /* with -r: the run, from 1; else 0 */

	/* environment, for JSON */
	const char *kernel;
	const char *cpu_model;
	int perf_event_paranoid;
};

enum pstat_format {
	FORMAT_TABLE,
	FORMAT_CSV,
	FORMAT_JSON,
	FORMAT_JSON_PERF,           /* --json=perf: perf stat 6.1's -j lines */
	FORMAT_NONE,                /* --quiet: no report at all */
	FORMAT_OPENMETRICS,         /* --openmetrics, --prometheus */
};

/* The two exposition formats of print_openmetrics.c. */
enum pstat_om_dialect {
	OM_OPENMETRICS,         /* OpenMetrics 1.0.0 text, ends in # EOF */
	OM_PROMETHEUS,          /* the Prometheus text format 0.0.4 */
};

struct pstat_print_cfg {
	enum pstat_format format;
	int big_num;                /* table: digit grouping from LC_NUMERIC */
	const char *csv_sep;        /* -x SEP */
	enum pstat_om_dialect om_dialect;  /* FORMAT_OPENMETRICS's */
	int started_header;         /* "# started on <date>" (with -o) */
	int is_tty;                 /* output is a terminal */
	int no_csv_summary;         /* CSV: no "summary" column after -I */
	/*
	 * No summary after intervals: table and CSV without --summary, as
	 * perf prints none (a script adding the intervals up would count
	 * everything twice). A terminal still gets the sparklines.
	 */
	int no_interval_summary;
	/*
	 * -r N: the runs asked for (0 or 1: one). CSV puts the noise column
	 * on every line, interval lines too, when it is above 1; without
	 * it the column follows the first report's runs.
	 */
	unsigned repeat;
	int metric_only;            /* --metric-only: the metrics alone */
};

struct pstat_printer;

/*
 * A new printer writing to out (borrowed: the caller closes it). The
 * format is chosen here, once.
 */
struct pstat_printer *printer_new(const struct pstat_print_cfg *cfg,
				  FILE *out);
void printer_free(struct pstat_printer *p);

/*
 * Print a summary (end of run) or one interval. Returns 0, or -errno
 * when writing failed (the caller reports it).
 */
int printer_summary(struct pstat_printer *p, const struct pstat_report *r);
int printer_interval(struct pstat_printer *p, const struct pstat_report *r);

/* The operations one format provides; see print.c. */
struct pstat_printer_ops {
	void (*summary)(struct pstat_printer *p, const struct pstat_report *r);
	void (*interval)(struct pstat_printer *p,
			 const struct pstat_report *r);
	void (*free)(struct pstat_printer *p);
};

struct pstat_printer {
	const struct pstat_printer_ops *ops;
	struct pstat_print_cfg cfg;
	FILE *out;
	unsigned long lines;        /* interval lines printed, for headers */
	int err;                    /* -errno a format hit, beyond stdio's */
	void *priv;                 /* a format's own state */
};

extern const struct pstat_printer_ops print_table_ops;
extern const struct pstat_printer_ops print_csv_ops;
extern const struct pstat_printer_ops print_json_ops;
extern const struct pstat_printer_ops print_json_perf_ops;
extern const struct pstat_printer_ops print_openmetrics_ops;

/*
 * Write the exposition of n rows (summary rows, or running totals: every
 * value is printed as a counter) and of nmetrics metric values (gauges)
 * in dialect d to out, numbers in the C locale. Rows whose counter was
 * not opened, and metrics without a value, have no samples. Returns 0,
 * or -EIO when out has an error.
 */
int openmetrics_write(FILE *out, enum pstat_om_dialect d,
		      const struct pstat_row *rows, size_t n,
		      const struct pstat_metric_value *metrics,
		      size_t nmetrics);

/*
 * Helpers shared by the printers. print_command_string: argv joined by
 * spaces (new string). print_group_digits: v (an integer count) with the
 * locale's thousands separator when big is set, into buf.
 */
char *print_command_string(char *const *argv);
/*
 * Flush out and say whether everything written to it arrived: 0, or
 * -errno (-EIO when the error left no errno).
 */
int print_flush(FILE *out);
/*
 * A "/sec" metric scaled as perf shows it: divides *v and returns
 * "G/sec", "M/sec", "K/sec" or "/sec" (static).
 */
const char *print_rate_unit(double *v);
const char *print_group_digits(char *buf, size_t len, double v, int big);

/*
 * The metrics of a report by the row they are printed after (their
 * anchor), so that a printer puts them after their rows in one pass:
 * those of row i are order[start[i] .. start[i + 1]), in the order of
 * r->metrics; a metric anchored past the rows is in none.
 * print_anchors_build fills a (new arrays; nothing when r has no
 * metrics); print_anchors_free frees them.
 *
 * A metric that is the same quantity of the same counts as its row's
 * perf-style comment (-M ipc and "insn per cycle") is printed once, as
 * the metric the user asked for by name: quiet[i] says row i's comment
 * is left out, and print_anchors_row returns row i as a printer should
 * print it (r's own row, or *copy without its comment; the JSON
 * document keeps both).
 */
struct print_anchors {
	size_t *order;
	size_t *start;
	bool *quiet;
};
void print_anchors_build(struct print_anchors *a,
			 const struct pstat_report *r);
void print_anchors_free(struct print_anchors *a);
const struct pstat_row *print_anchors_row(const struct print_anchors *a,
					  const struct pstat_report *r,
					  size_t i, struct pstat_row *copy);

/*
 * --metric-only's columns. The metrics of r come key by key (a CPU, a
 * thread or a unit of --per-socket...), and keys need not have the same
 * ones: a hybrid CPU's per core PMU copy (ipc.cpu_core) is only where
 * its PMU counts, an uncore metric only in the units of its CPUs.
 * print_metric_columns fills cols (room for r->nmetrics) with the index
 * of the first value of each name, in the order they come, and returns
 * how many; print_metric_key_end the end of the key starting at metric
 * k, with in *aggr_nr the most CPUs of a unit any of its values was
 * counted on; print_metric_find the value named as metric c among [k,
 * end), or NULL.
 */
size_t print_metric_columns(const struct pstat_report *r, size_t *cols);
size_t print_metric_key_end(const struct pstat_report *r, size_t k,
			    int *aggr_nr);
const struct pstat_metric_value *
print_metric_find(const struct pstat_report *r, size_t k, size_t end,
		  size_t c);

/* Whether row i has metrics anchored after it. */
static inline int print_anchors_has(const struct print_anchors *a, size_t i)
{
	return a->start && a->start[i] < a->start[i + 1];
}

/* Ask for the values of the metrics of row i ahead of their use. */
static inline void print_anchors_prefetch(const struct print_anchors *a,
					  const struct pstat_report *r,
					  size_t i)
{
	for (size_t k = a->start ? a->start[i] : 0;
	     a->start && k < a->start[i + 1]; k++)
		__builtin_prefetch(&r->metrics[a->order[k]]);
}

/*
 * Whether row's value is shown with two decimals, as perf does (clocks,
 * sysfs scales), rather than as a whole count (means of repeats too).
 */
bool print_value_frac(const struct pstat_row *row);

/*
 * The sparkline of n rates (rates[0], rates[stride], ...) in at most
 * width glyphs of "▁▂▃▄▅▆▇█", scaled between the lowest and the highest
 * glyph's rate. With more rates than width, consecutive rates are put
 * in width buckets of n / width or one more, and each glyph shows its
 * bucket's mean. Writes the glyphs (3 bytes each) and a NUL into buf,
 * cut short to fit len; returns the number of glyphs.
 */
size_t print_sparkline(char *buf, size_t len, const double *rates,
		       size_t n, size_t stride, size_t width);
/*
 * v grouped by a localeconv(3)-style grouping ("\3": thousands;
 * en_IN's "\3\2": 12,34,567) with separator sep ("" for none).
 * print_group_digits takes both from the current locale (LC_NUMERIC).
 */
const char *print_group_digits_rule(char *buf, size_t len, double v,
				    const char *sep, const char *grouping);
/*
 * printf's "%.*f" of v (its "%'.*f", grouped, when big) in the current
 * locale, into buf (len >= 64): the same string, rounded the same, made
 * without printf for prec <= 3 and |v| < 10^15, the table's values and
 * metrics. Returns its length.
 */
size_t print_fixed(char *buf, size_t len, double v, int prec, int big);
/* The same in groups of three, with a given separator ("" for none). */
const char *print_group_digits_sep(char *buf, size_t len, double v,
				   const char *sep);


/*
 * Numbers for machine output (print_number.c), in the C locale, into buf
 * with its terminating NUL; each returns the length. print_real: the
 * fewest digits that read back as v (v finite), a real always ("52.0",
 * "0.677416", "1e+20"); PRINT_REAL_MAX bytes are enough.
 */
#define PRINT_REAL_MAX 32
size_t print_u64(char *buf, uint64_t v);
size_t print_i64(char *buf, int64_t v);
size_t print_real(char *buf, double v);
/* v as printf's "%.15g" writes it in the C locale, mostly without printf */
size_t print_g15(char *buf, double v);

/*
 * Records for the other JSON documents, so that jansson stays in
 * print_json_doc.c: `pstat --dry-run -j` and `pstat list -j`.
 */
struct pstat_dryrun_event {
	const char *name;
	const char *pmu;
	const char *resolver;   /* generic|sysfs|tracepoint|raw|breakpoint|libpfm4 */
	int group;
	int leader;
	double scale;
	const char *unit;
	const int *cpus;        /* the PMU's cpumask, or NULL */
	size_t ncpus;
	const struct perf_event_attr *attr;
	const char *group_name; /* a named group's name, or NULL */
	const int *core_cpus;   /* one of several core PMUs: its CPUs */
	size_t ncore_cpus;
	int weak;               /* its group is weak (:W, a metric's) */
	const char *cgroup;     /* -G's cgroup, or NULL */
};

/* The version of the jansson library in use ("2.14"; static). */
const char *print_json_library_version(void);

/* Print {"events":[...]} as one document. Returns 0 or -errno. */
int print_json_dryrun(FILE *out, const struct pstat_dryrun_event *ev,
		      size_t n);

/*
 * `pstat --dry-run` without -j: a few lines per event, its name,
 * resolver, PMU and group, then the attr's fields that tell events
 * apart. Returns 0 or -errno when writing failed.
 */
int print_dryrun_text(FILE *out, const struct pstat_dryrun_event *ev,
		      size_t n);

/* A metric of a dry run: its formula as `pstat list metrics` shows it. */
struct pstat_dryrun_metric {
	const char *name;
	const char *expr;
	const char *unit;       /* "" or NULL when none */
	int shown;              /* asked for (else only referred to) */
};

/*
 * After the events of a text dry run, a line per metric:
 * "metric NAME = EXPR [in UNIT]", "(referred to)" for one only other
 * metrics use. Returns 0 or -errno when writing failed.
 */
int print_dryrun_metrics(FILE *out, const struct pstat_dryrun_metric *m,
			 size_t n);

struct pstat_list_entry {
	const char *section;    /* "hardware", "software", "cache", "pmu",
				   "tracepoint", "libpfm4" */
	const char *pmu;        /* the PMU (sysfs or libpfm4), or NULL */
	const char *name;       /* what a user types after -e */
	const char *desc;       /* or NULL */
	const char *unit;       /* sysfs alias unit, or NULL */
	const char *encoding;   /* e.g. "event=0x3c" for sysfs aliases, or NULL */
	const char *const *umasks;  /* libpfm4 umask names, or NULL */
	size_t numasks;
	const char *const *umask_descs; /* their descriptions, or NULL */
	double scale;           /* sysfs alias .scale (0 is taken as 1) */
};

struct pstat_list_pmu {
	const char *name;
	const char *source;     /* "sysfs" or "libpfm4" */
	int type;               /* sysfs type, -1 for libpfm4 */
	int kernel_exposed;     /* the kernel has a PMU for it */
	int is_core;            /* a core (cpu) hardware PMU */
};

struct pstat_list {
	const struct pstat_list_entry *entries;
	size_t nentries;
	const struct pstat_list_pmu *pmus;
	size_t npmus;
	int core_pmu_exposed;   /* the kernel exposes a core hardware PMU */
};

/* Print `pstat list -j` as one document. Returns 0 or -errno. */
int print_json_list(FILE *out, const struct pstat_list *l);

/* One built-in metric, for `pstat list metrics -j`. */
struct pstat_list_metric {
	const char *name;
	const char *group;
	const char *groups;     /* every group -M finds it in, ';'-separated */
	const char *expr;       /* the formula, as this machine spells it */
	const char *unit;
	const char *desc;       /* or NULL */
	const char *threshold;  /* or NULL */
	int higher_is_better;   /* 1, 0, -1 unsaid */
	const char *source;
};

/* A metric of the vendor's data pstat does not compute, and why. */
struct pstat_list_left_out {
	const char *name;
	const char *groups;     /* ';'-separated, perf's */
	const char *why;
};

/*
 * Print the pstat-metrics/1 document: the n metrics, the nlo left out, and whether
 * top-down can be counted here (levels 0 to 2; why_not when 0, else
 * NULL). Returns 0 or -errno.
 */
int print_json_list_metrics(FILE *out, const struct pstat_list_metric *m,
			    size_t n, const struct pstat_list_left_out *lo,
			    size_t nlo, int topdown_levels,
			    const char *why_not);

/* One check of `pstat doctor`, for `pstat doctor -j`. */
struct pstat_doctor_check {
	const char *name;       /* stable id: "perf_event_paranoid", ...,
				   "probe:task-clock" */
	const char *status;     /* "ok", "warn" or "fail" */
	const char *detail;     /* the line a user reads */
	const char *fix;        /* one line, or NULL */
};

/* What `pstat doctor` concludes from its checks. */
struct pstat_doctor_verdict {
	int software_counting;  /* the task-clock probe counted */
	int hardware_counting;  /* the instructions:u probe counted */
	const char *result;     /* the sentence of the text report's last
				   line, after "result: " */
	int exit_status;        /* what doctor exits with */
};

/*
 * Print the pstat-doctor/1 document: the n checks and the verdict.
 * Returns 0 or -errno.
 */
int print_json_doctor(FILE *out, const struct pstat_doctor_check *c,
		      size_t n, const struct pstat_doctor_verdict *v);

/*
 * A printer that passes everything to inner (which it steals) and also
 * keeps the summary as a pstat/1 document in memory, for --baseline.
 * printer_capture_json: that document (borrowed, NUL-terminated, valid
 * until printer_free) and its length, or NULL when no summary was
 * printed or keeping it failed.
 */
struct pstat_printer *printer_capture_new(struct pstat_printer *inner);
const char *printer_capture_json(struct pstat_printer *p, size_t *len);

#endif
