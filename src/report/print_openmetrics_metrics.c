/* SPDX-License-Identifier: MIT */
/*
 * The metrics' values in the exposition (-M, --metric, --metrics-file):
 * a gauge family per unit, named after Prometheus's conventions (the
 * unit in the name, in base units, a percentage as a 0-1 _ratio), the
 * metric's name a label, as the event is for counters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/print_openmetrics_priv.h"
#include "base/util.h"

/* The order of two metric values: name, CPU, unit, thread, cgroup. */
static int om_metric_cmp(const void *a, const void *b, void *arg)
{
	const struct pstat_metric_value *m = arg;
	const struct pstat_metric_value *x = &m[*(const size_t *)a];
	const struct pstat_metric_value *y = &m[*(const size_t *)b];
	int c = strcmp(x->about->name, y->about->name);

	if (!c)
		c = (x->cpu > y->cpu) - (x->cpu < y->cpu);
	if (!c && (x->aggr || y->aggr))
		c = !x->aggr || !y->aggr ? (x->aggr != NULL) - (y->aggr != NULL)
					 : topo_aggr_cmp(x->aggr, y->aggr);
	if (!c)
		c = strcmp(x->thread ? x->thread : "",
			   y->thread ? y->thread : "");
	if (!c)
		c = strcmp(x->cgroup ? x->cgroup : "",
			   y->cgroup ? y->cgroup : "");
	return c;
}

/* The same, the first given first among equals (qsort is not stable). */
static int om_metric_sort(const void *a, const void *b, void *arg)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = om_metric_cmp(a, b, arg);

	return c ? c : (x > y) - (x < y);
}

static void om_metric_labels(FILE *out, const struct pstat_metric_value *m)
{
	fputs("{metric=\"", out);
	om_escaped(out, m->about->name, 1);
	putc('"', out);
	om_place_labels(out, m->cpu, m->aggr, m->thread);
	if (m->cgroup) {
		fputs(",cgroup=\"", out);
		om_escaped(out, m->cgroup, 1);
		putc('"', out);
	}
	putc('}', out);
}

/* Rates and frequencies of metrics, beside om_units' quantities. */
static const struct {
	const char *unit, *base;
	double mul, div;
} om_metric_units[] = {
	{ "%", "ratio", 1, 100 },
	{ "Hz", "hertz", 1, 1 },
	{ "kHz", "hertz", 1e3, 1 },
	{ "MHz", "hertz", 1e6, 1 },
	{ "GHz", "hertz", 1e9, 1 },
};

/*
 * The family of a metric's values, from its unit, after Prometheus's
 * naming: the unit in the name, in base units, a percentage as a 0-1
 * _ratio. "" is pstat_metric; "%" pstat_metric_ratio (value / 100);
 * "GHz" pstat_metric_hertz; "ms" pstat_metric_seconds; "MiB/s"
 * pstat_metric_bytes_per_second; any other unit as a name part, '/' read
 * as "per" ("insn/cycle": pstat_metric_insn_per_cycle).
 */
void om_metric_family(struct om_family *f, const char *unit)
{
	const char *slash = unit ? strchr(unit, '/') : NULL;
	char *num = NULL, *part;

	f->mul = f->div = 1;
	f->help = "The value of each metric (-M, --metric) of this unit; "
		  "over the last interval with -I.";
	for (size_t i = 0; unit && i < ARRAY_SIZE(om_metric_units); i++) {
		if (!strcmp(unit, om_metric_units[i].unit)) {
			f->unit = xstrdup(om_metric_units[i].base);
			f->mul = om_metric_units[i].mul;
			f->div = om_metric_units[i].div;
			goto named;
		}
	}
	/* a quantity per second: "MiB/s", "ms/sec" */
	if (slash && (!strcmp(slash, "/s") || !strcmp(slash, "/sec")))
		num = xstrndup(unit, (size_t)(slash - unit));
	if (unit && om_base_unit(f, num ? num : unit,
				 num ? "_per_second" : "")) {
		free(num);
		goto named;
	}
	free(num);
	/* "insn/cycle" reads "insn per cycle" */
	part = xmalloc(strlen(unit ? unit : "") * 5 + 1);
	*part = '\0';
	for (const char *c = unit; c && *c; c++) {
		if (*c == '/')
			strcat(part, " per ");
		else
			strncat(part, c, 1);
	}
	f->unit = om_name_part(part);
	free(part);
named:
	f->name = *f->unit ? xasprintf("pstat_metric_%s", f->unit)
			   : xstrdup("pstat_metric");
}

/* metric values in families: the family's index, then om_metric_sort */
struct om_metric_order {
	const struct pstat_metric_value *m;
	const size_t *fam;
};

static int om_metric_fam_sort(const void *a, const void *b, void *arg)
{
	const struct om_metric_order *o = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (o->fam[x] != o->fam[y])
		return (o->fam[x] > o->fam[y]) - (o->fam[x] < o->fam[y]);
	return om_metric_sort(a, b, (void *)o->m);
}

/*
 * The metrics' values, a gauge family per unit (om_metric_family), the
 * families by name: those that have a value (never a NaN or an
 * infinity), each label set once (the first of repeats stands), in a
 * stable order. Nothing when no metric was asked for.
 */
void om_metrics(FILE *out, enum pstat_om_dialect d,
		const struct pstat_metric_value *m, size_t n)
{
	struct om_family *fams = NULL;
	size_t nfams = 0, alloc = 0, *idx, *fam, *rank, prev = (size_t)-1;
	struct om_metric_order o;

	if (!n)
		return;
	idx = xmalloc(n * sizeof(*idx));
	fam = xmalloc(n * sizeof(*fam));
	for (size_t i = 0; i < n; i++) {
		const char *u = m[i].about->unit ? m[i].about->unit : "";
		struct om_family f;
		size_t k;

		idx[i] = i;
		/* units repeat: the one before is the likely match */
		if (i && !strcmp(u, m[i - 1].about->unit ?
					    m[i - 1].about->unit : "")) {
			fam[i] = fam[i - 1];
			continue;
		}
		om_metric_family(&f, u);
		for (k = 0; k < nfams; k++)
			if (!strcmp(fams[k].name, f.name))
				break;
		if (k < nfams) {
			om_family_clear(&f);
		} else {
			xgrow((void **)&fams, &alloc, nfams + 1, sizeof(*fams));
			fams[nfams++] = f;
		}
		fam[i] = k;
	}
	/* the families in the order of their names */
	rank = xcalloc(nfams, sizeof(*rank));
	for (size_t k = 0; k < nfams; k++)
		for (size_t j = 0; j < nfams; j++)
			rank[k] += strcmp(fams[j].name, fams[k].name) < 0;
	for (size_t i = 0; i < n; i++)
		fam[i] = rank[fam[i]];
	for (size_t k = 0; k < nfams; k++)
		while (rank[k] != k) {
			struct om_family t = fams[rank[k]];
			size_t r = rank[rank[k]];

			fams[rank[k]] = fams[k];
			rank[rank[k]] = rank[k];
			fams[k] = t;
			rank[k] = r;
		}
	o.m = m;
	o.fam = fam;
	qsort_r(idx, n, sizeof(*idx), om_metric_fam_sort, &o);
	for (size_t i = 0, k = (size_t)-1; i < n; i++) {
		const struct pstat_metric_value *v = &m[idx[i]];

		/* a family's metadata even when none of it has a value */
		if (fam[idx[i]] != k) {
			k = fam[idx[i]];
			om_meta(out, d, fams[k].name, "gauge", fams[k].unit,
				fams[k].help);
			prev = (size_t)-1;
		}
		if (!isfinite(v->value))
			continue;
		if (prev != (size_t)-1 &&
		    !om_metric_cmp(&idx[i], &prev, (void *)m))
			continue;
		prev = idx[i];
		fputs(fams[k].name, out);
		om_metric_labels(out, v);
		putc(' ', out);
		om_number(out, v->value * fams[k].mul / fams[k].div);
		putc('\n', out);
	}
	for (size_t k = 0; k < nfams; k++)
		om_family_clear(&fams[k]);
	free(fams);
	free(rank);
	free(fam);
	free(idx);
}
