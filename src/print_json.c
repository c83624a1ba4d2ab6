/* SPDX-License-Identifier: MIT */
/*
 * The JSON printer (-j) and the other JSON documents (--dry-run -j,
 * pstat list -j). This is the only file that includes <jansson.h>; the
 * layout is described by schema/pstat.schema.json and its siblings.
 *
 * Every document is built whole as a jansson value, dumped to a string
 * and written with one fwrite, so a failing write can only leave a
 * truncated document that no parser accepts, never one that looks
 * complete.
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

#include <jansson.h>

#include "compare.h"
#include "msg.h"
#include "print.h"
#include "util.h"

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

#define JSON_SCHEMA_RUN "pstat/1"
#define JSON_SCHEMA_DRYRUN "pstat-dryrun/1"
#define JSON_SCHEMA_LIST "pstat-list/1"
#define JSON_SCHEMA_DOCTOR "pstat-doctor/1"

/* 17 significant digits: every double reads back as the same double. */
#define JSON_PRETTY (JSON_INDENT(2) | JSON_REAL_PRECISION(17))
#define JSON_LINE (JSON_COMPACT | JSON_REAL_PRECISION(17))

struct print_json {
	unsigned long intervals;    /* interval documents written */
};

/*
 * jansson's allocations go through xmalloc, which exits on failure like
 * the rest of pstat. A constructor then returns NULL only for bad input
 * (invalid UTF-8, a non-finite real), and the helpers below never pass
 * it such input, so the *_set_new calls cannot fail and drop a key.
 */
static void json_init(void)
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
static json_t *jstr(const char *s)
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
static json_t *jreal(double d)
{
	return isfinite(d) ? json_real(d) : json_null();
}

/*
 * jansson integers are signed 64-bit; a count saturated at UINT64_MAX
 * becomes the nearest double instead of wrapping negative.
 */
static json_t *ju64(uint64_t v)
{
	if (v > INT64_MAX)
		return json_real((double)v);
	return json_integer((json_int_t)v);
}

/* 64-bit attr fields as "0x..." text: not every reader keeps 64 bits. */
static json_t *jhex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* RFC 3339 in UTC with microseconds: "2026-11-22T06:09:00.123456Z". */
static json_t *jtime(const struct timespec *ts)
{
	time_t t = ts->tv_sec;
	long usec = ts->tv_nsec / 1000;
	struct tm tm;
	char buf[64];
	size_t n;

	if (!gmtime_r(&t, &tm))
		return json_null();
	n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	if (!n)
		return json_null();
	if (usec < 0 || usec > 999999)
		usec = 0;
	snprintf(buf + n, sizeof(buf) - n, ".%06ldZ", usec);
	return json_string(buf);
}

/* "SIGTERM"; real-time signals have no abbreviation, so "SIGRTMIN+3". */
static json_t *jsignal(int sig)
{
	const char *abbrev = NULL;
	char buf[32];

	if (sig <= 0)
		return json_null();
#ifdef HAVE_NP_NAMES
	abbrev = sigabbrev_np(sig);
#endif
	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, sizeof(buf), "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, sizeof(buf), "SIG%d", sig);
	return json_string(buf);
}

/* {"errno": "ENOENT", "message": "No such file or directory"} */
static json_t *jerrno(int err)
{
	json_t *o = json_object();
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
	json_object_set_new(o, "errno", jstr(name));
	json_object_set_new(o, "message", jstr(desc ? desc : strerror(err)));
	return o;
}

/* mean, stddev, stderr, min, median, max into o. */
static void json_set_summary(json_t *o, const struct pstat_summary *s)
{
	json_object_set_new(o, "mean", jreal(s->mean));
	json_object_set_new(o, "stddev", jreal(s->stddev));
	json_object_set_new(o, "stderr", jreal(s->stderr_mean));
	json_object_set_new(o, "min", jreal(s->min));
	json_object_set_new(o, "median", jreal(s->median));
	json_object_set_new(o, "max", jreal(s->max));
}

static json_t *json_pids(const pid_t *pids, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(pids[i]));
	return a;
}

static json_t *json_target(const struct pstat_report *r)
{
	static const char *const kinds[] = {
		[TARGET_COMMAND] = "command",
		[TARGET_PID] = "pid",
		[TARGET_TID] = "tid",
		[TARGET_SYSTEM] = "system",
	};
	json_t *o = json_object();
	json_t *cpus = json_array();
	const char *kind = NULL;

	if ((size_t)r->target < ARRAY_SIZE(kinds))
		kind = kinds[r->target];
	json_object_set_new(o, "kind", jstr(kind));
	json_object_set_new(o, "pids", json_pids(r->pids, r->npids));
	json_object_set_new(o, "tids", json_pids(r->tids, r->ntids));
	for (size_t i = 0; r->cpus && i < r->ncpus; i++)
		json_array_append_new(cpus, json_integer(r->cpus[i]));
	json_object_set_new(o, "cpus", cpus);
	return o;
}

static json_t *json_command(char *const *argv)
{
	json_t *a;

	if (!argv)
		return json_null();
	a = json_array();
	for (; *argv; argv++)
		json_array_append_new(a, jstr(*argv));
	return a;
}

static json_t *json_exit(const struct pstat_report *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "status", json_integer(r->exit_status));
	json_object_set_new(o, "signal", jsignal(r->exit_signal));
	if (r->runs > 1 && r->run_status) {
		json_t *runs = json_array();

		for (int i = 0; i < r->runs; i++)
			json_array_append_new(runs,
					      json_integer(r->run_status[i]));
		json_object_set_new(o, "runs", runs);
	}
	return o;
}

static json_t *json_time(const struct pstat_report *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "elapsed_ns", ju64(r->elapsed_ns));
	json_object_set_new(o, "user_ns", ju64(r->user_ns));
	json_object_set_new(o, "sys_ns", ju64(r->sys_ns));
	if (r->elapsed_stats) {
		if (r->elapsed_samples) {
			json_t *a = json_array();

			for (size_t i = 0; i < r->elapsed_stats->n; i++)
				json_array_append_new(
					a, jreal(r->elapsed_samples[i]));
			json_object_set_new(o, "samples", a);
		}
		json_set_summary(o, r->elapsed_stats);
	}
	return o;
}

static json_t *json_interval(const struct pstat_report *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "index", json_integer(
					(json_int_t)r->interval_index));
	json_object_set_new(o, "start_ns", ju64(r->interval_start_ns));
	json_object_set_new(o, "end_ns", ju64(r->interval_end_ns));
	json_object_set_new(o, "partial", json_boolean(r->interval_partial));
	return o;
}

static json_t *json_counter(const struct pstat_row *row)
{
	bool has_value = row->status == PSTAT_COUNTED ||
			 row->status == PSTAT_MULTIPLEXED;
	bool has_error = (row->status == PSTAT_ERROR ||
			  row->status == PSTAT_NOT_SUPPORTED) && row->err > 0;
	json_t *c = json_object();

	json_object_set_new(c, "event", jstr(row->event));
	json_object_set_new(c, "pmu", jstr(row->pmu));
	json_object_set_new(c, "group", json_integer(row->group));
	if (row->cpu >= 0)
		json_object_set_new(c, "cpu", json_integer(row->cpu));
	if (row->thread)
		json_object_set_new(c, "thread", jstr(row->thread));
	json_object_set_new(c, "status",
			    jstr(print_status_name(row->status)));
	json_object_set_new(c, "value",
			    has_value ? jreal(row->value) : json_null());
	json_object_set_new(c, "raw", ju64(row->raw));
	json_object_set_new(c, "unit", jstr(row->unit ? row->unit : ""));
	json_object_set_new(c, "time_enabled_ns", ju64(row->ena));
	json_object_set_new(c, "time_running_ns", ju64(row->run));
	json_object_set_new(c, "running_pct", jreal(row->running_pct));
	json_object_set_new(c, "error",
			    has_error ? jerrno(row->err) : json_null());
	json_object_set_new(c, "note", jstr(row->note));
	if (row->has_metric) {
		json_t *m = json_object();

		json_object_set_new(m, "name", jstr(row->metric.name));
		json_object_set_new(m, "value", jreal(row->metric.value));
		json_object_set_new(m, "unit",
				    jstr(row->metric.unit ? row->metric.unit :
							    ""));
		json_object_set_new(c, "metric", m);
	}
	if (row->stats) {
		json_t *samples = json_array();

		for (size_t i = 0; row->samples && i < row->nsamples; i++)
			json_array_append_new(samples,
					      jreal(row->samples[i]));
		json_object_set_new(c, "samples", samples);
		json_set_summary(c, row->stats);
	}
	return c;
}

/* The whole run document; type is "summary" or "interval". */
static json_t *json_report(const struct pstat_report *r, bool interval)
{
	json_t *doc = json_object();
	json_t *counters = json_array();

	json_object_set_new(doc, "schema", json_string(JSON_SCHEMA_RUN));
	json_object_set_new(doc, "type",
			    json_string(interval ? "interval" : "summary"));
	if (interval)
		json_object_set_new(doc, "interval", json_interval(r));
	json_object_set_new(doc, "pstat_version", json_string(PSTAT_VERSION));
	json_object_set_new(doc, "kernel", jstr(r->kernel));
	json_object_set_new(doc, "cpu_model", jstr(r->cpu_model));
	json_object_set_new(doc, "perf_event_paranoid",
			    json_integer(r->perf_event_paranoid));
	json_object_set_new(doc, "command", json_command(r->argv));
	json_object_set_new(doc, "target", json_target(r));
	json_object_set_new(doc, "started_at", jtime(&r->started_at));
	json_object_set_new(doc, "runs", json_integer(r->runs));
	/* The command is still running while intervals are printed. */
	json_object_set_new(doc, "exit", interval ? json_null() : json_exit(r));
	json_object_set_new(doc, "time", json_time(r));
	for (size_t i = 0; i < r->nrows; i++)
		json_array_append_new(counters, json_counter(&r->rows[i]));
	json_object_set_new(doc, "counters", counters);
	return doc;
}

/*
 * Write doc and a newline, then flush, so that a full disk or a closed
 * pipe shows up here. Steals doc. Returns 0 or -errno.
 */
static int json_write(FILE *out, json_t *doc, size_t flags)
{
	char *s = json_dumps(doc, flags);
	size_t len;
	int ret = 0;

	json_decref(doc);
	if (!s)
		return -ENOMEM;
	len = strlen(s);
	s[len] = '\n';
	errno = 0;
	if (fwrite(s, 1, len + 1, out) != len + 1 || fflush(out) ||
	    ferror(out))
		ret = errno ? -errno : -EIO;
	free(s);
	return ret;
}

static struct print_json *json_priv(struct pstat_printer *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct print_json));
	return p->priv;
}

/*
 * After intervals the summary is one more compact line, so that the
 * whole stream stays valid JSON Lines; on its own it is indented.
 */
static void json_summary(struct pstat_printer *p,
			 const struct pstat_report *r)
{
	struct print_json *pj = json_priv(p);

	json_init();
	p->err = json_write(p->out, json_report(r, false),
			    pj->intervals ? JSON_LINE : JSON_PRETTY);
}

static void json_interval_doc(struct pstat_printer *p,
			      const struct pstat_report *r)
{
	struct print_json *pj = json_priv(p);

	json_init();
	p->err = json_write(p->out, json_report(r, true), JSON_LINE);
	pj->intervals++;
}

static void json_free(struct pstat_printer *p)
{
	free(p->priv);
	p->priv = NULL;
}

const struct pstat_printer_ops print_json_ops = {
	.summary = json_summary,
	.interval = json_interval_doc,
	.free = json_free,
};

static json_t *json_attr(const struct perf_event_attr *a)
{
	json_t *o = json_object();

	json_object_set_new(o, "type", json_integer(a->type));
	json_object_set_new(o, "config", jhex(a->config));
	json_object_set_new(o, "config1", jhex(a->config1));
	json_object_set_new(o, "config2", jhex(a->config2));
	json_object_set_new(o, "exclude_user", json_boolean(a->exclude_user));
	json_object_set_new(o, "exclude_kernel",
			    json_boolean(a->exclude_kernel));
	json_object_set_new(o, "exclude_hv", json_boolean(a->exclude_hv));
	json_object_set_new(o, "exclude_host", json_boolean(a->exclude_host));
	json_object_set_new(o, "exclude_guest",
			    json_boolean(a->exclude_guest));
	json_object_set_new(o, "exclude_idle", json_boolean(a->exclude_idle));
	json_object_set_new(o, "pinned", json_boolean(a->pinned));
	json_object_set_new(o, "exclusive", json_boolean(a->exclusive));
	json_object_set_new(o, "bp_type", json_integer(a->bp_type));
	/* bp_addr and bp_len share storage with config1 and config2. */
	json_object_set_new(o, "bp_addr", jhex(a->bp_addr));
	json_object_set_new(o, "bp_len", ju64(a->bp_len));
	return o;
}

int print_json_dryrun(FILE *out, const struct pstat_dryrun_event *ev,
		      size_t n)
{
	json_t *doc, *events;

	json_init();
	doc = json_object();
	events = json_array();
	json_object_set_new(doc, "schema", json_string(JSON_SCHEMA_DRYRUN));
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "name", jstr(ev[i].name));
		json_object_set_new(e, "pmu", jstr(ev[i].pmu));
		json_object_set_new(e, "resolver", jstr(ev[i].resolver));
		json_object_set_new(e, "group", json_integer(ev[i].group));
		json_object_set_new(e, "leader", json_boolean(ev[i].leader));
		json_object_set_new(e, "scale", jreal(ev[i].scale));
		json_object_set_new(e, "unit",
				    jstr(ev[i].unit ? ev[i].unit : ""));
		json_object_set_new(e, "attr", ev[i].attr ?
				    json_attr(ev[i].attr) : json_null());
		json_array_append_new(events, e);
	}
	json_object_set_new(doc, "events", events);
	return json_write(out, doc, JSON_PRETTY);
}

static json_t *json_list_pmu(const struct pstat_list_pmu *pmu)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jstr(pmu->name));
	json_object_set_new(o, "source", jstr(pmu->source));
	json_object_set_new(o, "type", json_integer(pmu->type));
	json_object_set_new(o, "kernel_exposed",
			    json_boolean(pmu->kernel_exposed));
	json_object_set_new(o, "is_core", json_boolean(pmu->is_core));
	return o;
}

static json_t *json_list_entry(const struct pstat_list_entry *e)
{
	json_t *o = json_object();
	json_t *umasks = json_array();

	json_object_set_new(o, "section", jstr(e->section));
	json_object_set_new(o, "pmu", jstr(e->pmu));
	json_object_set_new(o, "name", jstr(e->name));
	json_object_set_new(o, "desc", jstr(e->desc));
	json_object_set_new(o, "unit", jstr(e->unit));
	json_object_set_new(o, "encoding", jstr(e->encoding));
	for (size_t i = 0; e->umasks && i < e->numasks; i++)
		json_array_append_new(umasks, jstr(e->umasks[i]));
	json_object_set_new(o, "umasks", umasks);
	return o;
}

int print_json_list(FILE *out, const struct pstat_list *l)
{
	json_t *doc, *pmus, *events;

	json_init();
	doc = json_object();
	pmus = json_array();
	events = json_array();
	json_object_set_new(doc, "schema", json_string(JSON_SCHEMA_LIST));
	json_object_set_new(doc, "core_pmu_exposed",
			    json_boolean(l->core_pmu_exposed));
	for (size_t i = 0; i < l->npmus; i++)
		json_array_append_new(pmus, json_list_pmu(&l->pmus[i]));
	json_object_set_new(doc, "pmus", pmus);
	for (size_t i = 0; i < l->nentries; i++)
		json_array_append_new(events,
				      json_list_entry(&l->entries[i]));
	json_object_set_new(doc, "events", events);
	return json_write(out, doc, JSON_PRETTY);
}

int print_json_doctor(FILE *out, const struct pstat_doctor_check *c,
		      size_t n, int exit_status)
{
	json_t *doc, *checks;

	json_init();
	doc = json_object();
	checks = json_array();
	json_object_set_new(doc, "schema", json_string(JSON_SCHEMA_DOCTOR));
	json_object_set_new(doc, "pstat_version", json_string(PSTAT_VERSION));
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", jstr(c[i].name));
		json_object_set_new(o, "status", jstr(c[i].status));
		json_object_set_new(o, "detail", jstr(c[i].detail));
		json_object_set_new(o, "fix", jstr(c[i].fix));
		json_array_append_new(checks, o);
	}
	json_object_set_new(doc, "checks", checks);
	json_object_set_new(doc, "exit_status", json_integer(exit_status));
	return json_write(out, doc, JSON_PRETTY);
}

/*
 * ---- pstat compare: reading pstat/1 run documents, writing the
 * pstat-compare/1 document (schema/pstat-compare.schema.json). The
 * records are compare.h's; the logic is compare.c's.
 */

#define JSON_SCHEMA_COMPARE "pstat-compare/1"

static size_t count_lines(const char *s, size_t n)
{
	size_t lines = 0;

	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines;
}

/* How far into its line buf[off] is. */
static size_t line_offset(const char *buf, size_t off)
{
	size_t start = off;

	while (start > 0 && buf[start - 1] != '\n')
		start--;
	return off - start;
}

/*
 * The last of the JSON documents in buf (a new reference), or NULL with
 * err set. Documents follow one another separated by whitespace, as -I
 * writes them one per line.
 */
static json_t *json_last_doc(const char *buf, size_t len,
			     struct pstat_error *err)
{
	const char *nul = memchr(buf, '\0', len);
	json_t *last = NULL;
	size_t off = 0;

	if (nul) {
		error_set(err, -1,
			  "binary data (a NUL byte at offset %zu), not JSON",
			  (size_t)(nul - buf));
		return NULL;
	}
	for (;;) {
		json_error_t je;
		json_t *doc;
		size_t line, column;

		while (off < len && strchr(" \t\r\n", buf[off]))
			off++;
		if (off == len)
			break;
		doc = json_loadb(buf + off, len - off, JSON_DISABLE_EOF_CHECK,
				 &je);
		if (!doc) {
			json_decref(last);
			line = count_lines(buf, off) + (size_t)je.line;
			column = je.column > 0 ? (size_t)je.column : 0;
			if (je.line == 1)
				column += line_offset(buf, off);
			/* an error at the end of the input: it was cut off */
			if (je.position >= 0 &&
			    (size_t)je.position >= len - off)
				error_set(err, -1,
					  "truncated JSON at line %zu: %s",
					  line, je.text);
			else
				error_set(err, -1,
					  "not JSON at line %zu, column %zu: %s",
					  line, column, je.text);
			return NULL;
		}
		json_decref(last);
		last = doc;
		/* on success jansson stores how many bytes it consumed */
		if (je.position <= 0)
			break;
		off += (size_t)je.position;
	}
	if (!last)
		error_set(err, -1, "empty file, not JSON");
	return last;
}

static int json_read_number(json_t *v, double *out)
{
	if (json_is_null(v)) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

static char *json_read_str(json_t *v)
{
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static int json_read_status(const char *s, enum pstat_status *st)
{
	static const enum pstat_status all[] = {
		PSTAT_COUNTED, PSTAT_MULTIPLEXED, PSTAT_NOT_COUNTED,
		PSTAT_NOT_SUPPORTED, PSTAT_ERROR,
	};

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		if (!strcmp(s, print_status_name(all[i]))) {
			*st = all[i];
			return 0;
		}
	}
	return -1;
}

/* counters[i] into c; returns 0 or -1 with err set. */
static int json_read_counter(json_t *o, size_t i,
			     struct pstat_compare_counter *c,
			     struct pstat_error *err)
{
	json_t *v, *m;

	if (!json_is_object(o))
		return error_set(err, -1, "counters[%zu] is not an object", i);
	c->event = json_read_str(json_object_get(o, "event"));
	if (!c->event)
		return error_set(err, -1,
				 "counters[%zu].event is not a string", i);
	v = json_object_get(o, "status");
	if (!json_is_string(v) ||
	    json_read_status(json_string_value(v), &c->status))
		return error_set(err, -1,
				 "counters[%zu].status is not a counter status",
				 i);
	v = json_object_get(o, "value");
	if (!v || json_read_number(v, &c->value))
		return error_set(err, -1,
				 "counters[%zu].value is not a number or null",
				 i);
	v = json_object_get(o, "unit");
	c->unit = v ? json_read_str(v) : xstrdup("");
	if (!c->unit)
		return error_set(err, -1, "counters[%zu].unit is not a string",
				 i);
	v = json_object_get(o, "cpu");
	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > INT32_MAX)
			return error_set(err, -1,
					 "counters[%zu].cpu is not a CPU number",
					 i);
		c->cpu = (int)json_integer_value(v);
	}
	v = json_object_get(o, "thread");
	if (v && !(c->thread = json_read_str(v)))
		return error_set(err, -1,
				 "counters[%zu].thread is not a string", i);
	v = json_object_get(o, "samples");
	if (v) {
		size_t n = json_array_size(v);

		if (!json_is_array(v))
			return error_set(err, -1,
					 "counters[%zu].samples is not an array",
					 i);
		c->samples = xcalloc(n + 1, sizeof(*c->samples));
		c->nsamples = n;
		for (size_t k = 0; k < n; k++)
			if (json_read_number(json_array_get(v, k),
					     &c->samples[k]))
				return error_set(err, -1,
						 "counters[%zu].samples[%zu] is not a number or null",
						 i, k);
	}
	m = json_object_get(o, "metric");
	if (m) {
		c->has_metric = 1;
		if (!json_is_object(m) ||
		    !(c->metric_name = json_read_str(
			      json_object_get(m, "name"))) ||
		    !(v = json_object_get(m, "value")) ||
		    json_read_number(v, &c->metric_value))
			return error_set(err, -1,
					 "counters[%zu].metric needs a name and a value",
					 i);
		v = json_object_get(m, "unit");
		c->metric_unit = v ? json_read_str(v) : xstrdup("");
		if (!c->metric_unit)
			return error_set(err, -1,
					 "counters[%zu].metric.unit is not a string",
					 i);
	}
	return 0;
}

int print_json_read_run(const char *buf, size_t len,
			struct pstat_compare_run *run,
			struct pstat_error *err)
{
	json_t *doc, *v, *counters;
	const char *s;
	int ret = -1;

	json_init();
	doc = json_last_doc(buf, len, err);
	if (!doc)
		return -1;
	if (!json_is_object(doc)) {
		error_set(err, -1, "not a pstat run document (not an object)");
		goto out;
	}
	v = json_object_get(doc, "schema");
	if (!json_is_string(v)) {
		error_set(err, -1, "not a pstat run document (no \"schema\")");
		goto out;
	}
	s = json_string_value(v);
	if (strcmp(s, JSON_SCHEMA_RUN)) {
		error_set(err, -1, "schema is '%.64s', not '%s'", s,
			  JSON_SCHEMA_RUN);
		goto out;
	}
	v = json_object_get(doc, "type");
	if (!json_is_string(v) || strcmp(json_string_value(v), "summary")) {
		error_set(err, -1,
			  json_is_string(v) &&
					  !strcmp(json_string_value(v),
						  "interval") ?
				  "no summary after the interval documents (the run was cut short?)" :
				  "the document is not a run summary");
		goto out;
	}
	v = json_object_get(doc, "runs");
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    json_integer_value(v) > INT32_MAX) {
		error_set(err, -1, "\"runs\" is not a number of runs");
		goto out;
	}
	run->runs = (int)json_integer_value(v);
	counters = json_object_get(doc, "counters");
	if (!json_is_array(counters)) {
		error_set(err, -1, "\"counters\" is not an array");
		goto out;
	}
	for (size_t i = 0; i < json_array_size(counters); i++)
		if (json_read_counter(json_array_get(counters, i), i,
				      compare_run_add(run), err))
			goto out;
	ret = 0;
out:
	json_decref(doc);
	return ret;
}

static json_t *json_compare_side(const struct pstat_compare_side *s)
{
	json_t *o;

	if (!s->present)
		return json_null();
	o = json_object();
	json_object_set_new(o, "status", jstr(print_status_name(s->status)));
	json_object_set_new(o, "value", jreal(s->value));
	json_object_set_new(o, "n", json_integer((json_int_t)s->n));
	json_object_set_new(o, "stddev", jreal(s->stddev));
	return o;
}

static json_t *json_compare_item(const struct pstat_compare_item *it,
				 double alpha)
{
	json_t *o = json_object(), *limit = json_object();

	json_object_set_new(o, "name", jstr(it->name));
	json_object_set_new(o, "event", jstr(it->event));
	json_object_set_new(o, "metric", jstr(it->metric));
	json_object_set_new(o, "unit", jstr(it->unit));
	json_object_set_new(o, "higher_is_better",
			    json_boolean(it->higher_is_better));
	json_object_set_new(o, "base", json_compare_side(&it->base));
	json_object_set_new(o, "new", json_compare_side(&it->new));
	json_object_set_new(o, "delta", jreal(it->delta));
	json_object_set_new(o, "delta_pct", jreal(it->delta_pct));
	if (it->tested) {
		json_t *t = json_object();

		json_object_set_new(t, "t", jreal(it->t));
		json_object_set_new(t, "df", jreal(it->df));
		json_object_set_new(t, "p", jreal(it->p));
		json_object_set_new(t, "confidence", jreal(1 - alpha));
		json_object_set_new(t, "ci_low", jreal(it->ci_lo));
		json_object_set_new(t, "ci_high", jreal(it->ci_hi));
		json_object_set_new(o, "test", t);
	} else {
		json_object_set_new(o, "test", json_null());
	}
	json_object_set_new(limit, "kind",
			    json_string(it->limit_kind == LIMIT_ABSOLUTE ?
						"absolute" : "relative"));
	json_object_set_new(limit, "value", jreal(it->limit));
	json_object_set_new(limit, "rule",
			    jstr(it->rule ? it->rule->text : NULL));
	json_object_set_new(o, "limit", limit);
	json_object_set_new(o, "verdict",
			    jstr(compare_verdict_name(it->verdict, 1)));
	json_object_set_new(o, "reason", jstr(it->reason));
	return o;
}

int print_json_compare(FILE *out, const struct pstat_compare *c)
{
	json_t *doc, *side, *items, *summary;

	json_init();
	doc = json_object();
	json_object_set_new(doc, "schema", json_string(JSON_SCHEMA_COMPARE));
	json_object_set_new(doc, "pstat_version", json_string(PSTAT_VERSION));
	side = json_object();
	json_object_set_new(side, "label", jstr(c->base_label));
	json_object_set_new(side, "runs", json_integer(c->base_runs));
	json_object_set_new(doc, "base", side);
	side = json_object();
	json_object_set_new(side, "label", jstr(c->new_label));
	json_object_set_new(side, "runs", json_integer(c->new_runs));
	json_object_set_new(doc, "new", side);
	json_object_set_new(doc, "alpha", jreal(c->alpha));
	items = json_array();
	for (size_t i = 0; i < c->nitems; i++)
		json_array_append_new(items,
				      json_compare_item(&c->items[i], c->alpha));
	json_object_set_new(doc, "entries", items);
	summary = json_object();
	for (int v = VERDICT_REGRESSED; v <= VERDICT_INVALID; v++)
		json_object_set_new(summary, compare_verdict_name(v, 1),
				    json_integer((json_int_t)c->count[v]));
	json_object_set_new(doc, "summary", summary);
	json_object_set_new(doc, "exit_status", json_integer(c->status));
	return json_write(out, doc, JSON_PRETTY);
}
