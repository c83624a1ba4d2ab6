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

/* One compact line, for JSON Lines; JSON_PRETTY's precision. */
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

/* Every document's first keys in one place, so their order cannot drift. */
json_t *json_doc_new(const char *schema, const char *type, json_t *interval,
		     bool version)
{
	json_t *doc;

	json_init();
	doc = json_object();
	json_object_set_new(doc, "schema", json_string(schema));
	if (type)
		json_object_set_new(doc, "type", json_string(type));
	if (interval)
		json_object_set_new(doc, "interval", interval);
	if (version)
		json_object_set_new(doc, "pstat_version",
				    json_string(PSTAT_VERSION));
	return doc;
}

/*
 * Write doc and a newline, then flush, so that a full disk or a closed
 * pipe shows up here. Steals doc. Returns 0 or -errno.
 */
int json_write(FILE *out, json_t *doc, size_t flags)
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

/*
 * mean, stddev, stderr, min, median, max into o; all null without s (a
 * counter that has no value).
 */
static void json_set_summary(json_t *o, const struct pstat_summary *s)
{
	json_object_set_new(o, "mean", s ? jreal(s->mean) : json_null());
	json_object_set_new(o, "stddev", s ? jreal(s->stddev) : json_null());
	json_object_set_new(o, "stderr",
			    s ? jreal(s->stderr_mean) : json_null());
	json_object_set_new(o, "min", s ? jreal(s->min) : json_null());
	json_object_set_new(o, "median", s ? jreal(s->median) : json_null());
	json_object_set_new(o, "max", s ? jreal(s->max) : json_null());
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
	if (r->interval_run)
		json_object_set_new(o, "run", json_integer(r->interval_run));
	return o;
}

/*
 * The unit of a --per-socket (...) row: perf's name as "id", each of
 * its levels as a number of its own, and how many CPUs it counted on.
 */
static json_t *json_aggr(const struct pstat_row *row)
{
	const struct pstat_aggr_id *id = row->aggr;
	json_t *a = json_object();
	char name[64];

	json_object_set_new(a, "mode", jstr(topo_aggr_key(id->mode)));
	json_object_set_new(a, "id", jstr(topo_aggr_name(id->mode, id, name,
							  sizeof(name))));
	if (id->socket >= 0 || id->mode == AGGR_SOCKET)
		json_object_set_new(a, "socket", json_integer(id->socket));
	if (id->mode != AGGR_SOCKET && id->mode != AGGR_NODE)
		json_object_set_new(a, "die", json_integer(id->die));
	if (id->mode == AGGR_CLUSTER || id->mode == AGGR_CORE)
		json_object_set_new(a, "cluster", json_integer(id->cluster));
	if (id->mode == AGGR_CACHE) {
		json_object_set_new(a, "cache_level",
				    json_integer(id->cache_level));
		json_object_set_new(a, "cache", id->cache >= 0 ?
					json_integer(id->cache) : json_null());
	}
	if (id->mode == AGGR_CORE)
		json_object_set_new(a, "core", json_integer(id->core));
	if (id->mode == AGGR_NODE)
		json_object_set_new(a, "node", json_integer(id->node));
	json_object_set_new(a, "cpus", json_integer(row->aggr_nr));
	return a;
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
	if (row->group_name)
		json_object_set_new(c, "group_name", jstr(row->group_name));
	if (row->cpu >= 0)
		json_object_set_new(c, "cpu", json_integer(row->cpu));
	if (row->aggr)
		json_object_set_new(c, "aggr", json_aggr(row));
	if (row->thread)
		json_object_set_new(c, "thread", jstr(row->thread));
	if (row->cgroup)
		json_object_set_new(c, "cgroup", jstr(row->cgroup));
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
	/*
	 * A run that did not count the counter has a null sample, never the
	 * zero that stands in for "no count", and the statistics are those
	 * of the runs that counted it: null when none did, so that .mean is
	 * never 0 for what was not measured.
	 */
	if (row->stats) {
		json_t *samples = json_array();

		/* NAN: a run that did not count it (jreal: null) */
		for (size_t i = 0; row->samples && i < row->nsamples; i++)
			json_array_append_new(samples,
					      jreal(row->samples[i]));
		json_object_set_new(c, "samples", samples);
		json_set_summary(c, row->stats->n ? row->stats : NULL);
	}
	return c;
}

/*
 * A metric of the metric engine. Its value is null when it has none
 * (a division by zero, an input not counted), with why saying so.
 */
static json_t *json_metric_value(const struct pstat_metric_value *m)
{
	json_t *o = json_object(), *in = json_array();

	json_object_set_new(o, "name", jstr(m->name));
	if (m->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(m->cpu));
	if (m->thread)
		json_object_set_new(o, "thread", jstr(m->thread));
	json_object_set_new(o, "value", jreal(m->value));
	json_object_set_new(o, "unit", jstr(m->unit));
	json_object_set_new(o, "expr", jstr(m->expr));
	json_object_set_new(o, "group", jstr(m->group));
	for (size_t i = 0; i < m->ninputs; i++)
		json_array_append_new(in, jstr(m->inputs[i]));
	json_object_set_new(o, "inputs", in);
	json_object_set_new(o, "threshold_crossed",
			    m->threshold < 0 ? json_null() :
					       json_boolean(m->threshold));
	json_object_set_new(o, "multiplexed", json_boolean(m->multiplexed));
	json_object_set_new(o, "higher_is_better",
			    m->higher_is_better < 0 ?
				    json_null() :
				    json_boolean(m->higher_is_better));
	json_object_set_new(o, "why", isfinite(m->value) ? json_null() :
							   jstr(m->why));
	if (m->stats) {
		json_t *samples = json_array();

		for (size_t i = 0; m->samples && i < m->nsamples; i++)
			json_array_append_new(samples, jreal(m->samples[i]));
		json_object_set_new(o, "samples", samples);
		json_set_summary(o, m->stats->n ? m->stats : NULL);
	}
	return o;
}

/* The whole run document; type is "summary" or "interval". */
static json_t *json_report(const struct pstat_report *r, bool interval,
			   bool metric_only)
{
	json_t *doc, *counters;

	doc = json_doc_new(JSON_SCHEMA_RUN, interval ? "interval" : "summary",
			   interval ? json_interval(r) : NULL, true);
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
	counters = json_array();
	for (size_t i = 0; i < r->nrows && !metric_only; i++)
		json_array_append_new(counters, json_counter(&r->rows[i]));
	json_object_set_new(doc, "counters", counters);
	if (r->nmetrics || metric_only) {
		json_t *metrics = json_array();

		for (size_t i = 0; i < r->nmetrics; i++)
			json_array_append_new(metrics,
					      json_metric_value(&r->metrics[i]));
		json_object_set_new(doc, "metrics", metrics);
	}
	return doc;
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
	p->err = json_write(p->out, json_report(r, false, p->cfg.metric_only),
			    pj->intervals ? JSON_LINE : JSON_PRETTY);
}

static void json_interval_doc(struct pstat_printer *p,
			      const struct pstat_report *r)
{
	struct print_json *pj = json_priv(p);

	json_init();
	p->err = json_write(p->out, json_report(r, true, p->cfg.metric_only), JSON_LINE);
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
