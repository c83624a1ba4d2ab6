/* SPDX-License-Identifier: MIT */
/*
 * pstat-test rows "EVENTS THREADS [INSTANCES]": the report builder of
 * run/session_rows.c on synthetic readings, --per-thread. EVENTS rows
 * of INSTANCES events each (PMU instances summed in one row, as
 * uncore_imc_N), THREADS threads. Slot (e, t) reads e * 1000003 + t with
 * ena = run = 1000. Checks every row's value and prints the number of
 * rows and of readings summed: one pass over the readings means
 * summed == EVENTS * INSTANCES * THREADS, whatever THREADS is.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/session_priv.h"
#include "test-tool.h"

int t_rows(int argc, char **argv)
{
	unsigned long nev = 0, nthr = 0, inst = 1;
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_evlist evl = { 0 };
	struct session s;
	size_t nrows, bad = 0;
	pid_t *tids;

	if (argc < 2 || sscanf(argv[1], "%lu %lu %lu", &nev, &nthr, &inst) < 2 ||
	    !nev || !nthr || !inst) {
		printf("error: usage: rows \"EVENTS THREADS [INSTANCES]\"\n");
		return 1;
	}
	evl.n = nev * inst;
	evl.nrows = (int)nev;
	evl.ngroups = (int)evl.n;
	evl.ev = xcalloc(evl.n, sizeof(*evl.ev));
	for (size_t i = 0; i < evl.n; i++) {
		struct pstat_event *ev = &evl.ev[i];

		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		ev->name = (char *)"page-faults";
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
	session_setup(&s, &cfg);
	s.ctr.ncpus = s.ncpus;
	s.ctr.nthreads = s.ntids;
	s.ctr.state = xcalloc(evl.n, sizeof(*s.ctr.state));
	s.ctr.flags = xcalloc(evl.n, sizeof(*s.ctr.flags));
	s.ctr.err = xcalloc(evl.n, sizeof(*s.ctr.err));
	for (size_t e = 0; e < evl.n; e++)
		for (size_t t = 0; t < nthr; t++)
			s.cur[counter_slot(&s.ctr, e, 0, t)] =
				(struct pstat_reading){ e * 1000003 + t, 1000,
							1000 };
	nrows = session_build_rows(&s, s.cur, 1000000);
	for (size_t r = 0; r < nrows; r++) {
		size_t row = r / nthr, t = r % nthr;
		uint64_t want = 0;

		for (size_t k = 0; k < inst; k++)
			want += (row + k * nev) * 1000003 + t;
		if (s.rows[r].raw != want && bad++ < 3)
			printf("row %zu: %" PRIu64 ", want %" PRIu64 "\n", r,
			       s.rows[r].raw, want);
	}
	printf("rows %zu summed %zu%s\n", nrows, s.readings_summed,
	       bad ? " WRONG" : "");
	free(s.ctr.state);
	free(s.ctr.flags);
	free(s.ctr.err);
	session_free(&s);
	free(tids);
	free(evl.ev);
	return bad != 0;
}
