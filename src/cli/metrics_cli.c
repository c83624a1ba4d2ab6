/* SPDX-License-Identifier: MIT */
/*
 * From the metric options to a metric set and the events it reads:
 * -M and --topdown pick from the built-in library, --metric and
 * --metrics-file add the user's own; every event a formula names is
 * resolved as -e would, shared with the -e events that count the same
 * thing, or added (a top-down group whole, its slots event first).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/metrics_cli.h"
#include "events/evspec.h"
#include "events/hybrid.h"
#include "events/metric_budget.h"
#include "report/print.h"

int metrics_cli_wanted(const struct pstat_opts *o)
{
	return o->nmetrics || o->nmetric_defs || o->nmetric_files ||
	       o->td_level;
}

/*
 * An error in expression text at offset: the message, then the text
 * with a caret under the column (as the hint, on two lines).
 */
static void report_at(const char *text, long offset, const char *what,
		      const char *whose, const char *msg)
{
	msg_error("%s '%s': %s", what, whose, msg);
	if (offset < 0 || (size_t)offset > strlen(text) || strlen(text) > 200 ||
	    strpbrk(text, "\n\r\t"))
		return;
	msg_hint("%s", text);
	/* under the text of the hint: "pstat: hint: " is 13 columns */
	fprintf(stderr, "%*s^\n", 13 + (int)offset, "");
	fflush(stderr);
}

static int add_user_metrics(struct metrics_cli *mc, const struct pstat_opts *o)
{
	struct pstat_error err = { "", -1 };

	for (size_t i = 0; i < o->nmetric_defs; i++) {
		if (metric_set_add_line(&mc->set, o->metric_defs[i], &err)) {
			report_at(o->metric_defs[i], err.offset,
				  "invalid --metric",
				  o->metric_defs[i], err.msg);
			return -1;
		}
	}
	for (size_t i = 0; i < o->nmetric_files; i++) {
		if (metric_set_add_file(&mc->set, o->metric_files[i], &err)) {
			msg_error("%s", err.msg);
			return -1;
		}
	}
	return 0;
}

/*
 * Say which metrics of the groups list names the vendor's data has and
 * pstat does not compute, so that a group is never silently smaller
 * than perf's.
 */
static void warn_left_out(const struct pstat_metric_lib *lib,
			  const char *opt, const char *list)
{
	char *s = xstrdup(list), *save = NULL;

	for (char *w = strtok_r(s, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		struct metric_left_out lo[3];
		size_t n;

		w = str_trim(w);
		n = metric_vendor_left_out(lib, w, lo, ARRAY_SIZE(lo));
		if (!n)
			continue;
		msg_warn("%s%s: %zu of the group's metrics in the vendor's data %s not computed: %s (%s)%s%s%s%s%s",
			 opt, w, n, n == 1 ? "is" : "are", lo[0].name, lo[0].why,
			 n > 1 ? ", " : "", n > 1 ? lo[1].name : "",
			 n > 2 ? ", " : "", n > 2 ? lo[2].name : "",
			 n > 3 ? ", ..." : "");
		msg_hint("'pstat list metrics' lists them all, with why");
	}
	free(s);
}

/* -M lists and --topdown/--td-level, from the library. */
static int add_lib_metrics(struct metrics_cli *mc, const struct pstat_opts *o)
{
	struct pstat_error err = { "", -1 };

	for (size_t i = 0; i < o->nmetrics; i++) {
		if (metric_lib_select(&mc->lib, &mc->set, o->metrics[i],
				      &err)) {
			msg_error("-M %s: %s", o->metrics[i], err.msg);
			return -1;
		}
		warn_left_out(&mc->lib, "-M ", o->metrics[i]);
	}
	for (uint64_t l = 1; l <= o->td_level; l++) {
		char group[16];

		snprintf(group, sizeof(group), "TopdownL%u", (unsigned)l);
		if (metric_lib_select(&mc->lib, &mc->set, group, &err)) {
			msg_error("%s: %s",
				  o->td_level > 1 ? "--td-level" : "--topdown",
				  err.msg);
			return -1;
		}
		warn_left_out(&mc->lib,
			      o->td_level > 1 ? "--td-level " : "--topdown ",
			      group);
	}
	return 0;
}

/* Whether the set counts Skylake's topdown events, which with SMT on
 * count the whole core (any=1): only -a's sum over all CPUs is right. */
static int check_skl_smt(struct metrics_cli *mc, const struct pstat_opts *o,
			 struct pstat_pmus *pmus)
{
	const struct pstat_pmu *core = pmus_find(pmus, mc->lib.core);
	const struct pstat_pmu_alias *a;

	if (!(mc->lib.families & METRIC_FAM_INTEL_SKL) || !core)
		return 0;
	a = pmu_alias_find(core, "topdown-total-slots");
	if (!a || a->scale != 2)
		return 0;
	for (size_t i = 0; i < mc->set.ninputs; i++) {
		if (strncmp(mc->set.inputs[i], "topdown-", 8))
			continue;
		if ((o->all_cpus || o->cpu_list) && !o->no_aggr)
			return 0;
		msg_error("top-down with SMT on needs -a without -A: topdown-total-slots counts both threads of a core");
		msg_hint("count system-wide, summed over the CPUs: pstat -a --topdown ...");
		return -1;
	}
	return 0;
}

/*
 * Skylake-class top-down: topdown-total-slots (cycles of both threads)
 * goes on cycles' fixed counter and the other four events on the four
 * general-purpose counters. While the NMI watchdog holds that fixed
 * counter the kernel would open their group and never schedule it, so
 * the group is not made, as perf then makes none: the events go in the
 * weak groups of their metrics, which fit beside the watchdog. Said, as
 * perf says it.
 */
static void skl_topdown_watchdog(struct metrics_cli *mc,
				 const char *sysfs_root)
{
	struct pstat_metric_set *set = &mc->set;
	size_t kept = 0;
	int dropped = 0;

	if (!(mc->lib.families & METRIC_FAM_INTEL_SKL) ||
	    !metric_budget_watchdog(sysfs_root))
		return;
	for (size_t g = 0; g < set->ngroups; g++) {
		struct pstat_metric_group *grp = &set->groups[g];

		if (grp->n && !strcmp(set->inputs[grp->inputs[0]],
				      "topdown-total-slots")) {
			free(grp->inputs);
			dropped = 1;
			continue;
		}
		set->groups[kept++] = *grp;
	}
	set->ngroups = kept;
	if (!dropped)
		return;
	msg_warn("the NMI watchdog holds the counter topdown-total-slots needs: the top-down events are not counted as one group, and may be multiplexed");
	msg_hint("to count them together: echo 0 > /proc/sys/kernel/nmi_watchdog");
}

/* Whether two attrs count the same thing. */
static int same_event(const struct perf_event_attr *a,
		      const struct perf_event_attr *b)
{
	return a->type == b->type && a->config == b->config &&
	       a->config1 == b->config1 && a->config2 == b->config2 &&
	       a->exclude_user == b->exclude_user &&
	       a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv;
}

/*
 * How an event of a generic one expanded on a core PMU is written
 * alone: its name ("cpu_core/cycles/"), a modifier moved after the
 * PMU's slash ("cpu_core/cycles:u/" is written cpu_core/cycles/u). A
 * new string, or NULL when the name is not PMU/.../.
 */
static char *pmu_spelling(const struct pstat_event *ev)
{
	size_t pl = ev->pmu ? strlen(ev->pmu) : 0, nl = strlen(ev->name);
	const char *in = ev->name + pl + 1, *colon;

	if (!ev->per_core_pmu || !pl || nl < pl + 2 ||
	    strncmp(ev->name, ev->pmu, pl) || ev->name[pl] != '/' ||
	    ev->name[nl - 1] != '/')
		return NULL;
	colon = memchr(in, ':', (size_t)(ev->name + nl - 1 - in));
	return colon ? xasprintf("%.*s/%.*s", (int)(colon - ev->name),
				 ev->name, (int)(ev->name + nl - 2 - colon),
				 colon + 1) :
		       xstrdup(ev->name);
}

/*
 * ev's spelling (pmu_spelling) when it encodes to one event of ev's
 * PMU: the PMU's own event of the name where it has one (its sysfs
 * alias of instructions, as perf reads cpu_core/instructions/), else
 * the generic event on that PMU. Else NULL.
 */
static char *pmu_spec(const struct pstat_event *ev,
		      struct pstat_encode_ctx *ctx)
{
	struct pstat_error err = { "", -1 };
	struct pstat_evlist one = { 0 };
	char *spec = pmu_spelling(ev);

	if (spec && (encode_string(spec, ctx, &one, &err) || one.n != 1 ||
		     !one.ev[0].pmu || strcmp(one.ev[0].pmu, ev->pmu))) {
		free(spec);
		spec = NULL;
	}
	evlist_free(&one);
	return spec;
}

/*
 * A PMU's event alias written without its PMU (an Arm core's
 * dtlb_walk, which each core PMU of a big.LITTLE lists) as that PMU's
 * own, pmu/name/, when it encodes to the one event ev; else NULL.
 */
static char *alias_spec(const char *input, const struct pstat_event *ev,
			struct pstat_encode_ctx *ctx)
{
	struct pstat_error err = { "", -1 };
	struct pstat_evlist one = { 0 };
	char *spec;

	if (strpbrk(input, "/:@{},=") || strcmp(ev->name, input))
		return NULL;
	spec = xasprintf("%s/%s/", ev->pmu, input);
	if (encode_string(spec, ctx, &one, &err) || one.n != 1 ||
	    !one.ev[0].pmu || strcmp(one.ev[0].pmu, ev->pmu) ||
	    !same_event(&one.ev[0].attr, &ev->attr)) {
		free(spec);
		spec = NULL;
	}
	evlist_free(&one);
	return spec;
}

/*
 * Input i's spelling on each core PMU into spec[npmu], when it is one
 * event per core PMU (a hybrid's cycles); else spec stays NULL.
 */
static void input_per_pmu(const char *input, struct pstat_encode_ctx *ctx,
			  const char *const *pmus, size_t npmu, char **spec)
{
	struct pstat_error err = { "", -1 };
	struct pstat_evlist ev = { 0 };
	size_t found = 0;

	if (!encode_string(input, ctx, &ev, &err) && ev.n == npmu) {
		for (size_t k = 0; k < ev.n; k++) {
			for (size_t p = 0; p < npmu; p++) {
				if (spec[p] || !ev.ev[k].pmu ||
				    strcmp(ev.ev[k].pmu, pmus[p]))
					continue;
				spec[p] = ev.ev[k].per_core_pmu ?
						  pmu_spec(&ev.ev[k], ctx) :
						  alias_spec(input, &ev.ev[k], ctx);
				found += spec[p] != NULL;
			}
		}
	}
	if (found != npmu)
		for (size_t p = 0; p < npmu; p++) {
			free(spec[p]);
			spec[p] = NULL;
		}
	evlist_free(&ev);
}

/*
 * On a CPU of more than one core PMU, the metrics over events counted
 * once per core PMU are evaluated once per PMU (metric_set_split_pmus).
 */
static int split_core_pmus(struct metrics_cli *mc,
			   struct pstat_encode_ctx *ctx)
{
	struct pstat_error err = { "", -1 };
	struct pstat_core_pmu *cores = NULL;
	size_t npmu = hybrid_core_pmus(ctx->pmus, &cores);
	size_t ni = mc->set.ninputs;
	const char **pmus;
	char **spec;
	int r;

	if (npmu < 2) {
		hybrid_core_pmus_free(cores, npmu);
		return 0;
	}
	pmus = xcalloc(npmu, sizeof(*pmus));
	for (size_t p = 0; p < npmu; p++)
		pmus[p] = cores[p].pmu->name;
	spec = xcalloc(ni * npmu + 1, sizeof(*spec));
	for (size_t i = 0; i < ni; i++)
		input_per_pmu(mc->set.inputs[i], ctx, pmus, npmu,
			      &spec[i * npmu]);
	r = metric_set_split_pmus(&mc->set, pmus, npmu, spec, &err);
	if (r < 0)
		msg_error("%s", err.msg);
	for (size_t i = 0; i < ni * npmu; i++)
		free(spec[i]);
	free(spec);
	free(pmus);
	hybrid_core_pmus_free(cores, npmu);
	return r < 0 ? -1 : 0;
}

/* The metric and offset where input i is first written, for a caret. */
static void input_origin(const struct pstat_metric_set *set, size_t i,
			 const char **name, const char **text, long *off)
{
	*name = "?";
	*text = "";
	*off = -1;
	for (size_t m = 0; m < set->n; m++) {
		const struct pstat_metric_entry *e = &set->m[m];

		for (size_t k = 0; e->def.expr && k < mexpr_nnames(e->def.expr);
		     k++) {
			if (e->refs[k].kind != METRIC_REF_INPUT ||
			    e->refs[k].idx != i)
				continue;
			*name = e->def.name;
			*text = e->def.text;
			*off = mexpr_name_offset(e->def.expr, k);
			return;
		}
	}
}

/*
 * Encode list (one event, or a {group}) onto evl. Returns the number of
 * rows it added, their first in *first, or -1 after reporting.
 */
static int encode_list(const char *list, struct pstat_encode_ctx *ctx,
		       struct pstat_evlist *evl, size_t *first,
		       const struct pstat_metric_set *set, size_t input)
{
	struct pstat_error err = { "", -1 };
	int before = evl->nrows, r = 0;
	const char *name, *text;
	long off;

	if (encode_string(list, ctx, evl, &err)) {
		input_origin(set, input, &name, &text, &off);
		report_at(text, off, "metric", name, err.msg);
		r = -1;
	}
	*first = (size_t)before;
	return r ? -1 : evl->nrows - before;
}

/* The row of an event of evl counting what spec counts, or -1. */
static int shared_row(const char *spec, struct pstat_encode_ctx *ctx,
		      const struct pstat_evlist *evl)
{
	struct pstat_error err = { "", -1 };
	struct pstat_evlist one = { 0 };
	int row = -1;

	if (!encode_string(spec, ctx, &one, &err) && one.n == 1) {
		for (size_t i = 0; i < evl->n && row < 0; i++)
			if (same_event(&evl->ev[i].attr, &one.ev[0].attr))
				row = evl->ev[i].row;
	}
	/*
	 * A core PMU's share of a generic -e event (-e instructions made
	 * cpu_core/instructions/), which spec names (split_core_pmus) but
	 * encodes as the PMU's own alias of it
	 */
	for (size_t i = 0; i < evl->n && row < 0; i++) {
		char *sp = pmu_spelling(&evl->ev[i]);

		if (sp && !strcmp(sp, spec))
			row = evl->ev[i].row;
		free(sp);
	}
	evlist_free(&one);
	return row;
}

static int add_group(struct metrics_cli *mc, const struct pstat_metric_group *g,
		     struct pstat_encode_ctx *ctx, struct pstat_evlist *evl)
{
	char *list = xstrdup("{");
	size_t first;
	int n;

	for (size_t k = 0; k <= g->n; k++) {
		char *t = k < g->n ? xasprintf("%s%s%s", list, k ? "," : "",
					       mc->set.inputs[g->inputs[k]]) :
				     xasprintf("%s}%s", list, g->weak ? ":W" : "");

		free(list);
		list = t;
	}
	n = encode_list(list, ctx, evl, &first, &mc->set, g->inputs[0]);
	free(list);
	if (n < 0)
		return -1;
	/* one row per event of the group, in its order */
	for (size_t k = 0; k < g->n && (int)k < n; k++)
		mc->input_row[g->inputs[k]] = (int)(first + k);
	return 0;
}

/*
 * How input spec may be grouped (metric_set_group_inputs): software
 * events and tracepoints (the kernel's software context) with any
 * group; an event of a core PMU with that PMU's (generic hardware and
 * cache events, raw rNNN and cpu/.../ are the core PMU's); an event of
 * another PMU with its PMU's, unless it counts on CPUs of its own
 * (uncore: not grouped, as its counts are system-wide) or is a
 * breakpoint; what is not one event, not grouped.
 */
static long input_class(const char *spec, struct pstat_encode_ctx *ctx,
			long core_type, struct perf_event_attr *attr)
{
	struct pstat_error err = { "", -1 };
	struct pstat_evlist one = { 0 };
	long k = METRIC_CLASS_NONE;

	if (!encode_string(spec, ctx, &one, &err) && one.n == 1 &&
	    !one.ev[0].cpus) {
		const struct perf_event_attr *a = &one.ev[0].attr;

		*attr = *a;
		switch (a->type) {
		case PERF_TYPE_SOFTWARE:
		case PERF_TYPE_TRACEPOINT:
			k = METRIC_CLASS_ANY;
			break;
		case PERF_TYPE_BREAKPOINT:
			break;
		case PERF_TYPE_HARDWARE:
		case PERF_TYPE_HW_CACHE:
			/* a hybrid's core PMU, in the config's high half */
			k = a->config >> 32 ? (long)(a->config >> 32) :
					      core_type;
			break;
		case PERF_TYPE_RAW:
			k = core_type;
			break;
		default:
			k = (long)a->type;
		}
	}
	evlist_free(&one);
	return k;
}

/* The core PMU whose class is k, or NULL. */
static const struct pstat_pmu *class_pmu(const struct pstat_pmu **all,
					 size_t n, long k)
{
	for (size_t i = 0; i < n; i++)
		if ((long)all[i]->type == k)
			return all[i];
	return NULL;
}

/*
 * The budget of each core PMU (metric_budget.h), into *out; the
 * counter each input takes on its PMU into counter[]. Returns how many
 * budgets.
 */
static size_t budgets(struct metrics_cli *mc, struct pstat_encode_ctx *ctx,
		      const char *sysfs_root, const long *klass,
		      const struct perf_event_attr *attr, int *counter,
		      struct pstat_metric_budget **out)
{
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(ctx->pmus, &all), nb = 0;
	int watchdog = metric_budget_watchdog(sysfs_root);

	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		struct pstat_metric_budget *b = &(*out)[nb];

		if (!metric_budget_core(&mc->lib, all[i], watchdog, b)) {
			b->klass = (long)all[i]->type;
			nb++;
		}
	}
	for (size_t i = 0; i < mc->set.ninputs; i++) {
		const struct pstat_pmu *p = class_pmu(all, n, klass[i]);

		counter[i] = klass[i] == METRIC_CLASS_ANY ? METRIC_CTR_NONE :
			     p ? metric_budget_counter(&mc->lib, p, &attr[i]) :
				 METRIC_CTR_GP;
	}
	free(all);
	return nb;
}

/* The weak groups of the metrics' events not yet counted. */
static void group_metrics(struct metrics_cli *mc, struct pstat_encode_ctx *ctx,
			  const char *sysfs_root)
{
	const struct pstat_pmu *core = pmus_find(ctx->pmus, mc->lib.core);
	long core_type = core ? (long)core->type : PERF_TYPE_RAW;
	size_t n = mc->set.ninputs, nb;
	long *klass = xcalloc(n + 1, sizeof(*klass));
	int *counter = xcalloc(n + 1, sizeof(*counter));
	struct perf_event_attr *attr = xcalloc(n + 1, sizeof(*attr));
	struct pstat_metric_budget *b;

	for (size_t i = 0; i < n; i++) {
		klass[i] = METRIC_CLASS_NONE;
		if (mc->input_row[i] >= 0)
			continue;
		klass[i] = input_class(mc->set.inputs[i], ctx, core_type,
				       &attr[i]);
		/* another spelling of an event: read where that is */
		for (size_t j = 0; j < i && klass[i] != METRIC_CLASS_NONE; j++)
			if (klass[j] != METRIC_CLASS_NONE &&
			    same_event(&attr[i], &attr[j]))
				klass[i] = METRIC_CLASS_NONE;
	}
	nb = budgets(mc, ctx, sysfs_root, klass, attr, counter, &b);
	metric_set_group_inputs(&mc->set, klass, counter, b, nb);
	free(b);
	free(klass);
	free(counter);
	free(attr);
}

/*
 * The events the metrics read: the top-down groups; those the -e
 * events count already, read there; the metrics' weak groups; the
 * rest one by one.
 */
static int add_inputs(struct metrics_cli *mc, struct pstat_encode_ctx *ctx,
		      struct pstat_evlist *evl, int grouped,
		      const char *sysfs_root)
{
	const struct pstat_metric_set *set = &mc->set;
	size_t ntopdown = set->ngroups;

	mc->input_row = xmalloc((set->ninputs + 1) * sizeof(*mc->input_row));
	for (size_t i = 0; i < set->ninputs; i++)
		mc->input_row[i] = -1;
	for (size_t g = 0; g < ntopdown; g++)
		if (add_group(mc, &set->groups[g], ctx, evl))
			return -1;
	for (size_t i = 0; i < set->ninputs; i++)
		if (mc->input_row[i] < 0)
			mc->input_row[i] = shared_row(set->inputs[i], ctx, evl);
	if (grouped)
		group_metrics(mc, ctx, sysfs_root);
	for (size_t g = ntopdown; g < set->ngroups; g++)
		if (add_group(mc, &set->groups[g], ctx, evl))
			return -1;
	for (size_t i = 0; i < set->ninputs; i++) {
		size_t first;
		int n;

		if (mc->input_row[i] >= 0)
			continue;
		mc->input_row[i] = shared_row(set->inputs[i], ctx, evl);
		if (mc->input_row[i] >= 0)
			continue;
		n = encode_list(set->inputs[i], ctx, evl, &first, set, i);
		if (n < 0)
			return -1;
		if (n != 1) {
			const char *name, *text;
			long off;

			input_origin(set, i, &name, &text, &off);
			report_at(text, off, "metric", name,
				  "an input must be one event, not a pattern");
			return -1;
		}
		mc->input_row[i] = (int)first;
	}
	return 0;
}

/* The event of evl whose row is row, or NULL. */
static const struct pstat_event *row_event(const struct pstat_evlist *evl,
					   int row)
{
	for (size_t i = 0; i < evl->n; i++)
		if (evl->ev[i].row == row)
			return &evl->ev[i];
	return NULL;
}

/*
 * Say at -v which metrics read their events from more than one group,
 * one of them a metric's weak group (metric_set_group_inputs: the
 * PMU's counters could not hold their events with the others'), and
 * which are ungrouped because of the NMI watchdog. The first are not
 * marked: the counts are over the same time unless one was
 * multiplexed, and then the metric is marked so.
 */
static void note_split(const struct metrics_cli *mc,
		       const struct pstat_evlist *evl)
{
	const struct pstat_metric_set *set = &mc->set;

	for (size_t m = 0; m < set->n && msg_verbose >= 1; m++) {
		int group = -1, split = 0, weak = 0;

		if (!set->m[m].shown)
			continue;
		/* its inputs, ascending as the loop over all of them was */
		for (size_t k = 0; k < set->m[m].nins; k++) {
			const struct pstat_event *ev = row_event(
				evl, mc->input_row[set->m[m].ins[k]]);

			if (!ev)
				continue;
			weak |= ev->weak;
			split |= group >= 0 && ev->group != group;
			group = ev->group;
		}
		if (split && weak)
			msg_debug(1, "metric '%s' reads events of more than one group: the PMU's counters cannot hold them with the other metrics' (its counts are taken together unless multiplexed)",
				  set->m[m].def.name);
		if (set->m[m].beside_watchdog)
			msg_debug(1, "metric '%s': its events fit the PMU only with the counter the NMI watchdog holds, and are counted ungrouped (sysctl kernel.nmi_watchdog=0 lets them be grouped)",
				  set->m[m].def.name);
	}
}

/*
 * Whether a core PMU counts top-down (slots, or an E-core's topdown-*
 * events): only then can the vendor's data have a Default group, and
 * only then is it read on a run of the default events.
 */
int metrics_cli_build(struct metrics_cli *mc, const struct pstat_opts *o,
		      struct pstat_encode_ctx *ctx, const char *sysfs_root,
		      struct pstat_evlist *evl)
{
	struct pstat_error err = { "", -1 };

	memset(mc, 0, sizeof(*mc));
	if (!metrics_cli_wanted(o)) {
		/* (not with -G: the cgroups are applied to the events already) */
		if (o->nevents || o->null_run || o->sim || o->ncgroups ||
		    o->for_each_cgroup ||
		    !metrics_default_add(mc, ctx->pmus, sysfs_root, evl))
			return 0;
	} else {
		metric_lib_load(&mc->lib, ctx->pmus, sysfs_root);
		if (add_user_metrics(mc, o) || add_lib_metrics(mc, o))
			return -1;
	}
	mc->active = 1;
	if (metric_set_resolve(&mc->set, &mc->lib, &err)) {
		msg_error("%s", err.msg);
		return -1;
	}
	if (mc->perf_default_rows && !metrics_default_inputs_ok(mc, ctx)) {
		metrics_cli_free(mc);
		return 0;
	}
	if (check_skl_smt(mc, o, ctx->pmus))
		return -1;
	if (split_core_pmus(mc, ctx))
		return -1;
	metric_lib_group_inputs(&mc->lib, &mc->set);
	skl_topdown_watchdog(mc, sysfs_root);
	if (add_inputs(mc, ctx, evl, !o->metric_no_group, sysfs_root))
		return -1;
	if (!o->metric_no_group)
		note_split(mc, evl);
	return 0;
}

void metrics_cli_free(struct metrics_cli *mc)
{
	if (!mc)
		return;
	metric_set_free(&mc->set);
	metric_lib_free(&mc->lib);
	free(mc->input_row);
	memset(mc, 0, sizeof(*mc));
}
