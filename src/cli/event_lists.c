/* SPDX-License-Identifier: MIT */
/*
 * -e lists to events, for every command that counts (pstat itself,
 * pstat bench): the syntax, the encoding and their messages in one place.
 */
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
	for (size_t i = 0; !r && i < evl->n; i++)
		msg_debug(1, "event '%s': resolved by %s (pmu %s, type %u, config %#llx)",
			  evl->ev[i].name, evl->ev[i].resolver, evl->ev[i].pmu,
			  evl->ev[i].attr.type,
			  (unsigned long long)evl->ev[i].attr.config);
	return r;
}
