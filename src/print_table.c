/* SPDX-License-Identifier: MIT */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "print.h"
#include "util.h"

/*
 * perf stat's layout, column for column: an 18-wide value, the unit in
 * 4 (after a space), the event name in 32, then " # " and the metric in
 * a fixed width so that the noise and running columns line up.
 */
#define VALUE_W 18
#define NAME_W 32
#define METRIC_W 23
#define NO_METRIC_PAD 28

/*
 * The table alone follows the user's LC_NUMERIC (digit grouping and the
 * decimal point, as perf does); the switch is per thread and undone after
 * printing, so CSV and JSON never see it.
 */
static int numeric_is_c(void)
{
	const char *names[] = { "LC_ALL", "LC_NUMERIC", "LANG" };

	/* the variable that decides, as setlocale(3) reads them */
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *v = getenv(names[i]);

		if (v && *v)
			return !strcmp(v, "C") || !strcmp(v, "POSIX") ||
			       str_starts_with(v, "C.");
	}
	return 1;
}

static locale_t enter_user_locale(void)
{
	locale_t loc;

	/* loading a locale costs a dozen system calls; C needs none */
	if (numeric_is_c())
		return (locale_t)0;
	loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);

	if (loc)
		uselocale(loc);
	return loc;
}

static void leave_user_locale(locale_t loc)
{
	if (!loc)
		return;
	uselocale(LC_GLOBAL_LOCALE);
	freelocale(loc);
}

/* The table printer's state across calls. */
struct table_state {
	int started;            /* "# started on" was printed */
	size_t nrows;           /* rows per interval */
	size_t nintervals;
	double *rates;          /* [interval][row], per second */
	size_t alloc;
};

static struct table_state *state(struct pstat_printer *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct table_state));
	return p->priv;
}

static void table_free(struct pstat_printer *p)
{
	struct table_state *st = p->priv;

	if (st)
		free(st->rates);
	free(st);
	p->priv = NULL;
}

static void print_started(struct pstat_printer *p,
			  const struct pstat_report *r)
{
	char buf[64];
	time_t t = r->started_at.tv_sec;

	if (!p->cfg.started_header || state(p)->started)
		return;
	state(p)->started = 1;
	ctime_r(&t, buf);
	fprintf(p->out, "# started on %s\n", buf);
}

static void print_target(FILE *out, const struct pstat_report *r)
{
	char *cmd;

	fputs(" Performance counter stats for ", out);
	switch (r->target) {
	case TARGET_COMMAND:
		if (!r->system_wide) {
			cmd = print_command_string(r->argv);
			fprintf(out, "'%s'", cmd);
			free(cmd);
			break;
		}
		/* a command counted system-wide */
		__attribute__((fallthrough));
	case TARGET_SYSTEM:
		if (r->cpu_subset && r->cpus && r->ncpus) {
			fputs("'CPU(s) ", out);
			for (size_t i = 0; i < r->ncpus; i++)
				fprintf(out, "%s%d", i ? "," : "", r->cpus[i]);
			fputc('\'', out);
		} else {
			fputs("'system wide'", out);
		}
		break;
	case TARGET_PID:
	case TARGET_TID:
		fputs(r->target == TARGET_PID ? "process id '" : "thread id '",
		      out);
		for (size_t i = 0; i < (r->target == TARGET_PID ? r->npids
								 : r->ntids);
		     i++)
			fprintf(out, "%s%d", i ? "," : "",
				(int)(r->target == TARGET_PID ? r->pids[i]
							      : r->tids[i]));
		fputc('\'', out);
		break;
	}
	if (r->runs > 1)
		fprintf(out, " (%d runs)", r->runs);
	fputs(":\n\n", out);
}

static void print_metric(FILE *out, const struct pstat_row *row)
{
	char val[32], unit[48];
	double v = row->metric.value;
	const char *name = row->metric.name;

	if (!strcmp(name, "/sec")) {
		name = print_rate_unit(&v);
		snprintf(val, sizeof(val), "%8.3f", v);
	} else if (!strcmp(name, "insn per cycle")) {
		snprintf(val, sizeof(val), "%7.2f ", v);
	} else if (!strcmp(row->metric.unit, "%")) {
		snprintf(val, sizeof(val), "%7.2f%%", v);
	} else {
		snprintf(val, sizeof(val), "%8.3f", v);
	}
	snprintf(unit, sizeof(unit), "%s", name);
	fprintf(out, " # %s %-*s", val, METRIC_W, unit);
}

static void print_value(struct pstat_printer *p, const struct pstat_row *row)
{
	FILE *out = p->out;
	char buf[64];

	switch (row->status) {
	case PSTAT_NOT_COUNTED:
		fprintf(out, "%*s ", VALUE_W, "<not counted>");
		break;
	case PSTAT_NOT_SUPPORTED:
		fprintf(out, "%*s ", VALUE_W, "<not supported>");
		break;
	case PSTAT_ERROR:
		fprintf(out, "%*s ", VALUE_W, "<error>");
		break;
	case PSTAT_COUNTED:
	case PSTAT_MULTIPLEXED:
		if (print_value_frac(row) || row->value >= 1e18)
			fprintf(out, "%*.2f ", VALUE_W, row->value);
		else
			fprintf(out, "%*s ", VALUE_W,
				print_group_digits(buf, sizeof(buf),
						   row->value, p->cfg.big_num));
		break;
	}
	fprintf(out, "%-4s ", row->unit);
}

static void print_row(struct pstat_printer *p, const struct pstat_row *row)
{
	FILE *out = p->out;
	int show_metric = row->has_metric;

	if (row->cpu >= 0)
		fprintf(out, "CPU%-4d ", row->cpu);
	if (row->thread)
		fprintf(out, "%25s ", row->thread);
	print_value(p, row);
	fprintf(out, "%-*s", NAME_W, row->event);
	if (show_metric)
		print_metric(out, row);
	else if (row->stats || row->status == PSTAT_MULTIPLEXED || row->note)
		fprintf(out, "%*s", NO_METRIC_PAD + 7, "");
	else
		fprintf(out, "%*s", NO_METRIC_PAD, "");
	/* perf prints no noise column for a spread of exactly 0 */
	if (row->stats && row->stats->n > 1 &&
	    row->status <= PSTAT_MULTIPLEXED &&
	    stats_rel_stderr_pct(row->stats) != 0)
		fprintf(out, "  ( +-%6.2f%% )",
			stats_rel_stderr_pct(row->stats));
	if (row->status == PSTAT_MULTIPLEXED)
		fprintf(out, "  (%.2f%%)", row->running_pct);
	if (row->note)
		fprintf(out, "  (%s)", row->note);
	fputc('\n', out);
}

static void print_times(FILE *out, const struct pstat_report *r)
{
	const struct pstat_summary *es = r->elapsed_stats;

	fputc('\n', out);
	if (es && es->n > 1) {
		/* as perf: two more digits than the error's first one */
		double sd = es->stderr_mean / 1e9;
		int prec = sd > 1 ? 2 : sd > 0 ? (int)ceil(-log10(sd)) + 2 : 9;

		if (prec > 9)
			prec = 9;
		fprintf(out, " %17.*f +- %.*f seconds time elapsed", prec,
			es->mean / 1e9, prec, sd);
		if (sd > 0)
			fprintf(out, "  ( +-%6.2f%% )", stats_rel_stderr_pct(es));
		fputc('\n', out);
	}
	else
		fprintf(out, " %17.9f seconds time elapsed\n",
			(double)r->elapsed_ns / 1e9);
	if (r->target == TARGET_COMMAND && r->runs <= 1 && !r->system_wide) {
		fprintf(out, "\n %17.9f seconds user\n",
			(double)r->user_ns / 1e9);
		fprintf(out, " %17.9f seconds sys\n", (double)r->sys_ns / 1e9);
	}
	fputs("\n\n", out);
}

/*
 * After an interval run on a terminal: one sparkline per event showing
 * how its rate moved, scaled between its own minimum and maximum.
 */
static void print_sparklines(struct pstat_printer *p,
			     const struct pstat_report *r)
{
	static const char *const bars[] = { "▁", "▂", "▃", "▄",
					     "▅", "▆", "▇", "█" };
	struct table_state *st = p->priv;

	if (!st || !p->cfg.is_tty || st->nintervals < 2 ||
	    st->nrows != r->nrows)
		return;
	fputs(" Rates per interval:\n\n", p->out);
	for (size_t i = 0; i < st->nrows; i++) {
		double lo = st->rates[i], hi = lo;

		for (size_t k = 0; k < st->nintervals; k++) {
			double v = st->rates[k * st->nrows + i];

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		fprintf(p->out, " %-*s ", NAME_W, r->rows[i].event);
		for (size_t k = 0; k < st->nintervals; k++) {
			double v = st->rates[k * st->nrows + i];
			int b = hi > lo ? (int)((v - lo) / (hi - lo) * 7.0 + 0.5)
					: 0;

			fputs(bars[b < 0 ? 0 : b > 7 ? 7 : b], p->out);
		}
		fputc('\n', p->out);
	}
	fputc('\n', p->out);
}

static void table_summary(struct pstat_printer *p,
			  const struct pstat_report *r)
{
	locale_t loc = enter_user_locale();

	print_started(p, r);
	fputc('\n', p->out);
	print_target(p->out, r);
	for (size_t i = 0; i < r->nrows; i++)
		print_row(p, &r->rows[i]);
	print_times(p->out, r);
	print_sparklines(p, r);
	leave_user_locale(loc);
}

static void remember_rates(struct pstat_printer *p,
			   const struct pstat_report *r)
{
	struct table_state *st = state(p);
	double secs = (double)(r->interval_end_ns - r->interval_start_ns) / 1e9;

	if (st->nintervals && st->nrows != r->nrows)
		return;
	st->nrows = r->nrows;
	xgrow((void **)&st->rates, &st->alloc,
	      (st->nintervals + 1) * r->nrows, sizeof(*st->rates));
	for (size_t i = 0; i < r->nrows; i++)
		st->rates[st->nintervals * r->nrows + i] =
			secs > 0 ? r->rows[i].value / secs : 0;
	st->nintervals++;
}

static void table_interval(struct pstat_printer *p,
			   const struct pstat_report *r)
{
	locale_t loc = enter_user_locale();
	uint64_t t = r->interval_end_ns;

	print_started(p, r);
	remember_rates(p, r);
	/* the header once, and every 25 lines on a terminal */
	if (p->lines == 0 || (p->cfg.is_tty && p->lines % 25 == 0))
		fprintf(p->out, "#%*s %*s %-4s %s\n", 15, "time", VALUE_W,
			"counts", "unit", "events");
	for (size_t i = 0; i < r->nrows; i++) {
		fprintf(p->out, "%6llu.%09llu ",
			(unsigned long long)(t / 1000000000ull),
			(unsigned long long)(t % 1000000000ull));
		print_row(p, &r->rows[i]);
	}
	if (r->interval_partial)
		fprintf(p->out, "# interval %lu is partial: %.3f ms\n",
			r->interval_index,
			(double)(r->interval_end_ns - r->interval_start_ns) /
				1e6);
	leave_user_locale(loc);
}

const struct pstat_printer_ops print_table_ops = {
	.summary = table_summary,
	.interval = table_interval,
	.free = table_free,
};
