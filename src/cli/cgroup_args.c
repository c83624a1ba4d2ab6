/* SPDX-License-Identifier: MIT */
/*
 * -G and --for-each-cgroup: which events count which cgroup (see
 * cgroup_args.h). The cgroups are opened by the session (run/cgroup.c).
 */
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/cgroup_args.h"
#include "cli/metrics_cli.h"
#include "run/cgroup.h"

/*
 * The comma that ends the item at p, or NULL. In a pattern (patterns
 * set), a comma inside {m,n}, [...] or (...), or after a backslash,
 * belongs to the pattern: a{1,3} is one item.
 */
static const char *item_end(const char *p, int patterns)
{
	int brace = 0, paren = 0;

	for (; *p; p++) {
		if (!patterns) {
			if (*p == ',')
				return p;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '[') {
			/* to the bracket's end: []a] and [^]a] hold a ']' */
			const char *q = p + 1 + (p[1] == '^');

			q += *q == ']';
			while (*q && *q != ']')
				q++;
			if (*q)
				p = q;
		} else if (*p == '{') {
			brace++;
		} else if (*p == '}' && brace) {
			brace--;
		} else if (*p == '(') {
			paren++;
		} else if (*p == ')' && paren) {
			paren--;
		} else if (*p == ',' && !brace && !paren) {
			return p;
		}
	}
	return NULL;
}

/* The names of a comma-separated list, empty ones kept. */
static char **split(const char *list, size_t *n, int patterns)
{
	char **v = NULL;
	size_t alloc = 0;

	*n = 0;
	for (const char *p = list;; p++) {
		const char *e = item_end(p, patterns);
		size_t len = e ? (size_t)(e - p) : strlen(p);

		xgrow((void **)&v, &alloc, *n + 1, sizeof(*v));
		v[(*n)++] = xstrndup(p, len);
		if (!e)
			break;
		p = e;
	}
	return v;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * -G, in perf's pairing of names with the events before them. With
 * metrics, names past those events are the metrics' alone.
 */
static int apply_cgroup_opts(const struct pstat_opts *o, const size_t *ends,
			     struct pstat_evlist *evl)
{
	size_t next = 0;
	int r = 0, metrics = metrics_cli_wanted(o);

	for (size_t g = 0; g < o->ncgroups && !r; g++) {
		const struct pstat_cgroup_arg *a = &o->cgroups[g];
		size_t nev = a->after ? ends[a->after - 1] : 0, n;
		char **names = split(a->list, &n, 0);

		for (size_t i = 0; i < n && !r; i++, next++) {
			if (next >= nev && metrics) {
				continue;
			} else if (next >= nev) {
				msg_error("-G %s: more cgroups than the %zu event%s before it: each cgroup goes with one event, in order (-e a,b -G x,y)",
					  a->list, nev, nev == 1 ? "" : "s");
				r = -1;
			} else if (names[i][0]) {
				free(evl->ev[next].cgroup);
				evl->ev[next].cgroup = xstrdup(names[i]);
			}
		}
		/* one cgroup, given once: every event before it */
		if (!r && g == 0 && n == 1 && names[0][0])
			for (size_t i = 1; i < nev; i++)
				evl->ev[i].cgroup = xstrdup(names[0]);
		free_names(names, n);
	}
	return r;
}

/*
 * The kernel counts a group in one cgroup: members given another than
 * their leader's would be refused at open (EINVAL); say why here.
 */
static int check_groups(const struct pstat_evlist *evl)
{
	for (size_t i = 0; i < evl->n; i++) {
		const char *a = evl->ev[i].cgroup;
		const char *b = evl->ev[evl->ev[i].leader].cgroup;

		if (a == b || (a && b && !strcmp(a, b)))
			continue;
		msg_error("-G: '%s' would count %s%s%s and its group leader '%s' %s%s%s: the events of a {group} count in one cgroup",
			  evl->ev[i].name, a ? "cgroup '" : "every task",
			  a ? a : "", a ? "'" : "",
			  evl->ev[evl->ev[i].leader].name,
			  b ? "cgroup '" : "every task", b ? b : "",
			  b ? "'" : "");
		return -1;
	}
	return 0;
}

/* The cgroups of --for-each-cgroup, patterns expanded. */
static char **for_each_names(const char *list, size_t *n)
{
	size_t nitems, alloc = 0;
	char **items = split(list, &nitems, 1), **out = NULL;
	char mount[4096];
	struct pstat_error err;
	int v1, r = 0;

	*n = 0;
	for (size_t i = 0; i < nitems && !r; i++) {
		char **m = NULL;
		size_t nm = 0;

		if (!items[i][0]) {
			msg_error("--for-each-cgroup %s: an empty cgroup name", list);
			r = -1;
		} else if (!cgroup_is_pattern(items[i])) {
			xgrow((void **)&out, &alloc, *n + 1, sizeof(*out));
			out[(*n)++] = xstrdup(items[i]);
		} else if (cgroup_mount_find(mount, sizeof(mount), &v1, &err) ||
			   cgroup_match(mount, items[i], &m, &nm, &err)) {
			msg_error("%s", err.msg);
			r = -1;
		} else if (!nm) {
			msg_error("no cgroup matches '%s' (in %s)", items[i], mount);
			r = -1;
		} else {
			xgrow((void **)&out, &alloc, *n + nm, sizeof(*out));
			memcpy(out + *n, m, nm * sizeof(*m));
			*n += nm;
			free(m);
		}
	}
	free_names(items, nitems);
	if (r) {
		free_names(out, *n);
		return NULL;
	}
	return out;
}

/*
 * The cgroups -G names, each once, in the order first named (empty
 * names left out). New array of borrowed strings.
 */
static const char **named_cgroups(const struct pstat_opts *o, size_t *n,
				  char ***all, size_t *nall)
{
	const char **v = NULL;
	size_t alloc = 0;

	*n = *nall = 0;
	*all = NULL;
	for (size_t g = 0; g < o->ncgroups; g++) {
		size_t k;
		char **names = split(o->cgroups[g].list, &k, 0);

		*all = xrealloc(*all, (*nall + k + 1) * sizeof(**all));
		memcpy(*all + *nall, names, k * sizeof(*names));
		*nall += k;
		free(names);
	}
	for (size_t i = 0; i < *nall; i++) {
		size_t j = 0;

		while (j < *n && strcmp(v[j], (*all)[i]))
			j++;
		if (!(*all)[i][0] || j < *n)
			continue;
		xgrow((void **)&v, &alloc, *n + 1, sizeof(*v));
		v[(*n)++] = (*all)[i];
	}
	return v;
}

int cgroup_args_metrics(const struct pstat_opts *o, struct pstat_evlist *evl,
			struct pstat_evlist *mevl, int *input_row,
			size_t ninputs, struct cgroup_copies *copies)
{
	size_t n, nall, per = mevl->n;
	char **all;
	const char **names = named_cgroups(o, &n, &all, &nall);

	copies->n = n;
	copies->rows = mevl->nrows;
	evlist_repeat(mevl, n);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < per; i++)
			mevl->ev[k * per + i].cgroup = xstrdup(names[k]);
	for (size_t i = 0; i < ninputs; i++)
		if (input_row[i] >= 0)
			input_row[i] += evl->nrows;
	evlist_append(evl, mevl);
	free(names);
	free_names(all, nall);
	return 0;
}

int cgroup_args_apply(const struct pstat_opts *o, const size_t *ends,
		      struct pstat_evlist *evl, struct cgroup_copies *copies)
{
	size_t n, per = evl->n;
	char **names;

	copies->n = 0;
	copies->rows = evl->nrows;

	if (o->ncgroups)
		return apply_cgroup_opts(o, ends, evl) || check_groups(evl) ? -1
									   : 0;
	if (!o->for_each_cgroup)
		return 0;
	names = for_each_names(o->for_each_cgroup, &n);
	if (!names)
		return -1;
	evlist_repeat(evl, n);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < per; i++)
			evl->ev[k * per + i].cgroup = xstrdup(names[k]);
	copies->n = n;
	free_names(names, n);
	return 0;
}
