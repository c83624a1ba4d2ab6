/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench --fail-on-regression`: every command against the first
 * through pstat compare's own reading of run documents and its
 * verdicts, with the wall time as one more entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/bench_cli.h"
#include "compare/compare.h"
#include "compare/print_compare.h"

/*
 * A run document of the bench as pstat compare reads it, with the wall
 * time as one more counter (so --threshold may name wall-time) and
 * without the default events the machine lacks.
 */
static int compare_input(const struct pstat_bench_cmd *c,
			 struct pstat_compare_run *run)
{
	struct pstat_error err = { "", -1 };
	const struct pstat_bench_row *w = &c->rows[BENCH_ROW_WALL];
	struct pstat_compare_counter *k;
	size_t j = 0;

	memset(run, 0, sizeof(*run));
	if (!c->doc || print_json_read_run(c->doc, strlen(c->doc), run, &err)) {
		msg_error("cannot read the results of '%s': %s", c->label,
			  c->doc ? err.msg : "no run was recorded");
		return -1;
	}
	run->label = xstrdup(c->label);
	for (size_t i = 0; i < run->ncounters; i++) {
		int hidden = 0;

		for (size_t r = BENCH_TIME_ROWS; r < c->nrows; r++)
			if (c->rows[r].hidden &&
			    !strcmp(c->rows[r].name, run->counters[i].event))
				hidden = 1;
		if (hidden) {
			compare_counter_free(&run->counters[i]);
		} else {
			run->counters[j++] = run->counters[i];
		}
	}
	run->ncounters = j;
	k = compare_run_add(run);
	k->event = xstrdup("wall-time");
	k->unit = xstrdup("msec");
	k->status = PSTAT_COUNTED;
	k->value = w->sum.mean;
	if (c->runs > 1) {
		k->samples = xmalloc(c->runs * sizeof(*k->samples));
		memcpy(k->samples, w->samples, c->runs * sizeof(*k->samples));
		k->nsamples = c->runs;
	}
	return 0;
}

/*
 * --fail-on-regression: every command against the first, through
 * pstat compare's logic; its tables go to out. Returns the status: 3
 * when one regressed, else pstat compare's status of the first that
 * could not be compared (4, 6), else 0.
 */
int bench_check_regression(const char *const *thresholds, size_t n,
			   struct pstat_bench *b, FILE *out)
{
	struct pstat_compare_rules rules = { 0 };
	struct pstat_compare_run base;
	int status = COMPARE_EXIT_OK;

	for (size_t i = 0; i < n; i++) {
		struct pstat_error err = { "", -1 };

		if (compare_rules_parse(&rules, thresholds[i], &err)) {
			msg_error("invalid --threshold '%s': %s",
				  thresholds[i], err.msg);
			compare_rules_free(&rules);
			return EXIT_PSTAT_FAILED;
		}
	}
	if (compare_input(&b->cmds[0], &base)) {
		compare_rules_free(&rules);
		compare_run_free(&base);
		return COMPARE_EXIT_INCOMPARABLE;
	}
	for (size_t c = 1; c < b->ncmds; c++) {
		struct pstat_compare_run run;
		struct pstat_compare cmp = { 0 };
		char why[128];
		int st = COMPARE_EXIT_INCOMPARABLE;

		if (!compare_input(&b->cmds[c], &run)) {
			if (compare_run_failed(&base, why, sizeof(why)) ||
			    compare_run_failed(&run, why, sizeof(why))) {
				msg_error("cannot compare '%s' with '%s': a command failed (%s)",
					  b->cmds[c].label, b->cmds[0].label, why);
			} else {
				compare_runs(&base, &run, &rules, b->alpha,
					     &cmp);
				print_compare(out, COMPARE_TABLE, &cmp);
				st = cmp.status;
			}
		}
		/* a regression wins; else the first other failure */
		if (st == COMPARE_EXIT_REGRESSION || !status)
			status = st;
		compare_free(&cmp);
		compare_run_free(&run);
	}
	compare_run_free(&base);
	compare_rules_free(&rules);
	return status;
}
