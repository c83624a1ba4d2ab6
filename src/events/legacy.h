/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_LEGACY_H
#define PSTAT_LEGACY_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The generic names perf accepts for PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE
 * and PERF_TYPE_HW_CACHE. Cache names are generated from the kernel's
 * cache / op / result tables with perf's aliases, not typed out.
 */

/*
 * Look up a generic name (case-insensitive, like perf). Returns true and
 * fills type/config when found.
 */
bool legacy_lookup(const char *name, uint32_t *type, uint64_t *config);

/* The kind of a generic event, for listing. */
enum legacy_kind {
	LEGACY_HARDWARE,
	LEGACY_SOFTWARE,
	LEGACY_CACHE,
};

/*
 * Call fn with each canonical generic name (with its aliases joined as
 * "cpu-cycles OR cycles" in alias, NULL when none), in perf list order.
 */
void legacy_foreach(void (*fn)(enum legacy_kind kind, const char *name,
			       const char *alias, uint32_t type,
			       uint64_t config, void *arg),
		    void *arg);

/*
 * Call fn with every accepted spelling (canonical names and aliases),
 * for suggestions and completion.
 */
void legacy_foreach_name(void (*fn)(const char *name, void *arg), void *arg);

/*
 * For checking against perf: call fn with every cache event spelling
 * perf's grammar takes and legacy_lookup accepts: each spelling of each
 * cache alone, then followed by one and by two op or result spellings.
 */
void legacy_foreach_cache_spelling(void (*fn)(const char *name, void *arg),
				   void *arg);

#endif
