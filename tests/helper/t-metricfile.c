/* SPDX-License-Identifier: MIT */
/*
 * pstat-test metric-file FILE [VALUE]
 *   Reads FILE as --metrics-file does, resolves it, groups its inputs
 *   (every one a software event) and evaluates it once with each input
 *   worth VALUE (default 1). Prints "metrics: N inputs: K groups: G" and
 *   the last metric as "NAME VALUE" (%.6g) or "NAME none: WHY"; on an
 *   error, "error: MSG" and exits 1. The time the reading, resolution
 *   and grouping took goes to stderr as "resolved in S s", for bench/run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric.h"
#include "test-tool.h"

int t_metric_file(int argc, char **argv)
{
	struct pstat_metric_set set = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_metric_inputs in = { 0 };
	struct pstat_metric_result *res;
	double value = argc > 2 ? strtod(argv[2], NULL) : 1, *val;
	long *klass;
	int *counter;
	uint64_t start;

	if (argc < 2)
		return 2;
	start = now_ns();
	if (metric_set_add_file(&set, argv[1], &err) ||
	    metric_set_resolve(&set, NULL, &err)) {
		printf("error: %s\n", err.msg);
		metric_set_free(&set);
		return 1;
	}
	klass = xcalloc(set.ninputs + 1, sizeof(*klass));
	counter = xcalloc(set.ninputs + 1, sizeof(*counter));
	val = xcalloc(set.ninputs + 1, sizeof(*val));
	for (size_t i = 0; i < set.ninputs; i++) {
		klass[i] = METRIC_CLASS_ANY;
		counter[i] = METRIC_CTR_NONE;
		val[i] = value;
	}
	metric_set_group_inputs(&set, klass, counter, NULL, 0);
	fprintf(stderr, "resolved in %.3f s\n",
		(double)(now_ns() - start) / 1e9);
	res = xcalloc(set.n + 1, sizeof(*res));
	in.value = val;
	in.duration_s = 1;
	metric_set_eval(&set, &in, res);
	printf("metrics: %zu inputs: %zu groups: %zu\n", set.n, set.ninputs,
	       set.ngroups);
	if (set.n && isnan(res[set.n - 1].value))
		printf("%s none: %s\n", set.m[set.n - 1].def.name,
		       res[set.n - 1].why);
	else if (set.n)
		printf("%s %.6g\n", set.m[set.n - 1].def.name,
		       res[set.n - 1].value);
	free(res);
	free(val);
	free(klass);
	free(counter);
	metric_set_free(&set);
	return 0;
}
