/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench --export-json`: hyperfine's own JSON document, so that
 * its plotting scripts and the tools built on its output read pstat's:
 * {"results": [{"command", "mean", "stddev", "median", "user",
 * "system", "min", "max", "times", "exit_codes", "parameters"}]}, times
 * in seconds (wall times less the shell's start when it was measured,
 * as hyperfine's), "stddev" null after one run, "parameters" only for
 * commands made by -L or -P, as hyperfine writes them.
 */
#include <math.h>
#include <stdio.h>

#include "compare/bench_results.h"
#include "report/print_json_priv.h"

/* A time in ms as hyperfine's seconds; 0 for none (no run counted). */
static json_t *jsec(double ms)
{
	return json_real(isfinite(ms) ? ms / 1000 : 0);
}

static json_t *hyperfine_result(const struct pstat_bench_cmd *c)
{
	json_t *o = json_object(), *a;
	const struct pstat_bench_row *w = c->nrows ? &c->rows[BENCH_ROW_WALL] :
						     NULL;
	int any = w && w->sum.n;

	json_object_set_new(o, "command", jstr(c->name));
	json_object_set_new(o, "mean", jsec(any ? w->sum.mean : 0));
	json_object_set_new(o, "stddev", any && w->sum.n > 1 ?
						 jsec(w->sum.stddev) :
						 json_null());
	json_object_set_new(o, "median", jsec(any ? w->sum.median : 0));
	json_object_set_new(o, "user",
			    jsec(any ? c->rows[BENCH_ROW_USER].sum.mean : 0));
	json_object_set_new(o, "system",
			    jsec(any ? c->rows[BENCH_ROW_SYS].sum.mean : 0));
	json_object_set_new(o, "min", jsec(any ? w->sum.min : 0));
	json_object_set_new(o, "max", jsec(any ? w->sum.max : 0));
	a = json_array();
	for (size_t k = 0; w && k < c->runs; k++)
		json_array_append_new(a, jsec(w->samples[k]));
	json_object_set_new(o, "times", a);
	a = json_array();
	for (size_t k = 0; k < c->runs; k++)
		json_array_append_new(a, json_integer(c->status[k]));
	json_object_set_new(o, "exit_codes", a);
	if (c->nparams) {
		json_t *p = json_object();

		for (size_t i = 0; i < c->nparams; i++)
			json_object_set_new(p, c->param_names[i],
					    jstr(c->param_values[i]));
		json_object_set_new(o, "parameters", p);
	}
	return o;
}

int print_json_hyperfine(FILE *out, const struct pstat_bench *b)
{
	json_t *doc = json_object(), *a = json_array();

	for (size_t c = 0; c < b->ncmds; c++)
		json_array_append_new(a, hyperfine_result(&b->cmds[c]));
	json_object_set_new(doc, "results", a);
	return json_write(out, doc, JSON_PRETTY);
}
