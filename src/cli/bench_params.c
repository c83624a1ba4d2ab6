/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench -L VAR V1,V2,...`, hyperfine's parameter lists: every
 * command (and name) holding {VAR} becomes one command per value, and
 * several lists one per combination, the first list varying slowest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/bench_cli.h"

/* s with every {VAR} of the lists replaced by the values of combo k. */
static char *substitute(const char *s, const struct bench_params *p,
			const size_t *pick)
{
	char *out = xstrdup(s);

	for (size_t i = 0; i < p->n; i++) {
		char *key = xasprintf("{%s}", p->var[i]), *at;
		const char *val = p->vals[i][pick[i]];
		size_t klen = strlen(key), vlen = strlen(val), off = 0;

		while ((at = strstr(out + off, key))) {
			size_t pre = (size_t)(at - out);
			char *next = xmalloc(strlen(out) - klen + vlen + 1);

			memcpy(next, out, pre);
			memcpy(next + pre, val, vlen);
			strcpy(next + pre + vlen, at + klen);
			free(out);
			out = next;
			off = pre + vlen;
		}
		free(key);
	}
	return out;
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

int bench_params_expand(const struct bench_params *p, char *const *cmds,
			size_t ncmds, const char *const *names, size_t nnames,
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
	out->cmds = xcalloc(combos * ncmds + 1, sizeof(*out->cmds));
	out->names = xcalloc(combos * ncmds + 1, sizeof(*out->names));
	for (size_t c = 0; c < ncmds; c++) {
		memset(pick, 0, sizeof(pick));
		for (size_t k = 0; k < combos; k++) {
			out->cmds[out->n] = substitute(cmds[c], p, pick);
			if (c < nnames)
				out->names[out->n] = substitute(names[c], p, pick);
			out->n++;
			/* the next combination: the last list varies fastest */
			for (size_t i = p->n; i-- > 0;) {
				if (++pick[i] < p->nvals[i])
					break;
				pick[i] = 0;
			}
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
	for (size_t i = 0; e && i < e->n; i++) {
		free(e->cmds[i]);
		free(e->names[i]);
	}
	if (e) {
		free(e->cmds);
		free(e->names);
	}
}
