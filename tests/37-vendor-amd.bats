#!/usr/bin/env bats
# AMD's metrics beyond the pipeline analysis (34-vendor.bats has
# PipelineL1/L2): DRAM bandwidth from the memory controllers' amd_umc
# PMUs, where the kernel exports them and why not elsewhere, on the
# Zen 4 and Zen 5 trees of tests/fixtures/cpus (make-cpu-trees.py).

load test_helper

CPUS="$FIX/cpus"
Z4="$CPUS/amd-zen4-raphael"
Z5="$CPUS/amd-zen5-granite-ridge"

@test "AMD trees: amd_umc_N as Linux 6.9 shows them (format event, rdwrmask; cpumask; no events)" {
	for t in "$Z4" "$Z5"; do
		for n in 0 1; do
			d="$t/bus/event_source/devices/amd_umc_$n"
			[ "$(cat "$d/format/event")" = "config:0-7" ]
			[ "$(cat "$d/format/rdwrmask")" = "config:8-9" ]
			[ "$(cat "$d/cpumask")" = 0 ]
			[ ! -e "$d/events" ]
		done
		grep -q ' perfmon_v2 ' "$t/proc/cpuinfo"
	done
}

@test "AMD DRAM bandwidth: perf's umc_* metrics and pstat's memory_bandwidth* in list, on Zen 4 and Zen 5" {
	for t in "$Z4" "$Z5"; do
		PSTAT_SYSFS_ROOT="$t" run "$PSTAT" list metrics
		assert_success
		assert_line --regexp '^  umc_mem_read_bandwidth +amd_umc@event=0xa,rdwrmask=0x1@ \* 64 / 1e6 / duration_time  in MB/s$'
		assert_line --regexp '^  umc_mem_write_bandwidth +amd_umc@event=0xa,rdwrmask=0x2@ \* 64 / 1e6 / duration_time  in MB/s$'
		assert_line --regexp '^  umc_mem_bandwidth +amd_umc@event=0xa@ \* 64 / 1e6 / duration_time  in MB/s$'
		assert_line --regexp '^  memory_bandwidth +umc_mem_bandwidth  in MB/s$'
		refute_output --partial 'no DRAM bandwidth here'
		PSTAT_SYSFS_ROOT="$t" run "$PSTAT" list --names metrics
		assert_line memory_controller
		for n in umc_data_bus_utilization umc_cas_cmd_rate \
		    umc_activate_cmd_rate umc_precharge_cmd_rate \
		    memory_bandwidth_read memory_bandwidth_write; do
			assert_line "$n"
		done
		PSTAT_SYSFS_ROOT="$t" run "$PSTAT" list -j metrics
		assert_success
		jq_assert '[.metrics[] | select(.name | startswith("umc_")) |
			.source | test("PPR for Family 19h Model 11h.*8.2.1")] |
			length == 7 and all' <<<"$output"
	done
}

@test "AMD DRAM bandwidth: --dry-run opens the kernel's encodings on every amd_umc_N, system-wide on its cpumask" {
	export PSTAT_SYSFS_ROOT="$Z4"
	run "$PSTAT" --dry-run -M memory_bandwidth_read,memory_bandwidth_write true
	assert_success
	# rdwrmask is config:8-9: reads 1, writes 2; event 0x0a CAS
	for n in 0 1; do
		assert_line "amd_umc/event=0xa,rdwrmask=0x1/: resolver sysfs, pmu amd_umc_$n, group $n (leader)"
	done
	assert_line --regexp '^  type 15 config 0x10a '
	assert_line --regexp '^  type 16 config 0x10a '
	assert_line --regexp '^  type 15 config 0x20a '
	assert_line --regexp '^  type 16 config 0x20a '
	assert_line '  cpus 0 (the PMU'"'"'s, system-wide)'
	# the same encodings on Zen 5, and the whole group takes -a too
	PSTAT_SYSFS_ROOT="$Z5" run "$PSTAT" --dry-run -a -M memory_controller
	assert_success
	for c in 0xa 0x14 0x0 0x5 0x6; do
		assert_line --partial "amd_umc/event=$c/: resolver sysfs, pmu amd_umc_1"
	done
	refute_output --partial 'cpus 0-11'
}

@test "AMD DRAM bandwidth on synthetic counts: MB/s (10^6 bytes) of 64-byte CAS commands, summed over the controllers" {
	local U=amd_umc/event=
	run "$PT" metric-eval "$Z4 -M memory_controller,Memory duration=2 ${U}0xa,rdwrmask=0x1/=3000000 ${U}0xa,rdwrmask=0x2/=1000000 ${U}0xa/=4000000 ${U}0x14/=6000000 ${U}0x0/=10000000 ${U}0x5/=50000 ${U}0x6/=40000"
	assert_success
	# 3e6 x 64 bytes in 2 s: 96 MB/s (91.55 MiB/s)
	close_to "$(mval umc_mem_read_bandwidth)" 96
	close_to "$(mval umc_mem_write_bandwidth)" 32
	close_to "$(mval umc_mem_bandwidth)" 128
	close_to "$(mval memory_bandwidth_read)" 96
	close_to "$(mval memory_bandwidth)" 128
	assert_line 'umc_mem_bandwidth 128.000000 MB/s'
	close_to "$(mval umc_data_bus_utilization)" 30
	close_to "$(mval umc_cas_cmd_rate)" 400
	close_to "$(mval umc_activate_cmd_rate)" 5
	close_to "$(mval umc_precharge_cmd_rate)" 4
	# Zen 5: the same formulas
	run "$PT" metric-eval "$Z5 -M umc_mem_bandwidth duration=0.5 ${U}0xa/=1000000"
	assert_success
	close_to "$(mval umc_mem_bandwidth)" 128
}

@test "AMD DRAM bandwidth: refused with the reason where the kernel has no amd_umc (before 6.9, Zen 3), not offered off AMD" {
	# Zen 4 on an older kernel: amd_df and amd_l3, no amd_umc
	export PSTAT_SYSFS_ROOT="$FIX/amd-zen4"
	run "$PSTAT" --dry-run -M umc_mem_bandwidth true
	assert_failure 125
	assert_output --partial 'cannot count umc_mem_bandwidth here: there is no amd_umc PMU (the kernel exports the memory controllers'"'"' counters from Linux 6.9 on, on Zen 4 and later)'
	run "$PSTAT" --dry-run -M memory_controller true
	assert_failure 125
	assert_output --partial 'cannot count memory_controller here'
	run "$PSTAT" list metrics
	assert_success
	assert_line --partial 'no DRAM bandwidth here: there is no amd_umc PMU'
	refute_line --partial 'umc_mem_bandwidth '
	# Zen 3: no PerfMonV2, so no UMC counters at all; the data fabric
	# has the total only
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" --dry-run -M memory_bandwidth_read true
	assert_failure 125
	assert_output --partial 'came with PerfMonV2 in Zen 4, and this is a Zen 3 (its data fabric counts reads and writes together: memory_bandwidth)'
	cp -r "$SYSFS/amd-zen3" "$BATS_TEST_TMPDIR/z3"
	rm -r "$BATS_TEST_TMPDIR/z3/bus/event_source/devices/amd_df"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/z3" run "$PSTAT" --dry-run -M memory_bandwidth true
	assert_failure 125
	assert_output --partial 'cannot count memory_bandwidth here: there is no amd_umc PMU: the memory controllers'"'"' counters came with PerfMonV2 in Zen 4, and this is a Zen 3'
	refute_output --partial 'data fabric'
	# Intel: the IMC's formula, never AMD's reason
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$PSTAT" --dry-run -M umc_mem_bandwidth true
	assert_failure 125
	assert_output --partial "'umc_mem_bandwidth' is not available here"
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$PSTAT" list metrics
	refute_output --partial 'DRAM bandwidth here'
}

# The raw configs pstat --dry-run opens for -M "$1" (one a line).
metric_configs() {
	"$PSTAT" --dry-run -M "$1" true | awk '$1 == "type" { print $4 }'
}

@test "AMD Zen 4: perf's amdzen4 metrics, their encodings those of libpfm4's Zen 4 table" {
	export PSTAT_SYSFS_ROOT="$Z4" LIBPFM_FORCE_PMU=amd64_fam19h_zen4
	run "$PSTAT" --dry-run -e RETIRED_OPS true
	[ "$status" -eq 0 ] || skip "libpfm4 has no amd64_fam19h_zen4 table: $output"
	for pair in \
	    branch_misprediction_ratio:RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED \
	    branch_misprediction_ratio:RETIRED_BRANCH_INSTRUCTIONS \
	    ic_fetch_miss_ratio:IC_TAG_HIT_MISS:IC_MISS \
	    ic_fetch_miss_ratio:IC_TAG_HIT_MISS \
	    op_cache_fetch_miss_ratio:OP_CACHE_HIT_MISS:OC_MISS \
	    op_cache_fetch_miss_ratio:OP_CACHE_HIT_MISS \
	    macro_ops_dispatched:OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER \
	    macro_ops_retired:RETIRED_OPS \
	    all_l2_cache_accesses:REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X:LS_RD_BLK_C_S:CACHEABLE_IC_READ:CHANGE_TO_X:MISC \
	    all_l2_cache_accesses:L2_PREFETCH_HIT_L2:L2_STREAM:L2_NEXT_LINE:L2_UP_DOWN:L2_BURST:L2_STRIDE:L1_STREAM:L1_STRIDE:L1_REGION \
	    all_l2_cache_misses:CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:LS_RD_BLK_C \
	    all_l2_cache_misses:L2_PREFETCH_MISS_L3:L2_STREAM:L2_NEXT_LINE:L2_UP_DOWN:L2_BURST:L2_STRIDE:L1_STREAM:L1_STRIDE:L1_REGION \
	    l2_cache_misses_from_l1_ic_miss:CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS \
	    l2_cache_hits_from_l1_dc_miss:CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_X:LS_RD_BLK_L_HIT_S:LS_RD_BLK_L_HIT_X:LS_RD_BLK_C_S \
	    l1_data_cache_fills_from_memory:ANY_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:DRAM_IO_FAR \
	    l1_itlb_misses:L1_ITLB_MISS_L2_ITLB_HIT \
	    l2_itlb_misses:L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K \
	    l2_dtlb_misses:L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS \
	    dtlb_mpki:L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS \
	    all_tlbs_flushed:TLB_FLUSHES \
	    sse_avx_stalls:FP_DISPATCH_FAULTS:XMM_FILL_FAULT:YMM_FILL_FAULT:YMM_SPILL_FAULT; do
		m=${pair%%:*} e=${pair#*:}
		want=$("$PSTAT" --dry-run -e "$e" true | awk '$1 == "type" { print $4; exit }')
		[ -n "$want" ] || { echo "libpfm4 does not encode $e" >&2; return 1; }
		metric_configs "$m" | grep -qx "$want" ||
			{ echo "$m does not open $e ($want): $(metric_configs "$m" | tr '\n' ' ')" >&2; return 1; }
	done
}

@test "AMD Zen 5: perf's amdzen5 metrics per 1000 instructions, with Zen 5's L2 umasks; each generation's names only on it" {
	export PSTAT_SYSFS_ROOT="$Z5"
	run "$PSTAT" list metrics
	assert_success
	assert_line --regexp '^  all_l2_cache_accesses_pti +\(cpu@event=0x60,umask=0xf1@ \+ cpu@event=0x70,umask=0x1f@ \+ cpu@event=0x71,umask=0x1f@ \+ cpu@event=0x72,umask=0x1f@\) / instructions \* 1000  in accesses/kinsn$'
	assert_line --regexp '^  branch_misprediction_rate +cpu@event=0xc3@ / cpu@event=0xc2@  in per branch$'
	assert_line --regexp '^  l2_mpki +all_l2_cache_misses_pti  in MPKI$'
	run "$PSTAT" --dry-run -M l2_cache true
	assert_success
	assert_line --regexp '^  type 4 config 0xf160 '
	assert_line --regexp '^  type 4 config 0x1f70 '
	refute_line --regexp '^  type 4 config 0xf960 '
	run "$PSTAT" --dry-run -M all_l2_cache_accesses true
	assert_failure 125
	assert_output --partial "'all_l2_cache_accesses' is not available here"
	PSTAT_SYSFS_ROOT="$Z4" run "$PSTAT" --dry-run -M all_l2_cache_accesses_pti true
	assert_failure 125
	PSTAT_SYSFS_ROOT="$Z4" run "$PSTAT" --dry-run -M all_l2_cache_accesses true
	assert_success
	assert_line --regexp '^  type 4 config 0xf960 '
	# the same on the older kernel's Zen 4 tree (no amd_umc), not on Zen 3
	PSTAT_SYSFS_ROOT="$FIX/amd-zen4" run "$PSTAT" list --names metrics
	assert_line all_l2_cache_misses
	assert_line l3_misses
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" list --names metrics
	refute_line all_l2_cache_misses
	refute_line branch_misprediction_ratio
}

@test "AMD core metrics on synthetic counts: ratios, counts, per 1000 instructions, l2_mpki and dtlb_mpki on both" {
	local C=cpu/event=
	local l2="${C}0x60,umask=0xf9/=5000 ${C}0x70,umask=0xff/=1000 ${C}0x71,umask=0xff/=300 ${C}0x72,umask=0xff/=200 ${C}0x64,umask=0xf6/=3500 ${C}0x64,umask=0x9/=1500"
	run "$PT" metric-eval "$Z4 -M branch_prediction,icache,l2_cache,Cache,TLB,decoder ${C}0xc3/=25 ${C}0xc2/=1000 ${C}0x18e,umask=0x18/=30 ${C}0x18e,umask=0x1f/=600 ${C}0x28f,umask=0x4/=20 ${C}0x28f,umask=0x7/=400 $l2 ${C}0x64,umask=0x6/=100 ${C}0x64,umask=0x1/=50 ${C}0x64,umask=0xf0/=3400 ${C}0x64,umask=0x8/=1450 ${C}0x45,umask=0xf0/=40 ${C}0xaa,umask=0x7/=9000 instructions=100000 L1-dcache-load-misses=10"
	assert_success
	close_to "$(mval branch_misprediction_ratio)" 2.5
	close_to "$(mval ic_fetch_miss_ratio)" 5
	close_to "$(mval op_cache_fetch_miss_ratio)" 5
	close_to "$(mval all_l2_cache_accesses)" 6500
	close_to "$(mval all_l2_cache_hits)" 4500
	close_to "$(mval all_l2_cache_misses)" 2000
	close_to "$(mval l2_mpki)" 20
	close_to "$(mval dtlb_mpki)" 0.4
	close_to "$(mval macro_ops_dispatched)" 9000
	# the ic and dc parts of the core requests' hits and misses
	kids=$(awk -v a="$(mval l2_cache_hits_from_l1_ic_miss)" -v b="$(mval l2_cache_hits_from_l1_dc_miss)" 'BEGIN { printf "%.6f", a + b }')
	close_to "$kids" 3500
	# Zen 5: per 1000 instructions, the same l2_mpki from its own events
	l2="${C}0x60,umask=0xf1/=5000 ${C}0x70,umask=0x1f/=1000 ${C}0x71,umask=0x1f/=300 ${C}0x72,umask=0x1f/=200 ${C}0x64,umask=0xf6/=3500 ${C}0x64,umask=0x9/=1500"
	run "$PT" metric-eval "$Z5 -M l2_cache,Cache,branch_misprediction_rate $l2 ${C}0x64,umask=0x6/=100 ${C}0x64,umask=0x1/=50 ${C}0x64,umask=0xf0/=3400 ${C}0x64,umask=0x8/=1450 ${C}0xc3/=25 ${C}0xc2/=1000 instructions=100000 L1-dcache-load-misses=10"
	assert_success
	close_to "$(mval all_l2_cache_accesses_pti)" 65
	close_to "$(mval all_l2_cache_hits_pti)" 45
	close_to "$(mval all_l2_cache_misses_pti)" 20
	close_to "$(mval l2_mpki)" 20
	close_to "$(mval branch_misprediction_rate)" 0.025
}

@test "AMD L3: l3_cache_accesses and l3_misses on amd_l3, system-wide on its cpumask" {
	export PSTAT_SYSFS_ROOT="$Z4"
	run "$PSTAT" --dry-run -M l3_cache true
	assert_success
	assert_line 'amd_l3/event=0x4,umask=0xff/: resolver sysfs, pmu amd_l3, group 0 (leader)'
	assert_line --regexp '^  type 11 config 0xff04 '
	assert_line --regexp '^  type 11 config 0x104 '
	assert_line '  cpus 0 (the PMU'"'"'s, system-wide)'
	run "$PT" metric-eval "$Z4 -M l3_cache amd_l3/event=0x4,umask=0xff/=700 amd_l3/event=0x4,umask=0x1/=70"
	assert_success
	close_to "$(mval l3_cache_accesses)" 700
	close_to "$(mval l3_misses)" 70
}

@test "AMD Zen 1 to 3: memory_bandwidth from the data fabric's eight DRAM channels (reads and writes together), system-wide" {
	export PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3"
	grep -q '^model name.*EPYC 7763' "$PSTAT_SYSFS_ROOT/proc/cpuinfo"
	run "$PSTAT" list metrics
	assert_success
	assert_line --regexp '^  memory_bandwidth +\(amd_df@event=0x7,umask=0x38@ \+ amd_df@event=0x47,umask=0x38@ .* \+ amd_df@event=0x1c7,umask=0x38@\) \* 64 / 1e6 / duration_time  in MB/s$'
	refute_output --partial 'no DRAM bandwidth here'
	refute_line --partial 'umc_'
	run "$PSTAT" --dry-run -M memory_bandwidth true
	assert_success
	# the kernel's event14 format: event bits 8-11 go to config 32-35
	for c in 0x3807 0x3847 0x3887 0x38c7 0x100003807 0x100003847 0x100003887 0x1000038c7; do
		assert_line --regexp "^  type 10 config $c "
	done
	assert_line '  cpus 0 (the PMU'"'"'s, system-wide)'
	local D=amd_df/event=
	run "$PT" metric-eval "$PSTAT_SYSFS_ROOT -M memory_bandwidth duration=4 ${D}0x7,umask=0x38/=1000000 ${D}0x47,umask=0x38/=1000000 ${D}0x87,umask=0x38/=1000000 ${D}0xc7,umask=0x38/=1000000 ${D}0x107,umask=0x38/=1000000 ${D}0x147,umask=0x38/=1000000 ${D}0x187,umask=0x38/=1000000 ${D}0x1c7,umask=0x38/=1000000"
	assert_success
	# 8e6 x 64 bytes in 4 s
	close_to "$(mval memory_bandwidth)" 128
}

@test "AMD --dry-run: every core group of the recommended metrics fits the six counters, five beside the watchdog" {
	local all=branch_prediction,icache,decoder,pipeline,floating_point,l2_cache,l1_dcache,tlb,TLB,Cache,l3_cache,memory_controller
	for t in "$Z4" "$Z5"; do
		for wd in on 0; do
			local tree="$t" max=5
			if [ "$wd" = 0 ]; then
				tree="$BATS_TEST_TMPDIR/$(basename "$t")"
				rm -rf "$tree"
				cp -r "$t" "$tree"
				mkdir -p "$tree/proc/sys/kernel"
				echo 0 >"$tree/proc/sys/kernel/nmi_watchdog"
				max=6
			fi
			PSTAT_SYSFS_ROOT="$tree" run "$PSTAT" --dry-run -j -M "$all" true
			assert_success
			# the core events (generic type 0, cpu type 4) by group;
			# the uncore ones each alone on their PMU
			jq_assert --argjson max "$max" '
				([.events[] | select(.attr.type == 0 or .attr.type == 4)] |
				 group_by(.group) | map(length) | max <= $max) and
				([.events[] | select(.attr.type >= 10)] |
				 group_by(.group) | map(length) | max == 1) and
				(.events | length > 40)' <<<"$output"
		done
	done
}

@test "AMD Zen 4 EPYC before Linux 6.9: DRAM bandwidth from the data fabric's coherent stations, perf's data_fabric totals" {
	local G="$CPUS/amd-zen4-genoa" D=amd_df/event=
	export PSTAT_SYSFS_ROOT="$G"
	grep -q '^model name.*EPYC 9654' "$G/proc/cpuinfo"
	[ ! -e "$G/bus/event_source/devices/amd_umc_0" ]
	run "$PSTAT" list metrics
	assert_success
	refute_output --partial 'no DRAM bandwidth here'
	assert_line --regexp '^  memory_bandwidth_read +\(dram_read_data_for_local_processor \+ dram_read_data_for_remote_processor\) \* 1.048576 / duration_time  in MB/s$'
	assert_line --regexp '^  dram_write_data_for_remote_processor +\(amd_df@event=0x1f,umask=0xbff@ \+ .* \+ amd_df@event=0x2df,umask=0xbff@\) \* 64 / 1048576  in MiB$'
	run "$PSTAT" --dry-run -M memory_bandwidth true
	assert_success
	# 12 stations x local/remote x read/write, each alone on amd_df;
	# PerfMonV2's formats: event bits 8-13 at config 32-37, umask bits
	# 8-11 at config 24-27
	[ "$(grep -c 'resolver sysfs, pmu amd_df' <<<"$output")" -eq 48 ]
	assert_line --regexp '^  type 10 config 0x700fe1f '
	assert_line --regexp '^  type 10 config 0x20b00ffdf '
	assert_line '  cpus 0 (the PMU'"'"'s, system-wide)'
	# 1e6 read beats at each of two stations, local; 1e6 remote at one;
	# 2e6 writes at one: in 2 s
	local counts="" n u v
	for n in $(seq 0 11); do
		for u in 0x7fe 0x7ff 0xbfe 0xbff; do
			v=0
			case $n:$u in
			0:0x7fe | 11:0x7fe | 1:0xbfe) v=1000000 ;;
			2:0x7ff) v=2000000 ;;
			esac
			counts+=" ${D}$(printf '0x%x' $((0x1f + 0x40 * n))),umask=$u/=$v"
		done
	done
	run "$PT" metric-eval "$G -M Memory,data_fabric duration=2$counts"
	assert_success
	close_to "$(mval dram_read_data_for_local_processor)" 122.070312
	close_to "$(mval memory_bandwidth_read)" 96
	close_to "$(mval memory_bandwidth_write)" 64
	close_to "$(mval memory_bandwidth)" 160
	# the memory controllers' name says where the data fabric's are
	run "$PSTAT" --dry-run -M umc_mem_bandwidth true
	assert_failure 125
	assert_output --partial "Linux 6.9 on, on Zen 4 and later); the data fabric's are here: memory_bandwidth_read"
	# with amd_umc (6.9 and later) the memory controllers' counts win
	cp -r "$G" "$BATS_TEST_TMPDIR/g"
	cp -r "$Z4/devices/amd_umc_0" "$BATS_TEST_TMPDIR/g/devices/"
	ln -s ../../../devices/amd_umc_0 "$BATS_TEST_TMPDIR/g/bus/event_source/devices/amd_umc_0"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/g" run "$PSTAT" list metrics
	assert_line --regexp '^  memory_bandwidth +umc_mem_bandwidth  in MB/s$'
	assert_line --regexp '^  dram_read_data_for_local_processor '
	# a Zen 4 desktop's data fabric is not Genoa's
	PSTAT_SYSFS_ROOT="$FIX/amd-zen4" run "$PSTAT" list --names metrics
	refute_line dram_read_data_for_local_processor
}

# Skip unless this machine is an AMD Zen 4 or later whose core PMU counts.
need_amd_zen4_counting() {
	need_perf_events
	grep -q '^vendor_id.*AuthenticAMD' /proc/cpuinfo 2>/dev/null ||
		skip "not an AMD CPU"
	"$PSTAT" list --names metrics | grep -qx macro_ops_retired ||
		skip "not an AMD Zen 4 or later, or its core PMU is missing (a virtual machine?)"
	"$PSTAT" -e cpu/event=0xc1/ true 2>&1 | grep -q 'not supported' &&
		skip "the core PMU does not count here"
	return 0
}

@test "live: AMD DRAM bandwidth from amd_umc counts system-wide, in MB/s" {
	need_amd_zen4_counting
	[ -e /sys/bus/event_source/devices/amd_umc_0 ] ||
		skip "no amd_umc PMU (Linux 6.9 and later export it)"
	need_cpu_wide
	run "$PSTAT" -j -M memory_controller -- sleep 0.2
	assert_success
	jq_assert '[.metrics[] | select(.name == "umc_mem_bandwidth")] |
		length == 1 and (.[0].value >= 0) and .[0].unit == "MB/s"' <<<"$output"
}

@test "live: AMD core metrics count a task: ratios within 0 to 100 %" {
	need_amd_zen4_counting
	run "$PSTAT" -j -M branch_prediction,icache -- sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
	assert_success
	jq_assert '[.metrics[] | select(.unit == "%") | .value] |
		length >= 3 and all(. >= 0 and . <= 100)' <<<"$output"
}

@test "AMD Zen 5 EPYC before Linux 6.9: perf's data_fabric DRAM bandwidths at the twelve channels, and memory_bandwidth*" {
	local T="$CPUS/amd-zen5-turin" D=amd_df/event=
	export PSTAT_SYSFS_ROOT="$T"
	grep -q '^model name.*EPYC 9755' "$T/proc/cpuinfo"
	run "$PSTAT" list metrics
	assert_success
	refute_output --partial 'no DRAM bandwidth here'
	assert_line --regexp '^  memory_bandwidth_read +dram_read_bandwidth_for_local_or_remote_socket  in MB/s$'
	assert_line --regexp '^  dram_write_bandwidth_for_remote_socket +\(amd_df@event=0x1f,umask=0xbff@ \+ .* \+ amd_df@event=0x2df,umask=0xbff@\) \* 64 / 1e6 / duration_time  in MB/s$'
	run "$PSTAT" --dry-run -M memory_bandwidth true
	assert_success
	[ "$(grep -c 'resolver sysfs, pmu amd_df' <<<"$output")" -eq 24 ]
	assert_line --regexp '^  type 10 config 0xf00fe1f '
	assert_line --regexp '^  type 10 config 0x20f00ffdf '
	local counts="" n
	for n in $(seq 0 11); do
		counts+=" ${D}$(printf '0x%x' $((0x1f + 0x40 * n))),umask=0xffe/=$((n == 3 ? 3000000 : 0))"
		counts+=" ${D}$(printf '0x%x' $((0x1f + 0x40 * n))),umask=0xfff/=$((n == 7 ? 1000000 : 0))"
	done
	run "$PT" metric-eval "$T -M Memory duration=2$counts"
	assert_success
	close_to "$(mval memory_bandwidth_read)" 96
	close_to "$(mval memory_bandwidth_write)" 32
	close_to "$(mval memory_bandwidth)" 128
	# a Zen 5 desktop's data fabric is not Turin's
	PSTAT_SYSFS_ROOT="$FIX/amd-zen5" run "$PSTAT" list --names metrics
	refute_line dram_read_bandwidth_for_local_or_remote_socket
}

@test "AMD: pstat list metrics names perf's PipelineL1 and PipelineL2; a third level is refused in AMD's terms" {
	for t in "$Z4" "$Z5"; do
		run env PSTAT_SYSFS_ROOT="$t" "$PSTAT" list metrics
		assert_success
		# each level's metrics say they are in perf's AMD group too
		awk '/^TopdownL1:/ { l = 1 } /^TopdownL2:/ { l = 2 } /^$/ { l = 0 }
			l && /also in PipelineL/ { n[l]++ }
			END { exit !(n[1] >= 4 && n[2] >= 4) }' <<<"$output"
		run env PSTAT_SYSFS_ROOT="$t" "$PSTAT" --td-level 3 --dry-run true
		[ "$status" -eq 125 ]
		[[ $output == *"AMD's pipeline utilization analysis has 2 levels (PipelineL1, PipelineL2)"* ]]
		[[ $output != *Skylake* ]]
	done
}
