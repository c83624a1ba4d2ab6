#!/usr/bin/env bats
# Repeats (-r, --warmup) and interval mode (-I).

bats_require_minimum_version 1.5.0
load test_helper
load json_helper


@test "-r N: a known tracepoint count has a spread of exactly 0" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	run --separate-stderr "$PSTAT" -j -r 5 -e syscalls:sys_enter_write,task-clock "$w" 100
	assert_success
	run jq -c '.runs, (.counters[0] | [.samples, .mean, .stddev, .stderr, .min, .median, .max, .value])' <<<"$stderr"
	assert_line --index 0 5
	assert_line --index 1 '[[100,100,100,100,100],100,0,0,100,100,100,100]'
	run jq -c '.time.samples | length' <<<"$stderr"
	assert_output 5
}

@test "-r N table: runs in the header, noise column, elapsed +- line" {
	need_perf_events
	run "$PSTAT" -r 4 -e task-clock,page-faults true
	assert_success
	assert_output --partial "Performance counter stats for 'true' (4 runs):"
	assert_output --regexp 'msec task-clock +# +[0-9.]+ CPUs utilized +\( \+- +[0-9.]+% \)'
	assert_output --regexp '[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- +[0-9.]+% \)'
}

@test "a failing run inside a repeat is reported and the rest still run" {
	need_perf_events
	f="$BATS_TEST_TMPDIR/n"
	echo 0 >"$f"
	# the third run exits 3, the fourth 4, the others 0
	cmd='n=$(($(cat "$0") + 1)); echo $n > "$0"; case $n in 3|4) exit $n;; esac'
	run --separate-stderr "$PSTAT" -j -r 5 -e task-clock -- sh -c "$cmd" "$f"
	assert_failure 3
	[ "$(cat "$f")" = 5 ]
	run jq -c '.exit' <<<"$stderr"
	assert_output '{"status":3,"signal":null,"runs":[0,0,3,4,0]}'
	# the table names them after the results
	echo 0 >"$f"
	run --separate-stderr "$PSTAT" -r 5 -e task-clock -- sh -c "$cmd" "$f"
	assert_failure 3
	[ "$(tail -n 1 <<<"$stderr")" = "pstat: warning: 2 of 5 runs failed: run 3 exit 3, run 4 exit 4 (their counts are in the statistics)" ] ||
		fail "$stderr"
	grep -q 'task-clock.*( +-' <<<"$stderr"
}

@test "--warmup runs are not counted" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	f="$BATS_TEST_TMPDIR/n"
	echo 0 >"$f"
	cmd='n=$(($(cat "$0") + 1)); echo $n > "$0"; exec "$1" $n'
	run --separate-stderr "$PSTAT" -j --warmup 2 -r 3 -e syscalls:sys_enter_write -- sh -c "$cmd" "$f" "$w"
	assert_success
	[ "$(cat "$f")" = 5 ]
	# runs 3, 4 and 5 write n times, plus the two writes of the shell
	# itself (cat into the substitution, echo into the file)
	run jq -c '.runs, .counters[0].samples' <<<"$stderr"
	assert_line --index 0 3
	assert_line --index 1 '[5,6,7]'
}

@test "-r needs a command; bad numbers are refused" {
	run "$PSTAT" -r 3 -p 1
	assert_failure 125
	run "$PSTAT" --warmup 2 -p 1 --timeout 100
	assert_failure 125
	assert_line --index 0 "pstat: --warmup needs a command"
	for bad in 0 -1 x 1.5 ''; do
		run "$PSTAT" -r "$bad" true
		assert_failure 125
		assert_output --partial "invalid value '$bad' for -r"
	done
}

# Timestamps (seconds) of the interval lines of a table on stdin.
stamps() {
	awk '/^ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] +[0-9<]/ && !seen[$1]++ { print $1 }'
}

# One -I 10 run of 100 intervals for the deadline test: its timestamps
# into ts, their distances from k x 10 ms into err, the output in $out.
deadline_run() {
	out=$("${rt[@]}" "$PSTAT" -I 10 --interval-count 100 --summary \
		-e task-clock,syscalls:sys_enter_write -- \
		sh -c '"$1" 90 1 0 10; exec sleep 5' _ "$w" 2>&1) || return 1
	stamps <<<"$out" >"$BATS_TEST_TMPDIR/ts"
	awk '{ d = $1 - NR * 0.010; print (d < 0 ? -d : d) }' \
		"$BATS_TEST_TMPDIR/ts" >"$BATS_TEST_TMPDIR/err"
}

@test "-I: 100 intervals of 10 ms stay on their absolute deadlines" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# pstat runs SCHED_FIFO where it may (root): the test is of pstat's
	# deadlines, not of how late a loaded scheduler wakes a normal task.
	# 90 writes 10 ms apart, all done before the 100th interval.
	rt=()
	chrt -f 10 true 2>/dev/null && rt=(chrt -f 10)
	# A virtual CPU the host deschedules (steal time) can still wake
	# even a real-time task late, at random: up to five tries, each of
	# which must count exactly; drift (0.3 ms a line, like perf's) would
	# fail them all.
	for try in 1 2 3 4 5; do
		deadline_run
		# a wakeup later than a whole period merges two intervals
		# (the next line keeps its deadline): a late try, not drift
		lines=$(wc -l <"$BATS_TEST_TMPDIR/ts")
		if [ "$lines" != 100 ]; then
			echo "try $try: $lines lines, a wakeup a period late" >&3
			[ "$lines" -ge 90 ] || fail "$out"
			continue
		fi
		# the interval deltas of the tracepoint sum to the summary: 90
		sum=$(awk '/^ *[0-9]+\.[0-9]+ +[0-9]+ +syscalls:sys_enter_write/ { s += $2 } END { print s }' <<<"$out")
		total=$(awk '/Performance counter stats/ { on = 1 } on' <<<"$out" |
			value_of syscalls:sys_enter_write)
		[ "$total" = 90 ] || fail "summary $total"
		[ "$sum" = 90 ] || fail "intervals sum to $sum"
		worst=$(sort -g "$BATS_TEST_TMPDIR/err" | tail -1)
		median=$(sort -g "$BATS_TEST_TMPDIR/err" | sed -n 50p)
		echo "try $try, ${rt[*]:-not real-time}: median $median worst $worst" >&3
		if [ ${#rt[@]} -gt 0 ]; then
			# every line within 1 ms of its deadline
			awk -v w="$worst" 'BEGIN { exit !(w < 0.001) }' && return 0
		else
			# single late wakeups of a normal task are the
			# scheduler's; the typical line is on time
			awk -v m="$median" 'BEGIN { exit !(m < 0.001) }' && return 0
		fi
	done
	fail "five tries, the last: median $median s, worst $worst s off"
}

@test "-I: a stall of several periods keeps later lines on their deadlines" {
	need_perf_events
	"$PSTAT" -I 10 --interval-count 30 -e task-clock -o "$BATS_TEST_TMPDIR/out" \
		-- sleep 5 &
	pid=$!
	sleep 0.1
	kill -STOP "$pid"
	sleep 0.06
	kill -CONT "$pid"
	wait "$pid"
	stamps <"$BATS_TEST_TMPDIR/out" >"$BATS_TEST_TMPDIR/ts"
	# the stalled periods merge into one line; the last is still the
	# 30th deadline, 300 ms, not a period later per missed deadline
	last=$(tail -1 "$BATS_TEST_TMPDIR/ts")
	n=$(wc -l <"$BATS_TEST_TMPDIR/ts")
	[ "$n" -lt 30 ] || fail "$n lines: no stall seen"
	awk -v l="$last" 'BEGIN { exit !(l > 0.299 && l < 0.320) }' ||
		fail "last line at $last s"
}

@test "-I: interval deltas of a tracepoint sum to the summary count" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# 60 writes 5 ms apart: about 6 intervals, the last one partial
	run "$PSTAT" -I 50 --summary -e syscalls:sys_enter_write -- "$w" 60 1 0 5
	assert_success
	sum=$(awk '/^ *[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9] +[0-9]/ { s += $2 } END { print s }' <<<"$output")
	total=$(awk '/Performance counter stats/ { on = 1 } on' <<<"$output" |
		value_of syscalls:sys_enter_write)
	[ "$total" = 60 ]
	[ "$sum" = 60 ]
	assert_output --partial "is partial"
}

@test "-I -j: JSON Lines, one document per interval then the summary" {
	need_perf_events
	need_tracepoint
	need_jsonschema
	w=$(prog writer)
	"$ROOT/pstat" -j -I 50 -o "$BATS_TEST_TMPDIR/r.jsonl" \
		-e syscalls:sys_enter_write -- "$w" 40 1 0 5
	validate_json "$BATS_TEST_TMPDIR/r.jsonl"
	run jq -s -c '[.[].type] | (.[-1], (.[:-1] | unique))' "$BATS_TEST_TMPDIR/r.jsonl"
	assert_line --index 0 '"summary"'
	assert_line --index 1 '["interval"]'
	# deltas add up to the summary; indexes count from 1; last is partial
	run jq -s -c '[([.[:-1][].counters[0].value] | add), .[-1].counters[0].value,
		(.[:-1] | map(.interval.index) == [range(1; length + 1)]),
		.[-2].interval.partial]' "$BATS_TEST_TMPDIR/r.jsonl"
	assert_output '[40,40,true,true]'
}

@test "-r with -I -j: each interval document names its run" {
	need_perf_events
	run --separate-stderr "$PSTAT" -j -r 2 -I 50 -e task-clock -- sleep 0.12
	assert_success
	# runs 1 and 2, each with intervals 1, 2 and a partial 3
	[ "$(jq -c 'select(.type == "interval") | [.interval.run, .interval.index]' <<<"$stderr" | tr -d '\n')" = '[1,1][1,2][1,3][2,1][2,2][2,3]' ] ||
		fail "$stderr"
	[ "$(jq -c 'select(.type == "summary") | .interval.run' <<<"$stderr")" = null ]
}

@test "-I -x: the timestamp is the first CSV field" {
	need_perf_events
	run "$PSTAT" -x, -I 20 --interval-count 3 -e task-clock -- sleep 1
	assert_success
	# the 3 interval lines lead with their timestamp, then perf's 7 fields
	lines=$(grep -cE '^ *[0-9]+\.[0-9]{9},([0-9.]+|<not counted>),msec,task-clock,' <<<"$output")
	[ "$lines" = 3 ]
}

@test "--warmup: a timeout still counts the runs, a signal says nothing was" {
	need_perf_events
	run --separate-stderr "$PSTAT" -j --warmup 1 -r 2 --timeout 100 -e task-clock -- sleep 1
	[ "$status" -eq 124 ]
	[ "$(jq -c '.runs, .exit.runs' <<<"$stderr" | tr '\n' ' ')" = '2 [124,124] ' ]
	# SIGINT during the warm-up: no run was counted, status 130
	pstat_sigint_after 0.3 --warmup 1 -r 3 -e task-clock \
		-o "$BATS_TEST_TMPDIR/out" -- sleep 2 2>"$BATS_TEST_TMPDIR/err"
	[ "$st" = 130 ] || fail "exit $st"
	grep -q 'warm-up runs were interrupted: nothing was counted' "$BATS_TEST_TMPDIR/err"
}

@test "-r with --timeout: each run gets the timeout, as in perf" {
	need_perf_events
	run "$PSTAT" -j -r 3 --timeout 200 -e task-clock -- sleep 5
	[ "$status" -eq 124 ]
	[ "$(jq '.runs' <<<"$output")" = 3 ]
	[ "$(jq -c '.exit.runs' <<<"$output")" = '[124,124,124]' ]
	# every run ended near its 200 ms
	jq_assert '.time.samples | all(. > 150e6 and . < 1500e6)' <<<"$output"
}

@test "--timeout works with -I" {
	need_perf_events
	run "$PSTAT" -I 100 --timeout 350 -e task-clock -- sleep 5
	assert_failure 124
	[ "$(stamps <<<"$output" | wc -l)" -ge 3 ]
}

@test "Ctrl-C during an interval run prints the partial interval and the summary" {
	need_perf_events
	"$ROOT/pstat" -I 100 --summary -e task-clock sleep 10 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	sleep 0.35
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ]
	grep -q "is partial" "$BATS_TEST_TMPDIR/err"
	grep -q "Performance counter stats for 'sleep 10'" "$BATS_TEST_TMPDIR/err"
}

@test "-I below 10 ms warns; 0 is refused" {
	need_perf_events
	run "$PSTAT" -I 5 --interval-count 2 -e task-clock -- sleep 1
	assert_success
	assert_output --partial "warning: intervals below 10 ms add measurable overhead"
	run "$PSTAT" -I 0 -e task-clock true
	assert_failure 125
}

@test "on a terminal, an interval run ends with a sparkline per event" {
	need_perf_events
	command -v script >/dev/null || skip "script(1) is not installed"
	run script -qc "'$ROOT/pstat' -I 30 --interval-count 5 -e task-clock,cs sleep 1" /dev/null
	assert_output --partial "Rates per interval:"
	assert_output --regexp 'task-clock +[▁▂▃▄▅▆▇█]{5}'
}

@test "--interval-count without -I is a usage error" {
	run "$PSTAT" --interval-count 3 -e task-clock true
	assert_failure 125
	assert_line --index 0 "pstat: --interval-count needs -I MS"
}

@test "-r N: metrics are those of the means, and counts print whole, as perf" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	# 10, 20, 30 writes in three runs
	echo 0 >"$BATS_TEST_TMPDIR/n"
	script="n=\$(( \$(cat '$BATS_TEST_TMPDIR/n') + 10 )); echo \$n >'$BATS_TEST_TMPDIR/n'; exec '$w' \$n"
	run --separate-stderr "$PSTAT" -j -r 3 -e task-clock,syscalls:sys_enter_write -- sh -c "$script"
	assert_success
	doc=$stderr
	# (plus the shell's own writes): the last run is not the mean
	run jq -r '.counters[1] | [.samples[1] - .samples[0], .samples[2] - .samples[1], .value == (.samples | add / 3)] | tostring' <<<"$doc"
	assert_output '[10,10,true]'
	# /sec of the mean count over the mean task-clock; CPUs utilized of
	# the mean task-clock over the mean elapsed time
	run jq -r '(.counters[0].value) as $t | (.counters[1].metric.value - .counters[1].value / ($t / 1e3)) / .counters[1].metric.value | fabs < 1e-9' <<<"$doc"
	assert_output true
	run jq -r '(.counters[0].metric.value - .counters[0].value * 1e6 / .time.mean) / .counters[0].metric.value | fabs < 1e-6' <<<"$doc"
	assert_output true
	run "$PSTAT" -r 3 -e page-faults true
	assert_success
	grep -Eq '^ +[0-9]+ +page-faults ' <<<"$output"
}

@test "-r: a run that did not count is a null sample, and --fail-on sees it" {
	need_perf_events
	# the first run ends before the -D delay (nothing counted), the
	# others after it
	cmd='if [ -e "$0" ]; then sleep 0.3; else touch "$0"; fi'
	run --separate-stderr "$PSTAT" -j -r 3 -D 100 -e task-clock -- \
		sh -c "$cmd" "$BATS_TEST_TMPDIR/flag"
	assert_success
	[ "$(jq -c '.counters[0].samples | map(. == null)' <<<"$stderr")" = '[true,false,false]' ] ||
		fail "$stderr"
	jq_assert '.counters[0].mean > 0 and .counters[0].stddev != null' <<<"$stderr"
	# the last run counted; the first did not: --fail-on=not-counted
	rm -f "$BATS_TEST_TMPDIR/flag"
	run "$PSTAT" --fail-on=not-counted -r 3 -D 100 -e task-clock -- \
		sh -c "$cmd" "$BATS_TEST_TMPDIR/flag"
	assert_failure 5
}
