/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/cpuid.h"
#include "cli/list.h"
#include "cli/list_priv.h"
#include "cli/sim_cli.h"
#include "events/legacy.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "events/sim_events.h"
#include "events/tracepoint.h"
#include "events/vendor.h"
#include "report/print.h"

static void *list_own(struct list_ctx *c, void *p)
{
	xgrow((void **)&c->owned, &c->aowned, c->nowned + 1,
	      sizeof(*c->owned));
	c->owned[c->nowned++] = p;
	return p;
}

static struct list_item *list_add(struct list_ctx *c, const char *section)
{
	struct list_item *it;

	xgrow((void **)&c->items, &c->aitems, c->nitems + 1,
	      sizeof(*c->items));
	it = &c->items[c->nitems++];
	memset(it, 0, sizeof(*it));
	it->e.section = section;
	it->e.scale = 1.0;
	return it;
}

static struct pstat_list_pmu *list_add_pmu(struct list_ctx *c,
					   const char *desc)
{
	struct list_pmu *lp;

	xgrow((void **)&c->pmus, &c->apmus, c->npmus + 1, sizeof(*c->pmus));
	lp = &c->pmus[c->npmus++];
	memset(lp, 0, sizeof(*lp));
	lp->desc = desc && *desc ? desc : NULL;
	return &lp->p;
}

/* The PMU called name from source, or NULL. */
const struct list_pmu *list_find_pmu(const struct list_ctx *c,
				     const char *source, const char *name)
{
	for (size_t i = 0; i < c->npmus; i++) {
		if (!strcmp(c->pmus[i].p.source, source) &&
		    !strcmp(c->pmus[i].p.name, name))
			return &c->pmus[i];
	}
	return NULL;
}

/* Names are matched like perf's: a shell glob, case-insensitive. */
bool list_match(const struct list_ctx *c, const char *s)
{
	return !c->pattern || !fnmatch(c->pattern, s, FNM_CASEFOLD);
}

/*
 * perf list's keywords (builtin-list.c), each naming a section instead
 * of matching names; pstat has neither SDT events nor metrics, so those
 * list nothing.
 */
static const struct {
	const char *word;
	unsigned sections;
} list_keywords[] = {
	{ "hw", LIST_HW },
	{ "hardware", LIST_HW },
	{ "sw", LIST_SW },
	{ "software", LIST_SW },
	{ "cache", LIST_CACHE },
	{ "hwcache", LIST_CACHE },
	{ "pmu", LIST_PMU },
	{ "tracepoint", LIST_TRACEPOINT },
	{ "sim", LIST_SIM },
	{ "sdt", 0 },
	{ "metric", 0 },
	{ "metrics", 0 },
	{ "metricgroup", 0 },
	{ "metricgroups", 0 },
};

/*
 * What the glob asks for, as perf list reads its argument: a keyword
 * names a section; a word without glob characters matches anywhere in
 * a name ("imc" is "*imc*"); anything else is a glob over whole names.
 */
static void list_parse_glob(struct list_ctx *c)
{
	const char *glob = c->o->glob;

	c->sections = LIST_ALL;
	c->pattern = glob;
	if (!glob)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(list_keywords); i++) {
		if (!strcmp(glob, list_keywords[i].word)) {
			c->sections = list_keywords[i].sections;
			c->pattern = NULL;
			c->keyword = true;
			return;
		}
	}
	if (!strpbrk(glob, "*?["))
		c->pattern = list_own(c, xasprintf("*%s*", glob));
}

/*
 * legacy_foreach may hand over one alias or several joined by " OR "; call
 * fn for each spelling in alias other than name.
 */
bool list_alias_each(const char *name, const char *alias,
		     bool (*fn)(const char *spelling, void *arg), void *arg)
{
	const char *p = alias;

	while (p && *p) {
		const char *end = strstr(p, " OR ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *s = xstrndup(p, len);
		bool stop = strcmp(s, name) && fn(s, arg);

		free(s);
		if (stop)
			return true;
		p = end ? end + 4 : NULL;
	}
	return false;
}

static bool list_alias_matches(const char *spelling, void *arg)
{
	const struct list_ctx *c = arg;

	return list_match(c, spelling);
}

/* Generic hardware, software and cache events. */
static void list_legacy_cb(enum legacy_kind kind, const char *name,
			   const char *alias, uint32_t type, uint64_t config,
			   void *arg)
{
	static const char *const sections[] = {
		[LEGACY_HARDWARE] = "hardware",
		[LEGACY_SOFTWARE] = "software",
		[LEGACY_CACHE] = "cache",
	};
	static const char *const tags[] = {
		[LEGACY_HARDWARE] = "Hardware event",
		[LEGACY_SOFTWARE] = "Software event",
		[LEGACY_CACHE] = "Hardware cache event",
	};
	static const unsigned bits[] = {
		[LEGACY_HARDWARE] = LIST_HW,
		[LEGACY_SOFTWARE] = LIST_SW,
		[LEGACY_CACHE] = LIST_CACHE,
	};
	struct list_ctx *c = arg;
	struct list_item *it;

	if (!(c->sections & bits[kind]))
		return;
	if (!list_match(c, name) &&
	    !list_alias_each(name, alias, list_alias_matches, c))
		return;
	it = list_add(c, sections[kind]);
	it->e.name = list_own(c, xstrdup(name));
	it->e.encoding = list_own(c, xasprintf("type=%" PRIu32
					       ",config=0x%" PRIx64,
					       type, config));
	it->tag = tags[kind];
	if (alias && *alias) {
		it->alias = list_own(c, xstrdup(alias));
		it->e.desc = list_own(c, xasprintf("alias: %s", alias));
		it->display = str_starts_with(alias, name) ?
			it->alias :
			list_own(c, xasprintf("%s OR %s", name, alias));
	} else {
		it->display = it->e.name;
	}
}

/* The PMUs under the sysfs root, and whether one of them is a core PMU. */
static void list_sysfs_pmus(struct list_ctx *c, struct pstat_pmus *pmus)
{
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(pmus, &all);

	for (size_t i = 0; i < n; i++) {
		struct pstat_list_pmu *lp = list_add_pmu(c, NULL);

		lp->name = all[i]->name;
		lp->source = "sysfs";
		lp->type = (int)all[i]->type;
		lp->kernel_exposed = 1;
		lp->is_core = pmu_is_core(c->o->sysfs_root, all[i]->name);
	}
	free(all);
	c->core_exposed = pmus_have_core(pmus, c->o->sysfs_root);
}

/*
 * A PMU's format terms, after perf's raw descriptor "cpu/t1=v1[,t2=v2]/",
 * with the terms in the description: for PMUs without aliases (uncore,
 * IBS) this is the only way to say what can be written. Completion gets
 * "pmu/", the part that can be typed as is.
 */
static void list_sysfs_descriptor(struct list_ctx *c,
				  const struct pstat_pmu *pmu,
				  bool pmu_matches)
{
	struct list_item *it;
	char *terms, *full;

	if (!pmu->nformats)
		return;
	full = xasprintf("%s/TERM=VALUE[,...]/", pmu->name);
	if (!pmu_matches && !list_match(c, full)) {
		free(full);
		return;
	}
	terms = xstrdup("terms:");
	for (size_t i = 0, n = 0; i < pmu->nformats; i++) {
		char *t;

		/* a malformed format file is no term to write */
		if (pmu->formats[i].error)
			continue;
		t = xasprintf("%s%s %s", terms, n++ ? "," : "",
			      pmu->formats[i].name);
		free(terms);
		terms = t;
	}
	it = list_add(c, "pmu");
	it->e.pmu = pmu->name;
	it->e.name = list_own(c, full);
	it->e.desc = list_own(c, terms);
	it->display = full;
	it->tag = "Kernel PMU event descriptor";
	it->completion = list_own(c, xasprintf("%s/", pmu->name));
}

/* "Kernel PMU event", with the alias's unit and scale when it has them. */
static const char *list_alias_tag(struct list_ctx *c,
				  const struct pstat_pmu_alias *a)
{
	char scale[48] = "";

	if (a->scale != 1.0)
		snprintf(scale, sizeof(scale), ", scale %g", a->scale);
	if (!(a->unit && *a->unit) && !*scale)
		return "Kernel PMU event";
	return list_own(c, xasprintf("Kernel PMU event%s%s%s",
				     a->unit && *a->unit ? ", unit " : "",
				     a->unit ? a->unit : "", scale));
}

/*
 * Each sysfs PMU: its descriptor, then its aliases (events/ files) as
 * pmu/alias/.
 */
static void list_sysfs_aliases(struct list_ctx *c, struct pstat_pmus *pmus)
{
	const struct pstat_pmu **all = NULL;
	size_t n;

	if (!(c->sections & LIST_PMU))
		return;
	n = pmus_all(pmus, &all);
	for (size_t i = 0; i < n; i++) {
		const struct pstat_pmu *pmu = all[i];
		bool pmu_matches = list_match(c, pmu->name);

		list_sysfs_descriptor(c, pmu, pmu_matches);

		for (size_t j = 0; j < pmu->naliases; j++) {
			const struct pstat_pmu_alias *a = &pmu->aliases[j];
			char *full = xasprintf("%s/%s/", pmu->name, a->name);
			struct list_item *it;

			if (!pmu_matches && !list_match(c, full) &&
			    !list_match(c, a->name)) {
				free(full);
				continue;
			}
			it = list_add(c, "pmu");
			it->e.pmu = pmu->name;
			it->e.name = list_own(c, full);
			it->e.unit = a->unit && *a->unit ? a->unit : NULL;
			it->e.encoding = a->terms;
			it->e.scale = a->scale;
			it->display = full;
			it->tag = list_alias_tag(c, a);
		}
	}
	free(all);
}

/*
 * The simulated PMU's events (events/sim_events.h), listed whether or
 * not valgrind is installed: the heading says which.
 */
static void list_sim(struct list_ctx *c)
{
	struct pstat_list_pmu *lp;
	const struct pstat_sim_event *t;
	size_t n;
	char *valgrind = sim_find_valgrind();

	c->have_valgrind = valgrind != NULL;
	free(valgrind);
	if (!(c->sections & LIST_SIM))
		return;
	lp = list_add_pmu(c, "simulated by Valgrind");
	lp->name = PSTAT_SIM_PMU;
	lp->source = "sim";
	lp->type = -1;
	t = sim_events(&n);
	for (size_t i = 0; i < n; i++) {
		char *full = xasprintf("sim/%s/", t[i].name);
		struct list_item *it;

		if (!list_match(c, full) && !list_match(c, PSTAT_SIM_PMU)) {
			free(full);
			continue;
		}
		it = list_add(c, "sim");
		it->e.pmu = PSTAT_SIM_PMU;
		it->e.name = list_own(c, full);
		it->e.desc = list_own(c, xasprintf("%s%s", t[i].desc,
			t[i].needs & SIM_NEEDS_CACHE ?
				"; simulates the caches" :
			t[i].needs & SIM_NEEDS_BRANCH ?
				"; simulates branch prediction" : ""));
		it->display = full;
		it->tag = "Simulated PMU event";
	}
}

/*
 * perf list's descriptors for what has no name of its own: raw configs
 * of the core PMU and hardware breakpoints. They show the syntax, so
 * completion (--names) has nothing to offer from them.
 */
static void list_descriptors(struct list_ctx *c)
{
	static const struct {
		const char *section, *name, *tag, *desc;
	} d[] = {
		{ "raw", "rNNN", "Raw hardware event descriptor",
		  "the core PMU's config in hex, as in r1a8" },
		{ "raw", "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
		  "Raw hardware event descriptor",
		  "a PMU's format terms; each PMU's are listed with it" },
		{ "breakpoint", "mem:<addr>[/len][:access]",
		  "Hardware breakpoint",
		  "accesses to addr: r, w and x (default rw), len bytes (default 4)" },
	};

	if (!(c->sections & LIST_OTHER))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		struct list_item *it;

		if (!list_match(c, d[i].name) && !list_match(c, d[i].section))
			continue;
		it = list_add(c, d[i].section);
		it->e.name = d[i].name;
		it->e.desc = d[i].desc;
		it->display = d[i].name;
		it->tag = d[i].tag;
		it->descriptor = true;
	}
}

/*
 * Which tracepoints a glob asks for, after perf list: "sys:ev" is a glob
 * over each part, where an empty part means all ("sched:" is the whole
 * subsystem); a bare word takes the subsystems it matches whole and the
 * events it matches, and a word without glob characters matches
 * anywhere in an event's name as perf's does ("switch" takes
 * sched:sched_switch).
 */
struct list_tp_want {
	const char *sys;            /* "sys:ev" form: the two globs */
	const char *ev;
	const char *word;           /* bare form: the word, else NULL */
	bool plain;                 /* the word has no glob characters */
};

static bool list_tp_wanted(const char *sys, const char *ev, void *arg)
{
	const struct list_tp_want *w = arg;
	bool take;
	char *full;

	if (!w->word)
		return !fnmatch(w->sys, sys, FNM_CASEFOLD) &&
		       !fnmatch(w->ev, ev, FNM_CASEFOLD);
	if (!fnmatch(w->word, sys, FNM_CASEFOLD) ||
	    !fnmatch(w->word, ev, FNM_CASEFOLD))
		return true;
	if (w->plain)
		return strcasestr(ev, w->word) != NULL;
	full = xasprintf("%s:%s", sys, ev);
	take = !fnmatch(w->word, full, FNM_CASEFOLD);
	free(full);
	return take;
}

/*
 * Tracepoints number in the thousands, so they are listed only when asked
 * for: with --tracepoints or the keyword "tracepoint", or when the glob
 * can name one (a subsystem, an event, "sys:ev"). A "::" glob is a
 * libpfm4 name, a '/' one a PMU's; another keyword names another
 * section. Only what was asked for explicitly (--tracepoints, the
 * keyword, a "sys:ev" glob) warns when tracefs cannot be read.
 */
static long list_tracepoints(struct list_ctx *c,
			     struct pstat_tracepoint **tps)
{
	const char *glob = c->keyword ? NULL : c->o->glob, *colon;
	struct list_tp_want w = { "*", "*", NULL, false };
	char *sys = NULL;
	bool explicit = c->o->tracepoints ||
			(c->keyword && (c->sections & LIST_TRACEPOINT));
	long n;

	*tps = NULL;
	if (glob && (strstr(glob, "::") || strchr(glob, '/')))
		return 0;
	if (!glob && !explicit)
		return 0;
	colon = glob ? strchr(glob, ':') : NULL;
	if (colon) {
		sys = xstrndup(glob, (size_t)(colon - glob));
		w.sys = *sys ? sys : "*";
		w.ev = colon[1] ? colon + 1 : "*";
		explicit = true;
	} else if (glob) {
		w.word = glob;
		w.plain = !strpbrk(glob, "*?[");
	}
	n = tracepoint_filter(c->o->tracefs_root, list_tp_wanted, &w, tps);
	free(sys);
	if (n < 0) {
		/* Completion must stay quiet; a listing explains the gap. */
		if (explicit && !c->o->names_only && !c->o->json)
			msg_warn("cannot read tracepoints: %s", strerror((int)-n));
		*tps = NULL;
		return 0;
	}
	for (long i = 0; i < n; i++) {
		struct list_item *it = list_add(c, "tracepoint");

		it->e.name = (*tps)[i].name;
		it->display = it->e.name;
		it->tag = "Tracepoint event";
	}
	return n;
}

/*
 * libpfm4 finds its core PMU from the CPU's identification, even where the
 * kernel has no PMU to program (a virtual machine), so a core libpfm4 PMU
 * is usable only when sysfs has a core PMU. Its other PMUs are the
 * perf_events interface itself or uncore PMUs that libpfm4 reports
 * present only when the kernel has them under /sys/devices.
 */
static void list_pfm_pmu(const char *name, const char *desc, bool is_core,
			 void *arg)
{
	struct list_ctx *c = arg;
	struct pstat_list_pmu *lp = list_add_pmu(c, desc);

	lp->name = name;
	lp->source = "libpfm4";
	lp->type = -1;
	lp->is_core = is_core;
	lp->kernel_exposed = is_core ? c->core_exposed : 1;
	c->pfm_core |= is_core;
}

/*
 * The event's strings belong to libpfm4 and live until pfm_cleanup(),
 * which only the caller of list_run may call; the umask arrays are the
 * callback's, so they are copied.
 */
static int list_pfm_event(const struct pstat_pfm_event *ev, void *arg)
{
	struct list_ctx *c = arg;
	char *full = xasprintf("%s::%s", ev->pmu, ev->name);
	struct list_item *it;
	const char **names, **descs;

	if (!list_match(c, full) && !list_match(c, ev->name) &&
	    !list_match(c, ev->pmu)) {
		free(full);
		return 0;
	}
	it = list_add(c, "libpfm4");
	it->e.pmu = ev->pmu;
	it->e.name = list_own(c, full);
	it->e.desc = ev->desc && *ev->desc ? ev->desc : NULL;
	it->display = full;
	it->tag = "libpfm4 event";
	if (ev->numasks) {
		names = list_own(c, xcalloc(ev->numasks, sizeof(*names)));
		descs = list_own(c, xcalloc(ev->numasks, sizeof(*descs)));
		memcpy(names, ev->umasks, ev->numasks * sizeof(*names));
		memcpy(descs, ev->umask_descs, ev->numasks * sizeof(*descs));
		it->e.umasks = names;
		it->e.umask_descs = descs;
		it->e.numasks = ev->numasks;
		it->umask_descs = descs;
	}
	return 0;
}

static void list_pfm(struct list_ctx *c)
{
	/* libpfm4 may not support this machine at all: nothing to list. */
	if (pfm_foreach_pmu(list_pfm_pmu, c) < 0)
		return;
	c->pfm_loaded = true;
	if (c->sections & LIST_OTHER)
		pfm_foreach_event(list_pfm_event, c);
}

/*
 * The vendor's events of the CPU the tree's (or the machine's) cpuinfo
 * names, from the generated tables, in perf's spelling
 * (inst_retired.any); -e takes libpfm4's too (INST_RETIRED:ANY).
 */
static void list_vendor(struct list_ctx *c, struct pstat_pmus *pmus)
{
	const struct vendor_cpu *rows[8];
	struct vendor_arm_pmu arm[8];
	struct pstat_cpuinfo ci;
	size_t n, narm;

	if (!(c->sections & LIST_OTHER) || cpuinfo_load(c->o->sysfs_root, &ci))
		return;
	/* Arm: each core PMU's, by its CPUs' MIDR */
	narm = vendor_arm_pmus(pmus, &ci, arm, ARRAY_SIZE(arm));
	n = narm ? narm : vendor_cpu_rows(&ci, rows, ARRAY_SIZE(rows));
	for (size_t r = 0; r < n; r++) {
		const struct vendor_events *t;
		const char *pmu;

		if (narm && (!arm[r].core || arm[r].core->events < 0))
			continue;
		t = &vendor_event_tables[narm ? arm[r].core->events :
						rows[r]->events];
		pmu = narm ? arm[r].pmu :
			     vendor_role_pmu(vendor_str(rows[r]->role), "cpu");
		if (!pmu)
			continue;

		for (size_t i = t->first; i < t->first + t->n; i++) {
			char *name = xstrdup(vendor_str(vendor_event_rows[i].name));
			struct list_item *it;

			for (char *p = name; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			if (!list_match(c, name)) {
				free(name);
				continue;
			}
			it = list_add(c, "vendor");
			it->e.pmu = pmu;
			it->e.name = list_own(c, name);
			it->e.desc = vendor_str(vendor_event_rows[i].terms);
			it->display = it->e.name;
			it->tag = "Vendor event";
		}
	}
}

/* Counting tracepoints by their directories, without reading an id. */
struct tp_count {
	const char *root;
	long n;
};

static void count_tp(const char *name, void *arg)
{
	(void)name;
	((struct tp_count *)arg)->n++;
}

static void count_sys(const char *sys, void *arg)
{
	struct tp_count *tc = arg;

	tracepoint_foreach_name(tc->root, sys, count_tp, tc);
}

/*
 * After a plain listing: how many tracepoints --tracepoints would add,
 * and what libpfm4 cannot name on a CPU it has no table for.
 */
static void list_print_trailer(const struct list_ctx *c, FILE *out)
{
	const struct pstat_list_opts *o = c->o;
	struct tp_count tc = { o->tracefs_root, 0 };

	if (c->pfm_loaded && !c->pfm_core &&
	    (!o->glob || strstr(o->glob, "::"))) {
		char *cpu = cpuid_describe();

		fprintf(out, "\nlibpfm4 has no event table for this CPU (%s): its vendor names (INST_RETIRED:ANY_P, pmu::EVENT) are unknown here; sysfs names (cpu/event=0xc0/) and raw codes (r00c0) still work.\n",
			cpu ? cpu : "unknown model");
		free(cpu);
	}
	if (o->glob || o->tracepoints)
		return;
	if (tracepoint_foreach_name(o->tracefs_root, NULL, count_sys, &tc))
		fputs("\nTracepoints are not listed: tracefs cannot be read here.\n",
		      out);
	else
		fprintf(out, "\n%ld tracepoints are not listed: 'pstat list --tracepoints' lists them, 'pstat list SUBSYSTEM:*' those of one subsystem.\n",
			tc.n);
}

int list_run(const struct pstat_list_opts *o, FILE *out)
{
	struct list_ctx c = { .o = o };
	struct pstat_tracepoint *tps = NULL;
	struct pstat_pmus *pmus;
	long ntps;
	int ret = 0;

	/*
	 * The sysfs PMUs are read first because whether one of them is a
	 * core PMU decides how the libpfm4 core PMU is marked.
	 */
	list_parse_glob(&c);
	pmus = pmus_new(o->sysfs_root);
	list_sysfs_pmus(&c, pmus);
	legacy_foreach(list_legacy_cb, &c);
	list_sysfs_aliases(&c, pmus);
	list_descriptors(&c);
	ntps = list_tracepoints(&c, &tps);
	list_pfm(&c);
	list_sim(&c);
	list_vendor(&c, pmus);

	if (o->json) {
		ret = list_print_json(&c, out);
	} else {
		if (o->names_only) {
			list_print_names(&c, out);
		} else {
			list_print_table(&c, out);
			list_print_trailer(&c, out);
		}
		ret = print_flush(out);
	}

	tracepoint_list_free(tps, ntps > 0 ? (size_t)ntps : 0);
	pmus_free(pmus);
	for (size_t i = 0; i < c.nowned; i++)
		free(c.owned[i]);
	free(c.owned);
	free(c.items);
	free(c.pmus);
	return ret;
}
