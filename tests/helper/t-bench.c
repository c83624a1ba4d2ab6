/* SPDX-License-Identifier: MIT */
/*
 * pstat-test bench "A ; B [; alpha [; S]]": two commands' wall times
 * (ms, one run each number) through compare/bench_stats.c, the way
 * pstat bench records and analyses them: B against A (ratio, its
 * interval, Welch's p, the verdict) and each command's outliers. With
 * S, both ran through a shell whose start-up took S (a run per round),
 * taken out of them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "compare/bench_results.h"
#include "test-tool.h"

/* The numbers of s (blank-separated) as runs of cmd. */
static int add_runs(struct pstat_bench_cmd *cmd, char *s)
{
	char *save, *tok;

	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *end;
		double ms = strtod(tok, &end);

		if (*end || ms < 0)
			return -1;
		bench_add_run(cmd, (uint64_t)llround(ms * 1e6), 0, 0, 0, 0,
			      cmd->runs, NULL, 0);
	}
	return cmd->runs ? 0 : -1;
}

/* A number as the table shows it: 4 decimals, "nan" when not finite. */
static void num(const char *name, double v)
{
	if (isfinite(v))
		printf(" %s=%.4f", name, v + 0.0);
	else if (isinf(v))
		printf(" %s=%sinf", name, v < 0 ? "-" : "");
	else
		printf(" %s=nan", name);
}

int t_bench(int argc, char **argv)
{
	struct pstat_bench b = { 0 };
	char *in, *part[4] = { NULL, NULL, NULL, NULL }, *save = NULL;
	const struct pstat_bench_diff *d;
	size_t n = 0;
	int r = 0;

	if (argc < 2) {
		printf("error: usage: bench 'A ; B [; alpha]'\n");
		return 1;
	}
	in = xstrdup(argv[1]);
	for (char *p = strtok_r(in, ";", &save); p && n < 4;
	     p = strtok_r(NULL, ";", &save))
		part[n++] = p;
	b.alpha = n >= 3 ? strtod(part[2], NULL) : 0.05;
	bench_add_cmd(&b, "a", "a", NULL)->via_shell = n == 4;
	bench_add_cmd(&b, "b", "b", NULL)->via_shell = n == 4;
	if (n == 4)
		bench_set_shell_probe(&b, "sh", NULL);
	if (n < 2 || add_runs(&b.cmds[0], part[0]) ||
	    add_runs(&b.cmds[1], part[1]) ||
	    (n == 4 && add_runs(b.shell_probe, part[3]))) {
		printf("error: bad samples\n");
		r = 1;
		goto out;
	}
	bench_analyze(&b);
	d = bench_diff(&b, 1, BENCH_ROW_WALL);
	printf("%s", bench_verdict_name(d->verdict, 1));
	num("ratio", d->ratio);
	num("lo", d->ratio_lo);
	num("hi", d->ratio_hi);
	num("p", d->tested ? d->p : NAN);
	printf("\n");
	if (n == 4)
		printf("a mean=%.4f b mean=%.4f\n",
		       b.cmds[0].rows[BENCH_ROW_WALL].sum.mean,
		       b.cmds[1].rows[BENCH_ROW_WALL].sum.mean);
	for (size_t c = 0; c < 2; c++)
		for (size_t k = 0; k < b.cmds[c].noutliers; k++)
			printf("outlier %s run %zu%s%s\n", b.cmds[c].name,
			       b.cmds[c].outliers[k].run + 1,
			       b.cmds[c].outliers[k].reason[0] ? ": " : "",
			       b.cmds[c].outliers[k].reason);
out:
	bench_free(&b);
	free(in);
	return r;
}
