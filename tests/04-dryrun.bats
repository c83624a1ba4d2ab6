#!/usr/bin/env bats
# --dry-run: the attrs pstat would open, checked against what perf stat
# -vv opens for the same event on this machine.

bats_require_minimum_version 1.5.0
load test_helper

# every resolver perf shares with pstat, with modifiers and groups
EVENTS=(
	cycles cpu-cycles instructions:u cs faults:k task-clock:uk cycles:h
	cycles:G cycles:H cpu-clock:I ref-cycles:ppp branch-misses:k
	L1-dcache-load-misses LLC-prefetches dTLB-load-misses:u
	branch-load-misses L1-icache-loads node-store-misses iTLB-load-misses
	r1a8 r0c0:k msr/tsc/ msr/tsc/u msr/mperf/
	syscalls:sys_enter_write syscalls:sys_enter_write:k sched:sched_switch
	mem:0x1000:rw mem:0x1000/8:x mem:0x2000/2:w
	'{cycles,instructions}:u' '{task-clock,cs:k}:u' '{page-faults,cs}'
)

@test "dry-run encodes every event as perf stat -vv does" {
	command -v perf >/dev/null || skip "perf is not installed"
	checked=0
	for ev in "${EVENTS[@]}"; do
		run /usr/bin/env python3 "$ROOT/tests/lib/perf-attrs.py" "$PSTAT" "$ev"
		case $status in
		0) checked=$((checked + 1)) ;;
		77) ;; # perf cannot encode it here (e.g. a PMU it lacks)
		*) echo "$output"; return 1 ;;
		esac
	done
	echo "checked $checked events" >&3
	[ "$checked" -ge 25 ]
}

@test "dry-run prints the attr as text and runs nothing" {
	run "$PSTAT" --dry-run -e 'cycles:u,mem:0x1000/8:x' touch "$BATS_TEST_TMPDIR/ran"
	assert_success
	assert_output --partial "cycles:u: resolver generic, pmu cpu, group 0 (leader)"
	assert_output --partial "exclude_user 0 exclude_kernel 1 exclude_hv 1"
	assert_output --partial "bp_type 4 bp_addr 0x1000 bp_len 8"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "dry-run -j is one document with 64-bit configs as hex strings" {
	run "$PSTAT" --dry-run -j -e 'r0xffffffffffffffff,{task-clock,cs}'
	assert_success
	run jq -r '.events | map(.attr.config) | join(" ")' <<<"$output"
	assert_output "0xffffffffffffffff 0x1 0x3"
	run "$PSTAT" --dry-run -j -e '{task-clock,cs}'
	run jq -c '[.events[] | [.group, .leader, .resolver]]' <<<"$output"
	assert_output '[[0,true,"generic"],[0,false,"generic"]]'
}

@test "dry-run shows where uncore-style events are opened: their PMU's cpumask" {
	export PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake"
	run "$PSTAT" --dry-run -j -e 'uncore_imc/event=0x4/,cstate_core/c6-residency/,msr/tsc/'
	assert_success
	run jq -c '[.events[] | [.pmu, .cpus]]' <<<"$output"
	assert_output '[["uncore_imc_0",[0]],["uncore_imc_1",[0]],["cstate_core",[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19]],["msr",null]]'
	run "$PSTAT" --dry-run -e cstate_core/c6-residency/
	assert_output --partial "cpus 0-19 (the PMU's, system-wide)"
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" --dry-run -e amd_l3/event=1/
	assert_output --partial "cpus 0,8,16,24,32,40,48,56 (the PMU's, system-wide)"
}

@test "dry-run fails on a bad event exactly as a real run" {
	run "$PSTAT" --dry-run -e cycels
	assert_failure 125
	dry="$output"
	run "$PSTAT" -e cycels true
	assert_failure 125
	[ "$output" = "$dry" ]
	run "$PSTAT" --dry-run -j -e 'cpu/event=1'
	assert_failure 125
	refute_output --partial '{'
}

@test "dry-run over a fixture tree applies sysfs scale and unit" {
	PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake" run "$PSTAT" --dry-run -j \
		-e 'power/energy-pkg/,uncore_imc/cas_count_read/'
	assert_success
	run jq -c '[.events[] | [.name, .pmu, .unit, .attr.type, .attr.config]]' <<<"$output"
	assert_output '[["power/energy-pkg/","power","Joules",20,"0x2"],["uncore_imc/cas_count_read/","uncore_imc_0","MiB",12,"0x304"],["uncore_imc/cas_count_read/","uncore_imc_1","MiB",13,"0x304"]]'
}
