#!/usr/bin/env bats
# Attach (-p, -t) and system-wide (-a, -C) targets.

bats_require_minimum_version 1.5.0
load test_helper


@test "-p counts a running program's writes in the window" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# 20 writes a second for a long time
	"$w" 100000 1 0 50 &
	wpid=$!
	run "$PSTAT" -p "$wpid" -e syscalls:sys_enter_write --timeout 1000
	kill "$wpid"
	assert_success
	assert_output --partial "Performance counter stats for process id '$wpid'"
	n=$(value_of syscalls:sys_enter_write <<<"$output")
	# a second at one write per ~50 ms: about 20 (the sleep overshoots)
	[ "$n" -ge 12 ]
	[ "$n" -le 21 ]
}

@test "-p ends promptly when the process exits, with exact counts" {
	need_perf_events
	need_tracepoint
	start_threads 8 100 300
	timed_run "$PSTAT" -p "$tpid" -e syscalls:sys_enter_write
	assert_success
	# 100 x (1 + 2 + ... + 8)
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 3600 ]
	# noticed through a pidfd, not by polling once a second
	[ "$ms" -lt 900 ]
}

@test "-p of several processes counts them all" {
	need_perf_events
	need_tracepoint
	start_threads 2 100 400
	p1=$tpid
	start_threads 3 10 400
	run "$PSTAT" -p "$p1,$tpid" -e syscalls:sys_enter_write
	assert_success
	# 100 x (1 + 2) and 10 x (1 + 2 + 3)
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 360 ]
}

@test "-p counts threads and children started after attaching" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	go="$BATS_TEST_TMPDIR/go"
	# a shell that, once told, starts a 2-thread writer and a writer
	# with a child: all after pstat attached
	sh -c 'while [ ! -e "$1" ]; do sleep 0.02; done
		"$2" 50 2 0 0 & "$2" 50 1 1 0; wait' _ "$go" "$w" &
	spid=$!
	(sleep 0.5; touch "$go") &
	run "$PSTAT" -p "$spid" -e syscalls:sys_enter_write
	assert_success
	# 50 x 2 + 50 x 1 x 2, by processes and threads that did not exist
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 200 ]
}

@test "-p of a process whose main thread has exited" {
	need_perf_events
	need_tracepoint
	start_threads 4 100 700 main-exits
	# wait for the leader to be a zombie while its threads live
	for _ in $(seq 50); do
		grep -q '^State:.*Z' "/proc/$tpid/status" && break
		sleep 0.02
	done
	grep -q '^State:.*Z' "/proc/$tpid/status" || skip "the main thread did not exit"
	timed_run "$PSTAT" -p "$tpid" -e syscalls:sys_enter_write
	assert_success
	# 100 x (1 + 2 + 3 + 4), and the end noticed when the threads ended
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 1000 ]
	[ "$ms" -lt 1500 ]
}

@test "-p and -a without a command end on SIGINT with 130 and the counts" {
	need_perf_events
	sleep 30 &
	spid=$!
	for target in "-p $spid" "-a"; do
		if [ "$target" = -a ] && ! can_count_cpu_wide; then
			kill "$spid"
			need_cpu_wide
		fi
		# shellcheck disable=SC2086
		pstat_sigint_after 0.4 $target -e task-clock -o "$BATS_TEST_TMPDIR/out"
		[ "$st" = 130 ] || fail "$target: exit $st"
		grep -q 'task-clock' "$BATS_TEST_TMPDIR/out" ||
			fail "$target: $(cat "$BATS_TEST_TMPDIR/out")"
	done
	kill "$spid"
}

@test "--per-thread gives exact per-thread tracepoint counts" {
	need_perf_events
	need_tracepoint
	start_threads 4 10 300
	run "$PSTAT" --per-thread -p "$tpid" -e syscalls:sys_enter_write
	assert_success
	rows=$(grep sys_enter_write <<<"$output")
	# one row per thread, named comm-tid, by count as perf orders them:
	# the main thread, which wrote nothing, last
	[ "$(wc -l <<<"$rows")" = 5 ]
	[ "$(awk '{ print $1 }' <<<"$rows" | tail -1)" = "prog-threads-$tpid" ]
	awk '{ exit !($1 ~ /^prog-threads-[0-9]+$/) }' <<<"$rows"
	# the main thread wrote nothing; thread i wrote (i + 1) x 10
	[ "$(awk '{ print $2 }' <<<"$rows" | sort -n | paste -sd' ')" = "0 10 20 30 40" ]
}

# Issue 22: attached, a thread's software events and tracepoints open
# as one group, read with one read(2) a thread rather than one a
# counter; they never multiplex, so the counts are what they are alone.
# With --control, which toggles single events, each stays on its own.
# groups_of TRACE: per thread, "L" for a leader and "M" for a member of
# the thread's last leader, as strace shows the perf_event_open calls.
groups_of() {
	/usr/bin/python3 -c '
import re, sys
threads, last = {}, {}
for line in open(sys.argv[1]):
    m = re.search(r"\}, (\d+), -1, (-?\d+), [^)]*\) = (\d+)", line)
    if not m:
        continue
    tid, gfd, fd = m.groups()
    if gfd == "-1":
        kind = "L"
        last[tid] = fd
    else:
        kind = "M" if last.get(tid) == gfd else "?"
    threads[tid] = threads.get(tid, "") + kind
print(" ".join(threads[t] for t in sorted(threads)))' "$1"
}

@test "-p: a thread's software events and tracepoints are one group, counts exact" {
	need_perf_events
	need_tracepoint
	command -v strace >/dev/null || skip "strace is not installed"
	start_threads 3 10 600
	# (LeakSanitizer cannot run under ptrace: off for a sanitized build)
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -f -qq -e trace=perf_event_open -o "$BATS_TEST_TMPDIR/tr" \
		"$PSTAT" -x, --per-thread -p "$tpid" \
		-e syscalls:sys_enter_write,task-clock,cs -o "$BATS_TEST_TMPDIR/out"
	[ "$(groups_of "$BATS_TEST_TMPDIR/tr")" = "LMM LMM LMM LMM" ]
	# thread i wrote (i + 1) x 10; the leader's times are each member's
	[ "$(awk -F, '$4 == "syscalls:sys_enter_write" { print $2 }' \
		"$BATS_TEST_TMPDIR/out" | sort -n | paste -sd' ')" = "0 10 20 30" ]
	awk -F, '$4 ~ /^(syscalls|task-clock|cs)/ { if ($6 != "100.00") exit 1
		t[$1] = t[$1] " " $5 } END { for (k in t) { n = split(t[k], a, " ")
		if (n != 3 || a[1] != a[2] || a[2] != a[3]) exit 1 } }' \
		"$BATS_TEST_TMPDIR/out"

	start_threads 3 10 600
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -f -qq -e trace=perf_event_open -o "$BATS_TEST_TMPDIR/tr" \
		"$PSTAT" -x, --per-thread -p "$tpid" --control fd:3,4 \
		-e syscalls:sys_enter_write,task-clock,cs \
		-o "$BATS_TEST_TMPDIR/out" 3</dev/null 4>/dev/null
	[ "$(groups_of "$BATS_TEST_TMPDIR/tr")" = "LLL LLL LLL LLL" ]
	[ "$(awk -F, '$4 == "syscalls:sys_enter_write" { print $2 }' \
		"$BATS_TEST_TMPDIR/out" | sort -n | paste -sd' ')" = "0 10 20 30" ]
}

@test "-t counts exactly the given threads" {
	need_perf_events
	need_tracepoint
	start_threads 3 50 300
	tids=$(ls /proc/$tpid/task | sort -n | tail -n +2 | paste -sd,)
	run "$PSTAT" -t "$tids" -e syscalls:sys_enter_write
	assert_success
	assert_output --partial "thread id '$tids'"
	# 50 + 100 + 150
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 300 ]
}

@test "-t does not count the threads and children the thread starts" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# the shell itself never writes: only the writers it starts would
	sh -c 'sleep 0.3; "$1" 50 2 0 0; sleep 0.2' _ "$w" &
	spid=$!
	run "$PSTAT" -t "$spid" -e syscalls:sys_enter_write
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 0 ] || fail "$output"
}

@test "a pid that does not exist: exit 125 and a clear message" {
	run "$PSTAT" -p 999999999 -e task-clock
	assert_failure 125
	assert_output "pstat: cannot attach to process 999999999: No such process"
	for bad in abc -1 0 1,,2 99999999999; do
		run "$PSTAT" -p "$bad" -e task-clock
		assert_failure 125
		assert_output --partial "pstat: "
		[ "${#lines[@]}" = 1 ]
	done
	pid=$(sh -c 'echo $$')
	run "$PSTAT" -p "$pid" -e task-clock
	assert_failure 125
	assert_output "pstat: cannot attach to process $pid: No such process"
}

@test "a kernel thread cannot be attached to" {
	kt=$(ps -eo pid=,comm= | awk '$2 == "kthreadd" { print $1 }')
	[ -n "$kt" ] || skip "no kthreadd here"
	run "$PSTAT" -p "$kt" -e task-clock
	assert_failure 125
	assert_output --partial "is a kernel thread"
}

@test "-a counts a known syscall workload system-wide" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" -a -e syscalls:sys_enter_write -- "$w" 5000
	assert_success
	assert_output --partial "Performance counter stats for 'system wide'"
	# at least the workload's own writes, whatever else runs
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" -ge 5000 ]
}

@test "-C 0 counts on one CPU; -A prints one row per CPU" {
	need_cpu_wide
	need_tracepoint
	w=$(prog writer)
	run taskset -c 0 "$PSTAT" -C 0 -e syscalls:sys_enter_write -- "$w" 3000
	assert_success
	assert_output --partial "'CPU(s) 0'"
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" -ge 3000 ]
	ncpu=$(getconf _NPROCESSORS_ONLN)
	run "$PSTAT" -a -A -e cs,task-clock --timeout 100
	assert_success
	[ "$(grep -c '^CPU[0-9]' <<<"$output")" -eq $((2 * ncpu)) ]
}

# Issue 22: counters of each CPU are read on that CPU (pstat moves itself
# there, as perf does); pstat goes back where it may run, so a later run
# of -r is not pinned, and under taskset it stays within its CPUs.
@test "-a reads each CPU's counters there, and leaves no pinning behind" {
	local all
	need_cpu_wide
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "one CPU: nothing to move between"
	all=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	run strace -f -qq -e trace=sched_setaffinity -o "$BATS_TEST_TMPDIR/st" \
		"$ROOT/pstat" -a -r 2 -I 50 -e cs -o /dev/null -- \
		sh -c 'sleep 0.2; grep Cpus_allowed_list /proc/self/status'
	assert_success
	# the second run's command was forked after reads: not pinned
	[ "$(grep -c "Cpus_allowed_list:.$all\$" <<<"$output")" -eq 2 ]
	grep -qE 'sched_setaffinity\(0, [0-9]+, \[1\]\) += 0' "$BATS_TEST_TMPDIR/st"
	# under taskset -c 0, CPU 1 is read from CPU 0: no move outside the set
	run strace -f -qq -e trace=sched_setaffinity -o "$BATS_TEST_TMPDIR/st0" \
		taskset -c 0 "$ROOT/pstat" -a -I 50 --interval-count 2 -e cs \
		-o /dev/null sleep 1
	assert_success
	run grep -c 'sched_setaffinity(0, [0-9]*, \[1\])' "$BATS_TEST_TMPDIR/st0"
	assert_output 0
}

@test "-C with an offline or absurd CPU is refused" {
	run "$PSTAT" -C 4096 -e cs true
	assert_failure 125
	assert_output "pstat: CPU 4096 in '4096' is not online"
	run "$PSTAT" -C 3-1 -e cs true
	assert_failure 125
	run "$PSTAT" -C x -e cs true
	assert_failure 125
	assert_output "pstat: invalid CPU list 'x'"
}

@test "--timeout ends a long command with SIGTERM and exit 124" {
	need_perf_events
	start=$(date +%s%N)
	run "$PSTAT" --timeout 300 -e task-clock sleep 10
	end=$(date +%s%N)
	assert_failure 124
	assert_output --partial "task-clock"
	[ $(( (end - start) / 1000000 )) -lt 2000 ]
}

@test "--timeout kills a command that ignores SIGTERM after the grace" {
	need_perf_events
	start=$(date +%s%N)
	run "$PSTAT" --timeout 200 -e task-clock -- sh -c 'trap "" TERM; exec sleep 5'
	end=$(date +%s%N)
	assert_failure 124
	ms=$(( (end - start) / 1000000 ))
	[ "$ms" -ge 2000 ]
	[ "$ms" -lt 4500 ]
}

@test "-D starts counting after the delay" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# 40 writes 10 ms apart; the first ~200 ms are not counted
	run "$PSTAT" -D 200 -e syscalls:sys_enter_write -- "$w" 40 1 0 10
	assert_success
	n=$(value_of syscalls:sys_enter_write <<<"$output")
	[ "$n" -gt 5 ]
	[ "$n" -lt 35 ]
}

@test "-D: the elapsed time leaves the delay out, as perf's does" {
	need_perf_events
	run "$PSTAT" -j -D 300 -e task-clock -- sleep 0.8
	assert_success
	ms=$(jq '.time.elapsed_ns / 1000000 | floor' <<<"$output")
	[ "$ms" -ge 400 ] && [ "$ms" -lt 650 ] || fail "elapsed $ms ms"
	# the command ended before the delay: nothing was counted, for 0 s
	run "$PSTAT" -j -D 1000 -e task-clock true
	assert_success
	[ "$(jq '.time.elapsed_ns' <<<"$output")" = 0 ]
}

@test "1000 threads x 5 events under a soft limit of 1024: raised, nothing lost" {
	need_perf_events
	need_tracepoint
	hard=$(ulimit -Hn)
	[ "$hard" = unlimited ] || [ "$hard" -ge 6000 ] ||
		skip "the hard fd limit ($hard) is below what 5000 counters need"
	start_threads 1000 2 4000
	run bash -c "ulimit -Sn 1024; exec '$PSTAT' -p $tpid \
		-e task-clock,cs,page-faults,cpu-migrations,syscalls:sys_enter_write"
	assert_success
	# 2 x (1 + ... + 1000) writes, none lost to a counter that failed to open
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 1001000 ]
}

@test "a hard fd limit too low fails before opening anything" {
	need_perf_events
	start_threads 200 1 300
	run bash -c "ulimit -n 256; exec '$PSTAT' -p $tpid -e task-clock,cs"
	assert_failure 125
	assert_output --partial "counting needs"
	assert_output --partial "but the limit is 256"
	wait "$tpid" || true
}

@test "-a: the fd limit is raised, or the need stated, before opening" {
	need_cpu_wide
	ev=$(printf 'cs,%.0s' $(seq 40))
	# 40 events x every CPU exceed a soft limit of 40: raised to the hard
	run bash -c "ulimit -Sn 40; ulimit -Hn 4096; exec '$PSTAT' -a -e ${ev%,} --timeout 100"
	assert_success
	[ "$(grep -c ' cs' <<<"$output")" = 40 ]
	# a hard limit too low: said before opening anything
	run bash -c "ulimit -n 64; exec '$PSTAT' -a -e ${ev%,} --timeout 100"
	assert_failure 125
	assert_output --partial "counting needs"
	assert_output --partial "but the limit is 64"
	# the command gets the soft limit pstat was started with
	run bash -c "ulimit -Sn 40; ulimit -Hn 4096; exec '$PSTAT' -a -e ${ev%,} -o /dev/null -- sh -c 'ulimit -Sn'"
	assert_success
	assert_output 40
}

@test "permission failures say which rule refused" {
	need_nobody
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] ||
		skip "perf_event_paranoid < 1 lets users count everything"
	# another user's process: ptrace access
	run as_nobody -p 1 -e task-clock --timeout 100
	assert_failure 125
	assert_line --index 0 "pstat: cannot open event 'task-clock' for thread 1: Permission denied"
	assert_line --index 1 --partial "thread 1 belongs to uid 0: attaching needs ptrace access"
	# a whole CPU: perf_event_paranoid, with its value
	p=$(cat /proc/sys/kernel/perf_event_paranoid)
	run as_nobody -a -e cs --timeout 100
	assert_failure 125
	assert_line --index 0 "pstat: cannot open event 'cs' on CPU 0: Permission denied"
	assert_line --index 1 --regexp "perf_event_paranoid is $p \\([a-z].*\\): counting a whole CPU needs it <= 0"
}
