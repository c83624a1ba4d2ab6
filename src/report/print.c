/* SPDX-License-Identifier: MIT */
#include <errno.h>
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

int printer_summary(struct pstat_printer *p, const struct pstat_report *r)
{
	p->err = 0;
	p->ops->summary(p, r);
	return p->err ? p->err : print_flush(p->out);
}

int printer_interval(struct pstat_printer *p, const struct pstat_report *r)
{
	p->err = 0;
	p->ops->interval(p, r);
	p->lines++;
	return p->err ? p->err : print_flush(p->out);
}

char *print_command_string(char *const *argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return xstrdup("");
	for (size_t i = 0; argv && argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fclose(f);
	return buf ? buf : xstrdup("");
}

/*
 * Digit grouping done here rather than with printf's ' flag, so that the
 * grouping follows LC_NUMERIC only where the caller asks for it (the
 * table) and machine output never sees it.
 */
const char *print_group_digits(char *buf, size_t len, double v, int big)
{
	const struct lconv *lc = localeconv();

	return big ? print_group_digits_rule(buf, len, v, lc->thousands_sep,
					     lc->grouping)
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
 * grouping as localeconv(3) gives it: the size of each group from the
 * right, the last size repeating (a 0 ends the string), CHAR_MAX or a
 * negative size for no more groups. en_IN's "\3\2" groups 12,34,567.
 */
const char *print_group_digits_rule(char *buf, size_t len, double v,
				    const char *sep, const char *grouping)
{
	char digits[400];
	bool mark[400] = { false };
	size_t n, sl = strlen(sep), o = 0;
	int neg = v < 0;
	long pos;

	print_whole_digits(digits, sizeof(digits), neg ? -v : v);
	n = strlen(digits);
	/* no "-0" for a value that rounds to zero */
	neg = neg && strcmp(digits, "0");
	pos = (long)n;
	for (const char *g = grouping; sl && g && *g > 0 && *g != CHAR_MAX;) {
		pos -= *g;
		if (pos <= 0)
			break;
		mark[pos] = true;
		if (g[1])
			g++;
	}
	if (neg && o + 1 < len)
		buf[o++] = '-';
	for (size_t i = 0; i < n && o + sl + 1 < len; i++) {
		if (mark[i]) {
			memcpy(buf + o, sep, sl);
			o += sl;
		}
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
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
