/* SPDX-License-Identifier: MIT */
/*
 * The metric library for this machine: which of metric_lib_table's
 * families its PMUs belong to, the constants formulas use, -M's choice
 * of metrics and groups, and the event groups top-down needs.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/topology.h"
#include "base/util.h"
#include "events/metric_lib.h"
#include "events/vendor.h"

/* <root>/<rel>, read whole and trimmed (new string), or NULL. */
__attribute__((format(printf, 2, 3)))
static char *read_rel(const char *root, const char *fmt, ...)
{
	char rel[256], *path, *s;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	path = xasprintf("%s/%s", root ? root : "/sys", rel);
	s = read_file_str(path);
	free(path);
	return s;
}

static int pmu_has_event(struct pstat_pmus *pmus, const char *pmu,
			 const char *event)
{
	const struct pstat_pmu *p = pmus_find(pmus, pmu);

	return p && pmu_alias_find(p, event) != NULL;
}

/*
 * #num_cpus, #num_cores, #num_packages and #smt_on from the topology of
 * the online CPUs (base/topology.c); unknown (NAN) when it cannot be
 * read, as in a tree without devices/system/cpu.
 */
static void read_topology(struct pstat_metric_lib *lib, const char *root)
{
	struct pstat_metric_consts *k = &lib->consts;
	struct pstat_error err;
	struct pstat_topo *t = NULL;

	if (topo_load(root, &t, &err) || !t || !topo_num_cpus(t)) {
		topo_free(t);
		return;
	}
	k->v[MEXPR_NUM_CPUS] = (double)topo_num_cpus(t);
	k->v[MEXPR_NUM_CORES] = (double)topo_num_cores(t);
	k->v[MEXPR_NUM_PACKAGES] = (double)topo_num_packages(t);
	lib->smt_on = topo_smt_on(t);
	k->v[MEXPR_SMT_ON] = lib->smt_on;
	topo_free(t);
}

static void read_consts(struct pstat_metric_lib *lib, const char *root)
{
	struct pstat_metric_consts *k = &lib->consts;
	char *s;

	for (size_t i = 0; i < MEXPR_NCONST; i++)
		k->v[i] = NAN;
	lib->smt_on = -1;
	read_topology(lib, root);
	if (lib->core[0]) {
		uint64_t v;

		s = read_rel(root, "bus/event_source/devices/%s/caps/slots",
			     lib->core);
		if (s && !parse_u64(s, 1024, &v) && v)
			k->v[MEXPR_SLOTS] = (double)v;
		free(s);
	}
	/* Skylake's pipeline: 4 slots a cycle (Intel's Pipeline_Width) */
	if (isnan(k->v[MEXPR_SLOTS]) && (lib->families & METRIC_FAM_INTEL_SKL))
		k->v[MEXPR_SLOTS] = 4;
	/*
	 * AMD's dispatch width, "Total Dispatch Slots" per cycle: 6 in the
	 * PPR for family 19h model 11h (Zen 4), 8 in the performance
	 * counter document for family 1Ah models 00h-0Fh (Zen 5)
	 */
	if (isnan(k->v[MEXPR_SLOTS]) && (lib->families & METRIC_FAM_AMD_ZEN4))
		k->v[MEXPR_SLOTS] = lib->amd_zen >= 5 ? 8 : 6;
	k->v[MEXPR_TSC_FREQ] = cpuinfo_tsc_hz(root, &lib->cpu);
}

static const char *const arm_slot_events[] = {
	"stall_slot_frontend", "stall_slot_backend", "stall_slot",
	"op_spec", "op_retired", "br_mis_pred", "cpu_cycles",
};

/* Which Arm PMUv3 events top-down needs are missing, into buf. */
static void arm_missing(struct pstat_pmus *pmus, const char *pmu, char *buf,
			size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(arm_slot_events); i++)
		if (!pmu_has_event(pmus, pmu, arm_slot_events[i]) &&
		    o + 32 < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      o ? ", " : "",
					      arm_slot_events[i]);
}

static void find_families(struct pstat_metric_lib *lib,
			  struct pstat_pmus *pmus, const char *root)
{
	static const char *const cores[] = { "cpu_core", "cpu" };
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(pmus, &all);
	int skylake;
	char *s;

	lib->families = METRIC_FAM_SOFTWARE;
	for (size_t i = 0; i < ARRAY_SIZE(cores) && !lib->core[0]; i++)
		if (pmus_find(pmus, cores[i]))
			snprintf(lib->core, sizeof(lib->core), "%s", cores[i]);
	for (size_t i = 0; i < n && !lib->core[0]; i++)
		if (str_starts_with(all[i]->name, "armv8_") ||
		    str_starts_with(all[i]->name, "armv9_") ||
		    (pmu_is_core(root, all[i]->name) &&
		     pmu_alias_find(all[i], "cpu_cycles")))
			snprintf(lib->core, sizeof(lib->core), "%s",
				 all[i]->name);
	for (size_t i = 0; i < n; i++)
		if (str_starts_with(all[i]->name, "uncore_imc") &&
		    pmu_alias_find(all[i], "cas_count_read"))
			lib->families |= METRIC_FAM_INTEL_IMC;
		else if (str_starts_with(all[i]->name, "uncore_imc") &&
			 pmu_alias_find(all[i], "cas_count_read_sch0"))
			lib->families |= METRIC_FAM_INTEL_IMC_SCH;
		else if (str_starts_with(all[i]->name, "amd_umc_"))
			lib->families |= METRIC_FAM_AMD_UMC;
	free(all);
	if (!lib->core[0]) {
		snprintf(lib->no_topdown, sizeof(lib->no_topdown),
			 "no core PMU under %s/bus/event_source/devices (a virtual machine without a virtual PMU?)",
			 root ? root : "/sys");
		return;
	}
	lib->families |= METRIC_FAM_ANY;
	s = read_rel(root, "bus/event_source/devices/%s/caps/pmu_name",
		     lib->core);
	if (s || !strcmp(lib->cpu.vendor, "GenuineIntel"))
		lib->families |= METRIC_FAM_INTEL;
	/* the core Intel's Skylake TMA level 2 is written for */
	skylake = s && !strcmp(s, "skylake");
	/* the kernel's names of the cores before it (caps/pmu_name) */
	if (s && (!strcmp(s, "sandybridge") || !strcmp(s, "ivybridge") ||
		  !strcmp(s, "haswell") || !strcmp(s, "broadwell")))
		lib->families |= METRIC_FAM_INTEL_SNB;
	free(s);
	if (pmu_has_event(pmus, "cpu_atom", "topdown-retiring"))
		lib->families |= METRIC_FAM_INTEL_ATOM;
	if (pmu_has_event(pmus, lib->core, "slots") &&
	    pmu_has_event(pmus, lib->core, "topdown-retiring")) {
		lib->families |= METRIC_FAM_INTEL_ICL;
		lib->topdown_levels = 1;
		if (pmu_has_event(pmus, lib->core, "topdown-heavy-ops")) {
			lib->families |= METRIC_FAM_INTEL_L2;
			lib->topdown_levels = 2;
		}
	} else if (pmu_has_event(pmus, lib->core, "topdown-total-slots")) {
		lib->families |= METRIC_FAM_INTEL_SKL;
		lib->topdown_levels = 1;
		if (skylake) {
			lib->families |= METRIC_FAM_INTEL_SKL_L2;
			lib->topdown_levels = 2;
		}
	} else if (!(lib->families & METRIC_FAM_INTEL)) {
		metric_amd_find(lib, pmus, root);
	}
	if (!lib->amd)
		lib->families |= METRIC_FAM_NOT_AMD;
	else if (!(lib->families & METRIC_FAM_AMD_UMC))
		metric_amd_no_umc(lib);
	if (lib->topdown_levels || lib->no_topdown[0]) {
		/* settled */
	} else if (pmu_has_event(pmus, lib->core, "cpu_cycles")) {
		char missing[200];

		lib->families |= METRIC_FAM_ARM;
		arm_missing(pmus, lib->core, missing, sizeof(missing));
		if (!missing[0]) {
			lib->families |= METRIC_FAM_ARM_SLOTS;
			lib->topdown_levels = 1;
		} else {
			snprintf(lib->no_topdown, sizeof(lib->no_topdown),
				 "the PMU %s has no %s events (slot counting came with Armv8.4's PMU, Neoverse V1/N2 and later)",
				 lib->core, missing);
		}
	}
	if (!lib->topdown_levels && !lib->no_topdown[0])
		snprintf(lib->no_topdown, sizeof(lib->no_topdown),
			 "the PMU %s has none of the top-down events pstat knows (Intel topdown-*/slots, Arm stall_slot_*)",
			 lib->core);
}

static void pick_entries(struct pstat_metric_lib *lib,
			 struct pstat_pmus *pmus);

int metric_lib_is_topdown(const char *group)
{
	return !strncasecmp(group, "TopdownL", 8);
}

int metric_lib_in_group(const char *groups, const char *w)
{
	size_t n = strlen(w);

	for (const char *g = groups; *g; g += strcspn(g, ";")) {
		g += *g == ';';
		if (!strncasecmp(g, w, n) && (!g[n] || g[n] == ';'))
			return 1;
	}
	return 0;
}

void metric_lib_load(struct pstat_metric_lib *lib, struct pstat_pmus *pmus,
		     const char *sysfs_root)
{
	memset(lib, 0, sizeof(*lib));
	lib->cpu_err = cpuinfo_load(sysfs_root, &lib->cpu);
	find_families(lib, pmus, sysfs_root);
	if (lib->core[0])
		metric_vendor_pick(lib, pmus);
	read_consts(lib, sysfs_root);
	if (lib->families & METRIC_FAM_ARM_SLOTS && !lib->nvendor &&
	    isnan(lib->consts.v[MEXPR_SLOTS])) {
		lib->families &= ~(unsigned)METRIC_FAM_ARM_SLOTS;
		lib->topdown_levels = 0;
		snprintf(lib->no_topdown, sizeof(lib->no_topdown),
			 "the PMU %s does not say its slots per cycle (caps/slots is 0 or missing)",
			 lib->core);
	}
	pick_entries(lib, pmus);
	metric_uncore_prune(lib, pmus);
}

/*
 * Whether every Arm PMU event an Arm-only entry names is listed by each
 * of the Arm core PMUs. The kernel lists in events/ only the common
 * events a core implements (its PMCEID registers): a Cortex-A53 has no
 * ll_cache_miss_rd, and a metric over it is not offered there rather
 * than refused when asked for.
 */
static bool arm_events_present(const struct pstat_metric_lib *lib,
			       struct pstat_pmus *pmus,
			       const struct metric_lib_entry *e)
{
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(pmus, &all);
	struct pstat_metric_def d = { 0 };
	struct pstat_error err;
	bool ok = true;

	if (e->families != METRIC_FAM_ARM || metric_lib_def(lib, e, &d, &err))
		ok = e->families != METRIC_FAM_ARM;
	for (size_t i = 0; ok && d.expr && i < mexpr_nnames(d.expr); i++) {
		const char *name = mexpr_name(d.expr, i);

		if (strpbrk(name, "/:@=") || metric_lib_find(lib, name))
			continue;
		for (size_t k = 0; ok && k < n; k++)
			if (str_starts_with(all[k]->name, "armv8_") ||
			    str_starts_with(all[k]->name, "armv9_") ||
			    !strcmp(all[k]->name, lib->core))
				ok = pmu_alias_find(all[k], name) != NULL;
	}
	metric_def_free(&d);
	free(all);
	return ok;
}

/*
 * Whether lib->e[0..n) has an entry called name, or a vendor's copy of
 * it for one kind of core ("ipc.armv9_neoverse_n2": the vendor's own
 * metric of the name; a copy of the hand-written one, made per core PMU,
 * would take its name).
 */
static int picked(const struct pstat_metric_lib *lib, const char *name)
{
	char other[96];
	size_t n = strlen(name);

	for (size_t k = 0; k < lib->n; k++) {
		metric_lib_entry_name(lib->e[k], other, sizeof(other));
		if (!strncmp(other, name, n) &&
		    (!other[n] || (other[n] == '.' && k < lib->nvendor_e)))
			return 1;
	}
	return 0;
}

/*
 * A hand-written metric the vendor's of its name replaces (Arm's ipc):
 * the vendor's, and its copies, join the other's group (Summary), so
 * that -M of the group still has it.
 */
static void join_groups(struct pstat_metric_lib *lib, const char *name,
			const char *group)
{
	char other[96];
	size_t n = strlen(name);

	for (size_t v = 0; v < lib->nvendor; v++) {
		for (size_t i = 0; i < lib->vendor[v]->n; i++) {
			struct metric_lib_entry *e = &lib->vendor_e[v][i];
			char *g;

			metric_lib_entry_name(e, other, sizeof(other));
			if (strncmp(other, name, n) ||
			    (other[n] && other[n] != '.') ||
			    metric_lib_in_group(e->group, group))
				continue;
			g = xasprintf("%s;%s", e->group, group);
			xgrow((void **)&lib->owned, &lib->owned_alloc,
			      lib->nowned + 1, sizeof(*lib->owned));
			lib->owned[lib->nowned++] = g;
			e->group = g;
		}
	}
}

/*
 * The vendor's tables for this CPU, then the hand-written table's
 * entries that apply to lib->families (and whose events the PMU has);
 * the first of a name wins. Where the vendor's tables apply, the
 * top-down groups are theirs.
 */
static void pick_entries(struct pstat_metric_lib *lib,
			 struct pstat_pmus *pmus)
{
	size_t total = metric_lib_table_size;
	char name[96];

	free(lib->e);
	lib->n = 0;
	for (size_t v = 0; v < lib->nvendor; v++)
		total += lib->vendor[v]->n;
	lib->e = xcalloc(total + 1, sizeof(*lib->e));
	for (size_t v = 0; v < lib->nvendor; v++)
		for (size_t i = 0; i < lib->vendor[v]->n; i++)
			lib->e[lib->n++] = &lib->vendor_e[v][i];
	lib->nvendor_e = lib->n;
	for (size_t i = 0; i < metric_lib_table_size; i++) {
		const struct metric_lib_entry *e = &metric_lib_table[i];

		if (!(e->families & lib->families) ||
		    (lib->nvendor && metric_lib_is_topdown(e->group)) ||
		    !arm_events_present(lib, pmus, e))
			continue;
		metric_lib_entry_name(e, name, sizeof(name));
		if (!picked(lib, name)) {
			lib->e[lib->n++] = e;
			continue;
		}
		join_groups(lib, name, e->group);
		/*
		 * taken by the vendor's copies only (ipc.armv9_neoverse_n2):
		 * a core PMU without one keeps this one, split over the
		 * PMUs (metric_set_split_pmus leaves those with a copy)
		 */
		if (lib->generic_too && !metric_lib_find(lib, name))
			lib->e[lib->n++] = e;
	}
}

void metric_lib_free(struct pstat_metric_lib *lib)
{
	if (!lib)
		return;
	free(lib->e);
	lib->e = NULL;
	lib->n = 0;
	for (size_t v = 0; v < lib->nvendor; v++) {
		for (size_t i = 0; lib->vendor_pmu[v][0] && i < lib->vendor[v]->n;
		     i++)
			free((char *)lib->vendor_e[v][i].def);
		free(lib->vendor_e[v]);
	}
	lib->nvendor = 0;
	metric_uncore_free(lib);
	for (size_t i = 0; i < lib->nowned; i++)
		free(lib->owned[i]);
	free(lib->owned);
	lib->owned = NULL;
	lib->nowned = lib->owned_alloc = 0;
}

const char *metric_lib_entry_name(const struct metric_lib_entry *e,
				  char *buf, size_t len)
{
	size_t n = strcspn(e->def, " =");

	snprintf(buf, len, "%.*s", (int)n, e->def);
	return buf;
}

const struct metric_lib_entry *
metric_lib_find(const struct pstat_metric_lib *lib, const char *name)
{
	char buf[96];

	for (size_t i = 0; i < lib->n; i++)
		if (!strcmp(metric_lib_entry_name(lib->e[i], buf, sizeof(buf)),
			    name))
			return lib->e[i];
	return NULL;
}

/*
 * def with each "$core", "$atom" and "$lowpower" replaced by the PMU of
 * that kind of core (new string).
 */
static char *subst_core(const char *def, const char *core)
{
	static const char *const ph[][2] = {
		{ "$core", NULL }, { "$atom", "cpu_atom" },
		{ "$lowpower", "cpu_lowpower" },
	};
	size_t len = 0, alloc = 0;
	char *out = NULL;

	for (;;) {
		const char *with = NULL;
		size_t k, n = 1;

		for (k = 0; *def == '$' && k < ARRAY_SIZE(ph); k++)
			if (str_starts_with(def, ph[k][0]))
				break;
		if (*def == '$' && k < ARRAY_SIZE(ph)) {
			with = ph[k][1] ? ph[k][1] : core;
			n = strlen(with);
		}
		xgrow((void **)&out, &alloc, len + n + 1, 1);
		if (with) {
			memcpy(out + len, with, n);
			def += strlen(ph[k][0]);
		} else {
			out[len] = *def;
		}
		len += n;
		if (!with && !*def++)
			return out;
	}
}

int metric_lib_def(const struct pstat_metric_lib *lib,
		   const struct metric_lib_entry *e,
		   struct pstat_metric_def *d, struct pstat_error *err)
{
	char *line = subst_core(e->def, lib->core[0] ? lib->core : "cpu");
	int r = metric_def_parse(line, d, err);

	free(line);
	if (r)
		return -1;
	d->group = xstrdup(e->group);
	d->source = xstrdup(e->source);
	return 0;
}

/* A shown metric that cannot be counted here: no value, with why. */
static void add_unsupported(struct pstat_metric_set *set, const char *name,
			    const char *group, const char *why)
{
	struct pstat_metric_def d = { 0 };
	struct pstat_error err;

	d.name = xstrdup(name);
	d.text = xstrdup("");
	d.unit = xstrdup("%");
	d.group = xstrdup(group);
	d.desc = xstrdup(why);
	d.scale = 100;
	d.higher = -1;
	metric_set_add_def(set, &d, 1, &err);
}

/*
 * Whether the entry called name is what -M's word w asks for: the name
 * in any case (as perf matches -M's words), or, on a CPU with more than
 * one kind of core, its copy for one of them ("tma_retiring.cpu_atom",
 * "retiring.armv9_neoverse_n2").
 */
static int name_matches(const char *name, const char *w)
{
	static const char *const kinds[] = { ".cpu_core", ".cpu_atom",
					     ".cpu_lowpower" };
	size_t n = strlen(w);

	if (!strcasecmp(name, w))
		return 1;
	if (strncasecmp(name, w, n))
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++)
		if (!strcmp(name + n, kinds[k]))
			return 1;
	/* an Arm big.LITTLE's: "frontend_bound.armv8_cortex_a78" */
	return (str_starts_with(name + n, ".armv8_") ||
		str_starts_with(name + n, ".armv9_")) &&
	       !strchr(name + n + 1, '.');
}

/*
 * Whether group w holds entry e: its own group, or one of the groups
 * the vendor's data puts it in (Intel's: Summary, BvMP, tma_L1_group,
 * Default ...); where the data names none, perf's Default is the first
 * level.
 */
static int group_matches(const struct pstat_metric_lib *lib,
			 const struct metric_lib_entry *e, const char *w)
{
	const char *groups = metric_vendor_groups(lib, e);

	if (metric_lib_in_group(e->group, w))
		return 1;
	if (*groups)
		return metric_lib_in_group(groups, w);
	/* (Arm's data says where perf has it: not on the Lumex cores) */
	return lib->nvendor && !(lib->families & METRIC_FAM_ARM) &&
	       !strcasecmp(w, "Default") && !strcmp(e->group, "TopdownL1");
}

/* Whether some CPU's table knows name w (for the message). */
static int known_elsewhere(const char *w)
{
	char name[96];

	for (size_t i = 0; i < metric_lib_table_size; i++) {
		const struct metric_lib_entry *e = &metric_lib_table[i];

		metric_lib_entry_name(e, name, sizeof(name));
		if (!strcasecmp(name, w) || metric_lib_in_group(e->group, w))
			return 1;
	}
	for (size_t t = 0; t < vendor_ntables; t++) {
		const struct vendor_metrics *v = &vendor_tables[t];

		for (size_t r = v->first; r < v->first + v->n; r++) {
			const char *def = vendor_str(vendor_rows[r].def);

			snprintf(name, sizeof(name), "%.*s",
				 (int)strcspn(def, " ="), def);
			if (name_matches(name, w) ||
			    metric_lib_in_group(vendor_str(vendor_rows[r].group),
						w) ||
			    metric_lib_in_group(vendor_str(vendor_rows[r].groups),
						w))
				return 1;
		}
	}
	return 0;
}

/* Whether w names a metric of the vendor's data left out here: err says why. */
static int left_out_name(const struct pstat_metric_lib *lib, const char *w,
			 struct pstat_error *err)
{
	size_t n = metric_vendor_left_out(lib, NULL, NULL, 0);
	struct metric_left_out *lo = xcalloc(n + 1, sizeof(*lo));
	int found = 0;

	metric_vendor_left_out(lib, NULL, lo, n);
	for (size_t i = 0; i < n && !found; i++) {
		if (!name_matches(lo[i].name, w))
			continue;
		error_set(err, -1,
			  "pstat does not compute %s, of the vendor's data: %s",
			  lo[i].name, lo[i].why);
		found = 1;
	}
	free(lo);
	return found;
}

/* -M's word w: a metric or group name, in any case. */
static int select_one(const struct pstat_metric_lib *lib,
		      struct pstat_metric_set *set, const char *w,
		      int alone, struct pstat_error *err)
{
	static const char *const l1[] = { "frontend_bound", "bad_speculation",
					  "backend_bound", "retiring" };
	size_t found = 0, nlo;
	struct metric_left_out lo;

	for (size_t i = 0; i < lib->n; i++) {
		char name[96];
		const struct metric_lib_entry *e = lib->e[i];

		metric_lib_entry_name(e, name, sizeof(name));
		if (!name_matches(name, w) && !group_matches(lib, e, w))
			continue;
		struct pstat_metric_def d = { 0 };
		ssize_t k;

		if (metric_lib_def(lib, e, &d, err)) {
			metric_def_free(&d);
			return -1;
		}
		metric_set_add_def(set, &d, 1, err);
		/* a vendor's copy for one core PMU: that PMU's own metric */
		k = metric_vendor_is_copy(lib, e) ? metric_set_find(set, name) :
						    -1;
		if (k >= 0)
			set->m[k].pmu_own = 1;
		found++;
	}
	if (found)
		return 0;
	if (metric_lib_is_topdown(w) && w[8] >= '1' && w[8] <= '6' && !w[9]) {
		char why[600];

		if (lib->no_topdown[0])
			snprintf(why, sizeof(why), "%s", lib->no_topdown);
		else if (lib->nvendor && (lib->families & METRIC_FAM_ARM))
			snprintf(why, sizeof(why),
				 "Arm's telemetry data for this core has %d top-down level%s; its next stage is metric groups (Cycle_Accounting, MPKI, Miss_Ratio, Operation_Mix, ...: see 'pstat list metrics')",
				 lib->topdown_levels,
				 lib->topdown_levels == 1 ? "" : "s");
		else if (lib->nvendor)
			snprintf(why, sizeof(why),
				 "the vendor's analysis of this CPU has %d levels",
				 lib->topdown_levels);
		else if (lib->amd)
			snprintf(why, sizeof(why),
				 "AMD's pipeline utilization analysis has %d levels (PipelineL1, PipelineL2)",
				 lib->topdown_levels);
		else
			snprintf(why, sizeof(why),
				 "this PMU has no level-%c top-down events pstat knows (the vendors' tables cover the CPUs whose /proc/cpuinfo they name; by hand: Skylake-class level 2, Sapphire Rapids and later level 2)",
				 w[8]);
		if (alone)
			return error_set(err, -1, "cannot count %s here: %s",
					 w, why);
		/* in a list with other metrics: rows without a value */
		for (size_t i = 0; i < ARRAY_SIZE(l1); i++)
			add_unsupported(set, l1[i], "TopdownL1", why);
		return 0;
	}
	if (lib->no_umc[0] && metric_amd_umc_named(w))
		return error_set(err, -1, "cannot count %s here: %s", w,
				 lib->no_umc);
	if (left_out_name(lib, w, err))
		return -1;
	if ((nlo = metric_vendor_left_out(lib, w, &lo, 1)))
		return error_set(err, -1,
				 "pstat computes none of the %zu metric%s of the vendor's group %s here: %s: %s%s",
				 nlo, nlo == 1 ? "" : "s", w, lo.name, lo.why,
				 nlo > 1 ? ", ... ('pstat list metrics' lists them)" : "");
	if (!strcasecmp(w, "Default") && lib->nvendor &&
	    (lib->families & METRIC_FAM_ARM))
		return error_set(err, -1,
				 "perf's Default group is empty on this CPU: on Arm it holds level 1 of the cores perf has tables for (Neoverse N2, V1, V2, N3, V3); -M TopdownL1 counts this core's");
	if (!strcasecmp(w, "Default") && lib->nvendor)
		return error_set(err, -1,
				 "perf's Default group is empty on this CPU: it holds the top-down levels only where the core counts slots (Intel Ice Lake, Alder Lake and later)");
	/* Intel's TMA names on another vendor's CPU */
	if (!strncasecmp(w, "tma_", 4) && metric_lib_find(lib, w + 4))
		return error_set(err, -1,
				 "'%s' is the name in Intel's TMA; this CPU's metric is '%s' (see 'pstat list metrics')",
				 w, w + 4);
	if (known_elsewhere(w))
		return error_set(err, -1,
				 "'%s' is not available here: its events are not among this machine's PMUs (see 'pstat list metrics')",
				 w);
	return error_set(err, -1,
			 "unknown metric or metric group '%s' (see 'pstat list metrics')",
			 w);
}

int metric_lib_select(const struct pstat_metric_lib *lib,
		      struct pstat_metric_set *set, const char *list,
		      struct pstat_error *err)
{
	char *s = xstrdup(list), *save = NULL;
	size_t nwords = 0;
	int r = 0;

	for (const char *p = list; *p; p++)
		nwords += *p == ',';
	nwords++;
	for (char *w = strtok_r(s, ",", &save); w && !r;
	     w = strtok_r(NULL, ",", &save))
		r = select_one(lib, set, str_trim(w), nwords == 1, err);
	if (!r && !set->n)
		r = error_set(err, -1, "empty metric list '%s'", list);
	free(s);
	return r;
}
