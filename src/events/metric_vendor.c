/* SPDX-License-Identifier: MIT */
/*
 * Which of the tables generated from the vendors' data (vendor_tables.c)
 * describe this CPU: Intel's mapfile rows by CPUID family, model and
 * stepping, one row per kind of core on a hybrid part, each counted by
 * its own core PMU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

const struct vendor_arm_cpu *vendor_arm_core(const struct pstat_cpuinfo *ci)
{
	unsigned rev;

	if (ci->implementer < 0 || ci->part < 0 || ci->variant < 0 ||
	    ci->revision < 0)
		return NULL;
	rev = (unsigned)ci->variant << 4 | (unsigned)ci->revision;
	for (size_t i = 0; i < vendor_arm_ncpus; i++) {
		const struct vendor_arm_cpu *a = &vendor_arm_cpus[i];

		if (a->implementer == (unsigned)ci->implementer &&
		    a->part == (unsigned)ci->part && rev >= a->rev_min &&
		    rev <= a->rev_max)
			return a;
	}
	return NULL;
}

const char *vendor_arm_pmu(struct pstat_pmus *pmus)
{
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(pmus, &all);
	const char *name = NULL;

	for (size_t i = 0; i < n && !name; i++)
		if (str_starts_with(all[i]->name, "armv8_") ||
		    str_starts_with(all[i]->name, "armv9_"))
			name = all[i]->name;
	free(all);
	return name;
}

/* Table v's rows as the library's entries (new array). */
static struct metric_lib_entry *entries(const struct vendor_metrics *v)
{
	struct metric_lib_entry *e = xcalloc(v->n + 1, sizeof(*e));

	for (size_t i = 0; i < v->n; i++) {
		const struct vendor_metric_row *r = &vendor_rows[v->first + i];

		e[i].group = vendor_str(r->group);
		e[i].def = vendor_str(r->def);
		e[i].source = vendor_str(v->source);
	}
	return e;
}

/* Add table v to lib's, once. */
static void add_table(struct pstat_metric_lib *lib,
		      const struct vendor_metrics *v)
{
	for (size_t k = 0; k < lib->nvendor; k++)
		if (lib->vendor[k] == v)
			return;
	if (lib->nvendor == ARRAY_SIZE(lib->vendor))
		return;
	lib->vendor_e[lib->nvendor] = entries(v);
	lib->vendor[lib->nvendor++] = v;
	if (v->levels > lib->topdown_levels)
		lib->topdown_levels = v->levels;
}

/*
 * An Arm core: the MIDR of CPU 0 (sysfs, else cpuinfo's fields) against
 * the cores of Arm's telemetry data. Where none matches, or the PMU does
 * not list the slot events, there is no top-down, and lib->no_topdown
 * says why.
 */
static void pick_arm(struct pstat_metric_lib *lib, struct pstat_pmus *pmus)
{
	struct pstat_cpuinfo ci = lib->cpu;
	const struct pstat_pmu *core = pmus_find(pmus, lib->core);
	const struct vendor_arm_cpu *a;

	if (cpuinfo_midr(pmus_root(pmus), 0, &ci) && ci.implementer < 0)
		return;
	if (ci.part < 0 || ci.variant < 0 || ci.revision < 0)
		return;
	a = vendor_arm_core(&ci);
	if (a) {
		const struct vendor_metrics *v = &vendor_tables[a->metrics];

		snprintf(lib->vendor_cpu, sizeof(lib->vendor_cpu),
			 "Arm %s r%up%u (MIDR implementer 0x%02x part 0x%03x)",
			 vendor_str(v->platform), (unsigned)ci.variant,
			 (unsigned)ci.revision, (unsigned)ci.implementer,
			 (unsigned)ci.part);
		if (!core || !pmu_alias_find(core, "stall_slot") ||
		    !pmu_alias_find(core, "op_spec"))
			return;
		add_table(lib, v);
		lib->no_topdown[0] = '\0';
		return;
	}
	if (!lib->topdown_levels) {
		size_t n = strlen(lib->no_topdown);

		snprintf(lib->no_topdown + n, sizeof(lib->no_topdown) - n,
			 "%sArm's telemetry data has no top-down for this core (MIDR implementer 0x%02x part 0x%03x r%dp%d)",
			 n ? "; " : "", (unsigned)ci.implementer,
			 (unsigned)ci.part, ci.variant, ci.revision);
	}
}

void metric_vendor_pick(struct pstat_metric_lib *lib, struct pstat_pmus *pmus)
{
	const struct vendor_cpu *rows[8];
	size_t n = vendor_cpu_rows(&lib->cpu, rows, ARRAY_SIZE(rows));

	if (lib->families & METRIC_FAM_ARM) {
		pick_arm(lib, pmus);
		return;
	}

	for (size_t i = 0; i < n; i++) {
		const char *pmu = vendor_role_pmu(vendor_str(rows[i]->role),
						  lib->core);

		if (rows[i]->metrics < 0 || !*pmu || !pmus_find(pmus, pmu))
			continue;
		add_table(lib, &vendor_tables[rows[i]->metrics]);
		snprintf(lib->vendor_cpu, sizeof(lib->vendor_cpu),
			 "Intel %s (family %Xh model %02Xh stepping %d)",
			 vendor_str(rows[i]->platform), lib->cpu.family,
			 lib->cpu.model, lib->cpu.stepping);
	}
	if (lib->nvendor)
		lib->no_topdown[0] = '\0';
}

/* The vendor row behind entry e of lib, or NULL (a hand-written one). */
static const struct vendor_metric_row *
entry_row(const struct pstat_metric_lib *lib, const struct metric_lib_entry *e)
{
	for (size_t v = 0; v < lib->nvendor; v++) {
		const struct metric_lib_entry *first = lib->vendor_e[v];

		if (e >= first && e < first + lib->vendor[v]->n)
			return &vendor_rows[lib->vendor[v]->first +
					    (size_t)(e - first)];
	}
	return NULL;
}

const char *metric_vendor_groups(const struct pstat_metric_lib *lib,
				 const struct metric_lib_entry *e)
{
	const struct vendor_metric_row *r = entry_row(lib, e);

	return r ? vendor_str(r->groups) : "";
}

size_t metric_vendor_left_out(const struct pstat_metric_lib *lib,
			      const char *w, struct metric_left_out *out,
			      size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < vendor_nskipped; i++) {
		const struct vendor_skipped *s = &vendor_skipped[i];
		size_t v;

		for (v = 0; v < lib->nvendor; v++)
			if (lib->vendor[v] == &vendor_tables[s->table])
				break;
		if (v == lib->nvendor ||
		    (w && !metric_lib_in_group(vendor_str(s->groups), w)))
			continue;
		if (n < max)
			out[n] = (struct metric_left_out){
				.name = vendor_str(s->name),
				.groups = vendor_str(s->groups),
				.why = vendor_str(s->why),
			};
		n++;
	}
	return n;
}
