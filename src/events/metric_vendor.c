/* SPDX-License-Identifier: MIT */
/*
 * Which of the tables generated from the vendors' data (vendor_tables.c)
 * describe this CPU: Intel's mapfile rows by CPUID family, model and
 * stepping, one row per kind of core on a hybrid part, each counted by
 * its own core PMU.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "events/hybrid.h"
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

static int is_arm_pmu(const char *name)
{
	return str_starts_with(name, "armv8_") || str_starts_with(name, "armv9_");
}

size_t vendor_arm_pmus(struct pstat_pmus *pmus, const struct pstat_cpuinfo *ci,
		       struct vendor_arm_pmu *out, size_t max)
{
	const char *root = pmus_root(pmus);
	struct pstat_core_pmu *cores = NULL;
	size_t ncores = hybrid_core_pmus(pmus, &cores), n = 0;

	for (size_t i = 0; i < ncores && n < max; i++) {
		if (!is_arm_pmu(cores[i].pmu->name) || !cores[i].ncpus)
			continue;
		out[n] = (struct vendor_arm_pmu){ .pmu = cores[i].pmu->name,
						  .cpu = cores[i].cpus[0],
						  .ci = *ci };
		n++;
	}
	hybrid_core_pmus_free(cores, ncores);
	/* a PMU without a cpus file counts every CPU */
	if (!n && max && vendor_arm_pmu(pmus))
		out[n++] = (struct vendor_arm_pmu){ .pmu = vendor_arm_pmu(pmus),
						    .cpu = 0, .ci = *ci };
	for (size_t i = 0; i < n; i++) {
		struct pstat_cpuinfo *c = &out[i].ci;

		/* cpuinfo's fields are CPU 0's: another CPU needs its MIDR */
		if (cpuinfo_midr(root, out[i].cpu, c) && out[i].cpu != 0)
			c->implementer = c->part = c->variant = c->revision = -1;
		out[i].core = vendor_arm_core(c);
	}
	return n;
}

/* *s (new string, or NULL) with printf's output after it. */
__attribute__((format(printf, 2, 3)))
static void append(char **s, const char *fmt, ...)
{
	size_t len = *s ? strlen(*s) : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	*s = xrealloc(*s, len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(*s + len, (size_t)n + 1, fmt, ap);
	va_end(ap);
}

/*
 * Definition def as a copy for core PMU pmu (new string): NAME.pmu, its
 * events on pmu (an event name e is pmu@e@, $core is pmu). Arm's
 * formulas name events only (no other metric, no threshold).
 */
static char *def_for_pmu(const char *def, const char *pmu)
{
	size_t nlen = strcspn(def, " ="), end, i;
	char *out = NULL;

	append(&out, "%.*s.%s", (int)nlen, def, pmu);
	end = nlen + strcspn(def + nlen, ";");
	for (i = nlen; i < end;) {
		const char *p = def + i;
		size_t k = 0;

		if (str_starts_with(p, "$core")) {
			append(&out, "%s", pmu);
			i += 5;
			continue;
		}
		if (*p == '@') {
			k = 1 + strcspn(p + 1, "@");
			k += p[k] == '@';
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)p[k]) || p[k] == '_')
				k++;
			/* a PMU's name before @, a function, if/else: kept */
			if (p[k] != '@' && p[k] != '(' &&
			    !(k == 2 && !strncmp(p, "if", 2)) &&
			    !(k == 4 && !strncmp(p, "else", 4))) {
				append(&out, "%s@%.*s@", pmu, (int)k, p);
				i += k;
				continue;
			}
		} else {
			while (isalnum((unsigned char)p[k]) || p[k] == '.')
				k++;
			k += !k;
		}
		append(&out, "%.*s", (int)k, p);
		i += k;
	}
	append(&out, "%s", def + end);
	return out;
}

/*
 * Table v's rows as the library's entries (new array); for core PMU pmu
 * (not "") copies named NAME.pmu, counted there (new strings).
 */
static struct metric_lib_entry *entries(const struct vendor_metrics *v,
					const char *pmu)
{
	struct metric_lib_entry *e = xcalloc(v->n + 1, sizeof(*e));

	for (size_t i = 0; i < v->n; i++) {
		const struct vendor_metric_row *r = &vendor_rows[v->first + i];

		e[i].group = vendor_str(r->group);
		e[i].def = *pmu ? def_for_pmu(vendor_str(r->def), pmu) :
				  vendor_str(r->def);
		e[i].source = vendor_str(v->source);
	}
	return e;
}

/* Add table v to lib's, once (for core PMU pmu: its copies). */
static void add_table(struct pstat_metric_lib *lib,
		      const struct vendor_metrics *v, const char *pmu)
{
	size_t k = lib->nvendor;

	for (size_t j = 0; j < lib->nvendor; j++)
		if (lib->vendor[j] == v && !strcmp(lib->vendor_pmu[j], pmu))
			return;
	if (k == ARRAY_SIZE(lib->vendor))
		return;
	snprintf(lib->vendor_pmu[k], sizeof(lib->vendor_pmu[k]), "%s", pmu);
	lib->vendor_e[k] = entries(v, lib->vendor_pmu[k]);
	lib->vendor[k] = v;
	lib->nvendor++;
	if (v->levels > lib->topdown_levels)
		lib->topdown_levels = v->levels;
}

/*
 * The Arm cores: each Arm core PMU's by the MIDR of its CPUs
 * (vendor_arm_pmus), against the cores of Arm's telemetry data. With
 * more than one core PMU (big.LITTLE, DynamIQ), each core's metrics are
 * copies named NAME.pmu, counted on its PMU, as on Intel's hybrids. Where
 * no core matches, or the PMU does not list the slot events, there is no
 * top-down, and lib->no_topdown says why.
 */
static void pick_arm(struct pstat_metric_lib *lib, struct pstat_pmus *pmus)
{
	struct vendor_arm_pmu arm[8];
	size_t n = vendor_arm_pmus(pmus, &lib->cpu, arm, ARRAY_SIZE(arm));
	size_t used = 0, known = 0, covered = 0;
	unsigned char has_table[ARRAY_SIZE(arm)] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct pstat_pmu *p = pmus_find(pmus, arm[i].pmu);
		const struct pstat_cpuinfo *ci = &arm[i].ci;
		const struct vendor_metrics *v;

		if (!arm[i].core)
			continue;
		v = &vendor_tables[arm[i].core->metrics];
		known++;
		if (used + strlen(vendor_str(v->platform)) + 64 <
		    sizeof(lib->vendor_cpu))
			used += (size_t)snprintf(lib->vendor_cpu + used,
				sizeof(lib->vendor_cpu) - used,
				"%sArm %s r%up%u (MIDR implementer 0x%02x part 0x%03x)",
				used ? ", " : "", vendor_str(v->platform),
				(unsigned)ci->variant, (unsigned)ci->revision,
				(unsigned)ci->implementer, (unsigned)ci->part);
		if (!p || !pmu_alias_find(p, "stall_slot") ||
		    !pmu_alias_find(p, "op_spec"))
			continue;
		add_table(lib, v, n > 1 ? arm[i].pmu : "");
		covered++;
		has_table[i] = 1;
	}
	/* those left: the PMUs the generic metrics stay for */
	for (size_t i = 0, len = 0; i < n; i++)
		if (!has_table[i] && len < sizeof(lib->generic_pmus))
			len += (size_t)snprintf(lib->generic_pmus + len,
						sizeof(lib->generic_pmus) - len,
						"%s%s", len ? ", " : "",
						arm[i].pmu);
	if (lib->nvendor) {
		lib->no_topdown[0] = '\0';
		lib->generic_too = covered < n;
		return;
	}
	for (size_t i = 0; i < n && !known && !lib->topdown_levels; i++) {
		const struct pstat_cpuinfo *ci = &arm[i].ci;
		size_t len = strlen(lib->no_topdown);

		if (ci->implementer < 0 || ci->part < 0 || ci->variant < 0 ||
		    ci->revision < 0)
			continue;
		snprintf(lib->no_topdown + len, sizeof(lib->no_topdown) - len,
			 "%sArm's telemetry data has no top-down for this core (MIDR implementer 0x%02x part 0x%03x r%dp%d%s%s)",
			 len ? "; " : "", (unsigned)ci->implementer,
			 (unsigned)ci->part, ci->variant, ci->revision,
			 n > 1 ? ", PMU " : "", n > 1 ? arm[i].pmu : "");
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
		add_table(lib, &vendor_tables[rows[i]->metrics], "");
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

int metric_vendor_is_copy(const struct pstat_metric_lib *lib,
			  const struct metric_lib_entry *e)
{
	for (size_t v = 0; v < lib->nvendor; v++)
		if (e >= lib->vendor_e[v] &&
		    e < lib->vendor_e[v] + lib->vendor[v]->n)
			return lib->vendor_pmu[v][0] != '\0';
	return 0;
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
	/* and those taken out here: their uncore PMUs are missing */
	for (size_t i = 0; i < lib->ngone; i++) {
		if (w && !metric_lib_in_group(lib->gone[i].groups, w))
			continue;
		if (n < max)
			out[n] = lib->gone[i];
		n++;
	}
	return n;
}
