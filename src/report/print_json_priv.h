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

/*
 * Indented by two; every real in the fewest digits that read back to the
 * same double (print_json_text.c writes the numbers, not jansson).
 */
#define JSON_PRETTY JSON_INDENT(2)
/* One line. */
#define JSON_LINE JSON_COMPACT

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
	/* text mode: written as text, no value built (print_json_text.c) */
	struct jtext *text;
	int depth;
	bool first;
};
void jfill_start(struct jfill *f, json_t *v, bool update);
bool jfill_done(const struct jfill *f);

/*
 * A buffer kept from one document to the next: it grows to the largest
 * document written and stays, so that writing allocates nothing once
 * the documents stop growing. json_buf_free frees its text.
 */
struct json_buf {
	char *text;
	size_t len, alloc;
};
void json_buf_free(struct json_buf *buf);

/*
 * jfill's text mode: the fill writes the document into buf as jansson
 * would dump it (indent: JSON_INDENT's, 0 for JSON_COMPACT), with the
 * numbers of print_number.c. Strings given to jfill_str_kept are escaped
 * once and kept in cache (new, jtext_cache_free frees it; NULL: each is
 * escaped every time): they must be strings that live as long as the
 * cache, as a session's event and thread names do.
 * jfill_start_text opens the document's object, jfill_end_text closes it.
 */
struct jtext_cache;
struct jtext {
	struct json_buf *buf;
	int indent;
	struct jtext_cache *cache;
	bool started;
	/*
	 * marking: where the numbers of a counter that change each interval
	 * (value, raw, times, running_pct) went, for print_json_rows.c
	 */
	bool marking;
	size_t nmarks;
	struct {
		size_t start, end;
	} marks[8];
};
struct jtext_cache *jtext_cache_new(void);
void jtext_cache_free(struct jtext_cache *c);
void jfill_start_text(struct jfill *f, struct jtext *t);
void jfill_end_text(struct jfill *f);
/* doc dumped into buf (appended) as text, as jfill's text mode writes */
void jtext_dump(struct json_buf *buf, const json_t *doc, int indent);
/* (for print_json_fill.c) */
void jtext_str(struct jfill *f, const char *key, const char *s, bool kept);
void jtext_real(struct jfill *f, const char *key, double d);
void jtext_int(struct jfill *f, const char *key, int64_t v);
void jtext_u64(struct jfill *f, const char *key, uint64_t v);
void jtext_literal(struct jfill *f, const char *key, const char *lit);
void jtext_value(struct jfill *f, const char *key, const json_t *v);
void jtext_open(struct jfill *f, const char *key, struct jfill *c,
		bool array);
void jtext_close(struct jfill *f, struct jfill *c);

/*
 * The counters array of a one-line document in text mode (f), each of
 * the n rows an object fill (json_counter) writes: rows like those of
 * the last document are written from the text kept of them (see
 * print_json_rows.c); as_last: every row is the last document's (see
 * pstat_report's rows_as_last). jr: new, json_rows_free frees it.
 */
struct pstat_row;
struct json_rows;
struct json_rows *json_rows_new(void);
void json_rows_free(struct json_rows *jr);
/*
 * json_rows_write keeps the array's rows as text of its own, out of the
 * document (which holds the brackets): json_rows_begin before a
 * document, json_rows_put to write it (doc, with the rows in their
 * place and a newline), flushing. Returns 0 or -errno.
 */
void json_rows_begin(struct json_rows *jr);
int json_rows_put(struct json_rows *jr, FILE *out, struct json_buf *doc);
typedef void jfill_fn(struct jfill *c, const void *arg);
void json_rows_write(struct json_rows *jr, struct jfill *f, const char *key,
		     const struct pstat_row *rows, size_t n, bool as_last,
		     jfill_fn *fill);

/*
 * The next key of f (NULL in an array) and its value: a string (jstr's,
 * null for NULL), a real (jreal's), an integer, a count (ju64's), a
 * boolean, null, or a new value (stolen).
 */
void jfill_str(struct jfill *f, const char *key, const char *s);
/* jfill_str of a string that lives as long as the text cache (above) */
void jfill_str_kept(struct jfill *f, const char *key, const char *s);
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
 * json_write, dumping into buf (kept: see json_buf); doc is borrowed.
 * json_write_buf writes what buf holds and a newline, and flushes.
 */
int json_write_kept(FILE *out, const json_t *doc, size_t flags,
		    struct json_buf *buf);
int json_write_buf(FILE *out, struct json_buf *buf);
/* Write len bytes of s (a document and its newline) and flush. */
int json_put(FILE *out, const char *s, size_t len);

#endif
