/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_ENCODE_PRIV_H
#define PSTAT_ENCODE_PRIV_H

/*
 * The encoder's inside, no interface for other modules. Calls go one
 * way: encode.c (the tree walker) calls encode_sysfs.c (PMU events and
 * aliases) and encode_core.c; encode_sysfs.c calls encode_core.c only.
 */

#include <stdbool.h>
#include <stddef.h>

#include "events/encode.h"

/* ---- encode_core.c */

/* State while encoding one tree. */
struct encoder {
	struct pstat_encode_ctx *ctx;
	struct pstat_evlist *out;
	size_t alloc;
	int row;
	int tracefs_err; /* errno when tracefs could not be read, else 0 */
	struct pstat_error *err;
};

/*
 * Append an event with a row of its own to e->out (borrowed; valid until
 * the next append). Its group and leader are settled with the group.
 */
struct pstat_event *encode_add_event(struct encoder *e, const char *name,
				     const char *pmu, const char *resolver);

/*
 * Apply the event's own modifiers (sp->mods) and then the group's (gmods)
 * to ev. Returns 0, or -1 with e->err filled at the event.
 */
int encode_mods(struct encoder *e, struct pstat_event *ev,
		const struct pstat_evspec *sp, const char *gmods);

/*
 * Fill e->err with what (a message) at off, adding "did you mean" with
 * hint unless it is NULL or want itself (hint: new string, taken).
 * Returns -1.
 */
int encode_not_found(struct encoder *e, long off, char *hint, const char *want,
		     const char *what);

/* ---- encode_sysfs.c */

/*
 * pmu/terms/: the event on every PMU the name matches (perf's prefix
 * match), one row summing the instances. Returns 0 or -1 with e->err
 * filled.
 */
int encode_pmu_event(struct encoder *e, const struct pstat_evspec *sp,
		     const char *gmods);

/*
 * A bare name that is a sysfs alias ("tsc"): the alias on every PMU that
 * has one by that name, as perf opens it, in one row summing them.
 * Returns 0, 1 when no PMU has such an alias, or -1 with e->err filled.
 */
int encode_alias_event(struct encoder *e, const struct pstat_evspec *sp,
		       const char *name, const char *gmods);

/* Whether some PMU has an alias called name. */
bool encode_alias_known(struct encoder *e, const char *name);

/*
 * The group just encoded, out->ev[first..], split into one group per PMU
 * instance when its events are spread over instances (see encode_sysfs.c).
 * Stores in *bounds a new array of the subgroups' boundaries (n + 1
 * indexes into e->out->ev) and returns n, or -1 with e->err filled.
 */
int encode_split_instances(struct encoder *e, size_t first, long off,
			   size_t **bounds);

#endif
