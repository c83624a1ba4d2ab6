/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_METRIC_LIB_H
#define PSTAT_METRIC_LIB_H

#include <stddef.h>

#include "base/cpuinfo.h"
#include "base/msg.h"
#include "events/metric.h"
#include "events/pmu.h"

/*
 * The built-in metric library (metric_lib_table.c): formulas from the
 * vendors' public documentation, each with its source, for the CPU
 * families pstat knows. metric_lib_load picks those of the machine (or
 * of the PSTAT_SYSFS_ROOT tree) from its PMUs.
 */

/* Families, as bits: an entry applies where any of its bits is set. */
#define METRIC_FAM_ANY          0x001   /* any core PMU: generic events */
#define METRIC_FAM_SOFTWARE     0x002   /* everywhere: software events */
#define METRIC_FAM_INTEL_SKL    0x004   /* topdown-total-slots and friends */
#define METRIC_FAM_INTEL_ICL    0x008   /* slots + PERF_METRICS level 1 */
#define METRIC_FAM_INTEL_L2     0x010   /* PERF_METRICS level 2 (SPR+) */
#define METRIC_FAM_INTEL        0x020   /* any Intel core PMU */
#define METRIC_FAM_INTEL_IMC    0x040   /* uncore_imc cas_count_* */
#define METRIC_FAM_ARM          0x080   /* an Arm PMUv3 core PMU */
#define METRIC_FAM_ARM_SLOTS    0x100   /* STALL_SLOT_* and OP_* events */
#define METRIC_FAM_INTEL_ATOM   0x200   /* a hybrid's cpu_atom topdown-* */
#define METRIC_FAM_AMD_ZEN4     0x400   /* AMD Zen 4 and later (PPR events) */
#define METRIC_FAM_INTEL_SKL_L2 0x800   /* Skylake-class raw events, level 2 */
#define METRIC_FAM_INTEL_SNB    0x1000  /* Sandy Bridge to Broadwell cores */
#define METRIC_FAM_INTEL_IMC_SCH 0x2000 /* uncore_imc cas_count_*_sch0/1 */
#define METRIC_FAM_NOT_AMD      0x4000  /* a core PMU, not AMD's */
#define METRIC_FAM_AMD_ZEN5     0x8000  /* AMD Zen 5 (8 dispatch slots) */
#define METRIC_FAM_AMD_UMC      0x10000 /* amd_umc_N (Linux 6.9+, Zen 4+) */
#define METRIC_FAM_AMD_ZEN4_ONLY 0x20000 /* AMD Zen 4, not later */
#define METRIC_FAM_AMD_L3       0x40000 /* AMD Zen 4 and later with amd_l3 */
#define METRIC_FAM_AMD_DF       0x80000 /* AMD Zen 1 to 3 with amd_df */
#define METRIC_FAM_AMD_DF_GENOA 0x100000 /* Zen 4 EPYC 9004, PerfMonV2 amd_df */
#define METRIC_FAM_AMD_DF_TURIN 0x200000 /* Zen 5 EPYC 9005, PerfMonV2 amd_df */

struct metric_lib_entry {
	unsigned families;
	const char *group;      /* "TopdownL1", "Summary", "MPKI;Branch_Effectiveness" */
	/*
	 * The definition (metric.h's syntax); "$core" stands for the core
	 * PMU's name (cpu, cpu_core).
	 */
	const char *def;
	const char *source;     /* document and section the formula is from */
};

extern const struct metric_lib_entry metric_lib_table[];
extern const size_t metric_lib_table_size;

struct vendor_metrics;

/* A metric of the vendor's data the generator left out, and why. */
struct metric_left_out {
	const char *name, *groups, *why;        /* borrowed */
};

struct pstat_metric_lib {
	unsigned families;
	char core[64];          /* the core PMU, "" when none */
	const struct metric_lib_entry **e;  /* those that apply, by name */
	size_t n;
	size_t nvendor_e;       /* e[0..nvendor_e): the vendors' */
	struct pstat_metric_consts consts;
	int smt_on;             /* 1, 0, -1 unknown */
	/*
	 * Why there is no top-down analysis here ("" when there is): what
	 * the PMU lacks.
	 */
	char no_topdown[512];
	int topdown_levels;     /* 0 none, else the deepest level (up to 6) */
	int amd;                /* the core PMU "cpu" is AMD's */
	int amd_zen;            /* AMD: the Zen generation, 0 unknown */
	/*
	 * AMD: why there is no DRAM bandwidth (the memory controllers'
	 * amd_umc PMUs are missing), "" when there is or not AMD
	 */
	char no_umc[256];
	/*
	 * The vendor's tables for this CPU (events/vendor.h), one per kind
	 * of core; when there are any, the top-down groups are theirs, and
	 * vendor_cpu says which CPU they were chosen for.
	 */
	const struct vendor_metrics *vendor[4];
	struct metric_lib_entry *vendor_e[4];   /* their rows as entries */
	/*
	 * The core PMU each table's copies count on, "" for the machine's
	 * own (an Arm big.LITTLE's: NAME.pmu copies, their defs owned)
	 */
	char vendor_pmu[4][64];
	/*
	 * A heterogeneous Arm machine with a core PMU the vendor's tables
	 * do not cover (no data, or no slot events) beside ones they do:
	 * a hand-written metric whose name the vendor's copies take (ipc)
	 * stays, split over the PMUs without a copy of their own, those
	 * named in generic_pmus (", "-separated).
	 */
	int generic_too;
	char generic_pmus[192];
	char **owned;           /* group lists made here ("General;Summary") */
	size_t nowned, owned_alloc;
	size_t nvendor;
	char vendor_cpu[256];
	/* what cpuinfo says of the CPU; cpu_err: -errno it was read with */
	struct pstat_cpuinfo cpu;
	int cpu_err;
	/*
	 * The vendor's metrics taken out here (metric_uncore.c): their
	 * uncore PMUs are missing; name and why owned, groups borrowed
	 */
	struct metric_left_out *gone;
	size_t ngone, gone_alloc;
};

/*
 * Fill lib for the PMUs of pmus under sysfs_root (NULL: /sys): which
 * families apply (the vendor, and AMD's family and model, from
 * /proc/cpuinfo or the tree's proc/cpuinfo), the constants (#num_cpus,
 * #num_cores, #smt_on, #slots ... from <root>/devices/system/cpu and the
 * PMU's caps/, #tsc_freq from base/cpuinfo.h). Never fails: what cannot
 * be read is unknown.
 */
void metric_lib_load(struct pstat_metric_lib *lib, struct pstat_pmus *pmus,
		     const char *sysfs_root);
void metric_lib_free(struct pstat_metric_lib *lib);

/*
 * Pick lib->vendor[] for lib->cpu (metric_vendor.c): the vendor's tables
 * of the kinds of core whose PMU pmus has; sets lib->topdown_levels to
 * the deepest level, lib->vendor_cpu.
 */
void metric_vendor_pick(struct pstat_metric_lib *lib, struct pstat_pmus *pmus);

/*
 * The groups perf puts library entry e in, ';'-separated (borrowed):
 * those of the vendor's data for a vendor's entry, "" for a hand-written
 * one, whose one group is e->group.
 */
const char *metric_vendor_groups(const struct pstat_metric_lib *lib,
				 const struct metric_lib_entry *e);

/*
 * Whether library entry e is a vendor's copy for one core PMU
 * (NAME.pmu of an Arm big.LITTLE's table).
 */
int metric_vendor_is_copy(const struct pstat_metric_lib *lib,
			  const struct metric_lib_entry *e);

/*
 * The metrics of lib's vendor tables that the generator left out, of
 * group w (any when NULL): the first max into out[]; returns how many
 * there are.
 */
size_t metric_vendor_left_out(const struct pstat_metric_lib *lib,
			      const char *w, struct metric_left_out *out,
			      size_t max);

/*
 * Take out of lib->e the vendor's metrics whose uncore PMUs (uncore_imc,
 * uncore_cha, ...) pmus does not have, and those that refer to them,
 * into lib->gone with why (metric_uncore.c); metric_uncore_free frees
 * them.
 */
void metric_uncore_prune(struct pstat_metric_lib *lib, struct pstat_pmus *pmus);
void metric_uncore_free(struct pstat_metric_lib *lib);

/*
 * AMD (metric_amd.c): when the core PMU "cpu" is AMD's, set lib->amd,
 * lib->amd_zen, the AMD families and lib->no_topdown from the family and
 * model of lib->cpu and the PMUs of pmus (under root, NULL: /sys).
 */
void metric_amd_find(struct pstat_metric_lib *lib, struct pstat_pmus *pmus,
		     const char *root);

/* Why this AMD CPU has no amd_umc DRAM counts, into lib->no_umc. */
void metric_amd_no_umc(struct pstat_metric_lib *lib);

/* Whether -M's word w names an AMD memory-controller metric or group. */
int metric_amd_umc_named(const char *w);

/*
 * Whether group is a top-down level ("TopdownL1", any case). An entry's
 * group may be a list, "TopdownL2;Topdown_Frontend" (perf's MetricGroup
 * spelling): its level, when it has one, comes first.
 */
int metric_lib_is_topdown(const char *group);

/* Whether the group list groups (';'-separated) has w, in any case. */
int metric_lib_in_group(const char *groups, const char *w);

/* The entry called name that applies here, or NULL (borrowed). */
const struct metric_lib_entry *
metric_lib_find(const struct pstat_metric_lib *lib, const char *name);

/* The name of entry e (up to its '='), into buf. */
const char *metric_lib_entry_name(const struct metric_lib_entry *e,
				  char *buf, size_t len);

/*
 * e parsed into d (zeroed by the caller, freed with metric_def_free also
 * on failure), $core replaced, group and source filled. Returns 0 or -1
 * with err filled.
 */
int metric_lib_def(const struct pstat_metric_lib *lib,
		   const struct metric_lib_entry *e,
		   struct pstat_metric_def *d, struct pstat_error *err);

/*
 * -M LIST: add the metrics or groups named in list (comma-separated,
 * case-insensitive for groups) to set, shown. A top-down group this
 * machine cannot count is refused with lib->no_topdown when refuse_topdown
 * is set, else skipped (its rows then say not supported). Returns 0 or -1
 * with err filled.
 */
int metric_lib_select(const struct pstat_metric_lib *lib,
		      struct pstat_metric_set *set, const char *list,
		      struct pstat_error *err);

/*
 * Put the inputs of set's metrics of a top-down group into event groups
 * as the PMU wants them counted: the kernel's topdown events in one
 * (slots or the total-slots event first); Skylake's level-2 raw events
 * in groups of at most four, the general-purpose counters a thread has
 * with SMT on.
 */
void metric_lib_group_inputs(const struct pstat_metric_lib *lib,
			     struct pstat_metric_set *set);

#endif
