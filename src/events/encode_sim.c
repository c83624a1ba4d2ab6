/* SPDX-License-Identifier: MIT */
/*
 * The encoder's part for the simulated PMU: sim/NAME/ as a sysfs PMU's
 * event is written, encoded with the pseudo type PSTAT_SIM_TYPE (see
 * events/sim_events.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode_priv.h"
#include "events/sim_events.h"

static void offer_sim_names(struct str_suggest *s)
{
	size_t n;
	const struct pstat_sim_event *t = sim_events(&n);

	for (size_t i = 0; i < n; i++)
		str_suggest_offer(s, t[i].name, NULL);
}

int encode_sim_event(struct encoder *e, const struct pstat_evspec *sp,
		     const char *gmods)
{
	const char *event = NULL, *name = NULL;
	struct pstat_event *ev;
	long idx;

	for (size_t i = 0; i < sp->nterms; i++) {
		const struct pstat_term *t = &sp->terms[i];

		if (!strcmp(t->key, "name") && t->val && *t->val) {
			name = t->val;
		} else if (!t->val && !event) {
			event = t->key;
		} else {
			return error_set(e->err, sp->off,
					 "term '%s' of '%s': sim events take an event name and name= only",
					 t->key, sp->text);
		}
	}
	if (!event)
		return error_set(e->err, sp->off,
				 "'%s' names no event: write sim/instructions/ (see pstat list sim)",
				 sp->text);
	idx = sim_event_find(event);
	if (idx < 0) {
		struct str_suggest s;
		char *what = xasprintf("unknown sim event '%s' in '%s'", event,
				       sp->text);
		int r;

		str_suggest_init(&s, event);
		offer_sim_names(&s);
		r = encode_not_found(e, sp->off, str_suggest_take(&s), event,
				     what);
		free(what);
		return r;
	}
	/*
	 * Valgrind counts user space only: a modifier that asks for the
	 * kernel, a hypervisor, a guest or precision means nothing there.
	 */
	for (const char *m = sp->mods; m && *m; m++)
		if (*m != 'u')
			return error_set(e->err, sp->off,
					 "modifier '%c' of '%s': sim events count the program's user space only (':u' is all they take)",
					 *m, sp->text);
	/* (W: the weak groups of metrics, which never fail on sim) */
	for (const char *m = gmods; m && *m; m++)
		if (*m != 'u' && *m != 'W')
			return error_set(e->err, sp->off,
					 "group modifier '%c' applies to '%s': sim events count the program's user space only",
					 *m, sp->text);
	ev = encode_add_event(e, name ? name : sp->text, PSTAT_SIM_PMU, "sim");
	ev->attr.type = PSTAT_SIM_TYPE;
	ev->attr.config = (uint64_t)idx;
	ev->attr.exclude_kernel = 1;
	ev->attr.exclude_hv = 1;
	return 0;
}
