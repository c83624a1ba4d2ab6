/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_METRIC_BUDGET_H
#define PSTAT_METRIC_BUDGET_H

#include <linux/perf_event.h>

#include "events/metric.h"
#include "events/metric_lib.h"
#include "events/pmu.h"

/*
 * The counters a group of one core PMU's events may use, for
 * metric_set_group_inputs, as far as pstat can know them. The kernel
 * says nothing of them in sysfs (an x86 core PMU's caps/ holds
 * max_precise, pmu_name and branches; an Arm PMUv3's slots, bus_slots,
 * bus_width and threshold_max), so they are the vendors' documented
 * numbers, the smallest where a family varies (metric_budget.c names
 * each source).
 */

/* The fixed counters, by what they count (Intel's numbering). */
#define METRIC_FIXED_INSN   0   /* instructions retired */
#define METRIC_FIXED_CYCLES 1   /* core cycles; Arm's cycle counter */
#define METRIC_FIXED_REF    2   /* reference cycles */
#define METRIC_FIXED_SLOTS  3   /* Intel's topdown slots */

/*
 * Whether the NMI watchdog (a pinned cycles event on every CPU) may hold
 * a counter: <root>/proc/sys/kernel/nmi_watchdog, or /proc's when root
 * is NULL, does not read 0. A tree's file is not read in secure mode;
 * what cannot be read counts as on, the default of the kernel.
 */
int metric_budget_watchdog(const char *root);

/*
 * The budget of core PMU pmu into b (b->klass is left to the caller),
 * with the counter the watchdog holds taken when watchdog is set.
 * Returns 0, or -1 when pmu is not a core PMU pstat knows the counters
 * of (its groups are then not limited).
 */
int metric_budget_core(const struct pstat_metric_lib *lib,
		       const struct pstat_pmu *pmu, int watchdog,
		       struct pstat_metric_budget *b);

/*
 * The counter event a takes on core PMU pmu: a fixed counter's number
 * (METRIC_FIXED_*) or METRIC_CTR_GP.
 */
int metric_budget_counter(const struct pstat_metric_lib *lib,
			  const struct pstat_pmu *pmu,
			  const struct perf_event_attr *a);

#endif
