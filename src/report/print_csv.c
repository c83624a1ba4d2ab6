/* SPDX-License-Identifier: MIT */
/*
 * The CSV printer (-x SEP), in perf stat's field order so that scripts
 * written for `perf stat -x` keep working:
 *
 *   [time|"summary",][CPUn|comm-tid,]value,unit,event,[noise%,]
 *   run-time-ns,pcnt-running,metric-value,metric-unit
 *
 * Unlike perf, a field that holds the separator, a double quote or a
 * line break is quoted ("..." with "" doubling), so every line of one
 * run splits into the same number of fields; the padding of the time
 * column never is. The one comment line is perf's "# started on".
 */
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "report/print.h"
#include "report/stats.h"

struct print_csv {
	/*
	 * Numbers are formatted under this C locale (uselocale is
	 * per-thread), whatever LC_NUMERIC the table printer needs.
	 */
	locale_t c_locale;
	bool header_done;
	bool metric_header_done;    /* --metric-only's names */
	/*
	 * The -r noise column, decided at the first report so that every
	 * line of the output has the same fields.
	 */
	bool noise_decided;
	bool noise;
	unsigned long intervals;
	/* the line being built, grown to the longest line and kept */
	char *line;
	size_t line_alloc;
	/*
	 * The bytes a field's scan stops at: 1 for its end, 2 for what
	 * makes it quoted (a quote, a line break, a one-character
	 * separator).
	 */
	unsigned char stop[256];
	/*
	 * The fields after the place columns of the last line of a row
	 * with no value, no metric and no run time ("<not counted>,msec,
	 * task-clock,0,100.00,,"): each idle thread of --per-thread ends
	 * its line of an event so. Forgotten at each report.
	 */
	struct {
		const char *event, *unit, *cgroup;
		enum pstat_status status;
		bool valid;
		char *text;
		size_t len, alloc;
	} tail;
};

/*
 * A line is built in the printer's buffer and written with one call at
 * csv_end: with thousands of lines an interval, a stdio call per field
 * and per separator cost more than the fields.
 */
struct csv_line {
	FILE *out;
	const char *sep;
	size_t seplen;
	int nfields;
	struct print_csv *pc;
	size_t len;
};

/*
 * Whether s needs quotes: a quote, a line break or the separator in it.
 * One pass (a table look-up a byte) for a one-character separator, which
 * also gives the length.
 */
static bool csv_needs_quotes(const struct csv_line *l, const char *s,
			     size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	const unsigned char *stop = l->pc->stop;
	size_t n = 0;

	while (!stop[u[n]])
		n++;
	if (stop[u[n]] == 2) {
		*len = n + strlen(s + n);
		return true;
	}
	*len = n;
	return l->seplen > 1 && strstr(s, l->sep);
}

/* Room for n more bytes of the line: where they go. */
static char *csv_room(struct csv_line *l, size_t n)
{
	struct print_csv *pc = l->pc;

	if (pc->line_alloc - l->len < n)
		xgrow((void **)&pc->line, &pc->line_alloc, l->len + n, 1);
	return pc->line + l->len;
}

static void csv_field(struct csv_line *l, const char *s)
{
	size_t len;
	bool quote = csv_needs_quotes(l, s, &len);
	/* quoted, each character may be doubled */
	char *d = csv_room(l, l->seplen + 2 * len + 2), *start = d;

	if (l->nfields++) {
		memcpy(d, l->sep, l->seplen);
		d += l->seplen;
	}
	if (!quote) {
		memcpy(d, s, len);
		d += len;
	} else {
		*d++ = '"';
		for (; *s; s++) {
			if (*s == '"')
				*d++ = '"';
			*d++ = *s;
		}
		*d++ = '"';
	}
	l->len += (size_t)(d - start);
}

/*
 * The first field, the interval's time or "summary", right-aligned as
 * perf pads it: the padding is alignment, and a separator in it is no
 * reason to quote (with -x' ' perf's own test reads the time with awk).
 * A field whose text holds the separator (-x.) is quoted whole, padding
 * and all, as any other.
 */
static void csv_lead(struct csv_line *l, const char *s)
{
	size_t pad = strspn(s, " "), len;

	/* (always a line's first field: no separator goes before it) */
	if (l->nfields || !s[pad] || csv_needs_quotes(l, s + pad, &len)) {
		csv_field(l, s);
		return;
	}
	memcpy(csv_room(l, pad + len), s, pad + len);
	l->len += pad + len;
	l->nfields++;
}

/*
 * End the line and write it; l starts the next line. pstat prints from
 * one thread: no stream lock.
 */
static void csv_end(struct csv_line *l)
{
	*csv_room(l, 1) = '\n';
	fwrite_unlocked(l->pc->line, 1, l->len + 1, l->out);
	l->len = 0;
	l->nfields = 0;
}

/*
 * Numbers go through csv_field too: a separator such as "." or a digit
 * is odd but allowed, and must not split a number.
 */
__attribute__((format(printf, 2, 3)))
static void csv_fieldf(struct csv_line *l, const char *fmt, ...)
{
	/* Enough for "%.2f" of DBL_MAX (309 digits). */
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	csv_field(l, buf);
}

/*
 * "%.*f" of v without printf's multi-precision path (print_fixed), which
 * cost more than the rest of a line with thousands of lines an interval;
 * the C locale is in force (csv_rows).
 */
static void csv_fixed(struct csv_line *l, double v, int prec)
{
	char buf[512];

	print_fixed(buf, sizeof(buf), v, prec, 0);
	csv_field(l, buf);
}

static void csv_u64(struct csv_line *l, uint64_t v)
{
	char buf[24], *d = buf + sizeof(buf);

	*--d = '\0';
	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	csv_field(l, d);
}

static void csv_value(struct csv_line *l, const struct pstat_row *row)
{
	switch (row->status) {
	case PSTAT_COUNTED:
	case PSTAT_MULTIPLEXED:
		csv_fixed(l, row->value, print_value_frac(row) ? 2 : 0);
		break;
	case PSTAT_NOT_SUPPORTED:
		csv_field(l, "<not supported>");
		break;
	/*
	 * perf has only these two words; a counter that failed to open
	 * did not count, and scripts already look for "<not counted>".
	 */
	case PSTAT_NOT_COUNTED:
	case PSTAT_ERROR:
	default:
		csv_field(l, "<not counted>");
		break;
	}
}

/*
 * perf prints ratios per instruction or cycle and percentages with two
 * decimals, the rest ("CPUs utilized", "GHz", "K/sec") with three. The
 * percent sign is dropped: the metric-unit field names what it is of.
 */
static void csv_metric(struct csv_line *l, const struct pstat_row *row)
{
	const struct pstat_metric *m = &row->metric;
	bool two = (m->unit && !strcmp(m->unit, "%")) ||
		   (m->name && (!strcmp(m->name, "insn per cycle") ||
				!strcmp(m->name, "stalled cycles per insn")));

	if (!row->has_metric || !isfinite(m->value)) {
		csv_field(l, "");
		csv_field(l, "");
		return;
	}
	if (m->name && !strcmp(m->name, "/sec")) {
		double v = m->value;
		const char *unit = print_rate_unit(&v);

		csv_fixed(l, v, 3);
		csv_field(l, unit);
		return;
	}
	csv_fixed(l, m->value, two ? 2 : 3);
	csv_field(l, m->name ? m->name : "");
}

/*
 * The columns that say where a line counted, before its value: lead
 * (the interval timestamp or "summary", or NULL), the aggregation unit
 * and its number of CPUs (perf's "S0,2,"), the CPU, the thread.
 */
static void csv_place(struct csv_line *l, const char *lead,
		      const struct pstat_aggr_id *aggr, int aggr_nr, int cpu,
		      const char *thread)
{
	if (lead)
		csv_lead(l, lead);
	if (aggr) {
		char name[64];

		csv_field(l, topo_aggr_name(aggr->mode, aggr, name,
					    sizeof(name)));
		csv_fieldf(l, "%d", aggr_nr);
	}
	if (cpu >= 0)
		csv_fieldf(l, "CPU%d", cpu);
	if (thread)
		csv_field(l, thread);
}

/* A line of printer p (whose private state csv_priv made). */
static struct csv_line csv_line_new(struct pstat_printer *p)
{
	const char *sep = p->cfg.csv_sep ? p->cfg.csv_sep : ",";

	return (struct csv_line){
		.out = p->out,
		.sep = sep,
		.seplen = strlen(sep),
		.pc = p->priv,
	};
}

/*
 * Whether row's line ends as the saved tail does (the rows that have
 * one, after place columns, otherwise the tail would not start with a
 * separator): then it is copied, and true returned. Else, when row can
 * have one, the tail is to be saved from its line: *save is set.
 */
static bool csv_same_tail(struct csv_line *l, const struct pstat_row *row,
			  bool *save)
{
	struct print_csv *pc = l->pc;

	*save = false;
	if (row->status <= PSTAT_MULTIPLEXED || row->has_metric ||
	    row->run || !l->nfields)
		return false;
	if (!pc->tail.valid || row->event != pc->tail.event ||
	    row->unit != pc->tail.unit || row->cgroup != pc->tail.cgroup ||
	    row->status != pc->tail.status) {
		*save = true;
		return false;
	}
	memcpy(csv_room(l, pc->tail.len), pc->tail.text, pc->tail.len);
	l->len += pc->tail.len;
	return true;
}

static void csv_save_tail(struct csv_line *l, const struct pstat_row *row,
			  size_t start)
{
	struct print_csv *pc = l->pc;
	size_t n = l->len - start;

	xgrow((void **)&pc->tail.text, &pc->tail.alloc, n, 1);
	memcpy(pc->tail.text, pc->line + start, n);
	pc->tail.len = n;
	pc->tail.event = row->event;
	pc->tail.unit = row->unit;
	pc->tail.cgroup = row->cgroup;
	pc->tail.status = row->status;
	pc->tail.valid = true;
}

/* lead: the interval timestamp or "summary" column, or NULL. */
static void csv_row(struct pstat_printer *p, bool noise, bool cgroups,
		    const char *lead, const struct pstat_row *row)
{
	struct csv_line l = csv_line_new(p);
	size_t start;
	bool save;

	csv_place(&l, lead, row->aggr, row->aggr_nr, row->cpu, row->thread);
	start = l.len;
	if (csv_same_tail(&l, row, &save)) {
		csv_end(&l);
		return;
	}
	csv_value(&l, row);
	csv_field(&l, row->unit ? row->unit : "");
	csv_field(&l, row->event ? row->event : "");
	/* perf's cgroup column, there on every line when -G is used */
	if (cgroups)
		csv_field(&l, row->cgroup ? row->cgroup : "");
	/*
	 * With -r perf adds the relative standard error after the name on
	 * every line, "0.00%" where there is no spread: interval lines (one
	 * measurement each) and counters without a value.
	 */
	if (noise)
		csv_fieldf(&l, "%.2f%%",
			   row->stats && row->status <= PSTAT_MULTIPLEXED ?
				   stats_rel_stderr_pct(row->stats) : 0.0);
	csv_u64(&l, row->run);
	/*
	 * As perf: 100.00 when the counter was never enabled (the run or
	 * the interval gave it no time), 0.00 when it was enabled but never
	 * ran (multiplexed out of the whole interval).
	 */
	csv_fixed(&l, row->run ? row->running_pct : row->ena ? 0.0 : 100.0, 2);
	csv_metric(&l, row);
	if (save)
		csv_save_tail(&l, row, start);
	csv_end(&l);
}

/*
 * A metric of the metric engine: a line of its own after the first
 * event it reads, as perf prints a metric group's: the count fields
 * empty, the value (empty when it has none) and "unit name" in the
 * metric columns.
 */
static void csv_metric_line(struct pstat_printer *p, bool noise,
			    bool cgroups, const char *lead,
			    const struct pstat_metric_value *m)
{
	struct csv_line l = csv_line_new(p);

	csv_place(&l, lead, m->aggr, m->aggr_nr, m->cpu, m->thread);
	/* value, unit, event, [cgroup], [noise], run time, running */
	for (int i = 0; i < 3; i++)
		csv_field(&l, "");
	/* the cgroup whose counts it is computed from */
	if (cgroups)
		csv_field(&l, m->cgroup ? m->cgroup : "");
	for (int i = 0; i < 2 + noise; i++)
		csv_field(&l, "");
	if (isfinite(m->value))
		csv_fieldf(&l, "%.3f", m->value);
	else
		csv_field(&l, "");
	if (*m->about->unit)
		csv_fieldf(&l, "%s %s", m->about->unit, m->about->name);
	else
		csv_field(&l, m->about->name);
	csv_end(&l);
}

/*
 * --metric-only: a line of the metrics' names ("unit name"), then for
 * each report one line of their values per CPU or thread, after the
 * time and label columns; a field is empty where the CPU, thread or
 * unit has no such metric (print_metric_columns).
 */
static void csv_metric_only(struct pstat_printer *p, bool header,
			    const char *lead, const struct pstat_report *r)
{
	struct csv_line l = csv_line_new(p);
	const struct pstat_metric_value *first = r->nmetrics ? r->metrics
							      : NULL;
	size_t *cols = xcalloc(r->nmetrics + 1, sizeof(*cols));
	size_t ncols = print_metric_columns(r, cols);

	if (header && first) {
		if (lead)
			csv_field(&l, "time");
		if (first->aggr) {
			csv_field(&l, "unit");
			csv_field(&l, "cpus");
		}
		if (first->cpu >= 0)
			csv_field(&l, "cpu");
		if (first->thread)
			csv_field(&l, "thread");
		if (r->cgroups)
			csv_field(&l, "cgroup");
		for (size_t c = 0; c < ncols; c++) {
			const struct pstat_metric_about *a =
				r->metrics[cols[c]].about;

			if (*a->unit)
				csv_fieldf(&l, "%s %s", a->unit, a->name);
			else
				csv_field(&l, a->name);
		}
		csv_end(&l);
	}
	for (size_t k = 0, end; k < r->nmetrics; k = end) {
		const struct pstat_metric_value *m = &r->metrics[k];
		int nr;

		end = print_metric_key_end(r, k, &nr);
		if (lead)
			csv_lead(&l, lead);
		if (m->aggr) {
			char name[64];

			csv_field(&l, topo_aggr_name(m->aggr->mode, m->aggr,
						     name, sizeof(name)));
			csv_fieldf(&l, "%d", nr);
		}
		if (m->cpu >= 0)
			csv_fieldf(&l, "CPU%d", m->cpu);
		if (m->thread)
			csv_field(&l, m->thread);
		if (r->cgroups)
			csv_field(&l, m->cgroup ? m->cgroup : "");
		for (size_t c = 0; c < ncols; c++) {
			const struct pstat_metric_value *v =
				print_metric_find(r, k, end, cols[c]);

			if (v && isfinite(v->value))
				csv_fieldf(&l, "%.3f", v->value);
			else
				csv_field(&l, "");
		}
		csv_end(&l);
	}
	free(cols);
}

static struct print_csv *csv_priv(struct pstat_printer *p)
{
	struct print_csv *pc = p->priv;
	const char *sep;

	if (!pc) {
		pc = xcalloc(1, sizeof(*pc));
		/*
		 * glibc hands out its built-in C locale here without
		 * allocating; should it ever fail we print in the current
		 * locale rather than not at all.
		 */
		pc->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
		pc->stop['\0'] = 1;
		pc->stop['"'] = pc->stop['\r'] = pc->stop['\n'] = 2;
		sep = p->cfg.csv_sep ? p->cfg.csv_sep : ",";
		if (sep[0] && !sep[1])
			pc->stop[(unsigned char)sep[0]] = 2;
		p->priv = pc;
	}
	return pc;
}

/* perf's "# started on <ctime>" and the blank line ctime's \n makes. */
static void csv_header(struct pstat_printer *p, struct print_csv *pc,
		       const struct pstat_report *r)
{
	char buf[64];
	time_t t = r->started_at.tv_sec;

	if (pc->header_done)
		return;
	pc->header_done = true;
	if (p->cfg.started_header && ctime_r(&t, buf))
		fprintf(p->out, "# started on %s\n", buf);
}

/*
 * The lines of report r. The noise column is there on every line when -r
 * asked for several runs, or else when the first report (a summary, as
 * there were no intervals) has them. A last interval cut short gets no
 * comment line, unlike the table's: perf prints none, and a script
 * reading every line as data would stumble on it.
 */
static void csv_rows(struct pstat_printer *p, const struct pstat_report *r,
		     const char *lead)
{
	struct print_csv *pc = csv_priv(p);
	struct print_anchors a;
	locale_t old = (locale_t)0;

	if (pc->c_locale)
		old = uselocale(pc->c_locale);
	if (!pc->noise_decided) {
		pc->noise_decided = true;
		pc->noise = p->cfg.repeat > 1 || r->runs > 1;
	}
	csv_header(p, pc, r);
	/* the cgroup column and the strings may differ in the next report */
	pc->tail.valid = false;
	if (p->cfg.metric_only) {
		csv_metric_only(p, !pc->metric_header_done, lead, r);
		pc->metric_header_done = true;
	}
	print_anchors_build(&a, r);
	for (size_t j = 0; j < (r->order ? r->norder : r->nrows) &&
			   !p->cfg.metric_only; j++) {
		size_t i = r->order ? r->order[j] : j;
		struct pstat_row copy;

		csv_row(p, pc->noise, r->cgroups, lead,
			print_anchors_row(&a, r, i, &copy));
		for (size_t k = a.start ? a.start[i] : 0;
		     a.start && k < a.start[i + 1]; k++)
			csv_metric_line(p, pc->noise, r->cgroups, lead,
					&r->metrics[a.order[k]]);
	}
	print_anchors_free(&a);
	if (old)
		uselocale(old);
}

/*
 * After intervals, perf --summary puts "summary" in the time column,
 * right-aligned like the timestamps, so the field count stays the same;
 * with --no-csv-summary, the summary's lines have no such column.
 */
static void csv_summary(struct pstat_printer *p,
			const struct pstat_report *r)
{
	struct print_csv *pc = csv_priv(p);

	if (pc->intervals && p->cfg.no_interval_summary)
		return;
	csv_rows(p, r, pc->intervals && !p->cfg.no_csv_summary ?
			       "         summary" : NULL);
}

/* Seconds since the start, "%6lu.%09lu" as perf pads them. */
static void csv_interval(struct pstat_printer *p,
			 const struct pstat_report *r)
{
	struct print_csv *pc = csv_priv(p);
	char ts[48];

	snprintf(ts, sizeof(ts), "%6" PRIu64 ".%09" PRIu64,
		 r->interval_end_ns / 1000000000,
		 r->interval_end_ns % 1000000000);
	csv_rows(p, r, ts);
	pc->intervals++;
}

static void csv_free(struct pstat_printer *p)
{
	struct print_csv *pc = p->priv;

	if (pc && pc->c_locale)
		freelocale(pc->c_locale);
	if (pc) {
		free(pc->line);
		free(pc->tail.text);
	}
	free(pc);
	p->priv = NULL;
}

const struct pstat_printer_ops print_csv_ops = {
	.summary = csv_summary,
	.interval = csv_interval,
	.free = csv_free,
};
