#!/usr/bin/env bats
# The bad-input catalogue: every way of holding pstat wrong ends the
# documented way. Each case checks the exit status, exactly one
# "pstat: ..." line naming the culprit (plus at most one "pstat: hint:"),
# no core dump, nothing on stdout, and, run again with -o FILE and with
# -j, no results file left behind and no JSON document on a failure.

bats_require_minimum_version 1.5.0

load test_helper
load json_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ulimit -c 0
	SKY="$SYSFS/intel-skylake"
	BAD="$FIX/sysfs-bad"
}

teardown() {
	[ -n "$IMMUTABLE" ] && chattr -i "$IMMUTABLE" 2>/dev/null
	[ -n "$RO_MOUNT" ] && umount "$RO_MOUNT" 2>/dev/null
	return 0
}

# check_failure STATUS CULPRIT ERRFILE OUTFILE: the checks on one run
# whose exit status is in $rc.
check_failure() {
	local want=$1 culprit=$2 err=$3 out=$4 n

	if [ "$rc" -gt 128 ] && [ "$rc" -lt 160 ] && [ "$want" != "$rc" ]; then
		fail "pstat died of signal $((rc - 128)): $(cat "$err")"
	fi
	[ "$rc" = "$want" ] ||
		fail "exit status $rc, expected $want; stderr: $(head -c 2000 "$err")"
	[ ! -s "$out" ] || fail "stdout is not empty: $(head -c 500 "$out")"
	n=$(wc -l <"$err")
	[ "$n" -ge 1 ] && [ "$n" -le 2 ] ||
		fail "$n lines on stderr, expected 1 (+ a hint): $(head -c 2000 "$err")"
	head -1 "$err" | grep -q '^pstat: ' &&
		! head -1 "$err" | grep -q '^pstat: hint: ' ||
		fail "first line is not a pstat error: $(head -1 "$err")"
	if [ "$n" = 2 ]; then
		sed -n 2p "$err" | grep -q '^pstat: hint: ' ||
			fail "second line is not a hint: $(sed -n 2p "$err")"
	fi
	head -1 "$err" | grep -qF -- "$culprit" ||
		fail "the error does not name '$culprit': $(head -1 "$err")"
	[ -z "$(ls core* 2>/dev/null)" ] || fail "a core file was left"
}

# fails1 STATUS CULPRIT ARGS...: pstat ARGS once.
fails1() {
	local want=$1 culprit=$2

	shift 2
	rc=0
	"$PSTAT" "$@" >stdout 2>stderr || rc=$?
	check_failure "$want" "$culprit" stderr stdout
}

# fails_cmp STATUS CULPRIT ARGS...: pstat compare ARGS, then with a JSON
# comparison into -o FILE, which must not be left behind.
fails_cmp() {
	local want=$1 culprit=$2

	shift 2
	fails1 "$want" "$culprit" compare "$@"
	for fmt in json markdown; do
		rc=0
		"$PSTAT" compare --format "$fmt" -o cmp.out "$@" >stdout 2>stderr ||
			rc=$?
		check_failure "$want" "$culprit" stderr stdout
		[ ! -e cmp.out ] || fail "compare -o was left behind: $(head -c 300 cmp.out)"
	done
}

# fails STATUS CULPRIT ARGS...: pstat ARGS, then with -o FILE (which must
# not be left behind, nor its temporary), then with -j and with -j -o
# FILE (no document: the error line alone).
fails() {
	local want=$1 culprit=$2 f

	fails1 "$@"
	shift 2
	for f in res.txt res.json; do
		rc=0
		if [ "$f" = res.json ]; then
			"$PSTAT" -j -o "$f" "$@" >stdout 2>stderr || rc=$?
		else
			"$PSTAT" -o "$f" "$@" >stdout 2>stderr || rc=$?
		fi
		check_failure "$want" "$culprit" stderr stdout
		[ ! -e "$f" ] || fail "-o $f was left behind: $(head -c 300 "$f")"
		[ -z "$(ls -A | grep "^\.$f\.")" ] ||
			fail "a temporary file was left: $(ls -A)"
	done
	rc=0
	"$PSTAT" -j "$@" >stdout 2>stderr || rc=$?
	check_failure "$want" "$culprit" stderr stdout
}

# --- event lists -----------------------------------------------------

@test "bad input: unknown event" {
	fails 125 "unknown event 'no-such-event'" -e no-such-event true
}

@test "bad input: misspelled event gets a suggestion" {
	fails 125 "unknown event 'task-clok' (did you mean 'task-clock'?)" \
		-e task-clok true
}

@test "bad input: unknown event among good ones" {
	fails 125 "'cycels'" -e task-clock,cycels,page-faults true
}

@test "bad input: unknown PMU" {
	fails 125 "unknown PMU 'nopmu'" -e nopmu/event=1/ true
}

@test "bad input: misspelled PMU gets a suggestion" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 \
		"unknown PMU 'mrs' in 'mrs/tsc/' (did you mean 'msr'?)" \
		-e mrs/tsc/ true
	# a numbered PMU's shared name, which takes every instance
	PSTAT_SYSFS_ROOT="$SKY" fails1 125 "(did you mean 'uncore_imc'?)" \
		-e uncore_imx/event=1/ true
}

@test "bad input: misspelled PMU alias or term gets a suggestion" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 \
		"unknown term 'tcs' for PMU 'msr' (did you mean 'tsc'?)" \
		-e msr/tcs/ true
	PSTAT_SYSFS_ROOT="$SKY" fails1 125 \
		"unknown term 'umsk' for PMU 'cpu' (did you mean 'umask'?)" \
		-e cpu/event=0x3c,umsk=1/ true
}

@test "bad input: misspelled tracepoint gets a suggestion (fixture tracefs)" {
	PSTAT_TRACEFS_ROOT="$FIX/tracefs" fails 125 \
		"unknown event 'sched:sched_swich' (did you mean 'sched:sched_switch'?)" \
		-e sched:sched_swich true
	PSTAT_TRACEFS_ROOT="$FIX/tracefs" fails1 125 \
		"unknown event 'shced:sched_wakeup' (did you mean 'sched:sched_wakeup'?)" \
		-e shced:sched_wakeup true
	# nothing close: no suggestion
	PSTAT_TRACEFS_ROOT="$FIX/tracefs" fails1 125 \
		"unknown event 'nosuchsys:nosuchevent'" -e nosuchsys:nosuchevent true
	! grep -q 'did you mean' stderr
}

@test "bad input: misspelled tracepoint gets a suggestion (real tracefs)" {
	need_tracepoint sched/sched_switch
	fails 125 \
		"unknown event 'sched:sched_swich' (did you mean 'sched:sched_switch'?)" \
		-e sched:sched_swich true
}

@test "bad input: generic event with a bad modifier" {
	fails 125 "invalid modifier 'x' in 'cycles:x'" -e cycles:x true
	grep -q 'valid modifiers: ukhGHIDpPSWe' stderr
	! grep -q libpfm4 stderr
	fails1 125 "invalid modifier 'q' in 'task-clock:uq'" -e task-clock:uq true
}

@test "bad input: group '{a' is not closed" {
	fails 125 "'{a'" -e '{a' true
	grep -q "missing '}'" stderr
}

@test "bad input: group 'a}' closes nothing" {
	fails 125 "'a}'" -e 'a}' true
	grep -q "unmatched '}'" stderr
}

@test "bad input: empty group '{}'" {
	fails 125 "'{}'" -e '{}' true
}

@test "bad input: nested group '{{a}}'" {
	fails 125 "'{{a}}'" -e '{{a}}' true
	grep -q "nested '{'" stderr
}

@test "bad input: event list ','" {
	fails 125 "','" -e , true
}

@test "bad input: empty event in 'a,,b'" {
	fails 125 "'a,,b'" -e a,,b true
	grep -q 'offset 2' stderr
}

@test "bad input: trailing comma" {
	fails 125 "'task-clock,'" -e task-clock, true
}

@test "bad input: empty event list" {
	fails 125 "empty event list" -e '' true
}

@test "bad input: text after a group" {
	fails 125 "unexpected 'x'" -e '{task-clock}x' true
}

@test "bad input: bad modifier letter" {
	fails 125 "'task-clock:q'" -e task-clock:q true
}

@test "bad input: too many p modifiers" {
	fails 125 "too many 'p' modifiers in 'pppp'" -e task-clock:pppp true
}

@test "bad input: bad group modifier" {
	fails 125 "invalid group modifier 'x'" -e '{task-clock,page-faults}:x' true
}

@test "bad input: bad modifier after a PMU event" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 "invalid modifier 'q'" \
		-e cpu/event=0x3c/q true
}

@test "bad input: value too large for a format field" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 \
		"value 0x1ff too large for 'umask' of PMU 'cpu' (8 bits)" \
		-e cpu/umask=0x1ff/ true
}

@test "bad input: 64-bit overflow in config= (hex)" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 \
		"value 0x10000000000000000 too large for 'config'" \
		-e cpu/config=0x10000000000000000/ true
}

@test "bad input: 64-bit overflow in config= (decimal)" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 \
		"value 18446744073709551616 too large for 'config'" \
		-e cpu/config=18446744073709551616/ true
}

@test "bad input: 64-bit overflow in config1=" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 "too large for 'config1'" \
		-e cpu/config1=0x1ffffffffffffffff/ true
}

@test "bad input: term value that is not a number" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 "invalid value 'abc' for 'event'" \
		-e cpu/event=abc/ true
}

@test "bad input: unknown PMU term" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 "unknown term 'nosuch' for PMU 'cpu'" \
		-e cpu/nosuch=1/ true
}

@test "bad input: PMU event without its closing slash" {
	PSTAT_SYSFS_ROOT="$SKY" fails 125 "missing closing '/'" \
		-e cpu/event=0x3c true
}

@test "bad input: PMU event with an empty term" {
	# (cpu// is perf's config 0, accepted)
	PSTAT_SYSFS_ROOT="$SKY" fails 125 "empty term in ' ,'" -e 'cpu/ ,/' true
}

@test "bad input: PMU event without a PMU name" {
	fails 125 "missing PMU name" -e /event=1/ true
}

@test "bad input: raw event past 64 bits" {
	fails 125 "'r10000000000000000'" -e r10000000000000000 true
}

@test "bad input: breakpoint address that is not a number" {
	fails 125 "invalid breakpoint address 'xyz'" -e mem:xyz true
}

@test "bad input: breakpoint length that is not a number, or not 1, 2, 4, 8" {
	fails 125 "invalid breakpoint length 'x'" -e mem:0x1000/x true
	# a number: the kernel decides, as with perf
	need_kernel_counting "the EINVAL of the user-only retry is <not supported>, exit 0, as perf"
	fails 125 "cannot open event 'mem:0x1000/3'" -e mem:0x1000/3 true
}

@test "bad input: breakpoint access that is not r, w, x" {
	fails 125 "invalid breakpoint access 'rwq'" -e mem:0x1000:rwq true
	# r, w and x together: perf's encoding, refused by the kernel
	need_kernel_counting "the EINVAL of the user-only retry is <not supported>, exit 0, as perf"
	fails 125 "cannot open event 'mem:0x1000:rwx'" -e mem:0x1000:rwx true
}

@test "bad input: tracepoint glob that matches nothing" {
	PSTAT_TRACEFS_ROOT="$FIX/tracefs" fails 125 \
		"no tracepoint matches 'nosuchsys:*'" -e 'nosuchsys:*' true
}

@test "bad input: group larger than a group read can hold" {
	local list

	list="{$(printf 'task-clock,%.0s' $(seq 512))page-faults}"
	fails 125 "group of 513 events is too large" -e "$list" true
}

@test "bad input: event name with invalid UTF-8" {
	# bytes that are no UTF-8 are written \xHH, as control characters
	fails 125 "unknown event '\\xff\\xfe'" -e $'\xff\xfe' true
}

@test "bad input: C1 controls, in UTF-8 or as lone bytes, never reach the terminal raw" {
	# U+009B and a lone 0x9b byte are each a CSI to some terminals
	printf 'caf\xc3\xa9 \xc2\x9b2J \x9b2J \xe2\x82\xac \xff\n' >cmds
	run "$PSTAT" --control fd:3 -e task-clock -- true 3<cmds
	assert_success
	assert_line "pstat: warning: unknown control command 'caf"$'\xc3\xa9'" \\xc2\\x9b2J \\x9b2J "$'\xe2\x82\xac'" \\xff' ignored: use enable, disable, snapshot, ping or stop"
	refute_output --partial $'\x9b'
}

# One argv string may hold at most 128 KiB (MAX_ARG_STRLEN), so the 1 MB
# list comes as nine -e of about 120 KB each, as a script would pass it.
mb_lists() {
	local one

	one=$(printf 'task-clock,%.0s' $(seq 10900))
	lists=()
	for _ in 1 2 3 4 5 6 7 8; do
		lists+=(-e "${one}page-faults")
	done
	lists+=(-e "${one}$1")
}

@test "bad input: a 1 MB event list with a bad event at its end" {
	mb_lists no-such-event
	fails 125 "unknown event 'no-such-event'" "${lists[@]}" true
	# the message names the event, not a megabyte of list
	[ "$(wc -c <stderr)" -lt 1000 ]
}

@test "bad input: a 1 MB event list is encoded whole" {
	mb_lists page-faults
	"$PSTAT" --dry-run -j "${lists[@]}" >doc.json
	# one complete document (jq takes seconds over its 60 MB)
	[ "$(head -c 1 doc.json)$(tail -n 1 doc.json)" = "{}" ]
	[ "$(grep -c '"resolver": "generic"' doc.json)" = $((9 * 10901)) ]
}

# --- numbers ---------------------------------------------------------

@test "bad input: -r that is not a number" {
	fails 125 "invalid value 'abc' for -r: not a number" -r abc true
}

@test "bad input: negative -r" {
	fails 125 "invalid value '-1' for -r" -r -1 true
}

@test "bad input: -r 0" {
	fails 125 "invalid value '0' for -r: out of range" -r 0 true
}

@test "bad input: -r past 64 bits" {
	fails 125 "invalid value '99999999999999999999' for -r: out of range" \
		-r 99999999999999999999 true
}

@test "bad input: -I that is not a number" {
	fails 125 "invalid value '10ms' for -I: not a number" -I 10ms true
}

@test "bad input: negative -I" {
	fails 125 "invalid value '-100' for -I" -I -100 true
}

@test "bad input: --timeout that is not a number" {
	fails 125 "invalid value '1s' for --timeout: not a number" \
		--timeout 1s true
}

@test "bad input: negative --timeout" {
	fails 125 "invalid value '-5' for --timeout" --timeout -5 true
}

@test "bad input: -D, --interval-count and --warmup that are not numbers" {
	fails 125 "invalid value 'x' for -D" -D x true
	fails 125 "invalid value '1.5' for --interval-count" \
		-I 10 --interval-count 1.5 true
	fails 125 "invalid value ' 1' for --warmup" --warmup ' 1' true
}

@test "bad input: -p that is not a number" {
	fails 125 "invalid -p value 'abc'" -p abc
}

@test "bad input: negative -p" {
	fails 125 "invalid -p value '-1'" -p -1
}

@test "bad input: -p list with an empty item" {
	fails 125 "invalid -p value '' in '1,,2'" -p 1,,2
}

@test "bad input: option without its value" {
	fails1 125 "option '-e' needs a value" -e
}

@test "bad input: unknown option" {
	fails 125 "unknown option '--bogus'" --bogus true
}

@test "bad input: empty -x separator" {
	fails 125 "empty field separator" -x '' true
}

@test "bad input: options that cannot be combined" {
	fails1 125 "-x and -j cannot be combined" -x , -j true
	fails1 125 "--append needs -o FILE or --log-fd FD" --append true
	fails 125 "-A needs -a or -C" -A true
	fails 125 "-p and -t cannot be combined" -p 1 -t 1
	fails 125 "-r needs a command" -r 3 -p 1
}

@test "bad input: no command" {
	fails 125 "no command given" -e task-clock
}

# --- targets ---------------------------------------------------------

@test "bad input: -p of a process that does not exist" {
	local pid

	# a pid that was just used and reaped is free
	true & pid=$!
	wait "$pid"
	[ ! -e "/proc/$pid" ] || skip "pid $pid was reused at once"
	fails 125 "cannot attach to process $pid: No such process" -p "$pid"
}

@test "bad input: -p beyond pid_max" {
	fails 125 "cannot attach to process 2147483647" -p 2147483647
}

@test "bad input: -t of a kernel thread" {
	[ -d /proc/2 ] && [ -z "$(readlink /proc/2/exe 2>/dev/null)" ] ||
		skip "pid 2 is not a kernel thread here"
	fails 125 "cannot attach to thread 2: it is a kernel thread" -t 2
}

@test "bad input: -p of a kernel thread" {
	grep -q '^Name:.*kthreadd' /proc/2/status 2>/dev/null ||
		skip "pid 2 is not kthreadd here"
	fails 125 "cannot attach to process 2: it is a kernel thread" -p 2
}

@test "bad input: -p of a process that has exited but is not reaped" {
	local zpid

	# the parent execs sleep, which never reaps its child: a zombie
	bash -c 'sleep 0.01 & echo $! >zpid; exec sleep 5' &
	sleep 0.3
	zpid=$(cat zpid)
	grep -q '^State:.*Z' "/proc/$zpid/status" || skip "no zombie was made"
	fails 125 "cannot attach to process $zpid: No such process" -p "$zpid"
	fails 125 "cannot attach to thread $zpid: No such process" -t "$zpid"
	kill %1
}

@test "bad input: -p of a process that exits during setup" {
	local pid

	need_perf_events
	command -v strace >/dev/null || skip "strace is not installed"
	# strace holds pstat's first perf_event_open for 400 ms, after the
	# threads were listed: the process exits in that window, every
	# time. Its threads are skipped, not fatal: a complete report of
	# nothing counted, status 0.
	sleep 0.1 &
	pid=$!
	rc=0
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -qq -o /dev/null -e trace=perf_event_open \
		-e inject=perf_event_open:delay_enter=400ms:when=1 \
		"$ROOT/pstat" -j -o out.json -p "$pid" -e task-clock,cs \
		>stdout 2>stderr || rc=$?
	wait "$pid"
	[ "$rc" = 0 ] || fail "exit $rc: $(head -3 stderr)"
	validate_json out.json
	[ "$(jq -r '[.counters[].status] | unique | join(",")' out.json)" = not_counted ]
	[ "$(jq -c '.target.pids' out.json)" = "[$pid]" ]
}

@test "bad input: -C with a CPU past the last one" {
	fails 125 "CPU 9999 in '9999' is not online" -C 9999 -e task-clock true
}

@test "bad input: -C with a range running past the last CPU" {
	local n

	n=$(getconf _NPROCESSORS_CONF)
	fails 125 "CPU $n in '0-$((n + 100))' is not online" \
		-C "0-$((n + 100))" -e task-clock true
}

@test "bad input: -C with an offline CPU" {
	local cpu=

	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat "$f" 2>/dev/null)" = 0 ] || continue
		cpu=${f%/online}
		cpu=${cpu##*/cpu}
		break
	done
	if [ -z "$cpu" ]; then
		# every CPU is online here (offlining one is not ours to do):
		# a sysfs tree whose last CPU is offline stands in
		n=$(getconf _NPROCESSORS_ONLN)
		[ "$n" -ge 2 ] || skip "one CPU, and it is online"
		mkdir -p sys/devices/system/cpu
		echo "0-$((n - 2))" >sys/devices/system/cpu/online
		cpu=$((n - 1))
		export PSTAT_SYSFS_ROOT=$PWD/sys
	fi
	fails 125 "CPU $cpu in '$cpu' is not online" -C "$cpu" -e task-clock true
}

@test "bad input: -C that is not a CPU list" {
	fails 125 "invalid CPU list 'abc'" -C abc -e task-clock true
	fails 125 "invalid CPU range in '3-1'" -C 3-1 -e task-clock true
	fails 125 "invalid CPU list '-1'" -C -1 -e task-clock true
}

# --- output ----------------------------------------------------------

@test "bad input: -o into a missing directory" {
	fails1 125 "cannot open output file 'no/such/dir/out': No such file or directory" \
		-o no/such/dir/out -e task-clock true
	fails1 125 "'no/such/dir/out'" -j -o no/such/dir/out -e task-clock true
}

@test "bad input: -o onto a directory" {
	mkdir d
	fails1 125 "cannot open output file 'd': Is a directory" \
		-o d -e task-clock true
}

@test "bad input: -o onto an immutable file (read-only even to root)" {
	echo old >ro.txt
	chattr +i ro.txt 2>/dev/null || skip "chattr +i is not possible here"
	IMMUTABLE=$PWD/ro.txt
	fails1 125 "cannot open output file 'ro.txt'" -o ro.txt -e task-clock true
	[ "$(cat ro.txt)" = old ]
}

@test "bad input: -o onto a file of a read-only mount" {
	mkdir ro
	echo old >ro/out.txt
	mount --bind -o ro ro ro 2>/dev/null ||
		skip "cannot make a read-only bind mount here"
	RO_MOUNT=$PWD/ro
	fails1 125 "'ro/out.txt'" -o ro/out.txt -e task-clock true
	grep -q 'Read-only file system' stderr
	fails1 125 "'ro/new.txt'" -o ro/new.txt -e task-clock true
	[ "$(cat ro/out.txt)" = old ]
}

@test "bad input: -o /dev/full says the write failed" {
	need_perf_events
	[ -c /dev/full ] || skip "/dev/full is not the full device here"
	fails1 125 "cannot write the results to '/dev/full': No space left on device" \
		-o /dev/full -e task-clock true
	fails1 125 "'/dev/full'" -j -o /dev/full -e task-clock true
	fails1 125 "'/dev/full'" -x , -o /dev/full -e task-clock true
	fails1 125 "'/dev/full'" --append -o /dev/full -e task-clock true
}

@test "bad input: results to a stderr that is /dev/full" {
	need_perf_events
	[ -c /dev/full ] || skip "/dev/full is not the full device here"
	rc=0
	"$PSTAT" -e task-clock true 2>/dev/full || rc=$?
	[ "$rc" = 125 ]
	# (not through $PSTAT: with -j it keeps a copy of stderr in a file)
	rc=0
	"$ROOT/pstat" -j -e task-clock true 2>/dev/full || rc=$?
	[ "$rc" = 125 ]
}

@test "bad input: an existing results file survives a failed run" {
	echo previous >keep.json
	fails1 125 "unknown event" -j -o keep.json -e no-such-event true
	[ "$(cat keep.json)" = previous ]
	fails1 127 "cannot run 'no-such-command'" -j -o keep.json \
		-e task-clock no-such-command
	[ "$(cat keep.json)" = previous ]
}

@test "bad input: -o through a symlink: the target survives a failed run" {
	need_perf_events
	echo previous >real.json
	ln -s real.json link.json
	fails1 127 "cannot run 'no-such-command'" -j -o link.json \
		-e task-clock no-such-command
	[ "$(cat real.json)" = previous ]
	[ -L link.json ]
	# a run that works replaces the file the link names, link kept
	"$PSTAT" -j -o link.json -e task-clock true
	[ -L link.json ]
	[ "$(jq -r .schema real.json)" = pstat/1 ]
}

@test "bad input: --append: a failed run leaves the file as it was" {
	need_perf_events
	printf 'line 1\nline 2\n' >log.txt
	fails1 127 "cannot run 'no-such-command'" --append -o log.txt \
		-e task-clock no-such-command
	[ "$(cat log.txt)" = "$(printf 'line 1\nline 2')" ]
}

@test "bad input: a full file system: no partial document, old files kept" {
	need_perf_events
	mkdir tiny
	mount -t tmpfs -o size=8k tmpfs tiny 2>/dev/null ||
		skip "cannot mount a small tmpfs here"
	RO_MOUNT=$PWD/tiny
	ev=$(printf 'cs,%.0s' $(seq 2000))
	echo previous >tiny/keep.json
	ln -s keep.json tiny/link.json
	# 2,000 counters make a document far larger than 8 KiB
	for args in "-o tiny/new.json" "-o tiny/keep.json" "-o tiny/link.json" \
		"--append -o tiny/keep.json"; do
		fails1 125 "No space left on device" -j $args -e "${ev%,}" true
		[ ! -e tiny/new.json ] || fail "$args: a partial document was left"
		[ "$(cat tiny/keep.json)" = previous ] || fail "$args: keep.json changed"
		[ -z "$(ls -A tiny | grep '^\.')" ] || fail "$args: a temporary was left"
	done
}

@test "bad input: an empty -o is refused before the command runs" {
	fails 125 "cannot open output file ''" -o '' -e task-clock -- touch ran
	[ ! -e ran ]
}

@test "bad input: help, version, dry-run and list into a full device" {
	[ -c /dev/full ] || skip "/dev/full is not the full device here"
	for args in --help --version "list" "compare --help" "list --help" \
		"doctor --help"; do
		rc=0
		"$PSTAT" $args >/dev/full 2>stderr || rc=$?
		[ "$rc" = 125 ] || fail "pstat $args >/dev/full: exit $rc"
		grep -q '^pstat: .*No space left on device' stderr ||
			fail "pstat $args: $(cat stderr)"
	done
	rc=0
	"$ROOT/pstat" --dry-run -e task-clock >/dev/full || rc=$?
	[ "$rc" = 125 ]
}

@test "bad input: a results file gets the umask's mode, never 0666" {
	need_perf_events
	(umask 022 && "$PSTAT" -o u022.txt -e task-clock true)
	(umask 077 && "$PSTAT" -j -o u077.json -e task-clock true)
	[ "$(stat -c %a u022.txt)" = 644 ]
	[ "$(stat -c %a u077.json)" = 600 ]
}

@test "bad input: -o a FIFO that no reader opens, with --timeout" {
	mkfifo out.fifo
	fails1 124 "cannot open output file 'out.fifo': no reader within the 200 ms of --timeout" \
		--timeout 200 -o out.fifo -e task-clock -- touch ran
	[ ! -e ran ] || fail "the command ran"
}

@test "bad input: --baseline a FIFO that no writer opens does not hang" {
	mkfifo base.fifo
	fails1 4 "cannot read the run in 'base.fifo'" \
		--baseline base.fifo -e task-clock -- touch ran
	[ ! -e ran ] || fail "the command ran"
}

@test "bad input: --compare-output that cannot be written is refused before the command runs" {
	base_json
	mkdir d
	fails1 125 "cannot open output file 'd': Is a directory" \
		--baseline base.json --compare-output d -e task-clock -- touch ran
	[ ! -e ran ] || fail "the command ran"
	fails1 125 "cannot open output file 'no/dir/cmp.txt': No such file or directory" \
		--baseline base.json --compare-output no/dir/cmp.txt -e task-clock -- touch ran
	[ ! -e ran ] || fail "the command ran"
}

# --- the command -----------------------------------------------------

@test "bad input: a command that is a directory" {
	need_perf_events
	fails 126 "cannot run '/tmp': Permission denied" -e task-clock /tmp
}

@test "bad input: a command that is not executable" {
	need_perf_events
	echo 'echo hi' >plain.sh
	chmod 644 plain.sh
	fails 126 "cannot run './plain.sh': Permission denied" \
		-e task-clock ./plain.sh
}

@test "bad input: a command that does not exist" {
	need_perf_events
	fails 127 "cannot run 'no-such-command': No such file or directory" \
		-e task-clock no-such-command
}

@test "bad input: a script whose interpreter does not exist" {
	need_perf_events
	[[ $PSTAT_WRAP != *valgrind* ]] ||
		skip "valgrind dies when such an execve fails (make check has it)"
	printf '#!/no/such/interpreter\n' >script
	chmod 755 script
	fails 127 "cannot run './script'" -e task-clock ./script
}

@test "bad input: argv with invalid UTF-8 and newlines is still valid JSON" {
	need_perf_events
	run "$PSTAT" -j -o doc.json -e task-clock -- \
		/bin/echo $'two\nlines' $'\xff\xfe bad' $'quote" back\\' $'\x01'
	assert_success
	jq_assert '.command | length == 5' doc.json
	[ "$(jq -r '.command[1]' doc.json)" = $'two\nlines' ]
	jq_assert '.command[3] == "quote\" back\\"' doc.json
	validate_json doc.json
	# the same document on stderr
	run --separate-stderr "$PSTAT" -j -e task-clock -- \
		/bin/echo $'a\nb' $'\xc3\x28'
	assert_success
	echo "$stderr" >err.json
	jq_assert '.command[1] == "a\nb"' err.json
	validate_json err.json
}

# --- sysfs trees with broken files -----------------------------------

@test "bad input: a format file with no range end" {
	PSTAT_SYSFS_ROOT="$BAD" fails 125 "PMU 'bad': malformed format file 'umask'" \
		-e bad/umask=1/ true
}

@test "bad input: format files of every malformed kind" {
	local f

	for f in wide cmask binary empty overlap toomany huge reversed; do
		PSTAT_SYSFS_ROOT="$BAD" fails1 125 "PMU 'bad': malformed format file '$f'" \
			-e "bad/$f=1/" true
	done
	# the good format of the same PMU still works
	PSTAT_SYSFS_ROOT="$BAD" run "$PSTAT" --dry-run -e bad/event=1/
	assert_success
}

@test "bad input: an alias that uses a malformed format" {
	PSTAT_SYSFS_ROOT="$BAD" fails 125 "PMU 'bad': malformed format file 'umask'" \
		-e bad/usebad/ true
}

@test "bad input: an alias whose text does not parse" {
	PSTAT_SYSFS_ROOT="$BAD" fails 125 "cannot parse alias 'broken' of PMU 'bad'" \
		-e bad/broken/ true
}

@test "bad input: an alias with a value too large for its field" {
	PSTAT_SYSFS_ROOT="$BAD" fails 125 "value 0x1ff too large for 'event' of PMU 'bad'" \
		-e bad/toobig/ true
}

@test "bad input: a PMU whose type is past 64 bits" {
	PSTAT_SYSFS_ROOT="$BAD" fails 125 "PMU 'hugetype': malformed type file" \
		-e hugetype/event=1/ true
}

# A sysfs tree with one PMU, NAME, whose type file is made by "$2".
hostile_pmu() {
	local d="$PWD/sys/bus/event_source/devices/$1"

	mkdir -p "$d/format" "$PWD/sys/devices/system/cpu"
	echo 0 >"$PWD/sys/devices/system/cpu/online"
	echo 'config:0-7' >"$d/format/event"
	eval "$2"
}

@test "bad input: a FIFO where a sysfs file should be does not hang pstat" {
	hostile_pmu fifo 'mkfifo "$d/type"'
	PSTAT_SYSFS_ROOT="$PWD/sys" fails 125 \
		"PMU 'fifo': cannot read its type file: Invalid argument" \
		-e fifo/event=1/ true
}

@test "bad input: a sysfs file past 4 KiB is an error, not its first 4 KiB" {
	hostile_pmu long 'printf "%05000d\n" 8 >"$d/type"'
	PSTAT_SYSFS_ROOT="$PWD/sys" fails 125 \
		"PMU 'long': cannot read its type file: File too large" \
		-e long/event=1/ true
}

@test "bad input: sysfs root that does not exist" {
	PSTAT_SYSFS_ROOT="$PWD/nowhere" fails 125 "unknown PMU 'cpu'" \
		-e cpu/event=1/ true
}

# --- pstat compare ---------------------------------------------------

# A real run document to compare against.
base_json() {
	need_perf_events
	"$PSTAT" -j -o base.json -e task-clock,page-faults true ||
		fail "cannot write base.json"
}

@test "bad input: compare with a truncated JSON file" {
	base_json
	head -c 200 base.json >cut.json
	fails_cmp 4 "'cut.json'" base.json cut.json
	grep -q 'truncated' stderr
	fails_cmp 4 "'cut.json'" cut.json base.json
}

@test "bad input: compare with a binary file" {
	base_json
	head -c 300 /bin/true >bin.json
	fails_cmp 4 "'bin.json'" base.json bin.json
}

@test "bad input: compare with an empty file" {
	base_json
	: >empty.json
	fails_cmp 4 "'empty.json'" base.json empty.json
}

@test "bad input: compare with JSON that is not a pstat run" {
	base_json
	echo '[1, 2, 3]' >array.json
	fails_cmp 4 "'array.json'" base.json array.json
	jq '.schema = "pstat/99"' base.json >other.json
	fails_cmp 4 "'other.json'" base.json other.json
	jq '.counters = 7' base.json >wrong.json
	fails_cmp 4 "'wrong.json'" base.json wrong.json
}

@test "bad input: compare with interval documents but no summary" {
	need_perf_events
	"$PSTAT" -j -I 20 -o iv.jsonl -e task-clock sleep 0.1
	base_json
	grep '"type":"interval"' iv.jsonl >cut.jsonl
	fails_cmp 4 "'cut.jsonl'" cut.jsonl base.json
}

@test "bad input: compare with a missing file or a directory" {
	base_json
	fails_cmp 4 "'missing.json'" base.json missing.json
	mkdir dir.json
	fails_cmp 4 "'dir.json'" base.json dir.json
}

@test "bad input: compare usage errors" {
	base_json
	fails1 125 "takes two runs" compare base.json
	fails1 125 "invalid --threshold 'x=abc'" compare --threshold x=abc \
		base.json base.json
	if [ -c /dev/full ]; then
		fails1 125 "'/dev/full'" compare -o /dev/full base.json base.json
	fi
}

@test "bad input: a long name is cut in its middle, the reason kept" {
	local long

	long=$(printf 'd%.0s' $(seq 3000))
	fails1 125 "': File name too long" -o "$long/x/out" -e task-clock true
	grep -q "^pstat: cannot open output file 'd*\.\.\.d*/x/out': File name too long$" stderr ||
		fail "$(cut -c 1-200 stderr)"
	[ "$(head -1 stderr | wc -c)" -le 1100 ]
	fails1 125 "unknown event 'xxxx" -e "$(printf 'x%.0s' $(seq 3000))" true
	head -1 stderr | grep -q "x\.\.\.x*'" || fail "$(head -1 stderr | tail -c 200)"
}

@test "bad input: compare prints names from a document inert" {
	base_json
	jq '.counters[0].event = "task\u001b]0;title\u0007-clock\u001b[2J"' base.json >esc.json
	for fmt in table markdown; do
		run "$PSTAT" compare --format "$fmt" esc.json esc.json
		assert_success
		[[ $output != *$'\e'* && $output != *$'\a'* ]] ||
			fail "$fmt: a control character was printed"
		[[ $output == *'task\x1b]0;title\x07-clock'* ||
			$output == *'task\\x1b\]0;title\\x07-clock'* ]] || fail "$fmt: $output"
	done
}

@test "bad input: names with a line break stay on one error line" {
	fails 127 "cannot run 'no\\nsuch'" -e task-clock -- $'no\nsuch'
	fails1 125 "cannot open output file 'dir\\nx/out'" -o $'dir\nx/out' \
		-e task-clock true
	fails 125 "unknown event 'bad\\n-event'" -e $'bad\n-event' true
}

@test "bad input: --metrics-file /dev/zero and other devices are refused at once" {
	# the attack: /dev/zero was read into memory without end
	for f in /dev/zero /dev/null /dev/urandom; do
		run -125 timeout 10 "$PSTAT" --metrics-file "$f" -e task-clock true
		assert_output "pstat: cannot read metrics file '$f': not a regular file or a FIFO"
	done
	run -125 "$PSTAT" --metrics-file "$BATS_TEST_TMPDIR" -e task-clock true
	assert_output "pstat: cannot read metrics file '$BATS_TEST_TMPDIR': Is a directory"
}

@test "bad input: a metrics file of 16 MiB is read, one byte more is refused" {
	# one definition, then comment lines up to exactly 16 MiB
	{
		echo 'big = task-clock * 2'
		yes "# $(printf '%0200d' 0)" |
			head -c $((16 * 1024 * 1024 - 21 - 1))
		echo
	} >m
	[ "$(stat -c %s m)" = $((16 * 1024 * 1024)) ]
	run -0 "$PSTAT" -x, --metrics-file m -e task-clock true
	assert_line --partial ',big'
	# the attack: a file without a newline grew pstat without bound
	printf x >>m
	run -125 "$PSTAT" --metrics-file m -e task-clock true
	assert_output "pstat: metrics file 'm' is longer than 16 MiB"
	head -c $((17 * 1024 * 1024)) /dev/zero | tr '\0' x >m
	run -125 "$PSTAT" --metrics-file m -e task-clock true
	assert_output "pstat: metrics file 'm' is longer than 16 MiB"
}

@test "bad input: a metrics file of 250,000 lines is read, one more is refused" {
	{
		echo 'lines = task-clock * 2'
		yes '' | head -n 249999
	} >m
	run -0 "$PSTAT" -x, --metrics-file m -e task-clock true
	assert_line --partial ',lines'
	echo >>m
	run -125 "$PSTAT" --metrics-file m -e task-clock true
	assert_output "pstat: metrics file 'm' has more than 250000 lines"
}

# chain N FILE: m0 = task-clock, then mI = m(I-1) + 1 up to m(N-1).
chain() {
	awk -v n="$1" 'BEGIN {
		print "m0 = task-clock"
		for (i = 1; i < n; i++) printf "m%d = m%d + 1\n", i, i - 1
	}' >"$2"
}

@test "bad input: a chain of 250,000 metrics resolves without recursion; one more metric is refused" {
	chain 250000 m
	# the attack: quadratic (200,000 lines ran for 25 minutes) and a
	# recursion per link (SIGSEGV at 24,000 under ulimit -s 1024); the
	# timeout only stops a hang, the speed is make bench's metrics row
	run -0 bash -c 'ulimit -s 1024 && exec timeout 60 "$1" metric-file m 2' _ "$PT"
	assert_line 'metrics: 250000 inputs: 1 groups: 0'
	assert_line 'm249999 250001'
	# the whole run, evaluated and printed, on that small stack
	head -n 200000 m >m200k
	run -0 bash -c 'ulimit -s 1024 && exec timeout 120 "$1" -x, -o out --metrics-file m200k -e task-clock true' _ "$PSTAT"
	[ "$(grep -c ',m[0-9]*$' out)" = 200000 ] || fail "$(tail -n3 out)"
	# the limit is on every metric defined, --metric included
	run -125 "$PSTAT" --metrics-file m --metric 'one_more = task-clock' \
		-e task-clock true
	assert_output "pstat: m:250000: more than 250000 metrics defined"
	chain 250001 m
	run -125 "$PSTAT" --metrics-file m -e task-clock true
	assert_output "pstat: metrics file 'm' has more than 250000 lines"
}

@test "bad input: an expression of 200,000 names, or 1,000,000 terms, evaluates without recursion" {
	awk 'BEGIN { printf "x = a0"; for (i = 1; i < 200000; i++) printf "+a%d", i; print "" }' >wide
	run -0 bash -c 'ulimit -s 1024 && exec timeout 60 "$1" metric-file wide' _ "$PT"
	assert_line 'metrics: 1 inputs: 200000 groups: 0'
	assert_line 'x 200000'
	awk 'BEGIN { printf "x = task-clock"; for (i = 1; i < 1000000; i++) printf "+1"; print "" }' >long
	run -0 bash -c 'ulimit -s 1024 && exec timeout 60 "$1" metric-file long' _ "$PT"
	assert_line 'x 1e+06'
}
