/* SPDX-License-Identifier: MIT */
/* Test command for the sysfs topology reader and aggregation units. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/topology.h"
#include "test-tool.h"

static const struct {
	const char *name;
	enum pstat_aggr_mode mode;
} modes[] = {
	{ "socket", AGGR_SOCKET }, { "die", AGGR_DIE },
	{ "cluster", AGGR_CLUSTER }, { "cache", AGGR_CACHE },
	{ "core", AGGR_CORE }, { "node", AGGR_NODE }, { "cpu", AGGR_CPU },
};

static void print_cpu(const struct pstat_topo_cpu *c)
{
	printf("cpu%d S%d D%d CLS%d C%d N%d threads %d", c->cpu, c->socket,
	       c->die, c->cluster, c->core, c->node, c->threads);
	for (int l = 1; l <= TOPO_MAX_CACHE_LEVEL; l++)
		if (c->cache[l] >= 0)
			printf(" L%d:%d", l, c->cache[l]);
	printf("\n");
}

/*
 * topo ROOT: the counts, then one line per online CPU.
 * topo ROOT MODE[=LEVEL]: each online CPU and perf's name of its unit.
 */
int t_topo(int argc, char **argv)
{
	struct pstat_topo *t;
	struct pstat_error err = { "", -1 };

	if (argc < 2)
		return 2;
	if (topo_load(argv[1], &t, &err)) {
		printf("error: %s\n", err.msg);
		return 1;
	}
	if (argc < 3) {
		printf("cpus %zu packages %zu dies %zu clusters %zu cores %zu nodes %zu smt %d cache L%d\n",
		       topo_num_cpus(t), topo_num_packages(t), topo_num_dies(t),
		       t->nclusters, topo_num_cores(t), t->nnodes,
		       topo_smt_on(t), t->max_cache_level);
		for (size_t i = 0; i < t->ncpus; i++)
			print_cpu(&t->cpus[i]);
	} else {
		char *name = argv[2], *eq = strchr(name, '=');
		int level = eq ? atoi(eq + 2) : 0;
		size_t m;

		if (eq)
			*eq = '\0';
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
			if (!strcmp(modes[m].name, name))
				break;
		if (m == sizeof(modes) / sizeof(modes[0])) {
			topo_free(t);
			return 2;
		}
		for (size_t i = 0; i < t->ncpus; i++) {
			struct pstat_aggr_id id;
			char buf[64];

			topo_aggr_id(t, t->cpus[i].cpu, modes[m].mode, level,
				     &id);
			printf("cpu%d %s\n", t->cpus[i].cpu,
			       topo_aggr_name(modes[m].mode, &id, buf,
					      sizeof(buf)));
		}
	}
	topo_free(t);
	return 0;
}
