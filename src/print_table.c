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
static locale_t enter_user_locale(void)
{
	locale_t loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);

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

static void print_started(struct pstat_printer *p,
			  const struct pstat_report *r)
{
	char buf[64];
	time_t t = r->started_at.tv_sec;

	if (!p->cfg.started_header || p->priv)
		return;
	p->priv = p; /* only once per printer */
	ctime_r(&t, buf);
	fprintf(p->out, "# started on %s\n", buf);
}

static void print_target(FILE *out, const struct pstat_report *r)
{
	char *cmd;

	fputs(" Performance counter stats for ", out);
	switch (r->target) {
	case TARGET_COMMAND:
		if (r->system_wide) {
			fputs("'system wide'", out);
			break;
		}
		cmd = print_command_string(r->argv);
		fprintf(out, "'%s'", cmd);
		free(cmd);
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
	case TARGET_SYSTEM:
		if (r->cpus && r->ncpus) {
			fputs("'CPU(s) ", out);
			for (size_t i = 0; i < r->ncpus; i++)
				fprintf(out, "%s%d", i ? "," : "", r->cpus[i]);
			fputc('\'', out);
		} else {
			fputs("'system wide'", out);
		}
		break;
	}
	if (r->runs > 1)
		fprintf(out, " (%d runs)", r->runs);
	fputs(":\n\n", out);
}

/* perf's convert_unit_double for rates. */
static const char *rate_unit(double *v)
{
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

static void print_metric(FILE *out, const struct pstat_row *row)
{
	char val[32], unit[48];
	double v = row->metric.value;
	const char *name = row->metric.name;

	if (!strcmp(name, "/sec")) {
		name = rate_unit(&v);
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
		if (row->value != floor(row->value) || row->value >= 1e18 ||
		    !strcmp(row->unit, "msec"))
			fprintf(out, "%*.2f ", VALUE_W, row->value);
		else
			fprintf(out, "%*s ", VALUE_W,
				print_group_digits(buf, sizeof(buf),
						   row->value, p->cfg.big_num));
		break;
	}
	fprintf(out, "%-4s ", row->status <= PSTAT_MULTIPLEXED ? row->unit
								 : "");
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
	if (row->stats && row->stats->n > 1 && row->status <= PSTAT_MULTIPLEXED)
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
	if (es && es->n > 1)
		fprintf(out,
			" %17.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n",
			es->mean / 1e9, es->stderr_mean / 1e9,
			stats_rel_stderr_pct(es));
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

static void table_summary(struct pstat_printer *p,
			  const struct pstat_report *r)
{
	locale_t loc = enter_user_locale();

	print_started(p, r);
	if (p->lines)
		fputc('\n', p->out);
	else
		fputc('\n', p->out);
	print_target(p->out, r);
	for (size_t i = 0; i < r->nrows; i++)
		print_row(p, &r->rows[i]);
	print_times(p->out, r);
	leave_user_locale(loc);
}

static void table_interval(struct pstat_printer *p,
			   const struct pstat_report *r)
{
	locale_t loc = enter_user_locale();
	uint64_t t = r->interval_end_ns;

	print_started(p, r);
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
	.free = NULL,
};
