/* SPDX-License-Identifier: MIT */
/*
 * Metric expressions: a recursive-descent parser over the text (one
 * function per precedence level, see metric_expr.h) into an array of
 * nodes, and their evaluation in doubles where NAN means "no value".
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric_expr.h"

enum node_kind {
	N_NUM,
	N_NAME,
	N_CONST,
	N_NEG,
	N_NOT,
	N_ADD,
	N_SUB,
	N_MUL,
	N_DIV,
	N_LT,
	N_LE,
	N_GT,
	N_GE,
	N_EQ,
	N_NE,
	N_AND,
	N_OR,
	N_MIN,
	N_MAX,
	N_COND,         /* a: value if true, b: condition, c: value if false */
};

struct node {
	enum node_kind kind;
	double num;             /* N_NUM */
	size_t idx;             /* N_NAME: name index; N_CONST: constant */
	int a, b, c;            /* children, -1 when none */
};

struct pstat_mexpr {
	struct node *nodes;
	size_t n, alloc;
	int root;
	char **names;
	long *name_off;
	size_t nnames, names_alloc;
};

struct parser {
	const char *text;
	const char *p;
	struct pstat_mexpr *e;
	struct pstat_error *err;
	int depth;
	/* a hash index of e->names (slot: index + 1), so that an
	 * expression of many names parses in linear time */
	size_t *slot, cap;
};

/* Deeper nesting than this is refused rather than risking the stack. */
#define MAX_DEPTH 200

static const char *const const_names[MEXPR_NCONST] = {
	[MEXPR_NUM_CORES] = "num_cores",
	[MEXPR_NUM_PACKAGES] = "num_packages",
	[MEXPR_NUM_CPUS] = "num_cpus",
	[MEXPR_SMT_ON] = "smt_on",
	[MEXPR_SLOTS] = "slots",
	[MEXPR_TSC_FREQ] = "tsc_freq",
};

const char *mexpr_const_name(enum mexpr_const c)
{
	return (unsigned)c < MEXPR_NCONST ? const_names[c] : "?";
}

static long off(const struct parser *ps)
{
	return (long)(ps->p - ps->text);
}

/* An error at the parser's position: a message of its own words. */
static int fail(struct parser *ps, const char *msg, const char *what)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s%s", msg, what);
	return error_set(ps->err, off(ps), "%s", buf);
}

static void skip_blanks(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r')
		ps->p++;
}

static int add_node(struct parser *ps, enum node_kind k, int a, int b, int c)
{
	struct pstat_mexpr *e = ps->e;

	xgrow((void **)&e->nodes, &e->alloc, e->n + 1, sizeof(*e->nodes));
	e->nodes[e->n] = (struct node){ .kind = k, .a = a, .b = b, .c = c };
	return (int)e->n++;
}

static int is_name_start(int c)
{
	return isalpha(c) || c == '_' || c == '\\';
}

static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':';
}

/* The word at p when it is exactly kw (not the start of a longer name). */
static int at_word(const char *p, const char *kw)
{
	size_t n = strlen(kw);

	return !strncmp(p, kw, n) && !is_name_char((unsigned char)p[n]) &&
	       p[n] != '-' && p[n] != '@' && p[n] != '\\';
}

static int parse_expr(struct parser *ps);

/* A name, its escapes undone, into a new string; NULL after an error. */
static char *lex_name(struct parser *ps)
{
	char *buf = NULL;
	size_t n = 0, alloc = 0;
	int in_at = 0;
	long at_open = -1;

	for (;;) {
		unsigned char c = (unsigned char)*ps->p;

		/* room for this character and the NUL (never the whole rest
		 * of the text per name: an expression of many is linear) */
		xgrow((void **)&buf, &alloc, n + 2, 1);
		if (c == '\\') {
			if (!ps->p[1]) {
				fail(ps, "a backslash at the end of the expression",
				     "");
				free(buf);
				return NULL;
			}
			buf[n++] = ps->p[1];
			ps->p += 2;
		} else if (c == '@') {
			/* pmu@terms@ is pmu/terms/ */
			in_at = !in_at;
			at_open = off(ps);
			buf[n++] = '/';
			ps->p++;
		} else if (in_at && c && c != '@' && !isspace(c)) {
			buf[n++] = (char)c;
			ps->p++;
		} else if (is_name_char(c)) {
			buf[n++] = (char)c;
			ps->p++;
		} else if (c == '-' && n && (is_name_char((unsigned char)
							  ps->p[1]) ||
					     ps->p[1] == '\\')) {
			buf[n++] = '-';
			ps->p++;
		} else {
			break;
		}
	}
	if (in_at) {
		error_set(ps->err, at_open,
			  "an unclosed '@' in an event name (pmu@terms@ holds no blank)");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

static int name_index(struct parser *ps, char *name, long at)
{
	struct pstat_mexpr *e = ps->e;
	size_t h;

	if (ps->cap < 2 * (e->nnames + 1)) {
		free(ps->slot);
		ps->cap = ps->cap ? ps->cap * 4 : 16;
		ps->slot = xcalloc(ps->cap, sizeof(*ps->slot));
		for (size_t i = 0; i < e->nnames; i++) {
			h = hash_str(HASH_INIT, e->names[i]) & (ps->cap - 1);
			while (ps->slot[h])
				h = (h + 1) & (ps->cap - 1);
			ps->slot[h] = i + 1;
		}
	}
	for (h = hash_str(HASH_INIT, name) & (ps->cap - 1); ps->slot[h];
	     h = (h + 1) & (ps->cap - 1)) {
		if (!strcmp(e->names[ps->slot[h] - 1], name)) {
			free(name);
			return (int)(ps->slot[h] - 1);
		}
	}
	ps->slot[h] = e->nnames + 1;
	if (e->nnames + 1 > e->names_alloc) {
		size_t a = e->names_alloc;

		xgrow((void **)&e->names, &a, e->nnames + 1, sizeof(*e->names));
		xgrow((void **)&e->name_off, &e->names_alloc, e->nnames + 1,
		      sizeof(*e->name_off));
	}
	e->names[e->nnames] = name;
	e->name_off[e->nnames] = at;
	return (int)e->nnames++;
}

static int parse_number(struct parser *ps)
{
	char *end;
	double v;
	int n;

	errno = 0;
	if (ps->p[0] == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X'))
		v = (double)strtoull(ps->p, &end, 16);
	else
		v = strtod(ps->p, &end);
	if (end == ps->p || errno == ERANGE || !isfinite(v))
		return fail(ps, "invalid number", "");
	if (is_name_char((unsigned char)*end))
		return error_set(ps->err, (long)(end - ps->text),
				 "invalid number: '%c' after its digits",
				 *end);
	ps->p = end;
	n = add_node(ps, N_NUM, -1, -1, -1);
	ps->e->nodes[n].num = v;
	return n;
}

static int parse_const(struct parser *ps)
{
	const char *start = ++ps->p;
	size_t len = 0;
	int n;

	while (is_name_char((unsigned char)start[len]))
		len++;
	for (size_t c = 0; c < MEXPR_NCONST; c++) {
		if (strlen(const_names[c]) == len &&
		    !strncmp(const_names[c], start, len)) {
			ps->p += len;
			n = add_node(ps, N_CONST, -1, -1, -1);
			ps->e->nodes[n].idx = c;
			return n;
		}
	}
	return error_set(ps->err, off(ps) - 1,
			 "unknown constant '#%.*s' (known: #num_cores, #num_packages, #num_cpus, #smt_on, #slots, #tsc_freq)",
			 (int)len, start);
}

static int expect(struct parser *ps, char c)
{
	char what[4] = { '\'', c, '\'', 0 };

	skip_blanks(ps);
	if (*ps->p != c)
		return fail(ps, "expected ", what);
	ps->p++;
	return 0;
}

static int parse_prim(struct parser *ps)
{
	int a, b;

	skip_blanks(ps);
	if (*ps->p == '(') {
		ps->p++;
		a = parse_expr(ps);
		if (a < 0 || expect(ps, ')'))
			return -1;
		return a;
	}
	if (isdigit((unsigned char)*ps->p) ||
	    (*ps->p == '.' && isdigit((unsigned char)ps->p[1])))
		return parse_number(ps);
	if (*ps->p == '#')
		return parse_const(ps);
	if (at_word(ps->p, "min") || at_word(ps->p, "max")) {
		enum node_kind k = ps->p[1] == 'i' ? N_MIN : N_MAX;

		ps->p += 3;
		if (expect(ps, '('))
			return -1;
		if ((a = parse_expr(ps)) < 0 || expect(ps, ','))
			return -1;
		if ((b = parse_expr(ps)) < 0 || expect(ps, ')'))
			return -1;
		return add_node(ps, k, a, b, -1);
	}
	if (is_name_start((unsigned char)*ps->p) || *ps->p == '@') {
		long at = off(ps);
		char *name;
		int n;

		if (at_word(ps->p, "if") || at_word(ps->p, "else") ||
		    at_word(ps->p, "and") || at_word(ps->p, "or"))
			return fail(ps, "expected a number, a name or '(', not the keyword",
				    "");
		name = lex_name(ps);
		if (!name)
			return -1;
		n = add_node(ps, N_NAME, -1, -1, -1);
		ps->e->nodes[n].idx = (size_t)name_index(ps, name, at);
		return n;
	}
	if (!*ps->p)
		return fail(ps, "unexpected end of the expression: expected a number, a name or '('",
			    "");
	return error_set(ps->err, off(ps),
			 "unexpected '%c': expected a number, a name or '('",
			 *ps->p);
}

static int parse_unary(struct parser *ps)
{
	int a;

	skip_blanks(ps);
	if (++ps->depth > MAX_DEPTH)
		return fail(ps, "the expression is nested too deeply", "");
	if (*ps->p == '-' || *ps->p == '!' || at_word(ps->p, "not")) {
		enum node_kind k = *ps->p == '-' ? N_NEG : N_NOT;

		ps->p += *ps->p == 'n' ? 3 : 1;
		a = parse_unary(ps);
		a = a < 0 ? -1 : add_node(ps, k, a, -1, -1);
	} else {
		a = parse_prim(ps);
	}
	ps->depth--;
	return a;
}

static int parse_mul(struct parser *ps)
{
	int a = parse_unary(ps), b;

	while (a >= 0) {
		enum node_kind k;

		skip_blanks(ps);
		if (*ps->p == '*')
			k = N_MUL;
		else if (*ps->p == '/')
			k = N_DIV;
		else
			break;
		ps->p++;
		if ((b = parse_unary(ps)) < 0)
			return -1;
		a = add_node(ps, k, a, b, -1);
	}
	return a;
}

static int parse_add(struct parser *ps)
{
	int a = parse_mul(ps), b;

	while (a >= 0) {
		enum node_kind k;

		skip_blanks(ps);
		if (*ps->p == '+')
			k = N_ADD;
		else if (*ps->p == '-')
			k = N_SUB;
		else
			break;
		ps->p++;
		if ((b = parse_mul(ps)) < 0)
			return -1;
		a = add_node(ps, k, a, b, -1);
	}
	return a;
}

static int parse_cmp(struct parser *ps)
{
	static const struct {
		const char *op;
		enum node_kind k;
	} ops[] = {
		{ "<=", N_LE }, { ">=", N_GE }, { "==", N_EQ }, { "!=", N_NE },
		{ "<", N_LT },  { ">", N_GT },
	};
	int a = parse_add(ps), b;

	if (a < 0)
		return -1;
	skip_blanks(ps);
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].op);

		if (strncmp(ps->p, ops[i].op, n))
			continue;
		ps->p += n;
		if ((b = parse_add(ps)) < 0)
			return -1;
		return add_node(ps, ops[i].k, a, b, -1);
	}
	return a;
}

static int parse_and(struct parser *ps)
{
	int a = parse_cmp(ps), b;

	while (a >= 0) {
		skip_blanks(ps);
		if (*ps->p == '&' && ps->p[1] != '&')
			ps->p++;
		else if (at_word(ps->p, "and"))
			ps->p += 3;
		else
			break;
		if ((b = parse_cmp(ps)) < 0)
			return -1;
		a = add_node(ps, N_AND, a, b, -1);
	}
	return a;
}

static int parse_or(struct parser *ps)
{
	int a = parse_and(ps), b;

	while (a >= 0) {
		skip_blanks(ps);
		if (*ps->p == '|' && ps->p[1] != '|')
			ps->p++;
		else if (at_word(ps->p, "or"))
			ps->p += 2;
		else
			break;
		if ((b = parse_and(ps)) < 0)
			return -1;
		a = add_node(ps, N_OR, a, b, -1);
	}
	return a;
}

static int parse_expr(struct parser *ps)
{
	int a, cond, b;

	if (++ps->depth > MAX_DEPTH)
		return fail(ps, "the expression is nested too deeply", "");
	a = parse_or(ps);
	if (a >= 0) {
		skip_blanks(ps);
		if (at_word(ps->p, "if")) {
			ps->p += 2;
			if ((cond = parse_or(ps)) < 0)
				return -1;
			skip_blanks(ps);
			if (!at_word(ps->p, "else"))
				return fail(ps, "expected 'else'", "");
			ps->p += 4;
			if ((b = parse_expr(ps)) < 0)
				return -1;
			a = add_node(ps, N_COND, a, cond, b);
		}
	}
	ps->depth--;
	return a;
}

int mexpr_parse(const char *text, struct pstat_mexpr **out,
		struct pstat_error *err)
{
	struct pstat_mexpr *e = xcalloc(1, sizeof(*e));
	struct parser ps = { text, text, e, err, 0, NULL, 0 };

	*out = NULL;
	e->root = parse_expr(&ps);
	free(ps.slot);
	if (e->root >= 0) {
		skip_blanks(&ps);
		if (*ps.p) {
			error_set(err, off(&ps),
				  "unexpected '%c' after the expression%s",
				  *ps.p,
				  *ps.p == '=' ? " (comparison is '==')" :
				  *ps.p == '-' || *ps.p == '/' ?
					  " (an event name with '/' is written pmu@terms@)" :
					  "");
			e->root = -1;
		}
	}
	if (e->root < 0) {
		mexpr_free(e);
		return -1;
	}
	/* a file may hold a million of them: no room to spare */
	e->nodes = xrealloc(e->nodes, e->n * sizeof(*e->nodes));
	e->alloc = e->n;
	if (e->nnames < e->names_alloc) {
		e->names = xrealloc(e->names, e->nnames * sizeof(*e->names));
		e->name_off = xrealloc(e->name_off,
				       e->nnames * sizeof(*e->name_off));
		e->names_alloc = e->nnames;
	}
	*out = e;
	return 0;
}

void mexpr_free(struct pstat_mexpr *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nnames; i++)
		free(e->names[i]);
	free(e->names);
	free(e->name_off);
	free(e->nodes);
	free(e);
}

size_t mexpr_nnames(const struct pstat_mexpr *e)
{
	return e->nnames;
}

const char *mexpr_name(const struct pstat_mexpr *e, size_t i)
{
	return i < e->nnames ? e->names[i] : NULL;
}

long mexpr_name_offset(const struct pstat_mexpr *e, size_t i)
{
	return i < e->nnames ? e->name_off[i] : -1;
}

int mexpr_uses_const(const struct pstat_mexpr *e, enum mexpr_const c)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->nodes[i].kind == N_CONST && e->nodes[i].idx == (size_t)c)
			return 1;
	return 0;
}

/* A leaf's value. */
static double eval_leaf(const struct node *n, const struct mexpr_env *env,
			const char **why)
{
	double a;

	switch (n->kind) {
	case N_NUM:
		return n->num;
	case N_NAME:
		return env->name(env->ctx, n->idx, why);
	default:
		a = env->constant(env->ctx, (enum mexpr_const)n->idx);
		if (isnan(a) && !*why)
			*why = "a constant is not known on this machine";
		return a;
	}
}

/* An operator's value from its operands' (b unused by N_NEG, N_NOT). */
static double eval_op(const struct node *n, double a, double b,
		      const char **why)
{
	if (n->kind == N_NEG)
		return -a;
	if (n->kind == N_NOT)
		return isnan(a) ? NAN : a == 0;
	if (isnan(a) || isnan(b))
		return NAN;
	switch (n->kind) {
	case N_ADD:
		return a + b;
	case N_SUB:
		return a - b;
	case N_MUL:
		return a * b;
	case N_DIV:
		if (b == 0) {
			if (!*why)
				*why = "division by zero";
			return NAN;
		}
		return a / b;
	case N_LT:
		return a < b;
	case N_LE:
		return a <= b;
	case N_GT:
		return a > b;
	case N_GE:
		return a >= b;
	case N_EQ:
		return a == b;
	case N_NE:
		return a != b;
	case N_AND:
		return a != 0 && b != 0;
	case N_OR:
		return a != 0 || b != 0;
	case N_MIN:
		return a < b ? a : b;
	case N_MAX:
		return a > b ? a : b;
	default:
		return NAN;
	}
}

/* One node being evaluated: how far, and its first operand's value. */
struct frame {
	int node, step;
	double a;
};

/*
 * The value of node i, operands left to right (a condition before its
 * branch, and only the branch taken), as a recursive walk would take
 * them, but with a stack of frames of its own: a sum of a million terms
 * is a tree a million deep, which would overflow the C stack.
 */
static double eval(const struct pstat_mexpr *e, int i,
		   const struct mexpr_env *env, const char **why)
{
	struct frame small[64], *st = small;
	size_t top = 0, cap = 64;
	double v = 0;

	st[top++] = (struct frame){ i, 0, 0 };
	while (top) {
		struct frame *f = &st[top - 1];
		const struct node *n = &e->nodes[f->node];
		int next = -1;

		if (n->kind == N_NUM || n->kind == N_NAME ||
		    n->kind == N_CONST) {
			v = eval_leaf(n, env, why);
		} else if (n->kind == N_COND) {
			if (f->step == 0)
				next = n->b;
			else if (f->step == 1 && !isnan(v))
				next = v != 0 ? n->a : n->c;
			/* else: the branch's value, or NAN, is v */
		} else if (f->step == 0) {
			next = n->a;
		} else if (f->step == 1 && n->kind != N_NEG &&
			   n->kind != N_NOT) {
			f->a = v;
			next = n->b;
		} else {
			v = f->step == 1 ? eval_op(n, v, 0, why) :
					   eval_op(n, f->a, v, why);
		}
		if (next < 0) {
			top--;
			continue;
		}
		f->step++;
		if (top == cap) {
			struct frame *bigger =
				xmalloc(2 * cap * sizeof(*bigger));

			memcpy(bigger, st, top * sizeof(*st));
			if (st != small)
				free(st);
			st = bigger;
			cap *= 2;
		}
		st[top++] = (struct frame){ next, 0, 0 };
	}
	if (st != small)
		free(st);
	return v;
}

double mexpr_eval(const struct pstat_mexpr *e, const struct mexpr_env *env,
		  const char **why)
{
	double v;

	*why = NULL;
	v = eval(e, e->root, env, why);
	if (isinf(v)) {
		*why = "the result is out of range";
		return NAN;
	}
	if (isnan(v) && !*why)
		*why = "no value";
	return v;
}
