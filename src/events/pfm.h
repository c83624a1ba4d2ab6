/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_PFM_H
#define PSTAT_PFM_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/msg.h"

/*
 * libpfm4, behind a small interface: this is the only file that includes
 * <perfmon/...>. libpfm4 is initialised lazily, on the first call that
 * needs it: initialisation costs milliseconds and megabytes, more than a
 * whole run of pstat on the generic names.
 *
 * The library is libpfm.so.4 (or libpfm.so) from the loader's path, or
 * the file the environment variable PSTAT_LIBPFM names: tests point it
 * at one that does not exist to see pstat on a machine without libpfm4.
 */

/*
 * Encode a libpfm4 event name ("INST_RETIRED:ANY_P",
 * "amd64_fam19h_zen4::RETIRED_INSTRUCTIONS:u",
 * "perf::PERF_COUNT_HW_CPU_CYCLES") with PFM_OS_PERF_EVENT_EXT and the
 * default privilege levels user+kernel. The name is libpfm4's whole,
 * modifiers included: they are libpfm4's, not perf's (":u", ":k", ":h",
 * ":mg", ":mh", ":excl", ":pinned", and the PMU's own such as ":e" for
 * edge and ":i" for invert on x86). On success fills attr's type,
 * config, config1, config2, exclusion bits, exclusive and pinned (other
 * fields are left as they were) and *pmu_name (a new string: the libpfm4 PMU name, e.g.
 * "amd64_fam19h_zen4"). Returns 0, -ENOENT when libpfm4 does not know the
 * name, -ELIBACC when libpfm4 cannot be loaded or initialised here (err
 * says why), or another -errno / -1 with err filled for other failures.
 */
int pfm_encode(const char *name, struct perf_event_attr *attr,
	       char **pmu_name, struct pstat_error *err);

/* One libpfm4 event of a detected PMU, for listing. */
struct pstat_pfm_event {
	const char *pmu;          /* libpfm4 PMU name (borrowed) */
	const char *pmu_desc;
	const char *name;         /* event name (borrowed) */
	const char *desc;
	const char **umasks;      /* new array of borrowed umask names */
	const char **umask_descs; /* same length */
	size_t numasks;
};

/*
 * Call fn for every event of every PMU libpfm4 detects on this machine,
 * in libpfm4's order. Stops early and returns fn's value when it returns
 * non-zero. Returns 0, or -1 when libpfm4 cannot initialise.
 */
int pfm_foreach_event(int (*fn)(const struct pstat_pfm_event *ev,
				void *arg),
		      void *arg);

/*
 * The names ("pmu::EVENT") of detected PMUs' events, for suggestions:
 * calls fn for each. Returns 0, or -1 when libpfm4 cannot initialise.
 */
int pfm_foreach_name(void (*fn)(const char *name, void *arg), void *arg);

/*
 * Names of the PMUs libpfm4 detects here; calls fn(name, desc, is_core)
 * for each. Returns 0 or -1 as above.
 */
int pfm_foreach_pmu(void (*fn)(const char *name, const char *desc,
			       bool is_core, void *arg),
		    void *arg);

/*
 * The release of the libpfm4 this process loads ("4.13.0"), into buf.
 * Loads the library but does not initialise it. Returns 0, or -1 with
 * err saying why libpfm4 cannot be loaded.
 */
int pfm_library_version(char *buf, size_t len, struct pstat_error *err);

/* Release libpfm4 if it was initialised. */
void pfm_cleanup(void);

#endif
