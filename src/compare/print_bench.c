/* SPDX-License-Identifier: MIT */
/*
 * The text printers of `pstat bench`: the terminal report (each
 * command's statistics, a histogram of its wall times, outliers, then
 * every command against the first), and the Markdown and CSV exports.
 * Numbers are spelled in the C locale, grouped with ',' as pstat
 * compare groups them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compare/bench_results.h"
#include "report/print.h"

#define COLOR_RED   "\033[31m"
#define COLOR_GREEN "\033[32m"
#define COLOR_BOLD  "\033[1m"
#define COLOR_OFF   "\033[0m"

/* Bins of the wall-time histogram. */
#define HIST_BINS 10

static int row_shown(const struct pstat_bench_row *r)
{
	return !r->hidden;
}

/* The wall times of c in HIST_BINS bins from min to max, as glyphs. */
static void histogram(char *buf, size_t len, const struct pstat_bench_cmd *c)
{
	const struct pstat_bench_row *w = &c->rows[BENCH_ROW_WALL];
	double bins[HIST_BINS] = { 0 };
	double lo = w->sum.min, span = w->sum.max - w->sum.min;

	buf[0] = '\0';
	if (c->runs < 2 || !(span > 0))
		return;
	for (size_t k = 0; k < c->runs; k++) {
		size_t b = (size_t)((w->samples[k] - lo) / span * HIST_BINS);

		bins[b < HIST_BINS ? b : HIST_BINS - 1] += 1;
	}
	print_sparkline(buf, len, bins, HIST_BINS, 1, HIST_BINS);
}

/*
 * s in a field of width columns, right-aligned (or left when width is
 * negative), counting characters, not bytes ("µs").
 */
static void field(FILE *out, const char *s, int width)
{
	int cols = 0, w = width < 0 ? -width : width;

	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	if (width < 0)
		fputs(s, out);
	for (; cols < w; cols++)
		fputc(' ', out);
	if (width > 0)
		fputs(s, out);
}

/* A value of row r, in the row's unit. */
static const char *format_value(char *buf, size_t len,
				const struct pstat_bench *b,
				const struct pstat_bench_row *r, double v)
{
	return bench_format_value(buf, len, r, v, bench_row_unit(b, r));
}

/* A row's summary as the table and the Markdown show it. */
struct summary_text {
	char mean[48], sd[48], min[48], med[48], max[48];
};

static void format_summary(struct summary_text *t, const struct pstat_bench *b,
			   const struct pstat_bench_row *r)
{
	format_value(t->mean, sizeof(t->mean), b, r, r->sum.mean);
	format_value(t->sd, sizeof(t->sd), b, r, r->sum.stddev);
	format_value(t->min, sizeof(t->min), b, r, r->sum.min);
	format_value(t->med, sizeof(t->med), b, r, r->sum.median);
	format_value(t->max, sizeof(t->max), b, r, r->sum.max);
}

static void print_row(FILE *out, const struct pstat_bench *b,
		      const struct pstat_bench_row *r, size_t runs)
{
	struct summary_text t;

	if (!r->sum.n) {
		fprintf(out, "  %-28s %s\n", r->name,
			r->status == PSTAT_NOT_SUPPORTED ? "<not supported>" :
			r->status == PSTAT_ERROR ? "<error>" :
						   "<not counted>");
		return;
	}
	format_summary(&t, b, r);
	fprintf(out, "  %-28s ", r->name);
	field(out, t.mean, 14);
	/* one run has no spread to show */
	fputs(r->sum.n > 1 ? " ± " : "   ", out);
	field(out, r->sum.n > 1 ? t.sd : "", -12);
	fputc(' ', out);
	field(out, t.min, 14);
	fputc(' ', out);
	field(out, t.med, 14);
	fputc(' ', out);
	field(out, t.max, 14);
	if (r->sum.n < runs)
		fprintf(out, "  (counted in %zu of %zu runs)", r->sum.n, runs);
	else if (r->running_min < 100)
		fprintf(out, "  (counted %.0f%% of the time at worst)",
			r->running_min);
	fputc('\n', out);
}

/* The line of a command whose runs failed, in the report. */
static void print_failed(FILE *out, const struct pstat_bench_cmd *c)
{
	char st[128];
	size_t n = bench_failed_runs(c, st, sizeof(st));

	if (n)
		fprintf(out, "  failed: %zu of %zu runs (exit status%s %s), counted all the same\n",
			n, c->runs, strchr(st, ' ') ? "es" : "", st);
	if (c->leftovers)
		fprintf(out, "  left %zu process%s running after its runs, ended\n",
			c->leftovers, c->leftovers == 1 ? "" : "es");
}

static void print_cmd(FILE *out, const struct pstat_bench *b, size_t i,
		      const struct pstat_bench_print_cfg *cfg)
{
	const struct pstat_bench_cmd *c = &b->cmds[i];
	char hist[HIST_BINS * 4 + 1];

	fprintf(out, "%sBenchmark %zu: %s%s\n", cfg->color ? COLOR_BOLD : "",
		i + 1, c->label, cfg->color ? COLOR_OFF : "");
	if (strcmp(c->name, c->command))
		fprintf(out, "  command: %s\n", c->label_cmd);
	if (!c->nrows) {
		fprintf(out, "  no run was recorded\n\n");
		return;
	}
	if (c->per > 0)
		fprintf(out, "  (counters per %s: each run divided by %.0f)\n",
			b->per_unit ? b->per_unit : "unit of work", c->per);
	fprintf(out, "  %-28s %14s   %-12s %14s %14s %14s\n", "", "mean",
		"± stddev", "min", "median", "max");
	for (size_t r = 0; r < c->nrows; r++)
		if (row_shown(&c->rows[r]))
			print_row(out, b, &c->rows[r], c->runs);
	histogram(hist, sizeof(hist), c);
	if (hist[0] && cfg->utf8)
		fprintf(out, "  wall times, %zu runs: %s (min to max)\n", c->runs,
			hist);
	else
		fprintf(out, "  %zu run%s\n", c->runs, c->runs == 1 ? "" : "s");
	print_failed(out, c);
	for (size_t k = 0; k < c->noutliers; k++) {
		const struct pstat_bench_outlier *o = &c->outliers[k];
		char w[48];

		format_value(w, sizeof(w), b, &c->rows[BENCH_ROW_WALL],
			     c->rows[BENCH_ROW_WALL].samples[o->run]);
		fprintf(out, "  outlier: run %zu took %s (modified z-score %.1f)%s%s\n",
			o->run + 1, w, o->z, o->reason[0] ? ": " : "",
			o->reason);
	}
	fputc('\n', out);
}

/* "1.234x", or "-" when there is no ratio. */
static const char *ratio_str(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3fx", v);
	return buf;
}

static void print_diffs(FILE *out, const struct pstat_bench *b, size_t c,
			const struct pstat_bench_print_cfg *cfg)
{
	const struct pstat_bench_cmd *base = &b->cmds[0], *cmd = &b->cmds[c];

	fprintf(out, "%s%s against %s%s (Welch's t-test, alpha %g):\n",
		cfg->color ? COLOR_BOLD : "", cmd->label, base->label,
		cfg->color ? COLOR_OFF : "", b->alpha);
	fprintf(out, "  %-28s %9s  %-22s %8s  %s\n", "", "ratio",
		"interval", "p", "verdict");
	for (size_t r = 0; r < cmd->nrows; r++) {
		const struct pstat_bench_diff *d = bench_diff(b, c, r);
		char ratio[32], iv[80], p[32];
		int sig = d->verdict == BENCH_SLOWER ||
			  d->verdict == BENCH_FASTER;
		const char *on = !cfg->color || !sig ? "" :
				 d->verdict == BENCH_SLOWER ? COLOR_RED :
							      COLOR_GREEN;

		if (!row_shown(&cmd->rows[r]) || !row_shown(&base->rows[r]))
			continue;
		ratio_str(ratio, sizeof(ratio), d->ratio);
		bench_format_interval(iv, sizeof(iv), d);
		if (!d->tested)
			snprintf(p, sizeof(p), "-");
		else if (d->p < 0.001)
			snprintf(p, sizeof(p), "<0.001");
		else
			snprintf(p, sizeof(p), "%.3f", d->p);
		fprintf(out, "%s%s %-28s %9s  %-22s %8s  %s%s\n", on,
			sig ? "*" : " ", cmd->rows[r].name, ratio, iv, p,
			bench_verdict_name(d->verdict, 0),
			*on ? COLOR_OFF : "");
	}
	fputc('\n', out);
}

/*
 * The shell's start-up, when measured: what it took, and what it was
 * taken out of.
 */
static void print_probe(FILE *out, const struct pstat_bench *b)
{
	const struct pstat_bench_cmd *p = b->shell_probe;
	const struct pstat_bench_row *wall;
	char w[48], sd[48], u[48], s[48], list[4 * 64] = "";
	size_t off = 0;

	if (!p || !p->nrows || !p->rows[BENCH_ROW_WALL].sum.n)
		return;
	for (size_t c = 0; c < b->ncmds; c++)
		if (b->cmds[c].via_shell && off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off,
						"%s%zu", off ? ", " : "", c + 1);
	wall = &p->rows[BENCH_ROW_WALL];
	format_value(w, sizeof(w), b, wall, wall->sum.mean);
	format_value(sd, sizeof(sd), b, wall, wall->sum.stddev);
	format_value(u, sizeof(u), b, &p->rows[BENCH_ROW_USER],
		     p->rows[BENCH_ROW_USER].sum.mean);
	format_value(s, sizeof(s), b, &p->rows[BENCH_ROW_SYS],
		     p->rows[BENCH_ROW_SYS].sum.mean);
	fprintf(out, "shell start-up ('%s -c \"\"', in every round): %s ± %s wall, %s user, %s sys;\n"
		"  taken out of the times and task-clock of command%s %s, run by run\n",
		p->label, w, sd, u, s, strchr(list, ',') ? "s" : "", list);
}

/* What was run: rounds, order, warm-up, and an early end. */
static void print_header(FILE *out, const struct pstat_bench *b)
{
	fprintf(out, "%zu round%s of %zu command%s, ", b->rounds,
		b->rounds == 1 ? "" : "s", b->ncmds, b->ncmds == 1 ? "" : "s");
	if (b->shuffle)
		fprintf(out, "in a shuffled order per round (--seed %llu)",
			(unsigned long long)b->seed);
	else
		fprintf(out, "interleaved");
	if (b->warmup)
		fprintf(out, ", after %u warm-up round%s", b->warmup,
			b->warmup == 1 ? "" : "s");
	if (b->interrupted)
		fprintf(out, "; ended early by signal %d (%s)", b->interrupted,
			strsignal(b->interrupted));
	fputs("\n", out);
	print_probe(out, b);
	fputc('\n', out);
}

int bench_print_table(FILE *out, const struct pstat_bench *b,
		      const struct pstat_bench_print_cfg *cfg)
{
	size_t *order;

	print_header(out, b);
	for (size_t i = 0; i < b->ncmds; i++)
		print_cmd(out, b, i, cfg);
	order = bench_order(b, 1);
	for (size_t i = 0; i < b->ncmds; i++) {
		size_t c = order[i];

		if (c && b->cmds[c].nrows &&
		    b->cmds[c].nrows == b->cmds[0].nrows)
			print_diffs(out, b, c, cfg);
	}
	free(order);
	return print_flush(out);
}

/* s with '|' escaped, for a Markdown cell (s has no line break). */
static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

/*
 * s (escaped: no control character) as a Markdown code span, fenced by
 * more backticks than any run of them in s, as CommonMark allows.
 */
static void md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0;
	int pad;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	pad = *s == '`' || (*s && s[strlen(s) - 1] == '`');
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	fputs(pad ? " " : "", out);
	md_cell(out, s);
	fputs(pad ? " " : "", out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

int bench_print_markdown(FILE *out, const struct pstat_bench *b)
{
	fprintf(out, "| Command | Measure | Mean ± σ | Min | Median | Max | Ratio | Verdict |\n");
	fprintf(out, "|:---|:---|---:|---:|---:|---:|---:|:---|\n");
	size_t *order = bench_order(b, 0);

	for (size_t i = 0; i < b->ncmds; i++) {
		size_t c = order[i];
		const struct pstat_bench_cmd *cmd = &b->cmds[c];

		for (size_t r = 0; r < cmd->nrows; r++) {
			const struct pstat_bench_row *row = &cmd->rows[r];
			struct summary_text t;
			char ratio[32];
			const char *verdict = "";

			if (!row_shown(row))
				continue;
			format_summary(&t, b, row);
			if (c == 0) {
				snprintf(ratio, sizeof(ratio), "1.000x");
			} else if (cmd->nrows == b->cmds[0].nrows) {
				const struct pstat_bench_diff *d =
					bench_diff(b, c, r);

				ratio_str(ratio, sizeof(ratio), d->ratio);
				verdict = bench_verdict_name(d->verdict, 0);
			} else {
				snprintf(ratio, sizeof(ratio), "-");
			}
			fputs("| ", out);
			md_code(out, cmd->label);
			fputs(" | ", out);
			md_cell(out, row->name);
			fprintf(out, " | %s%s%s | %s | %s | %s | %s | %s |\n",
				t.mean, row->sum.n > 1 ? " ± " : "",
				row->sum.n > 1 ? t.sd : "", t.min, t.med, t.max,
				ratio, verdict);
		}
	}
	free(order);
	for (size_t c = 0; c < b->ncmds; c++) {
		char st[128];
		size_t n = bench_failed_runs(&b->cmds[c], st, sizeof(st));

		if (!n)
			continue;
		fputs("\nFailed runs: ", out);
		md_code(out, b->cmds[c].label);
		fprintf(out, ", %zu of %zu (exit status%s %s).\n", n,
			b->cmds[c].runs, strchr(st, ' ') ? "es" : "", st);
	}
	return print_flush(out);
}

/* A CSV field, quoted when it holds ',', '"' or a line break. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A number as %.17g, inf (an unbounded interval), or nothing. */
static void csv_num(FILE *out, double v)
{
	fputc(',', out);
	if (isfinite(v))
		fprintf(out, "%.17g", v);
	else if (isinf(v))
		fputs(v > 0 ? "inf" : "-inf", out);
}

int bench_print_csv(FILE *out, const struct pstat_bench *b)
{
	fprintf(out, "command,measure,unit,runs,mean,stddev,min,median,max,"
		     "ratio,ratio_low,ratio_high,p,verdict,failed_runs,"
		     "exit_statuses\n");
	for (size_t c = 0; c < b->ncmds; c++) {
		const struct pstat_bench_cmd *cmd = &b->cmds[c];

		for (size_t r = 0; r < cmd->nrows; r++) {
			const struct pstat_bench_row *row = &cmd->rows[r];
			const struct pstat_bench_diff *d = NULL;
			char st[128];

			if (!row_shown(row))
				continue;
			if (c && cmd->nrows == b->cmds[0].nrows)
				d = bench_diff(b, c, r);
			csv_field(out, cmd->label);
			fputc(',', out);
			csv_field(out, row->name);
			fputc(',', out);
			csv_field(out, row->unit);
			fprintf(out, ",%zu", row->sum.n);
			csv_num(out, row->sum.n ? row->sum.mean : NAN);
			csv_num(out, row->sum.n > 1 ? row->sum.stddev : NAN);
			csv_num(out, row->sum.n ? row->sum.min : NAN);
			csv_num(out, row->sum.n ? row->sum.median : NAN);
			csv_num(out, row->sum.n ? row->sum.max : NAN);
			csv_num(out, c == 0 ? 1.0 : d ? d->ratio : NAN);
			csv_num(out, d ? d->ratio_lo : NAN);
			csv_num(out, d ? d->ratio_hi : NAN);
			csv_num(out, d ? d->p : NAN);
			fprintf(out, ",%s,%zu,%s\n",
				d ? bench_verdict_name(d->verdict, 1) : "",
				bench_failed_runs(cmd, st, sizeof(st)), st);
		}
	}
	return print_flush(out);
}
