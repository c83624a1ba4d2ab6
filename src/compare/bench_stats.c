/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench`: the samples of every command's runs, their summaries,
 * outliers, and each command against the first with the statistics of
 * `pstat compare` (Welch's test and interval from report/stats.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/libm.h"
#include "base/util.h"
#include "compare/bench_results.h"
#include "report/stats.h"

static const char *const time_names[BENCH_TIME_ROWS] = {
	"wall-time", "user-time", "sys-time",
};

const char *bench_verdict_name(enum pstat_bench_verdict v, int json)
{
	switch (v) {
	case BENCH_SLOWER:
		return "slower";
	case BENCH_FASTER:
		return "faster";
	case BENCH_SAME:
		return json ? "same" : "no significant difference";
	case BENCH_UNTESTED:
		break;
	}
	return json ? "untested" : "not tested";
}

struct pstat_bench_cmd *bench_add_cmd(struct pstat_bench *b, const char *name,
				      const char *command, char **argv)
{
	struct pstat_bench_cmd *c;

	b->cmds = xrealloc(b->cmds, (b->ncmds + 1) * sizeof(*b->cmds));
	c = &b->cmds[b->ncmds++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name ? name : command);
	c->command = xstrdup(command);
	c->label = str_escape(c->name);
	c->label_cmd = str_escape(c->command);
	c->argv = argv;
	return c;
}

void bench_cmd_param(struct pstat_bench_cmd *c, const char *name,
		     const char *value)
{
	size_t n = c->nparams + 1;

	c->param_names = xrealloc(c->param_names, n * sizeof(char *));
	c->param_values = xrealloc(c->param_values, n * sizeof(char *));
	c->param_names[c->nparams] = xstrdup(name);
	c->param_values[c->nparams] = xstrdup(value);
	c->nparams = n;
}

/* The rows of cmd at its first run: the times, then the counters. */
static void rows_init(struct pstat_bench_cmd *cmd,
		      const struct pstat_row *rows, size_t nrows)
{
	cmd->nrows = BENCH_TIME_ROWS + nrows;
	cmd->rows = xcalloc(cmd->nrows, sizeof(*cmd->rows));
	for (size_t i = 0; i < cmd->nrows; i++) {
		struct pstat_bench_row *r = &cmd->rows[i];

		if (i < BENCH_TIME_ROWS) {
			r->name = xstrdup(time_names[i]);
			r->unit = xstrdup("msec");
		} else {
			r->name = xstrdup(rows[i - BENCH_TIME_ROWS].event);
			r->unit = xstrdup(rows[i - BENCH_TIME_ROWS].unit ?
						  rows[i - BENCH_TIME_ROWS].unit :
						  "");
		}
	}
}

static void cmd_grow(struct pstat_bench_cmd *cmd)
{
	size_t room = cmd->alloc ? cmd->alloc * 2 : 16;

	if (cmd->runs < cmd->alloc)
		return;
	cmd->status = xrealloc(cmd->status, room * sizeof(*cmd->status));
	cmd->start_ms = xrealloc(cmd->start_ms, room * sizeof(*cmd->start_ms));
	cmd->seq = xrealloc(cmd->seq, room * sizeof(*cmd->seq));
	for (size_t i = 0; i < cmd->nrows; i++) {
		struct pstat_bench_row *r = &cmd->rows[i];

		r->samples = xrealloc(r->samples, room * sizeof(*r->samples));
		if (i >= BENCH_TIME_ROWS)
			r->running_pct = xrealloc(r->running_pct,
						  room * sizeof(*r->running_pct));
	}
	cmd->alloc = room;
}

void bench_add_run(struct pstat_bench_cmd *cmd, uint64_t wall_ns,
		   uint64_t user_ns, uint64_t sys_ns, int status,
		   double start_ms, size_t seq, const struct pstat_row *rows,
		   size_t nrows)
{
	size_t k = cmd->runs;

	if (!cmd->rows)
		rows_init(cmd, rows, nrows);
	cmd_grow(cmd);
	cmd->status[k] = status;
	cmd->start_ms[k] = start_ms;
	cmd->seq[k] = seq;
	cmd->rows[BENCH_ROW_WALL].samples[k] = (double)wall_ns / 1e6;
	cmd->rows[BENCH_ROW_USER].samples[k] = (double)user_ns / 1e6;
	cmd->rows[BENCH_ROW_SYS].samples[k] = (double)sys_ns / 1e6;
	for (size_t i = 0; i < nrows && BENCH_TIME_ROWS + i < cmd->nrows; i++) {
		struct pstat_bench_row *r = &cmd->rows[BENCH_TIME_ROWS + i];
		const struct pstat_row *row = &rows[i];

		r->samples[k] = row->status <= PSTAT_MULTIPLEXED ? row->value
								 : NAN;
		r->running_pct[k] = row->status <= PSTAT_MULTIPLEXED ?
					    row->running_pct : 0;
		if (row->status > r->status)
			r->status = row->status;
	}
	cmd->runs++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of x[0..n-1] (n >= 1), which it sorts. */
static double median_sorted(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static void row_summarize(struct pstat_bench_row *r, size_t runs)
{
	double *x = xcalloc(runs + 1, sizeof(*x));
	size_t n = 0;

	r->running_min = 100;
	for (size_t k = 0; k < runs; k++) {
		if (isfinite(r->samples[k]))
			x[n++] = r->samples[k];
		if (r->running_pct && r->running_pct[k] < r->running_min)
			r->running_min = r->running_pct[k];
	}
	memset(&r->sum, 0, sizeof(r->sum));
	if (n)
		stats_summarize(x, n, &r->sum);
	free(x);
}

/* The row of cmd named one of names, or NULL. */
static const struct pstat_bench_row *find_row(const struct pstat_bench_cmd *c,
					      const char *const *names)
{
	for (size_t i = BENCH_TIME_ROWS; i < c->nrows; i++)
		for (size_t k = 0; names[k]; k++)
			if (!strcmp(c->rows[i].name, names[k]))
				return &c->rows[i];
	return NULL;
}

/*
 * What may explain outlier run k of c: more context switches or
 * migrations than the command's median, or being its first run.
 */
static void outlier_reason(const struct pstat_bench_cmd *c, size_t k,
			   char *buf, size_t len)
{
	static const char *const cs[] = { "context-switches", "cs", NULL };
	static const char *const mig[] = { "cpu-migrations", "migrations",
					   NULL };
	const struct pstat_bench_row *r;

	buf[0] = '\0';
	r = find_row(c, cs);
	if (r && isfinite(r->samples[k]) && r->samples[k] > r->sum.median) {
		snprintf(buf, len, "%.0f context switches (median %.0f)",
			 r->samples[k], r->sum.median);
		return;
	}
	r = find_row(c, mig);
	if (r && isfinite(r->samples[k]) && r->samples[k] > r->sum.median) {
		snprintf(buf, len, "%.0f CPU migrations (median %.0f)",
			 r->samples[k], r->sum.median);
		return;
	}
	if (k == 0)
		snprintf(buf, len, "the first run (cold caches? try --warmup)");
}

static void find_outliers(struct pstat_bench_cmd *c)
{
	const struct pstat_bench_row *w = &c->rows[BENCH_ROW_WALL];
	double *dev, med, mad;

	if (c->runs < 3)
		return;
	dev = xcalloc(c->runs, sizeof(*dev));
	memcpy(dev, w->samples, c->runs * sizeof(*dev));
	med = median_sorted(dev, c->runs);
	for (size_t k = 0; k < c->runs; k++)
		dev[k] = fabs(w->samples[k] - med);
	mad = median_sorted(dev, c->runs);
	free(dev);
	if (!(mad > 0))
		return;
	for (size_t k = 0; k < c->runs; k++) {
		double z = 0.6745 * (w->samples[k] - med) / mad;
		struct pstat_bench_outlier *o;

		if (fabs(z) <= BENCH_OUTLIER_Z)
			continue;
		c->outliers = xrealloc(c->outliers, (c->noutliers + 1) *
							    sizeof(*c->outliers));
		o = &c->outliers[c->noutliers++];
		o->run = k;
		o->z = z;
		outlier_reason(c, k, o->reason, sizeof(o->reason));
	}
}

static void diff_rows(const struct pstat_bench *b, size_t c, size_t i,
		      struct pstat_bench_diff *d)
{
	const struct pstat_bench_row *base = &b->cmds[0].rows[i];
	const struct pstat_bench_row *new = &b->cmds[c].rows[i];
	double m0 = base->sum.mean;

	memset(d, 0, sizeof(*d));
	d->ratio = d->ratio_lo = d->ratio_hi = NAN;
	d->delta = d->ci_lo = d->ci_hi = d->p = NAN;
	d->verdict = BENCH_UNTESTED;
	if (!base->sum.n || !new->sum.n)
		return;
	d->delta = new->sum.mean - m0;
	/* a ratio to nothing has no value, not even 0 / 0 */
	if (m0 > 0)
		d->ratio = new->sum.mean / m0;
	if (base->sum.n < 2 || new->sum.n < 2)
		return;
	d->tested = 1;
	d->p = stats_welch_p(&base->sum, &new->sum);
	/* the interval of new - base, as pstat compare gives it */
	stats_welch_ci(&new->sum, &base->sum, 1 - b->alpha, &d->ci_lo,
		       &d->ci_hi);
	/* the ratio's own (Fieller's); every measure here is >= 0 */
	if (!stats_fieller_ci(&base->sum, &new->sum, 1 - b->alpha,
			      &d->ratio_lo, &d->ratio_hi) &&
	    d->ratio_lo < 0)
		d->ratio_lo = 0;
	d->verdict = !(d->p < b->alpha) ? BENCH_SAME :
		     d->delta > 0 ? BENCH_SLOWER : BENCH_FASTER;
}

struct pstat_bench_cmd *bench_set_shell_probe(struct pstat_bench *b,
					      const char *name, char **argv)
{
	struct pstat_bench_cmd *c = xcalloc(1, sizeof(*c));

	c->name = xstrdup(name);
	c->command = xstrdup(name);
	c->label = str_escape(name);
	c->label_cmd = str_escape(name);
	c->argv = argv;
	b->shell_probe = c;
	return c;
}

int bench_row_less_shell(const struct pstat_bench_row *r, size_t i)
{
	return i < BENCH_TIME_ROWS || !strcmp(r->name, "task-clock") ||
	       !strcmp(r->name, "cpu-clock");
}

/*
 * The shell's start-up out of cmd's times: each run less the probe's
 * run of the same round (its mean for a round it did not finish), at
 * least 0, as hyperfine subtracts it. Subtracting run by run carries the
 * probe's own spread into the samples, and so into the intervals.
 */
static void subtract_shell(const struct pstat_bench_cmd *probe,
			   struct pstat_bench_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nrows && i < probe->nrows; i++) {
		struct pstat_bench_row *r = &cmd->rows[i];
		const struct pstat_bench_row *p = &probe->rows[i];

		if (!bench_row_less_shell(r, i) || !p->sum.n ||
		    strcmp(r->name, p->name))
			continue;
		for (size_t k = 0; k < cmd->runs; k++) {
			double v = k < probe->runs && isfinite(p->samples[k]) ?
					   p->samples[k] : p->sum.mean;

			if (isfinite(r->samples[k]))
				r->samples[k] = libm_fmax(r->samples[k] - v, 0);
		}
	}
}

void bench_analyze(struct pstat_bench *b)
{
	size_t nrows = b->ncmds ? b->cmds[0].nrows : 0;
	struct pstat_bench_cmd *probe = b->shell_probe;

	if (probe && probe->nrows) {
		for (size_t i = 0; i < probe->nrows; i++)
			row_summarize(&probe->rows[i], probe->runs);
		for (size_t c = 0; c < b->ncmds; c++)
			if (b->cmds[c].via_shell)
				subtract_shell(probe, &b->cmds[c]);
	}

	for (size_t c = 0; c < b->ncmds; c++) {
		struct pstat_bench_cmd *cmd = &b->cmds[c];

		if (cmd->nrows != nrows)
			continue;   /* never ran: no rows */
		for (size_t i = 0; i < cmd->nrows; i++) {
			if (cmd->per > 0 && i >= BENCH_TIME_ROWS)
				for (size_t k = 0; k < cmd->runs; k++)
					cmd->rows[i].samples[k] /= cmd->per;
			row_summarize(&cmd->rows[i], cmd->runs);
		}
		find_outliers(cmd);
	}
	free(b->diffs);
	b->diffs = xcalloc(b->ncmds * nrows + 1, sizeof(*b->diffs));
	for (size_t c = 1; c < b->ncmds; c++) {
		if (b->cmds[c].nrows != nrows)
			continue;
		for (size_t i = 0; i < nrows; i++)
			diff_rows(b, c, i, &b->diffs[c * nrows + i]);
	}
}

static void cmd_free(struct pstat_bench_cmd *cmd)
{
	for (size_t i = 0; i < cmd->nrows; i++) {
		free(cmd->rows[i].name);
		free(cmd->rows[i].unit);
		free(cmd->rows[i].samples);
		free(cmd->rows[i].running_pct);
	}
	free(cmd->rows);
	free(cmd->name);
	free(cmd->command);
	free(cmd->label);
	free(cmd->label_cmd);
	for (size_t i = 0; i < cmd->nparams; i++) {
		free(cmd->param_names[i]);
		free(cmd->param_values[i]);
	}
	free(cmd->param_names);
	free(cmd->param_values);
	free(cmd->status);
	free(cmd->start_ms);
	free(cmd->seq);
	free(cmd->doc);
	free(cmd->outliers);
}

void bench_free(struct pstat_bench *b)
{
	if (!b)
		return;
	for (size_t c = 0; c < b->ncmds; c++)
		cmd_free(&b->cmds[c]);
	if (b->shell_probe)
		cmd_free(b->shell_probe);
	free(b->shell_probe);
	free(b->cmds);
	free(b->diffs);
	memset(b, 0, sizeof(*b));
}

enum bench_time_unit bench_row_unit(const struct pstat_bench *b,
				    const struct pstat_bench_row *row)
{
	double a = fabs(row->sum.mean);

	if (b->time_unit != BENCH_UNIT_AUTO)
		return b->time_unit;
	return a >= 1000 ? BENCH_UNIT_S : a >= 1 || a == 0 ? BENCH_UNIT_MS :
							      BENCH_UNIT_US;
}

const char *bench_format_value(char *buf, size_t len,
			       const struct pstat_bench_row *row, double v,
			       enum bench_time_unit unit)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (strcmp(row->unit, "msec") && (a >= 1000 || v == floor(v)))
		print_group_digits_sep(buf, len, v, ",");
	else if (strcmp(row->unit, "msec"))
		snprintf(buf, len, "%.3f", v);
	else if (unit == BENCH_UNIT_S)
		snprintf(buf, len, "%.3f s", v / 1000);
	else if (unit == BENCH_UNIT_US)
		snprintf(buf, len, "%.1f µs", v * 1000);
	else
		snprintf(buf, len, "%.3f ms", v);
	return buf;
}

const char *bench_format_interval(char *buf, size_t len,
				  const struct pstat_bench_diff *d)
{
	if (isfinite(d->ratio_lo) && isfinite(d->ratio_hi))
		snprintf(buf, len, "[%.3fx, %.3fx]", d->ratio_lo, d->ratio_hi);
	else if (isfinite(d->ratio_lo) && isinf(d->ratio_hi))
		snprintf(buf, len, "[%.3fx, unbounded]", d->ratio_lo);
	else
		snprintf(buf, len, "-");
	return buf;
}

size_t bench_failed_runs(const struct pstat_bench_cmd *c, char *buf,
			 size_t len)
{
	size_t n = 0, off = 0;

	buf[0] = '\0';
	/* the distinct statuses, lowest first: 0 .. 255, and 256 + signal */
	for (int want = 1; want < 512; want++) {
		size_t k;

		for (k = 0; k < c->runs && c->status[k] != want; k++)
			;
		if (k == c->runs)
			continue;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%d",
						off ? " " : "", want);
	}
	for (size_t k = 0; k < c->runs; k++)
		n += c->status[k] != 0;
	return n;
}

/* By mean wall time, those without one last, then as given. */
static int cmp_mean(const void *x, const void *y, void *arg)
{
	const struct pstat_bench *b = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	const struct pstat_bench_cmd *a = &b->cmds[i];
	const struct pstat_bench_cmd *c = &b->cmds[j];
	double u = a->nrows && a->rows[BENCH_ROW_WALL].sum.n ?
			   a->rows[BENCH_ROW_WALL].sum.mean : INFINITY;
	double v = c->nrows && c->rows[BENCH_ROW_WALL].sum.n ?
			   c->rows[BENCH_ROW_WALL].sum.mean : INFINITY;

	return u < v ? -1 : u > v ? 1 : i < j ? -1 : i > j;
}

size_t *bench_order(const struct pstat_bench *b, int comparisons)
{
	size_t *o = xcalloc(b->ncmds + 1, sizeof(*o));
	int by_mean = b->sort == BENCH_SORT_MEAN ||
		      (comparisons && b->sort == BENCH_SORT_AUTO);

	for (size_t i = 0; i < b->ncmds; i++)
		o[i] = i;
	if (by_mean)
		qsort_r(o, b->ncmds, sizeof(*o), cmp_mean, (void *)b);
	return o;
}
