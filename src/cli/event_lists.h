/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_EVENT_LISTS_H
#define PSTAT_EVENT_LISTS_H

#include <stddef.h>

#include "events/encode.h"

/*
 * Parse and encode each of the n event lists (as given to -e, or a
 * default list) into evl, in order: the numbering of groups and rows
 * goes on from one list to the next. The first error is reported
 * ("pstat: invalid event list ...", with its hint) and ends it. With -v
 * each event's resolution is logged. ends, when not NULL, receives for
 * each list the number of events evl holds after it (for -G). Returns 0
 * or -1; evl holds what was encoded either way (evlist_free).
 */
int event_lists_encode(const char *const *lists, size_t n,
		       struct pstat_encode_ctx *ctx, struct pstat_evlist *evl,
		       size_t *ends);

#endif
