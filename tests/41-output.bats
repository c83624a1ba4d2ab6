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
	jq_assert '.counters[0].value | type == "number"' "$BATS_TEST_TMPDIR/r.json"
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
	jq_assert '.counters[0].status == "not_supported" and .exit.status == 5' <<<"$stderr"
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

@test "every CSV line of one output has the same fields: 7, one more per leading column or -r" {
	need_perf_events
	# the field counts of the data lines of one output ('#' comments and
	# blank lines aside), as one line: "8" when they all agree
	count() { /usr/bin/python3 -c 'import csv,sys
print(*sorted({len(r) for r in csv.reader(sys.stdin)
               if r and not r[0].startswith("#")}))'; }
	[ "$("$ROOT/pstat" -x, -e task-clock,cycles,cs true 2>&1 | count)" = 7 ]
	[ "$("$ROOT/pstat" -x, -I 20 --interval-count 2 -e task-clock,cs sleep 1 2>&1 | count)" = 8 ]
	# -r adds perf's noise column after the event
	[ "$("$ROOT/pstat" -x, -r 2 -e task-clock,cs true 2>&1 | count)" = 8 ]
	# -r with -I: one count for the interval and the summary lines (9
	# when the interval lines carry the noise column too, as perf's do)
	run "$ROOT/pstat" -x, -r 2 -I 20 --summary -e task-clock,cs sleep 0.1
	assert_success
	[[ $(count <<<"$output") =~ ^(8|9)$ ]]
	[ "$(grep -c summary <<<"$output")" = 2 ]
	# --per-thread: the thread leads; with -I the time before it
	sleep 5 >/dev/null 2>&1 3>&- &
	p=$!
	[ "$("$ROOT/pstat" -x, --per-thread -p "$p" -e task-clock,cs --timeout 100 2>&1 | count)" = 8 ]
	[ "$("$ROOT/pstat" -x, --per-thread -p "$p" -I 30 -e task-clock,cs --timeout 100 2>&1 | count)" = 9 ]
	kill "$p"
	[ "$("$ROOT/pstat" -x';' -e 'msr/tsc,name=a;b/' true 2>&1 | grep -v '^$' | /usr/bin/python3 -c 'import csv,sys
print(sorted({len(r) for r in csv.reader(sys.stdin, delimiter=";") if r}))')" = "[7]" ]
	# -A: the CPU leads
	need_cpu_wide
	[ "$("$ROOT/pstat" -x, -a -A -e cs --timeout 50 2>&1 | count)" = 8 ]
	# -A with -I: the time, then the CPU
	[ "$("$ROOT/pstat" -x, -a -A -I 20 --interval-count 2 -e cs 2>&1 | count)" = 9 ]
	# -A with -r: the CPU and the noise column
	[ "$("$ROOT/pstat" -x, -a -A -r 2 -e cs true 2>&1 | count)" = 9 ]
}

@test "sysfs .scale and .unit apply in every output" {
	# power/energy-pkg/ from a fixture tree, opened on this machine: the
	# type does not exist here, so only --dry-run can show it
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" --dry-run -e power/energy-pkg/
	assert_success
	assert_output --partial "scale 2.32831e-10 unit Joules"
}

# A copy of the real msr PMU (type, format, events) under a temporary
# PSTAT_SYSFS_ROOT, its tsc event given a scale and a unit: the kernel
# counts the real event, pstat applies what the copy says.
@test "sysfs .scale and .unit apply to a real run in the table, CSV and JSON" {
	need_perf_events
	local real=/sys/bus/event_source/devices/msr scale=6.103515625e-05
	[ -r "$real/type" ] && [ -r "$real/events/tsc" ] ||
		skip "no msr PMU with a tsc event here"
	need_msr
	root="$BATS_TEST_TMPDIR/sysfs"
	d="$root/bus/event_source/devices/msr"
	mkdir -p "$d/format" "$d/events"
	cp "$real/type" "$d/"
	cp "$real"/format/* "$d/format/"
	cp "$real"/events/* "$d/events/"
	echo "$scale" >"$d/events/tsc.scale"
	echo MiB >"$d/events/tsc.unit"
	export PSTAT_SYSFS_ROOT="$root"
	sp=$(prog spinner)
	# JSON: value is raw x scale, in MiB
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/r.json" -e msr/tsc/ "$sp" 1 50
	validate_json "$BATS_TEST_TMPDIR/r.json"
	run jq -r '.counters[0] | [.status, .unit] | @tsv' "$BATS_TEST_TMPDIR/r.json"
	assert_output $'counted\tMiB'
	/usr/bin/python3 - "$BATS_TEST_TMPDIR/r.json" "$scale" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))["counters"][0]
want = c["raw"] * float(sys.argv[2])
assert c["raw"] > 0 and abs(c["value"] - want) <= 1e-9 * want, (c, want)
EOF
	raw=$(jq '.counters[0].raw' "$BATS_TEST_TMPDIR/r.json")
	# the table and CSV of another run of the same spin: scaled (not
	# 16384 times that), with two decimals and the unit
	run "$PSTAT" -e msr/tsc/ "$sp" 1 50
	assert_success
	assert_output --regexp ' [0-9]+\.[0-9]{2} MiB  msr/tsc/'
	v=$(value_of msr/tsc/ <<<"$output")
	awk -v v="$v" -v w="$raw" -v s="$scale" \
		'BEGIN { r = v / (w * s); exit !(r > 0.25 && r < 4) }'
	run "$PSTAT" -x, -e msr/tsc/ "$sp" 1 50
	assert_success
	assert_output --regexp '^[0-9]+\.[0-9]{2},MiB,msr/tsc/,[0-9]+,100\.00,,$'
	v=${output%%,*}
	awk -v v="$v" -v w="$raw" -v s="$scale" \
		'BEGIN { r = v / (w * s); exit !(r > 0.25 && r < 4) }'
}

@test "-j -r: a counter that was not counted has null samples and statistics" {
	need_perf_events
	# msr/tsc/u is not supported (the PMU cannot exclude the kernel);
	# -D 1000 delays counting past the end of true: not counted
	run --separate-stderr "$PSTAT" -j -r 2 -e task-clock,msr/tsc/u true
	assert_success
	jq_assert '.counters[1].status == "not_supported" or
		(.counters[1].status == "error")' <<<"$stderr"
	run jq -c '.counters[] | [.samples, .mean, .stddev, .min, .median, .max]' <<<"$stderr"
	assert_line --index 1 '[[null,null],null,null,null,null,null]'
	jq_assert '.counters[0] | .mean > 0 and (.samples | length == 2)' <<<"$stderr"
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/nc.json" -r 2 -D 1000 -e task-clock true
	validate_json "$BATS_TEST_TMPDIR/nc.json"
	run jq -c '.counters[0] | [.status, .value, .samples, .mean]' "$BATS_TEST_TMPDIR/nc.json"
	assert_output '["not_counted",null,[null,null],null]'
}
