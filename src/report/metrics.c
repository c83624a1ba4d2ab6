/* SPDX-License-Identifier: MIT */
#include <string.h>

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

/* The first row matching pred with the same privilege filter as like. */
static const struct pstat_row *
find(const struct pstat_row *rows, size_t n,
     const struct perf_event_attr *const *attrs,
     const struct perf_event_attr *like, const struct pstat_row *with,
     int (*pred)(const struct perf_event_attr *a, uint64_t c), uint64_t c)
{
	for (size_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = attrs[i];

		if (!pred(a, c) || !comparable(&rows[i], with))
			continue;
		/* ratios of hardware events need the same privilege filter */
		if (pred != pred_clock &&
		    (a->exclude_user != like->exclude_user ||
		     a->exclude_kernel != like->exclude_kernel))
			continue;
		if (rows[i].cpu != with->cpu ||
		    (rows[i].thread != with->thread &&
		     (!rows[i].thread || !with->thread ||
		      strcmp(rows[i].thread, with->thread))))
			continue;
		return &rows[i];
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
			o = find(rows, nrows, attrs, a, r, pred_clock, 0);
			if (o && o->value > 0)
				set(r, "GHz", "", r->value / (o->value * 1e6),
				    1);
		} else if (is_hw(a, PERF_COUNT_HW_INSTRUCTIONS)) {
			o = find(rows, nrows, attrs, a, r, pred_hw,
				 PERF_COUNT_HW_CPU_CYCLES);
			if (o && o->value > 0)
				set(r, "insn per cycle", "",
				    r->value / o->value, 1);
		} else if (is_hw(a, PERF_COUNT_HW_BRANCH_MISSES)) {
			o = find(rows, nrows, attrs, a, r, pred_hw,
				 PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
			if (o && o->value > 0)
				set(r, "of all branches", "%",
				    100.0 * r->value / o->value, 0);
		} else if (is_hw(a, PERF_COUNT_HW_CACHE_MISSES)) {
			o = find(rows, nrows, attrs, a, r, pred_hw,
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
			o = find(rows, nrows, attrs, a, r, pred_clock, 0);
			if (o && o->value > 0)
				set(r, "/sec", "", r->value / (o->value / 1e3),
				    0);
		}
	}
}
