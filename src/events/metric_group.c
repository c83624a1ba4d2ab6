/* SPDX-License-Identifier: MIT */
/*
 * Which of a metric set's events are opened together: each metric's
 * events as one weak group, as perf opens a metric's events
 * ({...}:W), so that a ratio is of counts taken over the same time even
 * when the PMU multiplexes. Unlike perf, which opens an event once per
 * metric group that needs it, an event is opened once: metrics that
 * share an event share one group while it fits the PMU's counters
 * (metric_budget.h), and else the later metric reads the shared event
 * from the earlier one's group.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode.h"
#include "events/metric.h"

/* Union-find over the inputs: each component, one group to be. */
struct components {
	size_t *parent;
	size_t *size;
	long *klass;            /* of a root: METRIC_CLASS_ANY or a PMU's */
};

/* What metric_set_group_inputs works with. */
struct grouping {
	struct pstat_metric_entry *m;   /* the metric being grouped */
	struct components c;
	size_t ni;
	const long *klass;
	const int *counter;
	const struct pstat_metric_budget *budgets;
	size_t nb;
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

static int groupable(const struct grouping *g, size_t i)
{
	return g->klass[i] != METRIC_CLASS_NONE;
}

/*
 * Whether the components whose roots are marked in take may be one
 * group: of one PMU's events (and software ones), at most
 * PSTAT_MAX_GROUP. Sets *budget to that PMU's budget, NULL when it has
 * none.
 */
static int joinable(struct grouping *g, const unsigned char *take,
		    const struct pstat_metric_budget **budget)
{
	long k = METRIC_CLASS_ANY;
	size_t n = 0;

	*budget = NULL;
	for (size_t i = 0; i < g->ni; i++)
		if (groupable(g, i) && take[root(&g->c, i)]) {
			k = joined(k, g->c.klass[root(&g->c, i)]);
			n++;
		}
	if (k == METRIC_CLASS_NONE || n > PSTAT_MAX_GROUP)
		return 0;
	for (size_t j = 0; j < g->nb && !*budget; j++)
		if (g->budgets[j].klass == k)
			*budget = &g->budgets[j];
	return 1;
}

/*
 * Whether the components whose roots are marked in take would fit one
 * group (joinable) within its PMU's budget: with the watchdog's counter
 * taken, or as the kernel checks a group when it opens it (hw). An
 * event goes on its fixed counter while that is free to the group,
 * else on a general-purpose one, as the kernel places them (a second
 * event for the same fixed counter takes a general-purpose one).
 */
static int fits(struct grouping *g, const unsigned char *take, int hw)
{
	const struct pstat_metric_budget *b;
	unsigned used = 0, fixed;
	int gp = 0;

	if (!joinable(g, take, &b))
		return 0;
	if (!b)
		return 1;
	fixed = hw ? b->hw_fixed : b->fixed;
	for (size_t i = 0; i < g->ni; i++) {
		int ctr = g->counter[i];

		if (!groupable(g, i) || !take[root(&g->c, i)] ||
		    ctr == METRIC_CTR_NONE)
			continue;
		if (ctr >= 0 && ctr < 32 && (fixed & ~used & (1u << ctr)))
			used |= 1u << ctr;
		else
			gp++;
	}
	return gp <= (hw ? b->hw_gp : b->gp);
}

/* Join the components whose roots are marked in take into one. */
static void join_marked(struct grouping *g, const unsigned char *take)
{
	size_t a = SIZE_MAX;

	for (size_t i = 0; i < g->ni; i++) {
		size_t b;

		if (!groupable(g, i) || !take[root(&g->c, i)])
			continue;
		b = root(&g->c, i);
		if (a == SIZE_MAX) {
			a = b;
			continue;
		}
		a = root(&g->c, a);
		if (a == b)
			continue;
		g->c.parent[b] = a;
		g->c.size[a] += g->c.size[b];
		g->c.klass[a] = joined(g->c.klass[a], g->c.klass[b]);
	}
}

/*
 * The metric's events (seen) when the groups they are in cannot all be
 * joined: those no group holds yet (fresh, marked in take) join the
 * group that holds most of the metric's other events, if they fit
 * there; else they make a group of their own when it fits, or is
 * larger than the kernel allows (a weak group the kernel refuses, as
 * perf's); a group that would fit the kernel's check but not beside
 * the watchdog is not made: the kernel would open it and never
 * schedule it.
 */
static void join_fresh(struct grouping *g, const unsigned char *seen,
		       unsigned char *take)
{
	const struct pstat_metric_budget *b;
	size_t best = SIZE_MAX, most = 0;
	size_t *count = xcalloc(g->ni + 1, sizeof(*count));

	for (size_t i = 0; i < g->ni; i++)
		if (seen[i] && groupable(g, i) &&
		    g->c.size[root(&g->c, i)] > 1)
			count[root(&g->c, i)]++;
	for (size_t r = 0; r < g->ni; r++) {
		if (count[r] <= most)
			continue;
		take[r] = 1;
		if (fits(g, take, 0)) {
			best = r;
			most = count[r];
		}
		take[r] = 0;
	}
	free(count);
	if (best != SIZE_MAX) {
		take[best] = 1;
		join_marked(g, take);
	} else if (joinable(g, take, &b) &&
		   (fits(g, take, 0) || !fits(g, take, 1))) {
		join_marked(g, take);
	} else if (joinable(g, take, &b)) {
		g->m->beside_watchdog = 1;
	}
}

/*
 * Group the groupable inputs of one metric (seen): with the groups
 * holding any of them when all fit one group, else join_fresh.
 */
static void join_metric(struct grouping *g, const unsigned char *seen)
{
	unsigned char *take = xcalloc(g->ni + 1, 1);
	long k = METRIC_CLASS_ANY;
	size_t nfresh = 0;

	for (size_t i = 0; i < g->ni; i++)
		if (seen[i] && groupable(g, i)) {
			take[root(&g->c, i)] = 1;
			k = joined(k, g->c.klass[root(&g->c, i)]);
		}
	if (k == METRIC_CLASS_NONE) {
		/* two PMUs' events: ungrouped */
	} else if (fits(g, take, 0)) {
		join_marked(g, take);
	} else {
		for (size_t r = 0; r < g->ni; r++) {
			if (take[r] && g->c.size[r] > 1)
				take[r] = 0;
			nfresh += take[r];
		}
		if (nfresh)
			join_fresh(g, seen, take);
	}
	free(take);
}

/*
 * Whether the events seen, with the groups that hold any of them, fit
 * one group as the kernel checks it.
 */
static int fits_hw(struct grouping *g, const unsigned char *seen)
{
	unsigned char *take = xcalloc(g->ni + 1, 1);
	int r;

	for (size_t i = 0; i < g->ni; i++)
		if (seen[i] && groupable(g, i))
			take[root(&g->c, i)] = 1;
	r = fits(g, take, 1);
	free(take);
	return r;
}

/*
 * The events metric m's own formula names (not those of the metrics it
 * refers to) into own[ni]; returns whether it refers to another metric.
 */
static int own_inputs(const struct pstat_metric_entry *m, unsigned char *own)
{
	int refers = 0;

	for (size_t k = 0; m->def.expr && k < mexpr_nnames(m->def.expr); k++) {
		if (m->refs[k].kind == METRIC_REF_INPUT)
			own[m->refs[k].idx] = 1;
		refers |= m->refs[k].kind == METRIC_REF_METRIC;
	}
	return refers;
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
static int by_count(const void *a, const void *b, void *arg)
{
	const size_t *count = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (count[x] != count[y])
		return count[x] < count[y] ? 1 : -1;
	return (x > y) - (x < y);
}

void metric_set_group_inputs(struct pstat_metric_set *set, const long *klass,
			     const int *counter,
			     const struct pstat_metric_budget *budgets,
			     size_t nb)
{
	size_t ni = set->ninputs;
	struct grouping g = {
		.ni = ni, .klass = klass, .counter = counter,
		.budgets = budgets, .nb = nb,
	};
	size_t *order = xcalloc(set->n + 1, sizeof(*order));
	size_t *count = xcalloc(set->n + 1, sizeof(*count));
	unsigned char *seen = xcalloc(ni + 1, 1);

	g.c.parent = xcalloc(ni + 1, sizeof(*g.c.parent));
	g.c.size = xcalloc(ni + 1, sizeof(*g.c.size));
	g.c.klass = xcalloc(ni + 1, sizeof(*g.c.klass));
	for (size_t i = 0; i < ni; i++) {
		g.c.parent[i] = i;
		g.c.size[i] = 1;
		g.c.klass[i] = klass[i];
	}
	for (size_t m = 0; m < set->n; m++) {
		for (size_t i = 0; i < set->m[m].nins; i++)
			count[m] += klass[set->m[m].ins[i]] !=
				    METRIC_CLASS_NONE;
		order[m] = m;
	}
	qsort_r(order, set->n, sizeof(*order), by_count, count);
	for (size_t k = 0; k < set->n; k++) {
		const struct pstat_metric_entry *e = &set->m[order[k]];
		unsigned char *own;

		g.m = &set->m[order[k]];
		if (count[order[k]] < 2)
			continue;
		metric_set_metric_inputs(set, order[k], seen);
		/*
		 * A metric over other metrics whose events together cannot
		 * be one group (a top-down level's node over its parents):
		 * its own events are grouped, and those of the metrics it
		 * reads are, with theirs
		 */
		own = xcalloc(ni + 1, 1);
		if (g.m->refs && own_inputs(g.m, own) && !fits_hw(&g, seen))
			join_metric(&g, own);
		else
			join_metric(&g, seen);
		free(own);
		for (size_t i = 0; i < e->nins; i++)
			seen[e->ins[i]] = 0;
	}
	for (size_t i = 0; i < ni; i++)
		if (klass[i] != METRIC_CLASS_NONE && root(&g.c, i) == i &&
		    g.c.size[i] > 1)
			add_component(set, &g.c, i, klass);
	free(seen);
	free(order);
	free(count);
	free(g.c.parent);
	free(g.c.size);
	free(g.c.klass);
}
