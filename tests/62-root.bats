#!/usr/bin/env bats
# Safe as root: results files that another local user cannot turn against
# their owner, signals that never lose the report nor leave the command
# running, FIFOs that never hang pstat. The cases that need a second user
# run as root with user nobody as the other one, and skip where either is
# not possible.

bats_require_minimum_version 1.5.0

load test_helper
load json_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ulimit -c 0
	BG=()
	SHARED=
}

teardown() {
	local p

	for p in "${BG[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	[ -n "$SHARED" ] && rm -rf "$SHARED"
	return 0
}

# A directory like /tmp (sticky, anyone may write), in $SHARED, that
# user nobody can reach.
need_shared_tmp() {
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	SHARED=$(mktemp -d /tmp/pstat-62.XXXXXX)
	chmod 755 "$SHARED"
	mkdir -m 1777 "$SHARED/tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		touch "$SHARED/tmp/.probe" 2>/dev/null ||
		skip "user nobody cannot write to a directory of /tmp here"
	rm -f "$SHARED/tmp/.probe"
}

# What user nobody does: nobody CMD...
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Start pstat ARGS in the background (no wrapper: the signals and timing
# are pstat's); sets $pid.
pstat_bg() {
	"$ROOT/pstat" "$@" &
	pid=$!
	BG+=("$pid")
}

# Wait until process $1 has a child running $2; its pid in $child.
wait_child() {
	local i c

	for i in $(seq 3000); do
		for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
			if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = "$2" ]; then
				child=$c
				return 0
			fi
		done
		sleep 0.01
	done
	fail "no child '$2' of $1 appeared"
}

# Wait up to 5 s for process $1 to be gone; fails if it is not.
wait_gone() {
	local i

	for i in $(seq 500); do
		[ -e "/proc/$1" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ] ||
			return 0
		sleep 0.01
	done
	fail "process $1 ($(cat /proc/"$1"/comm 2>/dev/null)) still runs"
}

# --- signals ---------------------------------------------------------

@test "root: QUIT, USR1, USR2, ABRT to pstat: passed on, report, 128+N" {
	need_perf_events
	local sig st

	for sig in QUIT USR1 USR2 ABRT; do
		pstat_bg -j -o out.json -e task-clock -- sleep 10
		wait_child "$pid" sleep
		kill -"$sig" "$pid"
		st=0
		wait "$pid" || st=$?
		[ "$st" = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $st"
		jq_assert --arg s "SIG$sig" '.exit.signal == $s and (.counters | length) == 1' out.json
		wait_gone "$child"
	done
}

@test "root: SIGALRM to pstat is ignored" {
	need_perf_events
	pstat_bg -j -o out.json -e task-clock -- sleep 0.5
	wait_child "$pid" sleep
	kill -ALRM "$pid"
	wait "$pid"
	jq_assert '.exit.status == 0' out.json
}

@test "root: pstat killed by SIGKILL takes its command along, unless --keep-on-exit" {
	need_perf_events
	pstat_bg -e task-clock -- sleep 30
	wait_child "$pid" sleep
	kill -KILL "$pid"
	wait_gone "$child"
	pstat_bg --keep-on-exit -e task-clock -- sleep 30
	wait_child "$pid" sleep
	kill -KILL "$pid"
	sleep 0.3
	[ -e "/proc/$child" ] || fail "--keep-on-exit: the command was killed"
	kill "$child"
}
