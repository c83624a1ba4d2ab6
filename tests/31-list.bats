#!/usr/bin/env bats
# pstat list: sections, sysfs aliases from fixture trees, the note for a
# machine without a core PMU, globs, --names for completion, -j.

load test_helper

NOTE='# no core hardware PMU is exposed by the kernel (virtual machine?): hardware events such as cycles are not supported here'

# A tracefs tree with two tracepoints, so tracepoint listing does not
# depend on the machine.
fake_tracefs() {
	local t="$BATS_TEST_TMPDIR/tracefs"
	mkdir -p "$t/events/pstatfake/first" "$t/events/pstatfake/second" \
		"$t/events/other/third"
	echo 101 >"$t/events/pstatfake/first/id"
	echo 102 >"$t/events/pstatfake/second/id"
	echo 103 >"$t/events/other/third/id"
	echo "$t"
}

@test "list: generic sections with perf's tags" {
	run "$PSTAT" list
	assert_success
	assert_line 'Hardware events:'
	assert_line 'Software events:'
	assert_line 'Hardware cache events:'
	assert_line --regexp '^  cpu-cycles OR cycles +\[Hardware event\]$'
	assert_line --regexp '^  task-clock +\[Software event\]$'
	assert_line --regexp '^  context-switches OR cs +\[Software event\]$'
	assert_line --regexp '^  L1-dcache-load-misses +\[Hardware cache event\]$'
}

@test "list: tracepoints only on request" {
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t run "$PSTAT" list
	assert_success
	refute_output --partial 'pstatfake'
	refute_output --partial '[Tracepoint event]'
	PSTAT_TRACEFS_ROOT=$t run "$PSTAT" list 'pstatfake:*'
	assert_success
	assert_line 'Tracepoints:'
	assert_line --regexp '^  pstatfake:first +\[Tracepoint event\]$'
	assert_line --regexp '^  pstatfake:second +\[Tracepoint event\]$'
	refute_output --partial 'other:third'
	PSTAT_TRACEFS_ROOT=$t run "$PSTAT" list --tracepoints
	assert_success
	assert_line --regexp '^  other:third +\[Tracepoint event\]$'
	assert_line --regexp '^  pstatfake:first +\[Tracepoint event\]$'
}

@test "list: a VM without a core PMU shows msr/tsc/ and says why cycles fail" {
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu run "$PSTAT" list
	assert_success
	assert_line --regexp '^Kernel PMU msr \(type 7\):$'
	assert_line --regexp '^  msr/tsc/ +\[Kernel PMU event\]$'
	assert_line "  $NOTE"
	# Once, under the hardware heading.
	[ "$(grep -cF -- "$NOTE" <<<"$output")" -eq 1 ]
	[ "$(grep -A1 '^Hardware events:$' <<<"$output" | tail -1)" = "  $NOTE" ]
}

@test "list: a machine with a core PMU has no note and marks it core" {
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list
	assert_success
	refute_output --partial 'no core hardware PMU'
	assert_line 'Kernel PMU cpu (type 4, core):'
	assert_line --regexp '^  cpu/instructions/ +\[Kernel PMU event\]$'
	assert_line --regexp '^  power/energy-pkg/ +\[Kernel PMU event, unit Joules\]$'
	# A PMU without aliases still shows what can be written.
	assert_line 'Kernel PMU amd_l3 (type 11):'
	assert_line --regexp '^  amd_l3/TERM=VALUE\[,\.\.\.\]/ +\[Kernel PMU event descriptor\]$'
	assert_line --regexp '^       \[terms: .*enallcores'
}

@test "list: arm64 core PMU is recognised by name" {
	PSTAT_SYSFS_ROOT=$SYSFS/arm64-neoverse run "$PSTAT" list -j
	assert_success
	run jq -e '.core_pmu_exposed == true and
		(.pmus[] | select(.name == "armv8_pmuv3_0") | .is_core)' \
		<<<"$output"
	assert_success
}

@test "list: a glob filters names, case-insensitively" {
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list 'TASK*'
	assert_success
	assert_line --regexp '^  task-clock +\[Software event\]$'
	refute_output --partial 'page-faults'
	refute_output --partial 'Hardware events:'
	# An alias matches too, and shows its canonical name.
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list cycles
	assert_success
	assert_line --regexp '^  cpu-cycles OR cycles +\[Hardware event\]$'
	# A PMU name lists that PMU's events.
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list msr
	assert_success
	assert_line --regexp '^  msr/aperf/ '
	assert_line --regexp '^  msr/tsc/ '
	refute_output --partial 'task-clock'
}

@test "list: a glob that matches nothing prints nothing and succeeds" {
	run "$PSTAT" list 'no-such-event-pstat*'
	assert_success
	assert_output ''
}

@test "list --names: one name per line, no headings" {
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list --names
	assert_success
	assert_line 'cpu-cycles'
	assert_line 'cycles'
	assert_line 'cs'
	assert_line 'L1-dcache-loads'
	assert_line 'msr/tsc/'
	assert_line 'power/energy-pkg/'
	refute_output --regexp ':$'
	refute_output --regexp ' '
	refute_output --partial 'no core hardware PMU'
}

@test "list --names: completion of a prefix" {
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list --names 'msr/*'
	assert_success
	assert_output "$(printf 'msr/\nmsr/aperf/\nmsr/irperf/\nmsr/mperf/\nmsr/tsc/')"
	# A PMU without aliases completes to its name and a slash.
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list --names 'amd_*'
	assert_success
	assert_output "$(printf 'amd_df/\namd_l3/')"
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list --names 'cyc*'
	assert_success
	assert_output 'cycles'
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t run "$PSTAT" list --names 'pstatfake:*'
	assert_success
	assert_output "$(printf 'pstatfake:first\npstatfake:second')"
}

@test "list --names: libpfm4 pmu::EVENT names" {
	local ev
	ev=$("$PT" pfm --first-core-event) ||
		skip "libpfm4 detects no core PMU with an event that encodes"
	run "$PSTAT" list --names "${ev%%::*}::*"
	assert_success
	assert_line "$ev"
	# Nothing but libpfm4 names matches a "::" glob.
	run grep -v '::' <<<"$output"
	assert_failure
}

@test "list: libpfm4 events with their PMU heading and descriptions" {
	local ev pmu
	ev=$("$PT" pfm --first-core-event) ||
		skip "libpfm4 detects no core PMU with an event that encodes"
	pmu=${ev%%::*}
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu run "$PSTAT" list "$ev"
	assert_success
	assert_line --regexp "^libpfm4 PMU $pmu \(.*, core, not exposed by the kernel\):\$"
	assert_line --regexp "^  $ev +\[libpfm4 event\]\$"
	assert_line --regexp '^       \[.+'
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list "$ev"
	assert_success
	assert_line --regexp "^libpfm4 PMU $pmu \(.*, core\):\$"
}

@test "list -j: one valid document with sections, PMUs and the core flag" {
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu run "$PSTAT" list -j
	assert_success
	jq -e . <<<"$output" >/dev/null
	run jq -e '
		.core_pmu_exposed == false and
		any(.events[]; .section == "hardware" and .name == "cpu-cycles") and
		any(.events[]; .section == "software" and .name == "task-clock") and
		any(.events[]; .section == "cache") and
		any(.events[]; .section == "pmu" and .name == "msr/tsc/" and
		    .pmu == "msr" and .encoding == "event=0x00") and
		any(.pmus[]; .name == "msr" and .source == "sysfs" and
		    .type == 7 and .is_core == false)' <<<"$output"
	assert_success
}

@test "list -j: libpfm4 events carry their umasks" {
	"$PT" pfm --first-core-event >/dev/null ||
		skip "libpfm4 detects no core PMU here"
	run "$PSTAT" list -j '*::*'
	assert_success
	run jq -e '
		all(.events[]; .section == "libpfm4") and
		any(.events[]; (.umasks | length) > 0) and
		any(.pmus[]; .source == "libpfm4" and .is_core == true)' \
		<<<"$output"
	assert_success
}

@test "list: a write error fails" {
	[ -w /dev/full ] || skip "no /dev/full"
	run sh -c '"$1" list >/dev/full' sh "$PSTAT"
	assert_failure
}
