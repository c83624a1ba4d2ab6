/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SIM_EVENTS_H
#define PSTAT_SIM_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events/encode.h"

/*
 * The simulated PMU, "sim": events that Valgrind's cachegrind (or, for a
 * region, callgrind) counts while it runs the command on its emulated
 * CPU, exact and the same on every run. An event is encoded with the
 * pseudo PMU type PSTAT_SIM_TYPE, which no kernel gives a PMU, and its
 * index in this table as config: the counter layer opens nothing for
 * it, and the run stage reads its value from Valgrind's output file.
 */
#define PSTAT_SIM_PMU "sim"
#define PSTAT_SIM_TYPE 0xfffe5100u

/* What Valgrind must simulate for an event to be counted. */
#define SIM_NEEDS_CACHE  0x1   /* --cache-sim=yes (also for Dr and Dw) */
#define SIM_NEEDS_BRANCH 0x2   /* --branch-sim=yes */

/* The most of Valgrind's events one sim event adds up. */
#define SIM_MAX_PARTS 3

struct pstat_sim_event {
	const char *name;     /* perf's generic name where there is one */
	/* Valgrind's events it adds up ("Bc", "Bi"), NULL-terminated */
	const char *parts[SIM_MAX_PARTS + 1];
	unsigned needs;       /* SIM_NEEDS_* */
	const char *desc;
};

/* The table, in listing order; *n its length. Static. */
const struct pstat_sim_event *sim_events(size_t *n);

/*
 * The event called name: its perf-style name or, for an event that is
 * one of Valgrind's, Valgrind's own ("Ir", "D1mr"). Case-sensitive, as
 * Valgrind's names are. Returns the index, or -1.
 */
long sim_event_find(const char *name);

/* The event of index config, or NULL when there is none. */
const struct pstat_sim_event *sim_event_get(uint64_t config);

/*
 * The weak groups of evl that hold sim events (those pstat makes of a
 * metric's events) made groups of one event each: Valgrind counts sim
 * events and the kernel the others, so they cannot be one group, and a
 * weak group may be counted ungrouped. Returns how many events changed.
 */
size_t sim_evlist_ungroup(struct pstat_evlist *evl);

#endif
