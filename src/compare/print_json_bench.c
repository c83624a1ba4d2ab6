/* SPDX-License-Identifier: MIT */
/*
 * The pstat-bench/1 document (schema/pstat-bench.schema.json): every
 * sample of every run, the statistics, the verdicts, and each command's
 * own pstat/1 summary ("run"), which `pstat compare` reads as it reads
 * a file written by pstat -j.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare/bench_results.h"
#include "report/print_json_priv.h"

#define JSON_SCHEMA_BENCH "pstat-bench/1"

static json_t *jsamples(const double *x, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, jreal(x[i]));
	return a;
}

static json_t *jstarted(const struct timespec *ts)
{
	struct tm tm;
	char buf[64];
	time_t t = ts->tv_sec;

	if (!gmtime_r(&t, &tm))
		return json_null();
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".%06ldZ",
		 ts->tv_nsec / 1000);
	return json_string(buf);
}

static json_t *json_row(const struct pstat_bench_row *r, size_t runs)
{
	json_t *o = json_object();
	int any = r->sum.n > 0;

	json_object_set_new(o, "name", jstr(r->name));
	json_object_set_new(o, "unit", jstr(r->unit));
	json_object_set_new(o, "status", jstr(print_status_name(r->status)));
	json_object_set_new(o, "shown", json_boolean(!r->hidden));
	json_object_set_new(o, "samples", jsamples(r->samples, runs));
	json_object_set_new(o, "running_pct",
			    r->running_pct ? jsamples(r->running_pct, runs) :
					     json_null());
	json_object_set_new(o, "n", json_integer((json_int_t)r->sum.n));
	json_object_set_new(o, "mean", any ? jreal(r->sum.mean) : json_null());
	/* one run has no spread */
	json_object_set_new(o, "stddev", r->sum.n > 1 ? jreal(r->sum.stddev) :
							json_null());
	json_object_set_new(o, "min", any ? jreal(r->sum.min) : json_null());
	json_object_set_new(o, "median",
			    any ? jreal(r->sum.median) : json_null());
	json_object_set_new(o, "max", any ? jreal(r->sum.max) : json_null());
	return o;
}

static json_t *json_cmd(const struct pstat_bench_cmd *c)
{
	json_t *o = json_object(), *a;

	json_object_set_new(o, "name", jstr(c->name));
	json_object_set_new(o, "command", jstr(c->command));
	a = json_array();
	for (size_t i = 0; c->argv && c->argv[i]; i++)
		json_array_append_new(a, jstr(c->argv[i]));
	json_object_set_new(o, "argv", a);
	json_object_set_new(o, "via_shell", json_boolean(c->via_shell));
	json_object_set_new(o, "runs", json_integer((json_int_t)c->runs));
	a = json_array();
	for (size_t k = 0; k < c->runs; k++)
		json_array_append_new(a, json_integer(c->status[k]));
	json_object_set_new(o, "exit", a);
	{
		char st[128];

		json_object_set_new(o, "failed_runs",
				    json_integer((json_int_t)bench_failed_runs(
					    c, st, sizeof(st))));
	}
	json_object_set_new(o, "leftovers",
			    json_integer((json_int_t)c->leftovers));
	a = json_array();
	for (size_t k = 0; k < c->runs; k++)
		json_array_append_new(a, json_integer((json_int_t)c->seq[k]));
	json_object_set_new(o, "sequence", a);
	json_object_set_new(o, "start_ms", jsamples(c->start_ms, c->runs));
	a = json_array();
	for (size_t i = 0; i < c->nrows; i++)
		json_array_append_new(a, json_row(&c->rows[i], c->runs));
	json_object_set_new(o, "measures", a);
	a = json_array();
	for (size_t k = 0; k < c->noutliers; k++) {
		json_t *x = json_object();

		json_object_set_new(x, "run",
				    json_integer((json_int_t)c->outliers[k].run));
		json_object_set_new(x, "z", jreal(c->outliers[k].z));
		json_object_set_new(x, "reason",
				    c->outliers[k].reason[0] ?
					    jstr(c->outliers[k].reason) :
					    json_null());
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "outliers", a);
	/* its own run document, as pstat -j writes it */
	json_object_set_new(o, "run", c->doc ? json_loads(c->doc, 0, NULL) :
					       json_null());
	if (!json_object_get(o, "run"))
		json_object_set_new(o, "run", json_null());
	return o;
}

/* The shell's start-up and what it was taken out of, or null. */
static json_t *json_probe(const struct pstat_bench *b)
{
	const struct pstat_bench_cmd *p = b->shell_probe;
	json_t *o, *a;

	if (!p)
		return json_null();
	o = json_object();
	a = json_array();
	for (size_t i = 0; p->argv && p->argv[i]; i++)
		json_array_append_new(a, jstr(p->argv[i]));
	json_object_set_new(o, "argv", a);
	json_object_set_new(o, "runs", json_integer((json_int_t)p->runs));
	a = json_array();
	for (size_t i = 0; i < p->nrows; i++)
		json_array_append_new(a, json_row(&p->rows[i], p->runs));
	json_object_set_new(o, "measures", a);
	a = json_array();
	for (size_t i = 0; i < p->nrows; i++)
		if (bench_row_less_shell(&p->rows[i], i) && !p->rows[i].hidden)
			json_array_append_new(a, jstr(p->rows[i].name));
	json_object_set_new(o, "subtracted_from", a);
	return o;
}

static json_t *json_diff(const struct pstat_bench *b, size_t c, size_t r)
{
	const struct pstat_bench_diff *d = bench_diff(b, c, r);
	json_t *o = json_object(), *a;

	json_object_set_new(o, "measure", jstr(b->cmds[c].rows[r].name));
	json_object_set_new(o, "ratio", jreal(d->ratio));
	a = json_array();
	json_array_append_new(a, jreal(d->ratio_lo));
	json_array_append_new(a, jreal(d->ratio_hi));
	json_object_set_new(o, "ratio_interval", a);
	json_object_set_new(o, "delta", jreal(d->delta));
	a = json_array();
	json_array_append_new(a, jreal(d->ci_lo));
	json_array_append_new(a, jreal(d->ci_hi));
	json_object_set_new(o, "delta_interval", a);
	json_object_set_new(o, "p", d->tested ? jreal(d->p) : json_null());
	json_object_set_new(o, "significant",
			    json_boolean(d->verdict == BENCH_SLOWER ||
					 d->verdict == BENCH_FASTER));
	json_object_set_new(o, "verdict",
			    json_string(bench_verdict_name(d->verdict, 1)));
	return o;
}

int print_json_bench(FILE *out, const struct pstat_bench *b)
{
	json_t *doc = json_doc_new(JSON_SCHEMA_BENCH, NULL, NULL, true);
	json_t *a;

	json_object_set_new(doc, "started_at", jstarted(&b->started_at));
	json_object_set_new(doc, "order", json_string(b->shuffle ? "shuffle" :
								   "interleave"));
	json_object_set_new(doc, "seed", b->shuffle ? ju64(b->seed) :
						      json_null());
	json_object_set_new(doc, "warmup", json_integer(b->warmup));
	json_object_set_new(doc, "rounds", json_integer((json_int_t)b->rounds));
	json_object_set_new(doc, "shell", jstr(b->shell));
	json_object_set_new(doc, "shell_startup", json_probe(b));
	json_object_set_new(doc, "alpha", jreal(b->alpha));
	if (b->ncmds && b->cmds[0].per > 0) {
		json_t *p = json_object(), *v = json_array();

		for (size_t c = 0; c < b->ncmds; c++)
			json_array_append_new(v, jreal(b->cmds[c].per));
		json_object_set_new(p, "values", v);
		json_object_set_new(p, "unit", jstr(b->per_unit));
		json_object_set_new(doc, "per", p);
	} else {
		json_object_set_new(doc, "per", json_null());
	}
	a = json_array();
	for (size_t c = 0; c < b->ncmds; c++)
		json_array_append_new(a, json_cmd(&b->cmds[c]));
	json_object_set_new(doc, "commands", a);
	a = json_array();
	for (size_t c = 1; c < b->ncmds; c++) {
		json_t *cmp = json_object(), *rows = json_array();

		json_object_set_new(cmp, "command", json_integer((json_int_t)c));
		json_object_set_new(cmp, "baseline", json_integer(0));
		for (size_t r = 0; r < b->cmds[c].nrows &&
				   b->cmds[c].nrows == b->cmds[0].nrows;
		     r++)
			json_array_append_new(rows, json_diff(b, c, r));
		json_object_set_new(cmp, "measures", rows);
		json_array_append_new(a, cmp);
	}
	json_object_set_new(doc, "comparisons", a);
	json_object_set_new(doc, "interrupted",
			    b->interrupted ? json_integer(b->interrupted) :
					     json_null());
	json_object_set_new(doc, "regression",
			    b->regression_checked ?
				    json_integer(b->regression_status) :
				    json_null());
	json_object_set_new(doc, "exit_status", json_integer(b->exit_status));
	return json_write(out, doc, JSON_PRETTY);
}
