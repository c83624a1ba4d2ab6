/* SPDX-License-Identifier: MIT */
/*
 * Which of a metric set's events are opened together: each metric's
 * events as one weak group, as perf opens a metric's events
 * ({...}:W), so that a ratio is of counts taken over the same time even
 * when the PMU multiplexes. Unlike perf, which opens an event once per
 * metric group that needs it, an event is opened once: metrics that
 * share an event share one group.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode.h"
#include "events/metric.h"

/* The input events of metric i, through the metrics it refers to. */
static void collect(const struct pstat_metric_set *set, size_t i,
		    unsigned char *seen, unsigned char *visited)
{
	const struct pstat_metric_entry *m = &set->m[i];

	if (visited[i] || !m->def.expr)
		return;
	visited[i] = 1;
	for (size_t k = 0; k < mexpr_nnames(m->def.expr); k++) {
		if (m->refs[k].kind == METRIC_REF_INPUT)
			seen[m->refs[k].idx] = 1;
		else if (m->refs[k].kind == METRIC_REF_METRIC)
			collect(set, m->refs[k].idx, seen, visited);
	}
}

void metric_set_metric_inputs(const struct pstat_metric_set *set, size_t m,
			      unsigned char *seen)
{
	unsigned char *visited = xcalloc(set->n + 1, 1);

	if (set->m[m].refs)
		collect(set, m, seen, visited);
	free(visited);
}

/* Union-find over the inputs: each component, one group to be. */
struct components {
	size_t *parent;
	size_t *size;
	long *klass;            /* of a root: METRIC_CLASS_ANY or a PMU's */
};

static size_t root(struct components *c, size_t i)
{
	while (c->parent[i] != i)
		i = c->parent[i] = c->parent[c->parent[i]];
	return i;
}

/* The class a group of classes a and b would have, or NONE. */
static long joined(long a, long b)
{
	if (a == METRIC_CLASS_ANY)
		return b;
	if (b == METRIC_CLASS_ANY || a == b)
		return a;
	return METRIC_CLASS_NONE;
}

/*
 * Join the groupable inputs of one metric (seen) into one component,
 * when the result stays on one PMU and within PSTAT_MAX_GROUP events.
 */
static void join_metric(struct components *c, size_t ninputs,
			const unsigned char *seen, const long *klass)
{
	long k = METRIC_CLASS_ANY;
	size_t n = 0, first = SIZE_MAX;
	unsigned char *counted = xcalloc(ninputs + 1, 1);

	for (size_t i = 0; i < ninputs && k != METRIC_CLASS_NONE; i++) {
		size_t r;

		if (!seen[i] || klass[i] == METRIC_CLASS_NONE)
			continue;
		r = root(c, i);
		if (first == SIZE_MAX)
			first = i;
		if (counted[r])
			continue;
		counted[r] = 1;
		n += c->size[r];
		k = joined(k, c->klass[r]);
	}
	free(counted);
	if (k == METRIC_CLASS_NONE || first == SIZE_MAX ||
	    n > PSTAT_MAX_GROUP)
		return;
	for (size_t i = first + 1; i < ninputs; i++) {
		size_t a, b;

		if (!seen[i] || klass[i] == METRIC_CLASS_NONE)
			continue;
		a = root(c, first);
		b = root(c, i);
		if (a == b)
			continue;
		c->parent[b] = a;
		c->size[a] += c->size[b];
		c->klass[a] = joined(c->klass[a], c->klass[b]);
	}
}

/* Append the component of root r as a weak group: PMU events first. */
static void add_component(struct pstat_metric_set *set, struct components *c,
			  size_t r, const long *klass)
{
	struct pstat_metric_group g = { 0 };

	g.inputs = xcalloc(c->size[r], sizeof(*g.inputs));
	g.weak = 1;
	for (int any = 0; any < 2; any++)
		for (size_t i = 0; i < set->ninputs; i++)
			if (klass[i] != METRIC_CLASS_NONE &&
			    root(c, i) == r &&
			    (klass[i] == METRIC_CLASS_ANY) == any)
				g.inputs[g.n++] = i;
	set->groups = xrealloc(set->groups,
			       (set->ngroups + 1) * sizeof(*set->groups));
	set->groups[set->ngroups++] = g;
}

/* Metrics with more events first, as perf orders them; then as given. */
static void sort_by_count(size_t *order, size_t n, const size_t *count)
{
	for (size_t i = 1; i < n; i++) {
		size_t v = order[i], j = i;

		for (; j > 0 && count[order[j - 1]] < count[v]; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
}

void metric_set_group_inputs(struct pstat_metric_set *set, const long *klass)
{
	struct components c;
	size_t *order = xcalloc(set->n + 1, sizeof(*order));
	size_t *count = xcalloc(set->n + 1, sizeof(*count));
	unsigned char **seen = xcalloc(set->n + 1, sizeof(*seen));
	size_t ni = set->ninputs;

	c.parent = xcalloc(ni + 1, sizeof(*c.parent));
	c.size = xcalloc(ni + 1, sizeof(*c.size));
	c.klass = xcalloc(ni + 1, sizeof(*c.klass));
	for (size_t i = 0; i < ni; i++) {
		c.parent[i] = i;
		c.size[i] = 1;
		c.klass[i] = klass[i];
	}
	for (size_t m = 0; m < set->n; m++) {
		seen[m] = xcalloc(ni + 1, 1);
		metric_set_metric_inputs(set, m, seen[m]);
		for (size_t i = 0; i < ni; i++)
			count[m] += seen[m][i] && klass[i] != METRIC_CLASS_NONE;
		order[m] = m;
	}
	sort_by_count(order, set->n, count);
	for (size_t k = 0; k < set->n; k++)
		if (count[order[k]] > 1)
			join_metric(&c, ni, seen[order[k]], klass);
	for (size_t i = 0; i < ni; i++)
		if (klass[i] != METRIC_CLASS_NONE && root(&c, i) == i &&
		    c.size[i] > 1)
			add_component(set, &c, i, klass);
	for (size_t m = 0; m < set->n; m++)
		free(seen[m]);
	free(seen);
	free(order);
	free(count);
	free(c.parent);
	free(c.size);
	free(c.klass);
}
