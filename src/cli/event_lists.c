/* SPDX-License-Identifier: MIT */
/*
 * -e lists to events, for every command that counts (pstat itself,
 * pstat bench): the syntax, the encoding and their messages in one place.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/msg.h"
#include "cli/event_lists.h"
#include "events/evspec.h"

static void report_parse_error(const char *list,
			       const struct pstat_error *err)
{
	if (err->offset >= 0 && (size_t)err->offset <= strlen(list) &&
	    strlen(list) <= 200)
		msg_error("invalid event list '%s': %s (at offset %ld)", list,
			  err->msg, err->offset);
	else
		msg_error("%s", err->msg);
}

int event_lists_encode(const char *const *lists, size_t n,
		       struct pstat_encode_ctx *ctx, struct pstat_evlist *evl,
		       size_t *ends)
{
	struct pstat_error err = { "", -1 };
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		struct pstat_evtree one = { 0 };

		if (evspec_parse(lists[i], &one, &err)) {
			report_parse_error(lists[i], &err);
			r = -1;
		} else if (encode_evlist(&one, ctx, evl, &err)) {
			msg_error("%s", err.msg);
			if (ctx->hint[0])
				msg_hint("%s", ctx->hint);
			r = -1;
		}
		/* encode_evlist continues the numbering of earlier lists */
		evspec_tree_free(&one);
		if (ends)
			ends[i] = evl->n;
	}
	/* config1 and config2 when set, as perf -vv prints a field */
	for (size_t i = 0; !r && i < evl->n; i++) {
		const struct perf_event_attr *a = &evl->ev[i].attr;
		/* a breakpoint's config1 and config2 are its address, length */
		bool bp = a->type == PERF_TYPE_BREAKPOINT;
		char more[80] = "";
		int len = 0;

		if (a->config1 || a->config2)
			len = snprintf(more, sizeof(more), ", %s %#llx",
				       bp ? "bp_addr" : "config1",
				       (unsigned long long)a->config1);
		if (a->config2)
			snprintf(more + len, sizeof(more) - (size_t)len,
				 ", %s %#llx", bp ? "bp_len" : "config2",
				 (unsigned long long)a->config2);
		msg_debug(1, "event '%s': resolved by %s (pmu %s, type %u, config %#llx%s)",
			  evl->ev[i].name, evl->ev[i].resolver, evl->ev[i].pmu,
			  a->type, (unsigned long long)a->config, more);
	}
	return r;
}
