/* SPDX-License-Identifier: MIT */
/*
 * Test command for the rows of --per-socket and the like: synthetic
 * readings of every counter slot, added up by the session's own code
 * over the units of a fixture tree's topology.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpumap.h"
#include "base/topology.h"
#include "base/util.h"
#include "cli/metrics_cli.h"
#include "cli/options.h"
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
 * A session for cfg over synthetic readings: each CPU counts 1000 *
 * (cpu + 1) + the event's index on every counter it has. Returns the
 * number of rows; free with count_rows_free.
 */
static size_t count_rows(struct session *s, const struct pstat_session_cfg *cfg)
{
	const struct pstat_evlist *evl = cfg->evl;
	struct pstat_reading *rd;
	size_t n;

	session_setup(s, cfg);
	s->ctr.evl = evl;
	s->ctr.cpus = s->cpus;
	s->ctr.ncpus = s->ncpus;
	s->ctr.tids = s->tids;
	s->ctr.nthreads = s->ntids;
	s->ctr.state = xcalloc(evl->n + 1, sizeof(*s->ctr.state));
	s->ctr.err = xcalloc(evl->n + 1, sizeof(*s->ctr.err));
	s->ctr.flags = xcalloc(evl->n + 1, sizeof(*s->ctr.flags));
	rd = xcalloc(s->nslots + 1, sizeof(*rd));
	for (size_t e = 0; e < evl->n; e++)
		for (size_t c = 0; c < s->ncpus; c++)
			if (counted_on(&evl->ev[e], s->cpus[c]))
				rd[counter_slot(&s->ctr, e, c, 0)] =
					(struct pstat_reading){
						1000 * (uint64_t)(s->cpus[c] + 1) + e,
						1000000, 1000000 };
	n = session_build_rows(s, rd, 1000000000);
	free(rd);
	return n;
}

static void count_rows_free(struct session *s)
{
	free(s->ctr.state);
	free(s->ctr.err);
	free(s->ctr.flags);
	session_free(s);
}

/* The unit of a row or metric value: its CPU (-A), else its unit's name. */
static const char *unit_name(const struct pstat_aggr_id *aggr, int cpu,
			     char *buf, size_t len)
{
	if (!aggr) {
		snprintf(buf, len, "%d", cpu);
		return buf;
	}
	return topo_aggr_name(aggr->mode, aggr, buf, len);
}

/*
 * The report of session s's n rows through the printer of how: "table",
 * "csv", "table-metric-only" or "csv-metric-only".
 */
static int print_rows(const struct session *s, size_t n, const char *how)
{
	struct pstat_print_cfg pc = { 0 };
	struct pstat_report rep = { 0 };
	struct pstat_printer *p;
	int r;

	pc.format = !strncmp(how, "csv", 3) ? FORMAT_CSV : FORMAT_TABLE;
	pc.metric_only = strstr(how, "metric-only") != NULL;
	rep.target = TARGET_SYSTEM;
	rep.system_wide = 1;
	rep.aggr = s->nunits ? s->cfg->aggr : AGGR_NONE;
	rep.rows = s->rows;
	rep.nrows = n;
	rep.metrics = s->met.v;
	rep.nmetrics = s->met.nv;
	rep.runs = 1;
	rep.elapsed_ns = 1000000000;
	p = printer_new(&pc, stdout);
	r = printer_summary(p, &rep);
	printer_free(p);
	return r ? 1 : 0;
}

/*
 * aggr TREE MODE[=LEVEL][:FORMAT] EVENTS [METRIC...]: -a on every CPU of
 * TREE (cpu=LIST: -C LIST), with each METRIC as --metric gives it,
 * counted as count_rows does and added up by MODE (cpu: -A); one line
 * per row, "UNIT CPUS EVENT COUNT"
 * ("CPU EVENT COUNT" for cpu), then one per metric value, "UNIT CPUS
 * NAME VALUE" ("CPU NAME VALUE"; VALUE "none" when it has none). With
 * FORMAT, the report as print_rows prints it instead.
 */
static int system_rows(int argc, char **argv, struct pstat_encode_ctx *ctx,
		       struct pstat_evlist *evl, const struct pstat_topo *topo,
		       enum pstat_aggr_mode mode, int level, const char *list,
		       const char *how)
{
	struct pstat_opts o = { 0 };
	struct metrics_cli mc = { 0 };
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_error err = { "", -1 };
	struct session s;
	int *cpus = NULL;
	size_t n, ncpus = topo->ncpus;
	char name[64];

	if (list && cpumap_parse(list, &cpus, &ncpus, &err)) {
		printf("error: %s\n", err.msg);
		return 1;
	}
	if (!list) {
		cpus = xcalloc(ncpus, sizeof(*cpus));
		for (size_t i = 0; i < ncpus; i++)
			cpus[i] = topo->cpus[i].cpu;
	}
	o.all_cpus = !list;
	o.cpu_list = list;
	o.no_aggr = mode == AGGR_NONE;
	o.aggr = mode;
	o.metric_defs = argv + 4;
	o.nmetric_defs = (size_t)argc - 4;
	if (metrics_cli_build(&mc, &o, ctx, argv[1], evl)) {
		free(cpus);
		return 1;
	}
	cfg.evl = evl;
	cfg.cpus = cpus;
	cfg.ncpus = ncpus;
	cfg.cpu_subset = list != NULL;
	cfg.kind = TARGET_SYSTEM;
	cfg.no_aggr = mode == AGGR_NONE;
	cfg.aggr = mode;
	cfg.topo = topo;
	cfg.aggr_cache_level = level;
	if (mc.active) {
		cfg.metrics = &mc.set;
		cfg.metric_input_row = mc.input_row;
		cfg.metric_consts = &mc.lib.consts;
	}
	n = count_rows(&s, &cfg);
	if (how) {
		int r = print_rows(&s, n, how);

		count_rows_free(&s);
		metrics_cli_free(&mc);
		free(cpus);
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pstat_row *r = &s.rows[i];

		printf("%s ", unit_name(r->aggr, r->cpu, name, sizeof(name)));
		if (r->aggr)
			printf("%d ", r->aggr_nr);
		printf("%s %" PRIu64 "\n", r->event, r->raw);
	}
	for (size_t i = 0; i < s.met.nv; i++) {
		const struct pstat_metric_value *v = &s.met.v[i];

		printf("%s ", unit_name(v->aggr, v->cpu, name, sizeof(name)));
		if (v->aggr)
			printf("%d ", v->aggr_nr);
		printf("%s ", v->about->name);
		if (isnan(v->value))
			printf("none\n");
		else
			printf("%.9g\n", v->value);
	}
	count_rows_free(&s);
	metrics_cli_free(&mc);
	free(cpus);
	return 0;
}

/* aggr TREE task EVENTS (task_rows) or TREE MODE EVENTS... (system_rows) */
int t_aggr(int argc, char **argv)
{
	struct pstat_evtree tree = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_topo *topo = NULL;
	char *eq, *how;
	int level = 0, r = 1;
	size_t m;

	if (argc < 4)
		return 2;
	how = strchr(argv[2], ':');
	if (how)
		*how++ = '\0';
	eq = strchr(argv[2], '=');
	if (eq) {
		*eq = '\0';
		level = atoi(eq + 2);
	}
	for (m = 0; m < ARRAY_SIZE(modes); m++)
		if (!strcmp(modes[m].name, argv[2]))
			break;
	if (m == ARRAY_SIZE(modes) && strcmp(argv[2], "task") &&
	    strcmp(argv[2], "cpu"))
		return 2;
	ctx.pmus = pmus_new(argv[1]);
	if (evspec_parse(argv[3], &tree, &err) ||
	    encode_evlist(&tree, &ctx, &evl, &err)) {
		printf("error: %s\n", err.msg);
		goto out;
	}
	if (!strcmp(argv[2], "task")) {
		r = task_rows(&evl);
		goto out;
	}
	if (topo_load(argv[1], &topo, &err)) {
		printf("error: %s\n", err.msg);
		goto out;
	}
	r = system_rows(argc, argv, &ctx, &evl, topo,
			m < ARRAY_SIZE(modes) ? modes[m].mode : AGGR_NONE,
			level, m < ARRAY_SIZE(modes) || !eq ? NULL : eq + 1, how);
out:
	evlist_free(&evl);
	evspec_tree_free(&tree);
	pmus_free(ctx.pmus);
	topo_free(topo);
	return r;
}
