/* SPDX-License-Identifier: MIT */
/*
 * JSON written as text, in jansson's own layout (JSON_COMPACT, or
 * JSON_INDENT(n) with ": " after keys): the run documents filled
 * straight into text (jfill's text mode, print_json_priv.h), and any
 * other document dumped from its jansson value.
 *
 * Strings are escaped by jansson (json_dumpb); those a run document
 * repeats in every counter (events, threads, units: strings that live
 * as long as the printer) are escaped once and kept, by their address.
 * Numbers are written by print_number.c: integers as they are, reals in
 * the fewest digits that read back to the same double, which jansson
 * cannot do (it prints every real with 17 digits, 0.67741600000000002
 * for 0.677416).
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/print.h"
#include "report/print_json_priv.h"

/* Room for n more bytes in t's buffer: where they go. */
static char *jt_room(struct jtext *t, size_t n)
{
	struct json_buf *b = t->buf;

	if (b->alloc - b->len <= n)
		xgrow((void **)&b->text, &b->alloc, b->len + n + 1, 1);
	return b->text + b->len;
}

static void jt_put(struct jtext *t, const char *s, size_t n)
{
	memcpy(jt_room(t, n), s, n);
	t->buf->len += n;
}

/* v (a jansson string) escaped by jansson, quotes and all. */
static void jt_dump_string(struct jtext *t, const json_t *v)
{
	size_t room = t->buf->alloc - t->buf->len;
	size_t n = json_dumpb(v, t->buf->text ? t->buf->text + t->buf->len : NULL,
			      room, JSON_ENCODE_ANY);

	if (n >= room) {
		jt_room(t, n);
		n = json_dumpb(v, t->buf->text + t->buf->len, n + 1,
			       JSON_ENCODE_ANY);
	}
	t->buf->len += n;
}

/* A key: one that needs no escape as it is, else as jansson escapes it. */
static void jt_key(struct jtext *t, const char *key)
{
	size_t n = 0;
	json_t *v;

	while ((unsigned char)key[n] >= 0x20 && (unsigned char)key[n] < 0x80 &&
	       key[n] != '"' && key[n] != '\\')
		n++;
	if (!key[n]) {
		char *d = jt_room(t, n + 2);

		d[0] = '"';
		memcpy(d + 1, key, n);
		d[n + 1] = '"';
		t->buf->len += n + 2;
		return;
	}
	v = jstr(key);
	jt_dump_string(t, v);
	json_decref(v);
}

/* Before f's next value: the comma, the line break and indent, the key. */
static void jt_sep(struct jfill *f, const char *key)
{
	struct jtext *t = f->text;

	if (!f->first)
		jt_put(t, ",", 1);
	f->first = false;
	if (t->indent) {
		size_t n = (size_t)t->indent * (size_t)f->depth;
		char *d = jt_room(t, n + 1);

		d[0] = '\n';
		memset(d + 1, ' ', n);
		t->buf->len += n + 1;
	}
	if (!f->array && key) {
		jt_key(t, key);
		if (t->indent)
			jt_put(t, ": ", 2);
		else
			jt_put(t, ":", 1);
	}
}

struct jt_kept {
	const char *s;      /* the address kept by */
	char *copy;         /* what it held then */
	char *esc;          /* escaped, quotes and all */
	size_t len;
};

struct jtext_cache {
	struct jt_kept *slot;
	size_t n, cap;      /* cap: a power of two */
};

static size_t jt_hash(const char *s, size_t cap)
{
	uintptr_t h = (uintptr_t)s;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 20) & (cap - 1);
}

static struct jt_kept *jt_slot(struct jtext_cache *c, const char *s)
{
	size_t i = jt_hash(s, c->cap);

	while (c->slot[i].s && c->slot[i].s != s)
		i = (i + 1) & (c->cap - 1);
	return &c->slot[i];
}

static void jt_grow(struct jtext_cache *c)
{
	struct jt_kept *old = c->slot;
	size_t oldcap = c->cap;

	c->cap = oldcap ? 2 * oldcap : 256;
	c->slot = xcalloc(c->cap, sizeof(*c->slot));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].s)
			*jt_slot(c, old[i].s) = old[i];
	free(old);
}

/*
 * s escaped, from the cache: escaped by jansson the first time its
 * address is seen, and again only when the address holds another string
 * since (a strcmp per use, much less than an escape).
 */
static void jt_kept_string(struct jtext *t, const char *s)
{
	struct jtext_cache *c = t->cache;
	struct jt_kept *k;

	if (2 * (c->n + 1) > c->cap)
		jt_grow(c);
	k = jt_slot(c, s);
	if (!k->s || strcmp(k->copy, s)) {
		size_t start = t->buf->len;
		json_t *v = jstr(s);

		jt_dump_string(t, v);
		json_decref(v);
		if (!k->s)
			c->n++;
		free(k->copy);
		free(k->esc);
		k->s = s;
		k->copy = xstrdup(s);
		k->len = t->buf->len - start;
		k->esc = xmalloc(k->len);
		memcpy(k->esc, t->buf->text + start, k->len);
		return;
	}
	jt_put(t, k->esc, k->len);
}

void jtext_cache_free(struct jtext_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++) {
		free(c->slot[i].copy);
		free(c->slot[i].esc);
	}
	free(c->slot);
	free(c);
}

struct jtext_cache *jtext_cache_new(void)
{
	return xcalloc(1, sizeof(struct jtext_cache));
}

void jtext_str(struct jfill *f, const char *key, const char *s, bool kept)
{
	jt_sep(f, key);
	if (!s) {
		jt_put(f->text, "null", 4);
	} else if (kept && f->text->cache) {
		jt_kept_string(f->text, s);
	} else {
		json_t *v = jstr(s);

		jt_dump_string(f->text, v);
		json_decref(v);
	}
}

/* A counter's number that changes each interval: where it went. */
static void jt_mark(struct jtext *t, const char *key, size_t start)
{
	static const char *const changing[] = {
		"value", "raw", "time_enabled_ns", "time_running_ns",
		"running_pct",
	};

	if (!key || t->nmarks >= sizeof(t->marks) / sizeof(*t->marks))
		return;
	for (size_t i = 0; i < sizeof(changing) / sizeof(*changing); i++)
		if (!strcmp(key, changing[i])) {
			t->marks[t->nmarks].start = start;
			t->marks[t->nmarks++].end = t->buf->len;
			return;
		}
}

static void jt_number(struct jfill *f, const char *key, const char *num,
		      size_t n)
{
	size_t start;

	jt_sep(f, key);
	start = f->text->buf->len;
	jt_put(f->text, num, n);
	if (f->text->marking)
		jt_mark(f->text, key, start);
}

void jtext_real(struct jfill *f, const char *key, double d)
{
	char num[PRINT_REAL_MAX];

	jt_number(f, key, num, print_real(num, d));
}

void jtext_int(struct jfill *f, const char *key, int64_t v)
{
	char num[24];
	size_t n = print_i64(num, v);

	jt_sep(f, key);
	jt_put(f->text, num, n);
}

void jtext_u64(struct jfill *f, const char *key, uint64_t v)
{
	char num[24];

	jt_number(f, key, num, print_u64(num, v));
}

void jtext_literal(struct jfill *f, const char *key, const char *lit)
{
	jt_sep(f, key);
	jt_put(f->text, lit, strlen(lit));
}

void jtext_open(struct jfill *f, const char *key, struct jfill *c,
		bool array)
{
	if (f->text->started)
		jt_sep(f, key);
	f->text->started = true;
	jt_put(f->text, array ? "[" : "{", 1);
	*c = (struct jfill){
		.text = f->text,
		.depth = f->depth + 1,
		.array = array,
		.first = true,
	};
}

void jtext_close(struct jfill *f, struct jfill *c)
{
	struct jtext *t = c->text;

	(void)f;
	/* jansson's layout: the closing bracket on a line of its own */
	if (!c->first && t->indent) {
		size_t n = (size_t)t->indent * (size_t)f->depth;
		char *d = jt_room(t, n + 1);

		d[0] = '\n';
		memset(d + 1, ' ', n);
		t->buf->len += n + 1;
	}
	jt_put(t, c->array ? "]" : "}", 1);
}

/* v at f's next place, as jansson would dump it. */
static void jt_value(struct jfill *f, const char *key, const json_t *v)
{
	struct jfill c;
	const char *k;
	json_t *val;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		jtext_open(f, key, &c, false);
		json_object_foreach((json_t *)v, k, val)
			jt_value(&c, k, val);
		jtext_close(f, &c);
		break;
	case JSON_ARRAY:
		jtext_open(f, key, &c, true);
		json_array_foreach(v, i, val)
			jt_value(&c, NULL, val);
		jtext_close(f, &c);
		break;
	case JSON_STRING:
		jt_sep(f, key);
		jt_dump_string(f->text, v);
		break;
	case JSON_INTEGER:
		jtext_int(f, key, json_integer_value(v));
		break;
	case JSON_REAL:
		jtext_real(f, key, json_real_value(v));
		break;
	case JSON_TRUE:
		jtext_literal(f, key, "true");
		break;
	case JSON_FALSE:
		jtext_literal(f, key, "false");
		break;
	case JSON_NULL:
		jtext_literal(f, key, "null");
		break;
	}
}

void jtext_value(struct jfill *f, const char *key, const json_t *v)
{
	jt_value(f, key, v);
}

void jtext_dump(struct json_buf *buf, const json_t *doc, int indent)
{
	struct jtext t = { .buf = buf, .indent = indent };
	struct jfill top = { .text = &t, .first = true };

	jt_value(&top, NULL, doc);
}
