/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_PMU_H
#define PSTAT_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/msg.h"
#include "events/evspec.h"

/*
 * sysfs PMUs under a root passed in: <root>/bus/event_source/devices/<pmu>.
 * The root is "/sys" on a real system; tests pass a fixture tree.
 */

/* A format/<term> file: "config:0-7,32-35", "config1:0-15", "config:23". */
#define PMU_FORMAT_MAX_RANGES 8
struct pstat_pmu_format {
	char *name;
	int field;                  /* 0 = config, 1 = config1, 2 = config2 */
	int nranges;
	struct {
		uint8_t lo, hi;     /* inclusive bit range */
	} ranges[PMU_FORMAT_MAX_RANGES];
	int nbits;                  /* total width: sum of the ranges */
	/*
	 * Why the file is malformed (a new string), or NULL: a malformed
	 * format is kept, without ranges, so that using it can say so.
	 */
	char *error;
};

/* An events/<alias> file with its .scale/.unit companions. */
struct pstat_pmu_alias {
	char *name;
	char *terms;                /* the file's text, stripped */
	double scale;               /* 1.0 when no .scale file */
	char *unit;                 /* "" when no .unit file */
	bool snapshot;
};

struct pstat_pmu {
	char *name;
	uint32_t type;
	struct pstat_pmu_format *formats;
	size_t nformats;
	struct pstat_pmu_alias *aliases;   /* sorted by name */
	size_t naliases;
	char *cpumask;              /* cpumask file, NULL if none */
	char *cpus;                 /* cpus file (core PMUs), NULL if none */
	/*
	 * The name in its alias file, NULL if none: some uncore PMUs have
	 * one (uncore_type_9_0 is uncore_krava_0), and perf takes either.
	 */
	char *alias;
};

struct pstat_pmus;

/*
 * A new lazily filled cache of the PMUs under sysfs_root (NULL means
 * "/sys"). Nothing is read until asked. Free with pmus_free().
 */
struct pstat_pmus *pmus_new(const char *sysfs_root);

/* The root pmus was made with (borrowed), NULL for /sys. */
const char *pmus_root(const struct pstat_pmus *pmus);
void pmus_free(struct pstat_pmus *pmus);

/*
 * The PMU called name, read on first use (borrowed; lives as long as
 * pmus). NULL with errno set (ENOENT: no such PMU; other: unreadable).
 */
const struct pstat_pmu *pmus_find(struct pstat_pmus *pmus, const char *name);

/*
 * Why the PMU called name could not be loaded, once pmus_find has failed
 * for it with an errno other than ENOENT: "malformed type file: ...",
 * "cannot read its type file: ...". NULL when it has not been asked
 * for, was loaded, or does not exist (borrowed; lives as long as pmus).
 */
const char *pmus_error(const struct pstat_pmus *pmus, const char *name);

/*
 * perf's prefix match: the PMU called exactly name, or else every PMU
 * called name_<suffix> where the suffix is hex digits, like perf
 * (uncore_imc -> uncore_imc_0, uncore_imc_1, ... but not
 * uncore_imc_free_running_0), or else the same by the names in the
 * PMUs' alias files. Returns how many were found and a new array
 * of borrowed pointers in *out (NULL when none), sorted by name with
 * numeric suffixes in numeric order (caller frees the array).
 */
size_t pmus_match(struct pstat_pmus *pmus, const char *name,
		  const struct pstat_pmu ***out);

/* Every PMU under the root, sorted by name; as pmus_match. */
size_t pmus_all(struct pstat_pmus *pmus, const struct pstat_pmu ***out);

/*
 * For suggestions: call fn with every name pmus_match takes, without
 * loading any PMU: each PMU directory's name (sorted as pmus_all), and
 * after a numbered instance the name it shares with its siblings
 * (uncore_imc after uncore_imc_0), once per run of siblings.
 */
void pmus_foreach_name(struct pstat_pmus *pmus,
		       void (*fn)(const char *name, void *arg), void *arg);

/*
 * Whether the PMU called name under sysfs_root (NULL: /sys) is a core
 * hardware PMU: cpu, cpu_core, cpu_atom, armv8_pmuv3*, or any PMU with a
 * "cpus" file (uncore PMUs have a "cpumask" instead).
 */
bool pmu_is_core(const char *sysfs_root, const char *name);

/*
 * The format term called name, or NULL (borrowed). A malformed format
 * file is found too, with f->error set and no ranges: it cannot be used.
 */
const struct pstat_pmu_format *pmu_format_find(const struct pstat_pmu *pmu,
					       const char *name);
/* The alias called name (case-insensitive like perf), or NULL (borrowed). */
const struct pstat_pmu_alias *pmu_alias_find(const struct pstat_pmu *pmu,
					     const char *name);

/*
 * Parse the text of a format file into f (f->name is left alone).
 * Returns 0, or -1 with err filled.
 */
int pmu_format_parse(const char *text, struct pstat_pmu_format *f,
		     struct pstat_error *err);

/*
 * Scatter value across f's bit ranges, low bits first, into
 * config[f->field]. Bits of the ranges are cleared first, so a later term
 * overrides an earlier one. Returns 0, or -1 with err filled when value
 * does not fit in f->nbits bits.
 */
int pmu_format_apply(const char *pmu, const struct pstat_pmu_format *f,
		     uint64_t value, uint64_t config[3],
		     struct pstat_error *err);

/* What pmu_encode produces besides the config words. */
struct pstat_pmu_encoding {
	uint64_t config[3];
	char *name;                 /* from name=, new string, or NULL */
	double scale;               /* from an alias .scale, else 1.0 */
	char *unit;                 /* from an alias .unit, new string, or NULL */
};

/*
 * Encode terms for pmu: format terms, the built-ins config=, config1=,
 * config2=, name=, aliases (expanded in place; later terms override
 * earlier ones), and "rNNNN" raw config. A term without a value means 1.
 * Returns 0, or -1 with err filled naming the PMU, the term and, for a
 * value too large, the field width.
 */
int pmu_encode(const struct pstat_pmu *pmu, const struct pstat_term *terms,
	       size_t nterms, struct pstat_pmu_encoding *enc,
	       struct pstat_error *err);
void pmu_encoding_release(struct pstat_pmu_encoding *enc);

/*
 * What a term perf's parser knows for every event means to a counter:
 * PMU_TERM_IGNORED for those that only matter to sampling and that
 * perf stat takes (period=, freq=, percore, metric-id), PMU_TERM_SAMPLING
 * for those perf stat refuses (call-graph=, time, ...), 0 for others.
 */
enum { PMU_TERM_IGNORED = 1, PMU_TERM_SAMPLING };
int pmu_term_role(const char *key);

/*
 * Whether any PMU under pmus's root is a core hardware PMU (pmu_is_core;
 * sysfs_root is the one pmus was made with, NULL: /sys): without one,
 * hardware events such as cycles cannot be counted.
 */
bool pmus_have_core(struct pstat_pmus *pmus, const char *sysfs_root);

#endif
