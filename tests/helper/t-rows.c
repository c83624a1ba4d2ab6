/* SPDX-License-Identifier: MIT */
/*
 * pstat-test rows "EVENTS THREADS [INSTANCES [METRIC]]": the report
 * builder of run/session_rows.c on synthetic readings, --per-thread.
 * EVENTS rows e0, e1, ... of INSTANCES events each (PMU instances summed
 * in one row, as uncore_imc_N), THREADS threads. Slot (e, t) reads
 * e * 1000003 + t + 1 with ena = run = 1000. Checks every row's value
 * and prints the number of rows and of readings summed: one pass over
 * the readings means summed == EVENTS * INSTANCES * THREADS, whatever
 * THREADS is.
 * With METRIC "m", also the metric "ratio = e1 / e0" (as --metric gives
 * it; EVENTS >= 2), evaluated once per thread: checks each value, its
 * thread and the row it is printed after (e1's of its thread), and
 * prints the number of values.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric.h"
#include "events/metric_lib.h"
#include "run/session_priv.h"
#include "test-tool.h"

/* The metric ratio = e1 / e0, resolved; *rows: each input's evlist row. */
static int ratio_metric(struct pstat_metric_set *set, int **rows)
{
	struct pstat_metric_lib lib = { 0 };
	struct pstat_error err = { "", -1 };

	if (metric_set_add_line(set, "ratio = e1 / e0", &err) ||
	    metric_set_resolve(set, &lib, &err)) {
		printf("error: %s\n", err.msg);
		return -1;
	}
	*rows = xcalloc(set->ninputs + 1, sizeof(**rows));
	for (size_t i = 0; i < set->ninputs; i++)
		(*rows)[i] = atoi(set->inputs[i] + 1);
	return 0;
}

/* Check the ratio of each thread; returns how many were wrong. */
static size_t check_ratios(const struct session *s, size_t nthr, size_t inst,
			   size_t nev)
{
	size_t bad = 0;

	if (s->met.nv != nthr && bad++ < 3)
		printf("%zu metric values, want %zu\n", s->met.nv, nthr);
	for (size_t t = 0; t < s->met.nv && t < nthr; t++) {
		const struct pstat_metric_value *v = &s->met.v[t];
		double e0 = 0, e1 = 0;

		for (size_t k = 0; k < inst; k++) {
			e0 += (double)((0 + k * nev) * 1000003 + t + 1);
			e1 += (double)((1 + k * nev) * 1000003 + t + 1);
		}
		if ((fabs(v->value - e1 / e0) > 1e-9 * (e1 / e0) ||
		     v->thread != s->thread_names[t] || v->anchor != nthr + t) &&
		    bad++ < 3)
			printf("metric %zu: %g after row %u, want %g after %zu\n",
			       t, v->value, v->anchor, e1 / e0, nthr + t);
	}
	return bad;
}

int t_rows(int argc, char **argv)
{
	unsigned long nev = 0, nthr = 0, inst = 1;
	char metric[8] = "";
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_metric_set set = { 0 };
	int *input_rows = NULL;
	struct session s;
	size_t nrows, bad = 0;
	pid_t *tids;

	if (argc < 2 ||
	    sscanf(argv[1], "%lu %lu %lu %7s", &nev, &nthr, &inst, metric) < 2 ||
	    !nev || !nthr || !inst || (*metric && (strcmp(metric, "m") || nev < 2))) {
		printf("error: usage: rows \"EVENTS THREADS [INSTANCES [m]]\"\n");
		return 1;
	}
	if (*metric && ratio_metric(&set, &input_rows))
		return 1;
	evl.n = nev * inst;
	evl.nrows = (int)nev;
	evl.ngroups = (int)evl.n;
	evl.ev = xcalloc(evl.n, sizeof(*evl.ev));
	for (size_t i = 0; i < evl.n; i++) {
		struct pstat_event *ev = &evl.ev[i];

		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		ev->name = xasprintf("e%zu", i % nev);
		ev->pmu = (char *)"software";
		ev->group = (int)i;
		ev->leader = (int)i;
		/* instances of one row are interleaved, as encode gives them */
		ev->row = (int)(i % nev);
		ev->scale = 1.0;
	}
	/* thread ids no process can have: nothing is read from /proc */
	tids = xcalloc(nthr, sizeof(*tids));
	for (size_t t = 0; t < nthr; t++)
		tids[t] = (pid_t)(0x7ff00000 + t);
	cfg.evl = &evl;
	cfg.kind = TARGET_PID;
	cfg.tids = tids;
	cfg.ntids = nthr;
	cfg.per_thread = 1;
	if (*metric) {
		cfg.metrics = &set;
		cfg.metric_input_row = input_rows;
	}
	session_setup(&s, &cfg);
	s.ctr.ncpus = s.ncpus;
	s.ctr.nthreads = s.ntids;
	s.ctr.state = xcalloc(evl.n, sizeof(*s.ctr.state));
	s.ctr.flags = xcalloc(evl.n, sizeof(*s.ctr.flags));
	s.ctr.err = xcalloc(evl.n, sizeof(*s.ctr.err));
	for (size_t e = 0; e < evl.n; e++)
		for (size_t t = 0; t < nthr; t++)
			s.cur[counter_slot(&s.ctr, e, 0, t)] =
				(struct pstat_reading){ e * 1000003 + t + 1,
							1000, 1000 };
	nrows = session_build_rows(&s, s.cur, 1000000);
	for (size_t r = 0; r < nrows; r++) {
		size_t row = r / nthr, t = r % nthr;
		uint64_t want = 0;

		for (size_t k = 0; k < inst; k++)
			want += (row + k * nev) * 1000003 + t + 1;
		if (s.rows[r].raw != want && bad++ < 3)
			printf("row %zu: %" PRIu64 ", want %" PRIu64 "\n", r,
			       s.rows[r].raw, want);
	}
	if (*metric)
		bad += check_ratios(&s, nthr, inst, nev);
	printf("rows %zu summed %zu", nrows, s.readings_summed);
	if (*metric)
		printf(" metrics %zu", s.met.nv);
	printf("%s\n", bad ? " WRONG" : "");
	free(s.ctr.state);
	free(s.ctr.flags);
	free(s.ctr.err);
	session_free(&s);
	metric_set_free(&set);
	free(input_rows);
	free(tids);
	for (size_t i = 0; i < evl.n; i++)
		free(evl.ev[i].name);
	free(evl.ev);
	return bad != 0;
}
