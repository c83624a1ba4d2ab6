/* SPDX-License-Identifier: MIT */
/*
 * The counters of a one-line run document, the hot path of -j -I: with
 * --per-thread there are thousands an interval, each an object of
 * fifteen keys of which five numbers change from one interval to the
 * next. A row's object is written once through json_counter (jfill's
 * text mode) with the places of those numbers noted; it is kept as the
 * text between them, and while the row is the same row (the same
 * strings, status, error, and the same of its numbers null) the next
 * intervals write that text and the new numbers alone. Rows with the
 * samples of -r go through json_counter every time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/print.h"
#include "report/print_json_priv.h"

#define ROW_NUMS 6      /* value, raw, enabled, running, pct, metric value */

/* What makes a row's text the same as last time, but for its numbers. */
struct row_ident {
	const char *event, *pmu, *group_name, *thread, *cgroup, *unit, *note;
	const char *metric_name, *metric_unit;
	const struct pstat_aggr_id *aggr;
	int group, cpu, aggr_nr;
	enum pstat_status status;
	int err;
	unsigned nums;              /* which numbers are there (not null) */
	bool has_metric;
};

struct row_text {
	struct row_ident id;
	bool valid;
	size_t nnum;                /* how many of them: bits of id.nums */
	char *text;                 /* the pieces, one after the other */
	size_t piece[ROW_NUMS + 1]; /* each piece's length */
};

struct json_rows {
	struct row_text *rows;
	size_t n;
};

/*
 * Which of a row's numbers are numbers (bit k: the k-th of row_number),
 * not nulls, as json_counter writes them: the value only with a count,
 * the percentage and the metric's value when finite.
 */
static unsigned row_nums(const struct pstat_row *row)
{
	unsigned m = 2 | 4 | 8;

	if ((row->status == PSTAT_COUNTED ||
	     row->status == PSTAT_MULTIPLEXED) && isfinite(row->value))
		m |= 1;
	if (isfinite(row->running_pct))
		m |= 16;
	if (row->has_metric && isfinite(row->metric.value))
		m |= 32;
	return m;
}

static void row_ident_of(struct row_ident *id, const struct pstat_row *row)
{
	*id = (struct row_ident){
		.event = row->event, .pmu = row->pmu,
		.group_name = row->group_name, .thread = row->thread,
		.cgroup = row->cgroup, .unit = row->unit, .note = row->note,
		.metric_name = row->has_metric ? row->metric.name : NULL,
		.metric_unit = row->has_metric ? row->metric.unit : NULL,
		.aggr = row->aggr, .group = row->group, .cpu = row->cpu,
		.aggr_nr = row->aggr_nr, .status = row->status,
		.err = row->err, .nums = row_nums(row),
		.has_metric = row->has_metric != 0,
	};
}

static bool row_ident_eq(const struct row_ident *a, const struct row_ident *b)
{
	return a->event == b->event && a->pmu == b->pmu &&
	       a->group_name == b->group_name && a->thread == b->thread &&
	       a->cgroup == b->cgroup && a->unit == b->unit &&
	       a->note == b->note && a->metric_name == b->metric_name &&
	       a->metric_unit == b->metric_unit && a->aggr == b->aggr &&
	       a->group == b->group && a->cpu == b->cpu &&
	       a->aggr_nr == b->aggr_nr && a->status == b->status &&
	       a->err == b->err && a->nums == b->nums &&
	       a->has_metric == b->has_metric;
}

/* Whether row's object can be kept: no samples, no count past INT64_MAX. */
static bool row_plain(const struct pstat_row *row)
{
	return !row->stats && row->raw <= INT64_MAX &&
	       row->ena <= INT64_MAX && row->run <= INT64_MAX;
}

struct json_rows *json_rows_new(void)
{
	return xcalloc(1, sizeof(struct json_rows));
}

void json_rows_free(struct json_rows *jr)
{
	if (!jr)
		return;
	for (size_t i = 0; i < jr->n; i++)
		free(jr->rows[i].text);
	free(jr->rows);
	free(jr);
}

/* A number of a row, in the order json_counter writes them. */
static size_t row_number(char *buf, const struct pstat_row *row, size_t k)
{
	switch (k) {
	case 0:
		return print_real(buf, row->value);
	case 1:
		return print_u64(buf, row->raw);
	case 2:
		return print_u64(buf, row->ena);
	case 3:
		return print_u64(buf, row->run);
	case 4:
		return print_real(buf, row->running_pct);
	default:
		return print_real(buf, row->metric.value);
	}
}

static char *buf_room(struct json_buf *b, size_t n)
{
	if (b->alloc - b->len <= n)
		xgrow((void **)&b->text, &b->alloc, b->len + n + 1, 1);
	return b->text + b->len;
}

/*
 * Write row through fill (json_counter) into f, noting where its
 * numbers went, and keep the text between them in rt.
 */
static void row_learn(struct jfill *f, struct row_text *rt,
		      const struct pstat_row *row, jfill_fn *fill)
{
	struct jtext *t = f->text;
	size_t start, at;
	struct jfill c;

	t->nmarks = 0;
	t->marking = true;
	if (!f->first)
		*buf_room(t->buf, 1) = ',', t->buf->len++;
	f->first = false;
	start = t->buf->len;
	/* (the comma above is the array's, not the object's) */
	c = (struct jfill){ .text = t, .depth = f->depth + 1, .first = true };
	*buf_room(t->buf, 1) = '{', t->buf->len++;
	fill(&c, row);
	*buf_room(t->buf, 1) = '}', t->buf->len++;
	t->marking = false;
	rt->valid = t->nmarks == (size_t)__builtin_popcount(row_nums(row));
	if (!rt->valid)
		return;
	rt->nnum = t->nmarks;
	free(rt->text);
	rt->text = xmalloc(t->buf->len - start);
	at = start;
	for (size_t k = 0, o = 0; k <= rt->nnum; k++) {
		size_t end = k < rt->nnum ? t->marks[k].start : t->buf->len;

		rt->piece[k] = end - at;
		memcpy(rt->text + o, t->buf->text + at, rt->piece[k]);
		o += rt->piece[k];
		at = k < rt->nnum ? t->marks[k].end : at;
	}
	row_ident_of(&rt->id, row);
}

/* row's object again: the kept text and its new numbers. */
static void row_replay(struct jfill *f, const struct row_text *rt,
		       const struct pstat_row *row)
{
	struct json_buf *b = f->text->buf;
	const char *piece = rt->text;
	char *d;
	size_t need = 1;

	for (size_t k = 0; k <= rt->nnum; k++)
		need += rt->piece[k] + PRINT_REAL_MAX;
	d = buf_room(b, need);
	if (!f->first)
		*d++ = ',';
	f->first = false;
	for (size_t k = 0, num = 0; k <= rt->nnum; k++) {
		memcpy(d, piece, rt->piece[k]);
		d += rt->piece[k];
		piece += rt->piece[k];
		if (k == rt->nnum)
			break;
		while (!(rt->id.nums & (1u << num)))
			num++;
		d += row_number(d, row, num++);
	}
	b->len = (size_t)(d - b->text);
}

void json_rows_write(struct json_rows *jr, struct jfill *f, const char *key,
		     const struct pstat_row *rows, size_t n, jfill_fn *fill)
{
	struct jfill a;

	jfill_open(f, key, &a, true);
	if (n > jr->n) {
		jr->rows = xrealloc(jr->rows, n * sizeof(*jr->rows));
		memset(jr->rows + jr->n, 0, (n - jr->n) * sizeof(*jr->rows));
		jr->n = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct row_text *rt = &jr->rows[i];
		struct row_ident id;

		if (!row_plain(&rows[i])) {
			jfill_object(&a, NULL, fill, &rows[i]);
			continue;
		}
		row_ident_of(&id, &rows[i]);
		if (rt->valid && row_ident_eq(&rt->id, &id))
			row_replay(&a, rt, &rows[i]);
		else
			row_learn(&a, rt, &rows[i], fill);
	}
	jfill_close(f, key, &a);
}
