/* SPDX-License-Identifier: MIT */
/*
 * The built-in metrics, in pstat's own definition syntax (metric.h).
 * Each formula is a fact from the vendor's public documentation named in
 * its source; none is taken from perf's event tables. Where a formula is
 * adapted from a permissively licensed vendor repository, its licence
 * ships in metric_lib_licenses/ (Intel perfmon: BSD-3-Clause; Arm
 * telemetry-solution: Apache-2.0).
 *
 * Top-down fractions are evaluated as fractions and shown x100 in %;
 * other metrics refer to them unscaled. Thresholds follow the vendors'
 * (Intel's TMA: frontend > 0.15, bad speculation > 0.15, backend > 0.2,
 * retiring > 0.7 or its heavy operations > 0.1 flags the area to look
 * at). These are the fallback where the vendors' own tables
 * (vendor_tables.c, chosen by the CPU's identity) do not name
 * the CPU.
 */
#include "base/util.h"
#include "events/metric_lib.h"

#define SRC_TMA "Intel perfmon TMA_Metrics (BSD-3-Clause), level 1; Yasin, 'A Top-Down Method for Performance Analysis', ISPASS 2014"
#define SRC_TMA_SKL "Intel perfmon SKL and SKX metrics (BSD-3-Clause, TMA 5.01), level 2; encodings from Intel perfmon skylake_core.json / skylakex_core.json"
#define SRC_PERF_METRICS "Intel SDM vol. 3B, 'Performance Metrics' (IA32_PERF_METRICS); Intel perfmon TMA_Metrics (BSD-3-Clause)"
#define SRC_ARM_V2 "Arm Neoverse V2 telemetry specification, topdown level 1 (ARM-software/telemetry-solution, Apache-2.0)"
#define SRC_ARM "Arm telemetry-solution (Apache-2.0), Neoverse metrics"
#define SRC_ATOM "Intel perfmon E-core TMA metrics (BSD-3-Clause), level 1: TOPDOWN_FE_BOUND.ALL, TOPDOWN_BAD_SPECULATION.ALL, TOPDOWN_RETIRING.ALL, TOPDOWN_BE_BOUND.ALL over their sum"
#define SRC_AMD "AMD, table 'Guidance for Pipeline Utilization Analysis Statistics': Zen 4 in the PPR for AMD Family 19h Model 11h Revision B1, section 2.1.15.2 'Performance Measurement' (6 slots a cycle); Zen 5 in 'Performance Monitor Counters for AMD Family 1Ah Model 00h-0Fh Processors', section 1.2 (8 slots a cycle). Slots = #slots x PMCx076 LsNotHaltedCyc; PMCx1A0 DeNoDispatchPerSlot umask 01h NoOpsFromFrontend, 1Eh BackendStalls, 60h SMTContention; PMCx0AA DeSrcOpDisp umask 07h (all sources); PMCx0C1 ExRetOps"
#define SRC_AMD_L2 "AMD, the same pipeline-utilisation guidance (PPR for Family 19h Model 11h, section 2.1.15.2; Family 1Ah Model 00h-0Fh performance monitor counters, section 1.2), level 2: PMCx1A0 NoOpsFromFrontend with CntMask = the dispatch width; PMCx0C3 ExRetBrnMisp and PMCx096 resyncs or NC redirects; PMCx0D6 ExNoRetire umask 02h (not complete) and A2h (load not complete); PMCx1C2 retired microcode ops over PMCx0C1 ExRetOps"
#define SRC_AMD_UMC "AMD, PPR for Family 19h Model 11h Revision B1, section 8.2.1 'UMC Performance Monitor Events' (the same events on Family 1Ah, as perf's amdzen5 memory-controller events): EventSelect 00h MEMCLK cycles, 05h ACTIVATE, 06h PRECHARGE, 0Ah CAS commands (64 bytes each), 14h data bus clocks (two slots a MEMCLK); RdWrMask 1 reads, 2 writes. The kernel's amd_umc_N PMUs (arch/x86/events/amd/uncore.c, Linux 6.9+: event config:0-7, rdwrmask config:8-9), summed; perf's memory_controller metric names and units"
#define SRC_AMD_CORE "AMD, PPR for Family 19h Model 11h Revision B1 and 'Performance Monitor Counters for AMD Family 1Ah Model 00h-0Fh Processors', core events: PMCx0C2 ExRetBrn, PMCx0C3 ExRetBrnMisp, PMCx18E IcTagHitMiss, PMCx28F OpCacheHitMiss, PMCx0AA DeSrcOpDisp, PMCx0C1 ExRetOps, PMCx00E FpDispFaults, PMCx045 LsL1DTlbMiss umask F0h (L2 DTLB misses: page walks); perf's amdzen4/amdzen5 recommended metric names (dtlb_mpki is pstat's)"
#define SRC_AMD_Z4_CORE "AMD, PPR for Family 19h Model 11h Revision B1, core events: PMCx060 L2RequestG1, PMCx064 L2CacheReqStat, PMCx070-072 L2 prefetches hitting L2, L3, neither (umask FFh), PMCx044 LsAnyFillsFromSys, PMCx045 LsL1DTlbMiss, PMCx078 LsTlbFlush, PMCx084/085 BpL1TlbMiss; perf's amdzen4 recommended metrics (names, formulas); encodings as libpfm4's amd64_fam19h_zen4 table"
#define SRC_AMD_Z5_CORE "AMD, 'Performance Monitor Counters for AMD Family 1Ah Model 00h-0Fh Processors', core events: PMCx060 L2RequestG1 (umask F1h no prefetch), PMCx070-072 L2 hardware prefetches (umask 1Fh), and PMCx064, 044, 045, 078, 084/085, 029 as on Zen 4; perf's amdzen5 recommended metrics (names, per 1000 instructions)"
#define SRC_AMD_L3 "AMD, PPR for Family 19h Model 11h Revision B1, L3 cache events: L3PMCx04 L3LookupState (umask FFh all coherent accesses, 01h misses), on the kernel's amd_l3 PMU (one per CCX, system-wide); perf's l3_cache metrics"
#define SRC_AMD_DF "AMD, the data fabric's DRAM channel controller events: event 07h + 40h x channel (0 to 7), umask 38h 'requests with data (64B)', reads and writes together (PPR for Family 17h Model 31h and Family 19h Model 01h, DF performance monitor events; perf's amdzen1/2/3 dram_channel_data_controller_0..7); the kernel's amd_df PMU, one per system, its four counters multiplexed over the eight events"
#define SRC_AMD_DF_GENOA "AMD, PPR for Family 19h Model 11h Revision B1, section 7.1 'Fabric Performance Monitor Counter (PMC) Events': per Coherent Station n (0 to 11) event 1Fh + 40h x n, umask 7FEh / 7FFh read / write beats for the local processor, BFEh / BFFh for the remote one, 64 bytes each; the kernel's amd_df PMU with the PerfMonV2 formats (event config:0-7,32-37, umask config:8-15,24-27); perf's amdzen4 data_fabric metric names"
#define SRC_AMD_DF_TURIN "AMD, PPR for Family 1Ah Model 02h Revision C1, section 2.1.16.2 'Performance Measurement', table 'Guidance for Common Performance Statistics with Complex Event Selects': per DRAM channel n (0 to 11) event 1Fh + 40h x n, umask FFEh reads for either socket, 7FFh / BFFh / FFFh writes for this, the other, either socket, 64 bytes each; the kernel's amd_df PMU with the PerfMonV2 formats; perf's amdzen5 data_fabric metric names"
#define SRC_GENERIC "generic: the kernel's generic events (perf_event_open(2))"
#define SRC_IMC "Intel perfmon SKX metrics (BSD-3-Clause): memory_bandwidth_* in MB/s; cas_count_* scaled to MiB by the kernel"
#define SRC_IMC_SCH "Intel perfmon GNR metrics (BSD-3-Clause): memory_bandwidth_* over UNC_M_CAS_COUNT_SCH0/SCH1, in MB/s; the kernel's cas_count_*_sch0/1 in MiB"

const struct metric_lib_entry metric_lib_table[] = {
	/* everywhere */
	{ METRIC_FAM_SOFTWARE, "Summary",
	  "cpus_utilized = task-clock / (duration_time * 1000); unit = CPUs; higher = yes; desc = CPUs busy on the task, on average",
	  SRC_GENERIC },

	/* any core PMU: the kernel's generic events */
	{ METRIC_FAM_ANY, "Summary",
	  "ipc = instructions / cycles; unit = insn/cycle; higher = yes; desc = Instructions retired per core cycle",
	  SRC_GENERIC },
	{ METRIC_FAM_ANY, "Summary",
	  "cpi = cycles / instructions; unit = cycles/insn; higher = no; desc = Core cycles per instruction retired",
	  SRC_GENERIC },
	{ METRIC_FAM_ANY, "Summary",
	  "frequency = cycles / task-clock / 1e6; unit = GHz; higher = yes; desc = Core cycles per second of task time",
	  SRC_GENERIC },
	{ METRIC_FAM_ANY, "Branches",
	  "branch_miss_rate = branch-misses / branches; scale = 100; unit = %; higher = no; desc = Branches mispredicted, of all branches",
	  SRC_GENERIC },
	{ METRIC_FAM_ARM, "Cache",
	  "l1d_mpki = l1d_cache_refill / inst_retired * 1000; unit = MPKI; higher = no; desc = L1 data cache refills per 1000 instructions",
	  SRC_ARM " l1d_cache_mpki" },
	{ METRIC_FAM_ANY, "Cache",
	  "l1d_mpki = L1-dcache-load-misses / instructions * 1000; unit = MPKI; higher = no; desc = L1 data cache load misses per 1000 instructions",
	  SRC_GENERIC },
	{ METRIC_FAM_ARM, "Cache",
	  "l2_mpki = l2d_cache_refill / inst_retired * 1000; unit = MPKI; higher = no; desc = L2 cache refills per 1000 instructions",
	  SRC_ARM " l2_cache_mpki" },
	{ METRIC_FAM_INTEL_SKL_L2, "Cache",
	  "l2_mpki = $core@event=0xf1,umask=0x1f@ / instructions * 1000; unit = MPKI; higher = no; desc = L2 lines filled (L2_LINES_IN.ALL) per 1000 instructions",
	  "Intel perfmon SKX metrics (BSD-3-Clause): l2_mpi, L2_LINES_IN.ALL (event 0xf1, umask 0x1f)" },
	{ METRIC_FAM_INTEL_SNB, "Cache",
	  "l2_mpki = $core@event=0xf1,umask=0x7@ / instructions * 1000; unit = MPKI; higher = no; desc = L2 lines filled (L2_LINES_IN.ALL) per 1000 instructions",
	  "Intel perfmon SNB, IVB, HSW and BDW core events (BSD-3-Clause): L2_LINES_IN.ALL is event 0xf1, umask 0x07 there" },
	/* AMD: perf's all_l2_cache_misses (core requests and L2 prefetches) */
	{ METRIC_FAM_AMD_ZEN4_ONLY, "Cache",
	  "l2_mpki = all_l2_cache_misses / instructions * 1000; unit = MPKI; higher = no; desc = L2 cache misses (core requests and L2 prefetches) per 1000 instructions",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN5, "Cache",
	  "l2_mpki = all_l2_cache_misses_pti; unit = MPKI; higher = no; desc = L2 cache misses (core requests and L2 prefetches) per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_ARM, "Cache",
	  "llc_mpki = ll_cache_miss_rd / inst_retired * 1000; unit = MPKI; higher = no; desc = Last-level cache read misses per 1000 instructions",
	  SRC_ARM " ll_cache_read_mpki" },
	/* AMD's kernel has no LLC-load-misses: not offered there */
	{ METRIC_FAM_NOT_AMD, "Cache",
	  "llc_mpki = LLC-load-misses / instructions * 1000; unit = MPKI; higher = no; desc = Last-level cache load misses per 1000 instructions",
	  SRC_GENERIC },
	{ METRIC_FAM_ARM, "TLB",
	  "dtlb_walk_rate = dtlb_walk / l1d_tlb; unit = walks/access; higher = no; desc = Data TLB walks per L1 data TLB access",
	  SRC_ARM " dtlb_walk_ratio (perf's dtlb_walk_rate)" },
	{ METRIC_FAM_ARM, "TLB",
	  "dtlb_mpki = dtlb_walk / inst_retired * 1000; unit = walks/kinsn; higher = no; desc = Data TLB walks per 1000 instructions",
	  SRC_ARM " dtlb_mpki" },
	/*
	 * The generic dTLB-load-misses counts page walks on Intel
	 * (DTLB_LOAD_MISSES.WALK_COMPLETED) but L1 DTLB misses on AMD: Intel
	 * only
	 */
	{ METRIC_FAM_INTEL, "TLB",
	  "dtlb_mpki = dTLB-load-misses / instructions * 1000; unit = walks/kinsn; higher = no; desc = Data TLB load walks (the generic dTLB-load-misses) per 1000 instructions",
	  SRC_GENERIC },
	/* AMD: the page walks themselves (L2 DTLB misses, PMCx045 umask F0h) */
	{ METRIC_FAM_AMD_ZEN4, "TLB",
	  "dtlb_mpki = cpu@event=0x45,umask=0xf0@ / instructions * 1000; unit = walks/kinsn; higher = no; desc = Data page walks (L1 and L2 data TLB misses) per 1000 instructions",
	  SRC_AMD_CORE },

	/*
	 * Memory bandwidth from the integrated memory controllers: the
	 * kernel scales cas_count_* to MiB (64-byte lines); Intel's metric
	 * is in MB/s (10^6), so x 1.048576
	 */
	{ METRIC_FAM_INTEL_IMC, "Memory",
	  "memory_bandwidth_read = uncore_imc@cas_count_read@ * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM read bandwidth",
	  SRC_IMC },
	{ METRIC_FAM_INTEL_IMC, "Memory",
	  "memory_bandwidth_write = uncore_imc@cas_count_write@ * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth",
	  SRC_IMC },
	{ METRIC_FAM_INTEL_IMC, "Memory",
	  "memory_bandwidth = (uncore_imc@cas_count_read@ + uncore_imc@cas_count_write@) * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes",
	  SRC_IMC },
	/* Granite Rapids, Sierra Forest: two schedulers a controller */
	{ METRIC_FAM_INTEL_IMC_SCH, "Memory",
	  "memory_bandwidth_read = (uncore_imc@cas_count_read_sch0@ + uncore_imc@cas_count_read_sch1@) * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM read bandwidth",
	  SRC_IMC_SCH },
	{ METRIC_FAM_INTEL_IMC_SCH, "Memory",
	  "memory_bandwidth_write = (uncore_imc@cas_count_write_sch0@ + uncore_imc@cas_count_write_sch1@) * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth",
	  SRC_IMC_SCH },
	{ METRIC_FAM_INTEL_IMC_SCH, "Memory",
	  "memory_bandwidth = (uncore_imc@cas_count_read_sch0@ + uncore_imc@cas_count_read_sch1@ + uncore_imc@cas_count_write_sch0@ + uncore_imc@cas_count_write_sch1@) * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes",
	  SRC_IMC_SCH },

	/*
	 * AMD Zen 4 and later: the memory controllers' (UMC) counters,
	 * which the kernel exports from Linux 6.9 on (amd_umc_N, one per
	 * controller, counting on the cpumask's CPU of its node). A CAS
	 * command moves 64 bytes; MB/s is 10^6 bytes a second, as Intel's.
	 */
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_mem_read_bandwidth = amd_umc@event=0xa,rdwrmask=0x1@ * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM read bandwidth, from the memory controllers' read CAS commands",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_mem_write_bandwidth = amd_umc@event=0xa,rdwrmask=0x2@ * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth, from the memory controllers' write CAS commands",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_mem_bandwidth = amd_umc@event=0xa@ * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes, from the memory controllers' CAS commands",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_data_bus_utilization = amd_umc@event=0x14@ / 2 / amd_umc@event=0x0@; scale = 100; unit = %; higher = yes; desc = Memory clock cycles the DRAM data bus was busy (two data slots a clock)",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_cas_cmd_rate = amd_umc@event=0xa@ * 1000 / amd_umc@event=0x0@; unit = cmds/1k MEMCLK; higher = yes; desc = CAS commands per 1000 memory clock cycles",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_activate_cmd_rate = amd_umc@event=0x5@ * 1000 / amd_umc@event=0x0@; unit = cmds/1k MEMCLK; higher = no; desc = ACTIVATE commands (DRAM row opens) per 1000 memory clock cycles",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "memory_controller",
	  "umc_precharge_cmd_rate = amd_umc@event=0x6@ * 1000 / amd_umc@event=0x0@; unit = cmds/1k MEMCLK; higher = no; desc = PRECHARGE commands (DRAM row closes) per 1000 memory clock cycles",
	  SRC_AMD_UMC },
	/*
	 * Zen 1 to 3 have no UMC counters; their data fabric counts the
	 * requests with data at each DRAM channel controller, reads and
	 * writes together, so only the total.
	 */
	{ METRIC_FAM_AMD_DF, "Memory",
	  "memory_bandwidth = (amd_df@event=0x7,umask=0x38@ + amd_df@event=0x47,umask=0x38@ + amd_df@event=0x87,umask=0x38@ + amd_df@event=0xc7,umask=0x38@ + amd_df@event=0x107,umask=0x38@ + amd_df@event=0x147,umask=0x38@ + amd_df@event=0x187,umask=0x38@ + amd_df@event=0x1c7,umask=0x38@) * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes, from the data fabric's eight DRAM channel controllers",
	  SRC_AMD_DF },
	/* pstat's names, as on Intel */
	{ METRIC_FAM_AMD_UMC, "Memory",
	  "memory_bandwidth_read = umc_mem_read_bandwidth; unit = MB/s; higher = yes; desc = DRAM read bandwidth",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "Memory",
	  "memory_bandwidth_write = umc_mem_write_bandwidth; unit = MB/s; higher = yes; desc = DRAM write bandwidth",
	  SRC_AMD_UMC },
	{ METRIC_FAM_AMD_UMC, "Memory",
	  "memory_bandwidth = umc_mem_bandwidth; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes",
	  SRC_AMD_UMC },

	/*
	 * Zen 4 EPYC (Genoa, the PPR for family 19h model 11h) where the
	 * kernel has no amd_umc (before 6.9): the data fabric's read and
	 * write beats (64 bytes) at the twelve coherent stations in front
	 * of the memory controllers, for this socket's requesters and the
	 * other's; perf's totals in MiB, and the bandwidth from them. The
	 * memory controllers' own counts come first where there are both.
	 */
	{ METRIC_FAM_AMD_DF_GENOA, "data_fabric",
	  "dram_read_data_for_local_processor = (amd_df@event=0x1f,umask=0x7fe@ + amd_df@event=0x5f,umask=0x7fe@ + amd_df@event=0x9f,umask=0x7fe@ + amd_df@event=0xdf,umask=0x7fe@ + amd_df@event=0x11f,umask=0x7fe@ + amd_df@event=0x15f,umask=0x7fe@ + amd_df@event=0x19f,umask=0x7fe@ + amd_df@event=0x1df,umask=0x7fe@ + amd_df@event=0x21f,umask=0x7fe@ + amd_df@event=0x25f,umask=0x7fe@ + amd_df@event=0x29f,umask=0x7fe@ + amd_df@event=0x2df,umask=0x7fe@) * 64 / 1048576; unit = MiB; higher = yes; desc = DRAM data read for this socket's processors, at the twelve coherent stations",
	  SRC_AMD_DF_GENOA },
	{ METRIC_FAM_AMD_DF_GENOA, "data_fabric",
	  "dram_write_data_for_local_processor = (amd_df@event=0x1f,umask=0x7ff@ + amd_df@event=0x5f,umask=0x7ff@ + amd_df@event=0x9f,umask=0x7ff@ + amd_df@event=0xdf,umask=0x7ff@ + amd_df@event=0x11f,umask=0x7ff@ + amd_df@event=0x15f,umask=0x7ff@ + amd_df@event=0x19f,umask=0x7ff@ + amd_df@event=0x1df,umask=0x7ff@ + amd_df@event=0x21f,umask=0x7ff@ + amd_df@event=0x25f,umask=0x7ff@ + amd_df@event=0x29f,umask=0x7ff@ + amd_df@event=0x2df,umask=0x7ff@) * 64 / 1048576; unit = MiB; higher = yes; desc = DRAM data written for this socket's processors, at the twelve coherent stations",
	  SRC_AMD_DF_GENOA },
	{ METRIC_FAM_AMD_DF_GENOA, "data_fabric",
	  "dram_read_data_for_remote_processor = (amd_df@event=0x1f,umask=0xbfe@ + amd_df@event=0x5f,umask=0xbfe@ + amd_df@event=0x9f,umask=0xbfe@ + amd_df@event=0xdf,umask=0xbfe@ + amd_df@event=0x11f,umask=0xbfe@ + amd_df@event=0x15f,umask=0xbfe@ + amd_df@event=0x19f,umask=0xbfe@ + amd_df@event=0x1df,umask=0xbfe@ + amd_df@event=0x21f,umask=0xbfe@ + amd_df@event=0x25f,umask=0xbfe@ + amd_df@event=0x29f,umask=0xbfe@ + amd_df@event=0x2df,umask=0xbfe@) * 64 / 1048576; unit = MiB; higher = yes; desc = DRAM data read for the other socket's processors, at the twelve coherent stations",
	  SRC_AMD_DF_GENOA },
	{ METRIC_FAM_AMD_DF_GENOA, "data_fabric",
	  "dram_write_data_for_remote_processor = (amd_df@event=0x1f,umask=0xbff@ + amd_df@event=0x5f,umask=0xbff@ + amd_df@event=0x9f,umask=0xbff@ + amd_df@event=0xdf,umask=0xbff@ + amd_df@event=0x11f,umask=0xbff@ + amd_df@event=0x15f,umask=0xbff@ + amd_df@event=0x19f,umask=0xbff@ + amd_df@event=0x1df,umask=0xbff@ + amd_df@event=0x21f,umask=0xbff@ + amd_df@event=0x25f,umask=0xbff@ + amd_df@event=0x29f,umask=0xbff@ + amd_df@event=0x2df,umask=0xbff@) * 64 / 1048576; unit = MiB; higher = yes; desc = DRAM data written for the other socket's processors, at the twelve coherent stations",
	  SRC_AMD_DF_GENOA },
	{ METRIC_FAM_AMD_DF_GENOA, "Memory",
	  "memory_bandwidth_read = (dram_read_data_for_local_processor + dram_read_data_for_remote_processor) * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM read bandwidth, from the data fabric",
	  SRC_AMD_DF_GENOA },
	{ METRIC_FAM_AMD_DF_GENOA, "Memory",
	  "memory_bandwidth_write = (dram_write_data_for_local_processor + dram_write_data_for_remote_processor) * 1.048576 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth, from the data fabric",
	  SRC_AMD_DF_GENOA },
	{ METRIC_FAM_AMD_DF_GENOA, "Memory",
	  "memory_bandwidth = memory_bandwidth_read + memory_bandwidth_write; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes, from the data fabric",
	  SRC_AMD_DF_GENOA },

	/*
	 * Zen 5 EPYC (Turin, the PPR for family 1Ah model 02h) where the
	 * kernel has no amd_umc: the data fabric's read and write beats
	 * (64 bytes) at each of the twelve DRAM channels; perf's data_fabric
	 * bandwidths, and pstat's names from them.
	 */
	{ METRIC_FAM_AMD_DF_TURIN, "data_fabric",
	  "dram_read_bandwidth_for_local_or_remote_socket = (amd_df@event=0x1f,umask=0xffe@ + amd_df@event=0x5f,umask=0xffe@ + amd_df@event=0x9f,umask=0xffe@ + amd_df@event=0xdf,umask=0xffe@ + amd_df@event=0x11f,umask=0xffe@ + amd_df@event=0x15f,umask=0xffe@ + amd_df@event=0x19f,umask=0xffe@ + amd_df@event=0x1df,umask=0xffe@ + amd_df@event=0x21f,umask=0xffe@ + amd_df@event=0x25f,umask=0xffe@ + amd_df@event=0x29f,umask=0xffe@ + amd_df@event=0x2df,umask=0xffe@) * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM read bandwidth for either socket's requesters, at the twelve DRAM channels",
	  SRC_AMD_DF_TURIN },
	{ METRIC_FAM_AMD_DF_TURIN, "data_fabric",
	  "dram_write_bandwidth_for_local_socket = (amd_df@event=0x1f,umask=0x7ff@ + amd_df@event=0x5f,umask=0x7ff@ + amd_df@event=0x9f,umask=0x7ff@ + amd_df@event=0xdf,umask=0x7ff@ + amd_df@event=0x11f,umask=0x7ff@ + amd_df@event=0x15f,umask=0x7ff@ + amd_df@event=0x19f,umask=0x7ff@ + amd_df@event=0x1df,umask=0x7ff@ + amd_df@event=0x21f,umask=0x7ff@ + amd_df@event=0x25f,umask=0x7ff@ + amd_df@event=0x29f,umask=0x7ff@ + amd_df@event=0x2df,umask=0x7ff@) * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth for this socket's requesters, at the twelve DRAM channels",
	  SRC_AMD_DF_TURIN },
	{ METRIC_FAM_AMD_DF_TURIN, "data_fabric",
	  "dram_write_bandwidth_for_remote_socket = (amd_df@event=0x1f,umask=0xbff@ + amd_df@event=0x5f,umask=0xbff@ + amd_df@event=0x9f,umask=0xbff@ + amd_df@event=0xdf,umask=0xbff@ + amd_df@event=0x11f,umask=0xbff@ + amd_df@event=0x15f,umask=0xbff@ + amd_df@event=0x19f,umask=0xbff@ + amd_df@event=0x1df,umask=0xbff@ + amd_df@event=0x21f,umask=0xbff@ + amd_df@event=0x25f,umask=0xbff@ + amd_df@event=0x29f,umask=0xbff@ + amd_df@event=0x2df,umask=0xbff@) * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth for the other socket's requesters, at the twelve DRAM channels",
	  SRC_AMD_DF_TURIN },
	{ METRIC_FAM_AMD_DF_TURIN, "data_fabric",
	  "dram_write_bandwidth_for_local_or_remote_socket = (amd_df@event=0x1f,umask=0xfff@ + amd_df@event=0x5f,umask=0xfff@ + amd_df@event=0x9f,umask=0xfff@ + amd_df@event=0xdf,umask=0xfff@ + amd_df@event=0x11f,umask=0xfff@ + amd_df@event=0x15f,umask=0xfff@ + amd_df@event=0x19f,umask=0xfff@ + amd_df@event=0x1df,umask=0xfff@ + amd_df@event=0x21f,umask=0xfff@ + amd_df@event=0x25f,umask=0xfff@ + amd_df@event=0x29f,umask=0xfff@ + amd_df@event=0x2df,umask=0xfff@) * 64 / 1e6 / duration_time; unit = MB/s; higher = yes; desc = DRAM write bandwidth for either socket's requesters, at the twelve DRAM channels",
	  SRC_AMD_DF_TURIN },
	{ METRIC_FAM_AMD_DF_TURIN, "Memory",
	  "memory_bandwidth_read = dram_read_bandwidth_for_local_or_remote_socket; unit = MB/s; higher = yes; desc = DRAM read bandwidth, from the data fabric",
	  SRC_AMD_DF_TURIN },
	{ METRIC_FAM_AMD_DF_TURIN, "Memory",
	  "memory_bandwidth_write = dram_write_bandwidth_for_local_or_remote_socket; unit = MB/s; higher = yes; desc = DRAM write bandwidth, from the data fabric",
	  SRC_AMD_DF_TURIN },
	{ METRIC_FAM_AMD_DF_TURIN, "Memory",
	  "memory_bandwidth = memory_bandwidth_read + memory_bandwidth_write; unit = MB/s; higher = yes; desc = DRAM bandwidth, reads and writes, from the data fabric",
	  SRC_AMD_DF_TURIN },

	/*
	 * Intel Skylake-class: the kernel's topdown-* events count issue
	 * slots (their .scale makes them slots: 4 a cycle, 2 a thread with
	 * SMT, where they count the core and need -a).
	 */
	{ METRIC_FAM_INTEL_SKL, "TopdownL1",
	  "frontend_bound = topdown-fetch-bubbles / topdown-total-slots; scale = 100; unit = %; higher = no; threshold = frontend_bound > 0.15; desc = Slots the frontend delivered no uop to an idle backend",
	  SRC_TMA },
	{ METRIC_FAM_INTEL_SKL, "TopdownL1",
	  "bad_speculation = (topdown-slots-issued - topdown-slots-retired + topdown-recovery-bubbles) / topdown-total-slots; scale = 100; unit = %; higher = no; threshold = bad_speculation > 0.15; desc = Slots of uops that never retired, and of recovering from them",
	  SRC_TMA },
	{ METRIC_FAM_INTEL_SKL, "TopdownL1",
	  "retiring = topdown-slots-retired / topdown-total-slots; scale = 100; unit = %; higher = yes; threshold = retiring > 0.7; desc = Slots of uops that retired",
	  SRC_TMA },
	{ METRIC_FAM_INTEL_SKL, "TopdownL1",
	  "backend_bound = 1 - (frontend_bound + bad_speculation + retiring); scale = 100; unit = %; higher = no; threshold = backend_bound > 0.2; desc = Slots with no uop issued for want of backend resources",
	  SRC_TMA },

	/*
	 * Intel Skylake-class level 2 (caps/pmu_name "skylake": Skylake,
	 * Skylake-SP, Kaby/Coffee/Cascade Lake): Intel's TMA splits over
	 * raw events. Each child is its parent less its sibling, so the two
	 * sum to the parent. Events (Intel's names):
	 *   0x9c/0x01 cmask 4   IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE
	 *   0xc5/0x00           BR_MISP_RETIRED.ALL_BRANCHES
	 *   0xc3/0x01 cmask 1 edge  MACHINE_CLEARS.COUNT
	 *   0xc2/0x04           UOPS_RETIRED.MACRO_FUSED
	 *   instructions        INST_RETIRED.ANY (fixed counter 0)
	 *   0xa3/0x14 cmask 20  CYCLE_ACTIVITY.STALLS_MEM_ANY
	 *   0xa6/0x40           EXE_ACTIVITY.BOUND_ON_STORES
	 *   0xa3/0x04 cmask 4   CYCLE_ACTIVITY.STALLS_TOTAL
	 *   0xa6/0x02, 0x04     EXE_ACTIVITY.1_PORTS_UTIL, 2_PORTS_UTIL
	 * #slots is the pipeline width, 4.
	 */
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "fetch_latency = #slots * $core@event=0x9c,umask=0x1,cmask=4@ / topdown-total-slots; scale = 100; unit = %; higher = no; threshold = fetch_latency > 0.1 and frontend_bound > 0.15; desc = Frontend slots of cycles the frontend delivered no uop at all",
	  SRC_TMA_SKL " Fetch_Latency" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "fetch_bandwidth = frontend_bound - fetch_latency; scale = 100; unit = %; higher = no; threshold = fetch_bandwidth > 0.2; desc = Frontend slots lost to fetch bandwidth (fewer uops than the width)",
	  SRC_TMA_SKL " Fetch_Bandwidth" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "branch_mispredicts = $core@event=0xc5,umask=0x0@ / ($core@event=0xc5,umask=0x0@ + $core@event=0xc3,umask=0x1,cmask=1,edge=1@) * bad_speculation; scale = 100; unit = %; higher = no; threshold = branch_mispredicts > 0.1 and bad_speculation > 0.15; desc = Bad speculation slots of mispredicted branches (their share of the clears)",
	  SRC_TMA_SKL " Branch_Mispredicts" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "machine_clears = bad_speculation - branch_mispredicts; scale = 100; unit = %; higher = no; threshold = machine_clears > 0.1 and bad_speculation > 0.15; desc = Bad speculation slots of machine clears",
	  SRC_TMA_SKL " Machine_Clears" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "heavy_operations = (topdown-slots-retired + $core@event=0xc2,umask=0x4@ - instructions) / topdown-total-slots; scale = 100; unit = %; higher = no; threshold = heavy_operations > 0.1; desc = Retiring slots of instructions of more than one uop",
	  SRC_TMA_SKL " Heavy_Operations" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "light_operations = retiring - heavy_operations; scale = 100; unit = %; higher = yes; threshold = light_operations > 0.6; desc = Retiring slots of single-uop instructions",
	  SRC_TMA_SKL " Light_Operations" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "memory_bound = ($core@event=0xa3,umask=0x14,cmask=20@ + $core@event=0xa6,umask=0x40@) / ($core@event=0xa3,umask=0x4,cmask=4@ + $core@event=0xa6,umask=0x2@ + retiring * $core@event=0xa6,umask=0x4@ + $core@event=0xa6,umask=0x40@) * backend_bound; scale = 100; unit = %; higher = no; threshold = memory_bound > 0.2 and backend_bound > 0.2; desc = Backend slots waiting on the memory subsystem (its share of the stalled cycles)",
	  SRC_TMA_SKL " Memory_Bound" },
	{ METRIC_FAM_INTEL_SKL_L2, "TopdownL2",
	  "core_bound = backend_bound - memory_bound; scale = 100; unit = %; higher = no; threshold = core_bound > 0.1 and backend_bound > 0.2; desc = Backend slots waiting on execution resources",
	  SRC_TMA_SKL " Core_Bound" },

	/*
	 * Intel Ice Lake and later: PERF_METRICS, read through the slots
	 * group leader; each topdown-* event is its share of slots.
	 */
	{ METRIC_FAM_INTEL_ICL, "TopdownL1",
	  "frontend_bound = $core@topdown-fe-bound@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = frontend_bound > 0.15; desc = Slots the frontend delivered no uop to an idle backend",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_ICL, "TopdownL1",
	  "bad_speculation = $core@topdown-bad-spec@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = bad_speculation > 0.15; desc = Slots of uops that never retired, and of recovering from them",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_ICL, "TopdownL1",
	  "retiring = $core@topdown-retiring@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = yes; threshold = retiring > 0.7; desc = Slots of uops that retired",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_ICL, "TopdownL1",
	  "backend_bound = $core@topdown-be-bound@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = backend_bound > 0.2; desc = Slots with no uop issued for want of backend resources",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "heavy_operations = $core@topdown-heavy-ops@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = heavy_operations > 0.1; desc = Retiring slots of instructions of more than one uop",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "light_operations = retiring - heavy_operations; scale = 100; unit = %; higher = yes; threshold = light_operations > 0.6; desc = Retiring slots of single-uop instructions",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "branch_mispredicts = $core@topdown-br-mispredict@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = branch_mispredicts > 0.1; desc = Bad speculation slots of mispredicted branches",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "machine_clears = bad_speculation - branch_mispredicts; scale = 100; unit = %; higher = no; threshold = machine_clears > 0.1; desc = Bad speculation slots of machine clears",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "fetch_latency = $core@topdown-fetch-lat@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = fetch_latency > 0.1; desc = Frontend slots lost to fetch latency (no uop at all)",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "fetch_bandwidth = frontend_bound - fetch_latency; scale = 100; unit = %; higher = no; threshold = fetch_bandwidth > 0.2; desc = Frontend slots lost to fetch bandwidth",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "memory_bound = $core@topdown-mem-bound@ / ($core@topdown-fe-bound@ + $core@topdown-bad-spec@ + $core@topdown-retiring@ + $core@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = memory_bound > 0.2; desc = Backend slots waiting on the memory subsystem",
	  SRC_PERF_METRICS },
	{ METRIC_FAM_INTEL_L2, "TopdownL2",
	  "core_bound = backend_bound - memory_bound; scale = 100; unit = %; higher = no; threshold = core_bound > 0.1; desc = Backend slots waiting on execution resources",
	  SRC_PERF_METRICS },

	/*
	 * A hybrid's E-cores (Gracemont and later): the kernel's cpu_atom
	 * topdown-* events count the slots of each category
	 * (TOPDOWN_*.ALL); their sum is every slot.
	 */
	{ METRIC_FAM_INTEL_ATOM, "TopdownL1",
	  "atom_frontend_bound = cpu_atom@topdown-fe-bound@ / (cpu_atom@topdown-fe-bound@ + cpu_atom@topdown-bad-spec@ + cpu_atom@topdown-retiring@ + cpu_atom@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = atom_frontend_bound > 0.2; desc = E-core slots the frontend delivered nothing for",
	  SRC_ATOM },
	{ METRIC_FAM_INTEL_ATOM, "TopdownL1",
	  "atom_bad_speculation = cpu_atom@topdown-bad-spec@ / (cpu_atom@topdown-fe-bound@ + cpu_atom@topdown-bad-spec@ + cpu_atom@topdown-retiring@ + cpu_atom@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = atom_bad_speculation > 0.15; desc = E-core slots of work thrown away",
	  SRC_ATOM },
	{ METRIC_FAM_INTEL_ATOM, "TopdownL1",
	  "atom_retiring = cpu_atom@topdown-retiring@ / (cpu_atom@topdown-fe-bound@ + cpu_atom@topdown-bad-spec@ + cpu_atom@topdown-retiring@ + cpu_atom@topdown-be-bound@); scale = 100; unit = %; higher = yes; threshold = atom_retiring > 0.75; desc = E-core slots that retired",
	  SRC_ATOM },
	{ METRIC_FAM_INTEL_ATOM, "TopdownL1",
	  "atom_backend_bound = cpu_atom@topdown-be-bound@ / (cpu_atom@topdown-fe-bound@ + cpu_atom@topdown-bad-spec@ + cpu_atom@topdown-retiring@ + cpu_atom@topdown-be-bound@); scale = 100; unit = %; higher = no; threshold = atom_backend_bound > 0.1; desc = E-core slots the backend could not take",
	  SRC_ATOM },

	/*
	 * AMD Zen 4 and Zen 5: dispatch slots (#slots x LsNotHaltedCyc)
	 * split by DeNoDispatchPerSlot's reasons for an empty slot, and the
	 * ops dispatched (DeSrcOpDisp) into those that retired (ExRetOps)
	 * and those that did not. Zen 3 and earlier have none of this.
	 */
	{ METRIC_FAM_AMD_ZEN4, "TopdownL1;PipelineL1",
	  "frontend_bound = cpu@event=0x1a0,umask=0x1@ / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = no; desc = Dispatch slots left empty for want of ops from the frontend",
	  SRC_AMD },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL1;PipelineL1",
	  "bad_speculation = (cpu@event=0xaa,umask=0x7@ - cpu@event=0xc1@) / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = no; desc = Dispatched ops that did not retire",
	  SRC_AMD },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL1;PipelineL1",
	  "backend_bound = cpu@event=0x1a0,umask=0x1e@ / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = no; desc = Dispatch slots stalled by backend resources",
	  SRC_AMD },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL1;PipelineL1",
	  "smt_contention = cpu@event=0x1a0,umask=0x60@ / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = no; desc = Dispatch slots given to the other SMT thread",
	  SRC_AMD },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL1;PipelineL1",
	  "retiring = cpu@event=0xc1@ / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = yes; desc = Dispatch slots of ops that retired",
	  SRC_AMD },

	/*
	 * AMD level 2 (perf's PipelineL2): each level-1 share split by
	 * the events AMD's guidance pairs with it. Frontend latency is
	 * the cycles with every slot empty for want of ops (PMCx1A0
	 * NoOpsFromFrontend with a counter mask of the slot count), as
	 * slots; the rest of frontend bound is bandwidth.
	 */
	{ METRIC_FAM_AMD_ZEN5, "TopdownL2;PipelineL2",
	  "frontend_bound_latency = 8 * cpu@event=0x1a0,umask=0x1,cmask=8@ / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = no; desc = Dispatch slots of cycles the frontend supplied no op at all (cache or TLB misses)",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "frontend_bound_latency = 6 * cpu@event=0x1a0,umask=0x1,cmask=6@ / (#slots * cpu@event=0x76@); scale = 100; unit = %; higher = no; desc = Dispatch slots of cycles the frontend supplied no op at all (cache or TLB misses)",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "frontend_bound_bandwidth = frontend_bound - frontend_bound_latency; scale = 100; unit = %; higher = no; desc = Dispatch slots the frontend left empty in cycles it supplied some ops (decode or op-cache bandwidth)",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "bad_speculation_mispredicts = bad_speculation * cpu@event=0xc3@ / (cpu@event=0xc3@ + cpu@event=0x96@); scale = 100; unit = %; higher = no; desc = Bad speculation's share of retired branch mispredicts (PMCx0C3) among the pipeline's flushes",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "bad_speculation_pipeline_restarts = bad_speculation - bad_speculation_mispredicts; scale = 100; unit = %; higher = no; desc = Bad speculation's share of resyncs and redirects not caused by mispredicts (PMCx096)",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "backend_bound_memory = backend_bound * cpu@event=0xd6,umask=0xa2@ / cpu@event=0xd6,umask=0x2@; scale = 100; unit = %; higher = no; desc = Backend bound's share of no-retire cycles waiting on load data",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "backend_bound_cpu = backend_bound - backend_bound_memory; scale = 100; unit = %; higher = no; desc = Backend bound's share not waiting on the memory subsystem",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "retiring_microcode = retiring * cpu@event=0x1c2@ / cpu@event=0xc1@; scale = 100; unit = %; higher = no; desc = Retiring slots of microcoded ops (PMCx1C2)",
	  SRC_AMD_L2 },
	{ METRIC_FAM_AMD_ZEN4, "TopdownL2;PipelineL2",
	  "retiring_fastpath = retiring - retiring_microcode; scale = 100; unit = %; higher = yes; desc = Retiring slots of fast-path ops",
	  SRC_AMD_L2 },

	/*
	 * AMD Zen 4 and Zen 5: perf's recommended metrics from the core
	 * events (raw PMCx encodings, so they need no event table), under
	 * perf's names for each generation: counts on Zen 4, per 1000
	 * instructions (_pti) on Zen 5, whose L2 request and prefetch
	 * umasks differ.
	 */
	/* Zen 4 and Zen 5 alike */
	{ METRIC_FAM_AMD_ZEN4, "branch_prediction",
	  "branch_misprediction_ratio = cpu@event=0xc3@ / cpu@event=0xc2@; scale = 100; unit = %; higher = no; desc = Retired branches mispredicted, of retired branches",
	  SRC_AMD_CORE },
	{ METRIC_FAM_AMD_ZEN5, "branch_prediction",
	  "branch_misprediction_rate = cpu@event=0xc3@ / cpu@event=0xc2@; unit = per branch; higher = no; desc = Retired branches mispredicted, per retired branch (perf's Zen 5 name)",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN4, "icache",
	  "ic_fetch_miss_ratio = cpu@event=0x18e,umask=0x18@ / cpu@event=0x18e,umask=0x1f@; scale = 100; unit = %; higher = no; desc = Instruction cache misses, of instruction cache accesses (an op cache hit is not an access)",
	  SRC_AMD_CORE },
	{ METRIC_FAM_AMD_ZEN4, "icache",
	  "op_cache_fetch_miss_ratio = cpu@event=0x28f,umask=0x4@ / cpu@event=0x28f,umask=0x7@; scale = 100; unit = %; higher = no; desc = Op cache misses, of op cache accesses",
	  SRC_AMD_CORE },
	{ METRIC_FAM_AMD_ZEN4, "decoder",
	  "macro_ops_dispatched = cpu@event=0xaa,umask=0x7@; unit = ops; higher = yes; desc = Macro-ops dispatched",
	  SRC_AMD_CORE },
	{ METRIC_FAM_AMD_ZEN4, "pipeline",
	  "macro_ops_retired = cpu@event=0xc1@; unit = ops; higher = yes; desc = Macro-ops retired",
	  SRC_AMD_CORE },
	{ METRIC_FAM_AMD_ZEN4, "floating_point",
	  "sse_avx_stalls = cpu@event=0xe,umask=0xe@; unit = faults; higher = no; desc = Floating-point dispatch faults of mixed SSE and AVX ops",
	  SRC_AMD_CORE },
	{ METRIC_FAM_AMD_L3, "l3_cache",
	  "l3_cache_accesses = amd_l3@event=0x4,umask=0xff@; unit = accesses; higher = no; desc = L3 cache lookups of all coherent accesses, all CCXs (system-wide)",
	  SRC_AMD_L3 },
	{ METRIC_FAM_AMD_L3, "l3_cache",
	  "l3_misses = amd_l3@event=0x4,umask=0x1@; unit = misses; higher = no; desc = L3 cache misses, cacheline state changes included, all CCXs (system-wide)",
	  SRC_AMD_L3 },
	/* Zen 4: perf's amdzen4 names, counts */
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "all_l2_cache_accesses = cpu@event=0x60,umask=0xf9@ + cpu@event=0x70,umask=0xff@ + cpu@event=0x71,umask=0xff@ + cpu@event=0x72,umask=0xff@; unit = accesses; higher = no; desc = L2 cache accesses: core requests (not prefetches) and L2 hardware prefetches",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "all_l2_cache_hits = cpu@event=0x64,umask=0xf6@ + cpu@event=0x70,umask=0xff@; unit = hits; higher = yes; desc = L2 cache hits of core requests and of L2 hardware prefetches",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "all_l2_cache_misses = cpu@event=0x64,umask=0x9@ + cpu@event=0x71,umask=0xff@ + cpu@event=0x72,umask=0xff@; unit = misses; higher = no; desc = L2 cache misses of core requests and of L2 hardware prefetches",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "l2_cache_hits_from_l1_ic_miss = cpu@event=0x64,umask=0x6@; unit = hits; higher = yes; desc = L2 cache hits of L1 instruction cache misses",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "l2_cache_misses_from_l1_ic_miss = cpu@event=0x64,umask=0x1@; unit = misses; higher = no; desc = L2 cache misses of L1 instruction cache misses",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "l2_cache_hits_from_l1_dc_miss = cpu@event=0x64,umask=0xf0@; unit = hits; higher = yes; desc = L2 cache hits of L1 data cache misses",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l2_cache",
	  "l2_cache_misses_from_l1_dc_miss = cpu@event=0x64,umask=0x8@; unit = misses; higher = no; desc = L2 cache misses of L1 data cache misses",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l1_dcache",
	  "all_l1_data_cache_fills = cpu@event=0x44,umask=0xff@; unit = fills; higher = no; desc = L1 data cache fills from any source",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l1_dcache",
	  "l1_data_cache_fills_from_same_ccx = cpu@event=0x44,umask=0x3@; unit = fills; higher = no; desc = L1 data cache fills from the local L2, the L3 or another L2 of the same CCX",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l1_dcache",
	  "l1_data_cache_fills_from_different_ccx = cpu@event=0x44,umask=0x14@; unit = fills; higher = no; desc = L1 data cache fills from another CCX's cache, in any NUMA node",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l1_dcache",
	  "l1_data_cache_fills_from_memory = cpu@event=0x44,umask=0x48@; unit = fills; higher = no; desc = L1 data cache fills from DRAM or MMIO, in any NUMA node",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "l1_dcache",
	  "l1_data_cache_fills_from_remote_node = cpu@event=0x44,umask=0x50@; unit = fills; higher = no; desc = L1 data cache fills from another NUMA node (its caches, DRAM or MMIO)",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "tlb",
	  "l1_itlb_misses = cpu@event=0x84@ + cpu@event=0x85,umask=0xf@; unit = misses; higher = no; desc = L1 instruction TLB misses",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "tlb",
	  "l2_itlb_misses = cpu@event=0x85,umask=0xf@; unit = misses; higher = no; desc = L2 instruction TLB misses (instruction page walks)",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "tlb",
	  "l1_dtlb_misses = cpu@event=0x45,umask=0xff@; unit = misses; higher = no; desc = L1 data TLB misses",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "tlb",
	  "l2_dtlb_misses = cpu@event=0x45,umask=0xf0@; unit = misses; higher = no; desc = L2 data TLB misses (data page walks)",
	  SRC_AMD_Z4_CORE },
	{ METRIC_FAM_AMD_ZEN4_ONLY, "tlb",
	  "all_tlbs_flushed = cpu@event=0x78,umask=0xff@; unit = flushes; higher = no; desc = TLB flushes of every kind",
	  SRC_AMD_Z4_CORE },
	/* Zen 5: perf's amdzen5 names, per 1000 instructions */
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "all_l2_cache_accesses_pti = (cpu@event=0x60,umask=0xf1@ + cpu@event=0x70,umask=0x1f@ + cpu@event=0x71,umask=0x1f@ + cpu@event=0x72,umask=0x1f@) / instructions * 1000; unit = accesses/kinsn; higher = no; desc = L2 cache accesses: core requests (not prefetches) and L2 hardware prefetches, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "all_l2_cache_hits_pti = (cpu@event=0x64,umask=0xf6@ + cpu@event=0x70,umask=0x1f@) / instructions * 1000; unit = hits/kinsn; higher = yes; desc = L2 cache hits of core requests and of L2 hardware prefetches, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "all_l2_cache_misses_pti = (cpu@event=0x64,umask=0x9@ + cpu@event=0x71,umask=0x1f@ + cpu@event=0x72,umask=0x1f@) / instructions * 1000; unit = misses/kinsn; higher = no; desc = L2 cache misses of core requests and of L2 hardware prefetches, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "l2_cache_hits_from_l1_ic_miss_pti = cpu@event=0x64,umask=0x6@ / instructions * 1000; unit = hits/kinsn; higher = yes; desc = L2 cache hits of L1 instruction cache misses, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "l2_cache_misses_from_l1_ic_miss_pti = cpu@event=0x64,umask=0x1@ / instructions * 1000; unit = misses/kinsn; higher = no; desc = L2 cache misses of L1 instruction cache misses, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "l2_cache_hits_from_l1_dc_miss_pti = cpu@event=0x64,umask=0xf0@ / instructions * 1000; unit = hits/kinsn; higher = yes; desc = L2 cache hits of L1 data cache misses, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l2_cache",
	  "l2_cache_misses_from_l1_dc_miss_pti = cpu@event=0x64,umask=0x8@ / instructions * 1000; unit = misses/kinsn; higher = no; desc = L2 cache misses of L1 data cache misses, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l1_dcache",
	  "all_data_cache_accesses_pti = cpu@event=0x29,umask=0x7@ / instructions * 1000; unit = accesses/kinsn; higher = no; desc = Memory operations dispatched to the load-store unit (L1 data cache accesses), per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l1_dcache",
	  "all_l1_data_cache_fills_pti = cpu@event=0x44,umask=0xff@ / instructions * 1000; unit = fills/kinsn; higher = no; desc = L1 data cache fills from any source, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l1_dcache",
	  "l1_data_cache_fills_from_same_ccx_pti = cpu@event=0x44,umask=0x3@ / instructions * 1000; unit = fills/kinsn; higher = no; desc = L1 data cache fills from the local L2, the L3 or another L2 of the same CCX, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l1_dcache",
	  "l1_data_cache_fills_from_different_ccx_pti = cpu@event=0x44,umask=0x14@ / instructions * 1000; unit = fills/kinsn; higher = no; desc = L1 data cache fills from another CCX's cache, in any NUMA node, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l1_dcache",
	  "l1_data_cache_fills_from_memory_pti = cpu@event=0x44,umask=0x48@ / instructions * 1000; unit = fills/kinsn; higher = no; desc = L1 data cache fills from DRAM or MMIO, in any NUMA node, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "l1_dcache",
	  "l1_data_cache_fills_from_remote_node_pti = cpu@event=0x44,umask=0x50@ / instructions * 1000; unit = fills/kinsn; higher = no; desc = L1 data cache fills from another NUMA node (its caches, DRAM or MMIO), per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "tlb",
	  "l1_itlb_misses_pti = (cpu@event=0x84@ + cpu@event=0x85,umask=0xf@) / instructions * 1000; unit = misses/kinsn; higher = no; desc = L1 instruction TLB misses, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "tlb",
	  "l2_itlb_misses_pti = cpu@event=0x85,umask=0xf@ / instructions * 1000; unit = misses/kinsn; higher = no; desc = L2 instruction TLB misses (instruction page walks), per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "tlb",
	  "l1_dtlb_misses_pti = cpu@event=0x45,umask=0xff@ / instructions * 1000; unit = misses/kinsn; higher = no; desc = L1 data TLB misses, per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "tlb",
	  "l2_dtlb_misses_pti = cpu@event=0x45,umask=0xf0@ / instructions * 1000; unit = misses/kinsn; higher = no; desc = L2 data TLB misses (data page walks), per 1000 instructions",
	  SRC_AMD_Z5_CORE },
	{ METRIC_FAM_AMD_ZEN5, "tlb",
	  "all_tlbs_flushed_pti = cpu@event=0x78,umask=0xff@ / instructions * 1000; unit = flushes/kinsn; higher = no; desc = TLB flushes of every kind, per 1000 instructions",
	  SRC_AMD_Z5_CORE },

	/* Arm Neoverse with slot counting (V1, N2, V2 and later) */
	{ METRIC_FAM_ARM_SLOTS, "TopdownL1",
	  "frontend_bound = stall_slot_frontend / (cpu_cycles * #slots) - br_mis_pred / cpu_cycles; scale = 100; unit = %; higher = no; desc = Slots stalled in the frontend",
	  SRC_ARM_V2 },
	{ METRIC_FAM_ARM_SLOTS, "TopdownL1",
	  "backend_bound = stall_slot_backend / (cpu_cycles * #slots) - br_mis_pred * 3 / cpu_cycles; scale = 100; unit = %; higher = no; desc = Slots stalled in the backend",
	  SRC_ARM_V2 },
	{ METRIC_FAM_ARM_SLOTS, "TopdownL1",
	  "bad_speculation = (1 - op_retired / op_spec) * (1 - stall_slot / (cpu_cycles * #slots)) + br_mis_pred * 4 / cpu_cycles; scale = 100; unit = %; higher = no; desc = Slots of operations flushed from the pipeline",
	  SRC_ARM_V2 },
	{ METRIC_FAM_ARM_SLOTS, "TopdownL1",
	  "retiring = op_retired / op_spec * (1 - stall_slot / (cpu_cycles * #slots)); scale = 100; unit = %; higher = yes; desc = Slots of operations that retired",
	  SRC_ARM_V2 },
};

const size_t metric_lib_table_size = ARRAY_SIZE(metric_lib_table);
