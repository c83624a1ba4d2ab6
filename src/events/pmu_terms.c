/* SPDX-License-Identifier: MIT */
/*
 * pmu_encode: PMU terms to config words. Split from pmu.c, which reads
 * sysfs; this half reads nothing and only walks what pmu.c loaded.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/pmu.h"

/*
 * Aliases may name other aliases; sysfs never loops, but a hand-made tree
 * (or a future kernel bug) could, and the expansion must still end.
 */
#define PMU_ALIAS_MAX_DEPTH 8

static const char *const builtin_terms[] = {
	"config",
	"config1",
	"config2",
	"name",
};

/* The i-th term pmu takes: its formats, then the built-ins. */
static const char *term_name(const struct pstat_pmu *pmu, size_t i)
{
	return i < pmu->nformats ? pmu->formats[i].name :
				   builtin_terms[i - pmu->nformats];
}

/*
 * "unknown term" suggests the closest alias or term for one the user
 * wrote (not for one inside an alias: depth > 0), else lists the terms
 * that would have worked, like perf does (aliases are too many to list).
 */
static int unknown_term(const struct pstat_pmu *pmu, const char *key,
			int depth, long off, struct pstat_error *err)
{
	size_t nterms = pmu->nformats + ARRAY_SIZE(builtin_terms), len = 0;
	struct str_suggest s;
	char list[384], *hint = NULL;

	if (!depth) {
		str_suggest_init(&s, key);
		for (size_t i = 0; i < pmu->naliases; i++)
			str_suggest_cb(pmu->aliases[i].name, &s);
		for (size_t i = 0; i < nterms; i++)
			if (i >= pmu->nformats || !pmu->formats[i].error)
				str_suggest_cb(term_name(pmu, i), &s);
		hint = str_suggest_take(&s);
	}
	if (hint) {
		error_set(err, off,
			  "unknown term '%s' for PMU '%s' (did you mean '%s'?)",
			  key, pmu->name, hint);
		free(hint);
		return -1;
	}
	list[0] = '\0';
	for (size_t i = 0; i < nterms; i++) {
		int w;

		/* a malformed format file is no term that would have worked */
		if (i < pmu->nformats && pmu->formats[i].error)
			continue;
		w = snprintf(list + len, sizeof(list) - len, "%s%s",
				 len ? ", " : "", term_name(pmu, i));

		if (w < 0 || (size_t)w >= sizeof(list) - len) {
			snprintf(list + len, sizeof(list) - len, ", ...");
			break;
		}
		len += (size_t)w;
	}
	return error_set(err, off,
			 "unknown term '%s' for PMU '%s' (valid terms: %s)",
			 key, pmu->name, list);
}

/*
 * The value of a term: 1 without '=', else decimal or 0x hex. bits is the
 * width of the field it goes to, for the message when it overflows.
 */
static int term_value(const struct pstat_pmu *pmu, const struct pstat_term *t,
		      long off, int bits, uint64_t *v, struct pstat_error *err)
{
	int r;

	if (!t->val) {
		*v = 1;
		return 0;
	}
	r = parse_u64(t->val, UINT64_MAX, v);
	if (r == -ERANGE)
		return error_set(
			err, off,
			"value %s too large for '%s' of PMU '%s' (%d bit%s)",
			t->val, t->key, pmu->name, bits, bits == 1 ? "" : "s");
	if (r)
		return error_set(
			err, off,
			"invalid value '%s' for '%s' of PMU '%s' (expected decimal or 0x hex)",
			t->val, t->key, pmu->name);
	return 0;
}

/* "r1a8" or "r0x1a8": raw config in hex, as perf accepts. */
static bool is_raw_term(const char *key)
{
	return str_raw_hex(key) != NULL;
}

/* The terms the user wrote: a '?' in an alias asks them for a value. */
struct user_terms {
	const struct pstat_term *v;
	size_t n;
};

static int encode_terms(const struct pstat_pmu *pmu,
			const struct pstat_term *terms, size_t nterms,
			const struct user_terms *user,
			struct pstat_pmu_encoding *enc, int depth,
			long alias_off, struct pstat_error *err);

static bool user_has(const struct user_terms *user, const char *key)
{
	for (size_t i = 0; i < user->n; i++)
		if (!strcmp(user->v[i].key, key) && user->v[i].val)
			return true;
	return false;
}

static int encode_alias(const struct pstat_pmu *pmu,
			const struct pstat_pmu_alias *a,
			const struct user_terms *user, long off, int depth,
			struct pstat_pmu_encoding *enc, struct pstat_error *err)
{
	struct pstat_error sub;
	struct pstat_term *terms;
	size_t n, k = 0;
	int r;

	if (depth >= PMU_ALIAS_MAX_DEPTH)
		return error_set(
			err, off,
			"alias '%s' of PMU '%s' nests more than %d deep",
			a->name, pmu->name, PMU_ALIAS_MAX_DEPTH);
	if (evspec_parse_terms(a->terms, &terms, &n, &sub))
		return error_set(err, off,
				 "cannot parse alias '%s' of PMU '%s': %s",
				 a->name, pmu->name, sub.msg);
	/*
	 * "ldlat=?": the alias leaves the value to the user, whose own term
	 * sets it wherever it stands; without one the event is incomplete.
	 */
	for (size_t i = 0; i < n; i++) {
		if (!terms[i].val || strcmp(terms[i].val, "?")) {
			struct pstat_term t = terms[k];

			terms[k++] = terms[i];
			terms[i] = t;
			continue;
		}
		if (!user_has(user, terms[i].key)) {
			error_set(err, off,
				  "event '%s' of PMU '%s' needs a value for '%s' (its sysfs alias has '%s=?'): add '%s=N'",
				  a->name, pmu->name, terms[i].key,
				  terms[i].key, terms[i].key);
			evspec_terms_free(terms, n);
			return -1;
		}
	}
	r = encode_terms(pmu, terms, k, user, enc, depth + 1, off, err);
	evspec_terms_free(terms, n);
	if (r)
		return r;
	if (a->scale != 1.0)
		enc->scale = a->scale;
	if (a->unit && *a->unit) {
		free(enc->unit);
		enc->unit = xstrdup(a->unit);
	}
	return 0;
}

static const char *const ignored_terms[] = {
	"period", "freq", "percore", "metric-id",
};

/* The terms of perf record's that perf stat refuses as well. */
static const char *const sampling_terms[] = {
	"call-graph", "time", "stack-size", "max-stack", "inherit",
	"no-inherit", "overwrite", "no-overwrite", "branch_type", "nr",
	"aux-output", "aux-sample-size", "aux-action",
};

int pmu_term_role(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(ignored_terms); i++)
		if (!strcmp(key, ignored_terms[i]))
			return PMU_TERM_IGNORED;
	for (size_t i = 0; i < ARRAY_SIZE(sampling_terms); i++)
		if (!strcmp(key, sampling_terms[i]))
			return PMU_TERM_SAMPLING;
	return 0;
}

static int encode_term(const struct pstat_pmu *pmu, const struct pstat_term *t,
		       const struct user_terms *user, long off, int depth,
		       struct pstat_pmu_encoding *enc, struct pstat_error *err)
{
	const struct pstat_pmu_format *f;
	const struct pstat_pmu_alias *a;
	uint64_t v;
	int r;

	if (!t->key || !*t->key)
		return error_set(err, off, "empty term for PMU '%s'",
				 pmu->name);
	if (!strcmp(t->key, "name")) {
		if (!t->val || !*t->val)
			return error_set(
				err, off,
				"term 'name' of PMU '%s' needs a value",
				pmu->name);
		free(enc->name);
		enc->name = xstrdup(t->val);
		return 0;
	}
	for (int i = 0; i < 3; i++) {
		if (strcmp(t->key, builtin_terms[i]))
			continue;
		if (term_value(pmu, t, off, 64, &v, err))
			return -1;
		enc->config[i] = v;
		return 0;
	}
	/* Like perf, only a term without a value can name an alias... */
	a = pmu_alias_find(pmu, t->key);
	if (a && !t->val)
		return encode_alias(pmu, a, user, off, depth, enc, err);
	/* ...or event= with a name: msr/event=tsc/ is msr/tsc/ */
	if (!strcmp(t->key, "event") && t->val && !isdigit((unsigned char)*t->val)) {
		const struct pstat_pmu_alias *ea = pmu_alias_find(pmu, t->val);

		if (ea)
			return encode_alias(pmu, ea, user, off, depth, enc,
					    err);
	}
	f = pmu_format_find(pmu, t->key);
	if (f && f->error)
		return error_set(err, off,
				 "PMU '%s': malformed format file '%s': %s",
				 pmu->name, f->name, f->error);
	if (f) {
		if (term_value(pmu, t, off, f->nbits, &v, err))
			return -1;
		r = pmu_format_apply(pmu->name, f, v, enc->config, err);
		if (r && err)
			err->offset = off;
		return r;
	}
	if (a)
		return error_set(err, off,
				 "alias '%s' of PMU '%s' takes no value",
				 t->key, pmu->name);
	if (is_raw_term(t->key)) {
		const char *hex = t->key + 1;

		if (t->val)
			return error_set(
				err, off,
				"raw term '%s' of PMU '%s' takes no value",
				t->key, pmu->name);
		if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
			hex += 2;
		if (parse_u64_base(hex, 16, UINT64_MAX, &v))
			return error_set(
				err, off,
				"value 0x%s too large for 'config' of PMU '%s' (64 bits)",
				hex, pmu->name);
		enc->config[0] = v;
		return 0;
	}
	/* after the PMU's own terms, which may use these names */
	switch (pmu_term_role(t->key)) {
	case PMU_TERM_IGNORED:
		return 0;
	case PMU_TERM_SAMPLING:
		return error_set(err, off,
				 "term '%s' of PMU '%s' is for sampling, and pstat counts (perf stat refuses it too)",
				 t->key, pmu->name);
	}
	return unknown_term(pmu, t->key, depth, off, err);
}

/*
 * Terms from an alias carry no useful offset into the user's text, so
 * their errors point at the alias term that pulled them in (alias_off).
 */
static int encode_terms(const struct pstat_pmu *pmu,
			const struct pstat_term *terms, size_t nterms,
			const struct user_terms *user,
			struct pstat_pmu_encoding *enc, int depth,
			long alias_off, struct pstat_error *err)
{
	for (size_t i = 0; i < nterms; i++) {
		long off = depth ? alias_off : terms[i].off;

		if (encode_term(pmu, &terms[i], user, off, depth, enc, err))
			return -1;
	}
	return 0;
}

int pmu_encode(const struct pstat_pmu *pmu, const struct pstat_term *terms,
	       size_t nterms, struct pstat_pmu_encoding *enc,
	       struct pstat_error *err)
{
	struct user_terms user = { terms, nterms };

	memset(enc, 0, sizeof(*enc));
	enc->scale = 1.0;
	if (encode_terms(pmu, terms, nterms, &user, enc, 0, -1, err)) {
		pmu_encoding_release(enc);
		return -1;
	}
	return 0;
}

void pmu_encoding_release(struct pstat_pmu_encoding *enc)
{
	if (!enc)
		return;
	free(enc->name);
	free(enc->unit);
	enc->name = NULL;
	enc->unit = NULL;
}
