/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "base/topology.h"
#include "base/util.h"
#include "report/metrics.h"

int metrics_is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK ||
		a->config == PERF_COUNT_SW_CPU_CLOCK);
}

static int is_hw(const struct perf_event_attr *a, uint64_t config)
{
	return a->type == PERF_TYPE_HARDWARE && a->config == config;
}

static int usable(const struct pstat_row *r)
{
	return r->status == PSTAT_COUNTED || r->status == PSTAT_MULTIPLEXED;
}

/* Two rows may be combined: same group, or both counted all the time. */
static int comparable(const struct pstat_row *a, const struct pstat_row *b)
{
	if (!usable(a) || !usable(b))
		return 0;
	if (a->group == b->group)
		return 1;
	return a->status == PSTAT_COUNTED && b->status == PSTAT_COUNTED;
}

/*
 * The time GHz and rates are over: task-clock, or cpu-clock (counted
 * with -a, where perf uses it too); the first one listed.
 */
static int pred_clock(const struct perf_event_attr *a, uint64_t c)
{
	(void)c;
	return metrics_is_clock(a);
}

/*
 * The rows another row's metric may be computed from (clocks, cycles,
 * branches, cache references), chained by where they count (CPU,
 * thread, cgroup, unit): a lookup hashes the row's place and scans the
 * few partners there, in row order, so that metrics over thousands of
 * per-thread rows stay linear whatever the threads are called (sorting
 * by name cost n log n string comparisons every interval).
 */
struct partners {
	const struct pstat_row *rows;
	const struct perf_event_attr *const *attrs;
	size_t n;
	int built;
	struct metrics_index *ix;   /* head[bucket]: first partner + 1, or
				       0; next[row]: the next + 1, or 0 */
	size_t mask;                /* buckets - 1 */
};

static int is_partner(const struct perf_event_attr *a)
{
	return metrics_is_clock(a) ||
	       is_hw(a, PERF_COUNT_HW_CPU_CYCLES) ||
	       is_hw(a, PERF_COUNT_HW_BRANCH_INSTRUCTIONS) ||
	       is_hw(a, PERF_COUNT_HW_CACHE_REFERENCES);
}

/* Two strings that may be NULL, the same or not. */
static int opt_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether two rows count at the same place. */
static int same_place(const struct pstat_row *a, const struct pstat_row *b)
{
	/* --per-socket and the like: the rows of one unit share its id */
	if (a->aggr != b->aggr &&
	    (!a->aggr || !b->aggr || topo_aggr_cmp(a->aggr, b->aggr)))
		return 0;
	/* -G: a cgroup's rates are over its own clock */
	return a->cpu == b->cpu && opt_same(a->cgroup, b->cgroup) &&
	       opt_same(a->thread, b->thread);
}

/* A hash of what same_place compares. */
static uint64_t place_hash(const struct pstat_row *r)
{
	uint64_t h = HASH_INIT;

	if (r->aggr) {
		const struct pstat_aggr_id *u = r->aggr;
		int id[] = { u->socket, u->die, u->cluster, u->cache_level,
			     u->cache, u->core, u->node, u->cpu };

		h = hash_bytes(h, id, sizeof(id));
	}
	h = hash_bytes(h, &r->cpu, sizeof(r->cpu));
	h = hash_str(h, r->cgroup);
	return hash_str(h, r->thread);
}

/* Room for n entries in *a (of *cap); 0, or -1 when out of memory. */
static int index_room(size_t **a, size_t *cap, size_t n)
{
	size_t *b;

	if (n <= *cap)
		return 0;
	b = realloc(*a, n * sizeof(**a));
	if (!b)
		return -1;
	*a = b;
	*cap = n;
	return 0;
}

/*
 * Index the partner rows, on the first lookup: when no row has a metric
 * to compute (nothing counted this interval), none is made. Out of
 * memory, there is no index and no partner is found.
 */
static int partners_ready(struct partners *p)
{
	struct metrics_index *ix = p->ix;
	size_t np = 0, nb = 1;

	if (p->built)
		return ix->head != NULL;
	p->built = 1;
	for (size_t i = 0; i < p->n; i++)
		np += is_partner(p->attrs[i]);
	while (nb < 2 * np)
		nb *= 2;
	if (index_room(&ix->head, &ix->head_cap, nb) ||
	    index_room(&ix->next, &ix->next_cap, p->n + 1)) {
		metrics_index_free(ix);
		return 0;
	}
	p->mask = nb - 1;
	memset(ix->head, 0, nb * sizeof(*ix->head));
	/* from the last row back, so that each chain is in row order */
	for (size_t i = p->n; i-- > 0;) {
		size_t b;

		if (!is_partner(p->attrs[i]))
			continue;
		b = place_hash(&p->rows[i]) & p->mask;
		ix->next[i] = ix->head[b];
		ix->head[b] = i + 1;
	}
	return 1;
}

void metrics_index_free(struct metrics_index *ix)
{
	free(ix->head);
	free(ix->next);
	*ix = (struct metrics_index){ 0 };
}

/*
 * The first row matching pred, counting where with counts, with the
 * same privilege filter as like (for ratios of hardware events).
 */
static const struct pstat_row *
find(struct partners *p, const struct perf_event_attr *const *attrs,
     const struct perf_event_attr *like, const struct pstat_row *with,
     int (*pred)(const struct perf_event_attr *a, uint64_t c), uint64_t c)
{
	size_t k = partners_ready(p) ?
		p->ix->head[place_hash(with) & p->mask] : 0;

	for (; k; k = p->ix->next[k - 1]) {
		size_t i = k - 1;
		const struct perf_event_attr *a = attrs[i];

		if (!pred(a, c) || !comparable(&p->rows[i], with) ||
		    !same_place(&p->rows[i], with))
			continue;
		if (pred != pred_clock &&
		    (a->exclude_user != like->exclude_user ||
		     a->exclude_kernel != like->exclude_kernel))
			continue;
		/* a hybrid CPU's cpu_core/instructions/ over cpu_core/cycles/ */
		if (pred != pred_clock && p->rows[i].pmu && with->pmu &&
		    strcmp(p->rows[i].pmu, with->pmu))
			continue;
		return &p->rows[i];
	}
	return NULL;
}

static int pred_hw(const struct perf_event_attr *a, uint64_t c)
{
	return is_hw(a, c);
}

static void set(struct pstat_row *r, const char *name, const char *unit,
		double v, int higher)
{
	r->has_metric = 1;
	r->metric.name = name;
	r->metric.unit = unit;
	r->metric.value = v;
	r->metric.higher_is_better = higher;
}

void metrics_compute(struct pstat_row *rows, size_t nrows,
		     const struct perf_event_attr *const *attrs,
		     uint64_t elapsed_ns, struct metrics_index *ix,
		     const unsigned char *kept)
{
	struct metrics_index own = { 0 };
	struct partners p = {
		.rows = rows, .attrs = attrs, .n = nrows, .ix = ix ? ix : &own,
	};
	for (size_t i = 0; i < nrows; i++) {
		struct pstat_row *r = &rows[i];
		const struct perf_event_attr *a = attrs[i];
		const struct pstat_row *o;

		/* (not read: thousands of idle threads' rows an interval) */
		if (kept && kept[i])
			continue;
		r->has_metric = 0;
		if (!usable(r))
			continue;
		if (metrics_is_clock(a)) {
			/* value is msec; elapsed in ns */
			if (elapsed_ns)
				set(r, "CPUs utilized", "",
				    r->value * 1e6 / (double)elapsed_ns, 1);
		} else if (is_hw(a, PERF_COUNT_HW_CPU_CYCLES)) {
			o = find(&p, attrs, a, r, pred_clock, 0);
			if (o && o->value > 0)
				set(r, "GHz", "", r->value / (o->value * 1e6),
				    1);
		} else if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
			o = find(&p, attrs, a, r, pred_hw,
				 PERF_COUNT_HW_CPU_CYCLES);
			if (o && o->value > 0)
				set(r, "insn per cycle", "",
				    r->value / o->value, 1);
		} else if (is_hw(a, PERF_COUNT_HW_BRANCH_MISSES)) {
			o = find(&p, attrs, a, r, pred_hw,
				 PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
			if (o && o->value > 0)
				set(r, "of all branches", "%",
				    100.0 * r->value / o->value, 0);
		} else if (is_hw(a, PERF_COUNT_HW_CACHE_MISSES)) {
			o = find(&p, attrs, a, r, pred_hw,
				 PERF_COUNT_HW_CACHE_REFERENCES);
			if (o && o->value > 0)
				set(r, "of all cache refs", "%",
				    100.0 * r->value / o->value, 0);
		} else if (r->pmu && !strcmp(r->pmu, "sim")) {
			/*
			 * The simulated PMU's counts over task-clock would be
			 * Valgrind's speed, not the program's: no rate.
			 */
		} else {
			/*
			 * Everything else gets a rate per second of task
			 * time, when a clock was counted alongside (as perf
			 * does).
			 */
			o = find(&p, attrs, a, r, pred_clock, 0);
			if (o && o->value > 0)
				set(r, "/sec", "", r->value / (o->value / 1e3),
				    0);
		}
	}
	metrics_index_free(&own);
}
