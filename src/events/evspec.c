/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/evspec.h"

/*
 * A hand-written scanner over the list: the grammar is small, and the
 * errors can then point at the exact byte that is wrong.
 */

static const char MOD_CHARS[] = "ukhGHIDpPSWeb";

/*
 * perf takes blanks around list items, group members and PMU terms
 * ("cs, faults", "{ cs , faults }", "msr/ tsc/"): they are skipped, and
 * offsets point at the first byte that is not blank.
 */
static size_t skip_blanks(const char *s, size_t i, size_t hi)
{
	while (i < hi && isspace((unsigned char)s[i]))
		i++;
	return i;
}

static size_t trim_end(const char *s, size_t lo, size_t hi)
{
	while (hi > lo && isspace((unsigned char)s[hi - 1]))
		hi--;
	return hi;
}

int evspec_is_mods(const char *s)
{
	if (!s || !*s)
		return 0;
	for (; *s; s++)
		if (!strchr(MOD_CHARS, *s))
			return 0;
	return 1;
}

void evspec_terms_free(struct pstat_term *terms, size_t n)
{
	if (!terms)
		return;
	for (size_t i = 0; i < n; i++) {
		free(terms[i].key);
		free(terms[i].val);
	}
	free(terms);
}

static void evspec_free(struct pstat_evspec *ev)
{
	free(ev->text);
	free(ev->name);
	free(ev->pmu);
	evspec_terms_free(ev->terms, ev->nterms);
	free(ev->mods);
}

void evspec_tree_free(struct pstat_evtree *tree)
{
	if (!tree)
		return;
	for (size_t g = 0; g < tree->ngroups; g++) {
		struct pstat_evgroup *grp = &tree->groups[g];

		for (size_t i = 0; i < grp->nevs; i++)
			evspec_free(&grp->evs[i]);
		free(grp->evs);
		free(grp->mods);
		free(grp->name);
	}
	free(tree->groups);
	tree->groups = NULL;
	tree->ngroups = 0;
}

#define NO_EQ ((size_t)-1)

/* Terms between base+lo and base+hi (exclusive); offsets relative to base. */
static int parse_terms_range(const char *base, size_t lo, size_t hi,
			     struct pstat_term **out, size_t *nout,
			     struct pstat_error *err)
{
	struct pstat_term *terms = NULL;
	size_t n = 0, alloc = 0, i = lo;

	while (i < hi) {
		size_t start, eq = NO_EQ, end;
		long quote = -1;

		start = i = skip_blanks(base, i, hi);
		while (i < hi && (base[i] != ',' || quote >= 0)) {
			if (base[i] == '\'')
				quote = quote < 0 ? (long)i : -1;
			else if (base[i] == '=' && eq == NO_EQ && quote < 0)
				eq = i;
			i++;
		}
		if (quote >= 0) {
			evspec_terms_free(terms, n);
			return error_set(err, quote, "unterminated quote in '%.*s'",
					 (int)(hi - lo), base + lo);
		}
		end = trim_end(base, start, i);
		if (end == start || eq == start ||
		    (eq != NO_EQ && trim_end(base, start, eq) == start)) {
			evspec_terms_free(terms, n);
			return error_set(err, (long)start,
					 "empty term in '%.*s'",
					 (int)(hi - lo), base + lo);
		}
		xgrow((void **)&terms, &alloc, n + 1, sizeof(*terms));
		terms[n].off = (long)start;
		if (eq != NO_EQ) {
			size_t v = skip_blanks(base, eq + 1, end);

			terms[n].key = xstrndup(base + start,
						trim_end(base, start, eq) - start);
			/* 'a,b': the quotes only protect what they hold */
			if (end - v >= 2 && base[v] == '\'' &&
			    base[end - 1] == '\'') {
				v++;
				end--;
			}
			terms[n].val = xstrndup(base + v, end - v);
		} else {
			terms[n].key = xstrndup(base + start, end - start);
			terms[n].val = NULL;
		}
		n++;
		if (i < hi) {
			i++; /* the comma */
			if (skip_blanks(base, i, hi) == hi) {
				evspec_terms_free(terms, n);
				return error_set(err, (long)i,
						 "trailing ',' in '%.*s'",
						 (int)(hi - lo), base + lo);
			}
		}
	}
	*out = terms;
	*nout = n;
	return 0;
}

int evspec_parse_terms(const char *s, struct pstat_term **terms, size_t *n,
		       struct pstat_error *err)
{
	*terms = NULL;
	*n = 0;
	return parse_terms_range(s, 0, strlen(s), terms, n, err);
}

/*
 * The length of a breakpoint ("mem:0x10/8", "mem:0/2:w/name=x/") at the
 * '/' at s[i]: a number ending the event, its access or its terms. The
 * index after it, or 0 when what follows is no length.
 */
static size_t bp_len_end(const char *s, size_t i, size_t len)
{
	size_t j = i + 1;

	if (j + 1 < len && s[j] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X'))
		j += 2;
	while (j < len && isxdigit((unsigned char)s[j]))
		j++;
	if (j == i + 1 || !(j == len || strchr(",{}:/ \t", s[j])))
		return 0;
	return j;
}

/*
 * Find where the event starting at s[i] ends: at a ',' or '}' outside
 * a pmu's slashes. Returns the end index; -1 on an unterminated pmu, -2
 * on a third slash, -3 on an unterminated quote.
 */
static long event_end(const char *s, size_t i, size_t len, long *slash1,
		      long *slash2)
{
	/* a breakpoint's length ("mem:0x10/8") is no PMU's slash */
	int bp = !strncmp(s + i, "mem:", 4), quoted = 0;

	*slash1 = *slash2 = -1;
	for (; i < len; i++) {
		char c = s[i];

		if (quoted) {
			quoted = c != '\'';
			continue;
		}
		if (c == '\'' && *slash1 >= 0 && *slash2 < 0) {
			quoted = 1;
			continue;
		}
		if (c == '/' && bp && *slash1 < 0) {
			size_t j = bp_len_end(s, i, len);

			bp = 0; /* one length, and the next '/' opens terms */
			if (j) {
				i = j - 1;
				continue;
			}
			/* no terms follow: a bad length, for the encoder to name */
			if (!strchr(s + i + 1, '/'))
				continue;
		}
		if (c == '/') {
			if (*slash1 < 0)
				*slash1 = (long)i;
			else if (*slash2 < 0)
				*slash2 = (long)i;
			else
				return -2; /* a third slash */
			continue;
		}
		if (*slash1 >= 0 && *slash2 < 0)
			continue; /* inside pmu/.../: commas do not split */
		if (c == ',' || c == '}' || c == '{')
			break;
	}
	if (quoted)
		return -3;
	if (*slash1 >= 0 && *slash2 < 0)
		return -1;
	return (long)i;
}

/*
 * "1:1", "4:0x3c", "0x1:0x1": perf's TYPE:CONFIG event, each decimal or
 * hex (its lexer takes either for both, and "0x" only in lower case).
 */
int evspec_is_numeric(const char *s, size_t n)
{
	size_t i = 0;
	int part = 0;

	while (part < 2) {
		size_t d = i;
		int hex = i + 1 < n && s[i] == '0' && s[i + 1] == 'x';

		if (hex)
			d = i += 2;
		while (i < n && (hex ? isxdigit((unsigned char)s[i]) :
				       isdigit((unsigned char)s[i])))
			i++;
		if (i == d)
			return 0;
		if (part++ == 0) {
			if (i >= n || s[i] != ':')
				return 0;
			i++;
		}
	}
	return i == n;
}

static int parse_event(const char *s, size_t start, size_t end,
		       long slash1, long slash2, struct pstat_evspec *ev,
		       struct pstat_error *err)
{
	memset(ev, 0, sizeof(*ev));
	ev->off = (long)start;
	ev->text = xstrndup(s + start, end - start);
	if (end == start)
		return error_set(err, (long)start, "empty event");

	if (slash1 >= 0) {
		size_t s1 = (size_t)slash1, s2 = (size_t)slash2;
		const char *m = s + s2 + 1;
		size_t mlen = end - s2 - 1;

		if (s1 == start)
			return error_set(err, (long)start,
					 "missing PMU name before '/'");
		ev->pmu = xstrndup(s + start, s1 - start);
		if (!strncmp(ev->pmu, "mem:", 4)) {
			/* a breakpoint with terms: no PMU */
			ev->name = ev->pmu;
			ev->pmu = NULL;
		} else if ((memchr(ev->pmu, ':', s1 - start) &&
			    !evspec_is_numeric(ev->pmu, s1 - start)) ||
			   memchr(ev->pmu, '=', s1 - start)) {
			return error_set(err, (long)start,
					 "invalid PMU name '%s'", ev->pmu);
		}
		if (parse_terms_range(s, s1 + 1, s2, &ev->terms, &ev->nterms,
				      err))
			return -1;
		/* "msr//": no terms is config 0, as perf encodes it */
		if (mlen && *m == ':') {
			m++;
			mlen--;
		}
		if (mlen) {
			ev->mods = xstrndup(m, mlen);
			if (!evspec_is_mods(ev->mods))
				return error_set(err, (long)(m - s),
						 "invalid modifier '%s' for event '%s'",
						 ev->mods, ev->text);
		}
		return 0;
	}

	ev->name = xstrndup(s + start, end - start);
	{
		char *colon = strrchr(ev->name, ':');

		/*
		 * "cycles:u" has modifiers; "sched:sched_switch" does not;
		 * "a::b" (libpfm4's pmu separator) never ends in one.
		 */
		if (colon && colon != ev->name && colon[-1] != ':' &&
		    evspec_is_mods(colon + 1)) {
			ev->mods = xstrdup(colon + 1);
			*colon = '\0';
		} else if (colon && !colon[1]) {
			return error_set(err, (long)(start + strlen(ev->name)) - 1,
					 "missing modifier after ':' in '%s'",
					 ev->text);
		}
	}
	if (!ev->name[0])
		return error_set(err, (long)start, "empty event name");
	return 0;
}

/* Whether s[lo..hi) can name a group: letters, digits, '_', '-', '.'. */
static int group_name(const char *s, size_t lo, size_t hi)
{
	if (hi == lo || !isalpha((unsigned char)s[lo]))
		return 0;
	for (size_t i = lo; i < hi; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-.", s[i]))
			return 0;
	return 1;
}

static int parse_group_mods(const char *s, size_t *i, size_t len,
			    struct pstat_evgroup *g, struct pstat_error *err)
{
	size_t start;

	if (*i >= len || s[*i] != ':')
		return 0;
	start = ++*i;
	while (*i < len && s[*i] != ',' && s[*i] != '{' && s[*i] != '}')
		++*i;
	g->mods = xstrndup(s + start, trim_end(s, start, *i) - start);
	if (!evspec_is_mods(g->mods))
		return error_set(err, (long)start,
				 "invalid group modifier '%s'", g->mods);
	return 0;
}

int evspec_parse(const char *s, struct pstat_evtree *tree,
		 struct pstat_error *err)
{
	size_t len = strlen(s), i = 0;
	size_t galloc = tree->ngroups;

	if (skip_blanks(s, 0, len) == len)
		return error_set(err, 0, "empty event list");

	for (;;) {
		struct pstat_evgroup *g;
		size_t ealloc = 0;
		int braced = 0;

		i = skip_blanks(s, i, len);
		if (i >= len || s[i] == ',')
			return error_set(err, (long)i, "empty event in list");
		if (s[i] == '}')
			return error_set(err, (long)i, "unmatched '}'");
		xgrow((void **)&tree->groups, &galloc, tree->ngroups + 1,
		      sizeof(*tree->groups));
		g = &tree->groups[tree->ngroups++];
		memset(g, 0, sizeof(*g));
		g->off = (long)i;
		if (s[i] == '{') {
			braced = 1;
			i++;
		}
		g->braced = braced;
		for (;;) {
			long s1, s2, end;
			struct pstat_evspec *ev;

			i = skip_blanks(s, i, len);
			end = event_end(s, i, len, &s1, &s2);
			if (end == -1)
				return error_set(err, s1,
						 "missing closing '/' for PMU event");
			if (end == -2)
				return error_set(err, (long)i,
						 "too many '/' in event");
			if (end == -3)
				return error_set(err, (long)i,
						 "unterminated quote in event");
			if (s[end] == '{' && end < (long)len && !braced &&
			    !g->nevs && group_name(s, i, (size_t)end)) {
				/* perf's named group: "name{a,b}" */
				g->name = xstrndup(s + i, (size_t)end - i);
				g->braced = braced = 1;
				i = (size_t)end + 1;
				continue;
			}
			if (s[end] == '{' && end < (long)len)
				return error_set(err, end,
						 braced ? "nested '{' in group"
							: "unexpected '{'");
			xgrow((void **)&g->evs, &ealloc, g->nevs + 1,
			      sizeof(*g->evs));
			ev = &g->evs[g->nevs++];
			if (parse_event(s, i, trim_end(s, i, (size_t)end), s1,
					s2, ev, err))
				return -1;
			i = (size_t)end;
			if (!braced)
				break;
			if (i >= len)
				return error_set(err, g->off,
						 "unterminated group: missing '}'");
			if (s[i] == '}') {
				i++;
				break;
			}
			i++; /* ',' */
		}
		if (braced && parse_group_mods(s, &i, len, g, err))
			return -1;
		i = skip_blanks(s, i, len);
		if (i >= len)
			return 0;
		if (s[i] == '}')
			return error_set(err, (long)i, "unmatched '}'");
		if (s[i] != ',')
			return error_set(err, (long)i, "unexpected '%c'", s[i]);
		i++;
		if (skip_blanks(s, i, len) >= len)
			return error_set(err, (long)i - 1, "trailing ','");
	}
}
