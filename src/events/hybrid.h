/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_HYBRID_H
#define PSTAT_HYBRID_H

#include <stdbool.h>
#include <stddef.h>

#include "events/pmu.h"

/*
 * Core PMUs that cover only some CPUs: the cpu_core, cpu_atom and
 * cpu_lowpower of a hybrid Intel CPU, the armv8_cortex_* of an Arm
 * big.LITTLE one. The kernel gives each a "cpus" file (the x86 "cpu" PMU
 * of a non-hybrid CPU has none). A generic hardware or cache event has
 * to name one of them in config bits 63:32 (the kernel's extended type,
 * PERF_PMU_TYPE_SHIFT) to count on its CPUs; without it the kernel sends
 * the event to one PMU alone and the other kinds of core never count it.
 */

struct pstat_core_pmu {
	const struct pstat_pmu *pmu;    /* borrowed from the pmus cache */
	int *cpus;                      /* its cpus file, sorted */
	size_t ncpus;
};

/* Where a PMU's type goes in the config of a hardware or cache event. */
#define HYBRID_TYPE_SHIFT 32

/*
 * The PMUs under pmus that have a cpus file, sorted by name, into a new
 * array *out (hybrid_core_pmus_free it; NULL when none). Returns how many. A
 * cpus file that does not parse is skipped.
 */
size_t hybrid_core_pmus(struct pstat_pmus *pmus, struct pstat_core_pmu **out);
void hybrid_core_pmus_free(struct pstat_core_pmu *v, size_t n);

/*
 * Whether pmu counts CPU events: it has a cpus file, or is the x86
 * "cpu", "cpu_core", "cpu_atom" or an "armv8_pmuv3" PMU.
 */
bool hybrid_is_core_pmu(const struct pstat_pmu *pmu);

#endif
