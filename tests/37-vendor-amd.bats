#!/usr/bin/env bats
# AMD's metrics beyond the pipeline analysis (34-vendor.bats has
# PipelineL1/L2): DRAM bandwidth from the memory controllers' amd_umc
# PMUs, where the kernel exports them and why not elsewhere, on the
# Zen 4 and Zen 5 trees of tests/fixtures/cpus (make-cpu-trees.py).

load test_helper

CPUS="$FIX/cpus"
Z4="$CPUS/amd-zen4-raphael"
Z5="$CPUS/amd-zen5-granite-ridge"

# The value of metric NAME in pstat-test metric-eval output.
mval() {
	awk -v n="$1" '$1 == n { print $2; exit }' <<<"$output"
}

# Whether |a - b| <= 1e-6 (the helper prints 6 decimals).
close_to() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(a != "" && d <= 1e-6) }' ||
		{ echo "not close: '$1' '$2'"; return 1; }
}

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
	# Zen 3: no PerfMonV2, so no UMC counters at all
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" --dry-run -M memory_bandwidth true
	assert_failure 125
	assert_output --partial 'came with PerfMonV2 in Zen 4, and this is a Zen 3'
	# Intel: the IMC's formula, never AMD's reason
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$PSTAT" --dry-run -M umc_mem_bandwidth true
	assert_failure 125
	assert_output --partial "'umc_mem_bandwidth' is not available here"
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$PSTAT" list metrics
	refute_output --partial 'DRAM bandwidth here'
}
