/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "base/topology.h"
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
 * branches, cache references), sorted by where they count (CPU, thread)
 * and then by position: a lookup is a binary search for the row's place
 * and a scan of the few partners there, so that metrics over thousands
 * of per-thread rows stay linear.
 */
struct partners {
	const struct pstat_row *rows;
	size_t *idx;
	size_t n;
};

static int is_partner(const struct perf_event_attr *a)
{
	return metrics_is_clock(a) ||
	       is_hw(a, PERF_COUNT_HW_CPU_CYCLES) ||
	       is_hw(a, PERF_COUNT_HW_BRANCH_INSTRUCTIONS) ||
	       is_hw(a, PERF_COUNT_HW_CACHE_REFERENCES);
}

/* Two strings that may be NULL, NULL first. */
static int opt_cmp(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	return strcmp(a, b);
}

static int place_cmp(const struct pstat_row *a, const struct pstat_row *b)
{
	int c;

	/* --per-socket and the like: the rows of one unit share its id */
	if (a->aggr != b->aggr) {
		if (!a->aggr || !b->aggr)
			return a->aggr ? 1 : -1;
		c = topo_aggr_cmp(a->aggr, b->aggr);
		if (c)
			return c;
	}
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	/* -G: a cgroup's rates are over its own clock */
	if ((c = opt_cmp(a->cgroup, b->cgroup)))
		return c;
	if (a->thread == b->thread)
		return 0;
	if (!a->thread || !b->thread)
		return a->thread ? 1 : -1;
	return strcmp(a->thread, b->thread);
}

static const struct pstat_row *sort_rows;

static int partner_cmp(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = place_cmp(&sort_rows[i], &sort_rows[j]);

	if (c)
		return c;
	return i < j ? -1 : i > j;
}

static void partners_index(struct partners *p, const struct pstat_row *rows,
			   size_t n, const struct perf_event_attr *const *attrs)
{
	p->rows = rows;
	p->n = 0;
	p->idx = malloc((n + 1) * sizeof(*p->idx));
	if (!p->idx)
		return;
	for (size_t i = 0; i < n; i++)
		if (is_partner(attrs[i]))
			p->idx[p->n++] = i;
	sort_rows = rows;
	/*
	 * Rows come in place order within an event (threads and CPUs in
	 * the order they were opened), so the index is usually sorted
	 * already: one pass says so, where sorting it again every interval
	 * cost n log n comparisons of thread names.
	 */
	for (size_t i = 1; i < p->n; i++) {
		if (partner_cmp(&p->idx[i - 1], &p->idx[i]) > 0) {
			qsort(p->idx, p->n, sizeof(*p->idx), partner_cmp);
			break;
		}
	}
}

/*
 * The first row matching pred, counting where with counts, with the
 * same privilege filter as like (for ratios of hardware events).
 */
static const struct pstat_row *
find(const struct partners *p, const struct perf_event_attr *const *attrs,
     const struct perf_event_attr *like, const struct pstat_row *with,
     int (*pred)(const struct perf_event_attr *a, uint64_t c), uint64_t c)
{
	size_t lo = 0, hi = p->idx ? p->n : 0;

	/* the first partner at with's place */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (place_cmp(&p->rows[p->idx[mid]], with) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n && !place_cmp(&p->rows[p->idx[lo]], with); lo++) {
		size_t i = p->idx[lo];
		const struct perf_event_attr *a = attrs[i];

		if (!pred(a, c) || !comparable(&p->rows[i], with))
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
		     uint64_t elapsed_ns)
{
	struct partners p;

	partners_index(&p, rows, nrows, attrs);
	for (size_t i = 0; i < nrows; i++) {
		struct pstat_row *r = &rows[i];
		const struct perf_event_attr *a = attrs[i];
		const struct pstat_row *o;

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
	free(p.idx);
}
