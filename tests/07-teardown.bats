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
	w=$(prog writer)
	# earlier closers keep the tracepoints in use, which makes closing
	# cheap: let them finish first (they take seconds, not minutes)
	for _ in $(seq 300); do pgrep -r D,R,S -x pstat >/dev/null || break; sleep 0.2; done
	"$PSTAT" -e "$(tracepoints 200)" -o "$BATS_TEST_TMPDIR/r" "$w" 1
	# the closer, a fork of pstat (the same command line), runs on in a
	# session of its own; it first closes what it inherited, then the
	# counters. How long it lives is the kernel's business: watch it
	# until it holds counters alone, or has gone.
	me=$(ps -o sid= -p $$ | tr -d ' ')
	seen=0 other=
	for _ in $(seq 500); do
		closers=$(pgrep -f -- "-o $BATS_TEST_TMPDIR/r ") || break
		for p in $closers; do
			sid=$(ps -o sid= -p "$p" | tr -d ' ') || continue
			[ "$sid" != "$me" ]
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
	if [ "$seen" -eq 0 ]; then
		[ -z "$other" ] || { echo "$other"; return 1; }
		skip "the kernel closed 200 tracepoints before the closer could be watched"
	fi
}
