/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_METRICS_H
#define PSTAT_METRICS_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include "report/print.h"

/* Whether attr counts time in ns (task-clock, cpu-clock): shown in msec. */
int metrics_is_clock(const struct perf_event_attr *attr);

/*
 * Where metrics_compute finds the rows another row's metric is over
 * (the clock of its thread, its cycles): kept by a caller that computes
 * every interval, so that the memory is not allocated and faulted in
 * each time; NULL to use one for the call. metrics_index_free frees it.
 */
struct metrics_index {
	size_t *head, *next;
	size_t head_cap, next_cap;
};
void metrics_index_free(struct metrics_index *ix);

/*
 * Derived metrics over finished rows (perf's shadow stats): CPUs
 * utilized for the clocks, rates for other software events, GHz for
 * cycles, insn per cycle, branch and cache miss ratios. A metric is
 * computed only from rows that were counted, and only from a pair in the
 * same group or both running 100% of the time, of the same CPU (-A) and
 * thread (--per-thread); never from a row that was not counted. GHz and
 * rates are over the first task-clock or cpu-clock row.
 *
 * attrs[i] is the attr of rows[i]; elapsed_ns the wall time measured.
 * Fills rows[i].has_metric / .metric, but for the rows where kept[i]
 * (kept may be NULL): rows left as they were since the last call, whose
 * metric is still this call's (an idle thread's row: none).
 */
void metrics_compute(struct pstat_row *rows, size_t nrows,
		     const struct perf_event_attr *const *attrs,
		     uint64_t elapsed_ns, struct metrics_index *ix,
		     const unsigned char *kept);

#endif
