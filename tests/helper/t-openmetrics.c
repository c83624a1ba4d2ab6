/* SPDX-License-Identifier: MIT */
/*
 * pstat-test accept HEADER: see t_accept below.
 *
 * pstat-test totals SEED N: N intervals of synthetic readings of three
 * counters that multiplexing keeps off for a random part of each
 * interval (never, partly, wholly), the third one reopened half way (its
 * reading starts again from 0), through the session's arithmetic
 * (stats_reading_sub, stats_scale) into report/totals. One line per
 * interval and counter: "I R total=T ena=E run=R naive=V", naive being
 * the whole run's readings scaled at once, which may fall.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/serve_http.h"
#include "report/print.h"
#include "report/print_openmetrics_priv.h"
#include "report/stats.h"
#include "report/totals.h"
#include "test-tool.h"

/* xorshift64*: the same sequence everywhere for one seed */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

#define NCTR 3

int t_totals(int argc, char **argv)
{
	struct pstat_reading cur[NCTR] = { 0 }, prev[NCTR] = { 0 };
	struct pstat_reading base[NCTR] = { 0 };
	static const char *const names[NCTR] = { "cycles", "instructions",
						 "reopened" };
	struct pstat_totals *t = totals_new();
	uint64_t seed, n;

	if (argc != 3 || parse_u64(argv[1], UINT64_MAX, &seed) ||
	    parse_u64(argv[2], 100000, &n)) {
		fprintf(stderr, "usage: pstat-test totals SEED N\n");
		return 2;
	}
	seed = seed ? seed : 1;
	for (uint64_t i = 1; i <= n; i++) {
		struct pstat_row rows[NCTR];
		const struct pstat_row *tr;
		size_t nt;

		for (size_t c = 0; c < NCTR; c++) {
			uint64_t ena = 100000000, share = rng_next(&seed) % 5;
			/* off, a quarter, half, three quarters, all of it */
			uint64_t run = ena * share / 4;
			struct pstat_reading d;
			uint64_t scaled;
			double pct;
			enum pstat_scale_status st;

			prev[c] = cur[c];
			if (c == 2 && i == n / 2) {
				/* reopened: the kernel's counts restart */
				base[c] = cur[c];
				cur[c] = (struct pstat_reading){ 0, 0, 0 };
				prev[c] = cur[c];
			}
			cur[c].ena += ena;
			cur[c].run += run;
			cur[c].val += run / 1000 * (1000 + rng_next(&seed) % 3000);
			d = stats_reading_sub(&cur[c], &prev[c]);
			st = stats_scale(&d, &scaled, &pct);
			memset(&rows[c], 0, sizeof(rows[c]));
			rows[c].event = names[c];
			rows[c].pmu = "cpu";
			rows[c].group = (int)c;
			rows[c].cpu = -1;
			rows[c].unit = "";
			rows[c].raw = d.val;
			rows[c].ena = d.ena;
			rows[c].run = d.run;
			rows[c].running_pct = pct;
			rows[c].status = st == SCALE_NOT_COUNTED ?
				PSTAT_NOT_COUNTED : st == SCALE_MULTIPLEXED ?
				PSTAT_MULTIPLEXED : PSTAT_COUNTED;
			rows[c].value = (double)scaled;
		}
		totals_add(t, rows, NCTR);
		tr = totals_rows(t, &nt);
		for (size_t c = 0; c < nt; c++) {
			struct pstat_reading all = cur[c];
			uint64_t naive;

			stats_reading_add(&all, &base[c]);
			stats_scale(&all, &naive, NULL);
			printf("%" PRIu64 " %zu total=%.0f ena=%" PRIu64
			       " run=%" PRIu64 " naive=%" PRIu64 "\n",
			       i, c, tr[c].value, tr[c].ena, tr[c].run, naive);
		}
	}
	totals_free(t);
	return 0;
}

/*
 * pstat-test accept HEADER: which format pstat serve answers a request
 * with this Accept header ("" for none): "openmetrics" or "text".
 */
int t_accept(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pstat-test accept HEADER\n");
		return 2;
	}
	puts(serve_wants_openmetrics(*argv[1] ? argv[1] : NULL) ?
		     "openmetrics" : "text");
	return 0;
}

/*
 * pstat-test accept-encoding HEADER: whether pstat serve gzips its answer
 * to a request with this Accept-Encoding header ("" for none): "gzip" or
 * "identity".
 */
int t_accept_encoding(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pstat-test accept-encoding HEADER\n");
		return 2;
	}
	puts(serve_wants_gzip(*argv[1] ? argv[1] : NULL) ? "gzip" : "identity");
	return 0;
}

/*
 * pstat-test unescape PATH: the path pstat serve compares, its bytes
 * written out as str_escape does.
 */
int t_unescape(int argc, char **argv)
{
	char *e;

	if (argc != 2) {
		fprintf(stderr, "usage: pstat-test unescape PATH\n");
		return 2;
	}
	serve_unescape(argv[1]);
	e = str_escape(argv[1]);
	puts(e);
	free(e);
	return 0;
}

/*
 * pstat-test om-metrics FORMAT CASE [metric-only]: metric values through
 * the OpenMetrics printer (FORMAT openmetrics or prometheus), with
 * --metric-only when asked.
 *   summary   one report: a percentage, a value of no unit, one with no
 *             value (NAN), two infinities, a name to escape, a repeat
 *   percpu    -A: each CPU's value, one CPU without
 *   aggr      --per-core units and --per-thread threads
 *   interval  three intervals of one counter and one metric: the counter
 *             as its running total, the metric as each interval's value
 *             (1.5, none, 0.25)
 */
#define OM_ROW(c, v) { .event = "cycles", .pmu = "cpu", .cpu = (c), \
	.status = PSTAT_COUNTED, .value = (v), .raw = (uint64_t)(v), \
	.unit = "", .ena = 1000000, .run = 1000000, .running_pct = 100 }
#define OM_ABOUT(n, u) (&(const struct pstat_metric_about){ .name = (n), \
	.unit = (u), .higher_is_better = -1 })
#define OM_MV(n, u, v, c) { .about = OM_ABOUT(n, u), .value = (v), \
	.threshold = -1, .cpu = (c) }

static const struct pstat_row om_rows[] = { OM_ROW(-1, 2000) };
static const struct pstat_row om_rows_percpu[] = { OM_ROW(0, 1000),
						   OM_ROW(1, 3000) };

static int om_metrics_case(struct pstat_printer *p, const char *name)
{
	struct pstat_metric_value summary[] = {
		OM_MV("frontend_bound", "%", 22.5, -1),
		OM_MV("ipc", "", 1.25, -1),
		OM_MV("zero", "", NAN, -1),
		OM_MV("up", "", INFINITY, -1),
		OM_MV("down", "", -INFINITY, -1),
		OM_MV("quo\"te\\", "insn/cycle", 3, -1),
		OM_MV("ipc", "", 9, -1),
	};
	struct pstat_metric_value percpu[] = {
		OM_MV("ipc", "", 0.5, 0),
		OM_MV("ipc", "", NAN, 1),
		OM_MV("ipc", "", 2, 2),
	};
	static const struct pstat_aggr_id core0 = { AGGR_CORE, 0, 0, 0, 0, 0,
						    0, 0, -1 };
	static const struct pstat_aggr_id core1 = { AGGR_CORE, 0, 0, 0, 0, 0,
						    1, 0, -1 };
	struct pstat_metric_value aggr[] = {
		OM_MV("retiring", "%", 40, -1),
		OM_MV("retiring", "%", 60, -1),
		OM_MV("ipc", "", 1, -1),
	};
	static const double each[] = { 1.5, NAN, 0.25 };
	struct pstat_report r = { .runs = 1 };

	r.rows = om_rows;
	r.nrows = 1;
	if (!strcmp(name, "summary")) {
		r.metrics = summary;
		r.nmetrics = ARRAY_SIZE(summary);
	} else if (!strcmp(name, "percpu")) {
		r.rows = om_rows_percpu;
		r.nrows = ARRAY_SIZE(om_rows_percpu);
		r.metrics = percpu;
		r.nmetrics = ARRAY_SIZE(percpu);
	} else if (!strcmp(name, "aggr")) {
		aggr[0].aggr = &core0;
		aggr[1].aggr = &core1;
		aggr[2].thread = "app-42";
		r.metrics = aggr;
		r.nmetrics = ARRAY_SIZE(aggr);
	} else if (!strcmp(name, "interval")) {
		struct pstat_metric_value v = OM_MV("ipc", "", 0, -1);

		r.is_interval = 1;
		r.metrics = &v;
		r.nmetrics = 1;
		for (size_t i = 0; i < ARRAY_SIZE(each); i++) {
			r.interval_index = i + 1;
			v.value = each[i];
			if (printer_interval(p, &r))
				return -EIO;
		}
		r.is_interval = 0;
		return printer_summary(p, &r);
	} else {
		fprintf(stderr, "pstat-test: om-metrics: no case '%s'\n", name);
		return -EINVAL;
	}
	return printer_summary(p, &r);
}

int t_om_metrics(int argc, char **argv)
{
	struct pstat_print_cfg cfg = { .format = FORMAT_OPENMETRICS };
	struct pstat_printer *p;
	int r;

	if ((argc != 3 && argc != 4) ||
	    (strcmp(argv[1], "openmetrics") && strcmp(argv[1], "prometheus")) ||
	    (argc == 4 && strcmp(argv[3], "metric-only"))) {
		fprintf(stderr, "usage: pstat-test om-metrics openmetrics|prometheus CASE [metric-only]\n");
		return 2;
	}
	cfg.om_dialect = argv[1][0] == 'p' ? OM_PROMETHEUS : OM_OPENMETRICS;
	cfg.metric_only = argc == 4;
	p = printer_new(&cfg, stdout);
	r = om_metrics_case(p, argv[2]);
	printer_free(p);
	return r == -EINVAL ? 2 : r ? 1 : 0;
}

/*
 * pstat-test om-units UNIT...: the family each metric unit names, and
 * what a value is multiplied by: "'%' pstat_metric_ratio x0.01".
 */
int t_om_units(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct om_family f;

		om_metric_family(&f, argv[i]);
		printf("'%s' %s x%.10g\n", argv[i], f.name, f.mul / f.div);
		om_family_clear(&f);
	}
	return 0;
}
