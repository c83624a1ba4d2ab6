/* SPDX-License-Identifier: MIT */
/*
 * Filling a JSON value key by key, the same code building it the first
 * time and updating it in place afterwards (print_json_priv.h).
 *
 * An interval document with thousands of threads holds tens of thousands
 * of counter objects. Built anew each interval, each object cost about
 * forty allocations (its hash table, a slot per key, each value) and as
 * many frees, which took more time than writing the document out. The
 * documents of one run have the same keys in the same order almost
 * always, so the printer keeps the last one and overwrites its values:
 * numbers with json_integer_set and json_real_set, strings only when they
 * changed. The order of the keys is checked as the fill goes, so that a
 * document never differs from the one a fresh build would give.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "report/print_json_priv.h"

void jfill_start(struct jfill *f, json_t *v, bool update)
{
	*f = (struct jfill){
		.v = v,
		.array = json_is_array(v),
		.update = update,
	};
	if (update && !f->array)
		f->iter = json_object_iter(v);
}

bool jfill_done(const struct jfill *f)
{
	return f->text || !f->update || (!f->failed && (f->array || !f->iter));
}

/*
 * Where the next value goes: true with *cur the value there now (NULL
 * when building, or past the end of an array), false when the update
 * has failed already or key is not the next key of the object (it fails
 * then): there is nothing to do.
 */
static bool jfill_at(struct jfill *f, const char *key, json_t **cur)
{
	*cur = NULL;
	if (f->failed)
		return false;
	if (!f->update)
		return true;
	if (f->array) {
		*cur = json_array_get(f->v, f->idx);
		return true;
	}
	if (f->iter && !strcmp(json_object_iter_key(f->iter), key)) {
		*cur = json_object_iter_value(f->iter);
		return true;
	}
	f->failed = true;
	return false;
}

static void jfill_next(struct jfill *f)
{
	if (f->array)
		f->idx++;
	else if (f->update)
		f->iter = json_object_iter_next(f->v, f->iter);
}

/* Put v (stolen) where the next value goes, without moving on. */
static void jfill_place(struct jfill *f, const char *key, json_t *v)
{
	if (f->array && f->update && f->idx < json_array_size(f->v))
		json_array_set_new(f->v, f->idx, v);
	else if (f->array)
		json_array_append_new(f->v, v);
	else if (f->update)
		json_object_iter_set_new(f->v, f->iter, v);
	else
		json_object_set_new(f->v, key, v);
}

static void jfill_put(struct jfill *f, const char *key, json_t *v)
{
	jfill_place(f, key, v);
	jfill_next(f);
}

void jfill_new(struct jfill *f, const char *key, json_t *v)
{
	if (f->text) {
		jtext_value(f, key, v);
		json_decref(v);
		return;
	}
	json_t *cur;

	if (jfill_at(f, key, &cur))
		jfill_put(f, key, v);
	else
		json_decref(v);
}

void jfill_null(struct jfill *f, const char *key)
{
	if (f->text) {
		jtext_literal(f, key, "null");
		return;
	}
	json_t *cur;

	if (!jfill_at(f, key, &cur))
		return;
	if (cur && json_is_null(cur))
		jfill_next(f);
	else
		jfill_put(f, key, json_null());
}

void jfill_bool(struct jfill *f, const char *key, bool b)
{
	if (f->text) {
		jtext_literal(f, key, b ? "true" : "false");
		return;
	}
	json_t *cur;

	if (!jfill_at(f, key, &cur))
		return;
	if (cur && json_is_boolean(cur) && json_is_true(cur) == b)
		jfill_next(f);
	else
		jfill_put(f, key, json_boolean(b));
}

void jfill_int(struct jfill *f, const char *key, json_int_t v)
{
	if (f->text) {
		jtext_int(f, key, v);
		return;
	}
	json_t *cur;

	if (!jfill_at(f, key, &cur))
		return;
	if (cur && json_is_integer(cur)) {
		json_integer_set(cur, v);
		jfill_next(f);
	} else {
		jfill_put(f, key, json_integer(v));
	}
}

/* A real; finite only (jfill_real makes the rest null). */
static void jfill_finite(struct jfill *f, const char *key, double d)
{
	if (f->text) {
		jtext_real(f, key, d);
		return;
	}
	json_t *cur;

	if (!jfill_at(f, key, &cur))
		return;
	if (cur && json_is_real(cur)) {
		json_real_set(cur, d);
		jfill_next(f);
	} else {
		jfill_put(f, key, json_real(d));
	}
}

void jfill_real(struct jfill *f, const char *key, double d)
{
	if (isfinite(d))
		jfill_finite(f, key, d);
	else
		jfill_null(f, key);
}

void jfill_u64(struct jfill *f, const char *key, uint64_t v)
{
	/* (past INT64_MAX a real, as jansson has no such integer) */
	if (f->text && v <= INT64_MAX) {
		jtext_u64(f, key, v);
		return;
	}
	if (v > INT64_MAX)
		jfill_finite(f, key, (double)v);
	else
		jfill_int(f, key, (json_int_t)v);
}

void jfill_str(struct jfill *f, const char *key, const char *s)
{
	if (f->text) {
		jtext_str(f, key, s, false);
		return;
	}
	json_t *cur;

	if (!s) {
		jfill_null(f, key);
		return;
	}
	if (!jfill_at(f, key, &cur))
		return;
	/* a string that was not UTF-8 was stored mended: never equal */
	if (cur && json_is_string(cur) && !strcmp(json_string_value(cur), s))
		jfill_next(f);
	else
		jfill_put(f, key, jstr(s));
}

void jfill_str_kept(struct jfill *f, const char *key, const char *s)
{
	if (f->text)
		jtext_str(f, key, s, true);
	else
		jfill_str(f, key, s);
}

void jfill_start_text(struct jfill *f, struct jtext *t)
{
	struct jfill top = { .text = t, .first = true };

	t->started = false;
	jtext_open(&top, NULL, f, false);
}

void jfill_end_text(struct jfill *f)
{
	struct jfill top = { .text = f->text };

	jtext_close(&top, f);
}

void jfill_open(struct jfill *f, const char *key, struct jfill *c,
		bool array)
{
	if (f->text) {
		jtext_open(f, key, c, array);
		return;
	}
	json_t *cur;

	if (!jfill_at(f, key, &cur)) {
		*c = (struct jfill){ .update = true, .failed = true };
		return;
	}
	if (cur && (array ? json_is_array(cur) : json_is_object(cur))) {
		jfill_start(c, cur, true);
		return;
	}
	cur = array ? json_array() : json_object();
	jfill_place(f, key, cur);
	jfill_start(c, cur, false);
}

bool jfill_close(struct jfill *f, const char *key, struct jfill *c)
{
	if (f->text) {
		jtext_close(f, c);
		return true;
	}
	json_t *fresh;

	/* f's update failed: whoever fills f builds it anew */
	if (f->failed)
		return true;
	if (c->array && c->update) {
		size_t n;

		while ((n = json_array_size(c->v)) > c->idx)
			json_array_remove(c->v, n - 1);
	}
	if (jfill_done(c)) {
		jfill_next(f);
		return true;
	}
	fresh = json_object();
	jfill_place(f, key, fresh);
	jfill_start(c, fresh, false);
	return false;
}

void jfill_object(struct jfill *f, const char *key, jfill_fn *fill,
		  const void *arg)
{
	struct jfill c;

	jfill_open(f, key, &c, false);
	fill(&c, arg);
	if (!jfill_close(f, key, &c)) {
		fill(&c, arg);
		jfill_close(f, key, &c);
	}
}
