/* SPDX-License-Identifier: MIT */
/*
 * The graph of a metric set's references, worked out once in linear
 * time and without recursion: an order in which every metric comes
 * after the metrics it refers to, a cycle when there is one, and each
 * metric's events through the metrics it refers to. A chain of metrics
 * (mI = m(I-1) + 1) is as deep as the file is long: walking it again
 * for every metric took quadratic time, and recursing along it ran out
 * of stack.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric.h"

/* The metric that reference k of metric m names, or SIZE_MAX. */
static size_t ref_metric(const struct pstat_metric_entry *e, size_t k)
{
	return e->refs[k].kind == METRIC_REF_METRIC ? e->refs[k].idx :
						      SIZE_MAX;
}

static size_t nrefs(const struct pstat_metric_entry *e)
{
	return e->def.expr && e->refs ? mexpr_nnames(e->def.expr) : 0;
}

/*
 * A metric on a cycle, for the message: from start (left out of the
 * order), follow references to metrics left out too until one comes
 * again. left[i]: metric i is not in the order.
 */
static size_t on_cycle(const struct pstat_metric_set *set, size_t start,
		       const unsigned char *left)
{
	unsigned char *seen = xcalloc(set->n + 1, 1);
	size_t i = start;

	while (!seen[i]) {
		const struct pstat_metric_entry *e = &set->m[i];
		size_t next = SIZE_MAX;

		seen[i] = 1;
		for (size_t k = 0; k < nrefs(e) && next == SIZE_MAX; k++)
			if (ref_metric(e, k) != SIZE_MAX &&
			    left[ref_metric(e, k)])
				next = ref_metric(e, k);
		if (next == SIZE_MAX)
			break; /* (cannot be: a metric left out has one) */
		i = next;
	}
	free(seen);
	return i;
}

/*
 * Kahn's algorithm over the references: a metric joins the order once
 * every metric it refers to has. Returns 0, or -1 with err filled when
 * some metrics never can (a cycle).
 */
static int make_order(struct pstat_metric_set *set, struct pstat_error *err)
{
	size_t n = set->n, head = 0, tail = 0, total = 0;
	size_t *waits = xcalloc(n + 1, sizeof(*waits));
	size_t *first = xcalloc(n + 2, sizeof(*first));
	size_t *users, *order = xcalloc(n + 1, sizeof(*order));
	unsigned char *left;

	/* users of each metric, as lists in one array (first[i]..) */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < nrefs(&set->m[i]); k++)
			if (ref_metric(&set->m[i], k) != SIZE_MAX) {
				first[ref_metric(&set->m[i], k) + 1]++;
				waits[i]++;
				total++;
			}
	for (size_t i = 0; i < n; i++)
		first[i + 1] += first[i];
	users = xcalloc(total + 1, sizeof(*users));
	{
		size_t *fill = xcalloc(n + 1, sizeof(*fill));

		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < nrefs(&set->m[i]); k++) {
				size_t r = ref_metric(&set->m[i], k);

				if (r != SIZE_MAX)
					users[first[r] + fill[r]++] = i;
			}
		free(fill);
	}
	for (size_t i = 0; i < n; i++)
		if (!waits[i])
			order[tail++] = i;
	while (head < tail) {
		size_t i = order[head++];

		for (size_t u = first[i]; u < first[i + 1]; u++)
			if (!--waits[users[u]])
				order[tail++] = users[u];
	}
	free(users);
	free(first);
	if (tail == n) {
		free(waits);
		free(set->order);
		set->order = order;
		return 0;
	}
	left = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++)
		left[i] = waits[i] != 0;
	for (size_t i = 0; i < n; i++) {
		if (!left[i])
			continue;
		error_set(err, -1,
			  "metric '%s' refers to itself through other metrics",
			  set->m[on_cycle(set, i, left)].def.name);
		break;
	}
	free(left);
	free(waits);
	free(order);
	return -1;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * Each metric's inputs, from its own references and the lists of the
 * metrics it refers to (which come before it in the order), ascending
 * and each once; and its first input as a walk of its references in
 * their order would meet it.
 */
static void make_inputs(struct pstat_metric_set *set)
{
	size_t *buf = NULL, alloc = 0;

	for (size_t o = 0; o < set->n; o++) {
		struct pstat_metric_entry *e = &set->m[set->order[o]];
		size_t len = 0, w = 0;

		e->first_in = SIZE_MAX;
		for (size_t k = 0; k < nrefs(e); k++) {
			const struct metric_ref *r = &e->refs[k];
			const struct pstat_metric_entry *d;

			if (r->kind == METRIC_REF_INPUT) {
				xgrow((void **)&buf, &alloc, len + 1,
				      sizeof(*buf));
				buf[len++] = r->idx;
				if (e->first_in == SIZE_MAX)
					e->first_in = r->idx;
				continue;
			}
			if (r->kind != METRIC_REF_METRIC)
				continue;
			d = &set->m[r->idx];
			xgrow((void **)&buf, &alloc, len + d->nins + 1,
			      sizeof(*buf));
			memcpy(buf + len, d->ins, d->nins * sizeof(*buf));
			len += d->nins;
			if (e->first_in == SIZE_MAX)
				e->first_in = d->first_in;
		}
		if (len)
			qsort(buf, len, sizeof(*buf), cmp_size);
		for (size_t i = 0; i < len; i++)
			if (!w || buf[w - 1] != buf[i])
				buf[w++] = buf[i];
		free(e->ins);
		e->ins = xcalloc(w + 1, sizeof(*e->ins));
		if (w)
			memcpy(e->ins, buf, w * sizeof(*buf));
		e->nins = w;
	}
	free(buf);
}

int metric_set_graph(struct pstat_metric_set *set, struct pstat_error *err)
{
	if (make_order(set, err))
		return -1;
	make_inputs(set);
	return 0;
}

void metric_set_metric_inputs(const struct pstat_metric_set *set, size_t m,
			      unsigned char *seen)
{
	const struct pstat_metric_entry *e = &set->m[m];

	for (size_t i = 0; i < e->nins; i++)
		seen[e->ins[i]] = 1;
}
