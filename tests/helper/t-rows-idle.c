/* SPDX-License-Identifier: MIT */
/*
 * pstat-test rows-idle THREADS INTERVALS SEED: the interval rows of
 * run/session_rows.c, --per-thread over two events, where a thread
 * whose counters read the same as the time before keeps its row from
 * the last build. Each interval some threads count and the others
 * read as they did (some idle for one interval, some for many, some
 * waking); the rows of one session, built interval after interval, are
 * compared with those of another that builds every row anew. Prints
 * "intervals N, rows R, differ D, kept K": D must be 0, K (rows left
 * as they were) says the case went through the path.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/session_priv.h"
#include "test-tool.h"

static uint64_t idle_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static bool same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/*
 * Whether rows a and b say the same, field by field (the sessions' thread
 * names are strings of their own).
 */
static bool idle_row_eq(const struct pstat_row *a, const struct pstat_row *b)
{
	return a->event == b->event && a->pmu == b->pmu &&
	       a->group == b->group && a->status == b->status &&
	       a->group_name == b->group_name &&
	       same_bits(a->value, b->value) && a->raw == b->raw &&
	       a->unit == b->unit && a->ena == b->ena && a->run == b->run &&
	       same_bits(a->running_pct, b->running_pct) &&
	       a->err == b->err && a->has_metric == b->has_metric &&
	       a->note == b->note &&
	       (!a->has_metric ||
		(a->metric.name == b->metric.name &&
		 a->metric.unit == b->metric.unit &&
		 same_bits(a->metric.value, b->metric.value) &&
		 a->metric.higher_is_better == b->metric.higher_is_better)) &&
	       a->cpu == b->cpu && a->aggr_nr == b->aggr_nr &&
	       a->aggr == b->aggr && !a->thread == !b->thread &&
	       (!a->thread || !strcmp(a->thread, b->thread)) &&
	       a->cgroup == b->cgroup && a->stats == b->stats &&
	       a->samples == b->samples && a->nsamples == b->nsamples;
}

static void idle_session(struct session *s, struct pstat_session_cfg *cfg)
{
	session_setup(s, cfg);
	s->ctr.ncpus = s->ncpus;
	s->ctr.nthreads = s->ntids;
	s->ctr.state = xcalloc(cfg->evl->n, sizeof(*s->ctr.state));
	s->ctr.flags = xcalloc(cfg->evl->n, sizeof(*s->ctr.flags));
	s->ctr.err = xcalloc(cfg->evl->n, sizeof(*s->ctr.err));
}

static void idle_session_free(struct session *s)
{
	free(s->ctr.state);
	free(s->ctr.flags);
	free(s->ctr.err);
	session_free(s);
}

int t_rows_idle(int argc, char **argv)
{
	static const char *const names[] = { "task-clock", "cs" };
	unsigned long nthr, nint;
	uint64_t seed;
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_reading *rd[2];
	struct session keep, anew;
	size_t nslots, nrows = 0, differ = 0, kept = 0;
	pid_t *tids;

	if (argc != 4 || !(nthr = strtoul(argv[1], NULL, 10)) ||
	    !(nint = strtoul(argv[2], NULL, 10)) ||
	    !(seed = strtoull(argv[3], NULL, 10))) {
		printf("error: usage: rows-idle THREADS INTERVALS SEED\n");
		return 1;
	}
	evl.n = 2;
	evl.nrows = 2;
	evl.ngroups = 2;
	evl.ev = xcalloc(evl.n, sizeof(*evl.ev));
	for (size_t i = 0; i < evl.n; i++) {
		struct pstat_event *ev = &evl.ev[i];

		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = i ? PERF_COUNT_SW_CONTEXT_SWITCHES :
				      PERF_COUNT_SW_TASK_CLOCK;
		ev->name = xstrdup(names[i]);
		ev->pmu = (char *)"software";
		ev->group = (int)i;
		ev->leader = (int)i;
		ev->row = (int)i;
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
	idle_session(&keep, &cfg);
	idle_session(&anew, &cfg);
	nslots = evl.n * nthr;
	rd[0] = xcalloc(nslots, sizeof(*rd[0]));
	rd[1] = xcalloc(nslots, sizeof(*rd[1]));
	for (unsigned long k = 0; k < nint; k++) {
		const struct pstat_reading *base = rd[k % 2];
		struct pstat_reading *cur = rd[(k + 1) % 2];
		size_t n, n2;

		/*
		 * a third of the threads sleep through every interval, the
		 * others count now and then; now and then an interval
		 * where every thread sleeps
		 */
		for (size_t i = 0; i < nslots; i++) {
			uint64_t x = idle_rand(&seed);
			bool runs = i % nthr % 3 && k % 7 != 5 && x % 4 == 0;

			cur[i] = base[i];
			if (runs) {
				cur[i].val += 1 + x % 1000;
				cur[i].ena += 100000;
				cur[i].run += 100000 - x % 3 * 1000;
			}
		}
		/* (a build of the totals between: the chain starts again) */
		if (k == nint / 2) {
			session_build_rows(&keep, cur, 1000000000);
			session_build_rows(&anew, cur, 1000000000);
		}
		n = session_build_interval_rows(&keep, cur, base, 100000000);
		anew.rows_gen++;
		n2 = session_build_interval_rows(&anew, cur, base, 100000000);
		kept += n - (keep.readings_summed < n ? keep.readings_summed :
							n);
		nrows += n;
		if (n != n2) {
			differ++;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			differ += !idle_row_eq(&keep.rows[i], &anew.rows[i]);
	}
	printf("intervals %lu, rows %zu, differ %zu, kept %zu\n", nint, nrows,
	       differ, kept);
	idle_session_free(&keep);
	idle_session_free(&anew);
	free(rd[0]);
	free(rd[1]);
	free(tids);
	for (size_t i = 0; i < evl.n; i++)
		free(evl.ev[i].name);
	free(evl.ev);
	return differ != 0;
}
