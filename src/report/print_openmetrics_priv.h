/* SPDX-License-Identifier: MIT */
/*
 * The OpenMetrics printer's own parts, shared by print_openmetrics.c (the
 * counters' families, the printer) and print_openmetrics_metrics.c (the
 * metrics' families). Nothing else includes this but the test helper.
 */
#ifndef PSTAT_PRINT_OPENMETRICS_PRIV_H
#define PSTAT_PRINT_OPENMETRICS_PRIV_H

#include <stdio.h>

#include "report/print.h"

/* A family of value samples, from the unit of its rows. */
struct om_family {
	char *name;                 /* without _total */
	char *unit;                 /* OpenMetrics UNIT: "", "seconds"... */
	const char *help;
	double mul, div;            /* row value -> base unit */
};

void om_family_clear(struct om_family *f);

/*
 * A unit pstat knows (msec, ns, Joules, KiB...): set f->unit (new) to its
 * base unit ("seconds", "bytes"...) and suffix, f->mul and f->div to what
 * turns a value into it, and return 1; 0 for any other unit.
 */
int om_base_unit(struct om_family *f, const char *unit, const char *suffix);

/*
 * A unit as a metric name part: lower case [a-z0-9_], no leading digit,
 * no runs of '_'. Returns a new string, "" when nothing is left.
 */
char *om_name_part(const char *s);

/*
 * The family of a metric's values, from its unit (see
 * print_openmetrics_metrics.c); clear it with om_family_clear.
 */
void om_metric_family(struct om_family *f, const char *unit);

/* A label value, escaped, to out. */
void om_escaped(FILE *out, const char *s, int quotes);

/* A value in the C locale: a whole count in full, else 15 digits. */
void om_number(FILE *out, double v);

/* ,cpu="..", the aggregation unit's ids, ,comm="..",tid="..": those it has. */
void om_place_labels(FILE *out, int cpu, const struct pstat_aggr_id *aggr,
		     const char *thread);

/* A family's TYPE, UNIT and HELP lines in dialect d. */
void om_meta(FILE *out, enum pstat_om_dialect d, const char *name,
	     const char *type, const char *unit, const char *help);

/* The metric values' families: nothing when n is 0. */
void om_metrics(FILE *out, enum pstat_om_dialect d,
		const struct pstat_metric_value *m, size_t n);

#endif
