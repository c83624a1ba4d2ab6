/* SPDX-License-Identifier: MIT */
/*
 * The table's metric lines: a metric of the metric engine (-M,
 * --metric) is printed after the first event it reads, on a line of its
 * own whose "#" lines up with those of the counters, as perf prints the
 * metrics of a group; and --metric-only's columns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/topology.h"
#include "base/util.h"
#include "report/print_line.h"
#include "report/print_table_priv.h"
#include "report/stats.h"

/* The value column and the count columns before "#": 18 + 1 + 4 + 1 + 32 */
#define COUNT_COLS 56
#define METRIC_W 23

/* "12.34%" or "0.617", or "-" without a value, in 8 columns. */
static void metric_number(char *buf, size_t len,
			  const struct pstat_metric_value *m, double v)
{
	if (isnan(v))
		snprintf(buf, len, "%8s", "-");
	else if (!strcmp(m->about->unit, "%"))
		snprintf(buf, len, "%7.2f%%", v);
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%8.4g", v);
	else
		snprintf(buf, len, "%8.3f", v);
}

/* "name" or "unit name" as the line names the metric. */
static void metric_title(char *buf, size_t len,
			 const struct pstat_metric_value *m)
{
	if (*m->about->unit && strcmp(m->about->unit, "%"))
		snprintf(buf, len, "%s %s", m->about->unit, m->about->name);
	else
		snprintf(buf, len, "%s", m->about->name);
}

/*
 * m's value as metric_number writes it, into l: without printf on the
 * common path (a line per metric and thread, thousands an interval).
 */
static void metric_value_tl(struct tline *l, const struct pstat_metric_value *m)
{
	char val[64];

	/* no value: "-" in metric_number's 8 columns */
	if (isnan(m->value)) {
		tline_pad(l, 7);
		tline_mem(l, "-", 1);
	} else if (fabs(m->value) >= 1e6) {
		metric_number(val, sizeof(val), m, m->value);
		tline_mem(l, val, strlen(val));
	} else if (!strcmp(m->about->unit, "%")) {
		tline_number(l, val, print_fixed(val, sizeof(val), m->value, 2, 0),
			     7);
		tline_mem(l, "%", 1);
	} else {
		tline_number(l, val, print_fixed(val, sizeof(val), m->value, 3, 0),
			     8);
	}
}

/* A metric's line, after lead (lead_len bytes), built in l. */
static void metric_line(struct tline *l, const struct pstat_metric_value *m,
			const char *lead, size_t lead_len)
{
	size_t nl = strlen(m->about->name), tl = nl;

	if (lead)
		tline_mem(l, lead, lead_len);
	print_table_label_tl(l, m->aggr, m->aggr_nr, m->cpu, m->thread);
	tline_pad(l, COUNT_COLS);
	tline_mem(l, " # ", 3);
	metric_value_tl(l, m);
	tline_mem(l, " ", 1);
	/* metric_title's "unit name", or the name */
	if (*m->about->unit && strcmp(m->about->unit, "%")) {
		size_t ul = strlen(m->about->unit);

		tline_mem(l, m->about->unit, ul);
		tline_mem(l, " ", 1);
		tl += ul + 1;
	}
	tline_mem(l, m->about->name, nl);
	if (tl < METRIC_W)
		tline_pad(l, METRIC_W - tl);
	if (m->runs && m->runs->stats->n > 1 && !isnan(m->value) &&
	    stats_rel_stderr_pct(m->runs->stats) != 0 &&
	    isfinite(stats_rel_stderr_pct(m->runs->stats)))
		tline_fmt(l, "  ( +-%6.2f%% )",
			  stats_rel_stderr_pct(m->runs->stats));
	if (isnan(m->value)) {
		const char *why = m->why ? m->why : "unknown";

		tline_mem(l, "  (no value: ", 13);
		tline_mem(l, why, strlen(why));
		tline_mem(l, ")", 1);
	} else if (m->multiplexed) {
		tline_mem(l, "  (from multiplexed counts)", 27);
	}
	tline_mem(l, "\n", 1);
}

void print_table_metric_lines(struct tline *l, const struct pstat_report *r,
			      const struct print_anchors *a, size_t i,
			      const char *lead, size_t lead_len)
{
	for (size_t k = a->start ? a->start[i] : 0;
	     a->start && k < a->start[i + 1]; k++)
		metric_line(l, &r->metrics[a->order[k]], lead, lead_len);
}

/*
 * The width of the label before m's values: "S0-D0-C3        1 ",
 * "CPU%-7d " (11) and a thread's 25 + 1.
 */
static int label_width(const struct pstat_metric_value *m)
{
	char label[64];
	int w = 0;

	if (m->aggr)
		w += (int)strlen(topo_aggr_label(m->aggr, label,
						 sizeof(label))) + 6;
	return w + (m->cpu >= 0 ? 11 : 0) + (m->thread ? 26 : 0);
}

/* A column is as wide as its title, at least 10. */
static int column_width(const struct pstat_metric_value *m)
{
	char title[160];
	size_t n;

	metric_title(title, sizeof(title), m);
	n = strlen(title);
	return n < 10 ? 10 : (int)n;
}

/* -G, --for-each-cgroup: the longest cgroup name of the metrics, or 0. */
static int cgroup_width(const struct pstat_report *r)
{
	size_t w = 0;

	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].cgroup && strlen(r->metrics[i].cgroup) > w)
			w = strlen(r->metrics[i].cgroup);
	return (int)w;
}

void print_table_metric_only(FILE *out, const struct pstat_report *r,
			     const char *lead, int header)
{
	size_t *cols = xcalloc(r->nmetrics + 1, sizeof(*cols));
	size_t ncols = print_metric_columns(r, cols);
	int cgw = cgroup_width(r);

	if (header) {
		char title[160];

		if (lead)
			fprintf(out, "#%*s", (int)strlen(lead) - 1, "time ");
		/* as wide as the labels */
		if (r->nmetrics)
			fprintf(out, "%*s", label_width(&r->metrics[0]), "");
		if (cgw)
			fprintf(out, " %-*s", cgw, "");
		for (size_t c = 0; c < ncols; c++) {
			metric_title(title, sizeof(title),
				     &r->metrics[cols[c]]);
			fprintf(out, " %*s",
				column_width(&r->metrics[cols[c]]), title);
		}
		fputc('\n', out);
	}
	/* a line per CPU, thread or unit; blank where a key has no such */
	for (size_t k = 0, end; k < r->nmetrics; k = end) {
		const struct pstat_metric_value *m = &r->metrics[k];
		int nr;

		end = print_metric_key_end(r, k, &nr);
		if (lead)
			fputs(lead, out);
		print_table_label(out, m->aggr, nr, m->cpu, m->thread);
		/* each cgroup's metrics on a line of their own */
		if (cgw)
			fprintf(out, " %-*s", cgw, m->cgroup ? m->cgroup : "");
		for (size_t c = 0; c < ncols; c++) {
			const struct pstat_metric_value *v =
				print_metric_find(r, k, end, cols[c]);
			char val[48] = "";

			if (v)
				metric_number(val, sizeof(val), v, v->value);
			fprintf(out, " %*s",
				column_width(&r->metrics[cols[c]]),
				val + strspn(val, " "));
		}
		fputc('\n', out);
	}
	free(cols);
}

/*
 * perf's default output (6.5 and later) prints its Default group's
 * metrics without their events: each group's name right-aligned in
 * perf's event-name column (32, after a blank), the "#" in its metric
 * column (49), the value as "%8.1f" and then the unit and the name;
 * the group's other metrics under it. These are perf's widths.
 */
#define PERF_EVNAME_LEN 32
#define PERF_MGROUP_LEN 50
#define PERF_METRIC_LEN 38

/*
 * The kind of core of a copy "NAME.cpu_core" (an Arm big.LITTLE's
 * "NAME.armv9_neoverse_n2"), or NULL; *len: NAME's.
 */
static const char *copy_pmu(const char *name, size_t *len)
{
	const char *dot = strrchr(name, '.');

	*len = strlen(name);
	if (!dot || (strncmp(dot + 1, "cpu", 3) &&
		     strncmp(dot + 1, "armv8_", 6) &&
		     strncmp(dot + 1, "armv9_", 6)))
		return NULL;
	*len = (size_t)(dot - name);
	return dot + 1;
}

/* perf's order of hybrid PMUs in its default output: P-cores first. */
static int pmu_rank(const char *pmu)
{
	return !pmu ? 0 : !strcmp(pmu, "cpu_core") ? 1 :
			  !strcmp(pmu, "cpu_atom") ? 2 : 3;
}

/*
 * Copies' kinds of core in that order; Arm's core PMUs by name, as perf
 * lists them (armv8_* before armv9_*).
 */
static int pmu_cmp(const char *x, const char *y)
{
	int c = pmu_rank(x) - pmu_rank(y);

	return c || !x || !y ? c : strcmp(x, y);
}

/* By kind of core, then group (TopdownL1 before L2), then name. */
static int default_cmp(const void *a, const void *b, void *arg)
{
	const struct pstat_metric_value *v = arg;
	const struct pstat_metric_about *x = v[*(const size_t *)a].about;
	const struct pstat_metric_about *y = v[*(const size_t *)b].about;
	size_t xl, yl;
	const char *xp = copy_pmu(x->name, &xl), *yp = copy_pmu(y->name, &yl);
	int c = pmu_cmp(xp, yp);

	if (!c)
		c = strcmp(x->group ? x->group : "", y->group ? y->group : "");
	return c ? c : strcmp(x->name, y->name);
}

/* One metric's line of the Default group, after its group's title. */
static void default_line(struct tline *l, const struct pstat_metric_value *m,
			 const char *title, const char *lead, size_t lead_len)
{
	char val[64], label[160];
	size_t nl;
	int n, w;

	copy_pmu(m->about->name, &nl);
	if (lead)
		tline_mem(l, lead, lead_len);
	if (title) {
		size_t tl = strlen(title);

		tline_pad(l, 1);
		tline_right(l, title, tl, PERF_EVNAME_LEN);
		w = 1 + (tl > PERF_EVNAME_LEN ? (int)tl : PERF_EVNAME_LEN);
		if (PERF_MGROUP_LEN - w - 1 > 0)
			tline_pad(l, (size_t)(PERF_MGROUP_LEN - w - 1));
	} else {
		tline_pad(l, PERF_MGROUP_LEN - 1);
	}
	if (*m->about->unit)
		n = snprintf(val, sizeof(val), " # %8.1f", m->value);
	else
		n = snprintf(val, sizeof(val), " # %8.2f", m->value);
	tline_mem(l, val, strlen(val));
	if (*m->about->unit)
		snprintf(label, sizeof(label), "%s  %.*s", m->about->unit,
			 (int)nl, m->about->name);
	else
		snprintf(label, sizeof(label), "%.*s", (int)nl, m->about->name);
	tline_mem(l, " ", 1);
	w = PERF_METRIC_LEN - n - 1;
	tline_left(l, label, strlen(label), w > 0 ? (size_t)w : 0);
	if (m->runs && m->runs->stats->n > 1 &&
	    isfinite(stats_rel_stderr_pct(m->runs->stats)) &&
	    stats_rel_stderr_pct(m->runs->stats) != 0)
		tline_fmt(l, "  ( +-%6.2f%% )",
			  stats_rel_stderr_pct(m->runs->stats));
	if (m->multiplexed)
		tline_mem(l, "  (from multiplexed counts)", 27);
	tline_mem(l, "\n", 1);
}

int print_table_default_applies(const struct pstat_report *r)
{
	if (!r->perf_default_rows || r->perf_default_rows > r->nrows ||
	    r->order || r->aggr != AGGR_NONE)
		return 0;
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].aggr || r->metrics[i].cpu >= 0 ||
		    r->metrics[i].thread)
			return 0;
	return 1;
}

void print_table_default_lines(struct tline *l, const struct pstat_report *r,
			       const char *lead, size_t lead_len)
{
	size_t *ord = xcalloc(r->nmetrics + 1, sizeof(*ord)), n = 0;
	const struct pstat_metric_value *prev = NULL;

	/* a metric without a value is not printed, as perf leaves it out */
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!isnan(r->metrics[i].value))
			ord[n++] = i;
	qsort_r(ord, n, sizeof(*ord), default_cmp, (void *)r->metrics);
	for (size_t k = 0; k < n; k++) {
		const struct pstat_metric_value *m = &r->metrics[ord[k]];
		size_t ml, pl;
		const char *mp = copy_pmu(m->about->name, &ml);
		const char *pp = prev ? copy_pmu(prev->about->name, &pl) : NULL;
		const char *g = m->about->group ? m->about->group : "";
		char title[128];

		if (prev && !pmu_cmp(mp, pp) &&
		    !strcmp(g, prev->about->group ? prev->about->group : "")) {
			default_line(l, m, NULL, lead, lead_len);
		} else {
			/* on a hybrid, the group's kind of core, as perf */
			if (mp)
				snprintf(title, sizeof(title), "%s (%s)", g,
					 mp);
			else
				snprintf(title, sizeof(title), "%s", g);
			default_line(l, m, title, lead, lead_len);
		}
		prev = m;
	}
	free(ord);
}
