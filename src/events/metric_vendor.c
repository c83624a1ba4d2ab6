/* SPDX-License-Identifier: MIT */
/*
 * Which of the tables generated from the vendors' data (vendor_intel.c)
 * describe this CPU: Intel's mapfile rows by CPUID family, model and
 * stepping, one row per kind of core on a hybrid part, each counted by
 * its own core PMU.
 */
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "events/metric_lib.h"
#include "events/pmu.h"
#include "events/vendor.h"

const char *vendor_role_pmu(const char *role, const char *core)
{
	if (!strcmp(role, "Core"))
		return "cpu_core";
	if (!strcmp(role, "Atom"))
		return "cpu_atom";
	if (!strcmp(role, "LowPower_Atom"))
		return "cpu_lowpower";
	return core;
}

size_t vendor_cpu_rows(const struct pstat_cpuinfo *ci,
		       const struct vendor_cpu **rows, size_t max)
{
	size_t n = 0;

	if (strcmp(ci->vendor, "GenuineIntel") || ci->family < 0 ||
	    ci->model < 0)
		return 0;
	for (size_t i = 0; i < vendor_intel_ncpus && n < max; i++) {
		const struct vendor_cpu *r = &vendor_intel_cpus[i];

		if (r->family != (unsigned)ci->family ||
		    r->model != (unsigned)ci->model)
			continue;
		/*
		 * A row for some steppings only (Skylake-SP 0-4, Cascade
		 * Lake 5-7 share model 55h) needs the stepping
		 */
		if (r->steppings != 0xffff &&
		    (ci->stepping < 0 || ci->stepping > 15 ||
		     !(r->steppings >> ci->stepping & 1)))
			continue;
		rows[n++] = r;
	}
	return n;
}

/* Table v's rows as the library's entries (new array). */
static struct metric_lib_entry *entries(const struct vendor_metrics *v)
{
	struct metric_lib_entry *e = xcalloc(v->n + 1, sizeof(*e));

	for (size_t i = 0; i < v->n; i++) {
		const struct vendor_metric_row *r = &vendor_intel_rows[v->first + i];

		e[i].group = vendor_str(r->group);
		e[i].def = vendor_str(r->def);
		e[i].source = vendor_str(v->source);
	}
	return e;
}

void metric_vendor_pick(struct pstat_metric_lib *lib, struct pstat_pmus *pmus)
{
	const struct vendor_cpu *rows[8];
	size_t n = vendor_cpu_rows(&lib->cpu, rows, ARRAY_SIZE(rows));

	for (size_t i = 0; i < n; i++) {
		const char *pmu = vendor_role_pmu(vendor_str(rows[i]->role),
						  lib->core);
		const struct vendor_metrics *v;
		size_t k;

		if (rows[i]->metrics < 0 || !*pmu || !pmus_find(pmus, pmu) ||
		    lib->nvendor == ARRAY_SIZE(lib->vendor))
			continue;
		v = &vendor_intel_metrics[rows[i]->metrics];
		for (k = 0; k < lib->nvendor && lib->vendor[k] != v; k++)
			;
		if (k < lib->nvendor)
			continue;
		lib->vendor_e[lib->nvendor] = entries(v);
		lib->vendor[lib->nvendor++] = v;
		if (v->levels > lib->topdown_levels)
			lib->topdown_levels = v->levels;
		snprintf(lib->vendor_cpu, sizeof(lib->vendor_cpu),
			 "Intel %s (family %Xh model %02Xh stepping %d)",
			 vendor_str(rows[i]->platform), lib->cpu.family,
			 lib->cpu.model, lib->cpu.stepping);
	}
	if (lib->nvendor)
		lib->no_topdown[0] = '\0';
}
