/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/print.h"

const char *print_status_name(enum pstat_status st)
{
	switch (st) {
	case PSTAT_COUNTED:
		return "counted";
	case PSTAT_MULTIPLEXED:
		return "multiplexed";
	case PSTAT_NOT_COUNTED:
		return "not_counted";
	case PSTAT_NOT_SUPPORTED:
		return "not_supported";
	case PSTAT_ERROR:
		break;
	}
	return "error";
}

/* --quiet: the report is the exit status alone. */
static void none_report(struct pstat_printer *p, const struct pstat_report *r)
{
	(void)p;
	(void)r;
}

static const struct pstat_printer_ops print_none_ops = {
	.summary = none_report,
	.interval = none_report,
};

struct pstat_printer *printer_new(const struct pstat_print_cfg *cfg,
				  FILE *out)
{
	struct pstat_printer *p = xcalloc(1, sizeof(*p));

	p->cfg = *cfg;
	p->out = out;
	switch (cfg->format) {
	case FORMAT_CSV:
		p->ops = &print_csv_ops;
		break;
	case FORMAT_JSON:
		p->ops = &print_json_ops;
		break;
	case FORMAT_JSON_PERF:
		p->ops = &print_json_perf_ops;
		break;
	case FORMAT_OPENMETRICS:
		p->ops = &print_openmetrics_ops;
		break;
	case FORMAT_TABLE:
		p->ops = &print_table_ops;
		break;
	case FORMAT_NONE:
		p->ops = &print_none_ops;
		break;
	}
	return p;
}

void printer_free(struct pstat_printer *p)
{
	if (!p)
		return;
	if (p->ops->free)
		p->ops->free(p);
	free(p);
}

int print_flush(FILE *out)
{
	/* a write that failed before this call left its errno */
	int early = ferror(out) ? errno : 0;

	errno = 0;
	if (fflush(out) == EOF || ferror(out))
		return errno ? -errno : early ? -early : -EIO;
	return 0;
}

/* A derived figure's thread ("comm-tid"): its tid, for the order. */
static long thread_tid(const char *thread)
{
	const char *dash = thread ? strrchr(thread, '-') : NULL;

	return dash ? strtol(dash + 1, NULL, 10) : -1;
}

static int derived_cmp(const void *pa, const void *pb)
{
	const struct pstat_metric_value *a = pa, *b = pb;
	long ta = thread_tid(a->thread), tb = thread_tid(b->thread);

	if (a->aggr != b->aggr)
		return a->aggr < b->aggr ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return a->anchor < b->anchor ? -1 : a->anchor > b->anchor;
}

/*
 * --metric-only over plain events (no -M, --metric): the derived figures
 * the table prints after '#' become the metrics, so that their printers
 * make them the columns, as perf does; less the rates and CPUs utilized,
 * which perf leaves out there. Sorted by CPU, thread or unit, each
 * line's in the events' order. New array, and in *about what each is
 * (new); *n its length.
 */
static struct pstat_metric_value *
derived_metrics(const struct pstat_report *r, size_t *n,
		struct pstat_metric_about **about)
{
	struct pstat_metric_value *v = xcalloc(r->nrows + 1, sizeof(*v));
	struct pstat_metric_about *a = xcalloc(r->nrows + 1, sizeof(*a));

	*n = 0;
	*about = a;
	for (size_t i = 0; i < r->nrows; i++) {
		const struct pstat_row *row = &r->rows[i];

		if (!row->has_metric || strstr(row->metric.name, "/sec") ||
		    !strcmp(row->metric.name, "CPUs utilized"))
			continue;
		a[*n] = (struct pstat_metric_about){
			.name = row->metric.name,
			.unit = row->metric.unit,
			.expr = "",
			.higher_is_better = row->metric.higher_is_better,
		};
		v[*n] = (struct pstat_metric_value){
			.about = &a[*n],
			.value = row->metric.value,
			.threshold = -1,
			.aggr = row->aggr,
			.aggr_nr = row->aggr_nr,
			.cpu = row->cpu,
			.thread = row->thread,
			.anchor = (unsigned)i,
		};
		(*n)++;
	}
	qsort(v, *n, sizeof(*v), derived_cmp);
	return v;
}

/* Print r through op, with the derived figures as metrics if need be. */
static void print_report(struct pstat_printer *p, const struct pstat_report *r,
			 void (*op)(struct pstat_printer *,
				    const struct pstat_report *))
{
	struct pstat_report d;
	struct pstat_metric_value *v;
	struct pstat_metric_about *about;

	if (!p->cfg.metric_only || r->nmetrics) {
		op(p, r);
		return;
	}
	d = *r;
	d.metrics = v = derived_metrics(r, &d.nmetrics, &about);
	op(p, &d);
	free(v);
	free(about);
}

int printer_summary(struct pstat_printer *p, const struct pstat_report *r)
{
	p->err = 0;
	print_report(p, r, p->ops->summary);
	return p->err ? p->err : print_flush(p->out);
}

int printer_interval(struct pstat_printer *p, const struct pstat_report *r)
{
	p->err = 0;
	print_report(p, r, p->ops->interval);
	p->lines++;
	return p->err ? p->err : print_flush(p->out);
}

/*
 * Whether a metric of about may say again what the perf-style comment of
 * the row it follows says: the library's ipc (instructions / cycles)
 * after an instructions row that reads "insn per cycle", its frequency
 * after cycles' "GHz", cpus_utilized after task-clock's "CPUs utilized".
 * Returns the comment it would repeat, or NULL.
 */
static const char *metric_may_repeat(const struct pstat_metric_about *about)
{
	static const char *const same[][2] = {
		{ "insn/cycle", "insn per cycle" },
		{ "GHz", "GHz" },
		{ "CPUs", "CPUs utilized" },
	};

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (!strcmp(about->unit, same[i][0]))
			return same[i][1];
	return NULL;
}

/* Whether metric m says again the comment of the row it follows. */
static bool metric_repeats_row(const struct pstat_report *r,
			       const struct pstat_metric_value *m,
			       const char *comment)
{
	const struct pstat_row *row;

	if (!isfinite(m->value))
		return false;
	row = &r->rows[m->anchor];
	if (!row->has_metric || !row->metric.name ||
	    strcmp(row->metric.name, comment))
		return false;
	return fabs(m->value - row->metric.value) <=
	       1e-9 * fabs(row->metric.value);
}

/*
 * print_anchors_build's pass over r's places, the values left alone but
 * for the metrics that may repeat a row's comment.
 */
static void anchors_of_places(struct print_anchors *a,
			      const struct pstat_report *r, size_t *anchor)
{
	const char **comment = xcalloc(r->nabouts + 1, sizeof(*comment));
	size_t n = r->nrows;

	for (size_t m = 0; m < r->nabouts; m++)
		comment[m] = metric_may_repeat(&r->abouts[m]);
	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct pstat_metric_place *p = &r->metric_places[k];

		anchor[k] = p->anchor;
		if (p->anchor >= n)
			continue;
		a->start[p->anchor + 2]++;
		if (p->metric < r->nabouts && comment[p->metric] &&
		    metric_repeats_row(r, &r->metrics[k], comment[p->metric]))
			a->quiet[p->anchor] = true;
	}
	free(comment);
}

/* The same pass over the values themselves (a cache line each). */
static void anchors_of_values(struct print_anchors *a,
			      const struct pstat_report *r, size_t *anchor)
{
	const struct pstat_metric_about *about = NULL;
	const char *comment = NULL;
	size_t n = r->nrows;

	for (size_t k = 0; k < r->nmetrics; k++) {
		const struct pstat_metric_value *m = &r->metrics[k];

		/* the values of a metric share its about: looked at once */
		if (m->about != about) {
			about = m->about;
			comment = metric_may_repeat(about);
		}
		anchor[k] = m->anchor;
		if (m->anchor >= n)
			continue;
		a->start[m->anchor + 2]++;
		if (comment && metric_repeats_row(r, m, comment))
			a->quiet[m->anchor] = true;
	}
}

void print_anchors_build(struct print_anchors *a,
			 const struct pstat_report *r)
{
	size_t n = r->nrows, *anchor;

	a->order = a->start = NULL;
	a->quiet = NULL;
	if (!r->nmetrics)
		return;
	/* a counting sort: start[i + 2] counts row i's, then the sums */
	a->start = xcalloc(n + 2, sizeof(*a->start));
	a->order = xcalloc(r->nmetrics, sizeof(*a->order));
	a->quiet = xcalloc(n, sizeof(*a->quiet));
	/* one pass over the metrics, their anchors kept meanwhile */
	anchor = xmalloc(r->nmetrics * sizeof(*anchor));
	if (r->metric_places)
		anchors_of_places(a, r, anchor);
	else
		anchors_of_values(a, r, anchor);
	for (size_t i = 2; i < n + 2; i++)
		a->start[i] += a->start[i - 1];
	/* start[i + 1] runs from row i's first to its end, i + 1's start */
	for (size_t k = 0; k < r->nmetrics; k++)
		if (anchor[k] < n)
			a->order[a->start[anchor[k] + 1]++] = k;
	free(anchor);
}

const struct pstat_row *print_anchors_row(const struct print_anchors *a,
					  const struct pstat_report *r,
					  size_t i, struct pstat_row *copy)
{
	if (!a->quiet || !a->quiet[i])
		return &r->rows[i];
	*copy = r->rows[i];
	copy->has_metric = 0;
	return copy;
}

/* The values of one metric share its name's string: strcmp is rare. */
static bool same_name(const char *a, const char *b)
{
	return a == b || !strcmp(a, b);
}

size_t print_metric_columns(const struct pstat_report *r, size_t *cols)
{
	size_t n = 0;

	for (size_t k = 0; k < r->nmetrics; k++) {
		size_t c = 0;

		while (c < n && !same_name(r->metrics[cols[c]].about->name,
					   r->metrics[k].about->name))
			c++;
		if (c == n)
			cols[n++] = k;
	}
	return n;
}

size_t print_metric_key_end(const struct pstat_report *r, size_t k,
			    int *aggr_nr)
{
	const struct pstat_metric_value *a = &r->metrics[k], *b;

	*aggr_nr = a->aggr_nr;
	for (k++; k < r->nmetrics; k++) {
		b = &r->metrics[k];
		if (a->cpu != b->cpu || a->aggr != b->aggr ||
		    (a->thread != b->thread &&
		     (!a->thread || !b->thread ||
		      strcmp(a->thread, b->thread))) ||
		    (a->cgroup != b->cgroup &&
		     (!a->cgroup || !b->cgroup || strcmp(a->cgroup, b->cgroup))))
			break;
		if (b->aggr_nr > *aggr_nr)
			*aggr_nr = b->aggr_nr;
	}
	return k;
}

const struct pstat_metric_value *
print_metric_find(const struct pstat_report *r, size_t k, size_t end,
		  size_t c)
{
	for (; k < end; k++)
		if (same_name(r->metrics[k].about->name,
			      r->metrics[c].about->name))
			return &r->metrics[k];
	return NULL;
}

void print_anchors_free(struct print_anchors *a)
{
	free(a->quiet);
	free(a->order);
	free(a->start);
	a->order = a->start = NULL;
}

/* (by hand: open_memstream's first buffer is 8 KiB, zeroed, at every start) */
char *print_command_string(char *const *argv)
{
	size_t len = 1, n;
	char *buf, *p;

	for (size_t i = 0; argv && argv[i]; i++)
		len += strlen(argv[i]) + 1;
	p = buf = xmalloc(len);
	for (size_t i = 0; argv && argv[i]; i++) {
		if (i)
			*p++ = ' ';
		n = strlen(argv[i]);
		memcpy(p, argv[i], n);
		p += n;
	}
	*p = '\0';
	return buf;
}

/*
 * Digit grouping done here rather than with printf's ' flag, so that the
 * grouping follows LC_NUMERIC only where the caller asks for it (the
 * table) and machine output never sees it.
 */
/*
 * The locale's LC_NUMERIC items through nl_langinfo(3), which returns
 * them where localeconv(3) copies its whole record: once per number with
 * thousands of rows an interval, that showed.
 */
const char *print_group_digits(char *buf, size_t len, double v, int big)
{
	return big ? print_group_digits_rule(buf, len, v, nl_langinfo(THOUSEP),
					     nl_langinfo(GROUPING))
		   : print_group_digits_sep(buf, len, v, "");
}

const char *print_group_digits_sep(char *buf, size_t len, double v,
				   const char *sep)
{
	return print_group_digits_rule(buf, len, v, sep, "\3");
}

/*
 * "%.0f" of v into buf[len] (len > 20), by hand for a whole number a
 * double holds exactly (below 2^53), as counts are: printf's rounding
 * machinery cost more than counting with thousands of rows an interval.
 */
static void print_whole_digits(char *buf, size_t len, double v)
{
	if (!signbit(v) && v < 9007199254740992.0 &&
	    v == (double)(unsigned long long)v) {
		char tmp[24], *d = tmp + sizeof(tmp);
		unsigned long long u = (unsigned long long)v;

		*--d = '\0';
		do
			*--d = (char)('0' + u % 10);
		while (u /= 10);
		memcpy(buf, d, (size_t)(tmp + sizeof(tmp) - d));
		return;
	}
	snprintf(buf, len, "%.0f", v);
}

/*
 * The n digits written after buf[o] (len in all), grouped as
 * localeconv(3) gives it: the size of each group from the right, the
 * last size repeating (a 0 ends the string), CHAR_MAX or a negative size
 * for no more groups. en_IN's "\3\2" groups 12,34,567. Returns the new
 * end, buf NUL-terminated there.
 */
static size_t group_digits(char *buf, size_t len, size_t o,
			   const char *digits, size_t n, const char *sep,
			   const char *grouping)
{
	size_t sl = strlen(sep), marks[400], nm = 0;
	long pos = (long)n;

	/* where separators go, from the right: marks[nm - 1] is leftmost */
	for (const char *g = grouping; sl && g && *g > 0 && *g != CHAR_MAX &&
				       nm < sizeof(marks) / sizeof(*marks);) {
		pos -= *g;
		if (pos <= 0)
			break;
		marks[nm++] = (size_t)pos;
		if (g[1])
			g++;
	}
	for (size_t i = 0; i < n && o + sl + 1 < len; i++) {
		if (nm && marks[nm - 1] == i) {
			memcpy(buf + o, sep, sl);
			o += sl;
			nm--;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return o;
}

const char *print_group_digits_rule(char *buf, size_t len, double v,
				    const char *sep, const char *grouping)
{
	char digits[400];
	size_t o = 0;
	int neg = v < 0;

	print_whole_digits(digits, sizeof(digits), neg ? -v : v);
	/* no "-0" for a value that rounds to zero */
	neg = neg && strcmp(digits, "0");
	if (neg && o + 1 < len)
		buf[o++] = '-';
	group_digits(buf, len, o, digits, strlen(digits), sep, grouping);
	return buf;
}

/*
 * printf's "%.*f" (its "%'.*f" when big) of v by hand, for up to three
 * decimals and below 10^15: a double is m * 2^e with m a whole number
 * below 2^53, so v * 10^prec is m * 5^prec (below 2^60) shifted by
 * e + prec, and the bits shifted out round it to nearest, a tie to even,
 * as printf rounds the exact value. Anything else is printf's.
 */
size_t print_fixed(char *buf, size_t len, double v, int prec, int big)
{
	static const uint64_t pow5[] = { 1, 5, 25, 125 };
	static const uint64_t pow10[] = { 1, 10, 100, 1000 };
	char digits[24], *d = digits + sizeof(digits);
	uint64_t x, q, frac;
	size_t o = 0;
	int e, sh;

	if (!isfinite(v) || fabs(v) >= 1e15 || prec < 0 || prec > 3 ||
	    len < 64) {
		snprintf(buf, len, big ? "%'.*f" : "%.*f", prec, v);
		return strlen(buf);
	}
	x = (uint64_t)ldexp(frexp(fabs(v), &e), 53) * pow5[prec];
	sh = e - 53 + prec;
	if (sh >= 0) {
		q = x << sh;
	} else if (sh <= -64) {
		q = 0;          /* below half of the last decimal */
	} else {
		uint64_t rest = x & ((1ull << -sh) - 1);
		uint64_t half = 1ull << (-sh - 1);

		q = x >> -sh;
		q += rest > half || (rest == half && (q & 1));
	}
	frac = q % pow10[prec];
	q /= pow10[prec];
	do
		*--d = (char)('0' + q % 10);
	while (q /= 10);
	if (signbit(v))
		buf[o++] = '-';
	o = group_digits(buf, len, o, d, (size_t)(digits + sizeof(digits) - d),
			 big ? nl_langinfo(THOUSEP) : "",
			 nl_langinfo(GROUPING));
	if (prec) {
		const char *point = nl_langinfo(RADIXCHAR);
		size_t pl = strlen(point);

		if (o + pl + (size_t)prec + 1 > len)
			return o;
		memcpy(buf + o, point, pl);
		o += pl;
		for (int i = prec; i-- > 0; frac /= 10)
			buf[o + (size_t)i] = (char)('0' + frac % 10);
		o += (size_t)prec;
		buf[o] = '\0';
	}
	return o;
}

const char *print_rate_unit(double *v)
{
	/* perf's convert_unit_double */
	if (*v >= 1e9) {
		*v /= 1e9;
		return "G/sec";
	}
	if (*v >= 1e6) {
		*v /= 1e6;
		return "M/sec";
	}
	if (*v >= 1e3) {
		*v /= 1e3;
		return "K/sec";
	}
	return "/sec";
}

/*
 * perf chooses "%.2f" when the event's scale is fractional (clocks in
 * msec, sysfs scales such as Joules) and "%.0f" for plain counts. The
 * row has no scale but has a unit, which such events always carry; a
 * fractional value without one (a unitless sysfs scale) also keeps its
 * decimals, except for the mean of repeated counts, which perf rounds.
 */
bool print_value_frac(const struct pstat_row *row)
{
	return (row->unit && *row->unit) ||
	       (!row->stats && row->value != floor(row->value));
}
