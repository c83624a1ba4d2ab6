/* SPDX-License-Identifier: MIT */
/*
 * `pstat compare`'s threshold rules (--threshold, --alpha): parsing
 * them, and finding the rule that applies to a compared item. Pure.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compare/compare.h"

/*
 * A decimal number: digits with at most one '.', nothing else, at most
 * 15 significant digits so that the integer mantissa and the power of
 * ten are both exact and their quotient is correctly rounded. strtod
 * would follow LC_NUMERIC and accept hex, exponents, "inf" and blanks.
 */
static int parse_decimal(const char *s, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
		1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	};
	uint64_t mant = 0;
	int digits = 0, frac = 0, dot = 0;

	for (const char *p = s; *p; p++) {
		if (*p == '.' && !dot) {
			dot = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			return -EINVAL;
		if (mant || *p != '0')
			digits++;
		if (digits > 15)
			return -ERANGE;
		mant = mant * 10 + (uint64_t)(*p - '0');
		if (dot)
			frac++;
	}
	/* at least one digit: not "", ".", "5." is fine, ".5" too */
	if (!*s || (dot && strlen(s) == 1))
		return -EINVAL;
	if (frac > 15)
		return -ERANGE;
	*out = (double)mant / pow10[frac];
	return 0;
}

int compare_parse_alpha(const char *s, double *alpha)
{
	static locale_t c_locale;
	char *end;
	double v;

	/* the C locale's '.', whatever LC_NUMERIC says */
	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = c_locale ? strtod_l(s, &end, c_locale) : strtod(s, &end);
	if (end == s || *end)
		return -EINVAL;
	/* NaN fails this too; an underflow to 0 is out of range */
	if (!(v > 0 && v < 1) || errno == ERANGE)
		return -ERANGE;
	*alpha = v;
	return 0;
}

/* The limit of one rule: "N%" or "+N". */
static int parse_limit(const char *s, struct pstat_compare_rule *r,
		       struct pstat_error *err, long off, const char *text)
{
	size_t len = strlen(s);
	char *num;
	int ret;

	if (s[0] == '+') {
		r->kind = LIMIT_ABSOLUTE;
		num = xstrdup(s + 1);
	} else if (len > 1 && s[len - 1] == '%') {
		r->kind = LIMIT_RELATIVE;
		num = xstrndup(s, len - 1);
	} else {
		return error_set(err, off,
				 "invalid limit in '%s': write N%% (relative) or +N (absolute)",
				 text);
	}
	ret = parse_decimal(num, &r->limit);
	free(num);
	if (ret == -ERANGE ||
	    (!ret && r->kind == LIMIT_RELATIVE && r->limit > 1e6))
		return error_set(err, off, "limit out of range in '%s'", text);
	if (ret)
		return error_set(err, off,
				 "invalid limit in '%s': write N%% (relative) or +N (absolute)",
				 text);
	return 0;
}

static void rule_free(struct pstat_compare_rule *r)
{
	free(r->pattern);
	free(r->text);
}

/* Narrow [*s, *e) to leave out the blanks at either end. */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

int compare_rules_parse(struct pstat_compare_rules *rules, const char *spec,
			struct pstat_error *err)
{
	size_t first = rules->n;
	const char *p = spec;

	for (;;) {
		/* a comma between a PMU's slashes is part of the event */
		const char *end = p, *eq = NULL, *rs = p, *re, *ns, *ne, *ls;
		int in_pmu = 0, ret;
		struct pstat_compare_rule r = { 0 };
		long off = (long)(p - spec);
		char *lim;

		for (; *end && (*end != ',' || in_pmu); end++) {
			if (*end == '/')
				in_pmu = !in_pmu;
			else if (*end == '=' && !in_pmu)
				eq = end;
		}
		/* "a=1%, b=2%": the blanks after a comma are not a name's */
		re = end;
		trim(&rs, &re);
		r.text = xstrndup(rs, (size_t)(re - rs));
		ns = rs;
		ne = eq ? eq : re;
		trim(&ns, &ne);
		if (!eq || ns == ne) {
			error_set(err, off, "%s in '%s': write NAME=N%% or NAME=+N",
				  rs == re ? "empty rule" :
				  eq ? "missing event name" :
				       "missing limit",
				  r.text);
			goto fail;
		}
		r.pattern = xstrndup(ns, (size_t)(ne - ns));
		ls = eq + 1;
		trim(&ls, &re);
		lim = xstrndup(ls, (size_t)(re - ls));
		ret = parse_limit(lim, &r, err, off, r.text);
		if (!ret) {
			/* shown as "name=limit", whatever the blanks were */
			free(r.text);
			r.text = xasprintf("%s=%s", r.pattern, lim);
		}
		free(lim);
		if (ret)
			goto fail;
		xgrow((void **)&rules->rule, &rules->alloc, rules->n + 1,
		      sizeof(*rules->rule));
		rules->rule[rules->n++] = r;
		if (!*end)
			return 0;
		p = end + 1;
		continue;
fail:
		rule_free(&r);
		while (rules->n > first)
			rule_free(&rules->rule[--rules->n]);
		return -1;
	}
}

void compare_rules_free(struct pstat_compare_rules *rules)
{
	if (!rules)
		return;
	for (size_t i = 0; i < rules->n; i++)
		rule_free(&rules->rule[i]);
	free(rules->rule);
	memset(rules, 0, sizeof(*rules));
}

static int is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * The rule for an item: an exact entry, event or metric name first, then
 * patterns, then "*"; within each kind the last given wins, so a later
 * --threshold overrides an earlier one. A pattern meets a metric by the
 * metric's name only: "instructions*" is about counters, "insn*" about
 * the metric.
 */
const struct pstat_compare_rule *
compare_rules_find(const struct pstat_compare_rules *rules,
		   const struct pstat_compare_item *it)
{
	const struct pstat_compare_rule *best[3] = { NULL, NULL, NULL };

	for (size_t i = 0; i < rules->n; i++) {
		const struct pstat_compare_rule *r = &rules->rule[i];
		const char *pat = r->pattern;

		if (!strcmp(pat, it->name) ||
		    (!it->metric && !strcmp(pat, it->event)) ||
		    (it->metric && !strcmp(pat, it->metric)))
			best[0] = r;
		else if (!strcmp(pat, "*"))
			best[2] = r;
		else if (is_pattern(pat) &&
			 !fnmatch(pat, it->metric ? it->metric : it->name, 0))
			best[1] = r;
	}
	return best[0] ? best[0] : best[1] ? best[1] : best[2];
}
