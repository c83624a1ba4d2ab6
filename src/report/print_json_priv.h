/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_PRINT_JSON_PRIV_H
#define PSTAT_PRINT_JSON_PRIV_H

/*
 * What the JSON writers and readers share: print_json.c (the run
 * documents), print_json_doc.c (dry-run, list, doctor) and
 * compare/print_json_compare.c (run documents read back, the comparison
 * written). Not for other modules: files named print_json*.c are the
 * only ones that include <jansson.h>.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define JSON_SCHEMA_RUN "pstat/1"

/* 17 significant digits: every double reads back as the same double. */
#define JSON_PRETTY (JSON_INDENT(2) | JSON_REAL_PRECISION(17))

/*
 * Route jansson's allocations through xmalloc. Idempotent; call it before
 * the first jansson call (json_doc_new does).
 */
void json_init(void);

/*
 * New JSON values that never fail: jstr() is a string for s with bytes
 * that are not UTF-8 replaced by U+FFFD, null for NULL; jreal() is null
 * for NaN and infinities; ju64() is a double past INT64_MAX.
 */
json_t *jstr(const char *s);
json_t *jreal(double d);
json_t *ju64(uint64_t v);

/*
 * Filling an object or array in order (print_json_fill.c): one function
 * fills a value, and the same function updates that value in place
 * later, so that a printer can keep a document and write it again with
 * new numbers and no allocation. The value is built while the fill is
 * not an update. In an update each key must come where it is in the
 * value (the fill fails otherwise, and the value is built anew); values
 * whose type is the same are overwritten in place. Keys are ignored in
 * arrays; an update of an array drops the elements past the last filled.
 *
 * jfill_start: fill v (borrowed), building it (it is empty) or updating
 * it. jfill_done: whether the fill gave the value what a build would,
 * false when an update failed and v must be built anew.
 */
struct jfill {
	json_t *v;
	void *iter;         /* update of an object: the next key's slot */
	size_t idx;         /* update of an array: the next element */
	bool array;
	bool update;
	bool failed;        /* update: a key was not where the fill put it */
};
void jfill_start(struct jfill *f, json_t *v, bool update);
bool jfill_done(const struct jfill *f);

/*
 * The next key of f (NULL in an array) and its value: a string (jstr's,
 * null for NULL), a real (jreal's), an integer, a count (ju64's), a
 * boolean, null, or a new value (stolen).
 */
void jfill_str(struct jfill *f, const char *key, const char *s);
void jfill_real(struct jfill *f, const char *key, double d);
void jfill_int(struct jfill *f, const char *key, json_int_t v);
void jfill_u64(struct jfill *f, const char *key, uint64_t v);
void jfill_bool(struct jfill *f, const char *key, bool b);
void jfill_null(struct jfill *f, const char *key);
void jfill_new(struct jfill *f, const char *key, json_t *v);

/*
 * An object or array as f's next value, filled through c between
 * jfill_open and jfill_close. jfill_close returns false when the update
 * of object c failed: c is then a new empty object in its place, to be
 * filled again (in build mode) and closed once more. jfill_object does
 * all of that with fill(c, arg).
 */
typedef void jfill_fn(struct jfill *c, const void *arg);
void jfill_open(struct jfill *f, const char *key, struct jfill *c,
		bool array);
bool jfill_close(struct jfill *f, const char *key, struct jfill *c);
void jfill_object(struct jfill *f, const char *key, jfill_fn *fill,
		  const void *arg);

/*
 * A new document holding the keys every pstat document starts with, in
 * this order: "schema"; "type" and "interval" unless NULL (run documents;
 * interval is stolen); "pstat_version" if version. Calls json_init.
 */
json_t *json_doc_new(const char *schema, const char *type, json_t *interval,
		     bool version);

/*
 * The two parts of json_doc_new, for a document filled with jfill: the
 * "schema" and "type" (unless NULL) keys, and the "pstat_version" key.
 * A run document has its "interval" between them.
 */
void json_doc_head(struct jfill *f, const char *schema, const char *type);
void json_doc_version(struct jfill *f);

/*
 * Write doc (stolen), dumped with jansson's flags, and a newline, then
 * flush. Returns 0 or -errno.
 */
int json_write(FILE *out, json_t *doc, size_t flags);

/*
 * A buffer kept from one document to the next: it grows to the largest
 * document written and stays, so that writing allocates nothing once
 * the documents stop growing. json_write_kept: json_write, dumping into
 * buf; doc is borrowed. json_buf_free frees buf's text.
 */
struct json_buf {
	char *text;
	size_t len, alloc;
};
int json_write_kept(FILE *out, const json_t *doc, size_t flags,
		    struct json_buf *buf);
void json_buf_free(struct json_buf *buf);

#endif
