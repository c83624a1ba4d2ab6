/* SPDX-License-Identifier: MIT */
/*
 * Metric definitions ("NAME = EXPR; key = value"), the set a run
 * evaluates: which names are events and which are metrics, and the
 * evaluation of all of them over one set of input values.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/secure.h"
#include "base/util.h"
#include "events/metric.h"
#include "events/metric_lib.h"

void metric_def_free(struct pstat_metric_def *d)
{
	if (!d)
		return;
	free(d->name);
	free(d->text);
	free(d->unit);
	free(d->desc);
	free(d->source);
	free(d->group);
	free(d->threshold_text);
	mexpr_free(d->expr);
	mexpr_free(d->threshold);
	memset(d, 0, sizeof(*d));
}

/* [s, e) trimmed, as a new string. */
static char *trimmed(const char *s, const char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

static int valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return 0;
	return 1;
}

/* Parse an expression that starts at line + at, offsets into line. */
static int parse_at(const char *line, const char *text, long at,
		    struct pstat_mexpr **out, struct pstat_error *err)
{
	if (mexpr_parse(text, out, err)) {
		if (err->offset >= 0)
			err->offset += at;
		return -1;
	}
	return 0;
	(void)line;
}

/* One "key = value" of a definition; [s, e) in line. */
static int def_option(struct pstat_metric_def *d, const char *line,
		      const char *s, const char *e, struct pstat_error *err)
{
	const char *eq = memchr(s, '=', (size_t)(e - s));
	char *key, *val;
	long voff;
	int r = 0;

	if (!eq)
		return error_set(err, (long)(s - line),
				 "expected KEY = VALUE after ';'");
	key = trimmed(s, eq);
	val = trimmed(eq + 1, e);
	voff = (long)(eq + 1 - line);
	while (isspace((unsigned char)line[voff]))
		voff++;
	if (!strcmp(key, "unit")) {
		free(d->unit);
		d->unit = val;
		val = NULL;
	} else if (!strcmp(key, "desc")) {
		free(d->desc);
		d->desc = val;
		val = NULL;
	} else if (!strcmp(key, "scale")) {
		char *end;

		errno = 0;
		d->scale = strtod(val, &end);
		if (!*val || *end || errno || !isfinite(d->scale) ||
		    d->scale == 0)
			r = error_set(err, voff,
				      "invalid scale '%s': a number other than 0",
				      val);
	} else if (!strcmp(key, "higher")) {
		if (!strcmp(val, "yes"))
			d->higher = 1;
		else if (!strcmp(val, "no"))
			d->higher = 0;
		else
			r = error_set(err, voff,
				      "invalid higher '%s': yes or no", val);
	} else if (!strcmp(key, "threshold")) {
		free(d->threshold_text);
		d->threshold_text = val;
		val = NULL;
		mexpr_free(d->threshold);
		d->threshold = NULL;
		r = parse_at(line, d->threshold_text, voff, &d->threshold,
			     err);
	} else {
		r = error_set(err, (long)(s - line) +
					   (long)strspn(s, " \t"),
			      "unknown key '%s' (known: unit, scale, higher, threshold, desc)",
			      key);
	}
	free(key);
	free(val);
	return r;
}

int metric_def_parse(const char *line, struct pstat_metric_def *d,
		     struct pstat_error *err)
{
	const char *eq = strchr(line, '='), *semi, *s;
	long at;

	d->scale = 1;
	d->higher = -1;
	d->unit = xstrdup("");
	if (!eq || eq[1] == '=')
		return error_set(err, -1, "expected NAME = EXPRESSION");
	d->name = trimmed(line, eq);
	if (!valid_name(d->name))
		return error_set(err, (long)strspn(line, " \t"),
				 "invalid metric name '%s': a letter or '_', then letters, digits, '_' or '.'",
				 d->name);
	semi = strchr(eq + 1, ';');
	d->text = trimmed(eq + 1, semi ? semi : eq + strlen(eq));
	at = (long)(eq + 1 - line);
	while (isspace((unsigned char)line[at]))
		at++;
	if (!*d->text)
		return error_set(err, at, "empty expression for '%s'",
				 d->name);
	if (parse_at(line, d->text, at, &d->expr, err))
		return -1;
	for (s = semi; s; s = semi) {
		s++;
		semi = strchr(s, ';');
		if (def_option(d, line, s, semi ? semi : s + strlen(s), err))
			return -1;
	}
	return 0;
}

/*
 * The hash indexes of a set's metric names and inputs: open addressing,
 * a slot holding index + 1 (0: empty), over strings the set holds.
 * Both lists only grow (a split makes a new set), so an index catches
 * up with the entries added since its last use (*done) when it is next
 * asked; at most half full.
 */
typedef const char *index_key(const struct pstat_metric_set *set, size_t i);

static const char *metric_key(const struct pstat_metric_set *set, size_t i)
{
	return set->m[i].def.name;
}

static const char *input_key(const struct pstat_metric_set *set, size_t i)
{
	return set->inputs[i];
}

static ssize_t index_find(struct pstat_metric_set *set, size_t **slot,
			  size_t *cap, size_t *done, size_t n, index_key *key,
			  const char *want)
{
	size_t h;

	if (*cap < 2 * (n + 1)) {
		size_t c = 64;

		while (c < 4 * (n + 1))
			c *= 2;
		free(*slot);
		*slot = xcalloc(c, sizeof(**slot));
		*cap = c;
		*done = 0;
	}
	for (; *done < n; (*done)++) {
		h = hash_str(HASH_INIT, key(set, *done)) & (*cap - 1);
		while ((*slot)[h])
			h = (h + 1) & (*cap - 1);
		(*slot)[h] = *done + 1;
	}
	for (h = hash_str(HASH_INIT, want) & (*cap - 1); (*slot)[h];
	     h = (h + 1) & (*cap - 1))
		if (!strcmp(key(set, (*slot)[h] - 1), want))
			return (ssize_t)((*slot)[h] - 1);
	return -1;
}

ssize_t metric_set_find(struct pstat_metric_set *set, const char *name)
{
	return index_find(set, &set->name_slot, &set->name_cap,
			  &set->name_done, set->n, metric_key, name);
}

static struct pstat_metric_entry *new_entry(struct pstat_metric_set *set)
{
	struct pstat_metric_entry *m;

	xgrow((void **)&set->m, &set->alloc, set->n + 1, sizeof(*set->m));
	m = &set->m[set->n++];
	memset(m, 0, sizeof(*m));
	m->group = -1;
	return m;
}

int metric_set_add_def(struct pstat_metric_set *set,
		       struct pstat_metric_def *d, int shown,
		       struct pstat_error *err)
{
	ssize_t old = metric_set_find(set, d->name);
	struct pstat_metric_entry *m;

	if (old >= 0) {
		/* the library's own, asked for twice (-M TopdownL1 -M ...) */
		set->m[old].shown |= shown;
		metric_def_free(d);
		return 0;
	}
	(void)err;
	m = new_entry(set);
	m->def = *d;
	m->shown = shown;
	memset(d, 0, sizeof(*d));
	return 0;
}

int metric_set_add_line(struct pstat_metric_set *set, const char *line,
			struct pstat_error *err)
{
	struct pstat_metric_def d = { 0 };

	if (set->nuser >= METRIC_SET_MAX)
		return error_set(err, -1, "more than %d metrics defined",
				 METRIC_SET_MAX);
	if (metric_def_parse(line, &d, err)) {
		metric_def_free(&d);
		return -1;
	}
	if (metric_set_find(set, d.name) >= 0) {
		error_set(err, -1, "metric '%s' is defined twice", d.name);
		metric_def_free(&d);
		return -1;
	}
	set->nuser++;
	return metric_set_add_def(set, &d, 1, err);
}

/* "cannot read metrics file 'F': why", from secure_read_user's r. */
static int file_error(struct pstat_error *err, const char *path, int r)
{
	if (r == -EFBIG)
		return error_set(err, -1,
				 "metrics file '%s' is longer than %d MiB",
				 path, METRIC_FILE_MAX_BYTES >> 20);
	if (r == -ENODEV)
		return error_set(err, -1,
				 "cannot read metrics file '%s': not a regular file or a FIFO",
				 path);
	if (r == -EINTR)
		return error_set(err, -1,
				 "cannot read metrics file '%s': a signal came while its writer was slow",
				 path);
	return error_set(err, -1, "cannot read metrics file '%s': %s", path,
			 strerror(-r));
}

int metric_set_add_file(struct pstat_metric_set *set, const char *path,
			struct pstat_error *err)
{
	char *text;
	size_t len;
	int r;

	r = secure_read_user(path, SECURE_OPEN_REG | SECURE_OPEN_FIFO,
			     METRIC_FILE_MAX_BYTES, &text, &len);
	if (r)
		return file_error(err, path, r);
	r = metric_set_add_text(set, path, text, len, err);
	free(text);
	return r;
}

int metric_set_add_text(struct pstat_metric_set *set, const char *path,
			char *text, size_t len, struct pstat_error *err)
{
	char *line, *next;
	unsigned long lineno = 0;
	int r = 0;

	size_t nlines = len && text[len - 1] != '\n';

	if (len > METRIC_FILE_MAX_BYTES)
		return file_error(err, path, -EFBIG);
	/* counted first: a file past the limit is refused before parsing */
	for (const char *q = text; (q = memchr(q, '\n', len - (size_t)(q - text)));
	     q++)
		nlines++;
	if (nlines > METRIC_FILE_MAX_LINES)
		return error_set(err, -1,
				 "metrics file '%s' has more than %d lines",
				 path, METRIC_FILE_MAX_LINES);
	for (line = text; line < text + len; line = next) {
		char *nl = memchr(line, '\n', (size_t)(text + len - line));
		char *s = line;

		next = nl ? nl + 1 : text + len;
		if (nl)
			*nl = '\0';
		lineno++;
		if (strlen(line) != (size_t)(next - line) - (nl != NULL)) {
			r = error_set(err, -1, "%s:%lu: a NUL byte in the line",
				      path, lineno);
			break;
		}
		s[strcspn(s, "\r")] = '\0';
		s += strspn(s, " \t");
		if (!*s || *s == '#')
			continue;
		if (metric_set_add_line(set, s, err)) {
			char msg[sizeof(err->msg) + 64];

			if (err->offset >= 0)
				snprintf(msg, sizeof(msg), "%s:%lu:%ld: %s",
					 path, lineno,
					 err->offset + (long)(s - line) + 1,
					 err->msg);
			else
				snprintf(msg, sizeof(msg), "%s:%lu: %s", path,
					 lineno, err->msg);
			error_set(err, -1, "%.*s", (int)sizeof(err->msg) - 1,
				  msg);
			r = -1;
			break;
		}
	}
	if (!r && !set->n)
		r = error_set(err, -1, "metrics file '%s' defines no metric",
			      path);
	return r ? -1 : 0;
}

size_t metric_set_input(struct pstat_metric_set *set, const char *spec)
{
	ssize_t i = index_find(set, &set->input_slot, &set->input_cap,
			       &set->input_done, set->ninputs, input_key, spec);

	if (i >= 0)
		return (size_t)i;
	xgrow((void **)&set->inputs, &set->inputs_alloc, set->ninputs + 1,
	      sizeof(*set->inputs));
	set->inputs[set->ninputs] = xstrdup(spec);
	return set->ninputs++;
}

/* Resolve the names of expression e (of metric at index self). */
static int resolve_expr(struct pstat_metric_set *set, size_t self,
			const struct pstat_mexpr *e, struct metric_ref **out,
			const struct pstat_metric_lib *lib,
			struct pstat_error *err)
{
	size_t n = mexpr_nnames(e);
	struct metric_ref *refs = xcalloc(n ? n : 1, sizeof(*refs));

	for (size_t i = 0; i < n; i++) {
		const char *name = mexpr_name(e, i);
		ssize_t m = metric_set_find(set, name);

		if (m < 0 && lib && metric_lib_find(lib, name)) {
			struct pstat_metric_def d = { 0 };

			if (metric_lib_def(lib, metric_lib_find(lib, name), &d,
					   err)) {
				metric_def_free(&d);
				free(refs);
				return -1;
			}
			metric_set_add_def(set, &d, 0, err);
			m = (ssize_t)set->n - 1;
		}
		if (m >= 0 && (size_t)m == self &&
		    e == set->m[self].def.expr) {
			free(refs);
			return error_set(err, -1,
					 "metric '%s' refers to itself",
					 set->m[self].def.name);
		}
		if (m >= 0) {
			refs[i].kind = METRIC_REF_METRIC;
			refs[i].idx = (size_t)m;
		} else if (!strcmp(name, "duration_time")) {
			refs[i].kind = METRIC_REF_DURATION;
		} else {
			refs[i].kind = METRIC_REF_INPUT;
			refs[i].idx = metric_set_input(set, name);
		}
	}
	*out = refs;
	return 0;
}

int metric_set_resolve(struct pstat_metric_set *set,
		       const struct pstat_metric_lib *lib,
		       struct pstat_error *err)
{
	/*
	 * set->n grows as library metrics are pulled in, and set->m moves:
	 * the references are stored once resolve_expr has returned.
	 */
	for (size_t i = 0; i < set->n; i++) {
		struct metric_ref *refs;

		if (set->m[i].refs)
			continue;
		if (!set->m[i].def.expr) {
			/* shown as not supported (metric_lib.c) */
			set->m[i].refs = xcalloc(1, sizeof(*set->m[i].refs));
			continue;
		}
		if (resolve_expr(set, i, set->m[i].def.expr, &refs, lib, err))
			return -1;
		set->m[i].refs = refs;
		if (!set->m[i].def.threshold)
			continue;
		if (resolve_expr(set, SIZE_MAX, set->m[i].def.threshold, &refs,
				 lib, err))
			return -1;
		set->m[i].trefs = refs;
	}
	return metric_set_graph(set, err);
}

void metric_set_free(struct pstat_metric_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++) {
		metric_def_free(&set->m[i].def);
		free(set->m[i].refs);
		free(set->m[i].trefs);
		free(set->m[i].pmu);
		free(set->m[i].ins);
	}
	free(set->m);
	free(set->order);
	free(set->name_slot);
	free(set->input_slot);
	for (size_t i = 0; i < set->ninputs; i++)
		free(set->inputs[i]);
	free(set->inputs);
	for (size_t i = 0; i < set->ngroups; i++)
		free(set->groups[i].inputs);
	free(set->groups);
	memset(set, 0, sizeof(*set));
}

/* Evaluation state: each metric's raw value, computed once. */
struct eval_ctx {
	const struct pstat_metric_set *set;
	const struct pstat_metric_inputs *in;
	struct pstat_metric_result *out;
	double *raw;
	unsigned char *done;
	const struct metric_ref *refs;   /* of the expression at hand */
	int mux;
};

/* Metrics of a set evaluated with room on the stack. */
#define METRIC_EVAL_STACK 32

static double eval_metric(struct eval_ctx *c, size_t i, const char **why);

static double env_name(void *ctx, size_t i, const char **why)
{
	struct eval_ctx *c = ctx;
	const struct metric_ref *r = &c->refs[i];
	double v;

	switch (r->kind) {
	case METRIC_REF_INPUT:
		v = c->in->value[r->idx];
		c->mux |= c->in->multiplexed && c->in->multiplexed[r->idx];
		if (isnan(v) && !*why)
			*why = c->in->why && c->in->why[r->idx] ?
				       c->in->why[r->idx] : "an input has no value";
		return v;
	case METRIC_REF_DURATION:
		return c->in->duration_s;
	case METRIC_REF_METRIC: {
		const struct metric_ref *saved = c->refs;

		v = eval_metric(c, r->idx, why);
		c->refs = saved;
		return v;
	}
	}
	return NAN;
}

static double env_const(void *ctx, enum mexpr_const k)
{
	struct eval_ctx *c = ctx;

	return c->in->consts ? c->in->consts->v[k] : NAN;
}

static double eval_metric(struct eval_ctx *c, size_t i, const char **why)
{
	const struct pstat_metric_entry *m = &c->set->m[i];
	struct mexpr_env env = { env_name, env_const, c };
	const char *w = NULL;
	int mux = c->mux;

	if (!c->done[i] && !m->def.expr) {
		c->raw[i] = NAN;
		c->out[i].why = m->def.desc ? m->def.desc : "not supported";
		c->done[i] = 1;
	} else if (!c->done[i]) {
		c->mux = 0;
		c->refs = m->refs;
		c->raw[i] = mexpr_eval(m->def.expr, &env, &w);
		c->out[i].why = w;
		c->out[i].multiplexed = c->mux;
		c->done[i] = 1;
	}
	c->mux = mux | c->out[i].multiplexed;
	if (isnan(c->raw[i]) && !*why)
		*why = c->out[i].why;
	return c->raw[i];
}

void metric_set_eval(const struct pstat_metric_set *set,
		     const struct pstat_metric_inputs *in,
		     struct pstat_metric_result *out)
{
	struct eval_ctx c = { set, in, out, NULL, NULL, NULL, 0 };
	struct mexpr_env env = { env_name, env_const, &c };

	/* on the stack for a few metrics: a call per thread and interval */
	double raw[METRIC_EVAL_STACK];
	unsigned char done[METRIC_EVAL_STACK];
	bool heap = set->n > METRIC_EVAL_STACK;

	c.raw = heap ? xcalloc(set->n, sizeof(*c.raw)) : raw;
	c.done = heap ? xcalloc(set->n, 1) : memset(done, 0, sizeof(done));
	/*
	 * Those a metric refers to first: eval_metric then finds their
	 * values, and never recurses along a chain of metrics.
	 */
	for (size_t i = 0; i < set->n; i++) {
		const char *why = NULL;

		eval_metric(&c, set->order ? set->order[i] : i, &why);
	}
	for (size_t i = 0; i < set->n; i++) {
		const struct pstat_metric_entry *m = &set->m[i];

		out[i].value = c.raw[i] * m->def.scale;
		if (isinf(out[i].value)) {
			out[i].value = NAN;
			out[i].why = "the result is out of range";
		}
		out[i].threshold = -1;
		if (m->def.threshold && !isnan(c.raw[i])) {
			const char *why = NULL;
			double t;

			c.refs = m->trefs;
			c.mux = 0;
			t = mexpr_eval(m->def.threshold, &env, &why);
			out[i].threshold = isnan(t) ? -1 : t != 0;
		}
	}
	if (heap) {
		free(c.raw);
		free(c.done);
	}
}
