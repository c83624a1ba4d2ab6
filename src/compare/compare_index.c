/* SPDX-License-Identifier: MIT */
/*
 * Sorted indexes of a run document's counters (see compare_index.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compare/compare_index.h"

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);   /* no thread first */
	return strcmp(a, b);
}

static int cmp_place(const struct pstat_compare_counter *a,
		     const struct pstat_compare_counter *b)
{
	int r;

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	r = cmp_str(a->aggr, b->aggr);
	return r ? r : cmp_str(a->thread, b->thread);
}

static int cmp_key(const struct pstat_compare_counter *a,
		   const struct pstat_compare_counter *b)
{
	int r = strcmp(a->event, b->event);

	if (!r)
		r = cmp_place(a, b);
	/* -G, --for-each-cgroup: one event per cgroup */
	return r ? r : cmp_str(a->cgroup, b->cgroup);
}

static int by_key(const void *x, const void *y, void *arg)
{
	const struct pstat_compare_counter *c = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int r = cmp_key(&c[i], &c[j]);

	return r ? r : (i > j) - (i < j);
}

static int by_value(const void *x, const void *y, void *arg)
{
	const struct pstat_compare_counter *c = arg;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int r = cmp_place(&c[i], &c[j]);

	if (r)
		return r;
	if (c[i].value != c[j].value)
		return c[i].value < c[j].value ? -1 : 1;
	return (i > j) - (i < j);
}

void compare_index_build(struct pstat_compare_index *ix,
			 const struct pstat_compare_run *run)
{
	const struct pstat_compare_counter *c = run->counters;
	size_t n = run->ncounters;

	memset(ix, 0, sizeof(*ix));
	ix->run = run;
	ix->by_key = xcalloc(n + 1, sizeof(*ix->by_key));
	ix->occ = xcalloc(n + 1, sizeof(*ix->occ));
	ix->by_value = xcalloc(n + 1, sizeof(*ix->by_value));
	for (size_t i = 0; i < n; i++) {
		ix->by_key[i] = i;
		if (c[i].status == PSTAT_COUNTED && isfinite(c[i].value))
			ix->by_value[ix->nvalues++] = i;
	}
	qsort_r(ix->by_key, n, sizeof(*ix->by_key), by_key, (void *)c);
	qsort_r(ix->by_value, ix->nvalues, sizeof(*ix->by_value), by_value,
		(void *)c);
	/* a run of equal keys is in document order: 1, 2, 3... */
	for (size_t k = 0; k < n; k++) {
		size_t i = ix->by_key[k];

		ix->occ[i] = k && !cmp_key(&c[ix->by_key[k - 1]], &c[i]) ?
				     ix->occ[ix->by_key[k - 1]] + 1 : 1;
	}
}

long compare_index_find(const struct pstat_compare_index *ix,
			const struct pstat_compare_counter *want, size_t occ)
{
	const struct pstat_compare_counter *c = ix->run->counters;
	size_t lo = 0, hi = ix->run->ncounters;

	/* keys, then occurrences, increase along by_key */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, i = ix->by_key[mid];
		int r = cmp_key(&c[i], want);

		if (!r)
			r = (ix->occ[i] > occ) - (ix->occ[i] < occ);
		if (!r)
			return (long)i;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The first position of by_value not before (place's place, v). */
static size_t lower_bound(const struct pstat_compare_index *ix,
			  const struct pstat_compare_counter *place, double v)
{
	const struct pstat_compare_counter *c = ix->run->counters;
	size_t lo = 0, hi = ix->nvalues;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pstat_compare_counter *m = &c[ix->by_value[mid]];
		int r = cmp_place(m, place);

		if (r < 0 || (!r && m->value < v))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void compare_index_values(const struct pstat_compare_index *ix,
			  const struct pstat_compare_counter *place, double lo,
			  double hi, size_t *first, size_t *n)
{
	const struct pstat_compare_counter *c = ix->run->counters;
	size_t k = lower_bound(ix, place, lo);

	*first = k;
	while (k < ix->nvalues && !cmp_place(&c[ix->by_value[k]], place) &&
	       c[ix->by_value[k]].value <= hi)
		k++;
	*n = k - *first;
}

void compare_index_free(struct pstat_compare_index *ix)
{
	if (!ix)
		return;
	free(ix->by_key);
	free(ix->occ);
	free(ix->by_value);
	memset(ix, 0, sizeof(*ix));
}
