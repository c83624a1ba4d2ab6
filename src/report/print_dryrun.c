/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>

#include "base/cpumap.h"
#include "report/print.h"

static void dryrun_event(FILE *out, const struct pstat_dryrun_event *ev)
{
	const struct perf_event_attr *a = ev->attr;

	fprintf(out, "%s: resolver %s, pmu %s, group %d%s%s%s\n", ev->name,
		ev->resolver, ev->pmu, ev->group, ev->group_name ? " " : "",
		ev->group_name ? ev->group_name : "",
		ev->leader ? ev->weak ? " (leader, weak)" : " (leader)" :
		ev->weak   ? " (weak)" :
			     "");
	fprintf(out, "  type %u config %#llx config1 %#llx config2 %#llx\n",
		a->type, (unsigned long long)a->config,
		(unsigned long long)a->config1, (unsigned long long)a->config2);
	fprintf(out, "  exclude_user %d exclude_kernel %d exclude_hv %d exclude_host %d exclude_guest %d exclude_idle %d pinned %d exclusive %d precise_ip %d\n",
		a->exclude_user, a->exclude_kernel, a->exclude_hv,
		a->exclude_host, a->exclude_guest, a->exclude_idle, a->pinned,
		a->exclusive, a->precise_ip);
	if (a->type == PERF_TYPE_BREAKPOINT)
		fprintf(out, "  bp_type %u bp_addr %#llx bp_len %llu\n",
			a->bp_type, (unsigned long long)a->bp_addr,
			(unsigned long long)a->bp_len);
	if (ev->scale != 1.0 || ev->unit)
		fprintf(out, "  scale %g unit %s\n", ev->scale,
			ev->unit ? ev->unit : "");
	if (ev->cpus) {
		char cpus[256];

		fprintf(out, "  cpus %s (the PMU's, system-wide)\n",
			cpumap_format(ev->cpus, ev->ncpus, cpus, sizeof(cpus)));
	}
	if (ev->cgroup)
		fprintf(out, "  cgroup %s\n", ev->cgroup);
	if (ev->core_cpus) {
		char cpus[256];

		fprintf(out, "  cpus %s (its core PMU's)\n",
			cpumap_format(ev->core_cpus, ev->ncore_cpus, cpus,
				      sizeof(cpus)));
	}
}

int print_dryrun_text(FILE *out, const struct pstat_dryrun_event *ev,
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		dryrun_event(out, &ev[i]);
	return fflush(out) == EOF ? -errno : 0;
}

int print_dryrun_metrics(FILE *out, const struct pstat_dryrun_metric *m,
			 size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "metric %s = %s%s%s%s\n", m[i].name, m[i].expr,
			m[i].unit && *m[i].unit ? "  in " : "",
			m[i].unit ? m[i].unit : "",
			m[i].shown ? "" : "  (referred to)");
	return fflush(out) == EOF ? -errno : 0;
}
