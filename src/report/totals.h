/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TOTALS_H
#define PSTAT_TOTALS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/print.h"

/*
 * Running totals of interval rows, for outputs whose counters must never
 * go backwards (OpenMetrics, `pstat serve`): each total is the sum of
 * the intervals' scaled values, so it only grows, whatever multiplexing
 * does to the scaling of the readings as a whole.
 */
struct pstat_totals;

/* A new, empty set of totals; free with totals_free (NULL is fine). */
struct pstat_totals *totals_new(void);
void totals_free(struct pstat_totals *t);

/*
 * Add one interval's rows (the deltas of a report with is_interval set).
 * A row is matched to its total by event, PMU, group, CPU, aggregation
 * unit, thread and cgroup; a row seen for the first time starts a total.
 * The strings are copied; the aggregation unit (row->aggr) is borrowed,
 * as it is from the session that made the rows. Returns whether the
 * totals changed: a total started, or a sum, time or status moved.
 */
bool totals_add(struct pstat_totals *t, const struct pstat_row *rows,
		size_t n);

/*
 * The totals as rows, in the order they were first seen (borrowed: valid
 * until the next totals_add or totals_free). value, raw, ena and run are
 * sums; status is counted, multiplexed (when any interval was), not
 * counted (no interval ran it) or not supported.
 */
const struct pstat_row *totals_rows(const struct pstat_totals *t, size_t *n);

#endif
