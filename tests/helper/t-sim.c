/* SPDX-License-Identifier: MIT */
/* The simulated PMU's pure parts: Valgrind's output files, --sim-cache. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/sim_cli.h"
#include "run/sim_valgrind.h"
#include "test-tool.h"

/*
 * sim-out TEXT: a cachegrind or callgrind output file, its lines
 * separated by " | ": "NAME=VALUE ..." as parsed, or "error: ...".
 */
int t_sim_out(int argc, char **argv)
{
	struct pstat_sim_totals t;
	char *text, *p;
	FILE *f;
	int r;

	if (argc != 2)
		return 2;
	text = strdup(argv[1]);
	while ((p = strstr(text, " | ")))
		memmove(p + 1, p + 3, strlen(p + 3) + 1), *p = '\n';
	f = fmemopen(text, strlen(text), "r");
	if (!f)
		return 2;
	r = sim_parse_out(f, &t);
	fclose(f);
	free(text);
	if (r) {
		printf("error: %s\n", strerror(-r));
		return 1;
	}
	for (size_t i = 0; i < t.n; i++)
		printf("%s%s=%llu", i ? " " : "", t.names[i],
		       (unsigned long long)t.val[i]);
	printf("\n");
	return 0;
}

/* sim-cache ARG: "LEVEL SIZE,ASSOC,LINE" or "error: ...". */
int t_sim_cache(int argc, char **argv)
{
	struct pstat_error err;
	char *geom;
	int level;

	if (argc != 2)
		return 2;
	if (sim_cache_parse(argv[1], &level, &geom, &err)) {
		printf("error: %s\n", err.msg);
		return 1;
	}
	printf("%s %s\n", sim_cache_levels[level], geom);
	free(geom);
	return 0;
}
