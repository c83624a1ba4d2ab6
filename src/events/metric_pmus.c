/* SPDX-License-Identifier: MIT */
/*
 * Metrics over events that count once per core PMU: on a hybrid CPU
 * (cpu_core and cpu_atom, an Arm big.LITTLE's two kinds of core) a
 * generic event such as cycles is one event per kind of core, and a
 * ratio of two of them is only meaningful within one kind. As perf does,
 * such a metric is evaluated once per core PMU, over that PMU's events:
 * "ipc" becomes "ipc.cpu_atom" and "ipc.cpu_core".
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric.h"

/* m's references to metrics: those of its formula, then its threshold's. */
static size_t nmrefs(const struct pstat_metric_entry *e, size_t *ne)
{
	*ne = e->def.expr ? mexpr_nnames(e->def.expr) : 0;
	return *ne + (e->def.threshold && e->trefs ?
			      mexpr_nnames(e->def.threshold) : 0);
}

static const struct metric_ref *mref(const struct pstat_metric_entry *e,
				     size_t ne, size_t k)
{
	return k < ne ? &e->refs[k] : &e->trefs[k - ne];
}

/*
 * Which metrics read a split input, directly or through others (their
 * formulas or thresholds): from those that read one directly, along the
 * references backwards, each metric once.
 */
static unsigned char *split_metrics(const struct pstat_metric_set *set,
				    const unsigned char *split_in)
{
	size_t n = set->n, total = 0, head = 0, tail = 0, ne;
	unsigned char *hyb = xcalloc(n + 1, 1);
	size_t *first = xcalloc(n + 2, sizeof(*first));
	size_t *fill = xcalloc(n + 1, sizeof(*fill));
	size_t *queue = xcalloc(n + 1, sizeof(*queue));
	size_t *users;

	for (size_t m = 0; m < n; m++) {
		const struct pstat_metric_entry *e = &set->m[m];

		for (size_t k = 0; k < nmrefs(e, &ne); k++) {
			const struct metric_ref *r = mref(e, ne, k);

			if (r->kind == METRIC_REF_METRIC) {
				first[r->idx + 1]++;
				total++;
			} else if (r->kind == METRIC_REF_INPUT &&
				   split_in[r->idx] && !hyb[m]) {
				hyb[m] = 1;
				queue[tail++] = m;
			}
		}
	}
	for (size_t m = 0; m < n; m++)
		first[m + 1] += first[m];
	users = xcalloc(total + 1, sizeof(*users));
	for (size_t m = 0; m < n; m++) {
		const struct pstat_metric_entry *e = &set->m[m];

		for (size_t k = 0; k < nmrefs(e, &ne); k++) {
			const struct metric_ref *r = mref(e, ne, k);

			if (r->kind == METRIC_REF_METRIC)
				users[first[r->idx] + fill[r->idx]++] = m;
		}
	}
	while (head < tail) {
		size_t m = queue[head++];

		for (size_t u = first[m]; u < first[m + 1]; u++)
			if (!hyb[users[u]]) {
				hyb[users[u]] = 1;
				queue[tail++] = users[u];
			}
	}
	free(users);
	free(queue);
	free(fill);
	free(first);
	return hyb;
}

/* The state of one split: the old set, its maps, the new set. */
struct split {
	const struct pstat_metric_set *set;
	char *const *spec;
	size_t npmu;
	const unsigned char *hyb;
	/*
	 * own[m * npmu + p]: the entry that is the vendor's own copy of
	 * metric m on PMU p (no copy is made), or -1
	 */
	const ssize_t *own;
	const size_t *newidx;
	struct pstat_metric_set *out;
};

/* Where metric m of the old set is on PMU p in the new one. */
static size_t copy_index(const struct split *s, size_t m, size_t p)
{
	size_t k = 0;

	if (!s->hyb[m])
		return s->newidx[m];
	if (s->own[m * s->npmu + p] >= 0)
		return s->newidx[s->own[m * s->npmu + p]];
	for (size_t q = 0; q < p; q++)
		k += s->own[m * s->npmu + q] < 0;
	return s->newidx[m] + k;
}

/* e's references for the copy on PMU p (p ignored where not split). */
static struct metric_ref *remap(struct split *s, const struct pstat_mexpr *e,
				const struct metric_ref *r, size_t p)
{
	size_t n = e ? mexpr_nnames(e) : 0;
	struct metric_ref *o = xcalloc(n ? n : 1, sizeof(*o));

	for (size_t k = 0; k < n; k++) {
		const char *sp;

		o[k] = r[k];
		if (r[k].kind == METRIC_REF_INPUT) {
			sp = s->spec[r[k].idx * s->npmu] ?
				     s->spec[r[k].idx * s->npmu + p] :
				     s->set->inputs[r[k].idx];
			o[k].idx = metric_set_input(s->out, sp);
		} else if (r[k].kind == METRIC_REF_METRIC) {
			o[k].idx = copy_index(s, r[k].idx, p);
		}
	}
	return o;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The copy of metric def d for the PMU called pmu (expressions reparsed). */
static void clone_def(const struct pstat_metric_def *d, const char *pmu,
		      struct pstat_metric_def *c)
{
	struct pstat_error err = { "", -1 };

	*c = *d;
	c->name = xasprintf("%s.%s", d->name, pmu);
	c->text = xstrdup(d->text);
	c->unit = xstrdup(d->unit);
	c->desc = dup_or_null(d->desc);
	c->source = dup_or_null(d->source);
	c->group = dup_or_null(d->group);
	c->threshold_text = dup_or_null(d->threshold_text);
	c->expr = c->threshold = NULL;
	/* they parsed before: the same text gives the same names */
	if (d->expr && mexpr_parse(d->text, &c->expr, &err))
		c->expr = NULL;
	if (d->threshold && mexpr_parse(d->threshold_text, &c->threshold, &err))
		c->threshold = NULL;
}

static void build(struct split *s, const char *const *pmus)
{
	const struct pstat_metric_set *set = s->set;
	struct pstat_metric_set *out = s->out;

	for (size_t m = 0; m < set->n; m++) {
		const struct pstat_metric_entry *e = &set->m[m];
		size_t copies = s->hyb[m] ? s->npmu : 1;

		for (size_t p = 0; p < copies; p++) {
			struct pstat_metric_entry *c;

			if (s->hyb[m] && s->own[m * s->npmu + p] >= 0)
				continue;
			c = &out->m[out->n++];
			memset(c, 0, sizeof(*c));
			c->group = -1;
			c->shown = e->shown;
			c->pmu_own = e->pmu_own;
			if (s->hyb[m]) {
				clone_def(&e->def, pmus[p], &c->def);
				c->pmu = xstrdup(pmus[p]);
			} else {
				c->def = e->def;
			}
			c->refs = remap(s, c->def.expr, e->refs, p);
			if (e->trefs)
				c->trefs = remap(s, c->def.threshold, e->trefs,
						 p);
		}
	}
}

/*
 * A copy's name that another metric of set has already, or NULL; own
 * (new array) notes those that are the vendor's own copy, not split.
 */
static const char *name_taken(struct pstat_metric_set *set,
			      const unsigned char *hyb,
			      const char *const *pmus, size_t npmu,
			      char **copy, ssize_t **own)
{
	*own = xcalloc(set->n * npmu + 1, sizeof(**own));
	for (size_t m = 0; m < set->n; m++) {
		for (size_t p = 0; p < npmu; p++) {
			ssize_t k;

			(*own)[m * npmu + p] = -1;
			if (!hyb[m])
				continue;
			*copy = xasprintf("%s.%s", set->m[m].def.name,
					  pmus[p]);
			k = metric_set_find(set, *copy);
			if (k >= 0 && (!set->m[k].pmu_own || hyb[k]))
				return set->m[m].def.name;
			free(*copy);
			*copy = NULL;
			if (k >= 0)
				(*own)[m * npmu + p] = k;
		}
	}
	return NULL;
}

int metric_set_split_pmus(struct pstat_metric_set *set,
			  const char *const *pmus, size_t npmu,
			  char *const *spec, struct pstat_error *err)
{
	const char *taken;
	char *copy = NULL;
	ssize_t *own = NULL;
	unsigned char *split_in = xcalloc(set->ninputs + 1, 1);
	unsigned char *hyb;
	size_t *newidx, total = 0;
	struct pstat_metric_set out = { 0 };
	struct split s;
	int any = 0;

	for (size_t i = 0; i < set->ninputs && npmu; i++)
		any |= split_in[i] = spec[i * npmu] != NULL;
	if (!any || set->ngroups) {
		free(split_in);
		return 0;
	}
	hyb = split_metrics(set, split_in);
	taken = name_taken(set, hyb, pmus, npmu, &copy, &own);
	if (taken) {
		error_set(err, -1,
			  "metric '%s' is defined twice: '%s' counts once per core PMU, and its copy on each is named so",
			  copy, taken);
		free(copy);
		free(own);
		free(split_in);
		free(hyb);
		return -1;
	}
	newidx = xcalloc(set->n + 1, sizeof(*newidx));
	for (size_t m = 0; m < set->n; m++) {
		newidx[m] = total;
		for (size_t p = 0; p < (hyb[m] ? npmu : 1); p++)
			total += !hyb[m] || own[m * npmu + p] < 0;
	}
	out.m = xcalloc(total + 1, sizeof(*out.m));
	out.alloc = total + 1;
	s = (struct split){ set, spec, npmu, hyb, own, newidx, &out };
	build(&s, pmus);
	/* what moved to out is no longer set's */
	for (size_t m = 0; m < set->n; m++) {
		if (hyb[m])
			metric_def_free(&set->m[m].def);
		free(set->m[m].refs);
		free(set->m[m].trefs);
		free(set->m[m].ins);
	}
	free(set->m);
	for (size_t i = 0; i < set->ninputs; i++)
		free(set->inputs[i]);
	free(set->inputs);
	free(set->groups);
	free(set->order);
	free(set->name_slot);
	free(set->input_slot);
	*set = out;
	free(own);
	free(split_in);
	free(hyb);
	free(newidx);
	/* (the copies refer to each other as the originals did: no cycle) */
	return metric_set_graph(set, err) ? -1 : 1;
}
