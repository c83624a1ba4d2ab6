/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "base/util.h"
#include "cli/dry_run.h"
#include "report/print.h"

static int dry_run_metrics(FILE *out, const struct pstat_metric_set *set)
{
	struct pstat_dryrun_metric *m = xcalloc(set->n + 1, sizeof(*m));
	int r;

	for (size_t i = 0; i < set->n; i++) {
		const struct pstat_metric_def *d = &set->m[i].def;

		m[i] = (struct pstat_dryrun_metric){ d->name, d->text, d->unit,
						     set->m[i].shown };
	}
	r = print_dryrun_metrics(out, m, set->n);
	free(m);
	return r;
}

int dry_run_print(FILE *out, const struct pstat_evlist *evl,
		  const struct pstat_metric_set *set, int json)
{
	struct pstat_dryrun_event *d = xcalloc(evl->n + 1, sizeof(*d));
	int r;

	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_event *ev = &evl->ev[i];

		d[i].name = ev->name;
		d[i].pmu = ev->pmu;
		d[i].resolver = ev->resolver;
		d[i].group = ev->group;
		d[i].group_name = ev->group_name;
		d[i].leader = ev->leader == (int)i;
		d[i].weak = ev->weak;
		d[i].scale = ev->scale;
		d[i].unit = ev->unit;
		d[i].cpus = ev->cpus;
		d[i].ncpus = ev->ncpus;
		d[i].core_cpus = ev->core_cpus;
		d[i].ncore_cpus = ev->ncore_cpus;
		d[i].attr = &ev->attr;
		d[i].cgroup = ev->cgroup;
	}
	r = json ? print_json_dryrun(out, d, evl->n) :
		   print_dryrun_text(out, d, evl->n);
	free(d);
	if (!r && !json && set)
		r = dry_run_metrics(out, set);
	return r;
}
