/* SPDX-License-Identifier: MIT */
/*
 * The printers of `pstat compare`: an aligned table for terminals and CI
 * logs, and Markdown for a pull-request comment (the JSON document is in
 * print_json.c). Also the capture printer behind --baseline, which keeps
 * the run's summary as a pstat/1 document so that a run is compared
 * through exactly the reader `pstat compare` uses on saved files.
 *
 * Numbers are grouped with ',' here, not with the locale's separator:
 * a comparison is read in CI logs and pasted into reviews, where a
 * stable spelling matters more than LC_NUMERIC.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/libm.h"
#include "base/util.h"
#include "compare/compare.h"
#include "compare/print_compare.h"
#include "report/print.h"

/* v rounded, with ',' between groups of three digits; sign: a '+' too. */
static void group(char *buf, size_t len, double v, int sign)
{
	if (sign && len > 1 && v > 0 && rint(v) != 0) {
		buf[0] = '+';
		print_group_digits_sep(buf + 1, len - 1, v, ",");
	} else {
		print_group_digits_sep(buf, len, v, ",");
	}
}

/*
 * How many decimals the numbers of a row get: the same for its base,
 * new, delta and interval, so that they read alike. None for whole
 * counts and for anything from 1000 up (grouped), two from 1 (msec,
 * means of small counts, insn per cycle), and three significant digits
 * of the larger value below 1.
 */
static int row_decimals(const struct pstat_compare_item *it)
{
	const double v[] = { it->base.value, it->new.value };
	double m = 0;
	int whole = 1, dec;

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		if (!isfinite(v[i]))
			continue;
		m = libm_fmax(m, fabs(v[i]));
		whole &= v[i] == floor(v[i]);
	}
	if (whole || m >= 1000)
		return 0;
	if (m >= 1)
		return 2;
	dec = 2 - (int)floor(libm_log10(m));
	return dec < 9 ? dec : 9;
}

/*
 * A value for people with dec decimals (row_decimals), grouped when it
 * has none; sign: a '+' on positive numbers (deltas).
 */
static const char *num(char *buf, size_t len, double v, int dec, int sign)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
	} else if (isinf(v)) {
		snprintf(buf, len, "%sinf", v < 0 ? "-" : sign ? "+" : "");
	} else if (!dec) {
		group(buf, len, v, sign);
	} else {
		/* what rounds to zero is 0.00, with no sign */
		if (fabs(v) < 0.5 * libm_pow(10, -dec)) {
			v = 0;
			sign = 0;
		}
		snprintf(buf, len, sign ? "%+.*f" : "%.*f", dec, v);
	}
	return buf;
}

/* The confidence interval of the delta, "-1.20 .. +3.40", or "-". */
static const char *ci(char *buf, size_t len,
		      const struct pstat_compare_item *it, int dec)
{
	char lo[128], hi[128];

	if (!it->tested || isnan(it->ci_lo) || isnan(it->ci_hi))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s .. %s",
			 num(lo, sizeof(lo), it->ci_lo, dec, 1),
			 num(hi, sizeof(hi), it->ci_hi, dec, 1));
	return buf;
}

static int item_valid(const struct pstat_compare_item *it)
{
	return it->verdict != VERDICT_MISSING && it->verdict != VERDICT_INVALID;
}

static const char *pct(char *buf, size_t len,
		       const struct pstat_compare_item *it)
{
	if (!item_valid(it))
		snprintf(buf, len, "-");
	else if (isnan(it->delta_pct))
		snprintf(buf, len, "n/a");
	else if (it->delta_pct == 0)
		snprintf(buf, len, "0.00%%");
	else
		snprintf(buf, len, "%+.2f%%", it->delta_pct);
	return buf;
}

static const char *pval(char *buf, size_t len,
			const struct pstat_compare_item *it)
{
	if (!it->tested || isnan(it->p))
		snprintf(buf, len, "-");
	else if (it->p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", it->p);
	return buf;
}

static const char *limit(char *buf, size_t len,
			 const struct pstat_compare_item *it)
{
	if (it->limit_kind == LIMIT_ABSOLUTE)
		snprintf(buf, len, "+%g", it->limit);
	else
		snprintf(buf, len, "%g%%", it->limit);
	return buf;
}

/* "regressed (limit 0.5%)", "invalid: multiplexed in new", ... */
static char *verdict_text(const struct pstat_compare_item *it)
{
	char lim[64];

	if (it->reason)
		return xasprintf("%s: %s", compare_verdict_name(it->verdict, 0),
				 it->reason);
	if (it->verdict == VERDICT_UNCHANGED)
		return xstrdup("unchanged");
	return xasprintf("%s (limit %s)", compare_verdict_name(it->verdict, 0),
			 limit(lim, sizeof(lim), it));
}

/*
 * The entry's name and unit, escaped: they come from run documents,
 * where an event name may hold a terminal's escape sequence.
 */
static char *item_label(const struct pstat_compare_item *it)
{
	char *name = str_escape(it->name), *unit, *s;

	if (!*it->unit)
		return name;
	unit = str_escape(it->unit);
	s = xasprintf("%s (%s)", name, unit);
	free(name);
	free(unit);
	return s;
}

/* "regression: 1 regressed, 5 unchanged" */
static char *summary_line(const struct pstat_compare *c)
{
	static const char *const outcome[] = {
		[COMPARE_EXIT_OK] = "no regression",
		[COMPARE_EXIT_REGRESSION] = "regression",
		[COMPARE_EXIT_INCOMPARABLE] = "not comparable",
	};
	const char *what = "?";
	char *s;
	int first = 1;

	if (c->status >= 0 && (size_t)c->status < ARRAY_SIZE(outcome) &&
	    outcome[c->status])
		what = outcome[c->status];
	s = xstrdup(what);

	for (int v = VERDICT_REGRESSED; v <= VERDICT_INVALID; v++) {
		char *t;

		if (!c->count[v])
			continue;
		t = xasprintf("%s%s %zu %s", s, first ? ":" : ",", c->count[v],
			      compare_verdict_name(v, 0));
		free(s);
		s = t;
		first = 0;
	}
	return s;
}

enum {
	COL_EVENT,
	COL_BASE,
	COL_NEW,
	COL_DELTA,
	COL_PCT,
	COL_CI,
	COL_P,
	COL_VERDICT,
	NCOLS
};

/* The cells of one row; free each with free(). */
static void cells(const struct pstat_compare_item *it, char *cell[NCOLS])
{
	char buf[512];
	int dec = row_decimals(it);

	cell[COL_EVENT] = item_label(it);
	cell[COL_BASE] = xstrdup(num(buf, sizeof(buf), it->base.value, dec, 0));
	cell[COL_NEW] = xstrdup(num(buf, sizeof(buf), it->new.value, dec, 0));
	cell[COL_DELTA] = xstrdup(num(buf, sizeof(buf), it->delta, dec, 1));
	cell[COL_PCT] = xstrdup(pct(buf, sizeof(buf), it));
	cell[COL_CI] = xstrdup(ci(buf, sizeof(buf), it, dec));
	cell[COL_P] = xstrdup(pval(buf, sizeof(buf), it));
	cell[COL_VERDICT] = verdict_text(it);
}

static void print_table(FILE *out, const struct pstat_compare *c)
{
	const char *head[NCOLS] = {
		"event", "base", "new", "delta", "delta%", NULL, "p", "verdict",
	};
	size_t w[NCOLS];
	char *(*rows)[NCOLS] = xcalloc(c->nitems + 1, sizeof(*rows));
	char *sum, *ci_head, *base, *new;

	/* the interval's level is 1 - alpha: "95% CI" by default */
	head[COL_CI] = ci_head = xasprintf("%g%% CI", 100 * (1 - c->alpha));

	for (int k = 0; k < NCOLS; k++)
		w[k] = strlen(head[k]);
	for (size_t i = 0; i < c->nitems; i++) {
		cells(&c->items[i], rows[i]);
		for (int k = 0; k < NCOLS; k++)
			if (strlen(rows[i][k]) > w[k])
				w[k] = strlen(rows[i][k]);
	}
	base = str_escape(c->base_label);
	new = str_escape(c->new_label);
	fprintf(out, "base: %s (%d run%s), new: %s (%d run%s), alpha %g\n\n",
		base, c->base_runs, c->base_runs == 1 ? "" : "s", new,
		c->new_runs, c->new_runs == 1 ? "" : "s", c->alpha);
	free(base);
	free(new);
	fprintf(out, "%-*s", (int)w[0], head[0]);
	for (int k = 1; k < COL_VERDICT; k++)
		fprintf(out, "  %*s", (int)w[k], head[k]);
	fprintf(out, "  %s\n", head[COL_VERDICT]);
	for (size_t i = 0; i < c->nitems; i++) {
		fprintf(out, "%-*s", (int)w[0], rows[i][0]);
		for (int k = 1; k < COL_VERDICT; k++)
			fprintf(out, "  %*s", (int)w[k], rows[i][k]);
		fprintf(out, "  %s\n", rows[i][COL_VERDICT]);
		for (int k = 0; k < NCOLS; k++)
			free(rows[i][k]);
	}
	free(rows);
	free(ci_head);
	sum = summary_line(c);
	fprintf(out, "\n%s\n", sum);
	free(sum);
}

/*
 * Text for a Markdown table cell: no '|', no markup taken from names, no
 * control characters (str_escape).
 */
static void md_text(FILE *out, const char *text)
{
	char *e = str_escape(text);

	for (const char *s = e; *s; s++) {
		if (strchr("\\`*_[]<>|#~", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
	free(e);
}

static void print_markdown(FILE *out, const struct pstat_compare *c)
{
	char *sum = summary_line(c), *colon = strchr(sum, ':');

	/* the outcome in bold, then the counts: one line for the review */
	fprintf(out, "**pstat: %.*s**%s (base ",
		colon ? (int)(colon - sum) : (int)strlen(sum), sum,
		colon ? colon : "");
	md_text(out, c->base_label);
	fprintf(out, ", %d run%s; new ", c->base_runs,
		c->base_runs == 1 ? "" : "s");
	md_text(out, c->new_label);
	fprintf(out, ", %d run%s; alpha %g)\n\n", c->new_runs,
		c->new_runs == 1 ? "" : "s", c->alpha);
	free(sum);
	fprintf(out, "| event | base | new | delta | delta %% | %g%% CI of delta | p | verdict |\n",
		100 * (1 - c->alpha));
	fprintf(out, "| :--- | ---: | ---: | ---: | ---: | ---: | ---: | :--- |\n");
	for (size_t i = 0; i < c->nitems; i++) {
		const struct pstat_compare_item *it = &c->items[i];
		char *cell[NCOLS];

		cells(it, cell);
		fputs("| ", out);
		md_text(out, cell[COL_EVENT]);
		for (int k = COL_BASE; k <= COL_P; k++)
			fprintf(out, " | %s", cell[k]);
		fputs(" | ", out);
		if (it->verdict == VERDICT_REGRESSED)
			fputs("**", out);
		md_text(out, cell[COL_VERDICT]);
		if (it->verdict == VERDICT_REGRESSED)
			fputs("**", out);
		fputs(" |\n", out);
		for (int k = 0; k < NCOLS; k++)
			free(cell[k]);
	}
}

int print_compare(FILE *out, enum pstat_compare_format fmt,
		  const struct pstat_compare *c)
{
	switch (fmt) {
	case COMPARE_JSON:
		return print_json_compare(out, c);
	case COMPARE_MARKDOWN:
		print_markdown(out, c);
		break;
	case COMPARE_TABLE:
		print_table(out, c);
		break;
	}
	return print_flush(out);
}

struct capture {
	struct pstat_printer *inner;
	char *json;
	size_t len;
	int ok;
};

static void capture_summary(struct pstat_printer *p,
			    const struct pstat_report *r)
{
	struct capture *c = p->priv;
	struct pstat_print_cfg cfg = { .format = FORMAT_JSON };
	struct pstat_printer *jp;
	FILE *mem;
	int ret = printer_summary(c->inner, r);

	free(c->json);
	c->json = NULL;
	c->len = 0;
	c->ok = 0;
	mem = open_memstream(&c->json, &c->len);
	if (mem) {
		jp = printer_new(&cfg, mem);
		c->ok = printer_summary(jp, r) == 0;
		printer_free(jp);
		if (fclose(mem))
			c->ok = 0;
	}
	/* a failure of the real output is what the caller reports */
	p->err = ret;
}

static void capture_interval(struct pstat_printer *p,
			     const struct pstat_report *r)
{
	struct capture *c = p->priv;
	p->err = printer_interval(c->inner, r);
}

static void capture_free(struct pstat_printer *p)
{
	struct capture *c = p->priv;

	if (!c)
		return;
	printer_free(c->inner);
	free(c->json);
	free(c);
	p->priv = NULL;
}

static const struct pstat_printer_ops capture_ops = {
	.summary = capture_summary,
	.interval = capture_interval,
	.free = capture_free,
};

struct pstat_printer *printer_capture_new(struct pstat_printer *inner)
{
	struct pstat_printer *p = xcalloc(1, sizeof(*p));
	struct capture *c = xcalloc(1, sizeof(*c));

	c->inner = inner;
	p->ops = &capture_ops;
	/* the session asks the format (JSON needs machine facts): inner's */
	p->cfg = inner->cfg;
	p->out = inner->out;
	p->priv = c;
	return p;
}

const char *printer_capture_json(struct pstat_printer *p, size_t *len)
{
	struct capture *c;

	if (!p || p->ops != &capture_ops)
		return NULL;
	c = p->priv;
	if (!c->ok || !c->json)
		return NULL;
	*len = c->len;
	return c->json;
}
