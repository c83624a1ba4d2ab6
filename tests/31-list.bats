#!/usr/bin/env bats
# pstat list: sections, sysfs aliases from fixture trees, the note for a
# machine without a core PMU, globs, --names for completion, -j.

bats_require_minimum_version 1.5.0
load test_helper
load json_helper

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

# The fixture tracefs (tests/fixtures/tracefs): sched has sched_switch,
# sched_wakeup and sched_waking; syscalls four events; noid an event
# without an id.
TP_LINE=' +\[Tracepoint event\]$'

@test "list: a subsystem's name lists its tracepoints, as perf list does" {
	local w args
	for w in sched --tracepoints 'sched:' 'sch*' 'SCHED'; do
		args=("$w")
		[ "$w" = --tracepoints ] && args=(--tracepoints sched)
		PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list "${args[@]}"
		assert_success
		assert_line 'Tracepoints:'
		assert_line --regexp "^  sched:sched_switch$TP_LINE"
		assert_line --regexp "^  sched:sched_wakeup$TP_LINE"
		assert_line --regexp "^  sched:sched_waking$TP_LINE"
		refute_output --partial 'syscalls:'
		refute_output --partial 'warning'
	done
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list syscalls
	assert_success
	assert_line --regexp "^  syscalls:sys_enter_read$TP_LINE"
	assert_line --regexp "^  syscalls:sys_exit_write$TP_LINE"
	[ "$(grep -c 'Tracepoint event' <<<"$output")" -eq 4 ]
	# an event without an id is no tracepoint
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list noid
	assert_success
	refute_output --partial 'noid:'
	# as names for completion, too
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list --names 'sched:'
	assert_success
	assert_output "$(printf '%s\n' sched:sched_switch sched:sched_wakeup \
		sched:sched_waking)"
}

@test "list: a word lists the tracepoints whose event names hold it" {
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list sched_switch
	assert_success
	assert_line --regexp "^  sched:sched_switch$TP_LINE"
	[ "$(grep -c 'Tracepoint event' <<<"$output")" -eq 1 ]
	# a substring, like perf's
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list wak
	assert_success
	assert_line --regexp "^  sched:sched_wakeup$TP_LINE"
	assert_line --regexp "^  sched:sched_waking$TP_LINE"
	refute_output --partial 'sched_switch'
	# a glob over event names or over sys:event
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list 'sys_enter_w*'
	assert_success
	assert_line --regexp "^  syscalls:sys_enter_write$TP_LINE"
	assert_line --regexp "^  syscalls:sys_enter_writev$TP_LINE"
	refute_output --partial 'sys_enter_read'
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list '*:sys_exit_*'
	assert_success
	assert_line --regexp "^  syscalls:sys_exit_write$TP_LINE"
	[ "$(grep -c 'Tracepoint event' <<<"$output")" -eq 1 ]
	# a PMU or libpfm4 glob never lists tracepoints
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list 'sched/*'
	assert_success
	refute_output --partial 'Tracepoint'
}

@test "list: a tracefs that cannot be read warns only when asked for" {
	PSTAT_TRACEFS_ROOT=$BATS_TEST_TMPDIR/none run --separate-stderr \
		"$PSTAT" list sched
	assert_success
	[ -z "$stderr" ]
	PSTAT_TRACEFS_ROOT=$BATS_TEST_TMPDIR/none run --separate-stderr \
		"$PSTAT" list 'sched:'
	assert_success
	[ "$stderr" = "pstat: warning: cannot read tracepoints: No such file or directory" ]
}

@test "list: the real tracefs by subsystem and by event name" {
	need_tracepoint sched/sched_switch
	local w args
	for w in sched 'sched:' sched_switch --tracepoints; do
		args=("$w")
		[ "$w" = --tracepoints ] && args=(--tracepoints sched)
		run --separate-stderr "$PSTAT" list "${args[@]}"
		assert_success
		[ -z "$stderr" ]
		assert_line --regexp "^  sched:sched_switch$TP_LINE"
	done
	need_tracepoint syscalls/sys_enter_write
	run "$PSTAT" list syscalls
	assert_success
	assert_line --regexp "^  syscalls:sys_enter_write$TP_LINE"
	assert_line --regexp "^  syscalls:sys_exit_write$TP_LINE"
}

@test "list: perf's raw and breakpoint descriptors" {
	run "$PSTAT" list
	assert_success
	assert_line 'Raw hardware event descriptors:'
	assert_line --regexp '^  rNNN +\[Raw hardware event descriptor\]$'
	assert_line --regexp '^  cpu/t1=v1\[,t2=v2,t3 \.\.\.\]/modifier +\[Raw hardware event descriptor\]$'
	assert_line 'Hardware breakpoints:'
	assert_line --regexp '^  mem:<addr>\[/len\]\[:access\] +\[Hardware breakpoint\]$'
	run "$PSTAT" list 'mem*'
	assert_success
	assert_line --regexp '^  mem:<addr>'
	refute_output --partial 'rNNN'
	run "$PSTAT" list -j
	assert_success
	run jq_assert 'any(.events[]; .section == "raw" and .name == "rNNN") and
		any(.events[]; .section == "breakpoint" and
		    .name == "mem:<addr>[/len][:access]")' <<<"$output"
	assert_success
}

@test "list: a malformed format file is no term of the PMU" {
	PSTAT_SYSFS_ROOT=$FIX/sysfs-bad run "$PSTAT" list 'bad/*'
	assert_success
	assert_line --regexp '^  bad/TERM=VALUE\[,\.\.\.\]/ +\[Kernel PMU event descriptor\]$'
	assert_line '       [terms: event]'
}

@test "list: without libpfm4 (PSTAT_LIBPFM) there is no libpfm4 section" {
	PSTAT_LIBPFM=$BATS_TEST_TMPDIR/no-libpfm.so run --separate-stderr \
		"$PSTAT" list
	assert_success
	[ -z "$stderr" ]
	assert_line --regexp '^  task-clock '
	refute_output --partial 'libpfm4'
}

@test "list: a VM without a core PMU shows msr/tsc/ and says why cycles fail" {
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu run "$PSTAT" list
	assert_success
	assert_line --regexp '^Kernel PMU msr \(type 7\):$'
	assert_line --regexp '^  msr/tsc/ +\[Kernel PMU event\]$'
	assert_line "  $NOTE"
	# Once under each heading of events that need the core PMU:
	# hardware, cache and raw.
	[ "$(grep -cF -- "$NOTE" <<<"$output")" -eq 3 ]
	[ "$(grep -A1 '^Hardware events:$' <<<"$output" | tail -1)" = "  $NOTE" ]
	[ "$(grep -A1 '^Hardware cache events:$' <<<"$output" | tail -1)" = "  $NOTE" ]
	[ "$(grep -A1 '^Raw hardware event descriptors:$' <<<"$output" | tail -1)" = "  $NOTE" ]
	# not under software events or breakpoints, which count here
	[ "$(grep -A1 '^Software events:$' <<<"$output" | tail -1)" != "  $NOTE" ]
	[ "$(grep -A1 '^Hardware breakpoints:$' <<<"$output" | tail -1)" != "  $NOTE" ]
	# a glob that shows cache events only still says why
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu run "$PSTAT" list 'L1-dcache-*'
	assert_success
	[ "$(sed -n 2p <<<"$output")" = "  $NOTE" ]
}

@test "list: a machine with a core PMU has no note and marks it core" {
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list
	assert_success
	refute_output --partial 'no core hardware PMU'
	assert_line 'Kernel PMU cpu (type 4, core):'
	assert_line --regexp '^  cpu/instructions/ +\[Kernel PMU event\]$'
	# the alias's unit and its scale (.scale 2.3283064365386962890625e-10)
	assert_line --regexp '^  power/energy-pkg/ +\[Kernel PMU event, unit Joules, scale 2\.32831e-10\]$'
	# A PMU without aliases still shows what can be written.
	assert_line 'Kernel PMU amd_l3 (type 11):'
	assert_line --regexp '^  amd_l3/TERM=VALUE\[,\.\.\.\]/ +\[Kernel PMU event descriptor\]$'
	assert_line --regexp '^       \[terms: .*enallcores'
}

@test "list: arm64 core PMU is recognised by name" {
	PSTAT_SYSFS_ROOT=$SYSFS/arm64-neoverse run "$PSTAT" list -j
	assert_success
	run jq_assert '.core_pmu_exposed == true and
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
	# A PMU without aliases completes to its name and a slash. (A bare
	# glob also takes tracepoint subsystems, such as a real amd_cpu:
	# the fake tracefs has none.)
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 \
		run "$PSTAT" list --names 'amd_*'
	assert_success
	assert_output "$(printf 'amd_df/\namd_l3/')"
	PSTAT_TRACEFS_ROOT=$t PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 \
		run "$PSTAT" list --names 'cyc*'
	assert_success
	assert_output 'cycles'
	# descriptors are syntax, not names to complete
	PSTAT_TRACEFS_ROOT=$t run "$PSTAT" list --names
	assert_success
	refute_line 'rNNN'
	refute_output --partial 'mem:<addr>'
	PSTAT_TRACEFS_ROOT=$t run "$PSTAT" list --names 'pstatfake:*'
	assert_success
	assert_output "$(printf 'pstatfake:first\npstatfake:second')"
}

@test "list --names: libpfm4 pmu::EVENT names" {
	local ev
	pfm_force_core_pmu
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
	pfm_force_core_pmu
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
	jq_assert . <<<"$output" >/dev/null
	run jq_assert '
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
	pfm_force_core_pmu
	"$PT" pfm --first-core-event >/dev/null ||
		skip "libpfm4 detects no core PMU here"
	run "$PSTAT" list -j '*::*'
	assert_success
	run jq_assert '
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

@test "list -j: sysfs alias scales and libpfm4 umask descriptions" {
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 run "$PSTAT" list -j power
	assert_success
	run jq_assert 'any(.events[]; .name == "power/energy-pkg/" and
		.unit == "Joules" and .scale == 2.3283064365386962890625e-10) and
		all(.events[] | select(.section == "cache"); .scale == 1)' \
		<<<"$output"
	assert_success
	pfm_force_core_pmu
	"$PT" pfm --first-core-event >/dev/null ||
		skip "libpfm4 detects no core PMU here"
	run "$PSTAT" list -j '*::*'
	assert_success
	run jq_assert 'any(.events[]; any(.umasks[]; (.name | length) > 0 and
		(.description | length) > 0))' <<<"$output"
	assert_success
}

@test "list -j: real documents match the schema" {
	need_jsonschema
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu \
		"$PSTAT" list -j --tracepoints >"$BATS_TEST_TMPDIR/vm.json"
	validate_json "$BATS_TEST_TMPDIR/vm.json" "$ROOT/schema/pstat-list.schema.json"
	PSTAT_SYSFS_ROOT=$SYSFS/amd-zen3 "$PSTAT" list -j >"$BATS_TEST_TMPDIR/zen3.json"
	validate_json "$BATS_TEST_TMPDIR/zen3.json" "$ROOT/schema/pstat-list.schema.json"
}

# The headings of a table listing, one per line.
headings() {
	grep -v '^ ' <<<"$1" | grep -v '^$' | sed 's/ (.*//' | sort -u
}

@test "list: a word without glob characters matches anywhere in any name" {
	export PSTAT_SYSFS_ROOT=$SYSFS/intel-skylake PSTAT_TRACEFS_ROOT=$FIX/tracefs
	local w
	# the uncore PMU's events, by part of the PMU's name, as perf list
	for w in uncore_imc imc IMC; do
		run "$PSTAT" list "$w"
		assert_success
		assert_line 'Kernel PMU uncore_imc_0 (type 12):'
		assert_line --regexp '^  uncore_imc_0/cas_count_read/ +\[Kernel PMU event, unit MiB'
		assert_line --regexp '^  uncore_imc_1/clockticks/ +\[Kernel PMU event\]$'
		refute_output --partial 'uncore_cha'
		refute_output --partial 'Hardware'
	done
	# by part of an alias's name, on every PMU that has it
	run "$PSTAT" list residency
	assert_success
	assert_line --regexp '^  cstate_core/c3-residency/ '
	assert_line --regexp '^  cstate_pkg/c2-residency/ '
	refute_output --partial 'msr/'
	# by part of a generic name or its alias, and in a tracepoint's
	run "$PSTAT" list CLOCK
	assert_success
	assert_line --regexp '^  cpu-clock +\[Software event\]$'
	assert_line --regexp '^  task-clock +\[Software event\]$'
	run "$PSTAT" list migrat
	assert_line --regexp '^  cpu-migrations OR migrations +\[Software event\]$'
	run "$PSTAT" list witch
	assert_line --regexp '^  sched:sched_switch +\[Tracepoint event\]$'
	# as names for completion too; a glob still matches whole names
	run "$PSTAT" list --names cas_count
	assert_output "$(printf 'uncore_imc_0/cas_count_read/\nuncore_imc_0/cas_count_write/\nuncore_imc_1/cas_count_read/\nuncore_imc_1/cas_count_write/')"
	run "$PSTAT" list --names 'imc*'
	assert_success
	assert_output ''
}

@test "list: perf list's section keywords" {
	export PSTAT_SYSFS_ROOT=$SYSFS/intel-skylake
	local t="$BATS_TEST_TMPDIR/tracefs" w
	# a tracepoint whose name holds "cache", as on a real kernel
	mkdir -p "$t/events/kmem/kmem_cache_alloc" "$t/events/sched/sched_switch"
	echo 7 >"$t/events/kmem/kmem_cache_alloc/id"
	echo 8 >"$t/events/sched/sched_switch/id"
	export PSTAT_TRACEFS_ROOT=$t
	for w in hw hardware; do
		run "$PSTAT" list "$w"
		assert_success
		assert_equal "$(headings "$output")" 'Hardware events:'
		assert_line --regexp '^  cpu-cycles OR cycles +\[Hardware event\]$'
		assert_line --regexp '^  ref-cycles +\[Hardware event\]$'
	done
	for w in sw software; do
		run "$PSTAT" list "$w"
		assert_success
		assert_equal "$(headings "$output")" 'Software events:'
		assert_line --regexp '^  task-clock +\[Software event\]$'
	done
	# the cache section alone: perf 6.1's "cache" lists no tracepoints
	for w in cache hwcache; do
		run "$PSTAT" list "$w"
		assert_success
		assert_equal "$(headings "$output")" 'Hardware cache events:'
		assert_line --regexp '^  L1-dcache-load-misses +\[Hardware cache event\]$'
		refute_output --partial 'kmem_cache_alloc'
	done
	# ... where a word that is no keyword matches them, and the others
	run "$PSTAT" list cach
	assert_success
	assert_line --regexp '^  kmem:kmem_cache_alloc +\[Tracepoint event\]$'
	assert_line --regexp '^  L1-dcache-loads +\[Hardware cache event\]$'
	assert_line --regexp '^  cache-misses +\[Hardware event\]$'
	run "$PSTAT" list tracepoint
	assert_success
	assert_equal "$(headings "$output")" 'Tracepoints:'
	assert_line --regexp '^  kmem:kmem_cache_alloc +\[Tracepoint event\]$'
	assert_line --regexp '^  sched:sched_switch +\[Tracepoint event\]$'
	run "$PSTAT" list pmu
	assert_success
	refute_output --partial 'Hardware'
	refute_output --partial 'libpfm4'
	assert_line --regexp '^  msr/tsc/ +\[Kernel PMU event\]$'
	assert_line --regexp '^  uncore_imc_1/cas_count_write/ '
	[ "$(headings "$output" | grep -vc '^Kernel PMU ')" -eq 0 ]
	# pstat has no SDT events: nothing, successfully
	run "$PSTAT" list sdt
	assert_success
	assert_output ''
	run "$PSTAT" list -j sdt
	assert_success
	run jq -c '.events' <<<"$output"
	assert_output '[]'
	# the metric keywords list the built-in metrics (32-metrics.bats)
	for w in metric metrics metricgroup metricgroups; do
		run "$PSTAT" list -j "$w"
		assert_success
		run jq -r '.schema' <<<"$output"
		assert_output 'pstat-metrics/1'
	done
	# the same sections in JSON and as names
	run "$PSTAT" list -j hw
	run jq -c '[.events[].section] | unique' <<<"$output"
	assert_output '["hardware"]'
	run "$PSTAT" list --names sw
	assert_line task-clock
	refute_line cycles
}
