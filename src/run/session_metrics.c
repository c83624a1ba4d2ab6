/* SPDX-License-Identifier: MIT */
/*
 * The metrics of a run (--metric, --metrics-file, -M, --topdown): their
 * formulas (events/metric.h) evaluated over the report rows, once per
 * CPU (-A), thread (--per-thread) or unit (--per-socket...) when the
 * rows are split so, with per-run samples and their statistics under -r.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "run/session_priv.h"

/*
 * Whether a report row belongs to the CPU, thread, aggregate unit and
 * cgroup (each cgroup's metrics from its own rows).
 */
static int same_key(const struct pstat_row *a, const struct pstat_row *k)
{
	const char *thread = k->thread;

	if (a->cpu != k->cpu || a->aggr != k->aggr)
		return 0;
	if (a->cgroup != k->cgroup &&
	    (!a->cgroup || !k->cgroup || strcmp(a->cgroup, k->cgroup)))
		return 0;
	if (!a->thread || !thread)
		return a->thread == thread;
	return !strcmp(a->thread, thread);
}

/*
 * The bits of the per core PMU copies' PMUs, for each copy and each
 * evlist row of that PMU's events (a hybrid CPU has two or three core
 * PMUs: past 32, a copy is taken to count everywhere).
 */
static void pmu_bits(struct session *s)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	const struct pstat_evlist *evl = s->evl;
	struct session_metrics *sm = &s->met;
	const char *names[32];
	size_t npmu = 0;

	for (size_t m = 0; m < set->n; m++) {
		size_t p = 0;

		if (!set->m[m].pmu)
			continue;
		while (p < npmu && strcmp(names[p], set->m[m].pmu))
			p++;
		if (p == ARRAY_SIZE(names))
			continue;
		if (p == npmu)
			names[npmu++] = set->m[m].pmu;
		if (!sm->pmu_bit)
			sm->pmu_bit = xcalloc(set->n, sizeof(*sm->pmu_bit));
		sm->pmu_bit[m] = 1u << p;
	}
	if (!sm->pmu_bit)
		return;
	sm->src_pmus = xcalloc((size_t)evl->nrows + 1, sizeof(*sm->src_pmus));
	for (size_t e = 0; e < evl->n; e++)
		for (size_t p = 0; p < npmu && evl->ev[e].pmu; p++)
			if (!strcmp(evl->ev[e].pmu, names[p]))
				sm->src_pmus[evl->ev[e].row] |= 1u << p;
}

void session_metrics_setup(struct session *s)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	struct session_metrics *sm = &s->met;
	size_t ni;

	memset(sm, 0, sizeof(*sm));
	if (!set || !set->n)
		return;
	ni = set->ninputs;
	sm->value = xcalloc(ni + 1, sizeof(*sm->value));
	sm->why = xcalloc(ni + 1, sizeof(*sm->why));
	sm->mux = xcalloc(ni + 1, sizeof(*sm->mux));
	sm->ungrouped = xcalloc(ni + 1, sizeof(*sm->ungrouped));
	sm->res = xcalloc(set->n, sizeof(*sm->res));
	sm->why_text = xcalloc(ni * 3 + 1, sizeof(*sm->why_text));
	for (size_t i = 0; i < ni; i++) {
		sm->why_text[3 * i] = xasprintf("'%s' was not counted",
						set->inputs[i]);
		sm->why_text[3 * i + 1] = xasprintf("'%s' is not supported",
						    set->inputs[i]);
		sm->why_text[3 * i + 2] = xasprintf("'%s' failed",
						    set->inputs[i]);
	}
	sm->inputs = xcalloc(set->n, sizeof(*sm->inputs));
	sm->input_ix = xcalloc(set->n, sizeof(*sm->input_ix));
	sm->ninputs = xcalloc(set->n, sizeof(*sm->ninputs));
	for (size_t m = 0; m < set->n; m++) {
		const struct pstat_metric_entry *e = &set->m[m];

		sm->inputs[m] = xcalloc(e->nins + 1, sizeof(**sm->inputs));
		sm->input_ix[m] = xcalloc(e->nins + 1,
					  sizeof(**sm->input_ix));
		for (size_t k = 0; k < e->nins; k++) {
			sm->input_ix[m][k] = e->ins[k];
			sm->inputs[m][k] = set->inputs[e->ins[k]];
		}
		sm->ninputs[m] = e->nins;
	}
	sm->about = xcalloc(set->n, sizeof(*sm->about));
	for (size_t m = 0; m < set->n; m++)
		sm->about[m] = (struct pstat_metric_about){
			.name = set->m[m].def.name,
			.unit = set->m[m].def.unit,
			.expr = set->m[m].def.text,
			.group = set->m[m].def.group,
			.inputs = sm->inputs[m],
			.ninputs = sm->ninputs[m],
			.higher_is_better = set->m[m].def.higher,
		};
	pmu_bits(s);
}

void session_metrics_free(struct session *s)
{
	struct session_metrics *sm = &s->met;
	const struct pstat_metric_set *set = s->cfg->metrics;

	if (!sm->res)
		return;
	for (size_t i = 0; set && i < set->ninputs * 3; i++)
		free(sm->why_text[i]);
	for (size_t m = 0; set && m < set->n; m++) {
		free(sm->inputs[m]);
		free(sm->input_ix[m]);
	}
	free(sm->inputs);
	free(sm->input_ix);
	free(sm->ninputs);
	free(sm->about);
	free(sm->places);
	free(sm->runs);
	free(sm->why_text);
	free(sm->input_at);
	free(sm->value);
	free(sm->why);
	free(sm->mux);
	free(sm->ungrouped);
	free(sm->res);
	free(sm->v);
	free(sm->samples);
	free(sm->sums);
	free(sm->key_of);
	free(sm->key_row);
	free(sm->key_last);
	free(sm->key_in);
	free(sm->buckets);
	free(sm->in_first);
	free(sm->in_count);
	free(sm->src_start);
	free(sm->src_in);
	free(sm->pmu_bit);
	free(sm->src_pmus);
	free(sm->key_pmus);
	free(sm->memo);
	memset(sm, 0, sizeof(*sm));
}

/* How many copies of the metrics' events were opened (one per cgroup). */
static size_t input_copies(const struct session *s)
{
	return s->cfg->metric_copies ? s->cfg->metric_copies : 1;
}

/* The evlist row of the k-th copy of input i, or -1. */
static int input_src(const struct session *s, size_t i, size_t k)
{
	int src = s->cfg->metric_input_row[i];

	return src < 0 ? -1 : src + (int)k * s->cfg->metric_copy_rows;
}

void session_metrics_opened(struct session *s)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	const struct pstat_evlist *evl = s->evl;

	if (!s->met.res)
		return;
	for (size_t e = 0; e < evl->n; e++) {
		if (!(s->ctr.flags[e] & COUNTER_UNGROUPED))
			continue;
		/* sticky: under -r, a run of ungrouped counts is in the mean */
		for (size_t i = 0; i < set->ninputs; i++)
			for (size_t k = 0; k < input_copies(s); k++)
				if (input_src(s, i, k) == evl->ev[e].row)
					s->met.ungrouped[i] = 1;
	}
}

/* A hash of what same_key compares. */
static uint64_t key_hash(const struct pstat_row *r)
{
	uint64_t h = hash_bytes(HASH_INIT, &r->cpu, sizeof(r->cpu));

	h = hash_bytes(h, &r->aggr, sizeof(r->aggr));
	if (r->cgroup)
		h = hash_str(h, r->cgroup);
	return hash_str(h, r->thread);
}

/*
 * The inputs each evlist row is read as (several inputs may name one
 * event): src_in[src_start[r] .. src_start[r + 1]). Built once.
 */
static void index_inputs(struct session *s)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	struct session_metrics *sm = &s->met;
	size_t nsrc = (size_t)s->evl->nrows;

	if (sm->src_start)
		return;
	sm->src_start = xcalloc(nsrc + 2, sizeof(*sm->src_start));
	sm->src_in = xcalloc(set->ninputs * input_copies(s) + 1,
			     sizeof(*sm->src_in));
	for (size_t i = 0; i < set->ninputs; i++)
		for (size_t k = 0; k < input_copies(s); k++) {
			int src = input_src(s, i, k);

			if (src >= 0 && (size_t)src < nsrc)
				sm->src_start[src + 2]++;
		}
	for (size_t r = 2; r < nsrc + 2; r++)
		sm->src_start[r] += sm->src_start[r - 1];
	/* src_start[r + 1] counts up to r's start, then past its inputs */
	for (size_t i = 0; i < set->ninputs; i++)
		for (size_t k = 0; k < input_copies(s); k++) {
			int src = input_src(s, i, k);

			if (src >= 0 && (size_t)src < nsrc)
				sm->src_in[sm->src_start[src + 1]++] = i;
		}
}

/* The key of row r, a new one when none of the keys so far is its. */
static size_t find_key(struct session *s, size_t r, size_t *nkeys)
{
	struct session_metrics *sm = &s->met;
	const struct pstat_row *row = &s->rows[r];
	size_t b = key_hash(row) & (sm->nbuckets - 1);

	for (; sm->buckets[b]; b = (b + 1) & (sm->nbuckets - 1)) {
		size_t k = sm->buckets[b] - 1;

		if (same_key(&s->rows[sm->key_row[k]], row))
			return k;
	}
	sm->buckets[b] = ++*nkeys;
	sm->key_row[*nkeys - 1] = r;
	return *nkeys - 1;
}

/*
 * With --per-thread, thousands of keys an interval, whose rows are out of
 * the caches by the time they are read: what is read this many rows or
 * keys ahead is asked for.
 */
#define KEY_AHEAD 8

/*
 * Whether the first nrows rows are those the keys were last built from
 * (then the keys, their rows and inputs are still right); notes them
 * either way.
 */
static bool keys_kept(struct session *s, size_t nrows)
{
	struct session_metrics *sm = &s->met;
	bool same = sm->memo_rows == nrows;

	if (!sm->memo)
		sm->memo = xcalloc(s->nrows + 1, sizeof(*sm->memo));
	for (size_t r = 0; r < nrows; r++) {
		const struct pstat_row *row = &s->rows[r];
		struct session_key_memo *m = &sm->memo[r];

		if (r + KEY_AHEAD < nrows)
			__builtin_prefetch(&s->rows[r + KEY_AHEAD].thread);
		if (same && m->thread == row->thread && m->aggr == row->aggr &&
		    m->cpu == row->cpu && m->src == s->row_src[r])
			continue;
		same = false;
		*m = (struct session_key_memo){ row->thread, row->aggr,
						row->cpu, s->row_src[r] };
	}
	sm->memo_rows = nrows;
	return same;
}

/*
 * One pass over the first nrows rows: each row's key (keys numbered in
 * the order of their first row), each key's last row and the row of
 * each input for it (the first of the key's), and each input's rows
 * whatever their key. Returns the number of keys.
 */
static size_t session_metrics_keys(struct session *s, size_t nrows)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	struct session_metrics *sm = &s->met;
	size_t ni = set->ninputs, nkeys = 0, nb = 1;

	index_inputs(s);
	/* s->rows holds at most s->nrows: room for those, once */
	if (!sm->buckets) {
		while (nb < 2 * s->nrows)
			nb *= 2;
		sm->nbuckets = nb;
		sm->buckets = xmalloc(nb * sizeof(*sm->buckets));
		sm->key_of = xcalloc(s->nrows + 1, sizeof(*sm->key_of));
		sm->key_row = xcalloc(s->nrows + 1, sizeof(*sm->key_row));
		sm->key_last = xcalloc(s->nrows + 1, sizeof(*sm->key_last));
		sm->in_first = xcalloc(ni + 1, sizeof(*sm->in_first));
		sm->in_count = xcalloc(ni + 1, sizeof(*sm->in_count));
		if (sm->pmu_bit)
			sm->key_pmus = xcalloc(s->nrows + 1,
					       sizeof(*sm->key_pmus));
	}
	if (keys_kept(s, nrows))
		return sm->memo_keys;
	memset(sm->buckets, 0, sm->nbuckets * sizeof(*sm->buckets));
	for (size_t r = 0; r < nrows; r++) {
		size_t k = find_key(s, r, &nkeys);

		sm->key_of[r] = k;
		sm->key_last[k] = r;
	}
	xgrow((void **)&sm->key_in, &sm->key_in_alloc, nkeys * ni + 1,
	      sizeof(*sm->key_in));
	for (size_t i = 0; i < nkeys * ni; i++)
		sm->key_in[i] = SIZE_MAX;
	for (size_t i = 0; i < ni; i++)
		sm->in_count[i] = 0;
	for (size_t k = 0; sm->key_pmus && k < nkeys; k++)
		sm->key_pmus[k] = 0;
	for (size_t r = 0; r < nrows; r++) {
		size_t src = (size_t)s->row_src[r], k = sm->key_of[r];

		if (sm->key_pmus)
			sm->key_pmus[k] |= sm->src_pmus[src];

		for (size_t j = sm->src_start[src]; j < sm->src_start[src + 1];
		     j++) {
			size_t i = sm->src_in[j];

			if (!sm->in_count[i]++)
				sm->in_first[i] = r;
			if (sm->key_in[k * ni + i] == SIZE_MAX)
				sm->key_in[k * ni + i] = r;
		}
	}
	sm->memo_keys = nkeys;
	return nkeys;
}

/* -A with -a or -C: the rows are split by the CPU they were counted on. */
static bool per_cpu(const struct session *s)
{
	return s->cfg->no_aggr && s->system_wide;
}

/*
 * The inputs of key k: the row of the same CPU, thread and unit, or
 * else the input's only row (an uncore event is one "system-wide" row
 * among threads). A CPU of -A or a unit of --per-socket and the like
 * borrows no other's count: an event it has no row of was not counted
 * there (an uncore event on its cpumask's CPU alone).
 */
static void fill_inputs(struct session *s, size_t k)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	struct session_metrics *sm = &s->met;
	/* nor does a cgroup another's */
	bool borrow = !s->nunits && !per_cpu(s) && !s->cfg->metric_copies;

	for (size_t i = 0; i < set->ninputs; i++) {
		size_t at = sm->key_in[k * set->ninputs + i];
		const struct pstat_row *row;

		if (at == SIZE_MAX && sm->in_count[i] == 1 && borrow)
			at = sm->in_first[i];
		sm->value[i] = NAN;
		sm->why[i] = sm->why_text[3 * i];
		sm->mux[i] = 0;
		sm->input_at[i] = at;
		if (at == SIZE_MAX)
			continue;
		row = &s->rows[at];
		switch (row->status) {
		case PSTAT_COUNTED:
		case PSTAT_MULTIPLEXED:
			sm->value[i] = row->value;
			sm->mux[i] = row->status == PSTAT_MULTIPLEXED ||
				     sm->ungrouped[i];
			break;
		case PSTAT_NOT_SUPPORTED:
			sm->why[i] = sm->why_text[3 * i + 1];
			break;
		case PSTAT_ERROR:
			sm->why[i] = sm->why_text[3 * i + 2];
			break;
		default:
			break;
		}
	}
}

/* The row a metric is printed after: its first input's, else the last. */
static size_t anchor_of(const struct session *s, size_t m, size_t last)
{
	/* the first event it reads, through the metrics it refers to */
	size_t i = s->cfg->metrics->m[m].first_in;

	if (i == SIZE_MAX || s->met.input_at[i] == SIZE_MAX)
		return last;
	return s->met.input_at[i];
}

static void add_value(struct session *s, size_t m,
		      const struct pstat_row *key, int aggr_nr, size_t last)
{
	struct session_metrics *sm = &s->met;

	/*
	 * (room made by session_metrics_eval) in one store of each field:
	 * thousands of values an interval, a cache line each
	 */
	sm->places[sm->nv] = (struct pstat_metric_place){
		(unsigned)anchor_of(s, m, last), (unsigned)m,
	};
	sm->v[sm->nv] = (struct pstat_metric_value){
		.about = &sm->about[m],
		.value = sm->res[m].value,
		.why = sm->res[m].why,
		.multiplexed = (signed char)(sm->res[m].multiplexed != 0),
		.threshold = (signed char)sm->res[m].threshold,
		.aggr = key->aggr,
		.aggr_nr = aggr_nr,
		.cpu = key->cpu,
		.thread = key->thread,
		.cgroup = key->cgroup,
		.anchor = sm->places[sm->nv].anchor,
	};
	sm->nv++;
}

/*
 * Whether metric m has a value at key k: a per core PMU copy only where
 * its PMU's events count (-A: not on the CPUs of another kind of core).
 */
static bool pmu_counts(const struct session_metrics *sm, size_t k, size_t m)
{
	return !sm->pmu_bit || !sm->pmu_bit[m] ||
	       (sm->key_pmus[k] & sm->pmu_bit[m]);
}

/*
 * -G, --for-each-cgroup: whether key k counts an event metric m reads
 * (a metric of no event: yes). The rows of the listed events that count
 * no cgroup, or another, have no metric of the metrics' cgroups.
 */
static bool cgroup_counts(const struct session *s, size_t k, size_t m)
{
	const struct pstat_metric_entry *e = &s->cfg->metrics->m[m];
	size_t ni = s->cfg->metrics->ninputs;

	if (!s->cfg->metric_copies || !e->nins)
		return true;
	for (size_t j = 0; j < e->nins; j++)
		if (s->met.key_in[k * ni + e->ins[j]] != SIZE_MAX)
			return true;
	return false;
}

/*
 * --per-socket and the like: how many of unit k's CPUs counted the
 * events metric m reads (the most of any of them), 0 when none has a
 * row in the unit (an uncore or one core PMU's event on none of its
 * CPUs: the metric is not shown there, as the counters are not); the
 * unit's first row's count for a metric of no event.
 */
static int unit_cpus(const struct session *s, size_t k, size_t m)
{
	const struct session_metrics *sm = &s->met;
	size_t ni = s->cfg->metrics->ninputs;
	int nr = 0;

	if (!sm->ninputs[m])
		return s->rows[sm->key_row[k]].aggr_nr;
	for (size_t j = 0; j < sm->ninputs[m]; j++) {
		size_t at = sm->key_in[k * ni + sm->input_ix[m][j]];

		if (at != SIZE_MAX && s->rows[at].aggr_nr > nr)
			nr = s->rows[at].aggr_nr;
	}
	return nr;
}

/*
 * -A: whether CPU k has a row of any event metric m reads (a metric of
 * no event has a value everywhere). Where none was counted, the metric
 * is not shown, as the counters are not.
 */
static bool cpu_counts(const struct session *s, size_t k, size_t m)
{
	const struct session_metrics *sm = &s->met;
	size_t ni = s->cfg->metrics->ninputs;

	if (!sm->ninputs[m])
		return true;
	for (size_t j = 0; j < sm->ninputs[m]; j++)
		if (sm->key_in[k * ni + sm->input_ix[m][j]] != SIZE_MAX)
			return true;
	return false;
}

/* Ask for the rows key k reads: each input's, and the key's own. */
static void prefetch_key(const struct session *s, size_t k)
{
	const struct session_metrics *sm = &s->met;
	size_t ni = s->cfg->metrics->ninputs;

	for (size_t i = 0; i < ni; i++) {
		size_t at = sm->key_in[k * ni + i];

		if (at == SIZE_MAX)
			continue;
		__builtin_prefetch(&s->rows[at].status);
		__builtin_prefetch(&s->rows[at].value);
	}
	__builtin_prefetch(&s->rows[sm->key_row[k]].thread);
}

size_t session_metrics_eval(struct session *s, size_t nrows,
			    uint64_t elapsed_ns)
{
	const struct pstat_metric_set *set = s->cfg->metrics;
	struct session_metrics *sm = &s->met;
	struct pstat_metric_inputs in = { 0 };
	size_t nkeys;

	sm->nv = 0;
	if (!set || !set->n || !nrows)
		return 0;
	if (!sm->input_at)
		sm->input_at = xcalloc(set->ninputs + 1,
				       sizeof(*sm->input_at));
	in.value = sm->value;
	in.why = sm->why;
	in.multiplexed = sm->mux;
	in.duration_s = (double)elapsed_ns / 1e9;
	in.consts = s->cfg->metric_consts;
	/* one evaluation per CPU, thread or unit the rows are split by */
	nkeys = session_metrics_keys(s, nrows);
	/* at most a value per metric and key */
	xgrow_aligned((void **)&sm->v, &sm->alloc, nkeys * set->n + 1,
		      sizeof(*sm->v));
	xgrow((void **)&sm->places, &sm->places_alloc, nkeys * set->n + 1,
	      sizeof(*sm->places));
	for (size_t k = 0; k < nkeys; k++) {
		if (k + KEY_AHEAD < nkeys)
			prefetch_key(s, k + KEY_AHEAD);
		fill_inputs(s, k);
		metric_set_eval(set, &in, sm->res);
		for (size_t m = 0; m < set->n; m++) {
			int nr = s->nunits ? unit_cpus(s, k, m) : 0;

			if (set->m[m].shown && pmu_counts(sm, k, m) &&
			    cgroup_counts(s, k, m) &&
			    (!s->nunits || nr) &&
			    (!per_cpu(s) || cpu_counts(s, k, m)))
				add_value(s, m, &s->rows[sm->key_row[k]], nr,
					  sm->key_last[k]);
		}
	}
	return sm->nv;
}

void session_report_metrics(const struct session *s, struct pstat_report *rep)
{
	rep->metrics = s->met.v;
	rep->nmetrics = s->met.nv;
	rep->metric_places = s->met.nv ? s->met.places : NULL;
	rep->abouts = s->met.about;
	rep->nabouts = s->cfg->metrics ? s->cfg->metrics->n : 0;
}

void session_metrics_record(struct session *s, unsigned run, unsigned runs)
{
	struct session_metrics *sm = &s->met;

	if (!sm->nv)
		return;
	if (!sm->samples) {
		sm->nslots = sm->nv;
		sm->samples = xcalloc(sm->nslots * runs + 1,
				      sizeof(*sm->samples));
		for (size_t i = 0; i < sm->nslots * runs; i++)
			sm->samples[i] = NAN;
	}
	for (size_t i = 0; i < sm->nv && i < sm->nslots; i++)
		sm->samples[i * runs + run] = sm->v[i].value;
}

void session_metrics_summarize(struct session *s, unsigned runs,
			       unsigned want)
{
	struct session_metrics *sm = &s->met;
	double *counted;

	if (!sm->samples || runs < 2)
		return;
	/* interrupted: the samples are those of the runs done */
	if (runs < want)
		for (size_t i = 0; i < sm->nslots; i++)
			memmove(&sm->samples[i * runs], &sm->samples[i * want],
				runs * sizeof(*sm->samples));
	free(sm->sums);
	free(sm->runs);
	sm->sums = xcalloc(sm->nslots + 1, sizeof(*sm->sums));
	sm->runs = xcalloc(sm->nslots + 1, sizeof(*sm->runs));
	counted = xmalloc(runs * sizeof(*counted));
	for (size_t i = 0; i < sm->nv && i < sm->nslots; i++) {
		size_t k = 0;

		for (unsigned j = 0; j < runs; j++)
			if (!isnan(sm->samples[i * runs + j]))
				counted[k++] = sm->samples[i * runs + j];
		stats_summarize(counted, k, &sm->sums[i]);
		sm->runs[i] = (struct pstat_metric_runs){
			.stats = &sm->sums[i],
			.samples = &sm->samples[i * runs],
			.nsamples = runs,
		};
		sm->v[i].runs = &sm->runs[i];
	}
	free(counted);
}
