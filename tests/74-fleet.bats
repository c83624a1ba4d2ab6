#!/usr/bin/env bats
# What a fleet runs around `pstat serve`: counters that did not count are
# series that say so, --per-thread series a query can add up by command;
# the systemd unit (systemd-analyze, and its sandbox as a user with
# CAP_PERFMON), the Prometheus rules (promtool) and the Grafana dashboard
# (each panel's query against a real Prometheus that scraped pstat) of
# contrib/. Every server listens on 127.0.0.1.

load test_helper
load serve_helper

teardown() {
	[ -z "${spid:-}" ] || kill -KILL "$spid" 2>/dev/null || true
	[ -z "${prom:-}" ] || kill -KILL "$prom" 2>/dev/null || true
	[ -z "${wpid:-}" ] || kill -KILL "$wpid" 2>/dev/null || true
}

@test "fleet: an event the machine lacks is pstat_counted 0, not a missing series" {
	need_serve
	need_om_parser
	"$PSTAT" --openmetrics -e cycles true 2>/dev/null |
		grep -q '^pstat_events_total{event="cycles"' &&
		skip "this machine counts cycles"
	serve_bg -e task-clock,cycles,instructions -I 100
	curl -sf -H 'Accept: application/openmetrics-text' \
		-o "$BATS_TEST_TMPDIR/o" "$url/metrics"
	run om_check openmetrics "$BATS_TEST_TMPDIR/o"
	assert_success
	assert_line 'family pstat_counted gauge -'
	assert_line 'sample pstat_counted{event="cycles",pmu="cpu"} 0.0'
	assert_line 'sample pstat_counted{event="instructions",pmu="cpu"} 0.0'
	assert_line 'sample pstat_counted{event="task-clock",pmu="software"} 1.0'
	# no count that would pass for a real 0
	refute_line --regexp '^sample pstat_(events|enabled_seconds|running_seconds)_total\{event="cycles"'
	stop_serve
	[ "$st" = 0 ]
}

@test "fleet: -p --per-thread series carry comm and tid, to add up by command" {
	need_serve
	need_tracepoint
	t=$(prog threads)
	"$t" 3 100 1500 >"$BATS_TEST_TMPDIR/ready" &
	wpid=$!
	for _ in $(seq 50); do
		grep -q ready "$BATS_TEST_TMPDIR/ready" && break
		sleep 0.1
	done
	serve_bg -p "$wpid" --per-thread -e syscalls:sys_enter_write -I 100
	wait "$wpid"
	wpid=
	sleep 0.4
	curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
	comm=$(sed -n 's/^pstat_events_total{.*comm="\([^"]*\)".*/\1/p' "$BATS_TEST_TMPDIR/m" | sort -u)
	[ "$comm" = prog-threads ] || { cat "$BATS_TEST_TMPDIR/m"; false; }
	# one series per thread, each its own tid, no "thread" label
	[ "$(grep -c '^pstat_events_total{' "$BATS_TEST_TMPDIR/m")" = 4 ]
	[ "$(grep -o 'tid="[0-9]*"' "$BATS_TEST_TMPDIR/m" | sort -u | wc -l)" = 4 ]
	run grep -c 'thread="' "$BATS_TEST_TMPDIR/m"
	assert_output 0
	# sum by (comm): 100 + 200 + 300 writes
	run awk '/^pstat_events_total\{.*comm="prog-threads"/ { s += $NF } END { print s }' "$BATS_TEST_TMPDIR/m"
	assert_output 600
	stop_serve
	[ "$st" = 0 ]
}
