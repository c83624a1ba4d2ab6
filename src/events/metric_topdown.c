/* SPDX-License-Identifier: MIT */
/*
 * The event groups top-down needs (metric_lib_group_inputs): the
 * kernel's topdown events with the event they are read through leading,
 * Skylake's level-2 raw events within the counters a thread has, a
 * hybrid's E-core slot counts together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "base/util.h"
#include "events/metric_lib.h"

/* The input of set spelled like spec, or -1. */
static ssize_t input_index(const struct pstat_metric_set *set,
			   const char *spec)
{
	for (size_t i = 0; i < set->ninputs; i++)
		if (!strcmp(set->inputs[i], spec))
			return (ssize_t)i;
	return -1;
}

/* Whether input spec is counted by the PMU named by prefix ("" bare). */
static int input_of_pmu(const char *spec, const char *prefix)
{
	const char *slash = strchr(spec, '/');
	size_t n = slash ? (size_t)(slash - spec) : 0;

	return strlen(prefix) == n && !strncmp(spec, prefix, n);
}

/* The inputs of set's top-down metrics counted by PMU prefix, in order. */
static struct pstat_metric_group topdown_inputs(const struct pstat_metric_set *set,
						const char *prefix,
						size_t *alloc)
{
	struct pstat_metric_group g = { 0 };

	for (size_t i = 0; i < set->n; i++) {
		const struct pstat_metric_entry *m = &set->m[i];

		if (!m->def.group || !metric_lib_is_topdown(m->def.group) || !m->refs ||
		    !m->def.expr)
			continue;
		for (size_t k = 0; k < mexpr_nnames(m->def.expr); k++) {
			size_t in = m->refs[k].idx, j;

			if (m->refs[k].kind != METRIC_REF_INPUT ||
			    !input_of_pmu(set->inputs[in], prefix))
				continue;
			for (j = 0; j < g.n && g.inputs[j] != in; j++)
				;
			if (j == g.n) {
				xgrow((void **)&g.inputs, alloc, g.n + 1,
				      sizeof(*g.inputs));
				g.inputs[g.n++] = in;
			}
		}
	}
	return g;
}

static void add_group(struct pstat_metric_set *set,
		      const struct pstat_metric_group *g)
{
	set->groups = xrealloc(set->groups,
			       (set->ngroups + 1) * sizeof(*set->groups));
	set->groups[set->ngroups++] = *g;
}

/*
 * The group of the top-down inputs of set counted by PMU prefix, its
 * leader first (added when missing: PERF_METRICS is read through
 * slots), when there are any.
 */
static void group_pmu(struct pstat_metric_set *set, const char *prefix,
		      const char *leader, int add_leader)
{
	size_t alloc = 0;
	struct pstat_metric_group g = topdown_inputs(set, prefix, &alloc);
	ssize_t li;

	if (!g.n)
		return;
	li = leader ? input_index(set, leader) : -1;
	if (li < 0 && leader && add_leader) {
		xgrow((void **)&set->inputs, &set->inputs_alloc,
		      set->ninputs + 1, sizeof(*set->inputs));
		set->inputs[set->ninputs] = xstrdup(leader);
		li = (ssize_t)set->ninputs++;
		xgrow((void **)&g.inputs, &alloc, g.n + 1, sizeof(*g.inputs));
		g.inputs[g.n++] = (size_t)li;
	}
	/* the leader first, the others in their order */
	for (size_t j = 0; li >= 0 && j < g.n; j++) {
		if (g.inputs[j] == (size_t)li) {
			memmove(&g.inputs[1], &g.inputs[0], j * sizeof(*g.inputs));
			g.inputs[0] = (size_t)li;
			break;
		}
	}
	add_group(set, &g);
}

/*
 * The top-down inputs of set counted by PMU prefix in groups of at most
 * n, in their order: events a group can count together, where the PMU
 * has n general-purpose counters.
 */
static void group_chunks(struct pstat_metric_set *set, const char *prefix,
			 size_t n)
{
	size_t alloc = 0;
	struct pstat_metric_group all = topdown_inputs(set, prefix, &alloc);

	for (size_t i = 0; i < all.n; i += n) {
		struct pstat_metric_group g = { 0 };

		g.n = all.n - i < n ? all.n - i : n;
		g.inputs = xmalloc(g.n * sizeof(*g.inputs));
		memcpy(g.inputs, all.inputs + i, g.n * sizeof(*g.inputs));
		add_group(set, &g);
	}
	free(all.inputs);
}

/*
 * The vendor's formulas on a core with PERF_METRICS: slots and the
 * kernel's topdown-* events of PMU core as one group, slots leading
 * (the kernel reads the metrics through it); their other events are
 * grouped by metric_set_group_inputs, within the counters.
 */
static void group_perf_metrics(struct pstat_metric_set *set,
			       const char *core)
{
	struct pstat_metric_group g = { 0 };
	size_t alloc = 0, cl = strlen(core);
	char *slots = xasprintf("%s/slots/", core);
	ssize_t li = input_index(set, slots);

	for (size_t i = 0; i < set->ninputs; i++) {
		const char *in = set->inputs[i];

		if (strncmp(in, core, cl) || in[cl] != '/' ||
		    !str_starts_with(in + cl + 1, "topdown-"))
			continue;
		xgrow((void **)&g.inputs, &alloc, g.n + 2, sizeof(*g.inputs));
		g.inputs[g.n++] = i;
	}
	if (!g.n) {
		free(slots);
		return;
	}
	if (li < 0) {
		xgrow((void **)&set->inputs, &set->inputs_alloc,
		      set->ninputs + 1, sizeof(*set->inputs));
		set->inputs[set->ninputs] = slots;
		li = (ssize_t)set->ninputs++;
		slots = NULL;
	}
	free(slots);
	xgrow((void **)&g.inputs, &alloc, g.n + 1, sizeof(*g.inputs));
	memmove(&g.inputs[1], &g.inputs[0], g.n * sizeof(*g.inputs));
	g.inputs[0] = (size_t)li;
	g.n++;
	add_group(set, &g);
}

void metric_lib_group_inputs(const struct pstat_metric_lib *lib,
			     struct pstat_metric_set *set)
{
	char leader[96];

	if (lib->nvendor) {
		if (lib->families & METRIC_FAM_INTEL_ICL)
			group_perf_metrics(set, lib->core);
		return;
	}

	/* the event every other counts in leads */
	if (lib->families & METRIC_FAM_INTEL_ICL) {
		snprintf(leader, sizeof(leader), "%s/slots/", lib->core);
		group_pmu(set, lib->core, leader, 1);
	} else if (lib->families & METRIC_FAM_INTEL_SKL) {
		/*
		 * The kernel's topdown events, and instructions on its
		 * fixed counter: 4 general-purpose counters and 2 fixed
		 */
		group_pmu(set, "", "topdown-total-slots", 0);
		/* level 2's raw events: 4 general-purpose counters a thread */
		if (lib->families & METRIC_FAM_INTEL_SKL_L2)
			group_chunks(set, lib->core, 4);
	}
	/* a hybrid's E-cores: their four slot counts, together */
	if (lib->families & METRIC_FAM_INTEL_ATOM)
		group_pmu(set, "cpu_atom", NULL, 0);
}
