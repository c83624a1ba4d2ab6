/* SPDX-License-Identifier: MIT */
/*
 * pstat compare's JSON: reading pstat/1 run documents back (for pstat
 * compare and --baseline) and writing the pstat-compare/1 document
 * (schema/pstat-compare.schema.json). The records are compare.h's, the
 * logic compare.c's; the jansson helpers are report/print_json_priv.h's.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "compare/compare.h"
#include "compare/print_compare.h"
#include "report/print_json_priv.h"

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

/*
 * Where counters[i] or metrics[i] (arr) counted: its cpu, its aggr
 * unit's id and its thread. Returns 0 or -1 with err set.
 */
static int json_read_where(json_t *o, const char *arr, size_t i, int *cpu,
			   char **aggr, char **thread, struct pstat_error *err)
{
	json_t *v = json_object_get(o, "cpu");

	if (v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > INT32_MAX)
			return error_set(err, -1,
					 "%s[%zu].cpu is not a CPU number", arr,
					 i);
		*cpu = (int)json_integer_value(v);
	}
	v = json_object_get(o, "aggr");
	if (v && !(*aggr = json_read_str(json_object_get(v, "id"))))
		return error_set(err, -1, "%s[%zu].aggr has no string id", arr,
				 i);
	v = json_object_get(o, "thread");
	if (v && !(*thread = json_read_str(v)))
		return error_set(err, -1, "%s[%zu].thread is not a string", arr,
				 i);
	return 0;
}

/*
 * What counters[i] and metrics[i] (arr) share: the value, the unit, and
 * where it counted (cpu, aggr, thread). Returns 0 or -1 with err set;
 * what was read is the caller's to free either way.
 */
static int json_read_place(json_t *o, const char *arr, size_t i,
			   double *value, char **unit, int *cpu, char **aggr,
			   char **thread, struct pstat_error *err)
{
	json_t *v = json_object_get(o, "value");

	if (!v || json_read_number(v, value))
		return error_set(err, -1,
				 "%s[%zu].value is not a number or null", arr,
				 i);
	v = json_object_get(o, "unit");
	*unit = v ? json_read_str(v) : xstrdup("");
	if (!*unit)
		return error_set(err, -1, "%s[%zu].unit is not a string", arr,
				 i);
	return json_read_where(o, arr, i, cpu, aggr, thread, err);
}

/* arr[i].samples, when there: -r's values (null: not counted). */
static int json_read_samples(json_t *o, const char *arr, size_t i,
			     double **samples, size_t *nsamples,
			     struct pstat_error *err)
{
	json_t *v = json_object_get(o, "samples");
	size_t n = json_array_size(v);

	if (!v)
		return 0;
	if (!json_is_array(v))
		return error_set(err, -1, "%s[%zu].samples is not an array", arr,
				 i);
	*samples = xcalloc(n + 1, sizeof(**samples));
	*nsamples = n;
	for (size_t k = 0; k < n; k++)
		if (json_read_number(json_array_get(v, k), &(*samples)[k]))
			return error_set(err, -1,
					 "%s[%zu].samples[%zu] is not a number or null",
					 arr, i, k);
	return 0;
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
	if (json_read_place(o, "counters", i, &c->value, &c->unit, &c->cpu,
			    &c->aggr, &c->thread, err))
		return -1;
	v = json_object_get(o, "cgroup");
	if (v && !(c->cgroup = json_read_str(v)))
		return error_set(err, -1,
				 "counters[%zu].cgroup is not a string", i);
	if (json_read_samples(o, "counters", i, &c->samples, &c->nsamples,
			      err))
		return -1;
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

/*
 * One object of a run document's "metrics" array (the metric engine's)
 * into m. Returns 0, or -1 with err set.
 */
static int json_read_metric(json_t *o, size_t i,
			    struct pstat_compare_metric *m,
			    struct pstat_error *err)
{
	json_t *v;

	if (!json_is_object(o) ||
	    !(m->name = json_read_str(json_object_get(o, "name"))))
		return error_set(err, -1, "metrics[%zu] has no name", i);
	if (json_read_place(o, "metrics", i, &m->value, &m->unit, &m->cpu,
			    &m->aggr, &m->thread, err))
		return -1;
	v = json_object_get(o, "cgroup");
	if (v && !(m->cgroup = json_read_str(v)))
		return error_set(err, -1, "metrics[%zu].cgroup is not a string",
				 i);
	v = json_object_get(o, "higher_is_better");
	if (json_is_boolean(v))
		m->higher_is_better = json_is_true(v);
	m->multiplexed = json_is_true(json_object_get(o, "multiplexed"));
	if (json_read_samples(o, "metrics", i, &m->samples, &m->nsamples,
			      err))
		return -1;
	return 0;
}

/*
 * The "exit" object of run document doc into run: how its command ended
 * (a hand-made document may leave it out: nothing known then), and
 * whether it ran a command. Returns 0, or -1 with err set.
 */
static int json_read_exit(json_t *doc, struct pstat_compare_run *run,
			  struct pstat_error *err)
{
	json_t *e = json_object_get(doc, "exit"), *v;

	v = json_object_get(doc, "command");
	run->has_command = !v || json_is_array(v);
	if (!e)
		return 0;
	v = json_object_get(e, "status");
	if (!json_is_object(e) || !json_is_integer(v) ||
	    json_integer_value(v) < 0 || json_integer_value(v) > 255)
		return error_set(err, -1, "\"exit\" has no \"status\" of 0 to 255");
	run->exit_status = (int)json_integer_value(v);
	v = json_object_get(e, "signal");
	if (json_is_string(v))
		run->exit_signal = xstrdup(json_string_value(v));
	else if (v && !json_is_null(v))
		return error_set(err, -1,
				 "\"exit\".signal is not a string or null");
	v = json_object_get(e, "runs");
	if (v && !json_is_array(v))
		return error_set(err, -1, "\"exit\".runs is not an array");
	for (size_t i = 0; i < json_array_size(v); i++) {
		json_t *st = json_array_get(v, i);

		if (!json_is_integer(st) || json_integer_value(st) < 0 ||
		    json_integer_value(st) > 255)
			return error_set(err, -1,
					 "\"exit\".runs[%zu] is not a status",
					 i);
		if (json_integer_value(st) && !run->exit_failed_run) {
			run->exit_failed_run = i + 1;
			run->exit_failed_status = (int)json_integer_value(st);
		}
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
	v = json_object_get(doc, "metrics");
	if (v && !json_is_array(v)) {
		error_set(err, -1, "\"metrics\" is not an array");
		goto out;
	}
	for (size_t i = 0; i < json_array_size(v); i++)
		if (json_read_metric(json_array_get(v, i), i,
				     compare_run_add_metric(run), err))
			goto out;
	ret = json_read_exit(doc, run, err);
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

	doc = json_doc_new(JSON_SCHEMA_COMPARE, NULL, NULL, true);
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