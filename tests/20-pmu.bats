#!/usr/bin/env bats
# sysfs PMUs (src/events/pmu.c) and tracepoints (src/events/tracepoint.c).

load test_helper

# The tables name trees relative to PSTAT_TEST_FIXTURES: a copy of the
# fixtures with the hand-made tree joined as "handmade". The arm64-neoverse
# and vm-nopmu trees stand for a /sys whose PMU entries are symlinks; a
# checkout without symlink support stores each as a small file holding the
# link's target, so the copy turns any such file back into a symlink and
# the tests exercise what a real /sys has either way.
setup_file() {
	local tree="$BATS_FILE_TMPDIR/sysfs" f
	mkdir -p "$tree"
	cp -R "$SYSFS/." "$tree/"
	cp -R "$FIX/pmu-handmade" "$tree/handmade"
	chmod -R u+w "$tree"
	for f in "$tree"/arm64-neoverse/bus/event_source/devices/* \
		"$tree"/vm-nopmu/bus/event_source/devices/*; do
		if [ -f "$f" ] && [ ! -L "$f" ]; then
			ln -sfn "$(cat "$f")" "$f"
		fi
	done
	export PSTAT_TEST_FIXTURES="$tree"
}

@test "pmu: the symlinked trees really are symlinks" {
	local d="$PSTAT_TEST_FIXTURES/arm64-neoverse/bus/event_source/devices"
	[ -L "$d/armv8_pmuv3_0" ]
	[ -d "$d/armv8_pmuv3_0/" ]
	d="$PSTAT_TEST_FIXTURES/vm-nopmu/bus/event_source/devices"
	[ -L "$d/msr" ]
	[ -d "$d/msr/" ]
}

@test "pmu: table of encodings, formats, matches and aliases" {
	run_table pmu pmu.test
	assert_output --regexp '^[0-9]+ cases, 0 failed$'
}

@test "pmu: the argv form gives the same result as the table form" {
	run "$PT" pmu intel-skylake 'cpu/event=0x3c,umask=1/'
	assert_success
	assert_output 'type=4 config=0x13c config1=0x0 config2=0x0'
	run "$PT" pmu 'intel-skylake cpu/event=0x3c,umask=1/'
	assert_success
	assert_output 'type=4 config=0x13c config1=0x0 config2=0x0'
}

@test "pmu: an error prints its message and exits 1" {
	run "$PT" pmu intel-skylake 'cpu/umask=0x1ff/'
	assert_failure 1
	assert_output "error: value 0x1ff too large for 'umask' of PMU 'cpu' (8 bits)"
}

@test "pmu: a tree given as a path works without PSTAT_TEST_FIXTURES" {
	PSTAT_TEST_FIXTURES= run "$PT" pmu "$SYSFS/amd-zen3" 'cpu/event=0xfff/'
	assert_success
	assert_output 'type=4 config=0xf000000ff config1=0x0 config2=0x0'
}

# A FIFO in place of another PMU's files blocks whoever opens it, so a
# lookup that finishes proves that it never looked there.
@test "pmu: finding one PMU reads no other PMU" {
	local tree="$BATS_TEST_TMPDIR/lazy" d
	cp -R "$SYSFS/intel-skylake" "$tree"
	chmod -R u+w "$tree"
	d="$tree/bus/event_source/devices"
	rm "$d/uncore_imc_0/type" "$d/power/events/energy-pkg"
	mkfifo "$d/uncore_imc_0/type" "$d/power/events/energy-pkg"

	run timeout 10 "$PT" pmu "$tree" 'cpu/event=0x3c/'
	assert_success
	assert_output 'type=4 config=0x3c config1=0x0 config2=0x0'
	run timeout 10 "$PT" pmu match "$tree" uncore_imc_1
	assert_success
	assert_output 'uncore_imc_1 type=13'
	run timeout 10 "$PT" pmu "$tree" 'uncore_cha/event=1/'
	assert_success
	assert_output 'uncore_cha_0: type=10 config=0x1 config1=0x0 config2=0x0'

	# The trap works: asking for the PMU behind it reads the FIFO, which
	# is refused at once (only regular files are read), never waited on.
	run timeout 10 "$PT" pmu "$tree" 'uncore_imc_0/event=1/'
	assert_failure 1
	assert_output "error: PMU 'uncore_imc_0': cannot read its type file: Invalid argument"
}

@test "pmu: the real /sys has the software PMU" {
	[ -r /sys/bus/event_source/devices/software/type ] ||
		skip "no readable /sys/bus/event_source/devices/software here"
	run "$PT" pmu /sys 'software/config=9/'
	assert_success
	assert_output 'type=1 config=0x9 config1=0x0 config2=0x0'
}

TRACEFS="$FIX/tracefs"

@test "tracepoint: a plain subsystem:event gives its id" {
	run "$PT" tracepoint "$TRACEFS" sched:sched_switch
	assert_success
	assert_output 'sched:sched_switch 316'
}

@test "tracepoint: a glob in the event expands to every match, sorted" {
	run "$PT" tracepoint "$TRACEFS" 'sched:sched_wak*'
	assert_success
	assert_output "$(printf '%s\n' 'sched:sched_wakeup 318' \
		'sched:sched_waking 319')"
}

@test "tracepoint: files such as enable and filter are not events" {
	run "$PT" tracepoint "$TRACEFS" 'sched:*'
	assert_success
	assert_output "$(printf '%s\n' 'sched:sched_switch 316' \
		'sched:sched_wakeup 318' 'sched:sched_waking 319')"
}

@test "tracepoint: a glob in the subsystem expands too" {
	run "$PT" tracepoint "$TRACEFS" '*:sys_enter_write*'
	assert_success
	assert_output "$(printf '%s\n' 'syscalls:sys_enter_write 671' \
		'syscalls:sys_enter_writev 669')"
}

@test "tracepoint: globs in both parts; an event without id is skipped" {
	run "$PT" tracepoint "$TRACEFS" '*:*'
	assert_success
	assert_output "$(printf '%s\n' 'sched:sched_switch 316' \
		'sched:sched_wakeup 318' 'sched:sched_waking 319' \
		'syscalls:sys_enter_read 673' 'syscalls:sys_enter_write 671' \
		'syscalls:sys_enter_writev 669' 'syscalls:sys_exit_write 670')"
}

@test "tracepoint: character classes work like fnmatch" {
	run "$PT" tracepoint "$TRACEFS" 'syscalls:sys_[e]nter_?ead'
	assert_success
	assert_output 'syscalls:sys_enter_read 673'
}

@test "tracepoint: no match is an error" {
	run "$PT" tracepoint "$TRACEFS" sched:nope
	assert_failure 1
	assert_output "error: no tracepoint matches 'sched:nope'"
	run "$PT" tracepoint "$TRACEFS" nosys:sched_switch
	assert_failure 1
	assert_output "error: no tracepoint matches 'nosys:sched_switch'"
	run "$PT" tracepoint "$TRACEFS" 'noid:*'
	assert_failure 1
	assert_output "error: no tracepoint matches 'noid:*'"
}

@test "tracepoint: a spec that is not subsystem:event is invalid" {
	run "$PT" tracepoint "$TRACEFS" sched
	assert_failure 1
	assert_output "error: cannot resolve 'sched': Invalid argument"
	run "$PT" tracepoint "$TRACEFS" '..:sched'
	assert_failure 1
	assert_output "error: cannot resolve '..:sched': Invalid argument"
	run "$PT" tracepoint "$TRACEFS" 'sched:'
	assert_failure 1
	assert_output "error: cannot resolve 'sched:': Invalid argument"
}

@test "tracepoint: a root without events/ cannot be read" {
	run "$PT" tracepoint "$BATS_TEST_TMPDIR" sched:sched_switch
	assert_failure 1
	assert_output "error: cannot resolve 'sched:sched_switch': No such file or directory"
}

@test "tracepoint: the real tracefs resolves syscalls:sys_enter_write" {
	need_tracepoint syscalls/sys_enter_write
	local dir id
	for dir in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -r "$dir/events/syscalls/sys_enter_write/id" ] && break
	done
	id=$(cat "$dir/events/syscalls/sys_enter_write/id")
	run "$PT" tracepoint - syscalls:sys_enter_write
	assert_success
	assert_output "syscalls:sys_enter_write $id"
	run "$PT" tracepoint - 'syscalls:sys_enter_writ*'
	assert_success
	assert_line "syscalls:sys_enter_write $id"
	assert_line --regexp '^syscalls:sys_enter_writev [0-9]+$'
}

@test "pmu: a live run sums the instances a PMU prefix matches" {
	need_perf_events
	local twin="$FIX/twin-pmu" out sum single
	PSTAT_SYSFS_ROOT=$twin run "$PSTAT" -v --dry-run -e swtwin/faults/
	assert_success
	assert_line --partial "event 'swtwin/faults/': resolved by sysfs (pmu swtwin_0, type 1, config 0x2)"
	assert_line --partial "event 'swtwin/faults/': resolved by sysfs (pmu swtwin_1, type 1, config 0x2)"
	# both instances count the same page faults of the same command,
	# from exec to exit: their sum is twice page-faults, exactly
	out=$(PSTAT_SYSFS_ROOT=$twin "$PSTAT" -j -e swtwin/faults/,page-faults \
		-- "$(prog toucher)" 64 2>&1)
	sum=$(jq -r '.counters[] | select(.event == "swtwin/faults/") | .value' <<<"$out")
	single=$(jq -r '.counters[] | select(.event == "page-faults") | .value' <<<"$out")
	[ "$(jq '.counters | length' <<<"$out")" -eq 2 ]
	[ "$single" -ge 64 ]
	[ "$sum" -eq $((2 * single)) ]
}

@test "pmu: a bare alias name resolves on the PMUs that have it" {
	local h="$PSTAT_TEST_FIXTURES/handmade"
	# case-insensitive, with the alias's scale and unit, and its name=
	run "$PT" encode "$h" 'mixed-case,outer:u,withname'
	assert_success
	assert_line 'mixed-case: sysfs type=42 config=0x3 eu=0 ek=0 eh=0 eH=0 eG=1 eI=0 p=0 D=0 e=0 group=0 leader=0 row=0'
	assert_line 'outer:u: sysfs type=42 config=0x101 eu=0 ek=1 eh=1 eH=0 eG=1 eI=0 p=0 D=0 e=0 group=1 leader=1 row=1 scale=0.5 unit=MB'
	assert_line 'fancy: sysfs type=42 config=0x5 eu=0 ek=0 eh=0 eH=0 eG=1 eI=0 p=0 D=0 e=0 group=2 leader=2 row=2'
	# a broken alias fails as toy/typo/ would, naming the PMU
	run "$PT" encode "$h" typo
	assert_failure 1
	assert_output --partial "error: unknown term 'evnt' for PMU 'toy'"
	run "$PT" encode "$h" loop-a
	assert_failure 1
	assert_output "error: alias 'loop-a' of PMU 'toy' nests more than 8 deep"
	# two PMUs that disagree on the unit: the user picks one
	run "$PT" encode "$FIX/alias-pmus" pstat-clock
	assert_failure 1
	assert_output "error: ambiguous event 'pstat-clock': PMUs 'swalias_a' and 'swalias_b' both have it, in different units; name one, as 'swalias_a/pstat-clock/'"
	run "$PT" encode "$FIX/alias-pmus" swalias_b/pstat-clock/
	assert_success
}

@test "pmu: a live bare alias on two PMUs is one row summing both" {
	need_perf_events
	local out sum single
	export PSTAT_SYSFS_ROOT="$FIX/alias-pmus"
	run "$PSTAT" -v --dry-run -e pstat-faults
	assert_success
	assert_line "pstat: event 'pstat-faults': resolved by sysfs (pmu swalias_a, type 1, config 0x2)"
	assert_line "pstat: event 'pstat-faults': resolved by sysfs (pmu swalias_b, type 1, config 0x2)"
	out=$("$PSTAT" -j -e pstat-faults,page-faults,pstat-cs:u \
		-- "$(prog toucher)" 64 2>&1)
	[ "$(jq '.counters | length' <<<"$out")" -eq 3 ]
	sum=$(jq -r '.counters[] | select(.event == "pstat-faults") | .value' <<<"$out")
	single=$(jq -r '.counters[] | select(.event == "page-faults") | .value' <<<"$out")
	[ "$single" -ge 64 ]
	[ "$sum" -eq $((2 * single)) ]
	run "$PSTAT" -e pstat-clock true
	assert_failure 125
	assert_output "pstat: ambiguous event 'pstat-clock': PMUs 'swalias_a' and 'swalias_b' both have it, in different units; name one, as 'swalias_a/pstat-clock/'"
}

@test "pmu: a live group over two instances counts as one group per instance" {
	need_perf_events
	local out sum single
	export PSTAT_SYSFS_ROOT="$FIX/twin-pmu"
	run "$PSTAT" --dry-run -j -e '{swtwin/faults/,swtwin/task-clock/}'
	assert_success
	run jq -c '[.events[] | [.pmu, .group, .leader]]' <<<"$output"
	assert_output '[["swtwin_0",0,true],["swtwin_0",0,false],["swtwin_1",1,true],["swtwin_1",1,false]]'
	out=$("$PSTAT" -j -e '{swtwin/faults/,swtwin/task-clock/},page-faults' \
		-- "$(prog toucher)" 64 2>&1)
	[ "$(jq '.counters | length' <<<"$out")" -eq 3 ]
	sum=$(jq -r '.counters[] | select(.event == "swtwin/faults/") | .value' <<<"$out")
	single=$(jq -r '.counters[] | select(.event == "page-faults") | .value' <<<"$out")
	[ "$sum" -eq $((2 * single)) ]
	jq_assert '.counters[] | select(.event == "swtwin/task-clock/") | .value > 0' \
		<<<"$out"
}

@test "pmu: a live bare tsc is msr/tsc/, as perf takes it" {
	need_msr
	[ -r /sys/bus/event_source/devices/msr/events/tsc ] ||
		skip "the kernel has no msr/tsc/ here"
	run "$PSTAT" -v -e tsc,msr/tsc/ true
	assert_success
	assert_line --regexp "^pstat: event 'tsc': resolved by sysfs \(pmu msr, type [0-9]+, config 0\)$"
	assert_line --regexp '^ +[0-9,]+ +tsc( |$)'
}

# A root without events/ stands for /sys: kernel/tracing is tried, then
# the older kernel/debug/tracing, as for the real /sys.
fake_sys_tracefs() {
	local root="$BATS_TEST_TMPDIR/sys" where=$1
	mkdir -p "$root/$where/events/sched/sched_switch"
	echo "$2" >"$root/$where/events/sched/sched_switch/id"
	echo "$root"
}

@test "tracepoint: without kernel/tracing, kernel/debug/tracing is used" {
	local root
	root=$(fake_sys_tracefs kernel/debug/tracing 4242)
	[ ! -e "$root/kernel/tracing" ]
	run "$PT" tracepoint "$root" sched:sched_switch
	assert_success
	assert_output 'sched:sched_switch 4242'
	# pstat itself, through PSTAT_TRACEFS_ROOT
	PSTAT_TRACEFS_ROOT=$root run "$PSTAT" --dry-run -j -e sched:sched_switch
	assert_success
	run jq -r '.events[0].attr.config' <<<"$output"
	assert_output '0x1092'
	PSTAT_TRACEFS_ROOT=$root run "$PSTAT" list --names 'sched:*'
	assert_success
	assert_output 'sched:sched_switch'
	# kernel/tracing, when there, comes first
	mkdir -p "$root/kernel/tracing/events/sched/sched_switch"
	echo 7 >"$root/kernel/tracing/events/sched/sched_switch/id"
	run "$PT" tracepoint "$root" sched:sched_switch
	assert_output 'sched:sched_switch 7'
}


# The "no core PMU" hint is for a kernel that registered none (issue 30
# item 1): an event that a real core PMU does not count is that PMU's
# answer (the lab's pstat -d on QEMU's PMUv3, tests/95-pmulab.bats).
@test "hint: no core PMU only where the kernel has none" {
	run "$PSTAT" -x, -o /dev/null -e cycles true
	assert_success
	[[ "$output" == *"no core PMU here"* ]] ||
		skip "cycles counted here: this machine has a core PMU"
	# the same run under a /sys with a core PMU: no such hint
	PSTAT_SYSFS_ROOT=$FIX/arm64-rk3399 run "$PSTAT" -x, -o /dev/null -e cycles true
	assert_success
	refute_output --partial 'no core PMU'
}
