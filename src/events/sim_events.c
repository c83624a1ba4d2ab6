/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "events/sim_events.h"

#define C SIM_NEEDS_CACHE
#define B SIM_NEEDS_BRANCH

/*
 * perf's generic names where one means the same: a "load" is a data
 * read, a "store" a data write, the last level ("LLC") is Valgrind's LL,
 * which takes the misses of both first-level caches (so cache-references
 * counts those, as perf's counts last-level accesses). Valgrind counts
 * conditional and indirect branches only: direct jumps and calls are in
 * neither branches nor branch-misses.
 */
static const struct pstat_sim_event table[] = {
	{ "instructions", { "Ir" }, 0,
	  "instructions executed (Ir)" },
	{ "L1-dcache-loads", { "Dr" }, C,
	  "data reads (Dr)" },
	{ "L1-dcache-stores", { "Dw" }, C,
	  "data writes (Dw)" },
	{ "L1-icache-load-misses", { "I1mr" }, C,
	  "first-level instruction cache misses (I1mr)" },
	{ "L1-dcache-load-misses", { "D1mr" }, C,
	  "first-level data cache read misses (D1mr)" },
	{ "L1-dcache-store-misses", { "D1mw" }, C,
	  "first-level data cache write misses (D1mw)" },
	{ "LLC-ifetch-misses", { "ILmr" }, C,
	  "last-level cache instruction misses (ILmr)" },
	{ "LLC-load-misses", { "DLmr" }, C,
	  "last-level cache data read misses (DLmr)" },
	{ "LLC-store-misses", { "DLmw" }, C,
	  "last-level cache data write misses (DLmw)" },
	{ "LLC-loads", { "D1mr" }, C,
	  "data reads reaching the last level (D1mr)" },
	{ "LLC-stores", { "D1mw" }, C,
	  "data writes reaching the last level (D1mw)" },
	{ "cache-references", { "I1mr", "D1mr", "D1mw" }, C,
	  "last-level cache accesses (I1mr + D1mr + D1mw)" },
	{ "cache-misses", { "ILmr", "DLmr", "DLmw" }, C,
	  "last-level cache misses (ILmr + DLmr + DLmw)" },
	{ "branches", { "Bc", "Bi" }, B,
	  "conditional and indirect branches (Bc + Bi)" },
	{ "branch-misses", { "Bcm", "Bim" }, B,
	  "conditional and indirect branches mispredicted (Bcm + Bim)" },
	{ "cond-branches", { "Bc" }, B,
	  "conditional branches (Bc)" },
	{ "cond-branch-misses", { "Bcm" }, B,
	  "conditional branches mispredicted (Bcm)" },
	{ "indirect-branches", { "Bi" }, B,
	  "indirect branches (Bi)" },
	{ "indirect-branch-misses", { "Bim" }, B,
	  "indirect branches mispredicted (Bim)" },
};

const struct pstat_sim_event *sim_events(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

long sim_event_find(const char *name)
{
	size_t n = sizeof(table) / sizeof(table[0]);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(table[i].name, name))
			return (long)i;
	/* Valgrind's own name: the first event that is exactly that one */
	for (size_t i = 0; i < n; i++)
		if (!table[i].parts[1] && !strcmp(table[i].parts[0], name))
			return (long)i;
	return -1;
}

const struct pstat_sim_event *sim_event_get(uint64_t config)
{
	return config < sizeof(table) / sizeof(table[0]) ? &table[config]
							: NULL;
}

size_t sim_evlist_ungroup(struct pstat_evlist *evl)
{
	size_t changed = 0;

	for (size_t i = 0; i < evl->n; i++) {
		struct pstat_event *ev = &evl->ev[i];
		size_t end = i + 1;
		int sim = ev->attr.type == PSTAT_SIM_TYPE;

		if (!ev->weak || ev->leader != (int)i)
			continue;
		while (end < evl->n && evl->ev[end].group == ev->group) {
			sim |= evl->ev[end].attr.type == PSTAT_SIM_TYPE;
			end++;
		}
		if (!sim || end == i + 1)
			continue;
		for (size_t k = i; k < end; k++) {
			evl->ev[k].leader = (int)k;
			evl->ev[k].weak = false;
			if (k > i)
				evl->ev[k].group = evl->ngroups++;
			changed++;
		}
		i = end - 1;
	}
	return changed;
}
