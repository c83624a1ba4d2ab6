/* SPDX-License-Identifier: MIT */
/*
 * The vendor's metrics over uncore events (Intel's DRAM bandwidth, CHA
 * latencies): each names its events on the kernel's uncore PMUs by the
 * name they share (uncore_imc@...@ sums every uncore_imc_N box, as
 * perf's prefix match does). Where the machine has no such PMU (a kernel
 * without the driver, a virtual machine, a tree without it), the metric
 * cannot count: it is taken out of the library and said to be left out,
 * with the PMU it lacks, as the generator's own leftovers are, and so is
 * every metric that refers to it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/metric_lib.h"
#include "events/pmu.h"

static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * The first uncore PMU name of def ("uncore_imc" of
 * "uncore_imc@event=0x4@") that pmus does not match, into buf; 0 when
 * it has them all.
 */
static int missing_pmu(struct pstat_pmus *pmus, const char *def, char *buf,
		       size_t len)
{
	for (const char *p = strstr(def, "uncore_"); p;
	     p = strstr(p + 1, "uncore_")) {
		const struct pstat_pmu **found = NULL;
		size_t n = 0, k;

		if (p > def && word_char(p[-1]))
			continue;
		while (word_char(p[n]))
			n++;
		if (p[n] != '@')
			continue;
		snprintf(buf, len, "%.*s", (int)n, p);
		k = pmus_match(pmus, buf, &found);
		free(found);
		if (!k)
			return 1;
	}
	return 0;
}

/* Whether def names the metric called name (a whole word). */
static int refers_to(const char *def, const char *name)
{
	size_t n = strlen(name);
	const char *body = def + strcspn(def, "=");

	for (const char *p = strstr(body, name); p; p = strstr(p + 1, name))
		if (!word_char(p[-1]) && !word_char(p[n]))
			return 1;
	return 0;
}

static void take_out(struct pstat_metric_lib *lib, size_t i, char *why)
{
	struct metric_left_out *g;
	char name[96];

	xgrow((void **)&lib->gone, &lib->gone_alloc, lib->ngone + 1,
	      sizeof(*lib->gone));
	g = &lib->gone[lib->ngone++];
	metric_lib_entry_name(lib->e[i], name, sizeof(name));
	g->name = xstrdup(name);
	g->groups = metric_vendor_groups(lib, lib->e[i]);
	g->why = why;
	memmove(&lib->e[i], &lib->e[i + 1], (lib->n - i - 1) * sizeof(*lib->e));
	lib->n--;
	lib->nvendor_e--;
}

void metric_uncore_prune(struct pstat_metric_lib *lib, struct pstat_pmus *pmus)
{
	char pmu[64];
	size_t done;

	for (size_t i = 0; i < lib->nvendor_e;) {
		if (!missing_pmu(pmus, lib->e[i]->def, pmu, sizeof(pmu))) {
			i++;
			continue;
		}
		take_out(lib, i, xasprintf(
			"its uncore events count on the kernel's %s PMUs, which this machine does not have",
			pmu));
	}
	/* and the metrics over those, until none is left */
	for (done = 0; done < lib->ngone; done++) {
		for (size_t i = 0; i < lib->nvendor_e;) {
			if (!refers_to(lib->e[i]->def, lib->gone[done].name)) {
				i++;
				continue;
			}
			take_out(lib, i, xasprintf("refers to %s, which %s",
						   lib->gone[done].name,
						   "is left out here"));
		}
	}
}

void metric_uncore_free(struct pstat_metric_lib *lib)
{
	for (size_t i = 0; i < lib->ngone; i++) {
		free((char *)lib->gone[i].name);
		free((char *)lib->gone[i].why);
	}
	free(lib->gone);
	lib->gone = NULL;
	lib->ngone = lib->gone_alloc = 0;
}
