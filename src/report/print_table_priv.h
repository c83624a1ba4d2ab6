/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_PRINT_TABLE_PRIV_H
#define PSTAT_PRINT_TABLE_PRIV_H

/*
 * What print_table.c and print_table_metrics.c share. Not for other
 * modules.
 */

#include <stdio.h>

#include "report/print.h"

/*
 * perf's --per-socket..., -A and --per-thread labels before a line's
 * value: "S0        2 ", "CPU3 " or "comm-tid" in 25 columns; nothing
 * for aggr NULL, cpu -1 and thread NULL.
 */
void print_table_label(FILE *out, const struct pstat_aggr_id *aggr,
		       int aggr_nr, int cpu, const char *thread);

/* The same label into the line l is building (print_line.h). */
struct tline;
void print_table_label_tl(struct tline *l, const struct pstat_aggr_id *aggr,
			  int aggr_nr, int cpu, const char *thread);

/*
 * The metric lines that follow row i of r (those anchored to it, by a
 * from print_anchors_build), each after lead (the interval's time
 * column, lead_len bytes, or NULL), built in l.
 */
void print_table_metric_lines(struct tline *l, const struct pstat_report *r,
			      const struct print_anchors *a, size_t i,
			      const char *lead, size_t lead_len);

/*
 * Whether r's metrics are perf's Default group of a run of the default
 * events (r->perf_default_rows), counted as one total (no -A, no
 * --per-*): then its events' rows are not printed and its metrics are,
 * after the rows, as perf's default output prints them
 * (print_table_default_lines).
 */
int print_table_default_applies(const struct pstat_report *r);
void print_table_default_lines(struct tline *l, const struct pstat_report *r,
			       const char *lead, size_t lead_len);

/*
 * --metric-only: a header of the metrics' names when header is set,
 * then one line of values per CPU or thread, after lead.
 */
void print_table_metric_only(FILE *out, const struct pstat_report *r,
			     const char *lead, int header);

#endif
