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
 * A new document holding the keys every pstat document starts with, in
 * this order: "schema"; "type" and "interval" unless NULL (run documents;
 * interval is stolen); "pstat_version" if version. Calls json_init.
 */
json_t *json_doc_new(const char *schema, const char *type, json_t *interval,
		     bool version);

/*
 * Write doc (stolen), dumped with jansson's flags, and a newline, then
 * flush. Returns 0 or -errno.
 */
int json_write(FILE *out, json_t *doc, size_t flags);

#endif
