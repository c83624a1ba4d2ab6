/* SPDX-License-Identifier: MIT */
/*
 * The session one run at a time (session_step*, see run/session.h): for
 * pstat bench, which orders the runs of several commands itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "base/util.h"
#include "run/counter.h"
#include "run/session.h"
#include "run/session_priv.h"
#include "run/target.h"

struct session *session_step_new(const struct pstat_session_cfg *cfg)
{
	struct session *s = xmalloc(sizeof(*s));

	session_setup(s, cfg);
	session_signals_install(&s->waitmask);
	return s;
}

/* Room for one more recorded run: samples keep a stride of s->nruns. */
static void step_grow(struct session *s)
{
	unsigned old = s->nruns, room = old * 2;
	double *samples;

	if (s->runs_done < old)
		return;
	samples = xcalloc(s->nrows * room + 1, sizeof(*samples));
	for (size_t i = 0; i < s->nrows; i++)
		memcpy(&samples[i * room], &s->samples[i * old],
		       old * sizeof(*samples));
	free(s->samples);
	s->samples = samples;
	s->elapsed = xrealloc(s->elapsed, (room + 1) * sizeof(*s->elapsed));
	s->run_status = xrealloc(s->run_status,
				 (room + 1) * sizeof(*s->run_status));
	s->nruns = room;
}

int session_step(struct session *s, int record, struct pstat_step *st)
{
	struct run_result res;

	memset(st, 0, sizeof(*st));
	s->timed_out = 0;
	s->got_signal = 0;
	if (session_run_once(s, record, &res)) {
		counters_close(&s->ctr);
		return -1;
	}
	st->exec_err = res.exec_err;
	st->status = res.exec_err ? (res.exec_err == ENOENT ? 127 : 126) :
		     res.have_status ? target_exit_code(res.status) :
		     s->got_signal ? 128 + s->got_signal : 0;
	st->signal = !res.exec_err && res.have_status &&
		     WIFSIGNALED(res.status) ? WTERMSIG(res.status) : 0;
	st->interrupted = s->got_signal;
	st->elapsed_ns = res.elapsed_ns;
	st->user_ns = timeval_ns(&res.ru.ru_utime);
	st->sys_ns = timeval_ns(&res.ru.ru_stime);
	if (record && !res.exec_err) {
		step_grow(s);
		st->nrows = session_record_run(s, &res, st->status, s->nruns);
		st->rows = s->rows;
		s->last = res;
	}
	/* as between the runs of session_run */
	if (!s->self || target_leftovers())
		session_close_counters(s);
	return 0;
}

int session_step_report(struct session *s, int exit_status)
{
	struct pstat_summary *sums, esum;
	size_t nrows = s->nrows;
	int r;

	if (!s->runs_done)
		return -ENODATA;
	/* the summary reads the samples with a stride of the runs done */
	for (size_t i = 1; i < nrows; i++)
		memmove(&s->samples[i * s->runs_done],
			&s->samples[i * s->nruns],
			s->runs_done * sizeof(*s->samples));
	s->nruns = s->runs_done;
	/*
	 * s->rows still hold the last recorded run's rows (a warm-up run
	 * builds none): the summary starts from them.
	 */
	sums = xcalloc(nrows + 1, sizeof(*sums));
	r = session_print_summary(s, nrows, &s->last, exit_status, 0, sums,
				  &esum);
	for (size_t i = 0; i < nrows; i++)
		s->rows[i].stats = NULL;
	free(sums);
	return r ? -EIO : 0;
}

void session_step_free(struct session *s)
{
	if (!s)
		return;
	session_close_counters(s);
	session_free(s);
	free(s);
}
