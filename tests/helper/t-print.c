/* SPDX-License-Identifier: MIT */
/*
 * pstat-test print FORMAT CASE [OUT]
 *
 * Builds a synthetic report for CASE and prints it through printer_new
 * with FORMAT: json, table, csv (","), csv-semicolon, csv-tab,
 * csv-multi ("::"), or csv=SEP; "table-tty" is the table on a terminal
 * (header repeats, sparklines); openmetrics, and prometheus (its text
 * format 0.0.4 dialect). OUT (default stdout) lets tests point
 * the printer at /dev/full. The dryrun and list cases are JSON only.
 * The locale comes from the environment, as in pstat itself, so tests
 * can check that machine output ignores LC_NUMERIC.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/print.h"
#include "test-tool.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* 2026-11-22T06:09:00.123456789Z */
#define T_STARTED { .tv_sec = 1795327740, .tv_nsec = 123456789 }

/* argv is char *const *, as main() gets it. */
#define S(lit) ((char *)(lit))

static char *argv_basic[] = { S("./workload"), S("20000000"), NULL };
static const pid_t pids_basic[] = { 31337 };

static const struct pstat_report report_base = {
	.argv = argv_basic,
	.target = TARGET_COMMAND,
	.pids = pids_basic,
	.npids = 1,
	.elapsed_ns = 1254321,
	.user_ns = 400000,
	.sys_ns = 200000,
	.runs = 1,
	.started_at = T_STARTED,
	.kernel = "6.1.0-test-amd64",
	.cpu_model = "Test CPU @ 2.00GHz",
	.perf_event_paranoid = 2,
};

/* Designated initializers only, so -Woverride-init stays quiet. */
#define ROW(...) { .cpu = -1, __VA_ARGS__ }
#define CPU_ROW(c, ...) { .cpu = (c), __VA_ARGS__ }
/* Enabled and running for t ns: counted in full. */
#define RAN(t) .ena = (t), .run = (t), .running_pct = 100.0
#define METRIC(n, u, v) .has_metric = 1, .metric = { .name = (n), \
	.unit = (u), .value = (v) }

static const struct pstat_row rows_basic[] = {
	ROW(.event = "task-clock", .pmu = "software", .group = 0,
	    .value = 0.634812, .raw = 634812, .unit = "msec",
	    RAN(634812),
	    METRIC("CPUs utilized", "", 0.5061)),
	ROW(.event = "context-switches", .pmu = "software", .group = 1,
	    .value = 0, .raw = 0, .unit = "", RAN(634812),
	    METRIC("/sec", "", 0)),
	ROW(.event = "page-faults", .pmu = "software", .group = 2,
	    .value = 50, .raw = 50, .unit = "", RAN(634812),
	    METRIC("K/sec", "", 77.7128)),
	ROW(.event = "instructions", .pmu = "cpu", .group = 3,
	    .value = 1234567, .raw = 1234567, .unit = "",
	    RAN(634812),
	    METRIC("insn per cycle", "", 0.95123)),
	ROW(.event = "branch-misses", .pmu = "cpu", .group = 4,
	    .value = 4321, .raw = 4321, .unit = "",
	    RAN(634812),
	    METRIC("of all branches", "%", 2.345678)),
	ROW(.event = "power/energy-pkg/", .pmu = "power", .group = 5,
	    .value = 1.25, .raw = 5368709, .unit = "Joules",
	    RAN(634812)),
};

static const struct pstat_row rows_notsupported[] = {
	ROW(.event = "cycles", .pmu = "cpu", .group = 0,
	    .status = PSTAT_NOT_SUPPORTED, .err = EOPNOTSUPP,
	    .running_pct = 0),
	ROW(.event = "task-clock", .pmu = "software", .group = 1,
	    .value = 0.5, .raw = 500000, .unit = "msec",
	    RAN(500000), .note = "kernel excluded",
	    METRIC("CPUs utilized", "", 0.4)),
	ROW(.event = "msr/tsc/", .pmu = "msr", .group = 2,
	    .status = PSTAT_ERROR, .err = EACCES, .running_pct = 0),
	ROW(.event = "cpu/nonsense/", .pmu = "cpu", .group = 3,
	    .status = PSTAT_NOT_SUPPORTED, .running_pct = 0),
};

static const struct pstat_row rows_multiplexed[] = {
	ROW(.event = "cycles", .pmu = "cpu", .group = 0,
	    .status = PSTAT_MULTIPLEXED, .value = 200000000,
	    .raw = 100000000, .ena = 2000000, .run = 1000000,
	    .running_pct = 50.0),
	ROW(.event = "instructions", .pmu = "cpu", .group = 0,
	    .status = PSTAT_MULTIPLEXED, .value = 300000000,
	    .raw = 150000000, .ena = 2000000, .run = 1000000,
	    .running_pct = 50.0, METRIC("insn per cycle", "", 1.5)),
	ROW(.event = "branches", .pmu = "cpu", .group = 1,
	    .status = PSTAT_MULTIPLEXED, .value = 3000001,
	    .raw = 999999, .ena = 3000000, .run = 1000000,
	    .running_pct = 33.333333333333336),
	ROW(.event = "cache-misses", .pmu = "cpu", .group = 2,
	    .status = PSTAT_NOT_COUNTED, .ena = 2000000, .run = 0,
	    .running_pct = 0),
};

static const double samples_clock[] = { 0.61, 0.53, 0.65 };
static const struct pstat_summary stats_clock = {
	.n = 3, .mean = 0.59666666666666668, .stddev = 0.061101009266077866,
	.stderr_mean = 0.035276684147527874, .min = 0.53, .median = 0.61,
	.max = 0.65,
};
static const double samples_faults[] = { 49, 49, 50 };
static const struct pstat_summary stats_faults = {
	.n = 3, .mean = 49.333333333333336, .stddev = 0.57735026918962573,
	.stderr_mean = 0.33333333333333331, .min = 49, .median = 49,
	.max = 50,
};
static const struct pstat_summary stats_elapsed = {
	.n = 3, .mean = 1250000, .stddev = 50000, .stderr_mean = 28867.5,
	.min = 1200000, .median = 1250000, .max = 1300000,
};
static const int run_status_repeats[] = { 0, 0, 1 };
/*
 * What the session gives a counter that never counted: a NAN sample a
 * run, and the summary of no sample.
 */
static const double samples_none[] = { NAN, NAN, NAN };
static const struct pstat_summary stats_none = { .n = 0 };

static const struct pstat_row rows_repeats[] = {
	ROW(.event = "task-clock", .pmu = "software", .group = 0,
	    .value = 0.59666666666666668, .raw = 596667, .unit = "msec",
	    RAN(596667),
	    METRIC("CPUs utilized", "", 0.477),
	    .stats = &stats_clock, .samples = samples_clock, .nsamples = 3),
	ROW(.event = "page-faults", .pmu = "software", .group = 1,
	    .value = 49.333333333333336, .raw = 49, .unit = "",
	    RAN(596667), METRIC("K/sec", "", 82.68),
	    .stats = &stats_faults, .samples = samples_faults,
	    .nsamples = 3),
	ROW(.event = "cycles", .pmu = "cpu", .group = 2,
	    .status = PSTAT_NOT_SUPPORTED, .err = ENOENT, .running_pct = 0,
	    .stats = &stats_none, .samples = samples_none, .nsamples = 3),
	ROW(.event = "msr/tsc/", .pmu = "msr", .group = 3,
	    .status = PSTAT_NOT_COUNTED, .running_pct = 0,
	    .stats = &stats_none, .samples = samples_none, .nsamples = 3),
};

/*
 * Latin-1 "café", a line break, a UTF-16 surrogate, an overlong '/',
 * a truncated sequence and a good euro sign.
 */
static char *argv_badutf8[] = {
	S("./prog"), S("caf\xe9"), S("line1\nline2"), S("\xed\xa0\x80"),
	S("\xc0\xaf"), S("\xe2\x82"), S("ok \xe2\x82\xac"), NULL,
};

static const struct pstat_row rows_badutf8[] = {
	ROW(.event = "task-clock", .pmu = "software", .value = 1.5,
	    .raw = 1500000, .unit = "msec", RAN(1500000),
	    .thread = "caf\xe9-101"),
	ROW(.event = "name\xff\xfe", .pmu = "software", .group = 1,
	    .value = 7, .raw = 7, .unit = "", RAN(1500000),
	    .thread = "caf\xe9-101",
	    .note = "bad \xc3 note"),
};

/* CSV quoting: every field with a separator, quote or newline. */
static const struct pstat_row rows_sep[] = {
	ROW(.event = "a,b", .pmu = "software", .value = 3, .raw = 3,
	    .unit = "", RAN(1000), .thread = "my,comm-17"),
	ROW(.event = "x;y", .pmu = "software", .group = 1, .value = 4,
	    .raw = 4, .unit = "u;nit", RAN(1000),
	    .thread = "tab\tcomm-18"),
	ROW(.event = "quo\"te", .pmu = "software", .group = 2, .value = 5,
	    .raw = 5, .unit = "", RAN(1000),
	    .thread = "plain-19"),
	ROW(.event = "new\nline", .pmu = "software", .group = 3, .value = 6,
	    .raw = 6, .unit = "", RAN(1000),
	    .thread = "a::b-20", METRIC("per, thing", "", 1.5)),
};

static const pid_t pids_attach[] = { 4242, 4243 };
static const pid_t tids_attach[] = { 4242, 4250, 4251 };

static const int cpus_percpu[] = { 0, 1, 2, 3 };
static const struct pstat_row rows_percpu[] = {
	CPU_ROW(0, .event = "task-clock", .pmu = "software", .value = 11.78,
		.raw = 11782081, .unit = "msec", RAN(11782081),
		METRIC("CPUs utilized", "", 0.993)),
	CPU_ROW(1, .event = "task-clock", .pmu = "software", .value = 11.87,
		.raw = 11872039, .unit = "msec", RAN(11872039),
		METRIC("CPUs utilized", "", 1.001)),
	CPU_ROW(2, .event = "task-clock", .pmu = "software", .value = 0.01,
		.raw = 10000, .unit = "msec", RAN(11872039)),
	CPU_ROW(3, .event = "task-clock", .pmu = "software",
		.status = PSTAT_NOT_COUNTED, .unit = "msec",
		.ena = 11872039, .running_pct = 0),
};

static const struct pstat_row rows_huge[] = {
	ROW(.event = "saturated", .pmu = "cpu", .status = PSTAT_MULTIPLEXED,
	    .value = 18446744073709551615.0, .raw = UINT64_MAX,
	    .ena = UINT64_MAX, .run = 1,
	    .running_pct = 5.421010862427522e-18,
	    METRIC("insn per cycle", "", NAN)),
	ROW(.event = "tiny", .pmu = "power", .group = 1,
	    .value = 2.3283064365386963e-10, .raw = 1, .unit = "Joules",
	    RAN(1)),
	ROW(.event = "big-int", .pmu = "cpu", .group = 2,
	    .value = 9007199254740993.0, .raw = 9007199254740993ULL,
	    .ena = INT64_MAX, .run = INT64_MAX, .running_pct = 100.0),
};

/* Deltas for three intervals of 100 ms; the last is cut short. */
static const struct pstat_row rows_interval[3][2] = {
	{
		ROW(.event = "task-clock", .pmu = "software", .value = 0.97,
		    .raw = 969426, .unit = "msec", RAN(969426),
		    METRIC("CPUs utilized", "", 0.01)),
		ROW(.event = "page-faults", .pmu = "software", .group = 1,
		    .value = 45, .raw = 45, .unit = "", RAN(969426),
		    METRIC("K/sec", "", 46.42)),
	},
	{
		ROW(.event = "task-clock", .pmu = "software",
		    .status = PSTAT_NOT_COUNTED, .unit = "msec",
		    .running_pct = 0),
		ROW(.event = "page-faults", .pmu = "software", .group = 1,
		    .status = PSTAT_NOT_COUNTED, .running_pct = 0,
		    .unit = ""),
	},
	{
		ROW(.event = "task-clock", .pmu = "software", .value = 0.06,
		    .raw = 63283, .unit = "msec", RAN(63283),
		    METRIC("CPUs utilized", "", 0.001)),
		ROW(.event = "page-faults", .pmu = "software", .group = 1,
		    .value = 2, .raw = 2, .unit = "", RAN(63283),
		    METRIC("K/sec", "", 31.6)),
	},
};

static const struct pstat_row rows_interval_total[] = {
	ROW(.event = "task-clock", .pmu = "software", .value = 1.032709,
	    .raw = 1032709, .unit = "msec", RAN(1032709),
	    METRIC("CPUs utilized", "", 0.0034)),
	ROW(.event = "page-faults", .pmu = "software", .group = 1,
	    .value = 47, .raw = 47, .unit = "", RAN(1032709),
	    METRIC("K/sec", "", 45.51)),
};

/* The summary of two runs of the intervals below (interval-repeats). */
static const double samples_clock2[] = { 1.032709, 1.1 };
static const struct pstat_summary stats_clock2 = {
	.n = 2, .mean = 1.0663545, .stddev = 0.047582, .stderr_mean = 0.0336455,
	.min = 1.032709, .median = 1.0663545, .max = 1.1,
};
static const double samples_faults2[] = { 47, 47 };
static const struct pstat_summary stats_faults2 = {
	.n = 2, .mean = 47, .min = 47, .median = 47, .max = 47,
};
static const struct pstat_row rows_interval_repeats[] = {
	ROW(.event = "task-clock", .pmu = "software", .value = 1.0663545,
	    .raw = 1100000, .unit = "msec", RAN(1100000),
	    METRIC("CPUs utilized", "", 0.0035),
	    .stats = &stats_clock2, .samples = samples_clock2, .nsamples = 2),
	ROW(.event = "page-faults", .pmu = "software", .group = 1,
	    .value = 47, .raw = 47, .unit = "", RAN(1100000),
	    METRIC("K/sec", "", 42.73),
	    .stats = &stats_faults2, .samples = samples_faults2,
	    .nsamples = 2),
};
static const double samples_elapsed2[] = { 302344354, 310000000 };
static const struct pstat_summary stats_elapsed2 = {
	.n = 2, .mean = 306172177, .stddev = 5413332.3, .stderr_mean = 3827823,
	.min = 302344354, .median = 306172177, .max = 310000000,
};
static const int run_status_ok2[] = { 0, 0 };

/*
 * Three intervals (the last partial), then the summary; with repeats,
 * the summary of two runs (the intervals stand for either run's).
 */
static int print_intervals(struct pstat_printer *p,
			   const struct pstat_report *base, bool repeats)
{
	static const uint64_t ends[] = {
		100220457, 200594992, 302344354,
	};
	struct pstat_report r = *base;
	uint64_t start = 0;
	int ret;

	r.is_interval = 1;
	for (size_t i = 0; i < N(ends); i++) {
		r.rows = rows_interval[i];
		r.nrows = N(rows_interval[i]);
		r.interval_index = i + 1;
		r.interval_start_ns = start;
		r.interval_end_ns = ends[i];
		r.interval_partial = i == N(ends) - 1;
		r.elapsed_ns = ends[i];
		start = ends[i];
		ret = printer_interval(p, &r);
		if (ret)
			return ret;
	}
	r = *base;
	r.rows = rows_interval_total;
	r.nrows = N(rows_interval_total);
	r.elapsed_ns = ends[N(ends) - 1];
	if (repeats) {
		r.rows = rows_interval_repeats;
		r.nrows = N(rows_interval_repeats);
		r.runs = 2;
		r.run_status = run_status_ok2;
		r.elapsed_stats = &stats_elapsed2;
		r.elapsed_samples = samples_elapsed2;
		r.elapsed_ns = 306172177;
	}
	return printer_summary(p, &r);
}

/*
 * A long run: 4000 intervals of 100 ms, task-clock rising for the first
 * half and falling for the second, more than the sparklines keep one by
 * one (twice the terminal's width); then the summary.
 */
static int print_long_intervals(struct pstat_printer *p,
				const struct pstat_report *base)
{
	struct pstat_row row = ROW(.event = "task-clock", .pmu = "software",
				   .unit = "msec");
	struct pstat_report r = *base;
	int ret;

	r.is_interval = 1;
	r.rows = &row;
	r.nrows = 1;
	for (uint64_t i = 0; i < 4000; i++) {
		row.value = (double)(i < 2000 ? i : 4000 - i);
		r.interval_index = i + 1;
		r.interval_start_ns = i * 100000000;
		r.interval_end_ns = r.elapsed_ns = (i + 1) * 100000000;
		ret = printer_interval(p, &r);
		if (ret)
			return ret;
	}
	r = *base;
	r.rows = &row;
	r.nrows = 1;
	return printer_summary(p, &r);
}

/*
 * -A and --per-thread intervals: two CPUs or two threads, task-clock
 * and context-switches on each, three intervals (the last partial).
 */
#define TC(v, pct) .event = "task-clock", .pmu = "software", .value = (v), \
	.raw = (uint64_t)((v) * 1e6), .unit = "msec", \
	RAN((uint64_t)((v) * 1e6)), METRIC("CPUs utilized", "", pct)
#define CS(v, k) .event = "cs", .pmu = "software", .group = 1, \
	.value = (v), .raw = (v), .unit = "", RAN(100000000), \
	METRIC("K/sec", "", k)
static const struct pstat_row rows_percpu_interval[3][4] = {
	{ CPU_ROW(0, TC(100.21, 1.0)), CPU_ROW(1, TC(99.87, 0.997)),
	  CPU_ROW(0, CS(1234, 12.31)), CPU_ROW(1, CS(87, 0.87)) },
	{ CPU_ROW(0, TC(100.37, 1.0)), CPU_ROW(1, TC(50.12, 0.5)),
	  CPU_ROW(0, CS(45, 0.45)), CPU_ROW(1, CS(3012, 30.05)) },
	{ CPU_ROW(0, TC(101.74, 1.0)), CPU_ROW(1, TC(101.75, 1.0)),
	  CPU_ROW(0, CS(560, 5.5)), CPU_ROW(1, CS(4410, 43.34)) },
};
static const struct pstat_row rows_percpu_total[] = {
	CPU_ROW(0, TC(302.32, 1.0)), CPU_ROW(1, TC(251.74, 0.833)),
	CPU_ROW(0, CS(1839, 6.08)), CPU_ROW(1, CS(7509, 29.83)),
};

static const struct pstat_row rows_thread_interval[3][4] = {
	{ ROW(TC(55.24, 0.552), .thread = "pt-threads-4242"),
	  ROW(TC(0.03, 0.0), .thread = "worker-4250"),
	  ROW(CS(32, 0.579), .thread = "pt-threads-4242"),
	  ROW(CS(1, 33.3), .thread = "worker-4250") },
	{ ROW(TC(71.9, 0.719), .thread = "pt-threads-4242"),
	  ROW(TC(12.5, 0.125), .thread = "worker-4250"),
	  ROW(CS(33, 0.459), .thread = "pt-threads-4242"),
	  ROW(CS(20, 1.6), .thread = "worker-4250") },
	{ ROW(TC(90.1, 0.886), .thread = "pt-threads-4242"),
	  ROW(.event = "task-clock", .pmu = "software", .unit = "msec",
	      .status = PSTAT_NOT_COUNTED, .thread = "worker-4250"),
	  ROW(CS(12, 0.133), .thread = "pt-threads-4242"),
	  ROW(.event = "cs", .pmu = "software", .group = 1, .unit = "",
	      .status = PSTAT_NOT_COUNTED, .thread = "worker-4250") },
};
static const struct pstat_row rows_thread_total[] = {
	ROW(TC(217.24, 0.714), .thread = "pt-threads-4242"),
	ROW(TC(12.53, 0.041), .thread = "worker-4250"),
	ROW(CS(77, 0.354), .thread = "pt-threads-4242"),
	ROW(CS(21, 1.676), .thread = "worker-4250"),
};
#undef TC
#undef CS

/*
 * Idle threads: rows without a value, most of which end their lines the
 * same way (the CSV printer copies such a tail), between rows that look
 * alike but differ after the thread column: run time, status, metric.
 */
#define IDLE(ev, u, st, ...) .event = (ev), .pmu = "software", .unit = (u), \
	.status = (st), __VA_ARGS__
#define NC PSTAT_NOT_COUNTED
static const struct pstat_row rows_idle[] = {
	ROW(IDLE("task-clock", "msec", NC, .thread = "idle-1")),
	ROW(IDLE("task-clock", "msec", NC, .thread = "idle-2")),
	ROW(IDLE("task-clock", "msec", NC, .thread = "idle-3", .ena = 4000,
		 .run = 2000, .running_pct = 50.0)),
	ROW(IDLE("task-clock", "msec", PSTAT_NOT_SUPPORTED,
		 .thread = "idle-4", .err = EOPNOTSUPP)),
	ROW(IDLE("task-clock", "msec", NC, .thread = "idle-5",
		 METRIC("CPUs utilized", "", 0.25))),
	ROW(IDLE("task-clock", "msec", NC, .thread = "idle-6")),
	ROW(IDLE("cs", "", NC, .group = 1, .thread = "idle-1")),
	ROW(IDLE("cs", "", PSTAT_ERROR, .group = 1, .thread = "idle-2",
		 .err = EACCES)),
	ROW(IDLE("cs", "", NC, .group = 1, .thread = "idle-3")),
	CPU_ROW(1, IDLE("cs", "", NC, .group = 1, .thread = "idle-4")),
};
#undef NC
#undef IDLE

/* Three intervals of rows[3][nrows], then the summary of total. */
static int print_intervals_of(struct pstat_printer *p,
			      const struct pstat_report *base,
			      const struct pstat_row *rows, size_t nrows,
			      const struct pstat_row *total)
{
	static const uint64_t ends[] = { 100220457, 200594992, 302344354 };
	struct pstat_report r = *base;
	int ret;

	r.is_interval = 1;
	r.nrows = nrows;
	for (size_t i = 0; i < N(ends); i++) {
		r.rows = rows + i * nrows;
		r.interval_index = i + 1;
		r.interval_start_ns = i ? ends[i - 1] : 0;
		r.interval_end_ns = ends[i];
		r.interval_partial = i == N(ends) - 1;
		r.elapsed_ns = ends[i];
		ret = printer_interval(p, &r);
		if (ret)
			return ret;
	}
	r = *base;
	r.rows = total;
	r.nrows = nrows;
	r.elapsed_ns = ends[N(ends) - 1];
	return printer_summary(p, &r);
}

static struct perf_event_attr attr_cycles = {
	.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
	.disabled = 1, .exclude_hv = 1,
};
static struct perf_event_attr attr_insn = {
	.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
	.exclude_kernel = 1, .exclude_hv = 1, .pinned = 1,
};
static struct perf_event_attr attr_tp = {
	.type = PERF_TYPE_TRACEPOINT, .config = 0x1234, .exclude_guest = 1,
};
static struct perf_event_attr attr_raw = {
	.type = PERF_TYPE_RAW, .config = 0x1c2, .config1 = UINT64_MAX,
	.config2 = 0x8000000000000000ULL, .exclude_host = 1,
	.exclude_idle = 1, .exclusive = 1,
};
static struct perf_event_attr attr_bp = {
	.type = PERF_TYPE_BREAKPOINT, .bp_type = 3, .exclude_user = 1,
	.bp_addr = 0x7ffd12345678ULL, .bp_len = 8,
};
static struct perf_event_attr attr_sysfs = {
	.type = 23, .config = 0x2,
};

static const int power_cpus[] = { 0, 20 };

static const struct pstat_dryrun_event dryrun_events[] = {
	{ "cycles", "cpu", "generic", 0, 1, 1.0, "", NULL, 0, &attr_cycles,
	  NULL, NULL, 0, 0, NULL },
	{ "instructions:u", "cpu", "libpfm4", 1, 1, 1.0, "", NULL, 0,
	  &attr_insn, NULL, NULL, 0, 1, NULL },
	{ "sched:sched_switch", "tracepoint", "tracepoint", 1, 0, 1.0, "",
	  NULL, 0, &attr_tp, NULL, NULL, 0, 1, NULL },
	{ "r1c2", "cpu", "raw", 2, 1, 1.0, "", NULL, 0, &attr_raw, NULL,
	  NULL, 0, 0, NULL },
	{ "mem:0x7ffd12345678:rw", "breakpoint", "breakpoint", 3, 1, 1.0,
	  "", NULL, 0, &attr_bp, NULL, NULL, 0, 0, NULL },
	{ "power/energy-pkg/", "power", "sysfs", 4, 1,
	  2.3283064365386962890625e-10, "Joules", power_cpus, 2,
	  &attr_sysfs, NULL, NULL, 0, 0, NULL },
	{ "bad\xff name", NULL, "sysfs", 5, 1, 1.0, NULL, NULL, 0,
	  &attr_sysfs, NULL, NULL, 0, 0, NULL },
};

static const char *const umasks_inst[] = { "ANY_P", "PREC_DIST" };
static const char *const umask_descs_inst[] = { "Any", "" };

static const struct pstat_list_entry list_entries[] = {
	{ "hardware", NULL, "cycles", "CPU cycles", NULL, NULL, NULL, 0, NULL,
	  1.0 },
	{ "software", NULL, "task-clock", NULL, NULL, NULL, NULL, 0, NULL,
	  1.0 },
	{ "cache", NULL, "L1-dcache-load-misses", NULL, NULL, NULL, NULL, 0,
	  NULL, 1.0 },
	{ "pmu", "power", "power/energy-pkg/", "Package energy", "Joules",
	  "event=0x02", NULL, 0, NULL, 2.3283064365386962890625e-10 },
	{ "tracepoint", NULL, "sched:sched_switch", NULL, NULL, NULL, NULL,
	  0, NULL, 1.0 },
	{ "libpfm4", "skl", "skl::INST_RETIRED", "Instructions retired",
	  NULL, "0xc0", umasks_inst, N(umasks_inst), umask_descs_inst,
	  1.0 },
	{ "pmu", "cpu", "cpu/odd/", "desc \xe9 latin-1", NULL, "event=0x1",
	  NULL, 0, NULL, 0 },
};

static const struct pstat_list_pmu list_pmus[] = {
	{ "cpu", "sysfs", 4, 1, 1 },
	{ "software", "sysfs", 1, 1, 0 },
	{ "power", "sysfs", 23, 1, 0 },
	{ "skl", "libpfm4", -1, 1, 1 },
};

static const char *format_sep(const char *format)
{
	if (!strcmp(format, "csv"))
		return ",";
	if (!strcmp(format, "csv-semicolon"))
		return ";";
	if (!strcmp(format, "csv-tab"))
		return "\t";
	if (!strcmp(format, "csv-multi"))
		return "::";
	if (!strncmp(format, "csv=", 4))
		return format + 4;
	return NULL;
}

static int run_case(struct pstat_printer *p, const char *name)
{
	struct pstat_report r = report_base;

#define SET_ROWS(a) (r.rows = (a), r.nrows = N(a))
	if (!strcmp(name, "basic") || !strcmp(name, "header")) {
		SET_ROWS(rows_basic);
	} else if (!strcmp(name, "notsupported")) {
		SET_ROWS(rows_notsupported);
	} else if (!strcmp(name, "multiplexed")) {
		SET_ROWS(rows_multiplexed);
	} else if (!strcmp(name, "repeats")) {
		SET_ROWS(rows_repeats);
		r.runs = 3;
		r.run_status = run_status_repeats;
		r.exit_status = 1;
		r.elapsed_stats = &stats_elapsed;
	} else if (!strcmp(name, "badutf8")) {
		SET_ROWS(rows_badutf8);
		r.argv = argv_badutf8;
		r.cpu_model = "Bad \xff CPU";
	} else if (!strcmp(name, "sep-in-name")) {
		SET_ROWS(rows_sep);
	} else if (!strcmp(name, "percpu")) {
		SET_ROWS(rows_percpu);
		r.target = TARGET_SYSTEM;
		r.system_wide = 1;
		r.cpus = cpus_percpu;
		r.ncpus = N(cpus_percpu);
	} else if (!strcmp(name, "percpu-interval")) {
		r.target = TARGET_SYSTEM;
		r.system_wide = 1;
		r.cpus = cpus_percpu;
		r.ncpus = 2;
		return print_intervals_of(p, &r, rows_percpu_interval[0], 4,
					  rows_percpu_total);
	} else if (!strcmp(name, "thread") ||
		   !strcmp(name, "thread-interval")) {
		r.argv = NULL;
		r.target = TARGET_PID;
		r.pids = pids_attach;
		r.npids = 1;
		r.tids = tids_attach;
		r.ntids = 2;
		if (name[6] == '-')
			return print_intervals_of(p, &r,
						  rows_thread_interval[0], 4,
						  rows_thread_total);
		SET_ROWS(rows_thread_total);
	} else if (!strcmp(name, "idle-interval")) {
		SET_ROWS(rows_idle);
		r.argv = NULL;
		r.target = TARGET_PID;
		r.is_interval = 1;
		r.interval_index = 1;
		r.interval_end_ns = 100220457;
		return printer_interval(p, &r);
	} else if (!strcmp(name, "attach")) {
		SET_ROWS(rows_basic);
		r.argv = NULL;
		r.target = TARGET_PID;
		r.pids = pids_attach;
		r.npids = N(pids_attach);
		r.tids = tids_attach;
		r.ntids = N(tids_attach);
		r.kernel = NULL;
		r.cpu_model = NULL;
	} else if (!strcmp(name, "signal")) {
		SET_ROWS(rows_basic);
		r.exit_status = 128 + SIGTERM;
		r.exit_signal = SIGTERM;
	} else if (!strcmp(name, "huge")) {
		SET_ROWS(rows_huge);
		r.elapsed_ns = UINT64_MAX;
	} else if (!strcmp(name, "interval")) {
		return print_intervals(p, &r, false);
	} else if (!strcmp(name, "long-interval")) {
		return print_long_intervals(p, &r);
	} else if (!strcmp(name, "interval-repeats") ||
		   !strcmp(name, "interval-repeats-late")) {
		return print_intervals(p, &r, true);
	} else {
		fprintf(stderr, "pstat-test: print: no case '%s'\n", name);
		return -EINVAL;
	}
#undef SET_ROWS
	return printer_summary(p, &r);
}

int t_print(int argc, char **argv)
{
	struct pstat_print_cfg cfg = { .format = FORMAT_JSON };
	const char *format, *name;
	struct pstat_printer *p;
	FILE *out = stdout;
	int ret;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: pstat-test print FORMAT CASE [OUT]\n");
		return 2;
	}
	format = argv[1];
	name = argv[2];
	setlocale(LC_ALL, "");
	if (argc == 4 && !(out = fopen(argv[3], "w"))) {
		fprintf(stderr, "pstat-test: %s: %s\n", argv[3],
			strerror(errno));
		return 2;
	}

	if (!strcmp(name, "dryrun") || !strcmp(name, "list")) {
		struct pstat_list l = {
			.entries = list_entries, .nentries = N(list_entries),
			.pmus = list_pmus, .npmus = N(list_pmus),
			.core_pmu_exposed = 1,
		};

		if (strcmp(format, "json")) {
			fprintf(stderr, "pstat-test: print: %s is JSON only\n",
				name);
			return 2;
		}
		ret = name[0] == 'd' ?
			print_json_dryrun(out, dryrun_events,
					  N(dryrun_events)) :
			print_json_list(out, &l);
		goto out;
	}

	if (!strcmp(format, "json")) {
		cfg.format = FORMAT_JSON;
	} else if (!strcmp(format, "table")) {
		cfg.format = FORMAT_TABLE;
	} else if (!strcmp(format, "table-tty")) {
		cfg.format = FORMAT_TABLE;
		cfg.is_tty = 1;
	} else if (!strcmp(format, "openmetrics")) {
		cfg.format = FORMAT_OPENMETRICS;
	} else if (!strcmp(format, "prometheus")) {
		cfg.format = FORMAT_OPENMETRICS;
		cfg.om_dialect = OM_PROMETHEUS;
	} else if (!strcmp(format, "table-metric-only")) {
		cfg.format = FORMAT_TABLE;
		cfg.metric_only = 1;
	} else if (!strcmp(format, "csv-metric-only")) {
		cfg.format = FORMAT_CSV;
		cfg.csv_sep = ",";
		cfg.metric_only = 1;
	} else if ((cfg.csv_sep = format_sep(format))) {
		cfg.format = FORMAT_CSV;
	} else {
		fprintf(stderr, "pstat-test: print: no format '%s'\n", format);
		return 2;
	}
	cfg.started_header = !strcmp(name, "header");
	/*
	 * interval-repeats: -r 2 known from the start, as pstat's main
	 * passes it; interval-repeats-late: the runs come with the summary
	 * only, after the intervals were printed.
	 */
	cfg.repeat = !strcmp(name, "interval-repeats") ? 2 : 0;
	p = printer_new(&cfg, out);
	ret = run_case(p, name);
	printer_free(p);
	if (ret == -EINVAL)
		return 2;
out:
	if (out != stdout && fclose(out) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "error: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}

/*
 * pstat-test sparkline WIDTH RATE...: the sparkline print_sparkline
 * draws of the rates in at most WIDTH glyphs, after how many it drew.
 * RATE may be N*V for N rates of V. The words may come as one argument
 * (from a data table) or several.
 */
int t_sparkline(int argc, char **argv)
{
	double *rates = NULL;
	size_t n = 0, alloc = 0, len = 1, width = 0, glyphs;
	char *all, *buf, *end, *save = NULL;
	int ret = 1, nwords = 0;

	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	all = xmalloc(len);
	all[0] = '\0';
	for (int i = 1; i < argc; i++) {
		strcat(all, argv[i]);
		strcat(all, " ");
	}
	for (char *w = strtok_r(all, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save), nwords++) {
		char *star = strchr(w, '*');
		unsigned long times = 1;
		double v;

		if (!nwords) {
			width = strtoul(w, &end, 10);
			if (*end) {
				printf("error: bad width '%s'\n", w);
				goto out;
			}
			continue;
		}
		if (star)
			times = strtoul(w, &end, 10);
		if (star && (end != star || !times)) {
			printf("error: bad rate '%s'\n", w);
			goto out;
		}
		v = strtod(star ? star + 1 : w, &end);
		if (*end || end == (star ? star + 1 : w)) {
			printf("error: bad rate '%s'\n", w);
			goto out;
		}
		while (times--) {
			xgrow((void **)&rates, &alloc, n + 1, sizeof(*rates));
			rates[n++] = v;
		}
	}
	if (nwords < 2) {
		printf("error: expected WIDTH RATE...\n");
		goto out;
	}
	buf = xmalloc(3 * n + 1);
	glyphs = print_sparkline(buf, 3 * n + 1, rates, n, 1, width);
	printf("%zu %s\n", glyphs, buf);
	free(buf);
	ret = 0;
out:
	free(rates);
	free(all);
	return ret;
}

/*
 * pstat-test group SEP GROUPING VALUE: VALUE grouped as a locale with
 * thousands separator SEP and GROUPING would show it, GROUPING written
 * as locale(1) prints it ("3;2" for en_IN, "3" for en_US, "-1" for none;
 * "" for the C locale's empty one). One argument, words split at blanks.
 */
int t_group(int argc, char **argv)
{
	char *copy, *save = NULL, *sep, *rule, *val, grouping[16] = "", out[512];
	size_t n = 0;
	int ret = 1;

	if (argc != 2) {
		printf("error: expected one argument\n");
		return 1;
	}
	copy = xstrdup(argv[1]);
	sep = strtok_r(copy, " ", &save);
	rule = strtok_r(NULL, " ", &save);
	val = strtok_r(NULL, " ", &save);
	if (!sep || !rule || !val) {
		printf("error: expected SEP GROUPING VALUE\n");
		goto out;
	}
	if (strcmp(rule, "\"\"")) {
		for (char *t = strtok_r(rule, ";", &save);
		     t && n + 1 < sizeof(grouping); t = strtok_r(NULL, ";", &save))
			grouping[n++] = (char)atoi(t);
	}
	grouping[n] = '\0';
	printf("%s\n", print_group_digits_rule(out, sizeof(out), strtod(val, NULL),
					       sep, grouping));
	ret = 0;
out:
	free(copy);
	return ret;
}

/*
 * pstat-test real [g15]: each line of stdin a double (as strtod reads
 * it, hex floats too), printed by print_real, one a line; with g15,
 * print_g15 against printf's %.15g, a line for each that differs.
 */
int t_real(int argc, char **argv)
{
	char line[256], out[PRINT_REAL_MAX], ref[PRINT_REAL_MAX];
	int g15 = argc > 1 && !strcmp(argv[1], "g15");

	/* g15: print_g15, checked against printf's %.15g */
	while (fgets(line, sizeof(line), stdin)) {
		double v = strtod(line, NULL);

		if (g15) {
			print_g15(out, v);
			snprintf(ref, sizeof(ref), "%.15g", v);
			if (strcmp(out, ref))
				printf("differs: %s %s\n", out, ref);
			continue;
		}
		print_real(out, v);
		puts(out);
	}
	return 0;
}
