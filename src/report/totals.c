/* SPDX-License-Identifier: MIT */
/*
 * Running totals of interval rows, for the outputs whose counters must
 * never go backwards (OpenMetrics, `pstat serve`).
 *
 * A total is the sum of the intervals' scaled deltas, not the scaling of
 * the summed readings: under multiplexing the estimate val * ena / run of
 * the whole run can fall between two reads (the counter ran more, so the
 * extrapolation shrinks), while a sum of per-interval estimates, each of
 * them >= 0, only grows. The session already clamps each delta at 0, so
 * a counter that was reopened (its reading restarting from 0) adds
 * nothing for that interval instead of a negative step.
 */
#include <stdlib.h>
#include <string.h>

#include "base/topology.h"
#include "base/util.h"
#include "report/totals.h"

/* The strings of the interval row a total was last matched with. */
struct totals_src {
	const char *event, *pmu, *thread, *cgroup;
};

struct pstat_totals {
	struct pstat_row *rows;
	long double *sum;           /* [row]: the scaled deltas added up */
	struct totals_src *src;     /* [row] */
	char **strs;                /* the rows' strings, owned */
	size_t n, alloc, nstrs, strs_alloc;
	size_t *index;              /* [hash]: total + 1, or 0 */
	size_t nindex;              /* a power of two, past 2 n */
};

struct pstat_totals *totals_new(void)
{
	return xcalloc(1, sizeof(struct pstat_totals));
}

void totals_free(struct pstat_totals *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->rows);
	free(t->sum);
	free(t->src);
	free(t->index);
	free(t);
}

static const char *totals_keep(struct pstat_totals *t, const char *s)
{
	if (!s)
		return NULL;
	xgrow((void **)&t->strs, &t->strs_alloc, t->nstrs + 1,
	      sizeof(*t->strs));
	t->strs[t->nstrs] = xstrdup(s);
	return t->strs[t->nstrs++];
}

static int str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether total row a stands for the same series as interval row b. */
static int totals_same(const struct pstat_row *a, const struct pstat_row *b)
{
	return a->cpu == b->cpu && a->group == b->group &&
	       str_eq(a->event, b->event) && str_eq(a->pmu, b->pmu) &&
	       str_eq(a->thread, b->thread) && str_eq(a->cgroup, b->cgroup) &&
	       (a->aggr == b->aggr ||
		(a->aggr && b->aggr && !topo_aggr_cmp(a->aggr, b->aggr)));
}

/* A hash of what totals_same compares, but the unit (rarely there). */
static size_t totals_hash(const struct pstat_row *r)
{
	uint64_t h = hash_bytes(HASH_INIT, &r->cpu, sizeof(r->cpu));

	h = hash_bytes(h, &r->group, sizeof(r->group));
	h = hash_str(h, r->event);
	h = hash_str(h, r->pmu);
	h = hash_str(h, r->thread);
	return (size_t)hash_str(h, r->cgroup);
}

/* Total k into the index, grown to twice the totals when they pass half. */
static void totals_index(struct pstat_totals *t, size_t k)
{
	size_t b;

	if (2 * (k + 1) > t->nindex) {
		size_t nb = t->nindex ? 2 * t->nindex : 64;

		free(t->index);
		t->index = xcalloc(nb, sizeof(*t->index));
		t->nindex = nb;
		for (size_t j = 0; j < k; j++)
			totals_index(t, j);
	}
	b = totals_hash(&t->rows[k]) & (t->nindex - 1);
	while (t->index[b])
		b = (b + 1) & (t->nindex - 1);
	t->index[b] = k + 1;
}

/*
 * The total for interval row i: the same index as last time (the session
 * builds its rows in one order), else a search, else a new total.
 */
static size_t totals_find(struct pstat_totals *t, const struct pstat_row *r,
			  size_t i)
{
	struct pstat_row *nr;

	/*
	 * The same strings as last time at the same index: the same series
	 * (thousands of rows an interval; comparing their text cost more
	 * than the rest of the addition)
	 */
	if (i < t->n && t->src[i].event == r->event &&
	    t->src[i].pmu == r->pmu && t->src[i].thread == r->thread &&
	    t->src[i].cgroup == r->cgroup && t->rows[i].cpu == r->cpu &&
	    t->rows[i].group == r->group && t->rows[i].aggr == r->aggr)
		return i;
	if (i < t->n && totals_same(&t->rows[i], r))
		return i;
	/* the first of the same series, as a scan of them in order finds */
	if (t->nindex) {
		size_t found = SIZE_MAX;

		for (size_t b = totals_hash(r) & (t->nindex - 1); t->index[b];
		     b = (b + 1) & (t->nindex - 1)) {
			size_t k = t->index[b] - 1;

			if (k < found && totals_same(&t->rows[k], r))
				found = k;
		}
		if (found != SIZE_MAX)
			return found;
	}
	xgrow((void **)&t->rows, &t->alloc, t->n + 1, sizeof(*t->rows));
	t->sum = xrealloc(t->sum, t->alloc * sizeof(*t->sum));
	t->src = xrealloc(t->src, t->alloc * sizeof(*t->src));
	t->src[t->n] = (struct totals_src){ NULL, NULL, NULL, NULL };
	nr = &t->rows[t->n];
	memset(nr, 0, sizeof(*nr));
	nr->event = totals_keep(t, r->event);
	nr->pmu = totals_keep(t, r->pmu);
	/*
	 * the rows of one event share its unit: so do their totals, which
	 * lets a printer tell them one family by the pointer alone
	 */
	nr->unit = t->n && str_eq(t->rows[t->n - 1].unit, r->unit) ?
			   t->rows[t->n - 1].unit : totals_keep(t, r->unit);
	nr->thread = totals_keep(t, r->thread);
	nr->note = totals_keep(t, r->note);
	nr->cgroup = totals_keep(t, r->cgroup);
	nr->group_name = totals_keep(t, r->group_name);
	/* the session's, which outlives every report of it */
	nr->aggr = r->aggr;
	nr->aggr_nr = r->aggr_nr;
	nr->cpu = r->cpu;
	nr->group = r->group;
	nr->status = PSTAT_NOT_COUNTED;
	t->sum[t->n] = 0;
	totals_index(t, t->n);
	return t->n++;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

bool totals_add(struct pstat_totals *t, const struct pstat_row *rows,
		size_t n)
{
	size_t had = t->n;
	bool changed = false;

	for (size_t i = 0; i < n; i++) {
		const struct pstat_row *r = &rows[i];
		size_t k = totals_find(t, r, i);
		struct pstat_row *tr = &t->rows[k];
		const struct pstat_row was = {
			.raw = tr->raw, .ena = tr->ena, .run = tr->run,
			.status = tr->status, .err = tr->err,
		};
		/* (NaN is never the same: changed, to be safe) */
		const long double sum = t->sum[k];

		t->src[k] = (struct totals_src){ r->event, r->pmu, r->thread,
						 r->cgroup };
		tr->raw = add_sat(tr->raw, r->raw);
		tr->ena = add_sat(tr->ena, r->ena);
		tr->run = add_sat(tr->run, r->run);
		tr->running_pct = tr->ena ? 100.0 * (double)tr->run /
						    (double)tr->ena
					  : 0;
		switch (r->status) {
		case PSTAT_COUNTED:
		case PSTAT_MULTIPLEXED:
			t->sum[k] += r->value;
			/* multiplexed once, its total is an estimate */
			if (tr->status != PSTAT_MULTIPLEXED)
				tr->status = r->status;
			break;
		case PSTAT_NOT_COUNTED:
			break;
		case PSTAT_NOT_SUPPORTED:
		case PSTAT_ERROR:
			/* a series that counted before keeps its total */
			if (tr->status == PSTAT_NOT_COUNTED) {
				tr->status = r->status;
				tr->err = r->err;
			}
			break;
		}
		tr->value = (double)t->sum[k];
		changed = changed || tr->raw != was.raw || tr->ena != was.ena ||
			  tr->run != was.run || tr->status != was.status ||
			  tr->err != was.err || t->sum[k] != sum;
	}
	return changed || t->n != had;
}

const struct pstat_row *totals_rows(const struct pstat_totals *t, size_t *n)
{
	*n = t->n;
	return t->rows;
}
