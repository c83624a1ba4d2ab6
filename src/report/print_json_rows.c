/* SPDX-License-Identifier: MIT */
/*
 * The counters of a one-line run document, the hot path of -j -I: with
 * --per-thread there are thousands an interval, each an object of
 * fifteen keys of which five numbers change from one interval to the
 * next. A row's object is written once through json_counter (jfill's
 * text mode) with the places of those numbers noted; it is kept as the
 * text between them, and while the row is the same row (the same
 * strings, status, error, and the same of its numbers null) the next
 * intervals write that text and the new numbers alone. A row whose
 * numbers are the same as well (an idle thread's zeros, interval after
 * interval) is the same text as in the last document, copied from there
 * with its unchanged neighbours in one piece; when every row is, the
 * last document's array is written again as it is, copied nowhere.
 * Rows with the samples of -r go through json_counter every time.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

/*
 * What a row was in the last document: what is compared each interval,
 * three cache lines a row, apart from its pieces.
 */
struct row_text {
	struct row_ident id;
	uint64_t num[ROW_NUMS];     /* its numbers' bits, as last written */
	unsigned long doc;          /* the document it was last written in */
	size_t at, len;             /* where its object is in that text */
	bool valid;                 /* its pieces are those of id */
} __attribute__((aligned(64)));

/* A row's text but for its numbers. */
struct row_pieces {
	size_t nnum;                /* how many numbers: bits of id.nums */
	char *text;                 /* the pieces, one after the other */
	size_t piece[ROW_NUMS + 1]; /* each piece's length */
};

/* rows ahead of the one written whose lines are asked for */
#define JROW_AHEAD 4

/*
 * The array's text (the rows between its brackets) is written apart
 * from the document, in two buffers in turn: the last document's stays
 * while the next is written, and the document is written out in three
 * pieces around it (json_rows_put).
 */
struct json_rows {
	struct row_text *rows;
	struct row_pieces *pieces;
	size_t n, alloc;
	struct json_buf text[2];
	int cur;                    /* text[cur]: the last document's */
	unsigned long ndoc;         /* arrays written */
	size_t whole;               /* rows of text[cur], when all are kept */
	size_t splice;              /* where text[cur] goes in the document */
};

/* A run of rows copied whole from the last document's text. */
struct row_run {
	size_t from, len, to, rows;
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
	struct json_rows *jr = xcalloc(1, sizeof(*jr));

	/* (0 is none: a row's doc is never the one before the first) */
	jr->ndoc = 1;
	return jr;
}

void json_rows_free(struct json_rows *jr)
{
	if (!jr)
		return;
	for (size_t i = 0; i < jr->n; i++)
		free(jr->pieces[i].text);
	free(jr->rows);
	free(jr->pieces);
	json_buf_free(&jr->text[0]);
	json_buf_free(&jr->text[1]);
	free(jr);
}

void json_rows_begin(struct json_rows *jr)
{
	jr->splice = SIZE_MAX;
}

int json_rows_put(struct json_rows *jr, FILE *out, struct json_buf *doc)
{
	const struct json_buf *t = &jr->text[jr->cur];
	size_t at = jr->splice;

	if (doc->alloc - doc->len < 2)
		xgrow((void **)&doc->text, &doc->alloc, doc->len + 2, 1);
	doc->text[doc->len++] = '\n';
	if (at > doc->len)
		return json_put(out, doc->text, doc->len);
	errno = 0;
	if (fwrite(doc->text, 1, at, out) != at ||
	    fwrite(t->text, 1, t->len, out) != t->len)
		return errno ? -errno : -EIO;
	return json_put(out, doc->text + at, doc->len - at);
}

/* The bits of row's numbers, in the order of row_number. */
static void row_bits(uint64_t *num, const struct pstat_row *row)
{
	double metric = row->has_metric ? row->metric.value : 0;

	memcpy(&num[0], &row->value, sizeof(num[0]));
	num[1] = row->raw;
	num[2] = row->ena;
	num[3] = row->run;
	memcpy(&num[4], &row->running_pct, sizeof(num[4]));
	memcpy(&num[5], &metric, sizeof(num[5]));
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
 * numbers went, and keep the text between them in rp.
 */
static void row_learn(struct jfill *f, struct row_text *rt,
		      struct row_pieces *rp, const struct pstat_row *row,
		      jfill_fn *fill)
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
	rp->nnum = t->nmarks;
	rt->at = start;
	rt->len = t->buf->len - start;
	free(rp->text);
	rp->text = xmalloc(t->buf->len - start);
	at = start;
	for (size_t k = 0, o = 0; k <= rp->nnum; k++) {
		size_t end = k < rp->nnum ? t->marks[k].start : t->buf->len;

		rp->piece[k] = end - at;
		memcpy(rp->text + o, t->buf->text + at, rp->piece[k]);
		o += rp->piece[k];
		at = k < rp->nnum ? t->marks[k].end : at;
	}
	row_ident_of(&rt->id, row);
}

/* row's object again: the kept text and its new numbers. */
static void row_replay(struct jfill *f, struct row_text *rt,
		       const struct row_pieces *rp, const struct pstat_row *row)
{
	struct json_buf *b = f->text->buf;
	const char *piece = rp->text;
	char *d;
	size_t need = 1;

	for (size_t k = 0; k <= rp->nnum; k++)
		need += rp->piece[k] + PRINT_REAL_MAX;
	d = buf_room(b, need);
	if (!f->first)
		*d++ = ',';
	f->first = false;
	rt->at = (size_t)(d - b->text);
	for (size_t k = 0, num = 0; k <= rp->nnum; k++) {
		memcpy(d, piece, rp->piece[k]);
		d += rp->piece[k];
		piece += rp->piece[k];
		if (k == rp->nnum)
			break;
		while (!(rt->id.nums & (1u << num)))
			num++;
		d += row_number(d, row, num++);
	}
	b->len = (size_t)(d - b->text);
	rt->len = b->len - rt->at;
}

static void run_flush(struct row_run *run, struct json_buf *b,
		      const struct json_buf *last)
{
	if (run->len)
		memcpy(b->text + run->to, last->text + run->from, run->len);
	run->len = 0;
}

/*
 * rt's object again, as it is in the last document's text (last): a
 * run of such rows is copied in one piece when its objects followed
 * each other there (with the array's comma between them).
 */
static void row_again(struct jfill *f, struct row_run *run,
		      struct row_text *rt, const struct json_buf *last)
{
	struct json_buf *b = f->text->buf;

	if (run->len && rt->at == run->from + run->len + 1) {
		buf_room(b, rt->len + 1);
		rt->at = b->len + 1;
		b->len += rt->len + 1;
		run->len += rt->len + 1;
		run->rows++;
		return;
	}
	run_flush(run, b, last);
	if (!f->first)
		*buf_room(b, 1) = ',', b->len++;
	f->first = false;
	buf_room(b, rt->len);
	*run = (struct row_run){
		.from = rt->at, .len = rt->len, .to = b->len, .rows = 1,
	};
	rt->at = b->len;
	b->len += rt->len;
}

void json_rows_write(struct json_rows *jr, struct jfill *f, const char *key,
		     const struct pstat_row *rows, size_t n, bool as_last,
		     jfill_fn *fill)
{
	const struct json_buf *last = &jr->text[jr->cur];
	struct json_buf *b = &jr->text[!jr->cur];
	struct row_run run = { 0 };
	size_t kept = 0;
	struct jtext t;
	struct jfill a;

	jfill_open(f, key, &a, true);
	/* (the rows go into b, the brackets into the document) */
	jr->splice = f->text->buf->len;
	/*
	 * Every row as in the last document, whose array is every row's
	 * text: it is this one's, and the rows are not looked at (nor is
	 * this an array of its own: their places stay those of the last)
	 */
	if (as_last && n && n == jr->whole) {
		jfill_close(f, key, &a);
		return;
	}
	jr->ndoc++;
	t = *f->text;
	t.buf = b;
	b->len = 0;
	a.text = &t;
	if (n > jr->n) {
		size_t had = jr->alloc;

		xgrow_aligned((void **)&jr->rows, &jr->alloc, n,
			      sizeof(*jr->rows));
		memset(jr->rows + jr->n, 0, (n - jr->n) * sizeof(*jr->rows));
		xgrow((void **)&jr->pieces, &had, n, sizeof(*jr->pieces));
		memset(jr->pieces + jr->n, 0,
		       (n - jr->n) * sizeof(*jr->pieces));
		jr->n = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct row_text *rt = &jr->rows[i];
		struct row_ident id;
		uint64_t num[ROW_NUMS];

		if (i + JROW_AHEAD < n) {
			const char *ahead = (const char *)&rt[JROW_AHEAD];

			__builtin_prefetch(ahead);
			__builtin_prefetch(ahead + 64);
			__builtin_prefetch(ahead + 128);
			print_row_prefetch(&rows[i + JROW_AHEAD], 0);
		}

		if (!row_plain(&rows[i])) {
			run_flush(&run, b, last);
			rt->doc = 0;
			jfill_object(&a, NULL, fill, &rows[i]);
			continue;
		}
		row_ident_of(&id, &rows[i]);
		row_bits(num, &rows[i]);
		if (rt->valid && row_ident_eq(&rt->id, &id)) {
			if (rt->doc == jr->ndoc - 1 &&
			    !memcmp(rt->num, num, sizeof(num))) {
				row_again(&a, &run, rt, last);
				rt->doc = jr->ndoc;
				kept++;
				continue;
			}
			run_flush(&run, b, last);
			row_replay(&a, rt, &jr->pieces[i], &rows[i]);
		} else {
			run_flush(&run, b, last);
			row_learn(&a, rt, &jr->pieces[i], &rows[i], fill);
		}
		memcpy(rt->num, num, sizeof(num));
		rt->doc = rt->valid ? jr->ndoc : 0;
		kept += rt->valid;
	}
	/*
	 * Every row as it was, where it was: the last text is this one (and
	 * the rows' places in it are those just given them).
	 */
	if (run.rows == n && run.from == 0 && run.len == last->len) {
		b->len = 0;
	} else {
		run_flush(&run, b, last);
		jr->cur = !jr->cur;
	}
	jr->whole = kept == n ? n : 0;
	a.text = f->text;
	jfill_close(f, key, &a);
}
