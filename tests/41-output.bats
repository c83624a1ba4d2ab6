#!/usr/bin/env bats
# Output details on live runs: the locale, -B, --fail-on, sysfs units.

bats_require_minimum_version 1.5.0
load test_helper
load json_helper

@test "a decimal-comma locale localises the table, never JSON or CSV" {
	need_perf_events
	comma_locale || skip "no locale with a decimal comma"
	t=$(prog toucher)
	run env LC_ALL="$loc" "$ROOT/pstat" -B -e task-clock,page-faults "$t" 2000
	assert_success
	# the table: decimal comma, thousands grouped with '.'
	assert_output --regexp '[0-9]+,[0-9][0-9] msec task-clock'
	assert_output --regexp ' [0-9]\.[0-9]{3} +page-faults'
	# JSON and CSV: the C locale whatever LC_ALL says
	LC_ALL="$loc" "$ROOT/pstat" -j -o "$BATS_TEST_TMPDIR/r.json" -e task-clock "$t" 10
	validate_json "$BATS_TEST_TMPDIR/r.json"
	jq -e '.counters[0].value | type == "number"' "$BATS_TEST_TMPDIR/r.json"
	run env LC_ALL="$loc" "$ROOT/pstat" -x, -e task-clock "$t" 10
	assert_output --regexp '^[0-9]+\.[0-9][0-9],msec,task-clock,[0-9]+,100\.00,[0-9]+\.[0-9]+,CPUs utilized$'
}

@test "--no-big-num and -x never group digits; -x with -B is refused" {
	need_perf_events
	comma_locale || skip "no locale with a decimal comma"
	t=$(prog toucher)
	run env LC_ALL="$loc" "$ROOT/pstat" --no-big-num -e page-faults "$t" 2000
	assert_success
	assert_output --regexp ' [0-9]{4} +page-faults'
	run env LC_ALL="$loc" "$ROOT/pstat" -x, -e page-faults "$t" 2000
	assert_success
	assert_output --regexp '^[0-9]{4},,page-faults,'
	run "$PSTAT" -x, -B -e task-clock true
	assert_failure 125
	assert_output --partial "-x and -B cannot be combined"
}

@test "--fail-on=not-supported exits 5 after printing, on a machine without counters" {
	need_perf_events
	[ ! -e /sys/bus/event_source/devices/cpu ] || skip "this machine has a core PMU"
	run "$PSTAT" --fail-on=not-supported -e task-clock,cycles true
	assert_failure 5
	assert_output --regexp '<not supported> +cycles'
	assert_output --partial "--fail-on"
	# -j still writes one complete document, to stderr, and nothing else
	run --separate-stderr "$PSTAT" -j --fail-on=not-supported -e cycles true
	assert_failure 5
	jq -e '.counters[0].status == "not_supported" and .exit.status == 5' <<<"$stderr"
}

@test "--fail-on=not-counted and a clean run" {
	need_perf_events
	run "$PSTAT" --fail-on=not-counted -D 1000 -e task-clock true
	assert_failure 5
	run "$PSTAT" --fail-on=not-counted,multiplexed,not-supported -e task-clock true
	assert_success
	# the command's own failure wins over --fail-on
	run "$PSTAT" --fail-on=not-counted -D 1000 -e task-clock -- sh -c 'exit 9'
	assert_failure 9
}

@test "--fail-on rejects unknown states" {
	run "$PSTAT" --fail-on=broken -e task-clock true
	assert_failure 125
	assert_output --partial "invalid --fail-on state 'broken'"
}

@test "-o writes '# started on' for CSV too, and JSON with -o is a file" {
	need_perf_events
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/r.csv" -e task-clock true
	run head -1 "$BATS_TEST_TMPDIR/r.csv"
	assert_output --regexp '^# started on '
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/r.json" -e task-clock true
	validate_json "$BATS_TEST_TMPDIR/r.json"
}

@test "every CSV line has 7 fields, or 8 with -I / -A" {
	need_perf_events
	count() { /usr/bin/python3 -c 'import csv,sys
for r in csv.reader(sys.stdin):
    if r and not r[0].startswith("#"): print(len(r))' | sort -u | paste -sd' '; }
	[ "$("$ROOT/pstat" -x, -e task-clock,cycles,cs true 2>&1 | count)" = 7 ]
	[ "$("$ROOT/pstat" -x, -I 20 --interval-count 2 -e task-clock,cs sleep 1 2>&1 | grep -v '^$' | count)" = 8 ]
	[ "$("$ROOT/pstat" -x, -a -A -e cs --timeout 50 2>&1 | count)" = 8 ]
	[ "$("$ROOT/pstat" -x';' -e 'msr/tsc,name=a;b/' true 2>&1 | grep -v '^$' | /usr/bin/python3 -c 'import csv,sys
print(sorted({len(r) for r in csv.reader(sys.stdin, delimiter=";") if r}))')" = "[7]" ]
}

@test "sysfs .scale and .unit apply in every output" {
	# power/energy-pkg/ from a fixture tree, opened on this machine: the
	# type does not exist here, so only --dry-run can show it
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" --dry-run -e power/energy-pkg/
	assert_success
	assert_output --partial "scale 2.32831e-10 unit Joules"
}
