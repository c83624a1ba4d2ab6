/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a metrics file (--metrics-file), as pstat takes it:
 * its lines read (metric_set_add_text), the names resolved against each
 * other and against the built-in library of the Skylake fixture tree
 * (FUZZ_FIXTURES, set by the Makefile),
 * split per core PMU when the first input byte asks for it, the inputs
 * grouped, and every metric evaluated twice: with every input 1, and
 * with none counted. The input is the file's text.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric.h"
#include "events/metric_lib.h"
#include "events/pmu.h"

#ifndef FUZZ_FIXTURES
#error "build with -DFUZZ_FIXTURES='\"/path/to/tests/fixtures\"'"
#endif

#define TREE FUZZ_FIXTURES "/sysfs/intel-skylake"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The library, loaded once: it reads the tree. */
static struct pstat_pmus *pmus;
static struct pstat_metric_lib lib;

/* Split every input across two made-up core PMUs, as on a hybrid CPU. */
static void split(struct pstat_metric_set *set)
{
	static const char *const pmus[] = { "cpu_core", "cpu_atom" };
	size_t n = set->ninputs; /* the split set has others */
	char **spec = xcalloc(2 * n + 1, sizeof(*spec));
	struct pstat_error err = { "", -1 };

	for (size_t i = 0; i < n; i++) {
		spec[2 * i] = xasprintf("cpu_core/%s/", set->inputs[i]);
		spec[2 * i + 1] = xasprintf("cpu_atom/%s/", set->inputs[i]);
	}
	metric_set_split_pmus(set, pmus, 2, spec, &err);
	for (size_t i = 0; i < 2 * n; i++)
		free(spec[i]);
	free(spec);
}

static void evaluate(const struct pstat_metric_set *set, double v)
{
	struct pstat_metric_result *res = xcalloc(set->n + 1, sizeof(*res));
	double *val = xcalloc(set->ninputs + 1, sizeof(*val));
	struct pstat_metric_inputs in = { 0 };

	for (size_t i = 0; i < set->ninputs; i++)
		val[i] = v;
	in.value = val;
	in.duration_s = 1;
	metric_set_eval(set, &in, res);
	for (size_t i = 0; i < set->n; i++)
		if (isnan(res[i].value) && !res[i].why)
			abort(); /* no value must say why */
	free(val);
	free(res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pstat_metric_set set = { 0 };
	struct pstat_error err = { "", -1 };
	char *text = xmalloc(size + 1);
	long *klass;
	int *counter;

	if (!pmus) {
		pmus = pmus_new(TREE);
		metric_lib_load(&lib, pmus, TREE);
	}
	memcpy(text, data, size);
	text[size] = '\0';
	if (metric_set_add_text(&set, "fuzz", text, size, &err) ||
	    metric_set_resolve(&set, &lib, &err))
		goto out;
	if (size && (data[0] & 1))
		split(&set);
	klass = xcalloc(set.ninputs + 1, sizeof(*klass));
	counter = xcalloc(set.ninputs + 1, sizeof(*counter));
	for (size_t i = 0; i < set.ninputs; i++) {
		klass[i] = (long)(i % 3) - 2; /* ANY, NONE, PMU 0 */
		counter[i] = METRIC_CTR_GP;
	}
	metric_set_group_inputs(&set, klass, counter, NULL, 0);
	free(klass);
	free(counter);
	evaluate(&set, 1);
	evaluate(&set, NAN);
out:
	metric_set_free(&set);
	free(text);
	return 0;
}
