/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the reader of pstat/1 run documents that `pstat
 * compare` and --baseline use (print_json_read_run), and what a
 * comparison does with whatever it accepted. The input is a run file;
 * what follows a first NUL byte, if any, is a --threshold spec
 * (compare_rules_parse).
 *
 * A document that reads is compared with itself and with an empty run,
 * and every comparison is printed in each format, to /dev/null: a file
 * full of NaN, huge or negative numbers and odd strings must get that far
 * without a crash.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/print_compare.h"
#include "report/print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void compare_and_print(const struct pstat_compare_run *base,
			      const struct pstat_compare_run *new,
			      const struct pstat_compare_rules *rules)
{
	struct pstat_compare c;

	memset(&c, 0, sizeof(c));
	compare_runs(base, new, rules, COMPARE_DEFAULT_ALPHA, &c);
	if (c.status != COMPARE_EXIT_OK && c.status != COMPARE_EXIT_REGRESSION &&
	    c.status != COMPARE_EXIT_INCOMPARABLE)
		abort();
	print_compare(devnull, COMPARE_TABLE, &c);
	print_compare(devnull, COMPARE_JSON, &c);
	print_compare(devnull, COMPARE_MARKDOWN, &c);
	compare_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pstat_compare_rules rules = { 0 };
	struct pstat_compare_run run = { 0 }, empty = { 0 };
	struct pstat_error err = { "", -1 };
	const uint8_t *nul = memchr(data, '\0', size);
	size_t len = nul ? (size_t)(nul - data) : size;
	char *doc, *spec = NULL;

	if (size > 65536)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	/* exactly len bytes, no terminator: an overread is a finding */
	doc = malloc(len ? len : 1);
	memcpy(doc, data, len);
	if (nul) {
		spec = malloc(size - len);
		memcpy(spec, nul + 1, size - len - 1);
		spec[size - len - 1] = '\0';
		if (compare_rules_parse(&rules, spec, &err) && !err.msg[0])
			abort();
	}
	err.msg[0] = '\0';
	if (print_json_read_run(doc, len, &run, &err)) {
		if (!err.msg[0])
			abort(); /* a refusal must say why */
	} else {
		run.label = strdup("base.json");
		empty.label = strdup("new.json");
		compare_and_print(&run, &run, &rules);
		compare_and_print(&run, &empty, &rules);
		compare_and_print(&empty, &run, &rules);
	}
	compare_run_free(&run);
	compare_run_free(&empty);
	compare_rules_free(&rules);
	free(doc);
	free(spec);
	return 0;
}
