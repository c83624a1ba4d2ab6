#!/usr/bin/env bats
# Every event string perf's own parser tests take (tools/perf/tests/
# parse-events.c: test__events[], test__events_pmu[]; tests/pmu.c), and
# the modifiers G/H combined with groups.
#
# Pure tier: tests/data/evspec-perf.test (the grammar) and
# tests/data/perf-syntax.test (the attrs, over the fixture trees
# tests/fixtures/sysfs/perf-syntax*, see PERF-SYNTAX.md there).
# Live tier: the attrs pstat passes to perf_event_open, as strace decodes
# them, against perf stat's (tests/lib/attr-trace.py), for perf's table
# on software events (cycles -> task-clock, instructions ->
# context-switches, cache-misses -> page-faults, branch-misses ->
# cpu-migrations, branches -> minor-faults) and for every combination of
# G, H, u, k, h, p, D, e, S and I with groups that this machine counts.

bats_require_minimum_version 1.5.0
load test_helper
load json_helper

setup() {
	export PSTAT_TEST_FIXTURES="$FIX"
}

@test "perf's event grammar: TYPE:CONFIG, terms after names, quotes, named groups" {
	run_table evspec evspec-perf.test
}

@test "perf's parse-events and pmu tables encode to the attrs they assert" {
	run_table encode perf-syntax.test
}

need_attr_trace() {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v strace >/dev/null || skip "strace is not installed"
	need_perf_events
	perf stat -e task-clock true >/dev/null 2>&1 ||
		skip "perf stat cannot count here"
}

# attr_trace LIST...: each list opened by perf stat and by pstat with the
# same attrs; lists perf refuses (exit 77) are reported, not failed.
attr_trace() {
	local ev out rc fails=0
	for ev in "$@"; do
		out=$(/usr/bin/env python3 "$ROOT/tests/lib/attr-trace.py" \
			"$PSTAT" "$ev" 2>&1) && continue
		rc=$?
		if [ "$rc" = 77 ]; then
			echo "perf refuses: $ev"
			continue
		fi
		echo "$out"
		fails=$((fails + 1))
	done
	[ "$fails" = 0 ]
}

@test "perf's table on software events: the attrs perf stat opens" {
	need_attr_trace
	need_kernel_counting "perf's table has :k and :h"
	run attr_trace \
		'1:1' '1:1:hp' '0x1:0x1' '0x1:0x3:u' '0x1:1' 'faults' 'faults:u' 'r1,1:1:hp' \
		'task-clock/period=100000,config2/' 'context-switches:h' \
		'context-switches:G' 'context-switches:H' \
		'{context-switches:k,task-clock:upp}' \
		'{faults:k,minor-faults}:u,task-clock:k' \
		'{task-clock:u,context-switches:kp}:p' \
		'{task-clock,context-switches}:G,{task-clock:G,context-switches:G},task-clock' \
		'{task-clock,page-faults:G}:H' '{task-clock,page-faults:H}:G' \
		'{task-clock:G,page-faults:H}:u' '{task-clock:G,page-faults:H}:uG' \
		'{task-clock,page-faults,cpu-migrations}:S' \
		'{context-switches,cpu-migrations}:Su' 'context-switches:uDp' \
		'{task-clock,page-faults,cpu-migrations}:D' \
		'context-switches:I' 'context-switches:kIG' 'task-clock:P,task-clock' \
		'context-switches/name=insn/' 'r1234/name=rawpmu/' \
		'4:0x6530160/name=numpmu/' \
		"task-clock/name='COMPLEX_CYCLES_NAME:orig=task-clock,desc=chip-clock-ticks'/Duk" \
		'task-clock//u' 'task-clock:k' 'context-switches:uep' \
		'{task-clock,page-faults,cpu-migrations}:e' 'task-clock/name=l1d/' \
		'software/r1a/' 'software/r0x1a/' 'software/config=3,period=1000/u' \
		'mem:0' 'mem:0:x' 'mem:0:r:hp' 'mem:0:w:up' 'mem:0:rw:kp' \
		'mem:0/1' 'mem:0/2:w' 'mem:0/4:rw:u'
	echo "$output"
	assert_success
	refute_output --partial 'perf refuses'
}

@test "G and H combine with a group's modifiers as in perf (every letter)" {
	need_attr_trace
	need_kernel_counting "the combinations include :k and :h"
	run attr_trace \
		'{task-clock:G,context-switches:H}:u' \
		'{task-clock:H,context-switches:G}:k' \
		'{task-clock:G,context-switches:H}:GH' \
		'{task-clock:u,context-switches:k}:G' \
		'{task-clock:uG,context-switches:kH}:h' \
		'{task-clock:I,context-switches}:IG' \
		'{task-clock:p,context-switches:G}:p' \
		'{task-clock:Su,context-switches}:DG' \
		'{task-clock,context-switches,page-faults:H}:e' \
		'{task-clock:k,page-faults:u}:H' \
		'{task-clock:P,context-switches:p}:G' \
		'{task-clock:D,context-switches:H}:S' \
		'{task-clock:e,context-switches:GH}:I' \
		'{task-clock:hG,page-faults}:uH'
	echo "$output"
	assert_success
	refute_output --partial 'perf refuses'
}

@test "G and H: {a:G,b:H}:u counts a for guests and b for the host only" {
	run "$PSTAT" --dry-run -j -e '{task-clock:G,context-switches:H}:u'
	assert_success
	run jq -c '[.events[].attr | [.exclude_host, .exclude_guest, .exclude_kernel]]' <<<"$output"
	assert_output '[[true,false,true],[false,true,true]]'
}

@test "a group's members open enabled, following their leader, as perf opens them" {
	need_attr_trace
	run attr_trace '{task-clock,context-switches,page-faults}'
	echo "$output"
	assert_success
	# perf stops at a leader the kernel does not support; pstat opens
	# the rest as a group, whose first member then leads it
	run /usr/bin/env python3 "$ROOT/tests/lib/attr-trace.py" --show \
		"$PSTAT" '{cycles,task-clock,context-switches}'
	assert_success
	assert_line --index 0 'PERF_TYPE_HARDWARE PERF_COUNT_HW_CPU_CYCLES leader disabled=1 enable_on_exec=1'
	assert_line --index 1 --regexp '^PERF_TYPE_SOFTWARE PERF_COUNT_SW_TASK_CLOCK (leader|member) disabled=1 enable_on_exec=1$'
	assert_line --index 2 'PERF_TYPE_SOFTWARE PERF_COUNT_SW_CONTEXT_SWITCHES member disabled=0 enable_on_exec=0'
}

@test "the tracepoints of perf's table count (a subsystem named with a digit too)" {
	need_tracepoint syscalls/sys_enter_write
	run "$PSTAT" -x, -e 'syscalls:sys_enter_write:u,syscalls:sys_enter_write' -- \
		sh -c 'echo hi >/dev/null'
	assert_success
	local u all
	u=$(awk -F, '$3 == "syscalls:sys_enter_write:u" { print $1 }' <<<"$output")
	all=$(awk -F, '$3 == "syscalls:sys_enter_write" { print $1 }' <<<"$output")
	# the kernel filters a system call's tracepoint by the caller's mode
	[ "$all" -ge 1 ] && [ "$u" = "$all" ]
	PSTAT_TRACEFS_ROOT=$FIX/tracefs-perf run "$PSTAT" --dry-run -e 9p:9p_client_req
	assert_success
	assert_line --partial 'type 2 config 0x4b0'
}

@test "a tracepoint without an id file has its format's ID, as perf reads it" {
	PSTAT_TRACEFS_ROOT=$FIX/tracefs-perf run "$PSTAT" --dry-run -e 'ftrace:*'
	assert_success
	assert_line 'ftrace:bprint: resolver tracepoint, pmu tracepoint, group 0 (leader)'
	assert_line --partial 'type 2 config 0x6 '
	PSTAT_TRACEFS_ROOT=$FIX/tracefs-perf run "$PSTAT" list ftrace
	assert_success
	assert_line --regexp '^  ftrace:bprint +\[Tracepoint event\]$'
}

@test "a tracepoint without an id file is <not supported>, as in perf" {
	local tp
	need_perf_events
	for tp in /sys/kernel/tracing/events/ftrace/*/; do
		[ -e "$tp/id" ] || [ ! -r "$tp/format" ] || break
		tp=
	done
	[ -n "$tp" ] || skip "tracefs has no ftrace event without an id here"
	tp=ftrace:$(basename "$tp")
	run "$PSTAT" -x, -e "$tp,task-clock" true
	assert_success
	assert_line --regexp "^<not supported>,,$tp,"
}

@test "TYPE:CONFIG and terms after a generic name count like the name" {
	need_perf_events
	run "$PSTAT" -x, -e "1:2,faults,page-faults/name='pf,named'/,1:0x2/name=hex/" true
	assert_success
	local a b c d
	a=$(awk -F, '$3 == "1:2" { print $1 }' <<<"$output")
	b=$(awk -F, '$3 == "faults" { print $1 }' <<<"$output")
	c=$(grep -F '"pf,named"' <<<"$output" | cut -d, -f1)
	d=$(awk -F, '$3 == "hex" { print $1 }' <<<"$output")
	[ "$a" -gt 0 ] && [ "$b" -gt 0 ] && [ "$c" -gt 0 ] && [ "$d" -gt 0 ]
	# one process's page faults, counted four times at once
	[ "$a" = "$b" ] && [ "$b" = "$c" ] && [ "$c" = "$d" ]
}

@test "sampling terms: period= is ignored for counting, call-graph= refused by name" {
	need_perf_events
	run "$PSTAT" -x, -e 'task-clock/period=1000,freq=10,name=tc/' true
	assert_success
	assert_line --regexp '^[0-9.]+,msec,tc,'
	run -125 "$PSTAT" -e 'task-clock/call-graph=fp/' true
	assert_output "pstat: term 'call-graph' in 'task-clock/call-graph=fp/' is for sampling, and pstat counts (perf stat refuses it too)"
	run -125 "$PSTAT" -e 'software/config=1,time/' true
	assert_output --partial "term 'time' of PMU 'software' is for sampling"
}

@test "breakpoints with terms: name= and len=" {
	run "$PSTAT" --dry-run -j -e 'mem:0x1000/name=watch/,mem:0x1000:rw/len=8/u,mem:0/2:w/name=w2/k'
	assert_success
	run jq -c '[.events[] | [.name, .attr.bp_type, .attr.bp_addr, .attr.bp_len, .attr.exclude_kernel]]' <<<"$output"
	assert_output '[["watch",3,"0x1000","0x4",false],["mem:0x1000:rw/len=8/u",3,"0x1000","0x8",true],["w2",2,"0x0","0x2",false]]'
}

@test "a PMU's alias file: both names count, and the alias's prefix sums its instances" {
	need_perf_events
	export PSTAT_SYSFS_ROOT=$SYSFS/perf-syntax-sw
	run "$PSTAT" -x, -e 'uncore_type_1_0/event=2/,uncore_swk_0/event=2/,uncore_swk/event=2/,page-faults' true
	assert_success
	local a b c d
	a=$(awk -F, '$3 == "uncore_type_1_0/event=2/" { print $1 }' <<<"$output")
	b=$(awk -F, '$3 == "uncore_swk_0/event=2/" { print $1 }' <<<"$output")
	c=$(awk -F, '$3 == "uncore_swk/event=2/" { print $1 }' <<<"$output")
	d=$(awk -F, '$3 == "page-faults" { print $1 }' <<<"$output")
	[ "$d" -gt 0 ] && [ "$a" = "$d" ] && [ "$b" = "$d" ]
	# two instances (uncore_type_1_0 and _1), each the same page faults
	[ "$c" = $((2 * d)) ]
	run "$PSTAT" --dry-run -e uncore_swk_1/pstat-cs/
	assert_success
	assert_line --partial 'pmu uncore_type_1_1'
}

@test "a hyphenated PMU, and aliases with '?' parameters" {
	need_perf_events
	export PSTAT_SYSFS_ROOT=$SYSFS/perf-syntax-sw
	run "$PSTAT" -x, -e 'sw-hyph_0/cs-param,event=2/,sw-hyph_0/faults-hyph/,faults' true
	assert_success
	local a b c
	a=$(awk -F, '$3 == "sw-hyph_0/cs-param,event=2/" { print $1 }' <<<"$output")
	b=$(awk -F, '$3 == "sw-hyph_0/faults-hyph/" { print $1 }' <<<"$output")
	c=$(awk -F, '$3 == "faults" { print $1 }' <<<"$output")
	[ "$c" -gt 0 ] && [ "$a" = "$c" ] && [ "$b" = "$c" ]
	run -125 "$PSTAT" -e 'sw-hyph_0/cs-param/' true
	assert_output "pstat: event 'cs-param' of PMU 'sw-hyph_0' needs a value for 'event' (its sysfs alias has 'event=?'): add 'event=N'"
	run -125 "$PSTAT" -e 'sw-hyph_0/two-params,event=3/' true
	assert_output --partial "needs a value for 'param'"
	run "$PSTAT" --dry-run -e 'sw-hyph_0/two-params,param=7,event=3/'
	assert_success
	assert_line --partial 'type 1 config 0x3 config1 0x7'
}

@test "event=ALIAS takes the alias's encoding, live on msr/event=tsc/" {
	need_msr
	run "$PSTAT" --dry-run -e 'msr/event=tsc/,msr/tsc/'
	assert_success
	[ "$(grep -c 'type [0-9]* config 0 ' <<<"$output")" = 2 ]
	run "$PSTAT" -x, -e 'msr/event=tsc/' true
	assert_success
	[ "$(awk -F, '$3 == "msr/event=tsc/" { print $1 }' <<<"$output")" -gt 0 ]
}

@test "a named group's name labels its members in JSON and --dry-run" {
	need_perf_events
	run --separate-stderr "$PSTAT" -j -o "$BATS_TEST_TMPDIR/g.json" \
		-e 'group1{task-clock,cs}:u,faults' true
	assert_success
	validate_json "$BATS_TEST_TMPDIR/g.json"
	jq_assert '[.counters[] | [.event, .group, .group_name]] == [["task-clock", 0, "group1"], ["cs", 0, "group1"], ["faults", 1, null]]' \
		"$BATS_TEST_TMPDIR/g.json"
	run --separate-stderr "$PSTAT" --dry-run -j -e 'g-2{task-clock,1:3}:G'
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/d.json"
	validate_json "$BATS_TEST_TMPDIR/d.json" "$ROOT/schema/pstat-dryrun.schema.json"
	jq_assert '[.events[] | [.name, .group_name, .resolver]] == [["task-clock", "g-2", "generic"], ["1:3", "g-2", "numeric"]]' \
		"$BATS_TEST_TMPDIR/d.json"
	run "$PSTAT" --dry-run -e 'g-2{task-clock,1:3}:G'
	assert_line 'task-clock: resolver generic, pmu software, group 0 g-2 (leader)'
}

# An encode line without its name and its place in the list.
attr_of() {
	sed 's/^[^:]*: //; s/ group=.*//' <<<"$1"
}

@test "every sysfs alias of the machine trees as PMU/event=ALIAS/u, as perf's test__pmu_events" {
	local tree pmu a n=0 list
	for tree in intel-skylake amd-zen3 arm64-neoverse; do
		for pmu in "$SYSFS/$tree"/bus/event_source/devices/*/; do
			pmu=$(basename "$pmu")
			[ -d "$SYSFS/$tree/bus/event_source/devices/$pmu/events" ] || continue
			for a in "$SYSFS/$tree/bus/event_source/devices/$pmu/events"/*; do
				a=$(basename "$a")
				case $a in *.*) continue ;; esac
				grep -q '?' "$SYSFS/$tree/bus/event_source/devices/$pmu/events/$a" && continue
				# the alias by event= and by its name: the same attr
				run "$PT" encode "$SYSFS/$tree" "$pmu/event=$a/u,$pmu/$a/u"
				assert_success
				[ "${#lines[@]}" = 2 ] &&
					[ "$(attr_of "${lines[0]}")" = "$(attr_of "${lines[1]}")" ] ||
					fail "$tree: $pmu/event=$a/u is not $pmu/$a/u: $output"
				n=$((n + 1))
			done
		done
	done
	# the trees' aliases: every one was tried
	[ "$n" -gt 100 ]
}

@test "a breakpoint with terms counts writes under its name=, len= its length" {
	local b addr n w
	need_breakpoints
	b=$bp_prog addr=$bp_addr
	run "$PSTAT" -x, -e "mem:$addr:w/name=watch,len=8/u,mem:$addr/8:w" "$b" 777
	assert_success
	n=$(awk -F, '$3 == "watch" { print $1 }' <<<"$output")
	w=$(awk -F, -v e="mem:$addr/8:w" '$3 == e { print $1 }' <<<"$output")
	[ -n "$n" ] && [ -n "$w" ] || fail "$output"
	[ "$n" = "<not supported>" ] && skip "breakpoints cannot be counted here"
	# the loop's 777 stores in user space
	[ "$n" -ge 777 ] && [ "$n" -le "$w" ]
}
