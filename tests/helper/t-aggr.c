/* SPDX-License-Identifier: MIT */
/*
 * Test command for the rows of --per-socket and the like: synthetic
 * readings of every counter slot, added up by the session's own code
 * over the units of a fixture tree's topology.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpumap.h"
#include "base/topology.h"
#include "base/util.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "report/print.h"
#include "run/session_priv.h"
#include "test-tool.h"

static const struct {
	const char *name;
	enum pstat_aggr_mode mode;
} modes[] = {
	{ "socket", AGGR_SOCKET }, { "die", AGGR_DIE },
	{ "cluster", AGGR_CLUSTER }, { "cache", AGGR_CACHE },
	{ "core", AGGR_CORE }, { "node", AGGR_NODE },
};

/* Whether the kernel would have a counter of ev on cpu (counter.c). */
static int counted_on(const struct pstat_event *ev, int cpu)
{
	if (ev->cpus)
		return cpumap_has(ev->cpus, ev->ncpus, cpu);
	if (ev->core_cpus)
		return cpumap_has(ev->core_cpus, ev->ncore_cpus, cpu);
	return 1;
}

/*
 * aggr TREE task EVENTS: counting a command, every counter ran a quarter
 * of the time it was enabled and counted 1000; one line per row, "EVENT
 * STATUS VALUE [NOTE]": a core PMU's event of a hybrid CPU is not scaled.
 */
static int task_rows(struct pstat_evlist *evl)
{
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_reading *rd;
	struct session s;
	size_t n;

	cfg.evl = evl;
	cfg.kind = TARGET_COMMAND;
	session_setup(&s, &cfg);
	s.ctr.evl = evl;
	s.ctr.cpus = s.cpus;
	s.ctr.ncpus = s.ncpus;
	s.ctr.tids = s.tids;
	s.ctr.nthreads = s.ntids;
	s.ctr.state = xcalloc(evl->n + 1, sizeof(*s.ctr.state));
	s.ctr.err = xcalloc(evl->n + 1, sizeof(*s.ctr.err));
	s.ctr.flags = xcalloc(evl->n + 1, sizeof(*s.ctr.flags));
	rd = xcalloc(s.nslots + 1, sizeof(*rd));
	for (size_t e = 0; e < evl->n; e++)
		rd[counter_slot(&s.ctr, e, 0, 0)] =
			(struct pstat_reading){ 1000, 1000000, 250000 };
	n = session_build_rows(&s, rd, 1000000000);
	for (size_t i = 0; i < n; i++)
		printf("%s %s %.0f%s%s\n", s.rows[i].event,
		       print_status_name(s.rows[i].status), s.rows[i].value,
		       s.rows[i].note ? " " : "",
		       s.rows[i].note ? s.rows[i].note : "");
	free(rd);
	free(s.ctr.state);
	free(s.ctr.err);
	free(s.ctr.flags);
	session_free(&s);
	return 0;
}

/*
 * aggr TREE MODE[=LEVEL] EVENTS: each CPU of TREE counts 1000 * (cpu + 1)
 * + the event's index on every counter it has; one line per row, "UNIT
 * CPUS EVENT COUNT".
 */
int t_aggr(int argc, char **argv)
{
	struct pstat_evtree tree = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_reading *rd;
	struct pstat_topo *topo = NULL;
	struct session s;
	char *eq, name[64];
	int *cpus, level = 0, r = 1;
	size_t m, n;

	if (argc < 4)
		return 2;
	eq = strchr(argv[2], '=');
	if (eq) {
		*eq = '\0';
		level = atoi(eq + 2);
	}
	for (m = 0; m < ARRAY_SIZE(modes); m++)
		if (!strcmp(modes[m].name, argv[2]))
			break;
	if (m == ARRAY_SIZE(modes) && strcmp(argv[2], "task"))
		return 2;
	ctx.pmus = pmus_new(argv[1]);
	if (evspec_parse(argv[3], &tree, &err) ||
	    encode_evlist(&tree, &ctx, &evl, &err)) {
		printf("error: %s\n", err.msg);
		goto out;
	}
	if (m == ARRAY_SIZE(modes)) {
		r = task_rows(&evl);
		goto out;
	}
	if (topo_load(argv[1], &topo, &err)) {
		printf("error: %s\n", err.msg);
		goto out;
	}
	cpus = xcalloc(topo->ncpus, sizeof(*cpus));
	for (size_t i = 0; i < topo->ncpus; i++)
		cpus[i] = topo->cpus[i].cpu;
	cfg.evl = &evl;
	cfg.cpus = cpus;
	cfg.ncpus = topo->ncpus;
	cfg.kind = TARGET_SYSTEM;
	cfg.aggr = modes[m].mode;
	cfg.topo = topo;
	cfg.aggr_cache_level = level;
	session_setup(&s, &cfg);
	s.ctr.evl = &evl;
	s.ctr.cpus = s.cpus;
	s.ctr.ncpus = s.ncpus;
	s.ctr.tids = s.tids;
	s.ctr.nthreads = s.ntids;
	s.ctr.state = xcalloc(evl.n + 1, sizeof(*s.ctr.state));
	s.ctr.err = xcalloc(evl.n + 1, sizeof(*s.ctr.err));
	s.ctr.flags = xcalloc(evl.n + 1, sizeof(*s.ctr.flags));
	rd = xcalloc(s.nslots + 1, sizeof(*rd));
	for (size_t e = 0; e < evl.n; e++)
		for (size_t c = 0; c < s.ncpus; c++)
			if (counted_on(&evl.ev[e], s.cpus[c]))
				rd[counter_slot(&s.ctr, e, c, 0)] =
					(struct pstat_reading){
						1000 * (uint64_t)(s.cpus[c] + 1) + e,
						1000000, 1000000 };
	n = session_build_rows(&s, rd, 1000000000);
	for (size_t i = 0; i < n; i++)
		printf("%s %d %s %" PRIu64 "\n",
		       topo_aggr_name(s.rows[i].aggr->mode, s.rows[i].aggr,
				      name, sizeof(name)),
		       s.rows[i].aggr_nr, s.rows[i].event, s.rows[i].raw);
	free(rd);
	free(s.ctr.state);
	free(s.ctr.err);
	free(s.ctr.flags);
	session_free(&s);
	free(cpus);
	r = 0;
out:
	evlist_free(&evl);
	evspec_tree_free(&tree);
	pmus_free(ctx.pmus);
	topo_free(topo);
	return r;
}
