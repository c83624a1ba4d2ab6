/* SPDX-License-Identifier: MIT */
/*
 * Terms after an event that is not a PMU's ("cpu-cycles/name=x/",
 * "r1a/config1=3/", "mem:0x10:w/len=8/"), and perf's TYPE:CONFIG
 * numeric events ("1:1", "4:0x3c").
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode_priv.h"
#include "events/legacy.h"

bool encode_is_numeric(const char *name, uint32_t *type, uint64_t *config)
{
	const char *colon = strchr(name, ':');
	uint64_t t;
	char *head;
	int r;

	if (!colon || !evspec_is_numeric(name, strlen(name)))
		return false;
	head = xstrndup(name, (size_t)(colon - name));
	r = parse_u64(head, UINT32_MAX, &t) ||
	    parse_u64(colon + 1, UINT64_MAX, config);
	free(head);
	if (r)
		return false;
	*type = (uint32_t)t;
	return true;
}

/* The PMU to show for a numeric event: the one of that type, if any. */
const char *encode_type_pmu(struct encoder *e, uint32_t type)
{
	static const char *const fixed[] = {
		"cpu", "software", "tracepoint", "cpu", "cpu", "breakpoint",
	};
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(e->ctx->pmus, &all);
	const char *name = type < ARRAY_SIZE(fixed) ? fixed[type] : "unknown";

	for (size_t i = 0; i < n; i++) {
		if (all[i]->type == type) {
			name = all[i]->name;
			break;
		}
	}
	free(all);
	return name;
}

bool encode_takes_terms(const char *name)
{
	uint32_t type;
	uint64_t config;

	return legacy_lookup(name, &type, &config) || str_raw_hex(name) ||
	       encode_is_numeric(name, &type, &config);
}

static int term_number(struct encoder *e, const struct pstat_evspec *sp,
		       const struct pstat_term *t, uint64_t *v)
{
	if (!t->val) {
		*v = 1;
		return 0;
	}
	if (parse_u64(t->val, UINT64_MAX, v))
		return error_set(
			e->err, t->off,
			"invalid value '%s' for '%s' in '%s' (expected decimal or 0x hex)",
			t->val, t->key, sp->text);
	return 0;
}

int encode_event_terms(struct encoder *e, struct pstat_event *ev,
		       const struct pstat_evspec *sp)
{
	bool bp = ev->attr.type == PERF_TYPE_BREAKPOINT;
	static const char *const config[] = { "config", "config1", "config2" };

	for (size_t i = 0; i < sp->nterms; i++) {
		const struct pstat_term *t = &sp->terms[i];
		uint64_t v;
		int done = 0;

		if (!strcmp(t->key, "name")) {
			if (!t->val || !*t->val)
				return error_set(
					e->err, t->off,
					"term 'name' in '%s' needs a value",
					sp->text);
			free(ev->name);
			ev->name = xstrdup(t->val);
			continue;
		}
		if (bp && !strcmp(t->key, "len")) {
			if (term_number(e, sp, t, &v))
				return -1;
			ev->attr.bp_len = v;
			continue;
		}
		/* config1 and config2 are a breakpoint's address and length */
		for (int k = 0; !bp && k < 3 && !done; k++) {
			if (strcmp(t->key, config[k]))
				continue;
			if (term_number(e, sp, t, &v))
				return -1;
			if (k == 0)
				ev->attr.config = v;
			else if (k == 1)
				ev->attr.config1 = v;
			else
				ev->attr.config2 = v;
			done = 1;
		}
		if (done)
			continue;
		switch (pmu_term_role(t->key)) {
		case PMU_TERM_IGNORED:
			continue;
		case PMU_TERM_SAMPLING:
			return error_set(
				e->err, t->off,
				"term '%s' in '%s' is for sampling, and pstat counts (perf stat refuses it too)",
				t->key, sp->text);
		}
		return error_set(
			e->err, t->off,
			"unknown term '%s' in '%s' (valid terms: name, %s, period, freq, percore, metric-id)",
			t->key, sp->text,
			bp ? "len" : "config, config1, config2");
	}
	return 0;
}
