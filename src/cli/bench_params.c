/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench -L VAR V1,V2,...`, hyperfine's parameter lists: every
 * command (and name) holding {VAR} becomes one command per value, and
 * several lists one per combination, the first list varying slowest.
 *
 * A value is put in once, in one pass over the text: what a value holds
 * is never read again for placeholders ({x} in a value stays {x}), so
 * the cost is linear in the length of the result. Through a shell, a
 * value is one shell word: quoted unless it holds only characters no
 * shell treats specially (as Python's shlex.quote), so that
 * `-L x 'a;touch F'` passes the text `a;touch F` and runs nothing.
 * Without one (-N), the command is split into words first and the value
 * goes into its word unchanged, never split or unquoted again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/bench_cli.h"

/* A growing string: doubling keeps the appends linear. */
struct text {
	char *s;
	size_t len, alloc;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	xgrow((void **)&t->s, &t->alloc, t->len + n + 1, 1);
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

/* Characters that never need quoting for a POSIX shell. */
static int shell_safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789@%+=:,./-_", *s))
			return 0;
	return 1;
}

/* Append s to buf, in single quotes when quote and it needs them. */
static void put_value(struct text *buf, const char *s, int quote)
{
	if (!quote || shell_safe(s)) {
		text_add(buf, s, strlen(s));
		return;
	}
	text_add(buf, "'", 1);
	for (; *s; s++) {
		if (*s == '\'')
			text_add(buf, "'\\''", 4);
		else
			text_add(buf, s, 1);
	}
	text_add(buf, "'", 1);
}

/* The list named by the n bytes at s, or -1. */
static int find_var(const struct bench_params *p, const char *s, size_t n)
{
	for (size_t i = 0; i < p->n; i++)
		if (strlen(p->var[i]) == n && !memcmp(p->var[i], s, n))
			return (int)i;
	return -1;
}

char *bench_params_subst(const struct bench_params *p, const size_t *pick,
			 const char *s, int quote)
{
	struct text buf = { 0 };

	while (*s) {
		const char *open = strchr(s, '{'), *close;
		int v;

		if (!open) {
			text_add(&buf, s, strlen(s));
			break;
		}
		text_add(&buf, s, (size_t)(open - s));
		close = strpbrk(open + 1, "{}");
		if (!close || *close == '{' ||
		    (v = find_var(p, open + 1, (size_t)(close - open - 1))) < 0) {
			/* not a placeholder: the brace as it is */
			text_add(&buf, open, 1);
			s = open + 1;
			continue;
		}
		put_value(&buf, p->vals[v][pick[v]], quote);
		s = close + 1;
	}
	if (!buf.s)
		text_add(&buf, "", 0);
	return buf.s;
}

int bench_params_used(const struct bench_params *p, const char *s)
{
	int used = 0;

	for (size_t i = 0; s && i < p->n && !used; i++) {
		char *key = xasprintf("{%s}", p->var[i]);

		used = strstr(s, key) != NULL;
		free(key);
	}
	return used;
}

int bench_params_add(struct bench_params *p, const char *var,
		     const char *values, char *why, size_t len)
{
	char *copy, *save = NULL;

	if (p->n >= BENCH_MAX_PARAMS) {
		snprintf(why, len, "at most %d parameter lists",
			 BENCH_MAX_PARAMS);
		return -1;
	}
	if (!*var || strpbrk(var, "{}")) {
		snprintf(why, len, "invalid parameter name '%s'", var);
		return -1;
	}
	if (find_var(p, var, strlen(var)) >= 0) {
		snprintf(why, len, "parameter '%s' is given twice", var);
		return -1;
	}
	p->var[p->n] = var;
	p->vals[p->n] = xcalloc(strlen(values) + 2, sizeof(char *));
	p->nvals[p->n] = 0;
	copy = xstrdup(values);
	p->bufs[p->n] = copy;
	for (char *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		p->vals[p->n][p->nvals[p->n]++] = t;
	if (!p->nvals[p->n]) {
		snprintf(why, len, "no values for parameter '%s'", var);
		free(p->vals[p->n]);
		free(copy);
		return -1;
	}
	p->n++;
	return 0;
}

int bench_params_expand(const struct bench_params *p, size_t ncmds,
			struct bench_expanded *out, char *why, size_t len)
{
	size_t combos = 1, pick[BENCH_MAX_PARAMS] = { 0 };

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < p->n; i++) {
		combos *= p->nvals[i];
		if (combos * ncmds > BENCH_MAX_CMDS) {
			snprintf(why, len, "the parameter lists make more than %d commands",
				 BENCH_MAX_CMDS);
			return -1;
		}
	}
	out->src = xcalloc(combos * ncmds + 1, sizeof(*out->src));
	out->pick = xcalloc(combos * ncmds + 1, sizeof(*out->pick));
	/* as hyperfine: every command for a combination, then the next */
	for (size_t k = 0; k < combos; k++) {
		for (size_t c = 0; c < ncmds; c++) {
			out->src[out->n] = c;
			memcpy(out->pick[out->n], pick, sizeof(pick));
			out->n++;
		}
		/* the next combination: the last list varies fastest */
		for (size_t i = p->n; i-- > 0;) {
			if (++pick[i] < p->nvals[i])
				break;
			pick[i] = 0;
		}
	}
	return 0;
}

void bench_params_free(struct bench_params *p, struct bench_expanded *e)
{
	for (size_t i = 0; p && i < p->n; i++) {
		free(p->vals[i]);
		free(p->bufs[i]);
	}
	if (e) {
		free(e->src);
		free(e->pick);
	}
}

/* A word the shell reads itself: a keyword, or a built-in no program is. */
static int shell_word(const char *w)
{
	static const char *const words[] = {
		"!", ".", ":", "[[", "]]", "{", "}", "alias", "bg", "break",
		"case", "cd", "command", "continue", "do", "done", "elif",
		"else", "esac", "eval", "exec", "exit", "export", "fc", "fg",
		"fi", "for", "function", "getopts", "hash", "if", "jobs",
		"local", "read", "readonly", "return", "select", "set",
		"shift", "source", "then", "times", "trap", "type", "ulimit",
		"umask", "unalias", "unset", "until", "wait", "while",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i]))
			return 1;
	return 0;
}

/* Whether execvp would find the program w, as the shell would. */
static int program_found(const char *w)
{
	const char *path = getenv("PATH");
	int found = 0;

	if (strchr(w, '/'))
		return access(w, X_OK) == 0;
	if (!path || !*path)
		path = "/bin:/usr/bin";
	while (!found && path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char *f = xasprintf("%.*s%s%s", (int)len, path, len ? "/" : "",
				    w);
		struct stat st;

		found = !stat(f, &st) && S_ISREG(st.st_mode) &&
			!access(f, X_OK);
		free(f);
		path = colon ? colon + 1 : NULL;
	}
	return found;
}

int bench_needs_shell(const struct bench_params *p, const char *s)
{
	struct text t = { 0 };
	char **w;
	int need = 0;

	/* the text without its placeholders: a value is one word anyway */
	while (*s) {
		const char *close;

		if (*s == '{' && (close = strchr(s + 1, '}')) &&
		    find_var(p, s + 1, (size_t)(close - s - 1)) >= 0) {
			text_add(&t, "x", 1);
			s = close + 1;
			continue;
		}
		text_add(&t, s++, 1);
	}
	if (!t.s || strpbrk(t.s, "|&;<>()$`\\*?[]#~{}!\n")) {
		free(t.s);
		return 1;
	}
	w = bench_split_words(t.s);
	need = !w || !w[0] || strchr(w[0], '=') || shell_word(w[0]) ||
	       !program_found(w[0]);
	bench_words_free(w);
	free(t.s);
	return need;
}
