#!/usr/bin/env bats
# perf stat's remaining options as a perf user types them: -d, -n,
# --quiet, and the messages of those pstat does not have.

bats_require_minimum_version 1.5.0
load test_helper

# "type config exclusions" of each event pstat --dry-run -j would open
# for ARGS (the exclusion bits set, by perf's names).
pstat_attrs() {
	"$PSTAT" --dry-run -j "$@" 2>&1 |
		jq -r '.events[] | .attr as $a | "\($a.type) \($a.config) " +
			([("exclude_user", "exclude_kernel", "exclude_hv",
			   "exclude_host", "exclude_guest", "exclude_idle") |
			  select($a[.])] | join(","))'
}

# The same of each event `perf stat -vv ARGS true` opens, in order: perf
# leaves out a zero type or config; an event it retries (a fallback on a
# machine that refuses the first attempt) is counted once.
perf_attrs() {
	perf stat -vv "$@" true 2>&1 | awk '
		/^perf_event_attr:/ { in_attr = 1; type = 0; config = "0x0"; ex = ""; next }
		in_attr && $1 == "type" { type = $2 }
		in_attr && $1 == "config" { config = $2 }
		in_attr && $1 ~ /^exclude_(user|kernel|hv|host|guest|idle)$/ && $2 == 1 {
			ex = ex (ex == "" ? "" : ",") $1
		}
		/^sys_perf_event_open:/ && in_attr {
			in_attr = 0
			# a retry (user-only, where the kernel is refused) is
			# the same event: its first attempt is what was asked
			if (type " " config != last) print type " " config " " ex
			last = type " " config
		}'
}

need_perf() {
	command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1 ||
		skip "perf stat is not installed or cannot count here"
}

@test "-d, -dd, -ddd open the events perf stat -vv opens, in its order" {
	need_perf
	local d p q
	for d in -d -dd -ddd; do
		p=$(perf_attrs "$d")
		q=$(pstat_attrs "$d")
		[ -n "$p" ]
		if [ "$p" != "$q" ]; then
			echo "$d: perf (<) and pstat (>) differ:" >&2
			diff <(echo "$p") <(echo "$q") >&2
			return 1
		fi
	done
	# each level adds to the one before
	[ "$(pstat_attrs -d | wc -l)" -lt "$(pstat_attrs -dd | wc -l)" ]
	[ "$(pstat_attrs -dd | wc -l)" -lt "$(pstat_attrs -ddd | wc -l)" ]
}

@test "-d adds the cache events to -e lists too, and -dddd is -ddd" {
	run "$PSTAT" --dry-run -j -d -e task-clock
	assert_success
	jq_assert '[.events[].name] == ["task-clock", "L1-dcache-loads",
		"L1-dcache-load-misses", "LLC-loads", "LLC-load-misses"]' <<<"$output"
	[ "$(pstat_attrs -dddd)" = "$(pstat_attrs -ddd)" ]
}

@test "-d counts: what the machine cannot count is <not supported>, as with perf" {
	need_perf_events
	run "$PSTAT" -d -x, true
	assert_success
	# the defaults and the four -d events, each with a value or a state
	[ "$(grep -c ',L1-dcache-loads,\|,L1-dcache-load-misses,\|,LLC-loads,\|,LLC-load-misses,' <<<"$output")" = 4 ]
	assert_line --regexp '^[0-9.]+,msec,task-clock,'
	while IFS=, read -r v _ ev _; do
		case $ev in
		L1-*|LLC-*) [[ $v =~ ^([0-9]+|<not\ supported>|<not\ counted>)$ ]] ;;
		esac
	done <<<"$output"
}

@test "-n opens no counters: the times only, in every format" {
	need_perf_events
	run "$PSTAT" -n true
	assert_success
	assert_output --partial "Performance counter stats for 'true':"
	assert_output --regexp 'seconds time elapsed'
	refute_output --partial 'task-clock'
	run "$PSTAT" -n -j true
	assert_success
	jq_assert '.counters == [] and .time.elapsed_ns > 0 and .exit.status == 0' <<<"$output"
	# as perf: CSV has no line for the times
	run "$PSTAT" -n -x, true
	assert_success
	assert_output ''
}

@test "-n with -e counts those events only, as perf does" {
	need_perf_events
	run "$PSTAT" -n -d -j -e page-faults true
	assert_success
	jq_assert '[.counters[].event] == ["page-faults"]' <<<"$output"
}

@test "--quiet prints nothing; the status is the command's, and --fail-on's" {
	need_perf_events
	run "$PSTAT" --quiet -e task-clock sh -c 'exit 3'
	assert_failure 3
	assert_output ''
	run "$PSTAT" --quiet -I 50 -e task-clock sleep 0.2
	assert_success
	assert_output ''
	# a counter that never counted (the command ended within -D), with
	# --fail-on: 5, still silent
	run "$PSTAT" --quiet --fail-on=not-counted -D 1000 -e task-clock true
	assert_failure 5
	assert_output ''
}

@test "--quiet still says why pstat failed, and refuses -o" {
	run "$PSTAT" --quiet -e no-such-event true
	assert_failure 125
	assert_line --index 0 "pstat: unknown event 'no-such-event'"
	run "$PSTAT" --quiet -o "$BATS_TEST_TMPDIR/out" true
	assert_failure 125
	assert_line --index 0 "pstat: --quiet prints no report: -o has nothing to write"
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "--dry-run writes to stdout: it runs no command whose stdout to keep" {
	run --separate-stderr "$PSTAT" --dry-run -j -e task-clock
	assert_success
	[ -z "$stderr" ]
	jq_assert '.schema == "pstat-dryrun/1" and .events[0].name == "task-clock"' <<<"$output"
	run --separate-stderr "$PSTAT" --dry-run -e task-clock
	assert_success
	[ -z "$stderr" ]
	assert_line --index 0 --partial 'task-clock: resolver generic'
	# -o FILE still takes it
	run --separate-stderr "$PSTAT" --dry-run -j -o "$BATS_TEST_TMPDIR/d.json" -e task-clock
	assert_success
	assert_output ''
	jq_assert '.events | length == 1' "$BATS_TEST_TMPDIR/d.json"
}

@test "-o - writes the report to stdout, for a pipe into jq" {
	need_perf_events
	local out
	out=$("$PSTAT" -j -o - -e task-clock true 2>/dev/null)
	jq_assert '.counters[0].event == "task-clock" and .exit.status == 0' <<<"$out"
	# the table and CSV too; the messages stay on stderr
	run --separate-stderr "$PSTAT" -x, -o - -e task-clock sh -c 'echo from-the-command'
	assert_success
	assert_line --index 0 'from-the-command'
	assert_line --regexp '^[0-9.]+,msec,task-clock,'
	[ -z "$stderr" ]
	# and by default, stdout is the command's alone
	run --separate-stderr "$PSTAT" -j -e task-clock true
	assert_success
	assert_output ''
	jq_assert '.counters | length == 1' <<<"$stderr"
}

@test "-o - takes no --append, and a full stdout is an error" {
	run "$PSTAT" -o - --append -e task-clock true
	assert_failure 125
	assert_line --index 0 "pstat: --append needs -o FILE or --log-fd FD"
	# the comparison of --baseline goes to stdout too, unless elsewhere
	echo '{}' >"$BATS_TEST_TMPDIR/base.json"
	run "$PSTAT" -j -o - --baseline "$BATS_TEST_TMPDIR/base.json" -e task-clock true
	assert_failure 125
	assert_line --index 0 "pstat: -o - and the comparison would both go to stdout: give --compare-output FILE"
	need_perf_events
	run sh -c '"$1" -x, -o - -e task-clock true >/dev/full' _ "$PSTAT"
	assert_failure 125
	assert_output --partial "pstat: cannot write the results to 'stdout': No space left on device"
}

@test "--pre and --post run around each run, warm-up too, uncounted" {
	need_perf_events
	local log="$BATS_TEST_TMPDIR/log"
	run "$PSTAT" -r 2 --warmup 1 -j -o "$BATS_TEST_TMPDIR/r.json" \
		--pre "echo pre >>$log" --post "echo post >>$log" \
		-e task-clock sh -c "echo run >>$log"
	assert_success
	[ "$(tr '\n' ' ' <"$log")" = "pre run post pre run post pre run post " ]
	jq_assert '.runs == 2' "$BATS_TEST_TMPDIR/r.json"
}

@test "--pre and --post are not counted: exact tracepoint counts" {
	need_tracepoint syscalls/sys_enter_write
	local w
	w=$(prog writer)
	run "$PSTAT" -r 3 -x, --pre 'for i in 1 2 3; do echo x >/dev/null; done' \
		--post 'echo y >/dev/null' -e syscalls:sys_enter_write "$w" 100
	assert_success
	assert_line --regexp '^100,,syscalls:sys_enter_write,'
}

@test "a failing --pre stops pstat with 125; a failing --post is a warning" {
	need_perf_events
	run "$PSTAT" --pre 'exit 4' -e task-clock true
	assert_failure 125
	assert_output "pstat: the --pre command 'exit 4' failed: exit 4"
	run "$PSTAT" --post 'exit 3' -e task-clock sh -c 'exit 2'
	assert_failure 2
	assert_line --index 0 "pstat: warning: the --post command 'exit 3' failed: exit 3"
	assert_line --regexp ' task-clock '
	run "$PSTAT" --pre true -e task-clock
	assert_failure 125
	assert_line --index 0 "pstat: --pre needs a command"
}

@test "SIGTERM to pstat's process group in -r: no run starts after it" {
	need_perf_events
	command -v setsid >/dev/null || skip "setsid is not installed"
	local log="$BATS_TEST_TMPDIR/starts" script="$BATS_TEST_TMPDIR/run.sh"
	local i pid st
	printf '#!/bin/sh\necho start >>"%s"\nsleep 2\n' "$log" >"$script"
	chmod +x "$script"
	# the race is between the command's death and pstat's own signal:
	# tried a few times
	for i in 1 2 3 4 5; do
		rm -f "$log"
		# (pstat itself: the -j wrapper would take the signal too)
		setsid "$ROOT/pstat" -r 5 -j -o "$BATS_TEST_TMPDIR/r.json" \
			-e task-clock "$script" &
		pid=$!
		# the first run has started
		while [ ! -s "$log" ]; do sleep 0.05; done
		[ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ]
		kill -TERM -- "-$pid"
		st=0
		wait "$pid" || st=$?
		[ "$st" = 143 ]
		[ "$(wc -l <"$log")" = 1 ]
		jq_assert '.runs == 1' "$BATS_TEST_TMPDIR/r.json"
	done
}

@test "-p PID COMMAND counts PID while COMMAND runs, not COMMAND" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	local w wpid
	w=$(prog writer)
	# the process attached to: no writes at all
	sleep 30 &
	wpid=$!
	# the command writes 500 times: none of that is counted
	run "$PSTAT" -x, -p "$wpid" -e syscalls:sys_enter_write "$w" 500
	assert_success
	assert_line --regexp '^(0|<not counted>),,syscalls:sys_enter_write,'
	# the status is the command's
	run "$PSTAT" -x, -p "$wpid" -e task-clock sh -c 'exit 3'
	assert_failure 3
	kill "$wpid"
	# a writer attached to (a write every 10 ms) is counted for as long
	# as the command (0.5 s) runs
	"$w" 100000 1 0 10 &
	wpid=$!
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/p.json" -p "$wpid" \
		-e syscalls:sys_enter_write sleep 0.5
	kill "$wpid"
	assert_success
	jq_assert --arg p "$wpid" '.target.kind == "pid" and .target.pids == [($p | tonumber)]
		and .command == ["sleep", "0.5"] and .counters[0].value >= 10
		and .counters[0].value <= 51' "$BATS_TEST_TMPDIR/p.json"
}

# run_unmounted SCRIPT: sh -c SCRIPT in a private mount namespace where
# tracefs is not mounted (as on a machine that boots without it), with
# $P a copy of pstat that user nobody may run. Root only.
run_unmounted() {
	need_root
	command -v unshare >/dev/null || skip "unshare is not installed"
	unshare -m --propagation private true 2>/dev/null ||
		skip "cannot make a mount namespace here"
	need_nobody
	run unshare -m --propagation private env P="$BATS_TEST_TMPDIR/pstat" sh -c '
		umount /sys/kernel/tracing 2>/dev/null
		umount /sys/kernel/debug/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null
		if [ -e /sys/kernel/tracing/events ] ||
		    [ -e /sys/kernel/debug/tracing/events ]; then
			echo "SKIP: tracefs stays mounted"; exit 0
		fi
		nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
		'"$1"
	[[ $output != "SKIP: "* ]] || skip "${output#SKIP: }"
}

@test "no tracefs: a user is told it is not mounted, not 'unknown event'" {
	run_unmounted 'nobody "$P" -e syscalls:sys_enter_write true; echo "status $?"
		nobody "$P" list --names "sched:*"; echo "status $?"'
	assert_success
	assert_line --index 0 "pstat: unknown event 'syscalls:sys_enter_write': tracefs is not mounted, so tracepoints cannot be named"
	assert_line --index 1 "pstat: hint: mount it (as root): mount -t tracefs nodev /sys/kernel/tracing"
	assert_line --index 2 "status 125"
	assert_line --index 3 "pstat: warning: tracefs is not mounted: no tracepoints are listed"
	assert_line --index 5 "status 0"
}

@test "no tracefs: root mounts it, as perf does, says so once, and counts" {
	need_perf_events
	run_unmounted '"$P" -x, -o /dev/stdout -e syscalls:sys_enter_write,sched:sched_switch true; echo "status $?"
		echo "mounts $(mount | grep -c "on /sys/kernel/tracing type tracefs")"'
	assert_success
	assert_line --index 0 "pstat: warning: tracefs was not mounted: mounted it on /sys/kernel/tracing, as perf does"
	assert_line --regexp '^[0-9]+,,syscalls:sys_enter_write,'
	assert_line --regexp '^[0-9]+,,sched:sched_switch,'
	assert_line "status 0"
	assert_line "mounts 1"
	[ "$(grep -c 'mounted it' <<<"$output")" = 1 ]
}

@test "no tracefs: pstat list as root mounts it too, for completion" {
	run_unmounted '"$P" list --names "sched:sched_switch"; echo "status $?"'
	assert_success
	assert_line --index 0 --partial "mounted it on /sys/kernel/tracing"
	assert_line --index 1 "sched:sched_switch"
	assert_line --index 2 "status 0"
}

@test "a tracefs this user may not read: 'not readable' and perf's hint" {
	need_nobody
	[ -e /sys/kernel/tracing/events ] || skip "tracefs is not mounted here"
	as_nobody test -r /sys/kernel/tracing/events/syscalls && skip "tracefs is readable by all here"
	run as_nobody -e syscalls:sys_enter_write true
	assert_failure 125
	assert_line --index 0 "pstat: tracepoint 'syscalls:sys_enter_write' is not readable: tracefs refuses this user (Permission denied)"
	assert_line --index 1 --partial "pstat: hint: as root: mount -o remount,mode=755 /sys/kernel/tracing"
}

@test "perf options pstat lacks say so, and what to use instead" {
	local opt
	for opt in --bpf-counters -T --transaction --smi-cost --iostat \
	    --iostat=list --all-user -g --cputype=core --hybrid-merge \
	    --filter=x --metric-no-merge --percore-show-thread; do
		run "$PSTAT" $opt true
		assert_failure 125
		assert_line --index 0 --regexp "^pstat: (-T \(--transaction\)|-g \(--group\)|--[a-z-]+) is a perf stat option pstat does not support: .+"
		refute_output --partial 'unknown option'
	done
	# in a cluster of short options too
	run "$PSTAT" -aT true
	assert_failure 125
	assert_line --index 0 --partial "-T (--transaction) is a perf stat option pstat does not support"
	# an option perf does not have either stays unknown
	run "$PSTAT" --no-such-option true
	assert_failure 125
	assert_line --index 0 "pstat: unknown option '--no-such-option'"
}

@test "pstat record and report: not supported, and how to run such a command" {
	local sub
	for sub in record report; do
		run "$PSTAT" "$sub" -e task-clock true
		assert_failure 125
		assert_line --index 0 "pstat: '$sub' is a perf stat subcommand pstat does not support: keep -j documents and read them with jq or 'pstat compare'"
		assert_line --index 1 "pstat: hint: to run a command named $sub: pstat [options] -- $sub"
	done
}

@test "-I 0, -r 0, -D -2: the message gives the accepted range" {
	run "$PSTAT" -I 0 true
	assert_failure 125
	assert_line --index 0 "pstat: invalid value '0' for -I: out of range (1 to 4294967295)"
	run "$PSTAT" -r 0 true
	assert_failure 125
	assert_line --index 0 "pstat: invalid value '0' for -r: out of range (1 to 1000000)"
	run "$PSTAT" -r -3 true
	assert_failure 125
	assert_line --index 0 "pstat: invalid value '-3' for -r: out of range (1 to 1000000)"
	run "$PSTAT" -D -2 true
	assert_failure 125
	assert_line --index 0 "pstat: invalid value '-2' for -D: out of range (-1, or 0 to 4294967295 ms)"
}

@test "--summary is accepted; --no-csv-summary drops the summary column" {
	need_perf_events
	run "$PSTAT" --summary -x, -I 50 -e task-clock sleep 0.12
	assert_success
	assert_line --regexp '^ +summary,[0-9.]+,msec,task-clock,'
	run "$PSTAT" --summary --no-csv-summary -x, -I 50 -e task-clock sleep 0.12
	assert_success
	refute_output --partial summary
	# the summary's line: the interval lines' fields less the time
	local last
	last=$(grep -v '^#' <<<"$output" | tail -n 1)
	[[ $last =~ ^[0-9.]+,msec,task-clock, ]]
	[ "$(awk -F, '{ print NF }' <<<"$last")" = \
		$(($(grep -v '^#' <<<"$output" | head -n 1 | awk -F, '{ print NF }') - 1)) ]
}

@test "-S syncs before each run" {
	need_perf_events
	command -v strace >/dev/null || skip "strace is not installed"
	# (LeakSanitizer cannot run under ptrace: make check SANITIZE=...)
	export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
	run strace -f -e trace=sync -o "$BATS_TEST_TMPDIR/tr" "$ROOT/pstat" -S -r 3 -e task-clock true
	assert_success
	[ "$(grep -c 'sync()' "$BATS_TEST_TMPDIR/tr")" = 3 ]
	run strace -f -e trace=sync -o "$BATS_TEST_TMPDIR/tr" "$ROOT/pstat" -r 3 -e task-clock true
	assert_success
	[ "$(grep -c 'sync()' "$BATS_TEST_TMPDIR/tr")" = 0 ]
}

@test "--no-merge: one row per PMU instance, named for it, instead of the sum" {
	need_perf_events
	export PSTAT_SYSFS_ROOT="$FIX/twin-pmu"
	local merged a b pf
	run "$PSTAT" -x, --no-merge -e swtwin/faults/,page-faults true
	assert_success
	a=$(awk -F, '$3 == "swtwin_0/faults/" { print $1 }' <<<"$output")
	b=$(awk -F, '$3 == "swtwin_1/faults/" { print $1 }' <<<"$output")
	pf=$(awk -F, '$3 == "page-faults" { print $1 }' <<<"$output")
	# each instance counted the run's page faults, as page-faults did
	[ -n "$a" ] && [ "$a" -gt 0 ] && [ "$a" = "$b" ] && [ "$a" = "$pf" ]
	refute_output --partial 'swtwin/faults/'
	# without it: one row, their sum
	run "$PSTAT" -x, -e swtwin/faults/,page-faults true
	assert_success
	merged=$(awk -F, '$3 == "swtwin/faults/" { print $1 }' <<<"$output")
	pf=$(awk -F, '$3 == "page-faults" { print $1 }' <<<"$output")
	[ "$merged" = $((2 * pf)) ]
	# JSON and intervals alike
	run "$PSTAT" -j --no-merge -e swtwin/faults/ true
	assert_success
	jq_assert '[.counters[] | [.event, .pmu]] ==
		[["swtwin_0/faults/", "swtwin_0"], ["swtwin_1/faults/", "swtwin_1"]]' <<<"$output"
	run "$PSTAT" -x, --no-merge -I 50 --summary -e swtwin/faults/ sleep 0.12
	assert_success
	assert_line --regexp '^ +summary,[0-9]+,,swtwin_1/faults/,'
	[ "$(grep -c ',swtwin_0/faults/,' <<<"$output")" = "$(grep -c ',swtwin_1/faults/,' <<<"$output")" ]
}

@test "--no-merge names instances in dry runs too; plain events are unchanged" {
	export PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake"
	run "$PSTAT" --dry-run -j --no-merge -e 'uncore_imc/cas_count_read/,cs,msr/tsc/'
	assert_success
	jq_assert '[.events[] | .name] == ["uncore_imc_0/cas_count_read/",
		"uncore_imc_1/cas_count_read/", "cs", "msr/tsc/"]' <<<"$output"
}

@test "digit grouping follows the locale's rule: en_IN groups 12,34,567" {
	run_table group group.test
}

@test "-B in en_IN: the table groups as the locale does, as perf does" {
	need_tracepoint syscalls/sys_enter_write
	local w
	need_en_in
	w=$(prog writer)
	LC_ALL=en_IN.UTF-8 run "$PSTAT" -B -e syscalls:sys_enter_write "$w" 1234567
	assert_success
	assert_line --regexp '^ +12,34,567 +syscalls:sys_enter_write'
	# CSV and JSON never group
	LC_ALL=en_IN.UTF-8 run "$PSTAT" -x, -e syscalls:sys_enter_write "$w" 1234567
	assert_success
	assert_line --regexp '^1234567,,syscalls:sys_enter_write,'
}

@test "libpfm4 without a table for this CPU: doctor and list say so, and what works" {
	# LIBPFM_FORCE_PMU=perf: libpfm4 detects its generic PMU alone, as
	# on a CPU it has no table for (this one may be such a CPU anyway)
	LIBPFM_FORCE_PMU=perf run "$PSTAT" doctor
	assert_line --regexp '^warn +libpfm4: ([0-9.]+ )?has no event table for this CPU \(.+\): vendor names \(INST_RETIRED:ANY_P, pmu::EVENT\) are unknown here; sysfs names \(cpu/event=0xc0/\) and raw codes \(r00c0\) still work$'
	assert_line --regexp '^ +fix: a newer libpfm4 may know this CPU; LIBPFM_FORCE_PMU=NAME'
	LIBPFM_FORCE_PMU=perf run "$PSTAT" list
	assert_success
	assert_line --regexp '^libpfm4 has no event table for this CPU \(.+\): its vendor names'
	# a CPU libpfm4 knows (forced here): no such line
	pfm_force_core_pmu || skip "libpfm4 has no core PMU table to force here"
	run "$PSTAT" doctor
	refute_output --partial 'no event table'
	run "$PSTAT" list
	refute_output --partial 'no event table'
}

@test "plain pstat list ends with how many tracepoints --tracepoints adds" {
	need_tracepoint
	local n
	run "$PSTAT" list
	assert_success
	n=$("$PSTAT" list --tracepoints | grep -c '\[Tracepoint event\]')
	[ "$n" -gt 0 ]
	[ "${lines[-1]}" = "$n tracepoints are not listed: 'pstat list --tracepoints' lists them, 'pstat list SUBSYSTEM:*' those of one subsystem." ]
	# not after a listing of tracepoints, nor in --names or -j
	run "$PSTAT" list --tracepoints
	refute_output --partial 'are not listed'
	run "$PSTAT" list --names
	refute_output --partial 'are not listed'
	# a tracefs tree of the tests: its event directories, counted
	# without reading an id (one without, noid:broken, is counted too)
	PSTAT_TRACEFS_ROOT="$FIX/tracefs" run "$PSTAT" list
	n=$(find "$FIX/tracefs/events" -mindepth 2 -maxdepth 2 -type d | wc -l)
	[ "${lines[-1]}" = "$n tracepoints are not listed: 'pstat list --tracepoints' lists them, 'pstat list SUBSYSTEM:*' those of one subsystem." ]
}

@test "doctor: paranoid 3 on a kernel that counts anyway follows its own probe" {
	need_perf_events
	need_nobody
	command -v unshare >/dev/null || skip "unshare is not installed"
	[ "$(paranoid)" -le 2 ] 2>/dev/null || skip "perf_event_paranoid is $(paranoid) here"
	# what a user sees of a 3 that this (upstream) kernel treats as 2:
	# the file says 3 in a private mount namespace, the kernel counts
	echo 3 >"$BATS_TEST_TMPDIR/paranoid"
	chmod 644 "$BATS_TEST_TMPDIR/paranoid"
	run unshare -m --propagation private sh -c '
		mount --bind "$1/paranoid" /proc/sys/kernel/perf_event_paranoid &&
		setpriv --reuid=65534 --regid=65534 --clear-groups "$1/pstat" doctor' \
		_ "$BATS_TEST_TMPDIR"
	assert_success
	assert_line --regexp '^ok +perf_event_paranoid = 3: this kernel counts as with 2 '
	assert_line --regexp '^ok +task-clock: counted '
	refute_line --regexp '^fail '
}
