/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "run/cgroup.h"
#include "run/counter.h"
#include "run/session.h"
#include "run/session_priv.h"
#include "run/target.h"

/*
 * Tracepoint (and kprobe/uprobe) counters cost the kernel tens of
 * milliseconds each to close; so do thousands of any kind. Their
 * teardown is handed to a detached process unless --wait-close asks to
 * wait for it.
 */
static int event_slow_to_close(const struct pstat_event *ev)
{
	return ev->attr.type == PERF_TYPE_TRACEPOINT ||
	       !strcmp(ev->pmu, "kprobe") || !strcmp(ev->pmu, "uprobe");
}

static int slow_to_close(const struct session *s)
{
	size_t open = 0;

	if (s->cfg->wait_close)
		return 0;
	for (size_t i = 0; i < s->evl->n; i++) {
		if (s->ctr.state[i] != COUNTER_OPEN)
			continue;
		if (event_slow_to_close(&s->evl->ev[i]))
			return 1;
		open += s->ncpus * s->ntids;
	}
	return open > 1000;
}

/* Whether an event of the list is one of those slow to close. */
static int any_slow_to_close(const struct pstat_evlist *evl)
{
	for (size_t i = 0; i < evl->n; i++)
		if (event_slow_to_close(&evl->ev[i]))
			return 1;
	return 0;
}

/* One run: open, start, wait, read. Returns 0 or -1 (reported). */
/*
 * After opening: the weak groups the kernel refused, which count
 * ungrouped now, for the metrics to say so; said at -v once, as perf
 * does.
 */
static void note_ungrouped(struct session *s, int say)
{
	const struct pstat_evlist *evl = s->evl;

	/* (what a row is may change with how its counters opened) */
	s->rows_gen++;
	session_metrics_opened(s);
	if (say)
		session_warn_full_groups(s);
	for (size_t i = 0; say && i < evl->n; i++) {
		size_t n = 1;

		if (!(s->ctr.flags[i] & COUNTER_UNGROUPED) ||
		    evl->ev[i].leader != (int)i)
			continue;
		while (i + n < evl->n && evl->ev[i + n].group == evl->ev[i].group)
			n++;
		msg_debug(1, "the kernel refused the weak group of '%s' (%zu events): counted ungrouped",
			  evl->ev[i].name, n);
	}
}

/*
 * Counters on pstat itself, opened once for all the runs (see below).
 * Sets s->self. Returns 0 or -1 (reported).
 */
static int open_self_counters(struct session *s)
{
	const struct pstat_session_cfg *cfg = s->cfg;
	struct pstat_open_opts oo = { 0 };
	struct pstat_open_error oe;

	/*
	 * A command counted with inherit (the default) is counted through
	 * counters opened once on pstat itself, disabled, with inherit and
	 * enable_on_exec: each run's child inherits them at fork and they
	 * start at its exec, while pstat's own copies never run (pstat never
	 * execs). Reading pstat's counters sums the children, live and
	 * exited, so a run is the difference of two readings. Counters are
	 * thus opened and closed once however many runs there are, which
	 * matters for tracepoints: opening waits on the kernel while earlier
	 * ones are still being torn down, tens of ms each. A single run
	 * counts on its child instead: pstat's own exit would then pay the
	 * teardown of counters in its context, which the detached closer
	 * spares a child's (see session_close_counters). Events counted on CPUs of
	 * their own (uncore) would count between runs too: not then. And
	 * only when an event is slow to close: other counters are opened
	 * afresh for every run, which costs microseconds.
	 */
	s->self = cfg->argv && cfg->kind == TARGET_COMMAND &&
		  !s->system_wide && !cfg->all_threads && cfg->inherit &&
		  !cfg->delay_ms && !cfg->start_disabled && !cfg->control &&
		  cfg->repeat + cfg->warmup > 1 &&
		  s->ncpus == 1 && any_slow_to_close(s->evl);
	if (s->self && !s->ctr.fds) {
		/* to see processes a run leaves behind (session_run) */
		target_be_subreaper();
		oo.inherit = 1;
		oo.enable_on_exec = 1;
		oo.disabled = 1;
		oo.no_clone = 1;
		s->tids[0] = getpid();
		if (counters_open(&s->ctr, s->evl, s->cpus, s->ncpus,
				  s->tids, s->ntids, &oo, &oe)) {
			session_report_open_error(s, &oe);
			return -1;
		}
		note_ungrouped(s, 1);
	}
	return 0;
}

/*
 * The run's own counters: on the command ch (enabled at its exec), the
 * attached threads or the CPUs (enabled by the caller). Returns 0 or -1
 * (reported).
 */
static int open_run_counters(struct session *s, struct pstat_child *ch,
			     int record)
{
	const struct pstat_session_cfg *cfg = s->cfg;
	struct pstat_open_opts oo = { 0 };
	struct pstat_open_error oe;

	oo.inherit = cfg->inherit;
	oo.cgroup_fds = s->cgroup_fds;
	oo.enable_on_exec = ch && !s->system_wide && !cfg->all_threads &&
			    cfg->kind == TARGET_COMMAND && !cfg->delay_ms &&
			    !cfg->start_disabled;
	oo.disabled = !oo.enable_on_exec;
	/* one read per attached thread; --control toggles single events */
	oo.task_groups = (cfg->kind == TARGET_PID || cfg->kind == TARGET_TID ||
			  cfg->all_threads) &&
			 !s->system_wide && !cfg->control;
	if (counters_open(&s->ctr, s->evl, s->cpus, s->ncpus, s->tids,
			  s->ntids, &oo, &oe)) {
		session_report_open_error(s, &oe);
		return -1;
	}
	note_ungrouped(s, record && s->runs_done == 0);
	for (size_t i = 0; i < s->evl->n && record && s->runs_done == 0; i++) {
		const struct pstat_event *ev = &s->evl->ev[i];

		if (s->ctr.state[i] == COUNTER_NOT_SUPPORTED)
			msg_debug(1, "event '%s' is not supported: %s",
				  ev->name, strerror(s->ctr.err[i]));
	}
	return 0;
}

/*
 * After the wait: the run's reading (less the base when counting on
 * pstat itself), and the command's status if the measurement ended
 * first. Returns 0 or -1 (reported).
 */
static int finish_run(struct session *s, struct pstat_child *ch,
		      int intervals, struct run_result *res)
{
	int r = 0;

	/*
	 * With intervals the run's counts are those of the last interval's
	 * reading, so that the summary is the intervals' sum: not what came
	 * before the first or after the last (--interval-count), which no
	 * interval shows.
	 */
	if (intervals)
		memcpy(s->cur, s->prev, s->nslots * sizeof(*s->cur));
	else
		r = counters_read(&s->ctr, s->cur, NULL);
	if (r) {
		msg_error("cannot read counters: %s", strerror(-r));
		if (ch)
			target_release(ch);
		return -1;
	}
	for (size_t i = 0; i < s->nslots; i++)
		s->cur[i] = stats_reading_sub(&s->cur[i], &s->base[i]);
	session_sim_fill(s);
	if (ch && !res->have_status) {
		/* measurement ended first (--interval-count) */
		while ((r = target_wait(ch, &res->status, &res->ru)) == -EINTR)
			session_forward_signal(s, ch);
		res->have_status = r == 0;
	}
	return 0;
}

int session_run_once(struct session *s, int record, struct run_result *res)
{
	const struct pstat_session_cfg *cfg = s->cfg;
	struct pstat_child child, *ch = NULL;
	uint64_t t0;
	int r;

	memset(res, 0, sizeof(*res));
	if (open_self_counters(s))
		return -1;
	if (cfg->argv) {
		char *const *argv = cfg->argv;

		if (cfg->sim && session_sim_begin(s, res, &argv))
			return -1;
		if (!argv)
			return 0; /* res->exec_err: it cannot be run */
		r = target_fork(argv, cfg->keep_on_exit, &child);
		if (r) {
			msg_error("cannot start '%s': %s", cfg->argv[0],
				  strerror(-r));
			return -1;
		}
		ch = &child;
		s->child_pid = child.pid;
		/* (with -p or -t, the command only sets how long to count) */
		if (!s->system_wide && !s->self &&
		    cfg->kind == TARGET_COMMAND && !cfg->all_threads)
			s->tids[0] = child.pid;
	}
	if (!s->self && open_run_counters(s, ch, record)) {
		if (ch)
			target_release(ch);
		return -1;
	}
	if (!s->started_at.tv_sec)
		clock_gettime(CLOCK_REALTIME, &s->started_at);
	t0 = now_ns();
	/* all but those waiting for the exec */
	if (!cfg->delay_ms && !cfg->start_disabled)
		counters_enable(&s->ctr);
	if (s->self && (r = counters_read(&s->ctr, s->base, NULL))) {
		msg_error("cannot read counters: %s", strerror(-r));
		target_release(ch);
		return -1;
	}
	if (ch) {
		int st = 0;

		session_note_early_signal(s);
		r = target_start(ch, &st);
		if (r) {
			res->exec_err = r;
			res->status = st;
			res->have_status = 1;
			return 0;
		}
	}
	memcpy(s->prev, s->base, s->nslots * sizeof(*s->prev));
	if (session_wait(s, ch, t0, record, res)) {
		if (ch) {
			target_kill(ch, SIGKILL);
			target_release(ch);
		}
		return -1;
	}
	if (cfg->sim && ch)
		session_sim_finish(s, res);
	return finish_run(s, ch, cfg->interval_ms && record, res);
}

/* Close the counters, without waiting for a slow teardown. */
void session_close_counters(struct session *s)
{
	int release = -1;

	if (s->ctr.fds && slow_to_close(s)) {
		int *fds = xmalloc((s->nslots + 1) * sizeof(*fds));
		size_t n = 0;

		for (size_t i = 0; i < s->nslots; i++)
			if (s->ctr.fds[i] >= 0)
				fds[n++] = s->ctr.fds[i];
		if (n && (release = target_close_detached(fds, n)) < 0)
			msg_debug(1, "closing %zu counters in this process", n);
		free(fds);
	}
	counters_close(&s->ctr);
	/* ours are closed: the closer's are the last, it pays the teardown */
	if (release >= 0)
		close(release);
}

/*
 * The counter columns of a per-task session: -1 (the target), then every
 * CPU that an event with CPUs of its own (uncore) is opened on. New
 * array; *n its length.
 */
static int *task_columns(const struct pstat_evlist *evl, size_t *n)
{
	int *cols = xmalloc(sizeof(*cols));

	cols[0] = -1;
	*n = 1;
	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_event *ev = &evl->ev[i];

		for (size_t k = 0; k < ev->ncpus; k++) {
			size_t j = 1;

			while (j < *n && cols[j] < ev->cpus[k])
				j++;
			if (j < *n && cols[j] == ev->cpus[k])
				continue;
			cols = xrealloc(cols, (*n + 1) * sizeof(*cols));
			memmove(&cols[j + 1], &cols[j],
				(*n - j) * sizeof(*cols));
			cols[j] = ev->cpus[k];
			(*n)++;
		}
	}
	return cols;
}

static int unit_cmp(const void *a, const void *b)
{
	return topo_aggr_cmp(a, b);
}

/*
 * The units of --per-socket and the like: each counted CPU's, sorted
 * and made distinct, and the unit of each CPU column.
 */
static void session_units(struct session *s)
{
	const struct pstat_session_cfg *cfg = s->cfg;
	struct pstat_aggr_id *ids = xcalloc(s->ncpus + 1, sizeof(*ids));

	s->units = xcalloc(s->ncpus + 1, sizeof(*s->units));
	s->unit_of = xcalloc(s->ncpus + 1, sizeof(*s->unit_of));
	for (size_t c = 0; c < s->ncpus; c++)
		topo_aggr_id(cfg->topo, s->cpus[c], cfg->aggr,
			     cfg->aggr_cache_level, &ids[c]);
	for (size_t c = 0; c < s->ncpus; c++) {
		size_t u = 0;

		while (u < s->nunits && topo_aggr_cmp(&s->units[u], &ids[c]))
			u++;
		if (u == s->nunits)
			s->units[s->nunits++] = ids[c];
	}
	qsort(s->units, s->nunits, sizeof(*s->units), unit_cmp);
	for (size_t c = 0; c < s->ncpus; c++)
		for (size_t u = 0; u < s->nunits; u++)
			if (!topo_aggr_cmp(&s->units[u], &ids[c]))
				s->unit_of[c] = u;
	free(ids);
}

/* s->row_ev_start and s->row_evs: each row's events, by counting sort. */
static void index_row_events(struct session *s)
{
	size_t nr = (size_t)s->evl->nrows, n = s->evl->n;
	size_t *fill;

	s->row_ev_start = xcalloc(nr + 2, sizeof(*s->row_ev_start));
	s->row_evs = xcalloc(n + 1, sizeof(*s->row_evs));
	for (size_t i = 0; i < n; i++)
		s->row_ev_start[s->evl->ev[i].row + 1]++;
	for (size_t r = 0; r < nr; r++)
		s->row_ev_start[r + 1] += s->row_ev_start[r];
	fill = xmalloc((nr + 1) * sizeof(*fill));
	memcpy(fill, s->row_ev_start, (nr + 1) * sizeof(*fill));
	for (size_t i = 0; i < n; i++)
		s->row_evs[fill[s->evl->ev[i].row]++] = i;
	free(fill);
}

int session_setup(struct session *s, const struct pstat_session_cfg *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->evl = cfg->evl;
	s->system_wide = cfg->cpus != NULL;
	if (s->system_wide) {
		s->cpus = (int *)cfg->cpus;
		s->ncpus = cfg->ncpus;
		s->tids = xmalloc(sizeof(*s->tids));
		s->tids[0] = -1;
		s->ntids = 1;
	} else {
		s->cpus = s->own_cpus = task_columns(s->evl, &s->ncpus);
		s->ntids = cfg->kind == TARGET_COMMAND && !cfg->all_threads ?
				   1 : cfg->ntids;
		s->tids = xcalloc(s->ntids, sizeof(*s->tids));
		if (cfg->kind != TARGET_COMMAND || cfg->all_threads)
			memcpy(s->tids, cfg->tids,
			       s->ntids * sizeof(*s->tids));
	}
	s->thread_names = xcalloc(s->ntids, sizeof(*s->thread_names));
	if (cfg->per_thread)
		for (size_t t = 0; t < s->ntids; t++)
			s->thread_names[t] = target_thread_name(s->tids[t]);
	s->nslots = s->evl->n * s->ncpus * s->ntids;
	s->cur = xcalloc(s->nslots, sizeof(*s->cur));
	s->prev = xcalloc(s->nslots, sizeof(*s->prev));
	s->skew = xcalloc(s->nslots, sizeof(*s->skew));
	s->base = xcalloc(s->nslots, sizeof(*s->base));
	s->row_event = xmalloc(((size_t)s->evl->nrows + 1) *
			       sizeof(*s->row_event));
	for (size_t i = s->evl->n; i-- > 0;)
		s->row_event[s->evl->ev[i].row] = (int)i;
	index_row_events(s);
	if (cfg->aggr && s->system_wide)
		session_units(s);
	s->nrows = (size_t)s->evl->nrows *
		   (cfg->no_aggr && s->system_wide ? s->ncpus :
		    s->nunits ? s->nunits :
		    cfg->per_thread ? s->ntids : 1);
	s->rows = xcalloc(s->nrows + 1, sizeof(*s->rows));
	s->row_attrs = xcalloc(s->nrows + 1, sizeof(*s->row_attrs));
	s->row_src = xcalloc(s->nrows + 1, sizeof(*s->row_src));
	s->row_idle = xcalloc(s->nrows + 1, sizeof(*s->row_idle));
	s->row_kept = xcalloc(s->nrows + 1, sizeof(*s->row_kept));
	session_metrics_setup(s);
	s->samples = xcalloc(s->nrows * (cfg->repeat ? cfg->repeat : 1) + 1,
			     sizeof(*s->samples));
	s->nruns = cfg->repeat ? cfg->repeat : 1;
	s->elapsed = xcalloc(cfg->repeat + 1, sizeof(*s->elapsed));
	s->run_status = xcalloc(cfg->repeat + 1, sizeof(*s->run_status));
	s->row_states = xcalloc(s->nrows + 1, sizeof(*s->row_states));
	s->ev_on = xcalloc(s->evl->n + 1, sizeof(*s->ev_on));
	s->ctl.fd = s->ctl.ack_fd = -1;
	s->sim_run.dfd = -1;
	return 0;
}

void session_free(struct session *s)
{
	free(s->own_cpus);
	free(s->tids);
	for (size_t t = 0; t < s->ntids; t++)
		free(s->thread_names[t]);
	free(s->thread_names);
	for (size_t i = 0; s->user_names && i < s->evl->n; i++)
		free(s->user_names[i]);
	free(s->user_names);
	free(s->row_order);
	free(s->cur);
	free(s->prev);
	free(s->skew);
	metrics_index_free(&s->mix);
	free(s->base);
	free(s->row_event);
	free(s->row_ev_start);
	free(s->row_evs);
	free(s->rows);
	free(s->row_attrs);
	free(s->units);
	free(s->unit_of);
	free(s->row_src);
	free(s->row_idle);
	free(s->row_kept);
	session_metrics_free(s);
	free(s->samples);
	free(s->elapsed);
	free(s->run_status);
	free(s->row_states);
	free(s->ev_on);
	control_close(&s->ctl);
	cgroup_close_events(s->evl, s->cgroup_fds);
	session_sim_free(s);
}

/*
 * Keep what a counted run measured: its rows' values as samples (NAN
 * for a row it did not count), states, times and status. nruns: the
 * counted runs planned. Returns the number of rows.
 */
size_t session_record_run(struct session *s, const struct run_result *res,
			  int code, unsigned nruns)
{
	size_t nrows = session_build_rows(s, s->cur, res->elapsed_ns);

	for (size_t i = 0; i < nrows; i++) {
		s->samples[i * nruns + s->runs_done] =
			s->rows[i].status <= PSTAT_MULTIPLEXED ? s->rows[i].value
							       : NAN;
		s->row_states[i] |= 1u << s->rows[i].status;
	}
	session_metrics_record(s, s->runs_done, nruns);
	s->user_ns += timeval_ns(&res->ru.ru_utime);
	s->sys_ns += timeval_ns(&res->ru.ru_stime);
	s->elapsed[s->runs_done] = (double)res->elapsed_ns;
	s->run_status[s->runs_done] = code;
	s->runs_done++;
	return nrows;
}

/*
 * --pre or --post: cmd through the shell, uncounted. A --pre that fails
 * stops the runs (what it prepares is missing); a --post that fails is
 * only reported, as perf ignores it. Returns 0 or -1 (reported).
 */
static int run_hook(struct session *s, const char *opt, const char *cmd)
{
	int st = 0, r = session_run_hook(s, cmd, &st);
	int pre = !strcmp(opt, "--pre");

	if (r) {
		msg_error("cannot run the %s command '%s': %s", opt, cmd,
			  strerror(-r));
		return -1;
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return 0;
	if (s->got_signal)  /* ended with the run by Ctrl-C: said there */
		return pre ? -1 : 0;
	if (!pre) {
		msg_warn("the --post command '%s' failed: %s %d", cmd,
			 WIFEXITED(st) ? "exit" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return 0;
	}
	msg_error("the --pre command '%s' failed: %s %d", cmd,
		  WIFEXITED(st) ? "exit" : "signal",
		  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return -1;
}

/*
 * One run between its --pre and --post commands (and after -S's sync). Returns 0, -1 when it
 * failed (reported) or 1 when a signal came during --pre: no run then.
 */
static int run_hooked(struct session *s, int record, struct run_result *res)
{
	const struct pstat_session_cfg *cfg = s->cfg;

	if (cfg->pre_cmd && run_hook(s, "--pre", cfg->pre_cmd))
		return -1;
	/* a signal during --pre: no run */
	if (cfg->pre_cmd && s->got_signal)
		return 1;
	/* -S: flush dirty pages now rather than during the run */
	if (cfg->sync)
		sync();
	if (session_run_once(s, record, res))
		return -1;
	if (cfg->post_cmd && !res->exec_err &&
	    run_hook(s, "--post", cfg->post_cmd))
		return -1;
	return 0;
}

/*
 * The summary of the runs done, with --fail-on and the messages that
 * follow it. Returns the status pstat ends with; *report_ok says whether
 * the report was written whole.
 */
static int report_summary(struct session *s, size_t nrows,
			  const struct run_result *res, int exit_status,
			  int fail_signal, bool *report_ok)
{
	struct pstat_summary *sums = xcalloc(nrows + 1, sizeof(*sums)), esum;
	int fail_on, ret;

	fail_on = !exit_status && s->cfg->fail_on &&
		  session_fail_on_matches(s, nrows);
	if (fail_on)
		exit_status = EXIT_FAIL_ON;
	*report_ok = !session_print_summary(s, nrows, res, exit_status,
					    exit_status ? fail_signal : 0,
					    sums, &esum);
	free(sums);
	ret = *report_ok ? exit_status :
	      s->broken_pipe ? EXIT_BROKEN_PIPE : EXIT_PSTAT_FAILED;
	if (ret != EXIT_PSTAT_FAILED)
		session_hint_no_core_pmu(s);
	if (fail_on && ret == EXIT_FAIL_ON)
		msg_warn("a counter ended in a state given to --fail-on (exit %d)",
			 EXIT_FAIL_ON);
	if (ret != EXIT_PSTAT_FAILED)
		session_warn_failed_runs(s);
	return ret;
}

int session_run(const struct pstat_session_cfg *cfg, bool *report_ok)
{
	struct pstat_error err;
	struct session s;
	struct run_result res = { 0 };
	unsigned total = cfg->warmup + (cfg->repeat ? cfg->repeat : 1);
	int exit_status = 0, first_fail = 0, fail_signal = 0, code = 0;
	size_t nrows = 0;
	int ret, r;

	*report_ok = false;
	session_setup(&s, cfg);
	if ((cfg->control && control_open(&s.ctl, cfg->control, &err)) ||
	    cgroup_open_events(s.evl, &s.cgroup_fds, &err)) {
		msg_error("%s", err.msg);
		ret = EXIT_PSTAT_FAILED;
		goto out;
	}
	session_signals_install(&s.waitmask);
	for (unsigned run = 0; run < total; run++) {
		int record = run >= cfg->warmup;

		s.timed_out = 0;        /* --timeout applies to each run */
		r = run_hooked(&s, record, &res);
		if (r > 0 && s.runs_done) {
			/* the runs done are reported, with the signal */
			first_fail = first_fail ? first_fail
						: 128 + s.got_signal;
			break;
		}
		if (r) {
			counters_close(&s.ctr);
			ret = r > 0 ? 128 + s.got_signal : EXIT_PSTAT_FAILED;
			goto out;
		}
		if (res.exec_err) {
			msg_error("cannot run '%s': %s", cfg->argv[0],
				  s.sim_why[0] ? s.sim_why :
						 strerror(res.exec_err));
			counters_close(&s.ctr);
			ret = res.exec_err == ENOENT ? 127 : 126;
			goto out;
		}
		code = s.timed_out ? EXIT_TIMEOUT :
		       s.stopped && res.have_status &&
				       WIFSIGNALED(res.status) &&
				       WTERMSIG(res.status) == SIGTERM ? 0 :
		       res.have_status ? target_exit_code(res.status) :
		       s.got_signal ? 128 + s.got_signal : 0;
		if (!s.timed_out && !s.stopped)
			session_say_killed(&s, &res);
		if (record) {
			nrows = session_record_run(&s, &res, code,
						   total - cfg->warmup);
			if (code && !first_fail) {
				first_fail = code;
				fail_signal = res.have_status &&
						      WIFSIGNALED(res.status) ?
						      WTERMSIG(res.status) : 0;
			}
		}
		/* (a signal that came as the run ended: no new run) */
		if (run + 1 == total || session_signal_arrived(&s) ||
		    s.broken_pipe || s.ctl_stop) {
			/* the counters stay open until the results are out */
			break;
		}
		/*
		 * Counters on pstat itself would count, in the next run,
		 * what this run left running (a background child): they
		 * are opened afresh then, as for every run without them.
		 */
		if (!s.self) {
			session_close_counters(&s);
		} else if (target_leftovers()) {
			msg_debug(1, "run %u left processes running: counters reopened",
				  run + 1);
			session_close_counters(&s);
		}
	}
	exit_status = first_fail;
	if (s.runs_done < total - cfg->warmup && s.runs_done > 0) {
		/* interrupted: the samples are those of the runs done */
		size_t want = total - cfg->warmup;

		for (size_t i = 0; i < nrows; i++)
			memmove(&s.samples[i * s.runs_done],
				&s.samples[i * want],
				s.runs_done * sizeof(*s.samples));
	}
	if (!s.runs_done) {
		/* ended by a signal during --warmup: nothing was counted */
		msg_warn("the warm-up runs were interrupted: nothing was counted");
		counters_close(&s.ctr);
		ret = code;
		goto out;
	}
	if (s.broken_pipe) {
		counters_close(&s.ctr);
		ret = EXIT_BROKEN_PIPE;
		goto out;
	}
	ret = report_summary(&s, nrows, &res, exit_status, fail_signal,
			     report_ok);
	session_close_counters(&s);
out:
	session_free(&s);
	return ret;
}
