/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_DRY_RUN_H
#define PSTAT_DRY_RUN_H

#include <stdio.h>

#include "events/encode.h"
#include "events/metric.h"

/*
 * `pstat --dry-run`: what each event of evl resolved to, as text or,
 * with json, one pstat-dryrun/1 document, written to out; the text then
 * gives the formula of each metric of set (NULL: none). Nothing is
 * opened. Returns 0 or -errno when writing failed.
 */
int dry_run_print(FILE *out, const struct pstat_evlist *evl,
		  const struct pstat_metric_set *set, int json);

#endif
