/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_VENDOR_H
#define PSTAT_VENDOR_H

#include <stddef.h>

#include "base/cpuinfo.h"

/*
 * Tables generated from the vendors' data (src/events/vendor/gen-tables.py
 * writes vendor_tables.c from Intel's perfmon files and Arm's telemetry
 * data): per CPU model, the TMA (or Arm's top-down) metrics in pstat's
 * definition syntax and the core events' encodings. Every string is an offset into vendor_strings, so that
 * the tables hold no pointer for the loader to relocate: a run that
 * names no metric and no vendor event never reads them.
 *
 * A definition's "$core", "$atom" and "$lowpower" stand for the core PMU
 * of that kind of core (cpu or cpu_core, cpu_atom, cpu_lowpower).
 */
extern const char vendor_strings[];

/* The string at offset off (borrowed). */
static inline const char *vendor_str(unsigned off)
{
	return vendor_strings + off;
}

struct vendor_metric_row {
	unsigned def;                   /* metric.h's NAME = EXPR; ... */
	unsigned group;                 /* "TopdownL1", "Info", ... */
	/*
	 * Every group perf puts it in, ';'-separated (Intel's MetricGroup,
	 * TopdownLn, tma_Ln_group, tma_<parent>_group, Default); "" where
	 * the data names none
	 */
	unsigned groups;
};

/* A metric of table `table` the generator left out, and why. */
struct vendor_skipped {
	unsigned table;                 /* index into vendor_tables */
	unsigned name;                  /* "tma_info_thread_slots_utilization" */
	unsigned groups;                /* as vendor_metric_row's */
	unsigned why;
};

/* One kind of core's metrics: rows[first .. first + n). */
struct vendor_metrics {
	unsigned platform;              /* perfmon's name: "SPR" */
	unsigned source;                /* the files and their versions */
	unsigned first, n;
	int levels;                     /* the deepest TMA level */
};

struct vendor_event {
	unsigned name;                  /* "INST_RETIRED.ANY" */
	unsigned terms;                 /* "event=0xc0,umask=0x0" */
};

/* A core's events, events[first .. first + n), sorted by name. */
struct vendor_events {
	unsigned source;
	unsigned first, n;
};

/* One row of perfmon's mapfile.csv for a core's events. */
struct vendor_cpu {
	unsigned short family, model;
	unsigned short steppings;       /* bit n: stepping n */
	unsigned role;                  /* "" one kind of core; "Core", "Atom", "LowPower_Atom" */
	unsigned platform;
	int metrics;                    /* index into vendor_tables, -1 none */
	int events;                     /* index into vendor_event_tables */
};

/* An Arm core of Arm's telemetry data, by MIDR. */
struct vendor_arm_cpu {
	unsigned implementer, part;
	unsigned rev_min, rev_max;      /* variant << 4 | revision */
	int metrics;                    /* index into vendor_tables */
	int events;                     /* index into vendor_event_tables, -1 none */
};

extern const struct vendor_metric_row vendor_rows[];
extern const struct vendor_skipped vendor_skipped[];
extern const size_t vendor_nskipped;
extern const struct vendor_metrics vendor_tables[];
extern const size_t vendor_ntables;
extern const struct vendor_event vendor_event_rows[];
extern const struct vendor_events vendor_event_tables[];
extern const struct vendor_cpu vendor_intel_cpus[];
extern const size_t vendor_intel_ncpus;
extern const struct vendor_arm_cpu vendor_arm_cpus[];
extern const size_t vendor_arm_ncpus;

/*
 * The core PMU of a mapfile role on this machine: "cpu_core", "cpu_atom",
 * "cpu_lowpower"; for "" (one kind of core) core, the machine's core PMU
 * (static or core).
 */
const char *vendor_role_pmu(const char *role, const char *core);

/*
 * The mapfile rows of the CPU ci describes (family, model and stepping
 * within mapfile.csv's ranges; one per kind of core) into rows[max];
 * returns how many.
 */
size_t vendor_cpu_rows(const struct pstat_cpuinfo *ci,
		       const struct vendor_cpu **rows, size_t max);

/*
 * The Arm core of Arm's data that ci's MIDR fields (implementer, part,
 * variant, revision) name, or NULL.
 */
const struct vendor_arm_cpu *vendor_arm_core(const struct pstat_cpuinfo *ci);

/*
 * The Arm PMUv3 core PMU of pmus (armv8_pmuv3_0, armv8_cortex_a76...;
 * borrowed from pmus), or NULL.
 */
struct pstat_pmus;
const char *vendor_arm_pmu(struct pstat_pmus *pmus);

/* An Arm core PMU, and what its CPUs are. */
struct vendor_arm_pmu {
	const char *pmu;                /* borrowed from the pmus cache */
	int cpu;                        /* the first CPU it counts */
	struct pstat_cpuinfo ci;        /* that CPU's MIDR fields */
	const struct vendor_arm_cpu *core;  /* in Arm's data, or NULL */
};

/*
 * The Arm PMUv3 core PMUs of pmus (one per kind of core on a big.LITTLE
 * or DynamIQ machine: armv8_cortex_a55 and armv8_cortex_a78,
 * armv8_pmuv3_0 and _1), each with the MIDR of the first CPU its cpus
 * file lists (sysfs's midr_el1; without it, cpuinfo's fields ci, which
 * are CPU 0's, for the PMU that counts CPU 0) and the core of Arm's data
 * that MIDR names, into out[max]. Returns how many.
 */
size_t vendor_arm_pmus(struct pstat_pmus *pmus, const struct pstat_cpuinfo *ci,
		       struct vendor_arm_pmu *out, size_t max);

#endif
