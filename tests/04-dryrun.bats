#!/usr/bin/env bats
# --dry-run: the attrs pstat would open, checked against what perf stat
# -vv opens for the same event on this machine.
#
# Checked against perf (perf stat -vv -e EVENT true, perf 6.1 on an AMD
# Zen 4 VM without a core PMU; tests/lib/perf-attrs.py compares type,
# config, config1, config2, exclude_user, exclude_kernel, exclude_hv):
#  - generic hardware: every name and alias (cycles, cpu-cycles,
#    instructions, cache-references, cache-misses, branches,
#    branch-instructions, branch-misses, bus-cycles,
#    stalled-cycles-frontend/backend, idle-cycles-frontend/backend,
#    ref-cycles), with modifiers u k h G H I D e W S b p ppp P;
#  - generic software: every name and alias (cpu-clock, task-clock,
#    page-faults/faults, context-switches/cs, cpu-migrations/migrations,
#    minor-faults, major-faults, alignment-faults, emulation-faults,
#    dummy, bpf-output, cgroup-switches);
#  - cache: every spelling perf's grammar takes that pstat accepts,
#    generated from pstat's tables (pstat-test legacy --cache-spellings:
#    each cache spelling alone and with one or two op/result words in
#    either order, 4442 names); perf refuses 120 of them (branches-* and
#    branch-misses-*, which its lexer reads as hardware names), the rest
#    agree;
#  - raw: r1a8, r0c0:k, rffffffffffffffff, r1a8:ub;
#  - msr: msr/tsc/, msr/tsc/u, msr//, msr/event=0/, msr/ tsc/ (and
#    msr/aperf/, msr/mperf/ where the kernel has them); software//,
#    software/config=3/; the bare alias tsc, tsc:u, tsc:k, {tsc,cs}:u
#    (perf: "tsc -> msr/event=0/");
#  - tracepoints: syscalls:sys_enter_write[:k], sched:sched_switch, and
#    the globs syscalls:sys_enter_write*, sched:sched_wak*:u,
#    syscalls:sys_*_read (compared as sets keyed by name: perf opens
#    them in tracefs order, pstat sorted);
#  - breakpoints: mem:0x1000 with each access r, w, x, rw, rx, wx, rwx,
#    lengths 0 (default), 1, 2, 3, 8, 16;
#  - lists: groups with modifiers, cs:k,cs:u (the same config twice),
#    blanks around items.
# Not compared: perf's tool events duration_time, user_time and
# system_time, which pstat refuses (their values are in its report);
# libpfm4 names, which perf takes only with --pfm-events (30-pfm.bats
# checks them against libpfm4's own example); hybrid machines, where
# perf splits a generic event per core PMU and pstat does not.

bats_require_minimum_version 1.5.0
load test_helper

# every resolver perf shares with pstat, with modifiers and groups
EVENTS=(
	cycles cpu-cycles instructions:u cache-references cache-misses
	branches branch-instructions branch-misses:k bus-cycles
	stalled-cycles-frontend stalled-cycles-backend idle-cycles-frontend
	idle-cycles-backend ref-cycles:ppp cycles:h cycles:G cycles:H
	cycles:b cycles:Pu cycles:D cycles:e cycles:W cycles:S
	cs context-switches faults:k page-faults task-clock:uk cpu-clock:I
	minor-faults major-faults cpu-migrations migrations alignment-faults
	emulation-faults dummy bpf-output cgroup-switches
	L1-dcache-load-misses LLC-prefetches dTLB-load-misses:u
	branch-load-misses L1-icache-loads node-store-misses iTLB-load-misses
	L1-dcache-misses-load
	r1a8 r0c0:k rffffffffffffffff r1a8:ub
	msr/tsc/ msr/tsc/u msr/aperf/ msr/mperf/ msr// msr/event=0/ 'msr/ tsc/'
	tsc tsc:u tsc:k '{tsc,cs}:u'
	software/config=3/ software//
	syscalls:sys_enter_write syscalls:sys_enter_write:k sched:sched_switch
	'syscalls:sys_enter_write*' 'sched:sched_wak*:u' 'syscalls:sys_*_read'
	mem:0x1000 mem:0x1000:r mem:0x1000:w mem:0x1000:x mem:0x1000:rw
	mem:0x1000:rx mem:0x1000:wx mem:0x1000:rwx mem:0x1000/8:x
	mem:0x2000/2:w mem:0x1000/1:r mem:0x1000/3:r mem:0x1000/0:w
	mem:0x1000/16:rw
	'{cycles,instructions}:u' '{task-clock,cs:k}:u' '{page-faults,cs}'
	'cs:k,cs:u' 'cs, faults' ' { cs , faults }:k'
)

@test "dry-run encodes every event as perf stat -vv does" {
	command -v perf >/dev/null || skip "perf is not installed"
	need_kernel_counting "perf stat -vv shows its exclude_kernel retry too"
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
	[ "$checked" -ge 60 ]
}

@test "dry-run encodes every cache spelling as perf stat -vv does" {
	command -v perf >/dev/null || skip "perf is not installed"
	need_kernel_counting "perf stat -vv shows its exclude_kernel retry too"
	"$PT" legacy --cache-spellings >"$BATS_TEST_TMPDIR/cache"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/cache")" -gt 4000 ]
	run /usr/bin/env python3 "$ROOT/tests/lib/perf-attrs.py" "$PSTAT" \
		--each "$BATS_TEST_TMPDIR/cache"
	# names perf refuses are reported, not failures: pstat may take
	# more (perf 6.1 reads branches-* and branch-misses-* as hardware
	# names and stops there)
	echo "$output" | tail -1 >&3
	assert_success
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

@test "-v says which resolver took each event, for every resolver" {
	export PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu PSTAT_TRACEFS_ROOT=$FIX/tracefs
	run "$PSTAT" -v --dry-run \
		-e 'cycles,cs:u,msr/tsc/,sched:sched_switch,r1a8,mem:0x1000:w'
	assert_success
	assert_line "pstat: event 'cycles': resolved by generic (pmu cpu, type 0, config 0)"
	assert_line "pstat: event 'cs:u': resolved by generic (pmu software, type 1, config 0x3)"
	assert_line "pstat: event 'msr/tsc/': resolved by sysfs (pmu msr, type 7, config 0)"
	assert_line "pstat: event 'sched:sched_switch': resolved by tracepoint (pmu tracepoint, type 2, config 0x13c)"
	assert_line "pstat: event 'r1a8': resolved by raw (pmu cpu, type 4, config 0x1a8)"
	assert_line "pstat: event 'mem:0x1000:w': resolved by breakpoint (pmu breakpoint, type 5, config 0, bp_addr 0x1000, bp_len 0x4)"
	# config1 and config2 when set, as perf -vv prints them (issue 30)
	PSTAT_SYSFS_ROOT=$FIX/arm64-rk3399 run "$PSTAT" -v --dry-run \
		-e 'armv8_cortex_a53/event=0x8,long/'
	assert_success
	assert_line "pstat: event 'armv8_cortex_a53/event=0x8,long/': resolved by sysfs (pmu armv8_cortex_a53, type 8, config 0x8, config1 0x1)"
	# a bare alias name ("tsc" is msr/tsc/) is sysfs's too
	run "$PSTAT" -v --dry-run -e 'tsc:u'
	assert_success
	assert_line "pstat: event 'tsc:u': resolved by sysfs (pmu msr, type 7, config 0)"
	# without -v, none of it
	run "$PSTAT" --dry-run -e cycles
	refute_output --partial 'resolved by'
	"$PT" pfm --pmus | grep -q '^perf ' ||
		skip "libpfm4 does not detect its perf PMU here"
	run "$PSTAT" -v --dry-run -e perf::PERF_COUNT_HW_INSTRUCTIONS
	assert_success
	assert_line "pstat: event 'perf::PERF_COUNT_HW_INSTRUCTIONS': resolved by libpfm4 (pmu perf, type 0, config 0x1)"
}

@test "dry-run splits a group over a PMU's instances into one group per instance" {
	export PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake"
	run "$PSTAT" --dry-run -j \
		-e '{uncore_imc/cas_count_read/,uncore_imc/cas_count_write/},cs'
	assert_success
	run jq -c '[.events[] | [.name, .pmu, .group, .leader, .attr.type]]' <<<"$output"
	assert_output '[["uncore_imc/cas_count_read/","uncore_imc_0",0,true,12],["uncore_imc/cas_count_write/","uncore_imc_0",0,false,12],["uncore_imc/cas_count_read/","uncore_imc_1",1,true,13],["uncore_imc/cas_count_write/","uncore_imc_1",1,false,13],["cs","software",2,true,1]]'
	# the text form says the same
	run "$PSTAT" --dry-run -e '{uncore_imc/cas_count_read/,uncore_imc/cas_count_write/}'
	assert_success
	assert_line 'uncore_imc/cas_count_read/: resolver sysfs, pmu uncore_imc_1, group 1 (leader)'
	assert_line 'uncore_imc/cas_count_write/: resolver sysfs, pmu uncore_imc_1, group 1'
	# an event on none of the instances cannot be grouped with them
	run "$PSTAT" --dry-run -e '{uncore_imc/cas_count_read/,cstate_pkg/c2-residency/}'
	assert_failure 125
	assert_output --partial "pstat: cannot group 'cstate_pkg/c2-residency/' with 'uncore_imc/cas_count_read/': "
}

@test "dry-run: a bare sysfs alias is the alias on every PMU that has it" {
	export PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake"
	run "$PSTAT" --dry-run -j -e 'tsc:u,cas_count_read,c3-residency'
	assert_success
	run jq -c '[.events[] | [.name, .pmu, .resolver, .group, .attr.type,
		.attr.config, .attr.exclude_kernel, .unit]]' <<<"$output"
	assert_output '[["tsc:u","msr","sysfs",0,9,"0x0",true,""],["cas_count_read","uncore_imc_0","sysfs",1,12,"0x304",false,"MiB"],["cas_count_read","uncore_imc_1","sysfs",2,13,"0x304",false,"MiB"],["c3-residency","cstate_core","sysfs",3,18,"0x1",false,""],["c3-residency","cstate_pkg","sysfs",4,19,"0x1",false,""]]'
	# no longer an unknown event pointing at msr/tsc/
	PSTAT_SYSFS_ROOT="$SYSFS/vm-nopmu" run "$PSTAT" --dry-run -e tsc
	assert_success
	refute_output --partial 'unknown'
}

@test "dry-run -j: bp_len is exact, a hex string like the other 64-bit fields" {
	run "$PSTAT" --dry-run -j -e 'mem:0x1000/0xffffffffffffffff,mem:0x2000/8:x,mem:0x3000'
	assert_success
	run jq -c '[.events[].attr | [.bp_type, .bp_addr, .bp_len, .config2]]' <<<"$output"
	assert_output '[[3,"0x1000","0xffffffffffffffff","0xffffffffffffffff"],[4,"0x2000","0x8","0x8"],[3,"0x3000","0x4","0x4"]]'
	# and the text form in decimal, exactly
	run "$PSTAT" --dry-run -e 'mem:0x1000/0xffffffffffffffff'
	assert_success
	assert_output --partial 'bp_len 18446744073709551615'
}
