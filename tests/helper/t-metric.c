/* SPDX-License-Identifier: MIT */
/*
 * pstat-test metric-expr LINE
 *   LINE is "EXPR" or "EXPR ;; NAME=VALUE... [#CONST=VALUE...]". Prints
 *   the value (%.10g) or "none: WHY", then "names: ..." in order; a
 *   parse error prints "error: MSG", the expression and a caret under
 *   the offending column. A name without a value has none ("no count").
 *
 * pstat-test metric-def LINE
 *   Parses a definition and prints its fields, or the error as above.
 *
 * pstat-test metric-eval LINE
 *   LINE is "TREE|- -M LIST [--metric DEF]... [--per-pmu P,Q...]
 *   [duration=S] [EVENT=VALUE]...": loads the library for the fixture
 *   tree (a directory holding bus/; - for none), selects LIST (or
 *   nothing when LIST is -), resolves, and evaluates with each input
 *   given (missing ones have no value; a value ending in '!' was
 *   multiplexed). --per-pmu: an input EVENT given a value as P/EVENT/
 *   (P the first PMU named) counts once per PMU named, as P/EVENT/,
 *   Q/EVENT/... (metric_set_split_pmus).
 *   Prints "inputs: ..." then one line per shown metric:
 *   "NAME VALUE UNIT" (%.6f) or "NAME none: WHY", with " [crossed]"
 *   when its threshold is and " [multiplexed]" when an input was. On an
 *   error, "error: MSG".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric.h"
#include "events/metric_lib.h"
#include "events/pmu.h"
#include "test-tool.h"

static void print_caret(const char *text, const struct pstat_error *err)
{
	printf("error: %s\n", err->msg);
	if (err->offset < 0)
		return;
	printf("%s\n%*s^\n", text, (int)err->offset, "");
}

struct vals {
	char *names[32];
	double v[32];
	size_t n;
	double konst[MEXPR_NCONST];
	const struct pstat_mexpr *e;
};

static double t_name(void *ctx, size_t i, const char **why)
{
	struct vals *vs = ctx;
	const char *name = mexpr_name(vs->e, i);

	for (size_t k = 0; k < vs->n; k++)
		if (!strcmp(vs->names[k], name))
			return vs->v[k];
	*why = "no count";
	return NAN;
}

static double t_const(void *ctx, enum mexpr_const c)
{
	struct vals *vs = ctx;

	return vs->konst[c];
}

static void parse_vals(char *s, struct vals *vs)
{
	char *save = NULL;

	for (size_t i = 0; i < MEXPR_NCONST; i++)
		vs->konst[i] = NAN;
	for (char *w = strtok_r(s, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		char *eq = strrchr(w, '=');

		if (!eq)
			continue;
		*eq = '\0';
		if (*w == '#') {
			for (size_t c = 0; c < MEXPR_NCONST; c++)
				if (!strcmp(w + 1, mexpr_const_name(c)))
					vs->konst[c] = strtod(eq + 1, NULL);
		} else if (vs->n < 32) {
			vs->names[vs->n] = w;
			vs->v[vs->n++] = strtod(eq + 1, NULL);
		}
	}
}

static int metric_expr(char *line)
{
	char *sep = strstr(line, " ;; ");
	struct vals vs = { 0 };
	struct pstat_mexpr *e;
	struct pstat_error err = { "", -1 };
	struct mexpr_env env = { t_name, t_const, &vs };
	const char *why;
	double v;

	if (sep) {
		*sep = '\0';
		parse_vals(sep + 4, &vs);
	} else {
		parse_vals((char[]){ "" }, &vs);
	}
	if (mexpr_parse(line, &e, &err)) {
		print_caret(line, &err);
		return 1;
	}
	vs.e = e;
	v = mexpr_eval(e, &env, &why);
	if (isnan(v))
		printf("none: %s\n", why);
	else
		printf("%.10g\n", v);
	printf("names:");
	for (size_t i = 0; i < mexpr_nnames(e); i++)
		printf(" %s", mexpr_name(e, i));
	printf("\n");
	mexpr_free(e);
	return 0;
}

static int metric_def(char *line)
{
	struct pstat_metric_def d = { 0 };
	struct pstat_error err = { "", -1 };

	if (metric_def_parse(line, &d, &err)) {
		print_caret(line, &err);
		metric_def_free(&d);
		return 1;
	}
	printf("name %s\nexpr %s\nunit %s\nscale %g\nhigher %d\n", d.name,
	       d.text, *d.unit ? d.unit : "-", d.scale, d.higher);
	if (d.threshold_text)
		printf("threshold %s\n", d.threshold_text);
	if (d.desc)
		printf("desc %s\n", d.desc);
	metric_def_free(&d);
	return 0;
}

/* Split "a b 'c d'": single quotes group words. */
static size_t split_words(char *s, char **w, size_t max)
{
	size_t n = 0;

	while (*s && n < max) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		if (*s == '\'') {
			w[n++] = ++s;
			s += strcspn(s, "'");
		} else {
			w[n++] = s;
			s += strcspn(s, " ");
		}
		if (*s)
			*s++ = '\0';
	}
	return n;
}

static void print_results(const struct pstat_metric_set *set,
			  const struct pstat_metric_result *res)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct pstat_metric_entry *m = &set->m[i];

		if (!m->shown)
			continue;
		if (isnan(res[i].value))
			printf("%s none: %s", m->def.name, res[i].why);
		else
			printf("%s %.6f %s", m->def.name, res[i].value,
			       m->def.unit);
		printf("%s%s\n", res[i].threshold == 1 ? " [crossed]" : "",
		       res[i].multiplexed ? " [multiplexed]" : "");
	}
}

/* Whether one of w[n] gives a value to pmu/input/. */
static int has_value(char **w, size_t n, const char *pmu, const char *input)
{
	char *key = xasprintf("%s/%s/=", pmu, input);
	int r = 0;

	for (size_t i = 0; i < n && !r; i++)
		r = !strncmp(w[i], key, strlen(key));
	free(key);
	return r;
}

/* --per-pmu LIST: split set's inputs over the PMUs of LIST. */
static int per_pmu(struct pstat_metric_set *set, char *list, char **w,
		   size_t n, struct pstat_error *err)
{
	int r = 0;
	const char *pmus[8];
	size_t np = 0, ni = set->ninputs;
	char *save = NULL, **spec;

	for (char *p = strtok_r(list, ",", &save); p && np < 8;
	     p = strtok_r(NULL, ",", &save))
		pmus[np++] = p;
	spec = xcalloc(ni * np + 1, sizeof(*spec));
	for (size_t i = 0; i < ni; i++)
		for (size_t p = 0;
		     np && p < np && has_value(w, n, pmus[0], set->inputs[i]);
		     p++)
			spec[i * np + p] =
				xasprintf("%s/%s/", pmus[p], set->inputs[i]);
	if (metric_set_split_pmus(set, pmus, np, spec, err) < 0)
		r = -1;
	for (size_t i = 0; i < ni * np; i++)
		free(spec[i]);
	free(spec);
	return r;
}

static int metric_eval(char *line)
{
	char *w[64];
	size_t n = split_words(line, w, 64);
	struct pstat_pmus *pmus = NULL;
	struct pstat_metric_lib lib;
	struct pstat_metric_set set = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_metric_result *res;
	struct pstat_metric_inputs in = { 0 };
	double *val, dur = NAN;
	const char *tree;
	int *mux;
	int r = 1;

	if (n < 3 || strcmp(w[1], "-M")) {
		printf("error: usage\n");
		return 2;
	}
	tree = strcmp(w[0], "-") ? w[0] : "/nonexistent";
	pmus = pmus_new(tree);
	metric_lib_load(&lib, pmus, tree);
	if (strcmp(w[2], "-") && metric_lib_select(&lib, &set, w[2], &err))
		goto out;
	for (size_t i = 3; i + 1 < n; i++)
		if (!strcmp(w[i], "--metric") &&
		    metric_set_add_line(&set, w[++i], &err))
			goto out;
	if (metric_set_resolve(&set, &lib, &err))
		goto out;
	for (size_t i = 3; i + 1 < n; i++)
		if (!strcmp(w[i], "--per-pmu") &&
		    per_pmu(&set, w[i + 1], w, n, &err))
			goto out;
	metric_lib_group_inputs(&lib, &set);
	val = xcalloc(set.ninputs + 1, sizeof(*val));
	mux = xcalloc(set.ninputs + 1, sizeof(*mux));
	for (size_t k = 0; k < set.ninputs; k++)
		val[k] = NAN;
	for (size_t i = 3; i < n; i++) {
		char *eq = strrchr(w[i], '=');

		if (!strcmp(w[i], "--metric") || !strcmp(w[i], "--per-pmu")) {
			i++;
			continue;
		}
		if (!eq)
			continue;
		*eq = '\0';
		if (!strcmp(w[i], "duration"))
			dur = strtod(eq + 1, NULL);
		for (size_t k = 0; k < set.ninputs; k++) {
			char *end;

			if (strcmp(set.inputs[k], w[i]))
				continue;
			val[k] = strtod(eq + 1, &end);
			mux[k] = *end == '!';
		}
	}
	printf("inputs:");
	for (size_t k = 0; k < set.ninputs; k++)
		printf(" %s", set.inputs[k]);
	printf("\n");
	for (size_t g = 0; g < set.ngroups; g++) {
		printf("group:");
		for (size_t k = 0; k < set.groups[g].n; k++)
			printf(" %s", set.inputs[set.groups[g].inputs[k]]);
		printf("\n");
	}
	res = xcalloc(set.n + 1, sizeof(*res));
	in.value = val;
	in.multiplexed = mux;
	in.duration_s = dur;
	in.consts = &lib.consts;
	metric_set_eval(&set, &in, res);
	print_results(&set, res);
	free(res);
	free(val);
	free(mux);
	r = 0;
out:
	if (r)
		printf("error: %s\n", err.msg);
	metric_set_free(&set);
	metric_lib_free(&lib);
	pmus_free(pmus);
	return r;
}

int t_metric_expr(int argc, char **argv)
{
	return argc < 2 ? 2 : metric_expr(argv[1]);
}

int t_metric_def(int argc, char **argv)
{
	return argc < 2 ? 2 : metric_def(argv[1]);
}

int t_metric_eval(int argc, char **argv)
{
	return argc < 2 ? 2 : metric_eval(argv[1]);
}
