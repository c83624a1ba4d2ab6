/* SPDX-License-Identifier: MIT */
/*
 * The sysfs part of the encoder: pmu/terms/ events, bare alias names
 * looked up on every PMU ("tsc"), and groups whose events are spread
 * over several instances of a PMU.
 */
#include <stdlib.h>
#include <string.h>

#include "base/cpumap.h"
#include "base/util.h"
#include "events/encode_priv.h"

/* The closest PMU name, or NULL when nothing is close (new string). */
static char *suggest_pmu(struct encoder *e, const char *want)
{
	struct str_suggest s;

	str_suggest_init(&s, want);
	pmus_foreach_name(e->ctx->pmus, str_suggest_cb, &s);
	return str_suggest_take(&s);
}

/*
 * perf's pmu/vendor_event/ (cpu_core/inst_retired.any/, on one kind of
 * core of a hybrid): the first term without a value that is neither an
 * alias nor a format of pmu but an event of its vendor's table, replaced
 * by that event's terms. Returns a new array (*n updated) or NULL when
 * there is none.
 */
static struct pstat_term *vendor_terms(struct encoder *e,
				       const struct pstat_pmu *pmu,
				       const struct pstat_term *terms,
				       size_t *n, struct pstat_error *err)
{
	struct pstat_term *vt, *out;
	const char *s = NULL;
	size_t i, nvt;

	for (i = 0; i < *n && !s; i++)
		if (!terms[i].val && !pmu_alias_find(pmu, terms[i].key) &&
		    !pmu_format_find(pmu, terms[i].key))
			s = encode_vendor_pmu_terms(e, pmu->name, terms[i].key);
	if (!s || evspec_parse_terms(s, &vt, &nvt, err))
		return NULL;
	i--;
	out = xcalloc(*n - 1 + nvt, sizeof(*out));
	for (size_t k = 0, o = 0; k < *n; k++) {
		if (k != i) {
			out[o].key = xstrdup(terms[k].key);
			out[o].val = terms[k].val ? xstrdup(terms[k].val) : NULL;
			out[o++].off = terms[k].off;
			continue;
		}
		for (size_t v = 0; v < nvt; v++, o++) {
			out[o] = vt[v];
			out[o].off = terms[k].off;
		}
	}
	free(vt);
	*n += nvt - 1;
	return out;
}

/*
 * Encode terms on pmu and append the event. Every instance after the
 * first joins the row of the one before: instances of one event are
 * summed (uncore_imc_N). Returns 0 or -1 with e->err filled.
 */
static int add_on_pmu(struct encoder *e, const struct pstat_evspec *sp,
		      const struct pstat_pmu *pmu,
		      const struct pstat_term *terms, size_t nterms,
		      const char *gmods, bool same_row)
{
	struct pstat_pmu_encoding enc = { .scale = 1.0 };
	struct pstat_event *ev;
	struct pstat_term *rest = NULL;
	uint32_t gtype = 0;
	uint64_t gconfig = 0;
	long g = encode_core_legacy(e, pmu, terms, nterms, &gtype, &gconfig);
	struct pstat_term *vt = g < 0 ? vendor_terms(e, pmu, terms, &nterms,
						     e->err) : NULL;
	bool vendor = vt != NULL;
	int r;

	if (vendor)
		terms = vt;
	if (g >= 0) {
		/* the other terms (name=, config2...) apply as usual */
		rest = xcalloc(nterms, sizeof(*rest));
		memcpy(rest, terms, (size_t)g * sizeof(*rest));
		memcpy(rest + g, terms + g + 1,
		       (nterms - (size_t)g - 1) * sizeof(*rest));
		terms = rest;
		nterms--;
	}
	r = pmu_encode(pmu, terms, nterms, &enc, e->err);
	free(rest);
	evspec_terms_free(vt, vendor ? nterms : 0);
	if (r) {
		e->err->offset = sp->off;
		return -1;
	}
	ev = encode_add_event(e, enc.name ? enc.name : sp->text, pmu->name,
			      g >= 0 ? "generic" : vendor ? "vendor" : "sysfs");
	if (same_row) {
		ev->row = e->out->ev[e->out->n - 2].row;
		e->row--;
	}
	ev->attr.type = g >= 0 ? gtype : pmu->type;
	ev->attr.config = g >= 0 ? gconfig : enc.config[0];
	ev->attr.config1 = enc.config[1];
	ev->attr.config2 = enc.config[2];
	ev->scale = enc.scale;
	ev->unit = enc.unit ? xstrdup(enc.unit) : NULL;
	pmu_encoding_release(&enc);
	encode_core_placement(e, ev, pmu);
	if (pmu->cpumask &&
	    cpumap_parse(pmu->cpumask, &ev->cpus, &ev->ncpus, e->err))
		return error_set(e->err, sp->off, "bad cpumask of PMU '%s': %s",
				 pmu->name, pmu->cpumask);
	return encode_mods(e, ev, sp, gmods);
}

int encode_pmu_event(struct encoder *e, const struct pstat_evspec *sp,
		     const char *gmods)
{
	const struct pstat_pmu **pmus = NULL;
	size_t n = pmus_match(e->ctx->pmus, sp->pmu, &pmus);
	int r = 0;

	if (!n) {
		const char *why = pmus_error(e->ctx->pmus, sp->pmu);
		char *what;

		free(pmus);
		/* there is such a PMU, but it cannot be used */
		if (why)
			return error_set(e->err, sp->off, "PMU '%s': %s",
					 sp->pmu, why);
		what = xasprintf("unknown PMU '%s' in '%s'", sp->pmu, sp->text);
		r = encode_not_found(e, sp->off, suggest_pmu(e, sp->pmu),
				     sp->pmu, what);
		free(what);
		return r;
	}
	for (size_t i = 0; i < n && !r; i++)
		r = add_on_pmu(e, sp, pmus[i], sp->terms, sp->nterms, gmods,
			       i > 0);
	free(pmus);
	return r;
}

/*
 * The PMUs having an alias called name (a new array of borrowed
 * pointers, NULL when none) and how many; *alias is the first one's.
 */
static size_t alias_pmus(struct encoder *e, const char *name,
			 const struct pstat_pmu ***out,
			 const struct pstat_pmu_alias **alias)
{
	const struct pstat_pmu **all = NULL;
	size_t n = 0, nall;

	*out = NULL;
	*alias = NULL;
	/* an alias file's name has neither, and a PMU event is no alias */
	if (strpbrk(name, ":/"))
		return 0;
	nall = pmus_all(e->ctx->pmus, &all);
	for (size_t i = 0; i < nall; i++) {
		const struct pstat_pmu_alias *a = pmu_alias_find(all[i], name);

		if (!a)
			continue;
		if (!*alias)
			*alias = a;
		all[n++] = all[i];
	}
	if (n)
		*out = all;
	else
		free(all);
	return n;
}

bool encode_alias_known(struct encoder *e, const char *name)
{
	const struct pstat_pmu **pmus;
	const struct pstat_pmu_alias *a;
	size_t n = alias_pmus(e, name, &pmus, &a);

	free(pmus);
	return n > 0;
}

/*
 * perf takes a bare alias name on any PMU ("tsc" is msr/tsc/) and opens
 * it on every PMU that has it: each instance of an uncore PMU, and PMUs
 * of different kinds sharing a name (cstate_core and cstate_pkg both
 * have c3-residency). pstat sums them in one row, as perf merges them,
 * which only makes sense in one unit: when the PMUs disagree on it, the
 * user has to say which one is meant.
 */
int encode_alias_event(struct encoder *e, const struct pstat_evspec *sp,
		       const char *name, const char *gmods)
{
	const struct pstat_pmu **pmus;
	const struct pstat_pmu_alias *first;
	struct pstat_term term = { .off = sp->off };
	size_t n = alias_pmus(e, name, &pmus, &first);
	int r = 0;

	if (!n)
		return 1;
	for (size_t i = 1; i < n; i++) {
		const struct pstat_pmu_alias *a = pmu_alias_find(pmus[i], name);

		if (a->scale != first->scale || strcmp(a->unit, first->unit)) {
			r = error_set(e->err, sp->off,
				      "ambiguous event '%s': PMUs '%s' and '%s' both have it, in different units; name one, as '%s/%s/'",
				      sp->text, pmus[0]->name, pmus[i]->name,
				      pmus[0]->name, first->name);
			goto out;
		}
	}
	term.key = xstrdup(name);
	for (size_t i = 0; i < n && !r; i++)
		r = add_on_pmu(e, sp, pmus[i], &term, 1, gmods, i > 0);
	free(term.key);
out:
	free(pmus);
	return r;
}

static bool has_name(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/*
 * The kernel refuses a group mixing hardware PMUs, so a group whose
 * events are each opened on several instances ({uncore_imc/a/,
 * uncore_imc/b/} on uncore_imc_0 and uncore_imc_1) becomes, as in perf,
 * one group per instance holding the group's events on that instance:
 * {a, b} on uncore_imc_0, {a, b} on uncore_imc_1. The events are
 * reordered so that each group is contiguous (the counters open a group
 * as a run of events); rows still sum each event over the instances.
 * An event of the group that is on none of those instances (cycles with
 * uncore events) could join no group and is refused.
 */
int encode_split_instances(struct encoder *e, size_t first, long off,
			   size_t **bounds)
{
	struct pstat_event *ev = &e->out->ev[first], *tmp;
	size_t n = e->out->n - first, ninst = 0, k = 0;
	const char **inst;
	bool *spread;

	spread = xcalloc(n ? n : 1, sizeof(*spread));
	inst = xcalloc(n ? n : 1, sizeof(*inst));
	/* an event opened on several instances has one row for them all */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			if (i != j && ev[i].row == ev[j].row)
				spread[i] = true;
	for (size_t i = 0; i < n; i++)
		if (spread[i] && !has_name(inst, ninst, ev[i].pmu))
			inst[ninst++] = ev[i].pmu;
	if (!ninst) {
		free(spread);
		free(inst);
		*bounds = xcalloc(2, sizeof(**bounds));
		(*bounds)[0] = first;
		(*bounds)[1] = first + n;
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t s = 0;

		if (has_name(inst, ninst, ev[i].pmu))
			continue;
		while (!spread[s])
			s++;
		error_set(e->err, off,
			  "cannot group '%s' with '%s': a group of events on several instances of a PMU is split into one group per instance (%s, %s%s), and PMU '%s' is none of them",
			  ev[i].name, ev[s].name, inst[0], inst[1],
			  ninst > 2 ? ", ..." : "", ev[i].pmu);
		free(spread);
		free(inst);
		return -1;
	}
	tmp = xcalloc(n, sizeof(*tmp));
	*bounds = xcalloc(ninst + 1, sizeof(**bounds));
	for (size_t p = 0; p < ninst; p++) {
		(*bounds)[p] = first + k;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(ev[i].pmu, inst[p]))
				tmp[k++] = ev[i];
	}
	(*bounds)[ninst] = first + n;
	/* the pmu strings move with their events: inst stays valid */
	memcpy(ev, tmp, n * sizeof(*ev));
	free(tmp);
	free(spread);
	free(inst);
	return (int)ninst;
}
