/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "base/cpumap.h"
#include "base/util.h"
#include "events/hybrid.h"

size_t hybrid_core_pmus(struct pstat_pmus *pmus, struct pstat_core_pmu **out)
{
	const struct pstat_pmu **all = NULL;
	size_t nall = pmus_all(pmus, &all), n = 0;
	struct pstat_core_pmu *v = NULL;

	for (size_t i = 0; i < nall; i++) {
		struct pstat_error err;
		int *cpus;
		size_t ncpus;

		if (!all[i]->cpus ||
		    cpumap_parse(all[i]->cpus, &cpus, &ncpus, &err))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].pmu = all[i];
		v[n].cpus = cpus;
		v[n].ncpus = ncpus;
		n++;
	}
	free(all);
	*out = v;
	return n;
}

void hybrid_core_pmus_free(struct pstat_core_pmu *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i].cpus);
	free(v);
}

bool hybrid_is_core_pmu(const struct pstat_pmu *pmu)
{
	return pmu->cpus || !strcmp(pmu->name, "cpu") ||
	       !strcmp(pmu->name, "cpu_core") ||
	       !strcmp(pmu->name, "cpu_atom") ||
	       str_starts_with(pmu->name, "armv8_pmuv3");
}
