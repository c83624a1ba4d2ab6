/* SPDX-License-Identifier: MIT */
/*
 * The session's runs on the simulated PMU: the command under Valgrind,
 * its counts read back after it ended (run/sim_valgrind.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "events/sim_events.h"
#include "run/session_priv.h"

int session_sim_begin(struct session *s, struct run_result *res,
		      char *const **argv)
{
	const struct pstat_session_cfg *cfg = s->cfg;
	int e, r;

	sim_run_end(&s->sim_run);
	s->sim_why[0] = '\0';
	free(s->sim_val);     /* no run reads the counts of the one before */
	s->sim_val = NULL;
	*argv = NULL;
	/* as an exec would fail: Valgrind would say it in its own words */
	e = sim_command_check(cfg->argv[0]);
	if (e) {
		res->exec_err = e;
		return 0;
	}
	r = sim_run_begin(cfg->sim, cfg->argv, &s->sim_run);
	if (r) {
		msg_error("cannot make a directory for valgrind's results: %s",
			  strerror(-r));
		return -1;
	}
	*argv = s->sim_run.argv;
	if (!s->runs_done && msg_verbose >= 1) {
		char *line = xstrdup("valgrind:");

		for (size_t i = 1; (*argv)[i]; i++) {
			char *l = xasprintf("%s %s", line, (*argv)[i]);

			free(line);
			line = l;
		}
		msg_debug(1, "%s", line);
		free(line);
	}
	return 0;
}

void session_sim_finish(struct session *s, struct run_result *res)
{
	uint64_t *vals = xcalloc(s->evl->n + 1, sizeof(*vals));
	int r = sim_run_collect(&s->sim_run, (pid_t)s->child_pid, s->evl,
				vals);

	snprintf(s->sim_why, sizeof(s->sim_why), "%s", s->sim_run.why);
	if (r == -ENOEXEC) {
		res->exec_err = ENOEXEC;
		if (!s->sim_why[0])
			snprintf(s->sim_why, sizeof(s->sim_why),
				 "valgrind wrote no results for it (%s)",
				 res->have_status ? "what it said is above" :
						    "it did not end");
	} else if (r) {
		msg_warn("cannot read valgrind's results: %s", strerror(-r));
	} else {
		free(s->sim_val);
		s->sim_val = vals;
		s->sim_ns = res->elapsed_ns;
		vals = NULL;
	}
	free(vals);
	sim_run_end(&s->sim_run);
}

void session_sim_free(struct session *s)
{
	sim_run_end(&s->sim_run);
	free(s->sim_val);
	s->sim_val = NULL;
}

void session_sim_fill(struct session *s)
{
	for (size_t i = 0; s->sim_val && i < s->evl->n; i++)
		if (s->evl->ev[i].attr.type == PSTAT_SIM_TYPE)
			s->cur[counter_slot(&s->ctr, i, 0, 0)] =
				(struct pstat_reading){ s->sim_val[i],
							s->sim_ns, s->sim_ns };
}
