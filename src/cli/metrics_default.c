/* SPDX-License-Identifier: MIT */
/*
 * perf's Default metric group on a run of the default events (no -e, no
 * metric), as perf 6.5 and later add it: where an Intel core PMU counts
 * top-down, or an Arm core PMU has the slot events (perf 6.6 and later),
 * and the vendor's data has the group for this CPU. Elsewhere the
 * tables are never read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/metrics_cli.h"

/* (arrays, not pointers: no relocation for the loader to make) */
static const char intel_cores[][16] = { "cpu", "cpu_core", "cpu_atom",
					"cpu_lowpower" };

/* pmus_foreach_name's: count the Intel core PMUs among the names. */
static void count_intel_core(const char *name, void *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(intel_cores); i++)
		*(int *)arg += !strcmp(name, intel_cores[i]);
}

/* The Arm core PMUs' names (armv8_*, armv9_*), for core_counts_topdown. */
struct arm_names {
	char name[8][64];
	size_t n;
};

/* pmus_foreach_name's: note an Arm core PMU's name. */
static void note_arm_core(const char *name, void *arg)
{
	struct arm_names *a = arg;

	if (a->n < ARRAY_SIZE(a->name) && (str_starts_with(name, "armv8_") ||
					   str_starts_with(name, "armv9_")))
		snprintf(a->name[a->n++], sizeof(a->name[0]), "%s", name);
}

static int core_counts_topdown(struct pstat_pmus *pmus)
{
	struct arm_names arm = { .n = 0 };
	int n = 0;

	/* by the names listed already: no PMU is loaded where none is */
	pmus_foreach_name(pmus, count_intel_core, &n);
	for (size_t i = 0; n && i < ARRAY_SIZE(intel_cores); i++) {
		const struct pstat_pmu *p = pmus_find(pmus, intel_cores[i]);

		if (p && (pmu_alias_find(p, "slots") ||
			  pmu_alias_find(p, "topdown-retiring")))
			return 1;
	}
	/*
	 * perf 6.6+ tags Arm's level 1 Default too (its Neoverse tables):
	 * an Arm core PMU with the slot events it reads
	 */
	pmus_foreach_name(pmus, note_arm_core, &arm);
	for (size_t i = 0; i < arm.n; i++) {
		const struct pstat_pmu *p = pmus_find(pmus, arm.name[i]);

		if (p && pmu_alias_find(p, "stall_slot") &&
		    pmu_alias_find(p, "op_spec"))
			return 1;
	}
	return 0;
}

/*
 * A run of the default events (no -e, no metric): perf's Default group
 * of the vendor's data beside them, as perf 6.5 and later add it, where
 * the data has one for this CPU. Returns 1 when it was added, 0 when
 * there is none (mc is left empty).
 */
int metrics_default_add(struct metrics_cli *mc, struct pstat_pmus *pmus,
			const char *sysfs_root, struct pstat_evlist *evl)
{
	struct pstat_error err = { "", -1 };

	if (!core_counts_topdown(pmus))
		return 0;
	metric_lib_load(&mc->lib, pmus, sysfs_root);
	if (!mc->lib.nvendor ||
	    metric_lib_select(&mc->lib, &mc->set, "Default", &err)) {
		metric_set_free(&mc->set);
		memset(&mc->set, 0, sizeof(mc->set));
		metric_lib_free(&mc->lib);
		return 0;
	}
	/* perf computes no threshold there: nothing is flagged */
	for (size_t m = 0; m < mc->set.n; m++) {
		mexpr_free(mc->set.m[m].def.threshold);
		mc->set.m[m].def.threshold = NULL;
		free(mc->set.m[m].def.threshold_text);
		mc->set.m[m].def.threshold_text = NULL;
	}
	mc->perf_default_rows = (size_t)evl->nrows;
	return 1;
}

/*
 * Whether every event the Default group reads is one this machine's
 * kernel names (a kernel that knows slots but not the level-2 topdown
 * events): a run of the default events must not fail for a group it did
 * not ask for, so the group is left out instead, said at -v.
 */
int metrics_default_inputs_ok(const struct metrics_cli *mc,
			      struct pstat_encode_ctx *ctx)
{
	for (size_t i = 0; i < mc->set.ninputs; i++) {
		struct pstat_error err = { "", -1 };
		struct pstat_evlist one = { 0 };
		int r = encode_string(mc->set.inputs[i], ctx, &one, &err);

		evlist_free(&one);
		if (r) {
			msg_debug(1, "perf's Default metric group left out: %s: %s",
				  mc->set.inputs[i], err.msg);
			return 0;
		}
	}
	return 1;
}
