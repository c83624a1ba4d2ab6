/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench --plot FILE.svg`: one panel per measure, one lane per
 * command, each lane showing every sample as a dot over a box from the
 * first to the third quartile with a line at the median; beside the
 * lanes after the first, the ratio to the first command with its
 * interval and verdict. Plain SVG written here, no plotting program;
 * numbers in the C locale.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/libm.h"
#include "base/util.h"
#include "compare/bench_results.h"

#define PLOT_W        900
#define PLOT_LABEL_W  180   /* the command names, left */
#define PLOT_RATIO_W  260   /* the ratios, right */
#define PLOT_LANE_H   28
#define PLOT_HEAD_H   26

/* s with XML's five special characters escaped. */
static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile of sorted x[0..n-1], interpolated. */
static double quantile(const double *x, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (pos - (double)i) * (x[i + 1] - x[i]);
}

struct lane_scale {
	double lo, hi;
	double x0, w;
};

static double scale_x(const struct lane_scale *s, double v)
{
	if (!(s->hi > s->lo))
		return s->x0 + s->w / 2;
	return s->x0 + (v - s->lo) / (s->hi - s->lo) * s->w;
}

static void plot_lane(FILE *out, const struct pstat_bench *b, size_t c,
		      size_t r, const struct lane_scale *sc, double y)
{
	const struct pstat_bench_cmd *cmd = &b->cmds[c];
	const struct pstat_bench_row *row = &cmd->rows[r];
	double *x = xcalloc(cmd->runs + 1, sizeof(*x));
	double mid = y + PLOT_LANE_H / 2.0;
	size_t n = 0, nfail;
	char st[128];

	fprintf(out, "<g class=\"lane\" data-command=\"%zu\">\n", c);
	fprintf(out, "<text class=\"command\" x=\"4\" y=\"%.1f\">", mid + 4);
	xml_text(out, cmd->name);
	fputs("</text>\n", out);
	if ((nfail = bench_failed_runs(cmd, st, sizeof(st))))
		fprintf(out, "<text class=\"failed\" x=\"4\" y=\"%.1f\" font-size=\"9\" fill=\"#a40000\">%zu of %zu runs failed (exit status %s)</text>\n",
			mid + 13, nfail, cmd->runs, st);
	for (size_t k = 0; k < cmd->runs; k++)
		if (isfinite(row->samples[k]))
			x[n++] = row->samples[k];
	qsort(x, n, sizeof(*x), cmp_double);
	if (n) {
		double q1 = scale_x(sc, quantile(x, n, 0.25));
		double q3 = scale_x(sc, quantile(x, n, 0.75));
		double med = scale_x(sc, quantile(x, n, 0.5));

		fprintf(out, "<rect class=\"box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#cfe0f5\" stroke=\"#3465a4\"/>\n",
			q1, y + 4, libm_fmax(q3 - q1, 1), PLOT_LANE_H - 8);
		fprintf(out, "<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#204a87\" stroke-width=\"2\"/>\n",
			med, y + 2, med, y + PLOT_LANE_H - 2);
	}
	for (size_t k = 0; k < cmd->runs; k++) {
		if (!isfinite(row->samples[k]))
			continue;
		/* spread the dots a little vertically, by run */
		fprintf(out, "<circle class=\"sample\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#000\" fill-opacity=\"0.5\"/>\n",
			scale_x(sc, row->samples[k]),
			mid - 6 + (double)(k % 5) * 3);
	}
	if (c > 0 && cmd->nrows == b->cmds[0].nrows) {
		const struct pstat_bench_diff *d = bench_diff(b, c, r);
		char ratio[160], iv[80];

		if (isfinite(d->ratio) &&
		    *bench_format_interval(iv, sizeof(iv), d) == '[')
			snprintf(ratio, sizeof(ratio), "%.3fx %s %s", d->ratio, iv,
				 bench_verdict_name(d->verdict, 0));
		else if (isfinite(d->ratio))
			snprintf(ratio, sizeof(ratio), "%.3fx %s", d->ratio,
				 bench_verdict_name(d->verdict, 0));
		else
			snprintf(ratio, sizeof(ratio), "%s",
				 bench_verdict_name(d->verdict, 0));
		fprintf(out, "<text class=\"ratio\" x=\"%d\" y=\"%.1f\" fill=\"%s\">",
			PLOT_W - PLOT_RATIO_W + 8, mid + 4,
			d->verdict == BENCH_SLOWER ? "#a40000" :
			d->verdict == BENCH_FASTER ? "#4e9a06" : "#000");
		xml_text(out, ratio);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	free(x);
}

/* The lowest and highest sample of row r over every command. */
static void row_range(const struct pstat_bench *b, size_t r, double *lo,
		      double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t c = 0; c < b->ncmds; c++) {
		const struct pstat_bench_cmd *cmd = &b->cmds[c];

		if (r >= cmd->nrows)
			continue;
		for (size_t k = 0; k < cmd->runs; k++) {
			double v = cmd->rows[r].samples[k];

			if (isfinite(v)) {
				*lo = libm_fmin(*lo, v);
				*hi = libm_fmax(*hi, v);
			}
		}
	}
}

int bench_plot_svg(FILE *out, const struct pstat_bench *b)
{
	size_t nrows = b->ncmds ? b->cmds[0].nrows : 0, panels = 0;
	double panel_h = PLOT_HEAD_H + (double)b->ncmds * PLOT_LANE_H + 10;
	double y = 0;

	for (size_t r = 0; r < nrows; r++)
		panels += !b->cmds[0].rows[r].hidden;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
		PLOT_W, panel_h * (double)panels + 4, PLOT_W,
		panel_h * (double)panels + 4);
	fputs("<title>pstat bench</title>\n", out);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
	for (size_t r = 0; r < nrows; r++) {
		const struct pstat_bench_row *row = &b->cmds[0].rows[r];
		struct lane_scale sc;
		char lo[48], hi[48];

		if (row->hidden)
			continue;
		row_range(b, r, &sc.lo, &sc.hi);
		sc.x0 = PLOT_LABEL_W;
		sc.w = PLOT_W - PLOT_LABEL_W - PLOT_RATIO_W;
		fprintf(out, "<g class=\"measure\" data-measure=\"");
		xml_text(out, row->name);
		fprintf(out, "\" transform=\"translate(0,%.0f)\">\n", y);
		fprintf(out, "<text class=\"title\" x=\"4\" y=\"16\" font-weight=\"bold\">");
		xml_text(out, row->name);
		if (*row->unit) {
			fputs(" (", out);
			xml_text(out, row->unit);
			fputc(')', out);
		}
		fputs("</text>\n", out);
		if (isfinite(sc.lo)) {
			bench_format_value(lo, sizeof(lo), row, sc.lo,
					   bench_row_unit(b, row));
			bench_format_value(hi, sizeof(hi), row, sc.hi,
					   bench_row_unit(b, row));
			fprintf(out, "<text class=\"axis\" x=\"%d\" y=\"16\">", PLOT_LABEL_W);
			xml_text(out, lo);
			fprintf(out, "</text>\n<text class=\"axis\" x=\"%d\" y=\"16\" text-anchor=\"end\">",
				PLOT_W - PLOT_RATIO_W);
			xml_text(out, hi);
			fputs("</text>\n", out);
		}
		for (size_t c = 0; c < b->ncmds; c++)
			if (r < b->cmds[c].nrows)
				plot_lane(out, b, c, r, &sc,
					  PLOT_HEAD_H + (double)c * PLOT_LANE_H);
		fputs("</g>\n", out);
		y += panel_h;
	}
	fputs("</svg>\n", out);
	return fflush(out) == EOF || ferror(out) ? -EIO : 0;
}
