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
#include "events/hybrid.h"

/* ---- encode_core.c */

/* State while encoding one tree. */
struct encoder {
	struct pstat_encode_ctx *ctx;
	struct pstat_evlist *out;
	size_t alloc;
	int row;
	int tracefs_err; /* errno when tracefs could not be read, else 0 */
	int mount_tried; /* ctx->tracefs_mount was called */
	struct pstat_error *err;
	/* the core PMUs with a cpus file (encode_hybrid.c), read once */
	struct pstat_core_pmu *cores;
	size_t ncores;
	bool cores_read;
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
/*
 * The vendor's terms (event=..,umask=..) of event name on PMU pmu_name,
 * from the table of the kind of core that PMU counts
 * (cpu_core/inst_retired.any/); borrowed, or NULL when it has none.
 */
const char *encode_vendor_pmu_terms(struct encoder *e, const char *pmu_name,
				    const char *name);

/*
 * A vendor event name (encode_vendor.c): perf's inst_retired.any or
 * libpfm4's INST_RETIRED:ANY, from the generated tables of the CPU that
 * the tree's (or the machine's) cpuinfo names. Returns 0, 1 when it is
 * not one, or -1 with e->err filled.
 */
int encode_vendor_event(struct encoder *e, const struct pstat_evspec *sp,
			const char *name, const char *gmods);

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

/* ---- encode_sim.c */

/*
 * sim/NAME/ (or sim/NAME,name=X/): an event of the simulated PMU. Returns
 * 0 or -1 with e->err filled.
 */
int encode_sim_event(struct encoder *e, const struct pstat_evspec *sp,
		     const char *gmods);

/* ---- encode_hybrid.c */

/*
 * A generic hardware or cache event (type, config) or a raw one
 * (PERF_TYPE_RAW) written without a PMU: on a CPU with several core
 * PMUs, one event per core PMU, named "<pmu>/<as written>/"; else one
 * event labelled with the core PMU. Returns 0 or -1 with e->err filled.
 */
int encode_core_event(struct encoder *e, const struct pstat_evspec *sp,
		      uint32_t type, uint64_t config, const char *resolver,
		      const char *gmods);

/*
 * pmu/NAME/ where NAME is a generic hardware or cache name that is
 * neither an alias nor a format term of the core PMU pmu (perf's
 * "cpu_atom/cycles/", "cpu/cycles,name=x/"): the index of that term
 * among terms, with *type and *config set (the extended type in the
 * config when there are several core PMUs), else -1.
 */
long encode_core_legacy(struct encoder *e, const struct pstat_pmu *pmu,
			const struct pstat_term *terms, size_t nterms,
			uint32_t *type, uint64_t *config);

/* An event on pmu: its core CPUs, when pmu is one of several core PMUs. */
void encode_core_placement(struct encoder *e, struct pstat_event *ev,
			   const struct pstat_pmu *pmu);

/*
 * The braced group just encoded, out->ev[first..]: when it holds events
 * made one per core PMU, reorder it into one group per core PMU and
 * store their boundaries in a new *bounds (n + 1 indexes) and return n;
 * 0 when it has none (nothing done); -1 with e->err filled when it
 * cannot be split (events of two core PMUs named in it, an event on no
 * core PMU).
 */
int encode_split_cores(struct encoder *e, size_t first, long off,
		       size_t **bounds);

/* Free what the encoder read of the core PMUs. */
void encode_cores_release(struct encoder *e);

/*
 * perf's TYPE:CONFIG event ("1:1", "4:0x3c"): true with *type and
 * *config filled when name is one.
 */
bool encode_is_numeric(const char *name, uint32_t *type, uint64_t *config);

/* The PMU of that type, to show for a numeric event (static string). */
const char *encode_type_pmu(struct encoder *e, uint32_t type);

/*
 * Whether name/terms/ is an event with terms rather than a PMU's: a
 * generic or cache name, raw rNNNN, or TYPE:CONFIG.
 */
bool encode_takes_terms(const char *name);

/*
 * Apply the terms of an event that is not a PMU's (sp->terms: name=,
 * config=..., a breakpoint's len=; sampling terms perf stat takes are
 * ignored) to ev. Returns 0, or -1 with e->err filled.
 */
int encode_event_terms(struct encoder *e, struct pstat_event *ev,
		       const struct pstat_evspec *sp);

#endif
