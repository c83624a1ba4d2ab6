#!/usr/bin/env bats
# Counters that are slow to close (tracepoints) are torn down after the
# results are out, by a detached process, unless --wait-close.

bats_require_minimum_version 1.5.0
load test_helper

# The first N syscalls:sys_enter_* tracepoints, comma-separated, with
# sys_enter_write among them.
tracepoints() {
	{ echo syscalls:sys_enter_write
	  ls /sys/kernel/tracing/events/syscalls | grep '^sys_enter_' |
		grep -vx sys_enter_write | head -n $(($1 - 1)) |
		sed 's/^/syscalls:/'; } | paste -sd,
}

@test "200 tracepoints: exact counts, and the report does not wait for teardown" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	list=$(tracepoints 200)
	# through a pipe: the detached closer must not hold it open
	run timeout 60 bash -c "'$PSTAT' -e '$list' '$w' 123 2>&1 | cat"
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 123 ]
	[ "$(grep -c 'syscalls:sys_enter_' <<<"$output")" = 200 ]
	# -o FILE is complete when pstat returns
	"$PSTAT" -e "$list" -o "$BATS_TEST_TMPDIR/r" "$w" 7
	[ "$(value_of syscalls:sys_enter_write <"$BATS_TEST_TMPDIR/r")" = 7 ]
}

@test "--wait-close gives the same counts, tearing down in pstat itself" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" --wait-close -e "$(tracepoints 5)" "$w" 50
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 50 ]
}

@test "-r 5 with 20 tracepoints: every run's count is exact" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	run --separate-stderr "$PSTAT" -j -r 5 -e "$(tracepoints 20)" "$w" 40
	assert_success
	run jq -c '.counters[] | select(.event == "syscalls:sys_enter_write") | .samples' <<<"$stderr"
	assert_output '[40,40,40,40,40]'
}

# The descriptors /proc shows for process $1: "perf N" when every one is
# a perf_event descriptor, else the first other one; nothing if it is gone.
closer_fds() {
	local fd l n=0
	for fd in /proc/"$1"/fd/*; do
		l=$(readlink "$fd") || continue
		[ "$l" = "anon_inode:[perf_event]" ] || { echo "$l"; return; }
		n=$((n + 1))
	done
	[ "$n" -eq 0 ] || echo "perf $n"
}

@test "the detached closer keeps no descriptor but the counters" {
	need_perf_events
	need_tracepoint
	command -v strace >/dev/null || skip "strace is not installed"
	w=$(prog writer)
	r="$BATS_TEST_TMPDIR/r"
	# How long closing takes is the kernel's business (a fraction of a
	# millisecond a tracepoint on a busy machine): under strace every
	# close takes 30 ms more, so that the closer lives long enough to be
	# watched.
	# (LeakSanitizer cannot run under ptrace: off for a sanitized build)
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -f -qq -o /dev/null -e trace=close \
		-e inject=close:delay_exit=30ms \
		"$ROOT/pstat" -e "$(tracepoints 20)" -o "$r" "$w" 1 &
	tracer=$!
	# (the file exists, empty, from the start: wait for the whole report)
	for _ in $(seq 900); do
		grep -q 'seconds time elapsed' "$r" 2>/dev/null && break
		sleep 0.05
	done
	[ "$(value_of syscalls:sys_enter_write <"$r")" = 1 ]
	# The closer is a fork of pstat (the same command line) in a
	# session of its own; it first closes what it inherited, then the
	# counters. Watch it until it holds counters alone.
	me=$(ps -o sid= -p $$ | tr -d ' ')
	seen=0 other=
	for _ in $(seq 500); do
		for p in $(pgrep -f -- "-o $r "); do
			[ "$(ps -o comm= -p "$p")" = pstat ] || continue
			sid=$(ps -o sid= -p "$p" | tr -d ' ')
			[ -n "$sid" ] && [ "$sid" != "$me" ] || continue
			held=$(closer_fds "$p")
			case $held in
			"perf "*) seen=$((seen + 1))
				echo "closer $p holds $held descriptors" >&3 ;;
			?*) other="closer $p holds $held" ;;
			esac
		done
		[ "$seen" -eq 0 ] || break
		sleep 0.01
	done
	wait "$tracer"
	[ "$seen" -gt 0 ] || { echo "no closer held counters alone; last seen: ${other:-none}"; return 1; }
}

@test "the closer closes its copies only after pstat closed its own" {
	need_perf_events
	need_tracepoint
	command -v strace >/dev/null || skip "strace is not installed"
	# The last close of a counter pays its teardown: that must be the
	# closer's, whatever the scheduling. strace -y names perf fds.
	ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
		strace -f -qq -y -ttt -e trace=close,read -o "$BATS_TEST_TMPDIR/t" \
		"$ROOT/pstat" -e "$(tracepoints 20)" -o /dev/null true
	# the closer outlives pstat: wait for its closes to be traced
	for _ in $(seq 200); do
		[ "$(grep -c 'perf_event' "$BATS_TEST_TMPDIR/t")" -ge 40 ] && break
		sleep 0.05
	done
	me=$(head -1 "$BATS_TEST_TMPDIR/t" | cut -d' ' -f1)
	awk -v me="$me" '/close\([0-9]+<anon_inode:\[perf_event\]>/ {
			if ($1 == me) { if ($2 > mine) mine = $2 }
			else { n++; if (!first || $2 < first) first = $2 }
		}
		END {
			printf "pstat last %.6f closer first %.6f (%d)\n", mine, first, n
			exit !(n >= 20 && mine > 0 && mine < first)
		}' "$BATS_TEST_TMPDIR/t" >&3 ||
		fail "the closer closed a counter before pstat had closed its copies"
	# and pstat lets the closer go (closes the pipe the closer reads to
	# its end) only after its last counter: whatever the scheduling
	# (the last pipe another process reads: before it, the command's)
	pipe=$(awk -v me="$me" '$1 != me && /read\([0-9]+<pipe:\[[0-9]+\]>/ {
			sub(/.*<pipe:\[/, ""); sub(/\].*/, ""); p = $0 }
		END { print p }' "$BATS_TEST_TMPDIR/t")
	[ -n "$pipe" ] || fail "the closer read no release pipe"
	awk -v me="$me" -v pipe="pipe:[$pipe]" '$1 == me {
			if (/close\([0-9]+<anon_inode:\[perf_event\]>/) last = $2
			if (index($0, "close(") && index($0, pipe)) released = $2
		}
		END { exit !(last > 0 && released > last) }' "$BATS_TEST_TMPDIR/t" ||
		fail "pstat released the closer before closing its own counters"
}

@test "a glob of more than 64 tracepoints is events, not one oversized group" {
	need_perf_events
	need_tracepoint
	n=$(ls /sys/kernel/tracing/events/syscalls | grep -c '^sys_enter_')
	[ "$n" -gt 64 ] || skip "only $n syscall tracepoints here"
	w=$(prog writer)
	run "$PSTAT" -e 'syscalls:sys_enter_*' "$w" 9
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 9 ]
	[ "$(grep -c ' syscalls:sys_enter_' <<<"$output")" = "$n" ]
	run "$PSTAT" --dry-run -j -e 'syscalls:sys_enter_*'
	run jq '[.events[] | select(.leader)] | length' <<<"$output"
	assert_output "$n"
}

@test "-r with tracepoints: what one run leaves running is not the next run's" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# each run's command ends at 0.3 s and leaves a child that writes 100
	# times at 0.45 s: in the next run, were the counters that run's
	run --separate-stderr "$PSTAT" -j -r 3 -e syscalls:sys_enter_write -- \
		sh -c '(sleep 0.45; "$1" 100) & sleep 0.3' _ "$w"
	assert_success
	[ "$(jq -c '.counters[0].samples' <<<"$stderr")" = '[0,0,0]' ] ||
		fail "$(jq -c '.counters[0].samples, .time.samples' <<<"$stderr")"
	sleep 0.3
}
