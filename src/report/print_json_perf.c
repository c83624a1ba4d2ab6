/* SPDX-License-Identifier: MIT */
/*
 * --json=perf: perf stat 6.1's -j, for harnesses written for it: an
 * object per counter and line, perf's keys in perf's order,
 *
 *   {["interval" : S.NNNNNNNNN, ]["cpu" : "N", | "socket" : "S0",
 *    "aggregate-number" : N, | "thread" : "comm-tid", ]
 *    "counter-value" : "%f" | "<not counted>" | "<not supported>",
 *    "unit" : "...", "event" : "...", ["cgroup" : "...", ]
 *    ["variance" : %.2f, ]"event-runtime" : NS, "pcnt-running" : %.2f,
 *    "metric-value" : %f, "metric-unit" : "..."}
 *
 * with perf's " : " and ", ". Where perf prints no metric it writes
 * 0.000000 and "(null)" (a counted row) or "" (one that did not count),
 * and pstat the same. Unlike perf, strings are escaped (by jansson: an
 * event name with a quote stays one JSON string) and numbers are in the
 * C locale whatever LC_NUMERIC says. A metric of -M or --metric is an
 * object of its own after the counters: the place keys, then
 * "metric-value" and "metric-unit" (its name). With -o FILE the lines
 * follow perf's "# started on" and a blank line, as perf writes them.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/topology.h"
#include "base/util.h"
#include "report/print.h"
#include "report/print_json_priv.h"

struct json_perf {
	locale_t c_locale;
	unsigned long intervals;
};

/* s as a JSON string, escaped by jansson. */
static void jp_string(FILE *out, const char *s)
{
	json_t *v = jstr(s ? s : "");
	char buf[256];
	size_t n = json_dumpb(v, buf, sizeof(buf), JSON_ENCODE_ANY);

	if (n <= sizeof(buf)) {
		fwrite(buf, 1, n, out);
	} else {
		char *big = json_dumps(v, JSON_ENCODE_ANY);

		fputs(big ? big : "\"\"", out);
		free(big);
	}
	json_decref(v);
}

static void jp_key_str(FILE *out, const char *key, const char *s)
{
	fprintf(out, "\"%s\" : ", key);
	jp_string(out, s);
	fputs(", ", out);
}

/* The keys before the counter's: the interval, the place. */
static void jp_lead(FILE *out, const struct pstat_report *r,
		    const struct pstat_aggr_id *aggr, int aggr_nr, int cpu,
		    const char *thread)
{
	if (r->is_interval)
		fprintf(out, "\"interval\" : %lu.%09lu, ",
			(unsigned long)(r->interval_end_ns / 1000000000),
			(unsigned long)(r->interval_end_ns % 1000000000));
	if (aggr) {
		char name[64];

		jp_key_str(out, topo_aggr_key(aggr->mode),
			   topo_aggr_name(aggr->mode, aggr, name,
					  sizeof(name)));
		fprintf(out, "\"aggregate-number\" : %d, ", aggr_nr);
	} else if (cpu >= 0) {
		fprintf(out, "\"cpu\" : \"%d\", ", cpu);
	}
	if (thread)
		jp_key_str(out, "thread", thread);
}

/*
 * noise: -r N, N > 1, where perf puts "variance" on every line, an
 * interval's too (0.00 there, as CSV's noise column)
 */
static void jp_row(FILE *out, const struct pstat_report *r,
		   const struct pstat_row *row, bool noise)
{
	bool counted = row->status == PSTAT_COUNTED ||
		       row->status == PSTAT_MULTIPLEXED;

	putc('{', out);
	jp_lead(out, r, row->aggr, row->aggr_nr, row->cpu, row->thread);
	if (counted)
		fprintf(out, "\"counter-value\" : \"%f\", ", row->value);
	else
		fprintf(out, "\"counter-value\" : \"%s\", ",
			row->status == PSTAT_NOT_COUNTED ? "<not counted>" :
							   "<not supported>");
	jp_key_str(out, "unit", row->unit ? row->unit : "");
	jp_key_str(out, "event", row->event);
	if (row->cgroup)
		jp_key_str(out, "cgroup", row->cgroup);
	if (noise || (row->stats && row->stats->n > 1))
		fprintf(out, "\"variance\" : %.2f, ",
			counted && row->stats && row->stats->n > 1 ?
				stats_rel_stderr_pct(row->stats) : 0.0);
	fprintf(out, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
		(unsigned long long)row->run,
		row->run != row->ena && row->ena ?
			100.0 * (double)row->run / (double)row->ena :
			100.0);
	if (counted && row->has_metric) {
		double v = row->metric.value;
		/* a rate as the table shows it: 1.656 K/sec, as perf's */
		const char *unit = strcmp(row->metric.name, "/sec") ?
					   row->metric.name :
					   print_rate_unit(&v);

		fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : ", v);
		jp_string(out, unit);
	} else {
		fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : \"%s\"",
			0.0, counted ? "(null)" : "");
	}
	fputs("}\n", out);
}

static void jp_metric(FILE *out, const struct pstat_report *r,
		      const struct pstat_metric_value *m)
{
	putc('{', out);
	jp_lead(out, r, m->aggr, m->aggr_nr, m->cpu, m->thread);
	if (m->cgroup)
		jp_key_str(out, "cgroup", m->cgroup);
	fprintf(out, "\"metric-value\" : %f, \"metric-unit\" : ",
		isfinite(m->value) ? m->value : 0.0);
	jp_string(out, m->about->name);
	fputs("}\n", out);
}

static void jp_report(struct pstat_printer *p, const struct pstat_report *r)
{
	struct json_perf *jp = p->priv;
	size_t n = r->order ? r->norder : r->nrows;
	locale_t old = (locale_t)0;

	if (!jp) {
		char buf[64];
		time_t t = r->started_at.tv_sec;

		p->priv = jp = xcalloc(1, sizeof(*jp));
		jp->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		/* perf -j -o FILE begins so too: a harness may skip 2 lines */
		if (p->cfg.started_header && ctime_r(&t, buf))
			fprintf(p->out, "# started on %s\n", buf);
	}
	if (jp->c_locale)
		old = uselocale(jp->c_locale);
	json_init();
	for (size_t k = 0; k < n && !p->cfg.metric_only; k++)
		jp_row(p->out, r, &r->rows[r->order ? r->order[k] : k],
		       p->cfg.repeat > 1 || r->runs > 1);
	for (size_t k = 0; k < r->nmetrics; k++)
		jp_metric(p->out, r, &r->metrics[k]);
	if (old)
		uselocale(old);
}

/* After intervals, perf --summary's lines have no "interval" key. */
static void jp_summary(struct pstat_printer *p, const struct pstat_report *r)
{
	struct json_perf *jp = p->priv;

	if (jp && jp->intervals && p->cfg.no_interval_summary)
		return;
	jp_report(p, r);
}

static void jp_interval(struct pstat_printer *p, const struct pstat_report *r)
{
	jp_report(p, r);
	((struct json_perf *)p->priv)->intervals++;
}

static void jp_free(struct pstat_printer *p)
{
	struct json_perf *jp = p->priv;

	if (jp && jp->c_locale)
		freelocale(jp->c_locale);
	free(jp);
	p->priv = NULL;
}

const struct pstat_printer_ops print_json_perf_ops = {
	.summary = jp_summary,
	.interval = jp_interval,
	.free = jp_free,
};
