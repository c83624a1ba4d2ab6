/* SPDX-License-Identifier: MIT */
/*
 * `pstat list`'s three renderers of the collected items: perf list's
 * table, bare names (for completion) and the pstat-list/1 document.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/list_priv.h"
#include "report/print.h"

struct list_names {
	const struct list_ctx *c;
	FILE *out;
};

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
	else if (!strcmp(s, "sim"))
		fprintf(out, "Simulated PMU sim (the command runs under Valgrind, 4 to 20 times slower%s):\n",
			c->have_valgrind ? "" :
			"; valgrind is not installed here");
	else if (!strcmp(s, "vendor"))
		fprintf(out, "Vendor events of PMU %s (the CPU's own data: %s):\n",
			it->e.pmu,
			strncmp(it->e.pmu, "armv", 4) ? "Intel perfmon" :
							"ARM-software/data");
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

void list_print_table(const struct list_ctx *c, FILE *out)
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
void list_print_names(const struct list_ctx *c, FILE *out)
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

int list_print_json(const struct list_ctx *c, FILE *out)
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
