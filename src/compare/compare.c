/* SPDX-License-Identifier: MIT */
/*
 * `pstat compare`: threshold rules, matching two runs, verdicts. Pure:
 * the documents are read by print_json_compare.c, the results printed
 * by print_compare.c and print_json_compare.c; the threshold rules are
 * compare_rules.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compare/compare.h"
#include "compare/compare_index.h"
#include "report/stats.h"

struct pstat_compare_counter *compare_run_add(struct pstat_compare_run *run)
{
	struct pstat_compare_counter *c;

	xgrow((void **)&run->counters, &run->alloc, run->ncounters + 1,
	      sizeof(*run->counters));
	c = &run->counters[run->ncounters++];
	memset(c, 0, sizeof(*c));
	c->cpu = -1;
	c->value = NAN;
	c->metric_value = NAN;
	return c;
}

struct pstat_compare_metric *
compare_run_add_metric(struct pstat_compare_run *run)
{
	struct pstat_compare_metric *m;

	xgrow((void **)&run->metrics, &run->metrics_alloc, run->nmetrics + 1,
	      sizeof(*run->metrics));
	m = &run->metrics[run->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->cpu = -1;
	m->value = NAN;
	m->higher_is_better = -1;
	return m;
}

void compare_counter_free(struct pstat_compare_counter *c)
{
	free(c->event);
	free(c->thread);
	free(c->aggr);
	free(c->cgroup);
	free(c->unit);
	free(c->samples);
	free(c->metric_name);
	free(c->metric_unit);
}

void compare_run_free(struct pstat_compare_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->nmetrics; i++) {
		free(run->metrics[i].name);
		free(run->metrics[i].thread);
		free(run->metrics[i].cgroup);
		free(run->metrics[i].aggr);
		free(run->metrics[i].unit);
		free(run->metrics[i].samples);
	}
	free(run->metrics);
	for (size_t i = 0; i < run->ncounters; i++)
		compare_counter_free(&run->counters[i]);
	free(run->counters);
	free(run->label);
	free(run->exit_signal);
	memset(run, 0, sizeof(*run));
}

int compare_run_failed(const struct pstat_compare_run *run, char *buf,
		       size_t len)
{
	int st = run->exit_status;

	/*
	 * Attached (-p, -a): Ctrl-C, SIGTERM or SIGHUP is how a count
	 * ends, as in perf; nothing crashed.
	 */
	if (!run->has_command && !run->exit_signal && !run->exit_failed_run &&
	    (st == 128 + SIGINT || st == 128 + SIGTERM || st == 128 + SIGHUP))
		return 0;
	if (run->exit_signal)
		snprintf(buf, len, "exit status %d, %s", run->exit_status,
			 run->exit_signal);
	else if (run->exit_status)
		snprintf(buf, len, "exit status %d", run->exit_status);
	else if (run->exit_failed_run)
		snprintf(buf, len, "run %zu of %d exited with %d",
			 run->exit_failed_run, run->runs,
			 run->exit_failed_status);
	else
		return 0;
	return 1;
}

const char *compare_verdict_name(enum pstat_compare_verdict v, int json)
{
	switch (v) {
	case VERDICT_REGRESSED:
		return "regressed";
	case VERDICT_IMPROVED:
		return "improved";
	case VERDICT_UNCHANGED:
		return "unchanged";
	case VERDICT_NOISE:
		return json ? "within_noise" : "within noise";
	case VERDICT_MISSING:
		return "missing";
	case VERDICT_INVALID:
		break;
	}
	return "invalid";
}

/*
 * The metrics of metrics.c with a direction that says something about
 * the code measured, each scale x its counter / another counter of the
 * run. CPUs utilized, GHz and the /sec rates restate the counters and
 * the time they ran, which are compared themselves. The directions
 * repeat metrics.c's: a pstat/1 document does not record them, and this
 * table must follow metrics.c when a metric is added there.
 */
static const struct compared_metric {
	const char *name;
	int higher_is_better;
	double scale;
} compared_metrics[] = {
	{ "insn per cycle", 1, 1.0 },
	{ "of all branches", 0, 100.0 },
	{ "of all cache refs", 0, 100.0 },
};

static const struct compared_metric *compared_metric(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(compared_metrics); i++)
		if (!strcmp(compared_metrics[i].name, name))
			return &compared_metrics[i];
	return NULL;
}

/*
 * " (CPU 3)", " (S0-D0-C3)" or " (comm-tid)": where a counter or metric
 * counted, in buf; "" when on the whole run.
 */
static const char *place_name(int cpu, const char *aggr, const char *thread,
			      char *buf, size_t len)
{
	const char *in = thread ? thread : aggr;

	if (cpu >= 0)
		snprintf(buf, len, " (CPU %d)", cpu);
	else if (in)
		snprintf(buf, len, " (%s)", in);
	else
		buf[0] = '\0';
	return buf;
}

static char *counter_name(const struct pstat_compare_counter *c, size_t occ)
{
	char place[160], nth[32] = "";

	if (occ > 1)
		snprintf(nth, sizeof(nth), " #%zu", occ);
	return xasprintf("%s%s%s%s%s%s", c->event,
			 place_name(c->cpu, c->aggr, c->thread, place,
				    sizeof(place)),
			 c->cgroup ? " (cgroup " : "",
			 c->cgroup ? c->cgroup : "", c->cgroup ? ")" : "", nth);
}

static int all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/* Why a counter cannot be compared, or NULL when it can. */
static const char *invalid_reason(const struct pstat_compare_counter *c,
				  int is_new)
{
	static const char *const why[][2] = {
		[PSTAT_COUNTED] = { "no value in base", "no value in new" },
		[PSTAT_MULTIPLEXED] = { "multiplexed in base",
					"multiplexed in new" },
		[PSTAT_NOT_COUNTED] = { "not counted in base",
					"not counted in new" },
		[PSTAT_NOT_SUPPORTED] = { "not supported in base",
					  "not supported in new" },
		[PSTAT_ERROR] = { "error in base", "error in new" },
	};

	if (c->status != PSTAT_COUNTED)
		return why[c->status][is_new];
	if (!isfinite(c->value))
		return why[PSTAT_COUNTED][is_new];
	if (!all_finite(c->samples, c->nsamples))
		return is_new ? "a sample is not finite in new" :
				"a sample is not finite in base";
	return NULL;
}

/*
 * Fill s from c. Its samples are summarised here once, for the stddev
 * shown and for judge's test: with two or more, all finite, the summary
 * is stored in *sum and sum is returned; NULL otherwise.
 */
static const struct pstat_summary *
side_set(struct pstat_compare_side *s, const struct pstat_compare_counter *c,
	 struct pstat_summary *sum)
{
	s->present = 1;
	s->status = c->status;
	s->value = c->status == PSTAT_COUNTED ? c->value : NAN;
	s->n = c->nsamples;
	s->stddev = NAN;
	if (c->nsamples < 2 || !all_finite(c->samples, c->nsamples))
		return NULL;
	stats_summarize(c->samples, c->nsamples, sum);
	s->stddev = sum->stddev;
	return sum;
}

/*
 * The delta, the test and the verdict of two valid sides; Welch's test
 * when both have a summary of their samples (side_set's). Without one,
 * significant says whether a change beyond the limit counts: 1 for a
 * counter (the limit alone decides), what the counter under a metric
 * showed for a metric that could not be tested itself.
 */
static void judge(struct pstat_compare_item *it,
		  const struct pstat_summary *sb,
		  const struct pstat_summary *sn, double alpha, int significant)
{
	double base = it->base.value, d;
	int exceeds, worse;

	it->delta = d = it->new.value - base;
	it->delta_pct = base != 0 ? 100.0 * d / fabs(base) : d == 0 ? 0 : NAN;
	if (sb && sn) {
		/* a is the new run, so the interval is that of new - base */
		it->tested = 1;
		it->t = stats_welch_t(sn, sb, &it->df);
		it->p = stats_welch_p(sn, sb);
		stats_welch_ci(sn, sb, 1 - alpha, &it->ci_lo, &it->ci_hi);
		significant = it->p < alpha;
	}
	if (it->limit_kind == LIMIT_ABSOLUTE)
		exceeds = fabs(d) > it->limit;
	else if (base == 0)
		exceeds = d != 0;
	else
		exceeds = fabs(d) > it->limit / 100.0 * fabs(base);
	worse = it->higher_is_better ? d < 0 : d > 0;
	if (!exceeds)
		it->verdict = VERDICT_UNCHANGED;
	else if (!significant)
		it->verdict = VERDICT_NOISE;
	else
		it->verdict = worse ? VERDICT_REGRESSED : VERDICT_IMPROVED;
}

static struct pstat_compare_item *item_new(struct pstat_compare *c, char *name,
					   const char *event, const char *unit)
{
	struct pstat_compare_item *it = &c->items[c->nitems++];

	memset(it, 0, sizeof(*it));
	it->name = name;
	it->event = event;
	it->unit = unit ? unit : "";
	it->delta = it->delta_pct = NAN;
	it->t = it->df = it->p = it->ci_lo = it->ci_hi = NAN;
	it->base.value = it->new.value = NAN;
	it->base.stddev = it->new.stddev = NAN;
	return it;
}

static void item_limit(struct pstat_compare_item *it,
		       const struct pstat_compare_rules *rules)
{
	it->rule = rules ? compare_rules_find(rules, it) : NULL;
	if (it->rule) {
		it->limit_kind = it->rule->kind;
		it->limit = it->rule->limit;
	} else {
		it->limit_kind = LIMIT_RELATIVE;
		it->limit = COMPARE_DEFAULT_LIMIT_PCT;
	}
}

/*
 * The per-run values of the metric of c (a new array of c->nsamples), or
 * NULL when they cannot be had. The metric is m->scale x c / d, d the
 * counter of the run with c's CPU and thread whose value the metric
 * implies; d must be counted and have as many samples as c, all finite
 * and non-zero. The values are read back from 17 significant digits, so
 * d's is found within a relative 1e-9, through the run's index.
 */
static double *metric_samples(const struct pstat_compare_index *ix,
			      const struct pstat_compare_counter *c,
			      const struct compared_metric *m)
{
	const struct pstat_compare_counter *all = ix->run->counters;
	double want;
	size_t first, n;

	if (c->nsamples < 2 || !all_finite(c->samples, c->nsamples) ||
	    !isfinite(c->value) || !isfinite(c->metric_value) ||
	    c->metric_value == 0)
		return NULL;
	want = m->scale * c->value / c->metric_value;
	if (!isfinite(want))
		return NULL;
	compare_index_values(ix, c, want - 1e-9 * fabs(want),
			     want + 1e-9 * fabs(want), &first, &n);
	for (size_t i = first; i < first + n; i++) {
		const struct pstat_compare_counter *d = &all[ix->by_value[i]];
		double *x;
		size_t k;

		if (d == c || d->nsamples != c->nsamples)
			continue;
		x = xcalloc(c->nsamples, sizeof(*x));
		for (k = 0; k < c->nsamples; k++) {
			x[k] = m->scale * c->samples[k] / d->samples[k];
			if (!isfinite(x[k]) || d->samples[k] == 0)
				break;
		}
		if (k == c->nsamples)
			return x;
		free(x);
	}
	return NULL;
}

/* An entry for the metric of cc, on one side only. */
static void metric_missing(struct pstat_compare *c,
			   const struct pstat_compare_item *counter,
			   const struct pstat_compare_counter *cc,
			   const struct compared_metric *m,
			   const struct pstat_compare_rules *rules, int is_new)
{
	struct pstat_compare_item *it;
	struct pstat_compare_side *s;

	it = item_new(c, xasprintf("%s: %s", counter->name, cc->metric_name),
		      counter->event, cc->metric_unit);
	it->metric = cc->metric_name;
	it->higher_is_better = m->higher_is_better;
	item_limit(it, rules);
	s = is_new ? &it->new : &it->base;
	s->present = 1;
	s->status = PSTAT_COUNTED;
	s->value = cc->metric_value;
	it->verdict = VERDICT_MISSING;
	it->reason = is_new ? "only in new" : "only in base";
}

/*
 * The metric entry of a compared counter pair b (of run base) and n (of
 * new), counter their entry, when either carries a metric with a
 * direction. Returns how many entries could not be compared (missing or
 * invalid): a metric on one side only is missing as a counter would be.
 */
static size_t add_metric(struct pstat_compare *c,
			 const struct pstat_compare_item *counter,
			 const struct pstat_compare_index *base,
			 const struct pstat_compare_index *new,
			 const struct pstat_compare_counter *b,
			 const struct pstat_compare_counter *n,
			 const struct pstat_compare_rules *rules, double alpha)
{
	const struct compared_metric *bm, *nm;
	struct pstat_compare_item *it;
	struct pstat_summary bsum, nsum;
	double *bx, *nx;
	int significant = 1;

	bm = b->has_metric ? compared_metric(b->metric_name) : NULL;
	nm = n->has_metric ? compared_metric(n->metric_name) : NULL;
	if (!bm && !nm)
		return 0;
	if (bm != nm) {
		/* on one side, or (never seen) two metrics of one counter */
		if (bm)
			metric_missing(c, counter, b, bm, rules, 0);
		if (nm)
			metric_missing(c, counter, n, nm, rules, 1);
		return (bm != NULL) + (nm != NULL);
	}
	it = item_new(c, xasprintf("%s: %s", counter->name, b->metric_name),
		      counter->event, b->metric_unit);
	it->metric = b->metric_name;
	it->higher_is_better = bm->higher_is_better;
	item_limit(it, rules);
	it->base.present = it->new.present = 1;
	it->base.status = it->new.status = PSTAT_COUNTED;
	it->base.value = b->metric_value;
	it->new.value = n->metric_value;
	if (!isfinite(b->metric_value) || !isfinite(n->metric_value)) {
		it->verdict = VERDICT_INVALID;
		it->reason = !isfinite(b->metric_value) ? "no value in base" :
							  "no value in new";
		it->base.value = it->new.value = NAN;
		return 1;
	}
	bx = metric_samples(base, b, bm);
	nx = metric_samples(new, n, nm);
	if (bx && nx) {
		stats_summarize(bx, b->nsamples, &bsum);
		stats_summarize(nx, n->nsamples, &nsum);
		it->base.n = bsum.n;
		it->new.n = nsum.n;
		it->base.stddev = bsum.stddev;
		it->new.stddev = nsum.stddev;
		judge(it, &bsum, &nsum, alpha, 1);
	} else {
		/*
		 * No per-run ratios: when the counter was tested, the ratio
		 * moves significantly only if the counter did. A counter
		 * within noise makes its metric within noise too, where the
		 * limit alone would call a regression.
		 */
		if (counter->tested)
			significant = counter->p < alpha;
		judge(it, NULL, NULL, alpha, significant);
	}
	free(bx);
	free(nx);
	return 0;
}

/* Whether two strings are both NULL or equal. */
static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/* Whether two metrics of the metric engine are the same one. */
static int same_metric(const struct pstat_compare_metric *a,
		       const struct pstat_compare_metric *b)
{
	return !strcmp(a->name, b->name) && a->cpu == b->cpu &&
	       same_str(a->aggr, b->aggr) && same_str(a->thread, b->thread) &&
	       same_str(a->cgroup, b->cgroup);
}

static char *metric_item_name(const struct pstat_compare_metric *m)
{
	char place[160];

	return xasprintf("%s%s%s%s%s", m->name,
			 place_name(m->cpu, m->aggr, m->thread, place,
				    sizeof(place)),
			 m->cgroup ? " (cgroup " : "",
			 m->cgroup ? m->cgroup : "", m->cgroup ? ")" : "");
}

/* One side of a metric entry; its samples' summary as side_set's. */
static const struct pstat_summary *
metric_side(struct pstat_compare_side *s, const struct pstat_compare_metric *m,
	    struct pstat_summary *sum)
{
	s->present = 1;
	s->status = m->multiplexed ? PSTAT_MULTIPLEXED : PSTAT_COUNTED;
	s->value = m->value;
	s->n = m->nsamples;
	s->stddev = NAN;
	if (m->nsamples < 2 || !all_finite(m->samples, m->nsamples))
		return NULL;
	stats_summarize(m->samples, m->nsamples, sum);
	s->stddev = sum->stddev;
	return sum;
}

/* Why a metric cannot be compared, or NULL. */
static const char *metric_invalid(const struct pstat_compare_metric *m,
				  int is_new)
{
	if (!isfinite(m->value))
		return is_new ? "no value in new" : "no value in base";
	if (m->multiplexed)
		return is_new ? "multiplexed in new" : "multiplexed in base";
	return NULL;
}

/*
 * The metrics of the metric engine, matched by name, CPU, unit, thread
 * and cgroup: compared like counters, in their own direction (lower is
 * better when the definition does not say). Adds to *compared and
 * *broken.
 */
static void compare_engine_metrics(struct pstat_compare *out,
				   const struct pstat_compare_run *base,
				   const struct pstat_compare_run *new,
				   const struct pstat_compare_rules *rules,
				   double alpha, size_t *compared,
				   size_t *broken)
{
	char *matched = xcalloc(new->nmetrics + 1, 1);

	for (size_t i = 0; i < base->nmetrics; i++) {
		const struct pstat_compare_metric *b = &base->metrics[i], *n = NULL;
		struct pstat_summary bsum, nsum;
		const struct pstat_summary *bs, *ns;
		struct pstat_compare_item *it;
		const char *why;

		for (size_t j = 0; j < new->nmetrics && !n; j++)
			if (!matched[j] && same_metric(b, &new->metrics[j])) {
				matched[j] = 1;
				n = &new->metrics[j];
			}
		it = item_new(out, metric_item_name(b), b->name, b->unit);
		it->metric = b->name;
		it->higher_is_better = b->higher_is_better == 1;
		item_limit(it, rules);
		bs = metric_side(&it->base, b, &bsum);
		if (!n) {
			it->verdict = VERDICT_MISSING;
			it->reason = "only in base";
			(*broken)++;
			continue;
		}
		ns = metric_side(&it->new, n, &nsum);
		why = metric_invalid(b, 0);
		if (!why)
			why = metric_invalid(n, 1);
		if (why) {
			it->verdict = VERDICT_INVALID;
			it->reason = why;
			(*broken)++;
			continue;
		}
		judge(it, bs, ns, alpha, 1);
		(*compared)++;
	}
	for (size_t j = 0; j < new->nmetrics; j++) {
		const struct pstat_compare_metric *n = &new->metrics[j];
		struct pstat_compare_item *it;
		struct pstat_summary nsum;

		if (matched[j])
			continue;
		it = item_new(out, metric_item_name(n), n->name, n->unit);
		it->metric = n->name;
		it->higher_is_better = n->higher_is_better == 1;
		item_limit(it, rules);
		metric_side(&it->new, n, &nsum);
		it->verdict = VERDICT_MISSING;
		it->reason = "only in new";
		(*broken)++;
	}
	free(matched);
}

void compare_runs(const struct pstat_compare_run *base,
		  const struct pstat_compare_run *new,
		  const struct pstat_compare_rules *rules, double alpha,
		  struct pstat_compare *out)
{
	size_t nb = base->ncounters, nn = new->ncounters;
	char *matched = xcalloc(nn + 1, 1);
	struct pstat_compare_index bix, nix;
	size_t compared = 0, broken = 0;

	memset(out, 0, sizeof(*out));
	out->base_label = base->label;
	out->new_label = new->label;
	out->base_runs = base->runs;
	out->new_runs = new->runs;
	out->alpha = alpha;
	out->items = xcalloc(2 * (nb + nn) + base->nmetrics + new->nmetrics + 1,
			     sizeof(*out->items));
	compare_index_build(&bix, base);
	compare_index_build(&nix, new);

	for (size_t i = 0; i < nb; i++) {
		const struct pstat_compare_counter *b = &base->counters[i];
		const struct pstat_compare_counter *n = NULL;
		size_t occ = bix.occ[i];
		long j = compare_index_find(&nix, b, occ);
		struct pstat_compare_item *it;
		struct pstat_summary bsum, nsum;
		const struct pstat_summary *bs, *ns;
		const char *why;

		if (j >= 0) {
			matched[j] = 1;
			n = &new->counters[j];
		}
		it = item_new(out, counter_name(b, occ), b->event, b->unit);
		item_limit(it, rules);
		bs = side_set(&it->base, b, &bsum);
		if (!n) {
			it->verdict = VERDICT_MISSING;
			it->reason = "only in base";
			broken++;
			continue;
		}
		ns = side_set(&it->new, n, &nsum);
		why = invalid_reason(b, 0);
		if (!why)
			why = invalid_reason(n, 1);
		if (why) {
			it->verdict = VERDICT_INVALID;
			it->reason = why;
			broken++;
			continue;
		}
		judge(it, bs, ns, alpha, 1);
		compared++;
		broken += add_metric(out, it, &bix, &nix, b, n, rules, alpha);
	}
	for (size_t j = 0; j < nn; j++) {
		const struct pstat_compare_counter *n = &new->counters[j];
		struct pstat_compare_item *it;
		struct pstat_summary nsum;

		if (matched[j])
			continue;
		it = item_new(out, counter_name(n, nix.occ[j]), n->event,
			      n->unit);
		item_limit(it, rules);
		side_set(&it->new, n, &nsum);
		it->verdict = VERDICT_MISSING;
		it->reason = "only in new";
		broken++;
	}
	compare_engine_metrics(out, base, new, rules, alpha, &compared,
			       &broken);
	for (size_t i = 0; i < out->nitems; i++)
		out->count[out->items[i].verdict]++;

	/* a regression found stands whatever else could not be compared */
	if (!compared)
		out->status = COMPARE_EXIT_INCOMPARABLE;
	else if (out->count[VERDICT_REGRESSED])
		out->status = COMPARE_EXIT_REGRESSION;
	else if (broken)
		out->status = COMPARE_EXIT_INCOMPARABLE;
	else
		out->status = COMPARE_EXIT_OK;
	free(matched);
	compare_index_free(&bix);
	compare_index_free(&nix);
}

void compare_free(struct pstat_compare *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nitems; i++)
		free(c->items[i].name);
	free(c->items);
	memset(c, 0, sizeof(*c));
}
