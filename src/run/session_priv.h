/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SESSION_PRIV_H
#define PSTAT_SESSION_PRIV_H

/*
 * What session.c (the run loop) and session_rows.c (readings to report
 * rows and the printer) share. Not for other modules.
 */

#include <signal.h>
#include <sys/resource.h>
#include <time.h>

#include "report/metrics.h"
#include "run/counter.h"
#include "run/session.h"
#include "run/target.h"

struct run_result {
	int status;          /* wait status of the command */
	int have_status;
	int exec_err;
	uint64_t elapsed_ns;
	struct rusage ru;
};

/* A row's key and source, as session_metrics_keys last saw them. */
struct session_key_memo {
	const char *thread;
	const struct pstat_aggr_id *aggr;
	int cpu, src;
};

/*
 * The metrics of the run (cfg->metrics): the inputs of one evaluation,
 * the values of the last report, and under -r each value's samples.
 */
struct session_metrics {
	double *value;               /* [input] */
	const char **why;            /* [input] */
	int *mux;                    /* [input] */
	int *ungrouped;              /* [input]: its weak group was refused */
	size_t *input_at;            /* [input]: its report row */
	char **why_text;             /* [input * 3]: not counted, ... */
	const char ***inputs;        /* [metric]: the events it reads */
	size_t **input_ix;           /* [metric]: the same, as input indices */
	size_t *ninputs;
	struct pstat_metric_about *about;   /* [metric] */
	struct pstat_metric_result *res;    /* [metric] */
	struct pstat_metric_value *v;       /* the values reported */
	size_t nv, alloc;
	struct pstat_metric_place *places;  /* [value] */
	size_t places_alloc;
	double *samples;             /* [value][run] */
	size_t nslots;
	struct pstat_summary *sums;  /* [value] */
	struct pstat_metric_runs *runs;     /* [value]: sums and samples */
	/*
	 * The rows by key (CPU, thread, unit), so that an evaluation is one
	 * pass over the rows (session_metrics_keys).
	 */
	size_t *key_of;              /* [row] */
	size_t *key_row;             /* [key]: its first row */
	size_t *key_last;            /* [key]: its last row */
	size_t *key_in;              /* [key][input]: its row, or SIZE_MAX */
	size_t key_in_alloc;
	size_t *buckets;             /* [hash]: key + 1, or 0 */
	size_t nbuckets;             /* a power of two */
	size_t *in_first;            /* [input]: its first row, any key */
	size_t *in_count;            /* [input]: its rows, any key */
	size_t *src_start;           /* [evlist row]: its inputs in src_in */
	size_t *src_in;
	/*
	 * Per core PMU copies (metric_set_split_pmus) have a value only
	 * where their PMU counts: a bit per PMU, or NULL when no copies.
	 */
	unsigned *pmu_bit;           /* [metric]: its PMU's, or 0 */
	unsigned *src_pmus;          /* [evlist row]: its PMU's */
	unsigned *key_pmus;          /* [key]: the PMUs of its rows */
	/*
	 * What the keys above were built from, row by row: the next
	 * interval's rows are most often the same rows (the same strings,
	 * which live as long as the session), and then so are the keys.
	 */
	struct session_key_memo *memo;      /* [row] */
	size_t memo_rows, memo_keys;        /* memo_rows 0: none kept */
};

struct session {
	const struct pstat_session_cfg *cfg;
	const struct pstat_evlist *evl;
	int *cpus;                   /* counter columns; -1: per task */
	size_t ncpus;
	int *own_cpus;               /* cpus when allocated here */
	pid_t *tids;
	size_t ntids;
	char **thread_names;
	size_t *row_order;           /* --per-thread: the print order */
	char **user_names;           /* [event]: its name with perf's "u" added
					after the kernel was excluded, or NULL */
	int system_wide;
	struct pstat_counters ctr;
	size_t nslots;
	struct pstat_reading *cur, *prev;
	/*
	 * -a, -C, -G with -I: what stats_reading_bound took off each
	 * counter's times, and whether it said so
	 */
	struct pstat_reading *skew;
	int said_bounded;
	struct metrics_index mix;    /* metrics_compute's, kept across intervals */
	int *row_event;              /* evlist row -> first event */
	/*
	 * The events of each evlist row, so that building a report is one
	 * pass over the readings: row r's are row_evs[row_ev_start[r] ..
	 * row_ev_start[r + 1]).
	 */
	size_t *row_ev_start;
	size_t *row_evs;
	size_t readings_summed;      /* by the last build: for the tests */
	/*
	 * --per-socket and the like: the units the counted CPUs fall in,
	 * sorted, and the unit of each CPU column.
	 */
	struct pstat_aggr_id *units;
	size_t nunits;
	size_t *unit_of;
	size_t nrows;                /* output rows per report */
	struct pstat_row *rows;
	const struct perf_event_attr **row_attrs;
	int *row_src;                /* report row -> evlist row */
	/*
	 * --per-thread -I: the build in which each row was last built as a
	 * thread's row of no change (its counters read the same as the
	 * time before), and which thread's; builds are counted in
	 * rows_gen, and a build that is not of intervals, or an open of
	 * the counters, breaks the chain. See fill_thread_rows.
	 */
	struct session_row_idle {
		unsigned gen;
		unsigned thread;
	} *row_idle;
	unsigned rows_gen;
	unsigned char *row_kept;     /* [row]: left as it was by this build */
	size_t nkept, nlast;         /* rows kept by this build; the last's */
	bool rows_as_last;           /* every row kept, as many as the last */
	struct session_metrics met;
	sigset_t waitmask;
	struct timespec started_at;
	/* repeats */
	double *samples;             /* [row][run] */
	double *elapsed;             /* [run] */
	int *run_status;
	unsigned runs_done;
	unsigned nruns;              /* the stride of samples: runs room */
	struct run_result last;      /* session_step: the last recorded */
	uint64_t user_ns, sys_ns;    /* summed over the counted runs */
	unsigned *row_states;        /* [row]: 1 << status, over the runs */
	/* what ended the measurement */
	int got_signal;
	int timed_out;
	int stopped;                 /* we ended the command (--interval-count,
					a control "stop") */
	int ctl_stop;                /* a control "stop": no further runs */
	struct pstat_control ctl;    /* --control; ctl.fd -1 without */
	int *ev_on;                  /* [event]: enabled now (--control) */
	int *cgroup_fds;             /* [event]: -G's directory, or NULL */
	int early_signal;            /* one came before the command started */
	int broken_pipe;             /* the output's reader went away */
	pid_t child_pid;             /* the command of the latest run */
	/*
	 * Counting on pstat itself with inherit: see session_run_once. base holds
	 * the cumulative reading at the start of the current run.
	 */
	int self;
	struct pstat_reading *base;
	/*
	 * sim: the run under Valgrind, what it said (session_sim.c), and
	 * its counts (per event, NULL until a run has some) over sim_ns
	 */
	struct pstat_sim_run sim_run;
	char sim_why[256];
	uint64_t *sim_val;
	uint64_t sim_ns;
};

static inline uint64_t timeval_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

/*
 * Lay out s for cfg: the counter columns (CPUs, threads), the reading
 * slots, the rows and each row's events. Counts nothing and opens
 * nothing. Returns 0; session_free frees what it allocated.
 */
int session_setup(struct session *s, const struct pstat_session_cfg *cfg);
void session_free(struct session *s);

/*
 * One run of the command (or of the counting on pstat itself): counters
 * opened, the command started and waited for, what it did in *res.
 * record: a counted run, not a warm-up. Returns 0 (res->exec_err when
 * the command could not be run), or -1 (reported).
 */
int session_run_once(struct session *s, int record, struct run_result *res);

/*
 * Keep what a counted run measured (see session.c): its rows' values as
 * samples, states, times and status. Returns the number of rows.
 */
size_t session_record_run(struct session *s, const struct run_result *res,
			  int code, unsigned nruns);

/* Close the counters, without waiting for a slow teardown. */
void session_close_counters(struct session *s);

/*
 * Fill s->rows from readings rd (one per counter slot) measured over
 * elapsed_ns, with their metrics. Returns the number of rows.
 * session_build_interval_rows: from the counts between readings base
 * and cur, as an interval's (where rows of idle threads are kept).
 */
size_t session_build_interval_rows(struct session *s,
				   const struct pstat_reading *cur,
				   const struct pstat_reading *base,
				   uint64_t elapsed_ns);
size_t session_build_rows(struct session *s, const struct pstat_reading *rd,
			  uint64_t elapsed_ns);

/* Set up and free s->met for cfg->metrics (nothing when none). */
void session_metrics_setup(struct session *s);
void session_metrics_free(struct session *s);

/*
 * After the counters are opened: note the inputs whose weak group the
 * kernel refused (COUNTER_UNGROUPED), their metrics then computed from
 * counts not taken together, and so marked multiplexed.
 */
void session_metrics_opened(struct session *s);

/*
 * Evaluate the metrics over the first nrows of s->rows, measured over
 * elapsed_ns: once per CPU or thread the rows are split by. Fills
 * s->met.v; returns how many values.
 */
size_t session_metrics_eval(struct session *s, size_t nrows,
			    uint64_t elapsed_ns);

/* rep's metrics: those of the last session_metrics_eval (borrowed). */
void session_report_metrics(const struct session *s, struct pstat_report *rep);

/* Keep the values of counted run `run` of `runs` as samples. */
void session_metrics_record(struct session *s, unsigned run, unsigned runs);

/*
 * After runs counted runs of want planned (runs > 1): each value's
 * statistics and samples, attached to s->met.v.
 */
void session_metrics_summarize(struct session *s, unsigned runs,
			       unsigned want);

/* A report for s: target, rows, environment (for JSON) filled in. */
void session_report_init(struct session *s, struct pstat_report *rep);

/* Report that writing the results failed with -r; returns -1. */
int session_print_failed(struct session *s, int r);

/*
 * Print interval index from the readings in s->cur against s->prev, and
 * make s->cur the new s->prev. Returns 0 or -1 (reported).
 */
int session_print_interval(struct session *s, unsigned long index,
			   uint64_t start_ns, uint64_t end_ns, int partial);

/*
 * Print the summary of the runs done (with statistics when there were
 * several): sums receives one summary per row, esum the elapsed time's.
 * exit_status and exit_signal: what pstat exits with, and the signal
 * that killed the run it comes from (0: none). Returns 0 or -1
 * (reported).
 */
int session_print_summary(struct session *s, size_t nrows,
			  const struct run_result *last, int exit_status,
			  int exit_signal,
			  struct pstat_summary *sums,
			  struct pstat_summary *esum);

/* Report a counter that could not be opened, with what refused it. */
void session_report_open_error(struct session *s,
			       const struct pstat_open_error *oe);

/* Whether a row of the n in s->rows is in a state given to --fail-on. */
int session_fail_on_matches(const struct session *s, size_t n);

/* "sleep: Interrupt", as perf, when the command died of a signal. */
void session_say_killed(const struct session *s,
			const struct run_result *res);

/* With -r, one warning naming the runs that failed. */
void session_warn_failed_runs(const struct session *s);

/* One hint when hardware events failed for want of a core PMU. */
void session_hint_no_core_pmu(const struct session *s);
/* A warning and a hint for each group the PMU cannot count at once. */
void session_warn_full_groups(const struct session *s);

/* ---- session_sim.c */

/*
 * Before a run with cfg->sim: the command's argument vector under
 * Valgrind into *argv (borrowed from s until the next run). When the
 * command cannot be run, res->exec_err is set instead (no run then).
 * Returns 0, or -1 (reported).
 */
int session_sim_begin(struct session *s, struct run_result *res,
		      char *const **argv);

/*
 * After the run: the sim events' values, read from Valgrind's files
 * (which are removed), kept in s for session_sim_fill. When Valgrind wrote none for the
 * command, res->exec_err is ENOEXEC and s->sim_why says why.
 */
void session_sim_finish(struct session *s, struct run_result *res);

/*
 * The sim events' readings of the run into s->cur: (value, the run's
 * elapsed time as enabled and running), never scaled. Nothing without
 * sim events.
 */
void session_sim_fill(struct session *s);

/* Remove what a run left of Valgrind's files, free the counts. */
void session_sim_free(struct session *s);

/* ---- session_wait.c */

/*
 * Catch SIGINT, SIGTERM, SIGHUP and SIGCHLD as flags and block them;
 * *waitmask receives the mask ppoll() waits with (them unblocked).
 */
void session_signals_install(sigset_t *waitmask);

/*
 * A signal that arrived before the command existed is passed on to it
 * whatever its origin: note it in s.
 */
void session_note_early_signal(struct session *s);

/* Pass a pending signal on to the command ch (NULL: none), once. */
void session_forward_signal(struct session *s, struct pstat_child *ch);

/*
 * Whether a terminating signal has arrived, pending ones included (those
 * that came while the run ended): s->got_signal says which. No new run
 * may start then.
 */
int session_signal_arrived(struct session *s);

/*
 * Run cmd with /bin/sh -c and wait for it, passing SIGINT and SIGTERM on
 * (--pre, --post). Returns 0 with its wait status in *status, or -errno
 * when it could not be started.
 */
int session_run_hook(struct session *s, const char *cmd, int *status);

/*
 * The wait of one run started at t0 (now_ns): until the command ch
 * exits (or, with ch NULL, until every attached process has exited, a
 * signal, or --timeout), printing intervals on their absolute deadlines
 * when record is set. Fills res (status, elapsed). Returns 0, or -1
 * when waiting, reading or printing failed (reported).
 */
int session_wait(struct session *s, struct pstat_child *ch, uint64_t t0,
		 int record, struct run_result *res);

#endif
