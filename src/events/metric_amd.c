/* SPDX-License-Identifier: MIT */
/*
 * The metric library on AMD: which Zen generation the CPU is (its family
 * and model), which of AMD's metric families apply there (the pipeline
 * analysis, the core events of Zen 4 and Zen 5, the memory controllers'
 * and the data fabric's DRAM counts), and why not where they do not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "events/metric_lib.h"

/*
 * The Zen generation of an AMD family and model, as the kernel tells
 * them apart (arch/x86/kernel/cpu/amd.c, bsp_init_amd): family 17h Zen 1
 * or 2, 19h Zen 3 or 4 by model, 1Ah Zen 5; 0 for anything else.
 */
static int amd_zen_generation(int family, int model)
{
	switch (family) {
	case 0x17:
		return (model >= 0x30 && model <= 0x4f) ||
		       (model >= 0x60 && model <= 0x7f) ||
		       model == 0x90 || model == 0x91 ||
		       (model >= 0xa0 && model <= 0xaf) ? 2 : 1;
	case 0x19:
		return (model >= 0x10 && model <= 0x1f) ||
		       (model >= 0x60 && model <= 0xaf) ? 4 : 3;
	case 0x1a:
		/* Zen 5: 00h-2Fh, 40h-4Fh, 60h-7Fh (bsp_init_amd) */
		return (model >= 0 && model <= 0x2f) ||
		       (model >= 0x40 && model <= 0x4f) ||
		       (model >= 0x60 && model <= 0x7f) ? 5 : 0;
	}
	return 0;
}

/* Why the family of the CPU is not known, into lib->no_topdown. */
static void amd_family_unknown(struct pstat_metric_lib *lib, const char *root)
{
	const char *why = lib->cpu_err == -EPERM ?
				  "a tree's cpuinfo is not trusted when pstat runs with privileges" :
			  lib->cpu_err ? strerror(-lib->cpu_err) :
					 "it names no cpu family";

	snprintf(lib->no_topdown, sizeof(lib->no_topdown),
		 "AMD's pipeline-utilisation events depend on the CPU's family, which %s/proc/cpuinfo does not give (%s)",
		 root ? root : "", why);
}

/*
 * Whether the kernel's amd_df has the PerfMonV2 umask (config:8-15,24-27)
 * that Zen 4's data fabric events need (umasks of 12 bits).
 */
static int amd_df_v2(const char *root)
{
	char *path = xasprintf("%s/bus/event_source/devices/amd_df/format/umask",
			       root ? root : "/sys");
	char *s = read_file_str(path);
	int ok = s && strstr(s, "24-27");

	free(s);
	free(path);
	return ok;
}

/*
 * AMD: the vendor cpuinfo names, or (without a cpuinfo) a core PMU "cpu"
 * beside the IBS or AMD uncore PMUs. AMD documents the pipeline
 * utilisation (dispatch slots by PMCx1A0's reasons) for Zen 4 (PPR for
 * family 19h model 11h: new in Zen 4) and Zen 5; the PPRs of Zen 3 and
 * earlier have no such events.
 */
void metric_amd_find(struct pstat_metric_lib *lib, struct pstat_pmus *pmus,
		     const char *root)
{
	const struct pstat_cpuinfo *ci = &lib->cpu;

	if (strcmp(lib->core, "cpu"))
		return;
	if (ci->vendor[0] ? strcmp(ci->vendor, "AuthenticAMD") :
			    !(pmus_find(pmus, "ibs_op") || pmus_find(pmus, "amd_df") ||
			      pmus_find(pmus, "amd_l3")))
		return;
	lib->amd = 1;
	if (ci->family < 0 || ci->model < 0) {
		amd_family_unknown(lib, root);
		return;
	}
	lib->amd_zen = amd_zen_generation(ci->family, ci->model);
	if (lib->amd_zen >= 4) {
		lib->families |= METRIC_FAM_AMD_ZEN4;
		if (lib->amd_zen >= 5)
			lib->families |= METRIC_FAM_AMD_ZEN5;
		else
			lib->families |= METRIC_FAM_AMD_ZEN4_ONLY;
		if (pmus_find(pmus, "amd_l3"))
			lib->families |= METRIC_FAM_AMD_L3;
		if (ci->family == 0x19 && ci->model >= 0x10 &&
		    ci->model <= 0x1f && amd_df_v2(root))
			lib->families |= METRIC_FAM_AMD_DF_GENOA;
		/* EPYC 9005: Turin (model 02h), Turin dense (11h) */
		if (ci->family == 0x1a && ci->model <= 0x1f &&
		    amd_df_v2(root))
			lib->families |= METRIC_FAM_AMD_DF_TURIN;
		lib->topdown_levels = 2;
	} else if (lib->amd_zen) {
		if (pmus_find(pmus, "amd_df"))
			lib->families |= METRIC_FAM_AMD_DF;
		snprintf(lib->no_topdown, sizeof(lib->no_topdown),
			 "this AMD CPU (family %Xh model %02Xh) is a Zen %d; AMD documents its pipeline-utilisation events (PMCx1A0 DeNoDispatchPerSlot) from Zen 4 on",
			 ci->family, ci->model, lib->amd_zen);
	} else {
		snprintf(lib->no_topdown, sizeof(lib->no_topdown),
			 "pstat knows AMD's pipeline-utilisation events of Zen 4 (family 19h) and Zen 5 (family 1Ah models 00h-2Fh, 40h-4Fh, 60h-7Fh), not those of family %Xh model %02Xh",
			 ci->family, ci->model);
	}
}

/*
 * Why an AMD CPU has no DRAM bandwidth here, into lib->no_umc. The
 * kernel registers the memory controllers' PMUs (amd_umc_N) from Linux
 * 6.9 on, and only where the CPU has PerfMonV2 (Zen 4 and later).
 */
void metric_amd_no_umc(struct pstat_metric_lib *lib)
{
	if (lib->amd_zen >= 4 || !lib->amd_zen)
		snprintf(lib->no_umc, sizeof(lib->no_umc),
			 "there is no amd_umc PMU (the kernel exports the memory controllers' counters from Linux 6.9 on, on Zen 4 and later)%s",
			 lib->families & (METRIC_FAM_AMD_DF_GENOA |
					  METRIC_FAM_AMD_DF_TURIN) ?
				 "; the data fabric's are here: memory_bandwidth_read, memory_bandwidth_write, memory_bandwidth" :
				 "");
	else
		snprintf(lib->no_umc, sizeof(lib->no_umc),
			 "there is no amd_umc PMU: the memory controllers' counters came with PerfMonV2 in Zen 4, and this is a Zen %d%s",
			 lib->amd_zen,
			 lib->families & METRIC_FAM_AMD_DF ?
				 " (its data fabric counts reads and writes together: memory_bandwidth)" :
				 "");
}

/* Whether w names an AMD memory-controller metric, or its group. */
int metric_amd_umc_named(const char *w)
{
	char name[96];

	for (size_t i = 0; i < metric_lib_table_size; i++) {
		const struct metric_lib_entry *e = &metric_lib_table[i];

		metric_lib_entry_name(e, name, sizeof(name));
		if ((e->families & METRIC_FAM_AMD_UMC) &&
		    (!strcasecmp(name, w) || !strcasecmp(e->group, w)))
			return 1;
	}
	return 0;
}
