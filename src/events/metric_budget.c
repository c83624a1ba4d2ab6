/* SPDX-License-Identifier: MIT */
/*
 * The counters a metric's group may use on each core PMU (see
 * metric_budget.h): how many general-purpose counters, which fixed ones,
 * and which of them the NMI watchdog holds.
 */
#include <stdlib.h>
#include <string.h>

#include "base/secure.h"
#include "base/util.h"
#include "events/metric_budget.h"

enum core_kind {
	CORE_NONE,
	CORE_INTEL,             /* a core of Skylake's generation or older */
	CORE_INTEL_SLOTS,       /* Ice Lake and later: slots, 8 counters */
	CORE_INTEL_ATOM,        /* a hybrid's E-core PMU */
	CORE_AMD,
	CORE_ARM,
	CORE_OTHER,
};

static enum core_kind core_kind(const struct pstat_metric_lib *lib,
				const struct pstat_pmu *pmu)
{
	const char *n = pmu->name;

	if (!strcmp(n, "cpu_atom") || !strcmp(n, "cpu_lowpower"))
		return CORE_INTEL_ATOM;
	if (!strcmp(n, "cpu_core") ||
	    (!strcmp(n, "cpu") && (lib->families & METRIC_FAM_INTEL)))
		return pmu_alias_find(pmu, "slots") ? CORE_INTEL_SLOTS :
						      CORE_INTEL;
	if (!strcmp(n, "cpu"))
		return lib->amd ? CORE_AMD : CORE_OTHER;
	if (str_starts_with(n, "armv8_") || str_starts_with(n, "armv9_") ||
	    (lib->core[0] && !strcmp(n, lib->core) &&
	     (lib->families & METRIC_FAM_ARM)))
		return CORE_ARM;
	return CORE_NONE;
}

int metric_budget_watchdog(const char *root)
{
	char *path, *s;
	int on = 1;

	if (root && secure_mode())
		return 1;
	path = root ? xasprintf("%s/proc/sys/kernel/nmi_watchdog", root) :
		      xstrdup("/proc/sys/kernel/nmi_watchdog");
	s = read_file_str(path);
	free(path);
	if (s && !strcmp(str_trim(s), "0"))
		on = 0;
	free(s);
	return on;
}

int metric_budget_core(const struct pstat_metric_lib *lib,
		       const struct pstat_pmu *pmu, int watchdog,
		       struct pstat_metric_budget *b)
{
	const unsigned insn_cyc_ref = 1u << METRIC_FIXED_INSN |
				      1u << METRIC_FIXED_CYCLES |
				      1u << METRIC_FIXED_REF;

	switch (core_kind(lib, pmu)) {
	case CORE_INTEL:
		/*
		 * Skylake and the cores before it: "four (eight when
		 * Hyperthreading is disabled) programmable counters" besides
		 * the fixed ones for instructions, cycles and reference
		 * cycles (Intel's perfmon event files, SKL/events/
		 * skylake_core.json, INST_RETIRED.ANY); four, as SMT may be on
		 * (the kernel's count is CPUID's, which the BIOS setting
		 * decides, not whether SMT is on now).
		 */
		b->hw_gp = 4;
		b->hw_fixed = insn_cyc_ref;
		break;
	case CORE_INTEL_SLOTS:
		/*
		 * Ice Lake and later P-cores: "the eight programmable
		 * counters" (ICL/events/icelake_core.json; SPR and the hybrid
		 * Golden Cove alike), and a fourth fixed counter for slots.
		 */
		b->hw_gp = 8;
		b->hw_fixed = insn_cyc_ref | 1u << METRIC_FIXED_SLOTS;
		break;
	case CORE_INTEL_ATOM:
		/*
		 * Gracemont, the first hybrid E-core: counters 0-5
		 * (ADL/events/alderlake_gracemont_core.json); later E-cores
		 * have more.
		 */
		b->hw_gp = 6;
		b->hw_fixed = insn_cyc_ref;
		break;
	case CORE_AMD:
		/*
		 * Family 15h and later: six core counters (PERF_CTL0-5 in
		 * AMD's PPRs; AMD64_NUM_COUNTERS_CORE in the kernel's
		 * arch/x86/events/amd/core.c), no fixed ones.
		 */
		b->hw_gp = 6;
		b->hw_fixed = 0;
		break;
	case CORE_ARM:
		/*
		 * Arm PMUv3 has up to 31 event counters (PMCR_EL0.N) and a
		 * cycle counter; the Neoverse N1/V1/N2/V2 and Cortex-A53/A72
		 * have six (their technical reference manuals).
		 */
		b->hw_gp = 6;
		b->hw_fixed = 1u << METRIC_FIXED_CYCLES;
		break;
	case CORE_OTHER:
		/* a core PMU of another vendor: four, the fewest above */
		b->hw_gp = 4;
		b->hw_fixed = 0;
		break;
	case CORE_NONE:
		return -1;
	}
	b->gp = b->hw_gp;
	b->fixed = b->hw_fixed;
	/*
	 * The watchdog counts cycles, pinned (kernel/watchdog_perf.c): on
	 * the cycles' fixed counter where there is one, else on a
	 * general-purpose counter.
	 */
	if (watchdog && (b->fixed & 1u << METRIC_FIXED_CYCLES))
		b->fixed &= ~(1u << METRIC_FIXED_CYCLES);
	else if (watchdog)
		b->gp--;
	return 0;
}

/*
 * Which fixed counter the kernel gives an Intel raw config (event |
 * umask << 8 | ...): those of its fixed-counter constraints
 * (arch/x86/events/intel/core.c), with no edge, inv, cmask or TSX
 * bits, which they must match.
 */
static int intel_fixed(__u64 config, int slots)
{
	const __u64 must_be_0 = 1ULL << 18 | 1ULL << 23 | 0xffULL << 24 |
				0x3ULL << 32;

	if (config & must_be_0)
		return METRIC_CTR_GP;
	/*
	 * The topdown metric events (event 0, umask 0x80-0x87: the
	 * kernel's topdown-* of a core with PERF_METRICS) are fields of
	 * that register, read through slots: they take no counter
	 */
	if (slots && (config & 0xffff) >= 0x8000 &&
	    (config & 0xffff) <= 0x8700 && !(config & 0xff))
		return METRIC_CTR_NONE;
	switch (config & 0xffff) {
	case 0x00c0:
		return METRIC_FIXED_INSN;
	case 0x01c0:
		/* INST_RETIRED.PREC_DIST: fixed counter 0 only (Ice Lake on) */
		return slots ? METRIC_FIXED_INSN : METRIC_CTR_GP;
	case 0x0100:
		return slots ? METRIC_FIXED_INSN : METRIC_CTR_GP;
	case 0x003c:
		return METRIC_FIXED_CYCLES;
	case 0x0300:
		return METRIC_FIXED_REF;
	case 0x0400:
		return slots ? METRIC_FIXED_SLOTS : METRIC_CTR_GP;
	}
	return METRIC_CTR_GP;
}

int metric_budget_counter(const struct pstat_metric_lib *lib,
			  const struct pstat_pmu *pmu,
			  const struct perf_event_attr *a)
{
	enum core_kind k = core_kind(lib, pmu);
	int intel = k == CORE_INTEL || k == CORE_INTEL_SLOTS ||
		    k == CORE_INTEL_ATOM;
	__u64 c = a->config;

	if (a->type == PERF_TYPE_HARDWARE) {
		switch (c & 0xffffffff) {
		case PERF_COUNT_HW_CPU_CYCLES:
			return intel || k == CORE_ARM ? METRIC_FIXED_CYCLES :
						       METRIC_CTR_GP;
		case PERF_COUNT_HW_INSTRUCTIONS:
			return intel ? METRIC_FIXED_INSN : METRIC_CTR_GP;
		case PERF_COUNT_HW_REF_CPU_CYCLES:
			return intel ? METRIC_FIXED_REF : METRIC_CTR_GP;
		}
		return METRIC_CTR_GP;
	}
	if (a->type != PERF_TYPE_RAW && a->type != pmu->type)
		return METRIC_CTR_GP;
	if (intel)
		return intel_fixed(c, k == CORE_INTEL_SLOTS);
	/* Arm's CPU_CYCLES, event 0x11, goes on the cycle counter */
	if (k == CORE_ARM && c == 0x11)
		return METRIC_FIXED_CYCLES;
	return METRIC_CTR_GP;
}
