/* SPDX-License-Identifier: MIT */
/*
 * The JSON printer (-j): the run documents, one summary or a line per
 * interval, laid out as schema/pstat.schema.json describes. Also the
 * helpers print_json_doc.c (the other documents) shares through
 * print_json_priv.h; the two files are the only ones that include
 * <jansson.h>.
 *
 * Every document is built whole as a jansson value, dumped to a string
 * and written with one fwrite, so a failing write can only leave a
 * truncated document that no parser accepts, never one that looks
 * complete. The interval documents are one value kept from interval to
 * interval and updated in place (print_json_fill.c), dumped into one
 * buffer kept as well: with thousands of threads, building and freeing
 * each document cost more than writing it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "report/print.h"
#include "report/print_json_priv.h"

/*
 * glibc 2.32 gives the symbolic names of errnos and signals, and the
 * untranslated errno text, which keeps "message" the same under any
 * LC_MESSAGES. Elsewhere we fall back to numbers and strerror().
 */
#ifdef __GLIBC_PREREQ
#if __GLIBC_PREREQ(2, 32)
#define HAVE_NP_NAMES 1
#endif
#endif

struct print_json {
	unsigned long intervals;    /* interval documents written */
	struct json_buf buf;        /* the buffer documents are written in */
	struct jtext_cache *kept;   /* the counters' strings, escaped */
	struct json_rows *rows;     /* and their objects' text */
	struct json_ids_kept *tids; /* the target's thread ids, as text */
};

/*
 * jansson's allocations go through xmalloc, which exits on failure like
 * the rest of pstat. A constructor then returns NULL only for bad input
 * (invalid UTF-8, a non-finite real), and the helpers below never pass
 * it such input, so the *_set_new calls cannot fail and drop a key.
 */
void json_init(void)
{
	static bool done;

	if (!done) {
		json_set_alloc_funcs(xmalloc, free);
		done = true;
	}
}

/*
 * Length of the well-formed UTF-8 sequence at s (Unicode table 3-7), or
 * 0 if there is none: overlong forms, surrogates and code points past
 * U+10FFFF are refused, exactly what jansson refuses. The string's NUL
 * fails every continuation test, so we never read past it.
 */
static size_t utf8_seq_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A copy of s with each byte that is not part of a well-formed UTF-8
 * sequence replaced by U+FFFD. Replacement rather than "\xNN" text keeps
 * the result unambiguous: a command line may well contain a literal
 * backslash, but never a decoded U+FFFD standing for a byte.
 */
static char *utf8_sanitize(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s);
	char *out, *o;

	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	out = o = xmalloc(len * 3 + 1);
	while (*u) {
		size_t n = utf8_seq_len(u);

		if (n) {
			memcpy(o, u, n);
			o += n;
			u += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			u++;
		}
	}
	*o = '\0';
	return out;
}

/*
 * A JSON string for s, null for NULL. Command lines, comm names and
 * event names come from the user or the kernel and need not be UTF-8;
 * json_string() refuses those, so they are sanitized rather than lost.
 */
json_t *jstr(const char *s)
{
	json_t *v;
	char *clean;

	if (!s)
		return json_null();
	v = json_string(s);
	if (v)
		return v;
	clean = utf8_sanitize(s);
	v = clean ? json_string(clean) : NULL;
	free(clean);
	return v ? v : json_null();
}

/* JSON has no NaN or infinity; such a value is unknown, so null. */
json_t *jreal(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}

/*
 * jansson integers are signed 64-bit; a count saturated at UINT64_MAX
 * becomes the nearest double instead of wrapping negative.
 */
json_t *ju64(uint64_t v)
{
	if (v > INT64_MAX)
		return json_real((double)v);
	return json_integer((json_int_t)v);
}

/*
 * Every document's first keys in one place, so their order cannot drift:
 * json_doc_head, "interval" (run documents), json_doc_version.
 */
void json_doc_head(struct jfill *f, const char *schema, const char *type)
{
	jfill_str(f, "schema", schema);
	if (type)
		jfill_str(f, "type", type);
}

void json_doc_version(struct jfill *f)
{
	jfill_str(f, "pstat_version", PSTAT_VERSION);
}

json_t *json_doc_new(const char *schema, const char *type, json_t *interval,
		     bool version)
{
	struct jfill f;
	json_t *doc;

	json_init();
	doc = json_object();
	jfill_start(&f, doc, false);
	json_doc_head(&f, schema, type);
	if (interval)
		jfill_new(&f, "interval", interval);
	if (version)
		json_doc_version(&f);
	return doc;
}

/* Write len bytes of s, a document and its newline, and flush. */
int json_put(FILE *out, const char *s, size_t len)
{
	errno = 0;
	if (fwrite(s, 1, len, out) != len || fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

int json_write_buf(FILE *out, struct json_buf *buf)
{
	if (buf->alloc - buf->len < 2)
		xgrow((void **)&buf->text, &buf->alloc, buf->len + 2, 1);
	buf->text[buf->len++] = '\n';
	return json_put(out, buf->text, buf->len);
}

int json_write_kept(FILE *out, const json_t *doc, size_t flags,
		    struct json_buf *buf)
{
	buf->len = 0;
	jtext_dump(buf, doc, (int)(flags & JSON_MAX_INDENT));
	return json_write_buf(out, buf);
}

/*
 * Write doc and a newline, then flush, so that a full disk or a closed
 * pipe shows up here. Steals doc. Returns 0 or -errno.
 */
int json_write(FILE *out, json_t *doc, size_t flags)
{
	struct json_buf buf = { 0 };
	int ret = json_write_kept(out, doc, flags, &buf);

	json_decref(doc);
	json_buf_free(&buf);
	return ret;
}

void json_buf_free(struct json_buf *buf)
{
	free(buf->text);
	*buf = (struct json_buf){ 0 };
}

/*
 * RFC 3339 in UTC with microseconds, "2026-11-22T06:09:00.123456Z", into
 * buf (64 bytes); NULL when the time has no such form.
 */
static const char *jtime(char *buf, const struct timespec *ts)
{
	time_t t = ts->tv_sec;
	long usec = ts->tv_nsec / 1000;
	struct tm tm;
	size_t n;

	if (!gmtime_r(&t, &tm))
		return NULL;
	n = strftime(buf, 64, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!n)
		return NULL;
	if (usec < 0 || usec > 999999)
		usec = 0;
	snprintf(buf + n, 64 - n, ".%06ldZ", usec);
	return buf;
}

/*
 * "SIGTERM"; real-time signals have no abbreviation, so "SIGRTMIN+3".
 * Into buf (32 bytes); NULL for no signal.
 */
static const char *jsignal(char *buf, int sig)
{
	const char *abbrev = NULL;

	if (sig <= 0)
		return NULL;
#ifdef HAVE_NP_NAMES
	abbrev = sigabbrev_np(sig);
#endif
	if (abbrev)
		snprintf(buf, 32, "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, 32, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, 32, "SIG%d", sig);
	return buf;
}

/* {"errno": "ENOENT", "message": "No such file or directory"}; arg: int */
static void jerrno(struct jfill *f, const void *arg)
{
	int err = *(const int *)arg;
	const char *name = NULL, *desc = NULL;
	char buf[16];

#ifdef HAVE_NP_NAMES
	name = strerrorname_np(err);
	desc = strerrordesc_np(err);
#endif
	if (!name) {
		snprintf(buf, sizeof(buf), "%d", err);
		name = buf;
	}
	jfill_str(f, "errno", name);
	jfill_str(f, "message", desc ? desc : strerror(err));
}

/*
 * mean, stddev, stderr, min, median, max into f; all null without s (a
 * counter that has no value).
 */
static void json_set_summary(struct jfill *f, const struct pstat_summary *s)
{
	jfill_real(f, "mean", s ? s->mean : NAN);
	jfill_real(f, "stddev", s ? s->stddev : NAN);
	jfill_real(f, "stderr", s ? s->stderr_mean : NAN);
	jfill_real(f, "min", s ? s->min : NAN);
	jfill_real(f, "median", s ? s->median : NAN);
	jfill_real(f, "max", s ? s->max : NAN);
}

/* [samples...] at key, each NAN (a run that did not count) null */
static void json_samples(struct jfill *f, const char *key, const double *v,
			 size_t n)
{
	struct jfill a;

	jfill_open(f, key, &a, true);
	for (size_t i = 0; v && i < n; i++)
		jfill_real(&a, NULL, v[i]);
	jfill_close(f, key, &a);
}

static void json_ints(struct jfill *f, const char *key, const int *v,
		      size_t n)
{
	struct jfill a;

	jfill_open(f, key, &a, true);
	for (size_t i = 0; v && i < n; i++)
		jfill_int(&a, NULL, v[i]);
	jfill_close(f, key, &a);
}

/*
 * A one-line document's list of ids (an attached process's thousands
 * of threads), kept as the text written for it ("," and key included)
 * while the list stays the same.
 */
struct json_ids_kept {
	int *v;
	size_t n;
	char *text;
	size_t len;
};

static void json_ids_kept_free(struct json_ids_kept *k)
{
	if (k) {
		free(k->v);
		free(k->text);
	}
	free(k);
}

static void json_ints_kept(struct jfill *f, const char *key, const int *v,
			   size_t n, struct json_ids_kept *k)
{
	struct json_buf *b = f->text ? f->text->buf : NULL;
	size_t start;

	/* (one line, after the first key: its comma and key are the same) */
	if (!k || !b || f->text->indent || f->first) {
		json_ints(f, key, v, n);
		return;
	}
	if (k->text && k->n == n && (!n || !memcmp(k->v, v, n * sizeof(*v)))) {
		if (b->alloc - b->len <= k->len)
			xgrow((void **)&b->text, &b->alloc, b->len + k->len + 1, 1);
		memcpy(b->text + b->len, k->text, k->len);
		b->len += k->len;
		return;
	}
	start = b->len;
	json_ints(f, key, v, n);
	free(k->v);
	free(k->text);
	k->v = xmalloc(n * sizeof(*v) + 1);
	if (n)
		memcpy(k->v, v, n * sizeof(*v));
	k->n = n;
	k->len = b->len - start;
	k->text = xmalloc(k->len);
	memcpy(k->text, b->text + start, k->len);
}

struct json_run_doc {
	struct json_rows *rows;     /* one-line documents: the kept rows */
	const struct pstat_report *r;
	bool interval;
	bool metric_only;
	struct json_ids_kept *tids;
};

static void json_target(struct jfill *f, const void *arg)
{
	static const char *const kinds[] = {
		[TARGET_COMMAND] = "command",
		[TARGET_PID] = "pid",
		[TARGET_TID] = "tid",
		[TARGET_SYSTEM] = "system",
	};
	const struct json_run_doc *d = arg;
	const struct pstat_report *r = d->r;
	const char *kind = NULL;

	if ((size_t)r->target < ARRAY_SIZE(kinds))
		kind = kinds[r->target];
	jfill_str(f, "kind", kind);
	/* pid_t is int on Linux */
	json_ints(f, "pids", r->pids, r->npids);
	json_ints_kept(f, "tids", r->tids, r->ntids, d->tids);
	json_ints(f, "cpus", r->cpus, r->ncpus);
}

static void json_command(struct jfill *f, char *const *argv)
{
	struct jfill a;

	if (!argv) {
		jfill_null(f, "command");
		return;
	}
	jfill_open(f, "command", &a, true);
	for (; *argv; argv++)
		jfill_str(&a, NULL, *argv);
	jfill_close(f, "command", &a);
}

static void json_exit(struct jfill *f, const void *arg)
{
	const struct pstat_report *r = arg;
	char sig[32];

	jfill_int(f, "status", r->exit_status);
	jfill_str(f, "signal", jsignal(sig, r->exit_signal));
	if (r->runs > 1 && r->run_status)
		json_ints(f, "runs", r->run_status, (size_t)r->runs);
}

static void json_time(struct jfill *f, const void *arg)
{
	const struct pstat_report *r = arg;

	jfill_u64(f, "elapsed_ns", r->elapsed_ns);
	jfill_u64(f, "user_ns", r->user_ns);
	jfill_u64(f, "sys_ns", r->sys_ns);
	if (r->elapsed_stats) {
		if (r->elapsed_samples)
			json_samples(f, "samples", r->elapsed_samples,
				     r->elapsed_stats->n);
		json_set_summary(f, r->elapsed_stats);
	}
}

static void json_interval(struct jfill *f, const void *arg)
{
	const struct pstat_report *r = arg;

	jfill_int(f, "index", (json_int_t)r->interval_index);
	jfill_u64(f, "start_ns", r->interval_start_ns);
	jfill_u64(f, "end_ns", r->interval_end_ns);
	jfill_bool(f, "partial", r->interval_partial);
	if (r->interval_run)
		jfill_int(f, "run", r->interval_run);
}

/*
 * The unit of a --per-socket (...) row or metric: perf's name as "id",
 * each of its levels as a number of its own, and how many CPUs (nr) it
 * counted on.
 */
static void json_aggr(struct jfill *f, const struct pstat_aggr_id *id, int nr)
{
	char name[64];

	jfill_str(f, "mode", topo_aggr_key(id->mode));
	jfill_str(f, "id", topo_aggr_name(id->mode, id, name, sizeof(name)));
	if (id->socket >= 0 || id->mode == AGGR_SOCKET)
		jfill_int(f, "socket", id->socket);
	if (id->mode != AGGR_SOCKET && id->mode != AGGR_NODE)
		jfill_int(f, "die", id->die);
	if (id->mode == AGGR_CLUSTER || id->mode == AGGR_CORE)
		jfill_int(f, "cluster", id->cluster);
	if (id->mode == AGGR_CACHE) {
		jfill_int(f, "cache_level", id->cache_level);
		if (id->cache >= 0)
			jfill_int(f, "cache", id->cache);
		else
			jfill_null(f, "cache");
	}
	if (id->mode == AGGR_CORE)
		jfill_int(f, "core", id->core);
	if (id->mode == AGGR_NODE)
		jfill_int(f, "node", id->node);
	jfill_int(f, "cpus", nr);
}

static void json_row_aggr(struct jfill *f, const void *arg)
{
	const struct pstat_row *row = arg;

	json_aggr(f, row->aggr, row->aggr_nr);
}

static void json_metric_aggr(struct jfill *f, const void *arg)
{
	const struct pstat_metric_value *m = arg;

	json_aggr(f, m->aggr, m->aggr_nr);
}

static void json_row_metric(struct jfill *f, const void *arg)
{
	const struct pstat_metric *m = arg;

	jfill_str_kept(f, "name", m->name);
	jfill_real(f, "value", m->value);
	jfill_str_kept(f, "unit", m->unit ? m->unit : "");
}

static void json_counter(struct jfill *f, const void *arg)
{
	const struct pstat_row *row = arg;
	bool has_value = row->status == PSTAT_COUNTED ||
			 row->status == PSTAT_MULTIPLEXED;
	bool has_error = (row->status == PSTAT_ERROR ||
			  row->status == PSTAT_NOT_SUPPORTED) && row->err > 0;

	jfill_str_kept(f, "event", row->event);
	jfill_str_kept(f, "pmu", row->pmu);
	jfill_int(f, "group", row->group);
	if (row->group_name)
		jfill_str_kept(f, "group_name", row->group_name);
	if (row->cpu >= 0)
		jfill_int(f, "cpu", row->cpu);
	if (row->aggr)
		jfill_object(f, "aggr", json_row_aggr, row);
	if (row->thread)
		jfill_str_kept(f, "thread", row->thread);
	if (row->cgroup)
		jfill_str_kept(f, "cgroup", row->cgroup);
	jfill_str_kept(f, "status", print_status_name(row->status));
	jfill_real(f, "value", has_value ? row->value : NAN);
	jfill_u64(f, "raw", row->raw);
	jfill_str_kept(f, "unit", row->unit ? row->unit : "");
	jfill_u64(f, "time_enabled_ns", row->ena);
	jfill_u64(f, "time_running_ns", row->run);
	jfill_real(f, "running_pct", row->running_pct);
	if (has_error)
		jfill_object(f, "error", jerrno, &row->err);
	else
		jfill_null(f, "error");
	jfill_str_kept(f, "note", row->note);
	if (row->has_metric)
		jfill_object(f, "metric", json_row_metric, &row->metric);
	/*
	 * A run that did not count the counter has a null sample, never the
	 * zero that stands in for "no count", and the statistics are those
	 * of the runs that counted it: null when none did, so that .mean is
	 * never 0 for what was not measured.
	 */
	if (row->stats) {
		json_samples(f, "samples", row->samples, row->nsamples);
		json_set_summary(f, row->stats->n ? row->stats : NULL);
	}
}

/*
 * A metric of the metric engine. Its value is null when it has none
 * (a division by zero, an input not counted), with why saying so.
 */
static void json_metric_value(struct jfill *f, const void *arg)
{
	const struct pstat_metric_value *m = arg;
	struct jfill in;

	jfill_str_kept(f, "name", m->about->name);
	if (m->cpu >= 0)
		jfill_int(f, "cpu", m->cpu);
	if (m->aggr)
		jfill_object(f, "aggr", json_metric_aggr, m);
	if (m->thread)
		jfill_str_kept(f, "thread", m->thread);
	if (m->cgroup)
		jfill_str_kept(f, "cgroup", m->cgroup);
	jfill_real(f, "value", m->value);
	jfill_str_kept(f, "unit", m->about->unit);
	jfill_str_kept(f, "expr", m->about->expr);
	jfill_str_kept(f, "group", m->about->group);
	jfill_open(f, "inputs", &in, true);
	for (size_t i = 0; i < m->about->ninputs; i++)
		jfill_str_kept(&in, NULL, m->about->inputs[i]);
	jfill_close(f, "inputs", &in);
	if (m->threshold < 0)
		jfill_null(f, "threshold_crossed");
	else
		jfill_bool(f, "threshold_crossed", m->threshold);
	jfill_bool(f, "multiplexed", m->multiplexed);
	if (m->about->higher_is_better < 0)
		jfill_null(f, "higher_is_better");
	else
		jfill_bool(f, "higher_is_better", m->about->higher_is_better);
	jfill_str(f, "why", isfinite(m->value) ? NULL : m->why);
	if (m->runs) {
		json_samples(f, "samples", m->runs->samples, m->runs->nsamples);
		json_set_summary(f, m->runs->stats->n ? m->runs->stats : NULL);
	}
}

/* Each of n records of size sz from v, an object filled by fill. */
static void json_each(struct jfill *f, const char *key, jfill_fn *fill,
		      const void *v, size_t n, size_t sz)
{
	struct jfill a;

	jfill_open(f, key, &a, true);
	for (size_t i = 0; i < n; i++)
		jfill_object(&a, NULL, fill, (const char *)v + i * sz);
	jfill_close(f, key, &a);
}

/* The whole run document; type is "summary" or "interval". */
static void json_report(struct jfill *f, const void *arg)
{
	const struct json_run_doc *d = arg;
	const struct pstat_report *r = d->r;
	char started[64];

	json_doc_head(f, JSON_SCHEMA_RUN, d->interval ? "interval" : "summary");
	if (d->interval)
		jfill_object(f, "interval", json_interval, r);
	json_doc_version(f);
	jfill_str(f, "kernel", r->kernel);
	jfill_str(f, "cpu_model", r->cpu_model);
	jfill_int(f, "perf_event_paranoid", r->perf_event_paranoid);
	json_command(f, r->argv);
	jfill_object(f, "target", json_target, d);
	jfill_str(f, "started_at", jtime(started, &r->started_at));
	jfill_int(f, "runs", r->runs);
	/* The command is still running while intervals are printed. */
	if (d->interval)
		jfill_null(f, "exit");
	else
		jfill_object(f, "exit", json_exit, r);
	jfill_object(f, "time", json_time, r);
	if (d->rows)
		json_rows_write(d->rows, f, "counters", r->rows,
				d->metric_only ? 0 : r->nrows,
				r->rows_as_last, json_counter);
	else
		json_each(f, "counters", json_counter, r->rows,
			  d->metric_only ? 0 : r->nrows, sizeof(*r->rows));
	if (r->nmetrics || d->metric_only)
		json_each(f, "metrics", json_metric_value, r->metrics,
			  r->nmetrics, sizeof(*r->metrics));
}

static struct print_json *json_priv(struct pstat_printer *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct print_json));
	return p->priv;
}

/*
 * The run document of r, written as text (no jansson value: with
 * thousands of counters, building and dumping one cost more than all
 * the rest of an interval), indented or on one line. Returns 0 or -errno.
 */
static int json_report_write(struct pstat_printer *p,
			     const struct pstat_report *r, bool interval,
			     int indent)
{
	struct print_json *pj = json_priv(p);
	struct json_run_doc d = { NULL, r, interval, p->cfg.metric_only, NULL };
	struct jtext t = { .buf = &pj->buf, .indent = indent };
	struct jfill f;

	json_init();
	if (!pj->kept)
		pj->kept = jtext_cache_new();
	t.cache = pj->kept;
	pj->buf.len = 0;
	if (!indent) {
		if (!pj->rows)
			pj->rows = json_rows_new();
		d.rows = pj->rows;
		if (!pj->tids)
			pj->tids = xcalloc(1, sizeof(*pj->tids));
		d.tids = pj->tids;
		json_rows_begin(pj->rows);
	}
	jfill_start_text(&f, &t);
	json_report(&f, &d);
	jfill_end_text(&f);
	if (d.rows)
		return json_rows_put(d.rows, p->out, &pj->buf);
	return json_write_buf(p->out, &pj->buf);
}

/*
 * After intervals the summary is one more compact line, so that the
 * whole stream stays valid JSON Lines; on its own it is indented.
 */
static void json_summary(struct pstat_printer *p,
			 const struct pstat_report *r)
{
	p->err = json_report_write(p, r, false,
				   json_priv(p)->intervals ? 0 : 2);
}

static void json_interval_doc(struct pstat_printer *p,
			      const struct pstat_report *r)
{
	p->err = json_report_write(p, r, true, 0);
	json_priv(p)->intervals++;
}

static void json_free(struct pstat_printer *p)
{
	struct print_json *pj = p->priv;

	if (pj) {
		jtext_cache_free(pj->kept);
		json_rows_free(pj->rows);
		json_ids_kept_free(pj->tids);
		json_buf_free(&pj->buf);
	}
	free(pj);
	p->priv = NULL;
}

const struct pstat_printer_ops print_json_ops = {
	.summary = json_summary,
	.interval = json_interval_doc,
	.free = json_free,
};
