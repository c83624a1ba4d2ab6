/* SPDX-License-Identifier: MIT */
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
#include "cli/list.h"
#include "events/legacy.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "events/tracepoint.h"
#include "report/print.h"

/*
 * `pstat list` first collects everything that matches into one array of
 * items, in the order it is shown, and then hands the array to exactly one
 * of three renderers (table, names, JSON). Collecting first keeps the
 * three outputs in agreement and lets the JSON printer get plain records.
 */

#define LIST_NAME_WIDTH 50
#define LIST_WRAP 79
#define LIST_DESC_INDENT 7

static const char list_no_core_note[] =
	"# no core hardware PMU is exposed by the kernel (virtual machine?): "
	"hardware events such as cycles are not supported here";

struct list_item {
	struct pstat_list_entry e;
	const char *display;        /* left column of the table */
	const char *tag;            /* "[...]" right column of the table */
	const char *alias;          /* generic events: other spellings */
	const char *const *umask_descs;
	const char *completion;     /* --names spelling when not e.name */
	bool descriptor;            /* syntax, not a name: not completed */
};

struct list_pmu {
	struct pstat_list_pmu p;
	const char *desc;           /* libpfm4's, or NULL */
};

/* The sections a listing shows; perf list's keywords name some. */
enum {
	LIST_HW = 1 << 0,
	LIST_SW = 1 << 1,
	LIST_CACHE = 1 << 2,
	LIST_PMU = 1 << 3,
	LIST_TRACEPOINT = 1 << 4,
	LIST_OTHER = 1 << 5,        /* descriptors, libpfm4 */
	LIST_ALL = (1 << 6) - 1,
};

struct list_ctx {
	const struct pstat_list_opts *o;
	/*
	 * What names are matched against: the glob as given, "*word*" for
	 * a word without glob characters, NULL for all (no glob, or a
	 * section keyword).
	 */
	const char *pattern;
	unsigned sections;
	bool keyword;               /* the glob was a section keyword */
	struct list_item *items;
	size_t nitems, aitems;
	struct list_pmu *pmus;
	size_t npmus, apmus;
	void **owned;               /* strings and arrays freed at the end */
	size_t nowned, aowned;
	bool core_exposed;
};

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
static const struct list_pmu *list_find_pmu(const struct list_ctx *c,
					    const char *source,
					    const char *name)
{
	for (size_t i = 0; i < c->npmus; i++) {
		if (!strcmp(c->pmus[i].p.source, source) &&
		    !strcmp(c->pmus[i].p.name, name))
			return &c->pmus[i];
	}
	return NULL;
}

/* Names are matched like perf's: a shell glob, case-insensitive. */
static bool list_match(const struct list_ctx *c, const char *s)
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
static bool list_alias_each(const char *name, const char *alias,
			    bool (*fn)(const char *spelling, void *arg),
			    void *arg)
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
	if (c->sections & LIST_OTHER)
		pfm_foreach_event(list_pfm_event, c);
}

/* Print text from column col, wrapped at LIST_WRAP under indent. */
static void list_wrap(FILE *out, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		size_t sp = strspn(p, " \t\n");
		size_t len;

		p += sp;
		if (!*p)
			break;
		len = strcspn(p, " \t\n");
		if (col > indent && col + 1 + (int)len > LIST_WRAP) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, len, out);
		col += (int)len;
		p += len;
	}
	fputc('\n', out);
}

/* "[desc]" under an event, wrapped, as perf list prints it. */
static void list_print_desc(FILE *out, const char *desc)
{
	/* The closing bracket rides on the last word. */
	char *d = xasprintf("%s]", desc);

	fprintf(out, "%*s[", LIST_DESC_INDENT, "");
	list_wrap(out, d, LIST_DESC_INDENT + 1, LIST_DESC_INDENT + 1);
	free(d);
}

/* The heading of the group an item belongs to. */
static void list_heading(const struct list_ctx *c,
			 const struct list_item *it, FILE *out)
{
	const char *s = it->e.section;
	const struct list_pmu *lp;

	if (!strcmp(s, "hardware"))
		fputs("Hardware events:\n", out);
	else if (!strcmp(s, "software"))
		fputs("Software events:\n", out);
	else if (!strcmp(s, "cache"))
		fputs("Hardware cache events:\n", out);
	else if (!strcmp(s, "tracepoint"))
		fputs("Tracepoints:\n", out);
	else if (!strcmp(s, "raw"))
		fputs("Raw hardware event descriptors:\n", out);
	else if (!strcmp(s, "breakpoint"))
		fputs("Hardware breakpoints:\n", out);
	else if (!strcmp(s, "pmu")) {
		lp = list_find_pmu(c, "sysfs", it->e.pmu);
		fprintf(out, "Kernel PMU %s (type %d%s):\n", it->e.pmu,
			lp ? lp->p.type : -1,
			lp && lp->p.is_core ? ", core" : "");
	} else {
		lp = list_find_pmu(c, "libpfm4", it->e.pmu);
		fprintf(out, "libpfm4 PMU %s (%s%s%s):\n", it->e.pmu,
			lp && lp->desc ? lp->desc : it->e.pmu,
			lp && lp->p.is_core ? ", core" : "",
			lp && !lp->p.kernel_exposed ?
			", not exposed by the kernel" : "");
	}
}

static bool list_same_group(const struct list_item *a,
			    const struct list_item *b)
{
	if (strcmp(a->e.section, b->e.section))
		return false;
	if (!a->e.pmu || !b->e.pmu)
		return a->e.pmu == b->e.pmu;
	return !strcmp(a->e.pmu, b->e.pmu);
}

/*
 * Whether the item counts on the core PMU, for the "not here" note: the
 * generic hardware and cache events and raw configs. (The heading of a
 * core libpfm4 PMU says so itself.)
 */
static bool list_needs_core(const struct list_item *it)
{
	return !strcmp(it->e.section, "hardware") ||
	       !strcmp(it->e.section, "cache") ||
	       !strcmp(it->e.section, "raw");
}

static void list_print_table(const struct list_ctx *c, FILE *out)
{
	bool noted = false;

	for (size_t i = 0; i < c->nitems; i++) {
		const struct list_item *it = &c->items[i];

		if (!i || !list_same_group(&c->items[i - 1], it)) {
			if (i)
				fputc('\n', out);
			list_heading(c, it, out);
			noted = false;
		}
		/* once under each heading whose events cannot count here */
		if (!noted && !c->core_exposed && list_needs_core(it)) {
			fprintf(out, "  %s\n", list_no_core_note);
			noted = true;
		}
		fprintf(out, "  %-*s [%s]\n", LIST_NAME_WIDTH, it->display,
			it->tag);
		/* A generic event's desc only repeats its aliases. */
		if (it->e.desc && !it->alias)
			list_print_desc(out, it->e.desc);
		for (size_t j = 0; j < it->e.numasks; j++) {
			/* With list_wrap's space, two set the text apart. */
			int col = fprintf(out, "%*s:%s ", LIST_DESC_INDENT + 2,
					  "", it->e.umasks[j]);
			const char *d = it->umask_descs[j];

			if (d && *d)
				list_wrap(out, d, col < 0 ? 0 : col,
					  LIST_DESC_INDENT + 4);
			else
				fputc('\n', out);
		}
	}
}

struct list_names {
	const struct list_ctx *c;
	FILE *out;
};

static bool list_print_alias(const char *spelling, void *arg)
{
	struct list_names *n = arg;

	if (list_match(n->c, spelling))
		fprintf(n->out, "%s\n", spelling);
	return false;
}

/*
 * One name per line for shell completion: every spelling that matches
 * the glob itself (a PMU name matching is not enough here: completion
 * wants what the user may type next).
 */
static void list_print_names(const struct list_ctx *c, FILE *out)
{
	for (size_t i = 0; i < c->nitems; i++) {
		const struct list_item *it = &c->items[i];
		const char *name = it->completion ? it->completion : it->e.name;
		struct list_names arg = { c, out };

		if (it->descriptor)
			continue;
		/* tracepoints were chosen by list_tp_wanted's own rules */
		if (!strcmp(it->e.section, "tracepoint") || list_match(c, name))
			fprintf(out, "%s\n", name);
		if (it->alias)
			list_alias_each(it->e.name, it->alias,
					list_print_alias, &arg);
	}
}

static int list_print_json(const struct list_ctx *c, FILE *out)
{
	struct pstat_list_entry *e = xcalloc(c->nitems, sizeof(*e));
	struct pstat_list_pmu *p = xcalloc(c->npmus, sizeof(*p));
	struct pstat_list l = {
		.entries = e,
		.nentries = c->nitems,
		.pmus = p,
		.npmus = c->npmus,
		.core_pmu_exposed = c->core_exposed,
	};
	int ret;

	for (size_t i = 0; i < c->nitems; i++)
		e[i] = c->items[i].e;
	for (size_t i = 0; i < c->npmus; i++)
		p[i] = c->pmus[i].p;
	ret = print_json_list(out, &l);
	free(p);
	free(e);
	return ret;
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

	if (o->json) {
		ret = list_print_json(&c, out);
	} else {
		if (o->names_only)
			list_print_names(&c, out);
		else
			list_print_table(&c, out);
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
