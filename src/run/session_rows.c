/* SPDX-License-Identifier: MIT */
/*
 * From counter readings to report rows, and to the printer: aggregation
 * per row (and per CPU or thread), scaling, metrics, statistics of
 * repeated runs; and the run's messages about what it counted (open
 * failures, failed runs, --fail-on, the missing core PMU).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/cpuinfo.h"
#include "base/cpumap.h"
#include "base/msg.h"
#include "base/util.h"
#include "events/pmu.h"
#include "report/metrics.h"
#include "run/session_priv.h"
#include "run/target.h"

/*
 * The readings rows are built from: cur, less base when there is one
 * (an interval's counts are the readings since the last, taken as each
 * row sums them: no pass over all the readings first).
 */
struct readings {
	const struct pstat_reading *cur, *base;
};

/*
 * The sum of the readings rd of evlist row r's events on CPU columns
 * [c0, c1) (those of unit ui when ui >= 0) and threads [t0, t1).
 */
static struct pstat_reading sum_readings(struct session *s, size_t r,
					 size_t c0, size_t c1, size_t t0,
					 size_t t1, long ui,
					 const struct readings *rd)
{
	size_t k0 = s->row_ev_start[r], k1 = s->row_ev_start[r + 1];
	struct pstat_reading sum = { 0, 0, 0 };

	/* one reading, a thread's or a CPU's: the common row */
	if (k1 - k0 == 1 && c1 - c0 == 1 && t1 - t0 == 1 && ui < 0) {
		size_t i = counter_slot(&s->ctr, s->row_evs[k0], c0, t0);

		s->readings_summed++;
		return rd->base ? stats_reading_sub(&rd->cur[i], &rd->base[i])
				: rd->cur[i];
	}
	for (size_t k = k0; k < k1; k++)
		for (size_t c = c0; c < c1; c++) {
			if (ui >= 0 && s->unit_of[c] != (size_t)ui)
				continue;
			for (size_t t = t0; t < t1; t++, s->readings_summed++) {
				size_t i = counter_slot(&s->ctr, s->row_evs[k],
							c, t);
				struct pstat_reading d = rd->base ?
					stats_reading_sub(&rd->cur[i],
							  &rd->base[i]) :
					rd->cur[i];

				stats_reading_add(&sum, &d);
			}
		}
	return sum;
}

/*
 * An event whose kernel counting was refused (perf_event_paranoid 2, not
 * root) counts user space only, and its name says so as perf's does: a
 * "u" added, after ':' unless the name has a modifier or a PMU's
 * slashes already ("task-clock:u", "cs:pu", "cpu/x/u"). Made once per
 * event; borrowed.
 */
static const char *user_only_name(struct session *s, size_t ev)
{
	const struct pstat_event *e = &s->evl->ev[ev];
	const char *sep = ":";

	if (!s->user_names)
		s->user_names = xcalloc(s->evl->n, sizeof(*s->user_names));
	if (!s->user_names[ev]) {
		if (strchr(e->name, '/') ||
		    (strchr(e->name, ':') && strcmp(e->resolver, "libpfm4")))
			sep = "";
		s->user_names[ev] = xasprintf("%s%su", e->name, sep);
	}
	return s->user_names[ev];
}

/*
 * What a row of evlist row r is, whatever it counted: its event, where
 * (CPU index ci >= 0, thread index ti >= 0) and, for an event that could
 * not be opened, its status.
 */
static void row_identity(struct session *s, struct pstat_row *row, size_t r,
			 long ci, long ti)
{
	const struct pstat_event *first = &s->evl->ev[s->row_event[r]];
	size_t fe = (size_t)s->row_event[r];

	*row = (struct pstat_row){
		.event = first->name,
		.pmu = first->pmu,
		.group = first->group,
		.group_name = first->group_name,
		.cpu = ci >= 0 ? s->cpus[ci] : -1,
		.thread = ti >= 0 ? s->thread_names[ti] : NULL,
		.cgroup = first->cgroup,
		.unit = metrics_is_clock(&first->attr) ? "msec" :
			first->unit ? first->unit : "",
	};
	if (s->ctr.flags[fe] & COUNTER_USER_ONLY)
		row->event = user_only_name(s, fe);
	/* beside sim events, what a software event counts is said */
	if (s->cfg->sim && first->attr.type == PERF_TYPE_SOFTWARE)
		row->note = "under valgrind, emulation included";
	if (s->ctr.state[fe] == COUNTER_NOT_SUPPORTED) {
		row->status = PSTAT_NOT_SUPPORTED;
		row->err = s->ctr.err[fe];
	}
	if (s->ctr.state[fe] == COUNTER_GROUP_FULL)
		row->note = "its group does not fit the PMU";
}

/*
 * The counts of a row of evlist row r from readings rd, restricted to
 * one CPU index (ci >= 0), one thread index (ti >= 0) or the CPUs of one
 * unit of --per-socket and the like (ui >= 0).
 */
static void row_values(struct session *s, struct pstat_row *row, size_t r,
		       long ci, long ti, long ui, const struct readings *rd)
{
	const struct pstat_event *first = &s->evl->ev[s->row_event[r]];
	size_t c0 = ci >= 0 ? (size_t)ci : 0, t0 = ti >= 0 ? (size_t)ti : 0;
	/*
	 * only the row's own events, CPUs and threads: O(what is summed);
	 * const, so that its fields stay in registers across the call
	 * (reloaded, they waited behind the stores to the row)
	 */
	const struct pstat_reading sum =
		sum_readings(s, r, c0, ci >= 0 ? c0 + 1 : s->ncpus, t0,
			     ti >= 0 ? t0 + 1 : s->ntids, ui, rd);
	uint64_t scaled;
	double pct;
	enum pstat_scale_status st = stats_scale(&sum, &scaled, &pct);

	if (st == SCALE_MULTIPLEXED && first->core_cpus && !s->system_wide) {
		/*
		 * One core PMU of a hybrid CPU, following a task: it runs
		 * only while the task is on that PMU's kind of CPU, and the
		 * rest of the time belongs to the other core PMUs' rows.
		 * Scaling would extrapolate one kind's rate over the other's
		 * time (the error perf users see as inflated P-core counts).
		 */
		scaled = sum.val;
		st = SCALE_COUNTED;
		row->note = "not scaled: counts while the task runs on this PMU's CPUs";
	}
	row->raw = sum.val;
	row->ena = sum.ena;
	row->run = sum.run;
	row->running_pct = pct;
	if (st == SCALE_NOT_COUNTED) {
		row->status = PSTAT_NOT_COUNTED;
		return;
	}
	row->status = st == SCALE_MULTIPLEXED ? PSTAT_MULTIPLEXED
					      : PSTAT_COUNTED;
	row->value = (double)scaled * first->scale;
	if (metrics_is_clock(&first->attr))
		row->value /= 1e6;
}

/*
 * Fill output row n from the readings of evlist row r restricted to one
 * CPU index (ci >= 0), one thread index (ti >= 0) or the CPUs of one
 * unit of --per-socket and the like (ui >= 0).
 */
static void fill_row(struct session *s, size_t n, size_t r, long ci, long ti,
		     long ui, const struct readings *rd)
{
	struct pstat_row *row = &s->rows[n];

	s->row_kept[n] = 0;
	s->row_src[n] = (int)r;
	s->row_attrs[n] = &s->evl->ev[s->row_event[r]].attr;
	row_identity(s, row, r, ci, ti);
	if (row->status != PSTAT_NOT_SUPPORTED)
		row_values(s, row, r, ci, ti, ui, rd);
}

/* Whether a and b are the same reading. */
static bool reading_same(const struct pstat_reading *a,
			 const struct pstat_reading *b)
{
	return a->val == b->val && a->ena == b->ena && a->run == b->run;
}

/*
 * --per-thread: evlist row r's rows from n on, one per thread, each a
 * copy of what they share with its own counts (per row, building the
 * same row anew cost as much as reading the counter). Returns the next n.
 *
 * An interval's row of a thread whose counter read the same as the time
 * before is the row of no counts, no time: the same row whatever the
 * interval. When it was that row in the last build too, at the same
 * place, of the same thread, and no open came between, it is still
 * there, and is left as it is (thousands of idle threads, interval
 * after interval).
 */
static size_t fill_thread_rows(struct session *s, size_t n, size_t r,
			       const struct readings *rd)
{
	const struct perf_event_attr *a = &s->evl->ev[s->row_event[r]].attr;
	size_t k0 = s->row_ev_start[r];
	/* (an interval's rows of one event, one column: the common ones) */
	bool keep = rd->base && s->row_ev_start[r + 1] - k0 == 1 &&
		    s->ncpus == 1;
	struct pstat_row shared;

	row_identity(s, &shared, r, -1, -1);
	for (size_t t = 0; t < s->ntids; t++, n++) {
		struct session_row_idle *idle = &s->row_idle[n];
		bool same = false;

		if (keep) {
			size_t i = counter_slot(&s->ctr, s->row_evs[k0], 0, t);

			same = reading_same(&rd->cur[i], &rd->base[i]);
			if (same && idle->gen && idle->gen == s->rows_gen - 1 &&
			    idle->thread == t && s->row_src[n] == (int)r) {
				idle->gen = s->rows_gen;
				s->row_kept[n] = 1;
				s->nkept++;
				continue;
			}
		}
		s->row_kept[n] = 0;
		/* rows a few ahead (three or four cache lines), to write */
		if (t + PRINT_ROW_AHEAD < s->ntids)
			print_row_prefetch(&s->rows[n + PRINT_ROW_AHEAD], 1);
		s->rows[n] = shared;
		s->rows[n].thread = s->thread_names[t];
		s->row_src[n] = (int)r;
		s->row_attrs[n] = a;
		if (shared.status != PSTAT_NOT_SUPPORTED)
			row_values(s, &s->rows[n], r, -1, (long)t, -1, rd);
		*idle = (struct session_row_idle){
			same ? s->rows_gen : 0, (unsigned)t,
		};
	}
	return n;
}

/*
 * Whether row r has a counter on cpu: events with CPUs of their own
 * (uncore) and those of one core PMU of a hybrid CPU are opened on
 * those alone, when on any.
 */
static int row_on_cpu(const struct session *s, size_t r, int cpu)
{
	size_t fe = (size_t)s->row_event[r];

	if ((!s->evl->ev[fe].cpus && !s->evl->ev[fe].core_cpus) ||
	    s->ctr.state[fe] != COUNTER_OPEN)
		return 1;
	for (size_t k = s->row_ev_start[r]; k < s->row_ev_start[r + 1]; k++) {
		const struct pstat_event *ev = &s->evl->ev[s->row_evs[k]];

		if (ev->cpus ? cpumap_has(ev->cpus, ev->ncpus, cpu)
			     : cpumap_has(ev->core_cpus, ev->ncore_cpus, cpu))
			return 1;
	}
	return 0;
}

/*
 * The rows of --per-socket and the like, unit by unit as perf prints
 * them (S0's events, then S1's): each event of each unit that has a
 * counter of it on some of its CPUs. Returns the number of rows.
 */
static size_t build_unit_rows(struct session *s, const struct readings *rd)
{
	size_t n = 0, nr = (size_t)s->evl->nrows;

	for (size_t u = 0; u < s->nunits; u++) {
		for (size_t r = 0; r < nr; r++) {
			int cpus = 0;

			for (size_t c = 0; c < s->ncpus; c++)
				cpus += s->unit_of[c] == u &&
					row_on_cpu(s, r, s->cpus[c]);
			if (!cpus)
				continue;
			fill_row(s, n, r, -1, -1, (long)u, rd);
			s->rows[n].aggr = &s->units[u];
			s->rows[n++].aggr_nr = cpus;
		}
	}
	return n;
}

/* Build s->rows from rd; returns the number of rows. */
static size_t build_rows(struct session *s, const struct readings *rd,
			 uint64_t elapsed_ns)
{
	size_t n = 0, nr = (size_t)s->evl->nrows;

	s->readings_summed = 0;
	s->nkept = 0;
	s->rows_gen++;
	if (s->nunits) {
		n = build_unit_rows(s, rd);
		metrics_compute(s->rows, n, s->row_attrs, elapsed_ns, &s->mix,
				s->row_kept);
		session_metrics_eval(s, n, elapsed_ns);
		s->rows_as_last = false;
		s->nlast = n;
		return n;
	}

	for (size_t r = 0; r < nr; r++) {
		const struct pstat_event *ev = &s->evl->ev[s->row_event[r]];

		if (s->cfg->no_aggr && s->system_wide) {
			for (size_t c = 0; c < s->ncpus; c++)
				if (row_on_cpu(s, r, s->cpus[c]))
					fill_row(s, n++, r, (long)c, -1, -1, rd);
		} else if (s->cfg->per_thread && ev->cpus) {
			/* counted per CPU, it belongs to no thread */
			fill_row(s, n, r, -1, -1, -1, rd);
			s->rows[n++].thread = "system-wide";
		} else if (s->cfg->per_thread) {
			n = fill_thread_rows(s, n, r, rd);
		} else {
			fill_row(s, n++, r, -1, -1, -1, rd);
		}
	}
	metrics_compute(s->rows, n, s->row_attrs, elapsed_ns, &s->mix,
			s->row_kept);
	session_metrics_eval(s, n, elapsed_ns);
	s->rows_as_last = n && s->nkept == n && s->nlast == n;
	s->nlast = n;
	return n;
}

size_t session_build_interval_rows(struct session *s,
				   const struct pstat_reading *cur,
				   const struct pstat_reading *base,
				   uint64_t elapsed_ns)
{
	const struct readings src = { cur, base };

	return build_rows(s, &src, elapsed_ns);
}

size_t session_build_rows(struct session *s, const struct pstat_reading *rd,
			 uint64_t elapsed_ns)
{
	const struct readings src = { rd, NULL };

	return build_rows(s, &src, elapsed_ns);
}

/*
 * uname and the cpuinfo of sysfs_root's tree (NULL: the machine's) are
 * read only for the JSON document.
 */
static void machine_info(const char *sysfs_root, const char **kernel,
			 const char **cpu_model)
{
	static struct utsname uts;
	static struct pstat_cpuinfo ci;
	static bool loaded;

	if (!loaded) {
		uname(&uts);
		cpuinfo_load(sysfs_root, &ci);
		loaded = true;
	}
	*kernel = uts.release;
	*cpu_model = ci.model_name[0] ? ci.model_name : "unknown";
}

struct by_count {
	double v;
	size_t i;
};

/* Larger counts first; equal ones in thread order (qsort is not stable). */
static int by_count_cmp(const void *pa, const void *pb)
{
	const struct by_count *a = pa, *b = pb;

	if (a->v != b->v)
		return a->v > b->v ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/*
 * --per-thread: rep's rows in perf's order, each event's threads by
 * count, largest first; a row that did not count goes last. With -a,
 * as in perf, the threads that counted nothing are left out.
 */
static void thread_order(struct session *s, struct pstat_report *rep)
{
	size_t n = rep->nrows, shown = 0;
	struct by_count *k;

	enum pstat_format fmt = s->cfg->printer->cfg.format;

	/* (JSON and OpenMetrics keep the rows' order) */
	if (!s->cfg->per_thread || (n < 2 && !s->cfg->all_threads) ||
	    (fmt != FORMAT_TABLE && fmt != FORMAT_CSV &&
	     fmt != FORMAT_JSON_PERF))
		return;
	if (!s->row_order)
		s->row_order = xcalloc(s->nrows + 1, sizeof(*s->row_order));
	k = xmalloc(n * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		const struct pstat_row *row = &s->rows[i];

		k[i].v = row->status <= PSTAT_MULTIPLEXED ? row->value
							  : -INFINITY;
		k[i].i = i;
	}
	/* each run of rows of one event (one source row) on its own */
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo + 1; hi < n && s->row_src[hi] == s->row_src[lo];)
			hi++;
		qsort(&k[lo], hi - lo, sizeof(*k), by_count_cmp);
	}
	for (size_t i = 0; i < n; i++)
		if (!s->cfg->all_threads || s->rows[k[i].i].raw ||
		    !s->rows[k[i].i].thread)
			s->row_order[shown++] = k[i].i;
	free(k);
	rep->order = s->row_order;
	rep->norder = shown;
}

void session_report_init(struct session *s, struct pstat_report *rep)
{
	const struct pstat_session_cfg *cfg = s->cfg;

	memset(rep, 0, sizeof(*rep));
	if (cfg->printer->cfg.format == FORMAT_JSON) {
		machine_info(cfg->sysfs_root, &rep->kernel,
			     &rep->cpu_model);
		rep->perf_event_paranoid = counter_paranoid();
	}
	rep->argv = cfg->argv;
	rep->target = cfg->kind;
	rep->pids = cfg->pids;
	rep->npids = cfg->npids;
	if (cfg->argv && cfg->kind == TARGET_COMMAND && s->child_pid > 0) {
		/* the command's process (with -r, the latest run's) */
		rep->pids = &s->child_pid;
		rep->npids = 1;
	}
	rep->tids = cfg->tids;
	rep->ntids = cfg->ntids;
	rep->system_wide = s->system_wide || cfg->all_threads;
	rep->cpu_subset = cfg->cpu_subset;
	rep->aggr = s->nunits ? cfg->aggr : AGGR_NONE;
	rep->cgroups = s->cgroup_fds != NULL;
	if (s->system_wide) {
		rep->cpus = s->cpus;
		rep->ncpus = s->ncpus;
	}
	rep->rows = s->rows;
	session_report_metrics(s, rep);
	rep->perf_default_rows = cfg->perf_default_rows;
	rep->started_at = s->started_at;
	rep->runs = 1;
}

int session_print_failed(struct session *s, int r)
{
	/* nobody reads any more (| head): end quietly, like a SIGPIPE */
	if (r == -EPIPE) {
		s->broken_pipe = 1;
		return -1;
	}
	msg_error("cannot write the results to '%s': %s",
		  s->cfg->output_name ? s->cfg->output_name : "stderr",
		  strerror(-r));
	return -1;
}

/* stats_reading_bound over every counter of a -a/-C/-G session. */
static void bound_cpu_times(struct session *s, const struct pstat_reading *last,
			    uint64_t wall_ns)
{
	for (size_t i = 0; i < s->nslots; i++) {
		uint64_t said = s->cur[i].ena - s->skew[i].ena - last[i].ena;

		if (!stats_reading_bound(&s->cur[i], &last[i], &s->skew[i],
					 wall_ns) ||
		    s->said_bounded)
			continue;
		/* (said: the kernel's growth, which was more than cur's) */
		s->said_bounded = 1;
		msg_debug(1, "the kernel says a counter on one CPU was enabled %.3f s in an interval of %.3f s: counted as %.3f s",
			  (double)said / 1e9, (double)wall_ns / 1e9,
			  (double)(s->cur[i].ena - last[i].ena) / 1e9);
	}
}

int session_print_interval(struct session *s, unsigned long index,
			  uint64_t start_ns, uint64_t end_ns, int partial)
{
	struct pstat_reading *last = s->prev;
	/* the interval's counts: since the last reading */
	const struct readings src = { s->cur, last };
	struct pstat_report rep;
	int r;

	/*
	 * A counter on one CPU is enabled at most the interval's time; the
	 * kernel's cgroup clock has been seen to jump by minutes (an empty
	 * cgroup's first reading of task-clock: 665 s enabled)
	 */
	if (s->system_wide)
		bound_cpu_times(s, last, end_ns - start_ns);
	session_report_init(s, &rep);
	rep.is_interval = 1;
	rep.nrows = build_rows(s, &src, end_ns - start_ns);
	/* (the last build was printed: an interval's, or it kept nothing) */
	rep.rows_as_last = s->rows_as_last;
	/* this reading is the one the next starts from (cur is read anew) */
	s->prev = s->cur;
	s->cur = last;
	session_report_metrics(s, &rep);
	rep.interval_index = index;
	rep.interval_start_ns = start_ns;
	rep.interval_end_ns = end_ns;
	rep.interval_partial = partial;
	rep.interval_run = s->cfg->repeat > 1 ? s->runs_done + 1 : 0;
	rep.elapsed_ns = end_ns - start_ns;    /* the interval's own length */
	thread_order(s, &rep);
	r = printer_interval(s->cfg->printer, &rep);
	return r ? session_print_failed(s, r) : 0;
}

/* Print the summary of all runs; returns 0 or -1 (reported). */
int session_print_summary(struct session *s, size_t nrows,
			 const struct run_result *last, int exit_status,
			 int exit_signal, struct pstat_summary *sums,
			 struct pstat_summary *esum)
{
	struct pstat_report rep;
	unsigned runs = s->runs_done;
	int r;

	session_report_init(s, &rep);
	rep.nrows = nrows;
	rep.runs = (int)runs;
	rep.elapsed_ns = last->elapsed_ns;
	/* with -r, the means of the runs, as the counters' values are */
	rep.user_ns = runs ? s->user_ns / runs : 0;
	rep.sys_ns = runs ? s->sys_ns / runs : 0;
	rep.exit_status = exit_status;
	rep.exit_signal = exit_signal;
	rep.run_status = s->run_status;
	if (runs > 1) {
		double *counted = xmalloc(runs * sizeof(*counted));

		for (size_t i = 0; i < nrows; i++) {
			size_t k = 0;

			/* the statistics of the runs that counted the row */
			for (unsigned j = 0; j < runs; j++)
				if (!isnan(s->samples[i * runs + j]))
					counted[k++] = s->samples[i * runs + j];
			stats_summarize(counted, k, &sums[i]);
			s->rows[i].stats = &sums[i];
			s->rows[i].samples = &s->samples[i * runs];
			s->rows[i].nsamples = runs;
			if (s->rows[i].status <= PSTAT_MULTIPLEXED)
				s->rows[i].value = sums[i].mean;
		}
		free(counted);
		stats_summarize(s->elapsed, runs, esum);
		rep.elapsed_stats = esum;
		rep.elapsed_samples = s->elapsed;
		rep.elapsed_ns = (uint64_t)esum->mean;
		/* the metrics of the means, not of the last run (as perf) */
		metrics_compute(s->rows, nrows, s->row_attrs, rep.elapsed_ns,
				&s->mix, NULL);
		session_metrics_eval(s, nrows, rep.elapsed_ns);
		session_metrics_summarize(s, runs, s->cfg->repeat ?
							   s->cfg->repeat : 1);
		session_report_metrics(s, &rep);
	}
	thread_order(s, &rep);
	r = printer_summary(s->cfg->printer, &rep);
	return r ? session_print_failed(s, r) : 0;
}

void session_report_open_error(struct session *s,
			      const struct pstat_open_error *oe)
{
	const struct pstat_event *ev = &s->evl->ev[oe->event];

	if (oe->cpu >= 0)
		msg_error("cannot open event '%s' on CPU %d: %s", ev->name,
			  oe->cpu, strerror(oe->err));
	else if (s->cfg->kind != TARGET_COMMAND && oe->tid >= 0)
		msg_error("cannot open event '%s' for thread %d: %s",
			  ev->name, (int)oe->tid, strerror(oe->err));
	else
		msg_error("cannot open event '%s': %s", ev->name,
			  strerror(oe->err));
	if ((oe->err == EACCES || oe->err == EPERM) && oe->tid > 0 &&
	    s->cfg->kind != TARGET_COMMAND) {
		uid_t owner;

		/* which rule refused: ptrace access to another user's task */
		if (target_owner(oe->tid, &owner) == 0 && owner != geteuid()) {
			msg_hint("thread %d belongs to uid %u: attaching needs ptrace access to it (the same user, or CAP_SYS_PTRACE and CAP_PERFMON)",
				 (int)oe->tid, (unsigned)owner);
			return;
		}
	}
	if (oe->advice[0])
		msg_hint("%s", oe->advice);
}

int session_fail_on_matches(const struct session *s, size_t n)
{
	unsigned f = s->cfg->fail_on;

	/* a state any run ended in, not only the last one's */
	for (size_t i = 0; i < n; i++) {
		unsigned st = s->row_states[i] | 1u << s->rows[i].status;

		if (((f & FAIL_ON_NOT_SUPPORTED) &&
		     (st & (1u << PSTAT_NOT_SUPPORTED | 1u << PSTAT_ERROR))) ||
		    ((f & FAIL_ON_NOT_COUNTED) &&
		     (st & 1u << PSTAT_NOT_COUNTED)) ||
		    ((f & FAIL_ON_MULTIPLEXED) &&
		     (st & 1u << PSTAT_MULTIPLEXED)))
			return 1;
	}
	return 0;
}

/*
 * A command killed by a signal, said as perf says it ("sleep:
 * Interrupt"), before the results; not when the results are JSON or
 * CSV on the same stderr (msg_quiet), whose readers expect them alone.
 */
void session_say_killed(const struct session *s,
			const struct run_result *res)
{
	if (msg_quiet || !res->have_status || !WIFSIGNALED(res->status))
		return;
	/* what Valgrind said of it: an instruction it cannot emulate */
	if (s->sim_why[0]) {
		msg_error("'%s' died of %s: %s", s->cfg->argv[0],
			  strsignal(WTERMSIG(res->status)), s->sim_why);
		return;
	}
	fprintf(stderr, "%s: %s\n", s->cfg->argv[0],
		strsignal(WTERMSIG(res->status)));
	fflush(stderr);
}

/*
 * With -r, the runs that failed, in one line after the results (the
 * JSON document has them all in exit.runs): "2 of 5 runs failed: run 2
 * exit 1, run 4 exit 139".
 */
void session_warn_failed_runs(const struct session *s)
{
	char list[512] = "";
	size_t len = 0;
	unsigned failed = 0;

	if (s->runs_done < 2)
		return;
	for (unsigned i = 0; i < s->runs_done; i++) {
		if (!s->run_status[i])
			continue;
		failed++;
		if (len < sizeof(list) - 32)
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%srun %u exit %d",
						len ? ", " : "", i + 1,
						s->run_status[i]);
		else if (!strstr(list, ", ..."))
			strcat(list, ", ...");
	}
	if (failed)
		msg_warn("%u of %u runs failed: %s (their counts are in the statistics)",
			 failed, s->runs_done, list);
}

/*
 * A hardware event that is not supported on a machine whose kernel
 * registered no core PMU (a virtual machine without a virtual PMU): say
 * why, once. Where there is a core PMU, an event it does not count
 * (branches on QEMU's PMUv3) is that PMU's answer and needs no hint.
 */
void session_hint_no_core_pmu(const struct session *s)
{
	struct pstat_pmus *pmus;
	bool core;

	for (size_t i = 0; i < s->evl->n; i++) {
		const struct pstat_event *ev = &s->evl->ev[i];

		if (s->ctr.state[i] != COUNTER_NOT_SUPPORTED)
			continue;
		if (ev->attr.type != PERF_TYPE_HARDWARE &&
		    ev->attr.type != PERF_TYPE_HW_CACHE &&
		    ev->attr.type != PERF_TYPE_RAW)
			continue;
		pmus = pmus_new(s->cfg->sysfs_root);
		core = pmus_have_core(pmus, s->cfg->sysfs_root);
		pmus_free(pmus);
		if (!core)
			msg_hint("hardware events are not supported: the kernel exposes no core PMU here (a virtual machine?); see 'pstat list'");
		return;
	}
}

/*
 * Each group the PMU cannot count at once (counters_open closed it and
 * went on, as perf runs it): which group, the member the kernel refused,
 * and how many of the group's events the PMU took before it.
 */
void session_warn_full_groups(const struct session *s)
{
	const struct pstat_evlist *evl = s->evl;

	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_event *ev = &evl->ev[i];
		char names[256] = "";
		size_t first = i, held = 0, len = 0;

		if (!(s->ctr.flags[i] & COUNTER_REFUSED_MEMBER))
			continue;
		while (first > 0 && evl->ev[first - 1].group == ev->group)
			first--;
		for (size_t k = first; k < evl->n && evl->ev[k].group == ev->group; k++) {
			if (len < sizeof(names) - 32)
				len += (size_t)snprintf(names + len,
							sizeof(names) - len,
							"%s%s", k > first ? "," : "",
							evl->ev[k].name);
			else if (!strstr(names, ",..."))
				strcat(names, ",...");
			held += k < i && s->ctr.state[k] == COUNTER_GROUP_FULL;
		}
		msg_warn("the group {%s} cannot be counted: the kernel refused its member %zu, %s (%s), which counts on its own: %s holds at most %zu of the group's events at once; they are <not counted>",
			 names, i - first + 1, ev->name,
			 strerror(s->ctr.err[i]), ev->pmu ? ev->pmu : "the PMU",
			 held);
		msg_hint("add :W ({...}:W) to count a group ungrouped when it does not fit, or split it (at most %zu events a group)",
			 held);
	}
}
