#!/usr/bin/env bats
# Live tier: real counters on software events and tracepoints.

bats_require_minimum_version 1.5.0
load test_helper


# The table of "$@" from pstat and from perf stat: the same lines once
# numbers are blanked, and every line of the same length with its '#'
# at the same offset (padding included); pstat's hint lines left out.
same_table_as_perf() {
	"$PSTAT" "$@" 2>"$BATS_TEST_TMPDIR/ours" >/dev/null
	perf stat "$@" 2>"$BATS_TEST_TMPDIR/perf" >/dev/null ||
		skip "perf stat cannot count here"
	norm() {
		grep -v '^pstat: hint:' "$1" |
			sed -E 's/[0-9]([0-9,.]*[0-9])?/N/g; s/[KMG]\/sec/\/sec/; s/ +/ /g'
	}
	shape() {
		grep -v '^pstat: hint:' "$1" |
			awk '{ print length($0), index($0, "#") }'
	}
	diff <(norm "$BATS_TEST_TMPDIR/ours") <(norm "$BATS_TEST_TMPDIR/perf")
	diff <(shape "$BATS_TEST_TMPDIR/ours") <(shape "$BATS_TEST_TMPDIR/perf")
}

@test "the table has perf's layout for software events" {
	need_perf_events
	command -v perf >/dev/null || skip "perf is not installed"
	# where the kernel may not be counted, perf retries user-only and
	# renames the row task-clock:u, pstat keeps the name and adds a
	# note: ask both for :u, like with like
	u=
	can_count_kernel || u=:u
	LC_ALL=C same_table_as_perf -e task-clock$u,context-switches$u,cpu-migrations$u,page-faults$u true
	# rows without a metric comment, and <not supported> ones
	LC_ALL=C same_table_as_perf -e cs$u,page-faults$u,cycles$u true
	LC_ALL=C same_table_as_perf -e cpu-clock$u,cs$u,faults$u true
	# a locale that groups digits, with -B (perf's default): 1,234.56
	comma_locale || skip "no de_DE locale (localedef) here"
	LC_ALL=$loc same_table_as_perf -B -e task-clock$u,page-faults$u \
		sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
}

@test "a command killed by a signal is said so before the table, as perf does" {
	need_perf_events
	run --separate-stderr "$PSTAT" -e task-clock -- sh -c 'kill -SEGV $$'
	assert_failure 139
	[ "$(head -1 <<<"$stderr")" = "sh: Segmentation fault" ] || fail "$stderr"
	grep -q "Performance counter stats for 'sh -c kill -SEGV \$\$'" <<<"$stderr"
	# not into JSON or CSV on stderr, whose readers expect them alone
	run --separate-stderr "$PSTAT" -x, -e task-clock -- sh -c 'kill -SEGV $$'
	assert_failure 139
	! grep -q Segmentation <<<"$stderr" || fail "$stderr"
}

@test "an open failure other than 'not supported' is fatal: 125, named" {
	need_kernel_counting "the EINVAL of the user-only retry is <not supported>, as perf"
	# a tracepoint id the kernel does not know: EINVAL from the open
	mkdir -p "$BATS_TEST_TMPDIR/t/events/fake/ev"
	echo 999999 >"$BATS_TEST_TMPDIR/t/events/fake/ev/id"
	PSTAT_TRACEFS_ROOT="$BATS_TEST_TMPDIR/t" run "$PSTAT" -e task-clock,fake:ev -- touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	assert_line --index 0 "pstat: cannot open event 'fake:ev': Invalid argument"
	# the command never ran
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "not supported events show as such and the run goes on" {
	need_perf_events
	if [ -e /sys/bus/event_source/devices/cpu ]; then
		skip "this machine has a core PMU"
	fi
	run "$PSTAT" -e cycles,task-clock,instructions true
	assert_success
	assert_output --regexp '<not supported> +cycles'
	assert_output --regexp '<not supported> +instructions'
	assert_output --regexp 'msec task-clock'
	# one hint line says why
	run grep -c "no core PMU" <<<"$output"
	assert_output 1
}

@test "page-faults agree with perf stat on the same program" {
	need_perf_events
	command -v perf >/dev/null || skip "perf is not installed"
	t=$(prog toucher)
	# perf names its user-only retry page-faults:u: ask both for it
	u=
	can_count_kernel || u=:u
	ours=$("$PSTAT" -e page-faults$u "$t" 4000 2>&1 | value_of page-faults$u)
	theirs=$(perf stat -e page-faults$u "$t" 4000 2>&1 | value_of page-faults$u)
	[ -n "$theirs" ] || skip "perf stat cannot count here"
	# both see the 4000 touched pages plus the loader's own faults
	[ "$ours" -ge 4000 ]
	awk -v a="$ours" -v b="$theirs" 'BEGIN { d = a - b; if (d < 0) d = -d;
		exit !(d <= b * 0.05 + 10) }'
}

@test "task-clock agrees with perf stat on a spinning program" {
	need_perf_events
	command -v perf >/dev/null || skip "perf is not installed"
	s=$(prog spinner)
	u=
	can_count_kernel || u=:u
	ours=$("$PSTAT" -e task-clock$u "$s" 1 200 2>&1 | value_of task-clock$u)
	theirs=$(perf stat -e task-clock$u "$s" 1 200 2>&1 | value_of task-clock$u)
	[ -n "$theirs" ] || skip "perf stat cannot count here"
	# 200 ms of spinning each; allow for a noisy machine
	awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !(a > 150 && b > 150 &&
		a / b > 0.75 && a / b < 1.33) }'
}

@test "a plain count does not load libm; the statistics of compare do" {
	need_perf_events
	command -v strace >/dev/null || skip "strace is not installed"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	# a sanitizer's runtime links libm itself
	! ldd "$ROOT/pstat" | grep -q 'libasan\|libubsan' ||
		skip "a sanitized build"
	# clang, or gcc without -O2, calls floor and ceil rather than
	# inlining them, and links libm (the Makefile allows it)
	local flags cc
	flags=$(cat "$ROOT/.build-flags" 2>/dev/null) || flags=
	cc=${flags%% *}
	if [[ " $flags " != *" -O2 "* ]] ||
		"${cc:-cc}" --version 2>/dev/null | grep -qi clang; then
		skip "not a gcc -O2 build, which may link libm"
	fi
	local trace="$BATS_TEST_TMPDIR/trace" d="$ROOT/tests/data/compare"
	strace -f -e trace=openat -o "$trace" "$ROOT/pstat" -e task-clock \
		-o /dev/null true
	run grep 'libm\.so' "$trace"
	assert_failure
	# loaded on demand (70-compare.bats checks the values against scipy)
	strace -f -e trace=openat -o "$trace" "$ROOT/pstat" compare \
		"$d/ttest-base.json" "$d/ttest-new.json"
	run grep -c 'libm\.so.*= [0-9]' "$trace"
	assert_output 1
}

@test "children are counted with inherit and not with -i" {
	need_perf_events
	s=$(prog spinner)
	with=$("$PSTAT" -e task-clock "$s" 2 100 2>&1 | value_of task-clock)
	without=$("$PSTAT" -i -e task-clock "$s" 2 100 2>&1 | value_of task-clock)
	# two children spin 100 ms each; the parent only waits
	[[ $with =~ ^[0-9.]+$ ]]
	[[ $without =~ ^[0-9.]+$ ]]
	awk -v w="$with" -v o="$without" 'BEGIN { exit !(w > 150 && o < 50) }'
}

@test "a tracepoint counts every write exactly" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	run "$PSTAT" -e syscalls:sys_enter_write "$w" 1000
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 1000 ]
}

@test "tracepoint counts are exact across threads and forked children" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	# 500 writes x 4 threads x (2 children + parent)
	run "$PSTAT" -e syscalls:sys_enter_write "$w" 500 4 2
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 6000 ]
	# without inherit only the first thread of the parent... and its
	# threads created after exec are children of the counter too, so
	# only check that fewer were counted
	n=$("$PSTAT" -i -e syscalls:sys_enter_write "$w" 500 4 2 2>&1 |
		value_of syscalls:sys_enter_write)
	[ "$n" -lt 6000 ]
}

@test "group modifiers :D and :e count, as perf (on the leader only)" {
	need_perf_events
	for m in D e; do
		run "$PSTAT" -e "{cs,faults}:$m" true
		assert_success
		[ "$(value_of faults <<<"$output")" -gt 0 ] || fail "$m: $output"
	done
}

@test "a group of 101 software events counts, as perf's does" {
	need_perf_events
	run "$PSTAT" -e "{$(printf 'cs,%.0s' $(seq 100))faults}" true
	assert_success
	[ "$(grep -c ' cs ' <<<"$output")" = 100 ]
	[ "$(value_of faults <<<"$output")" -gt 0 ]
}

@test "a group of software events is read as one" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	run "$PSTAT" -e '{task-clock,syscalls:sys_enter_write}' "$w" 300
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 300 ]
	assert_output --regexp 'msec task-clock'
}

@test "msr/tsc/ counts (the PMU refuses exclusion bits; pstat retries)" {
	need_msr
	run "$PSTAT" -e msr/tsc/ sleep 0.05
	assert_success
	v=$(value_of msr/tsc/ <<<"$output")
	[ "${v%%.*}" -gt 1000000 ]
}

@test "a breakpoint counts writes to a variable" {
	need_breakpoints
	b=$bp_prog addr=$bp_addr
	run "$PSTAT" -e "mem:$addr:w" "$b" 777
	assert_success
	n=$(value_of "mem:$addr:w" <<<"$output")
	# the loop's 777 stores, plus the few the kernel makes to the page
	# at exec, which perf counts too
	[ "$n" -ge 777 ]
	[ "$n" -le 800 ]
	if command -v perf >/dev/null; then
		p=$(perf stat -e "mem:$addr:w" "$b" 777 2>&1 | value_of "mem:$addr:w")
		[ -z "$p" ] || [ "$n" = "$p" ]
	fi
}

@test "a multiplexed or not-counted value is never printed as counted" {
	need_perf_events
	# an event enabled only after the command ends is <not counted>
	run "$PSTAT" -D 1000 -e task-clock true
	assert_success
	assert_output --regexp '<not counted> +(msec +)?task-clock'
}

@test "kernel counting refused: retried user-only and named :u, as perf names it" {
	need_nobody
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 ] ||
		skip "perf_event_paranoid <= 1 lets users count the kernel"
	run as_nobody -e task-clock,cs,cs:p true
	assert_success
	assert_output --regexp 'msec task-clock:u '
	assert_output --regexp ' cs:u '
	assert_output --regexp ' cs:pu '
	# the same names as perf's own, where perf can run as nobody
	if command -v perf >/dev/null &&
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			perf stat -x, -e task-clock true >/dev/null 2>&1; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			perf stat -x, -e task-clock,cs,cs:p true 2>"$BATS_TEST_TMPDIR/perf"
		run as_nobody -x, -e task-clock,cs,cs:p true
		assert_success
		[ "$(cut -d, -f3 <<<"$output")" = "$(cut -d, -f3 "$BATS_TEST_TMPDIR/perf")" ]
		[ "$(cut -d, -f3 <<<"$output" | head -1)" = task-clock:u ]
	fi
	# and -j names it so too
	run as_nobody -j -e task-clock true
	assert_success
	jq_assert '.counters[0].event == "task-clock:u"' <<<"$output"
	# :k asked for the kernel alone: user-only would count the opposite
	run as_nobody -e task-clock:k true
	assert_failure 125
	assert_output --partial "pstat: cannot open event 'task-clock:k': Permission denied"
	# msr cannot count user-only: not supported, and the run goes on
	[ -e /sys/bus/event_source/devices/msr ] || return 0
	run as_nobody -e task-clock,msr/tsc/ true
	assert_success
	# (named msr/tsc/u, as perf names it)
	assert_output --regexp '<not supported> +msr/tsc/u '
}

@test "a PMU that cannot exclude user or kernel: <not supported>, as perf" {
	need_msr
	run "$PSTAT" -e msr/tsc/u,msr/tsc/ true
	assert_success
	assert_output --regexp '<not supported> +msr/tsc/u '
	v=$(value_of msr/tsc/ <<<"$output")
	[ "${v%%.*}" -gt 0 ]
}

@test "a tracepoint glob expands to every match, one row each" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_writev
	w=$(prog writer)
	run "$PSTAT" -e 'syscalls:sys_enter_write*' "$w" 25
	assert_success
	[ "$(value_of 'syscalls:sys_enter_write' <<<"$output")" = 25 ]
	[ "$(value_of 'syscalls:sys_enter_writev' <<<"$output")" = 0 ]
	# as many rows as tracefs has matches
	n=$(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_write* | wc -l)
	[ "$(grep -c 'syscalls:sys_enter_write' <<<"$output")" = "$n" ]
	run "$PSTAT" -e 'syscalls:no_such_*' true
	assert_failure 125
	assert_output "pstat: no tracepoint matches 'syscalls:no_such_*'"
}

# An event of a PMU with a cpumask (uncore-style), made of the software
# PMU by tests/fixtures/percpu-pmu: counted on CPU 0, system-wide.
need_cpumask_pmu() {
	need_perf_events
	"$PSTAT" -C 0 -e cpu-clock --timeout 10 >/dev/null 2>&1 ||
		skip "system-wide counting is refused here"
	export PSTAT_SYSFS_ROOT="$FIX/percpu-pmu"
}

@test "a PMU with a cpumask counts on its CPUs, not on the command" {
	need_cpumask_pmu
	run "$PSTAT" -e swcpu/cpu-clock/,cpu-clock sleep 0.3
	assert_success
	# CPU 0's clock runs for the whole 300 ms; sleep itself barely runs
	awk -v a="$(value_of swcpu/cpu-clock/ <<<"$output")" \
	    -v b="$(value_of cpu-clock <<<"$output")" \
	    'BEGIN { exit !(a >= 280 && a < 1000 && b < 100) }'
	run "$PSTAT" --dry-run -e swcpu/cpu-clock/ true
	assert_output --partial "cpus 0 (the PMU's, system-wide)"
}

@test "a PMU with a cpumask: each of -r 3 runs counts afresh" {
	need_cpumask_pmu
	run --separate-stderr "$PSTAT" -j -r 3 -e swcpu/cpu-clock/ sleep 0.1
	assert_success
	run jq -r '.counters[0].samples | map(select(. >= 95 and . < 400)) | length' <<<"$stderr"
	assert_output 3
}

@test "a PMU with a cpumask with -p, -A and -C" {
	need_cpumask_pmu
	sleep 5 &
	p=$!
	run "$PSTAT" -p "$p" --per-thread --timeout 200 -e swcpu/cpu-clock/,cpu-clock
	kill "$p"
	assert_success
	assert_output --regexp 'system-wide +[0-9.]+ msec swcpu/cpu-clock/'
	assert_output --regexp "sleep-$p +.* msec cpu-clock"
	[ -e /sys/devices/system/cpu/cpu1 ] || skip "needs a second CPU"
	run "$PSTAT" -a -A -e swcpu/cpu-clock/,cpu-clock sleep 0.1
	assert_success
	# one row on CPU 0 for the PMU's event, one per CPU for the other
	[ "$(grep -c 'swcpu/cpu-clock/' <<<"$output")" = 1 ]
	assert_output --regexp 'CPU0 +[0-9.]+ msec swcpu/cpu-clock/'
	[ "$(grep -c ' cpu-clock ' <<<"$output")" = 2 ]
	# none of its CPUs among those asked for
	run "$PSTAT" -C 1 -e swcpu/cpu-clock/,cpu-clock sleep 0.1
	assert_success
	assert_output --regexp '<not supported> +msec swcpu/cpu-clock/'
}

@test "a PMU with a cpumask cannot share a group with a per-task event" {
	export PSTAT_SYSFS_ROOT="$FIX/percpu-pmu"
	run "$PSTAT" -e '{swcpu/cpu-clock/,cpu-clock}' true
	assert_failure 125
	assert_output --partial "cannot group 'swcpu/cpu-clock/' with 'cpu-clock': PMU 'swcpu' counts on its own CPUs"
}
