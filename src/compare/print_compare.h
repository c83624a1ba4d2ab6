/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_PRINT_COMPARE_H
#define PSTAT_PRINT_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "base/msg.h"
#include "compare/compare.h"

/*
 * The comparison's input and output: run documents read back, and the
 * comparison printed as a table, Markdown or its JSON document.
 */

/*
 * `pstat compare` (compare.h holds the records). print_json_read_run:
 * read the pstat/1 run in buf[0..len) into run (zeroed by the caller,
 * which frees it with compare_run_free, also on failure): one document,
 * or several in a row as -I writes them (JSON Lines), of which the last
 * must be the summary. Returns 0, or -1 with err set: not JSON,
 * truncated, binary, not a pstat/1 summary, a field of the wrong type.
 */
int print_json_read_run(const char *buf, size_t len,
			struct pstat_compare_run *run,
			struct pstat_error *err);
/* Print the pstat-compare/1 document of c. Returns 0 or -errno. */
int print_json_compare(FILE *out, const struct pstat_compare *c);

enum pstat_compare_format {
	COMPARE_TABLE,
	COMPARE_JSON,
	COMPARE_MARKDOWN,
};

/*
 * Print a comparison in format fmt (print_compare.c): an aligned table,
 * the pstat-compare/1 document, or a Markdown table with a one-line
 * summary for a pull request. Returns 0 or -errno.
 */
int print_compare(FILE *out, enum pstat_compare_format fmt,
		  const struct pstat_compare *c);

#endif
