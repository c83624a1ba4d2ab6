/* SPDX-License-Identifier: MIT */
/*
 * pstat-test default-out FORMAT TREE [EVENT=VALUE]...
 *
 * A run of perf's default events on the fixture tree TREE, as pstat
 * builds it with no -e and no metric (perf's Default group of the
 * vendor's data added where it has one), over synthetic counts: each
 * counter ran its whole time (1 ms) and counted VALUE when an EVENT=
 * names its row's event (VALUE "-": it never ran), else 1000; the
 * report through the FORMAT
 * printer (table, csv, json; table-interval: as one interval of -I). EVENT is written as the row names it
 * ("cpu/slots/", "cpu/event=0xad,umask=0x10/", "task-clock").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/metrics_cli.h"
#include "cli/options.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "report/print.h"
#include "run/session_priv.h"
#include "test-tool.h"

/* perf stat's default events, as main.c's */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,"
	"instructions,branches,branch-misses";

/*
 * The reading argv[first..argc) gives event name: its count, or none
 * ("-": the counter never ran, as one the PMU cannot schedule); else
 * 1000. Every counter was enabled for 1 ms.
 */
static struct pstat_reading reading_of(int argc, char **argv, int first,
				       const char *name)
{
	size_t n = strlen(name);

	for (int i = first; i < argc; i++) {
		if (strncmp(argv[i], name, n) || argv[i][n] != '=')
			continue;
		if (!strcmp(argv[i] + n + 1, "-"))
			return (struct pstat_reading){ 0, 1000000, 0 };
		return (struct pstat_reading){
			strtoull(argv[i] + n + 1, NULL, 0), 1000000, 1000000 };
	}
	return (struct pstat_reading){ 1000, 1000000, 1000000 };
}

static int report(const struct session *s, size_t n, const char *format,
		  size_t perf_default_rows)
{
	struct pstat_print_cfg pc = { 0 };
	struct pstat_report rep = { 0 };
	static char workload[] = "./workload";
	static char *argv[] = { workload, NULL };
	struct pstat_printer *p;
	int r;

	pc.format = !strcmp(format, "csv") ? FORMAT_CSV :
		    !strcmp(format, "json") ? FORMAT_JSON : FORMAT_TABLE;
	pc.no_interval_summary = 1;
	pc.csv_sep = ",";
	rep.argv = argv;
	rep.target = TARGET_COMMAND;
	rep.rows = s->rows;
	rep.nrows = n;
	rep.metrics = s->met.v;
	rep.nmetrics = s->met.nv;
	rep.perf_default_rows = perf_default_rows;
	rep.runs = 1;
	rep.elapsed_ns = 1000000;
	p = printer_new(&pc, stdout);
	if (!strcmp(format, "table-interval")) {
		/* one interval of 1 ms, as -I 1 prints it */
		rep.is_interval = 1;
		rep.interval_index = 1;
		rep.interval_end_ns = 1000000;
		r = printer_interval(p, &rep);
	} else {
		r = printer_summary(p, &rep);
	}
	printer_free(p);
	return r ? 1 : 0;
}

int t_default_out(int argc, char **argv)
{
	struct pstat_evtree tree = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_opts o = { 0 };
	struct metrics_cli mc = { 0 };
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_reading *rd;
	struct session s;
	size_t n;
	int r = 1;

	if (argc < 3)
		return 2;
	ctx.pmus = pmus_new(argv[2]);
	if (evspec_parse(default_events, &tree, &err) ||
	    encode_evlist(&tree, &ctx, &evl, &err)) {
		printf("error: %s\n", err.msg);
		goto out;
	}
	if (metrics_cli_build(&mc, &o, &ctx, argv[2], &evl))
		goto out;
	cfg.evl = &evl;
	cfg.kind = TARGET_COMMAND;
	if (mc.active) {
		cfg.metrics = &mc.set;
		cfg.metric_input_row = mc.input_row;
		cfg.metric_consts = &mc.lib.consts;
		cfg.perf_default_rows = mc.perf_default_rows;
	}
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
		rd[counter_slot(&s.ctr, e, 0, 0)] =
			reading_of(argc, argv, 3, evl.ev[e].name);
	n = session_build_rows(&s, rd, 1000000);
	r = report(&s, n, argv[1], mc.perf_default_rows);
	free(rd);
	free(s.ctr.state);
	free(s.ctr.err);
	free(s.ctr.flags);
	session_free(&s);
out:
	metrics_cli_free(&mc);
	evlist_free(&evl);
	evspec_tree_free(&tree);
	pmus_free(ctx.pmus);
	return r;
}
