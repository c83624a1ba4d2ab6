/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: run documents at the sizes pstat compare must handle
 * in near-linear time (20,000 counters). The input is the text of one or
 * more counter objects ("{...},{...}"); the document holds as many copies
 * of it as make 20,000 counters or 2 MiB, every copy a counter of the
 * same key as its twins, the worst case for matching by occurrence. A
 * document that reads is compared with itself and printed in each
 * format: a quadratic path shows as a timeout, a bad index as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/print_compare.h"
#include "report/print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_COPIES 20000
#define MAX_BYTES (2u << 20)

static const char HEAD[] =
	"{\"schema\":\"pstat/1\",\"type\":\"summary\",\"pstat_version\":\"0.1.0\","
	"\"command\":[\"true\"],\"target\":{\"kind\":\"command\",\"pids\":[1],"
	"\"tids\":[],\"cpus\":[]},\"runs\":1,"
	"\"exit\":{\"status\":0,\"signal\":null},\"counters\":[";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct pstat_compare_run run = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_compare c;
	size_t copies, len = 0;
	char *doc;

	if (!size || size > 4096 || memchr(data, '\0', size))
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	copies = MAX_BYTES / (size + 1);
	if (copies > MAX_COPIES)
		copies = MAX_COPIES;
	doc = malloc(sizeof(HEAD) + copies * (size + 1) + 2);
	memcpy(doc, HEAD, sizeof(HEAD) - 1);
	len = sizeof(HEAD) - 1;
	for (size_t i = 0; i < copies; i++) {
		if (i)
			doc[len++] = ',';
		memcpy(doc + len, data, size);
		len += size;
	}
	memcpy(doc + len, "]}", 2);
	len += 2;
	if (print_json_read_run(doc, len, &run, &err)) {
		if (!err.msg[0])
			abort(); /* a refusal must say why */
	} else {
		run.label = strdup("base.json");
		memset(&c, 0, sizeof(c));
		compare_runs(&run, &run, NULL, COMPARE_DEFAULT_ALPHA, &c);
		/* the same document: every counter finds its twin */
		if (c.count[VERDICT_MISSING])
			abort();
		print_compare(devnull, COMPARE_TABLE, &c);
		print_compare(devnull, COMPARE_JSON, &c);
		print_compare(devnull, COMPARE_MARKDOWN, &c);
		compare_free(&c);
	}
	compare_run_free(&run);
	free(doc);
	return 0;
}
