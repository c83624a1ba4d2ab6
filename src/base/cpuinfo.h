/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CPUINFO_H
#define PSTAT_CPUINFO_H

#include <stddef.h>

/*
 * The CPU as /proc/cpuinfo describes its first processor. A
 * PSTAT_SYSFS_ROOT tree (a test fixture standing in for /sys) may carry
 * its machine's in <root>/proc/cpuinfo, as the kernel prints it.
 */
struct pstat_cpuinfo {
	char vendor[32];        /* vendor_id "GenuineIntel"..., "" unknown */
	int family;             /* "cpu family", -1 unknown */
	int model;              /* "model", -1 unknown */
	int stepping;           /* "stepping", -1 unknown */
	/*
	 * arm64: the MIDR's fields ("CPU implementer", "CPU variant",
	 * "CPU part", "CPU revision"), -1 unknown
	 */
	int implementer, variant, part, revision;
	char model_name[128];   /* "model name" (32-bit Arm: "Processor",
				   MIPS: "cpu model"; arm64: "CPU
				   implementer 0x41 part 0xd0c", from
				   cpuinfo or sysfs's midr_el1), ""
				   unknown */
};

/*
 * The first processor's lines of <root>/proc/cpuinfo, or of
 * /proc/cpuinfo when root is NULL (new string), or NULL with errno set.
 * A tree's file is not read in secure mode (EPERM): it is the invoking
 * user's to write, and would decide what a privileged pstat counts.
 */
char *cpuinfo_first(const char *root);

/*
 * The value of the first "key<blanks>: value" line of text, into out.
 * Returns 0, or -1 when there is no such line.
 */
int cpuinfo_field(const char *text, const char *key, char *out, size_t len);

/*
 * Fill ci from cpuinfo_first(root); what is not there is unknown.
 * Returns 0, or -errno when the file cannot be read (ci then all
 * unknown).
 */
int cpuinfo_load(const char *root, struct pstat_cpuinfo *ci);

/*
 * An arm64 CPU's MIDR_EL1 as <root>/devices/system/cpu/cpu<cpu>/regs/
 * identification/midr_el1 gives it (root NULL: /sys), into ci's
 * implementer, variant, part and revision. Returns 0, or -errno (ci
 * unchanged). A tree's file is not read in secure mode (EPERM).
 */
int cpuinfo_midr(const char *root, int cpu, struct pstat_cpuinfo *ci);

/*
 * The frequency a model name states, "... CPU @ 2.40GHz", in Hz; NAN
 * when it states none.
 */
double cpuinfo_name_hz(const char *model_name);

/*
 * The time stamp counter's frequency in Hz, NAN when unknown. On the
 * live machine (root NULL) of x86: for Intel, CPUID leaf 0x15 (the TSC
 * to crystal ratio times the crystal's frequency) when it states all
 * three; else the frequency in ci's model name. A tree has no CPUID: its
 * cpuinfo's model name only. Elsewhere unknown.
 */
double cpuinfo_tsc_hz(const char *root, const struct pstat_cpuinfo *ci);

#endif
