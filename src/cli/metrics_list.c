/* SPDX-License-Identifier: MIT */
/*
 * `pstat list metrics`: the library's metrics that apply here, each under
 * its group with its formula and, for the vendor's, every group perf puts
 * it in (which -M takes); then the vendor's metrics pstat left out, and
 * why, so that a group is never silently smaller than perf's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/metrics_cli.h"
#include "report/print.h"

/* A list of names, each printed once as it is first added. */
struct names {
	char **v;
	size_t n, alloc;
};

static void add_name(FILE *out, struct names *ns, const char *s, size_t len)
{
	if (!len)
		return;
	for (size_t i = 0; i < ns->n; i++)
		if (strlen(ns->v[i]) == len && !strncmp(ns->v[i], s, len))
			return;
	xgrow((void **)&ns->v, &ns->alloc, ns->n + 1, sizeof(*ns->v));
	ns->v[ns->n++] = xasprintf("%.*s", (int)len, s);
	fprintf(out, "%s\n", ns->v[ns->n - 1]);
}

/*
 * The groups of the library (each entry's own, then those the vendor's
 * data names), each once, then its metrics: one name a line.
 */
static void list_names(FILE *out, const struct pstat_metric_lib *lib)
{
	struct names ns = { 0 };
	char name[64];

	for (size_t i = 0; i < lib->n; i++) {
		const char *g = metric_vendor_groups(lib, lib->e[i]);

		const char *own = lib->e[i]->group;

		/* each of a list's groups ("MPKI;Branch_Effectiveness") */
		while (*own) {
			size_t len = strcspn(own, ";");

			add_name(out, &ns, own, len);
			own += len;
			own += *own == ';';
		}
		while (*g) {
			size_t len = strcspn(g, ";");

			add_name(out, &ns, g, len);
			g += len;
			g += *g == ';';
		}
	}
	for (size_t i = 0; i < ns.n; i++)
		free(ns.v[i]);
	free(ns.v);
	for (size_t i = 0; i < lib->n; i++)
		fprintf(out, "%s\n",
			metric_lib_entry_name(lib->e[i], name, sizeof(name)));
}

/* groups ("a;b;c") as "a, b, c" into buf. */
static const char *comma_list(const char *groups, char *buf, size_t len)
{
	size_t o = 0;

	for (const char *p = groups; *p && o + 3 < len; p++) {
		if (*p == ';') {
			buf[o++] = ',';
			buf[o++] = ' ';
		} else {
			buf[o++] = *p;
		}
	}
	buf[o] = '\0';
	return buf;
}

/*
 * Whether the vendor's tables have copies of hand-written entry i's
 * name for some core PMUs (ipc.armv9_neoverse_n2), the entry standing
 * for the others.
 */
static int has_vendor_copies(const struct pstat_metric_lib *lib, size_t i,
			     const char *name)
{
	size_t n = strlen(name);
	char other[96];

	for (size_t k = 0; lib->generic_too && i >= lib->nvendor_e &&
			   k < lib->nvendor_e; k++) {
		metric_lib_entry_name(lib->e[k], other, sizeof(other));
		if (!strncmp(other, name, n) && other[n] == '.')
			return 1;
	}
	return 0;
}

/*
 * Each metric under its first group's heading, with its formula; the
 * other groups of a list under it, or every group of the vendor's data;
 * then what was left out.
 */
static void list_text(FILE *out, const struct pstat_metric_lib *lib,
		      const struct pstat_metric_def *d,
		      const struct metric_left_out *lo, size_t nlo)
{
	const char *group = NULL;
	size_t glen = 0;
	char buf[1024];

	for (size_t i = 0; i < lib->n; i++) {
		const char *groups = metric_vendor_groups(lib, lib->e[i]);
		size_t len = strcspn(d[i].group, ";");

		if (!group || glen != len || strncmp(group, d[i].group, len)) {
			group = d[i].group;
			glen = len;
			fprintf(out, "%s%.*s:\n", i ? "\n" : "", (int)len, group);
		}
		fprintf(out, "  %-24s %s%s%s\n", d[i].name, d[i].text,
			*d[i].unit ? "  in " : "", d[i].unit);
		if (d[i].desc)
			fprintf(out, "  %-24s %s\n", "", d[i].desc);
		if (has_vendor_copies(lib, i, d[i].name))
			fprintf(out, "  %-24s on %s (not in Arm's data; the other cores: Arm's %s.<pmu>)\n",
				"", lib->generic_pmus, d[i].name);
		if (*groups)
			fprintf(out, "  %-24s groups: %s\n", "",
				comma_list(groups, buf, sizeof(buf)));
		else if (d[i].group[len])
			fprintf(out, "  %-24s also in %s\n", "",
				d[i].group + len + 1);
	}
	if (nlo)
		fprintf(out, "%sLeft out (in the vendor's data, not computed by pstat):\n",
			lib->n ? "\n" : "");
	for (size_t i = 0; i < nlo; i++) {
		fprintf(out, "  %-24s %s\n", lo[i].name, lo[i].why);
		if (*lo[i].groups)
			fprintf(out, "  %-24s groups: %s\n", "",
				comma_list(lo[i].groups, buf, sizeof(buf)));
	}
	if (!lib->topdown_levels)
		fprintf(out, "%sno top-down analysis here: %s\n",
			lib->n ? "\n" : "", lib->no_topdown);
	if (lib->no_umc[0] &&
	    !(lib->families & (METRIC_FAM_AMD_DF | METRIC_FAM_AMD_DF_GENOA |
			       METRIC_FAM_AMD_DF_TURIN)))
		fprintf(out, "%sno DRAM bandwidth here: %s\n",
			lib->n && lib->topdown_levels ? "\n" : "",
			lib->no_umc);
}

int metrics_cli_list(FILE *out, int json, int names_only,
		     const char *sysfs_root)
{
	struct pstat_pmus *pmus = pmus_new(sysfs_root);
	struct pstat_metric_lib lib;
	struct pstat_metric_def *d;
	struct pstat_list_metric *lm;
	struct metric_left_out *lo;
	struct pstat_list_left_out *jlo;
	struct pstat_error err = { "", -1 };
	size_t nlo;
	int r = 0;

	metric_lib_load(&lib, pmus, sysfs_root);
	nlo = metric_vendor_left_out(&lib, NULL, NULL, 0);
	lo = xcalloc(nlo + 1, sizeof(*lo));
	jlo = xcalloc(nlo + 1, sizeof(*jlo));
	metric_vendor_left_out(&lib, NULL, lo, nlo);
	for (size_t i = 0; i < nlo; i++)
		jlo[i] = (struct pstat_list_left_out){
			.name = lo[i].name, .groups = lo[i].groups,
			.why = lo[i].why,
		};
	d = xcalloc(lib.n + 1, sizeof(*d));
	lm = xcalloc(lib.n + 1, sizeof(*lm));
	for (size_t i = 0; i < lib.n; i++) {
		const char *groups = metric_vendor_groups(&lib, lib.e[i]);

		/* the table's own entries parse: tests/32-metrics.bats */
		if (metric_lib_def(&lib, lib.e[i], &d[i], &err))
			d[i].text = xstrdup(err.msg);
		lm[i] = (struct pstat_list_metric){
			.name = d[i].name, .group = d[i].group,
			.groups = *groups ? groups : d[i].group,
			.expr = d[i].text, .unit = d[i].unit,
			.desc = d[i].desc, .threshold = d[i].threshold_text,
			.higher_is_better = d[i].higher, .source = d[i].source,
		};
	}
	if (json)
		r = print_json_list_metrics(out, lm, lib.n, jlo, nlo,
					    lib.topdown_levels,
					    lib.topdown_levels ? NULL :
								 lib.no_topdown);
	else if (names_only)
		list_names(out, &lib);
	else
		list_text(out, &lib, d, lo, nlo);
	if (!r && fflush(out) == EOF)
		r = -errno;
	for (size_t i = 0; i < lib.n; i++)
		metric_def_free(&d[i]);
	free(d);
	free(lm);
	free(lo);
	free(jlo);
	metric_lib_free(&lib);
	pmus_free(pmus);
	return r;
}
