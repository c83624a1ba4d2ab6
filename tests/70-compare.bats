#!/usr/bin/env bats
# pstat compare and pstat --baseline: thresholds, Welch's test, verdicts,
# exit statuses (0 no regression, 3 regression, 4 not comparable, 125
# usage), the three formats, and runs compared end to end. Hand-made runs
# are in tests/data/compare (valid pstat/1 documents, checked below).

bats_require_minimum_version 1.5.0
load test_helper
load json_helper

D="$ROOT/tests/data/compare"
CMP_SCHEMA="$ROOT/schema/pstat-compare.schema.json"

# cmp_json NAME ARGS...: pstat compare --format json ARGS into
# $BATS_TEST_TMPDIR/NAME.json, checked against the compare schema; sets
# $status and $out (the file).
cmp_json() {
	local name=$1
	shift
	out="$BATS_TEST_TMPDIR/$name.json"
	run "$PSTAT" compare --format json -o "$out" "$@"
	[ -s "$out" ] || return 0
	validate_json "$out" "$CMP_SCHEMA"
}

# entry FILE NAME FILTER: FILTER over the entry called NAME.
entry() {
	jq -c --arg n "$2" ".entries[] | select(.name == \$n) | $3" "$1"
}

# reldiff A B: fails unless |A - B| <= 1e-8 |B| (B not 0).
close_to() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = b < 0 ? -b : b; exit !(d <= 1e-8 * m) }' ||
		{ echo "$1 is not close to $2" >&2; return 1; }
}

@test "the hand-made runs are valid pstat/1 documents" {
	validate_json_files "$ROOT/schema/pstat.schema.json" \
		"$D"/*-base.json "$D"/*-new.json "$D"/*.jsonl
}

@test "compare --help; usage errors exit 125 with one line and a hint" {
	run "$PSTAT" compare --help
	assert_success
	assert_line --index 0 --partial 'usage: pstat compare'
	for args in "" "$D/tight-base.json" "a b c" "--bogus a b" "-x a b" \
		"--format" "--format yaml a b" "--alpha 0 a b" "--alpha 1 a b" \
		"--alpha 1e-3 a b" "--alpha -0.1 a b" "--alpha .05x a b" \
		"--threshold cycles a b" "--threshold cycles=5 a b" \
		"--threshold =5% a b" "--threshold cycles=+ a b" \
		"--threshold cycles=abc% a b" "--threshold cycles=5%, a b" \
		"--threshold cycles=1e9% a b"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$PSTAT" compare $args
		[ "$status" = 125 ] || { echo "args: $args: exit $status" >&2; false; }
		[ -z "$output" ]
		run grep -c '' <<<"$stderr"
		[ "$output" -le 2 ]
		[[ $stderr == "pstat: "* ]]
	done
	run --separate-stderr "$PSTAT" compare --threshold cycles=5 a b
	assert_equal "$stderr" "pstat: invalid --threshold 'cycles=5': invalid limit in 'cycles=5': write N% (relative) or +N (absolute)
pstat: hint: e.g. --threshold 'instructions:u=0.5%,page-faults=+100,*=5%'"
}

@test "a 1% instruction regression with tight samples is flagged at 0.5%" {
	cmp_json tight --threshold instructions:u=0.5% "$D/tight-base.json" "$D/tight-new.json"
	assert_failure 3
	run entry "$out" instructions:u '[.verdict, .delta, .delta_pct, .limit, .test.p < 0.05]'
	assert_output '["regressed",10000,1,{"kind":"relative","value":0.5,"rule":"instructions:u=0.5%"},true]'
	run entry "$out" cycles:u .verdict
	assert_output '"unchanged"'
	run jq -c '[.exit_status, .summary]' "$out"
	assert_output '[3,{"regressed":1,"improved":0,"unchanged":3,"within_noise":0,"missing":0,"invalid":0}]'
	# the default limit (*=5%) lets the same 1% pass
	run "$PSTAT" compare "$D/tight-base.json" "$D/tight-new.json"
	assert_success
	assert_line --regexp '^instructions:u +1,000,000 +1,010,000 +\+10,000 +\+1\.00% +<0\.001 +unchanged$'
}

@test "the same delta with wide samples is within noise" {
	cmp_json wide --threshold instructions:u=0.5% "$D/wide-base.json" "$D/wide-new.json"
	assert_success
	run entry "$out" instructions:u '[.verdict, .delta_pct, .test.ci_low < 0, .test.ci_high > 0]'
	assert_output '["within_noise",1,true,true]'
	# p from scipy.stats.ttest_ind(new, base, equal_var=False) (scipy 1.10)
	close_to "$(entry "$out" instructions:u .test.p)" 0.8464709914010374
	run "$PSTAT" compare --threshold instructions:u=0.5% "$D/wide-base.json" "$D/wide-new.json"
	assert_line --regexp '^instructions:u .* 0\.846 +within noise \(limit 0\.5%\)$'
	assert_line 'no regression: 3 unchanged, 1 within noise'
}

@test "Welch's t, df, p and the interval match values computed independently" {
	cmp_json ttest --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	assert_failure 3
	# Reference values: /usr/bin/python3 with scipy 1.10 on the samples in
	# ttest-{base,new}.json: scipy.stats.ttest_ind(new, base,
	# equal_var=False) for t and p; df by Welch-Satterthwaite; the
	# interval mean(new) - mean(base) +- t.ppf(1 - alpha/2, df) * se.
	t=$(jq '.entries[0].test' "$out")
	close_to "$(jq .t <<<"$t")" 2.401922307076307
	close_to "$(jq .df <<<"$t")" 8.989361702127662
	close_to "$(jq .p <<<"$t")" 0.03980308202413626
	close_to "$(jq .ci_low <<<"$t")" 0.14504735609579322
	close_to "$(jq .ci_high <<<"$t")" 4.854952643904207
	[ "$(jq .confidence <<<"$t")" = 0.95 ]
	run entry "$out" instructions '[.verdict, .delta, .base.n, .new.n]'
	assert_output '["regressed",2.5,5,6]'
	# --alpha sets the level and the interval with it
	cmp_json ttest90 --alpha 0.1 --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	t=$(jq '.entries[0].test' "$out")
	close_to "$(jq .ci_low <<<"$t")" 0.591778464310611
	close_to "$(jq .ci_high <<<"$t")" 4.408221535689389
	[ "$(jq .confidence <<<"$t")" = 0.9 ]
	# a stricter alpha than p: the change is no longer significant
	cmp_json ttest01 --alpha 0.01 --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	run entry "$out" instructions .verdict
	assert_output '"within_noise"'
}

@test "metrics have their own direction: insn per cycle up is an improvement" {
	cmp_json ipc --threshold 'instructions:u=0.5%,insn per cycle=0.5%' \
		"$D/tight-base.json" "$D/tight-new.json"
	assert_failure 3
	run entry "$out" 'instructions:u: insn per cycle' '[.metric, .higher_is_better, .verdict, .test]'
	assert_output '["insn per cycle",true,"improved",null]'
	# the other way round: instructions improve, IPC regresses
	cmp_json ipc-rev --threshold 'instructions:u=0.5%,insn per cycle=0.5%' \
		"$D/tight-new.json" "$D/tight-base.json"
	assert_failure 3
	run jq -c '[.entries[] | [.name, .verdict]]' "$out"
	assert_output '[["instructions:u","improved"],["instructions:u: insn per cycle","regressed"],["cycles:u","unchanged"],["page-faults","unchanged"]]'
	# GHz restates cycles and time: not an entry of its own
	run jq -c '[.entries[].metric | select(. == "GHz")]' "$out"
	assert_output '[]'
}

@test "without samples the limit alone decides; absolute limits" {
	cmp_json single --threshold page-faults=+100 "$D/single-base.json" "$D/single-new.json"
	assert_failure 3
	run jq -c '[.entries[] | [.name, .verdict, .test, .limit.kind]]' "$out"
	assert_output '[["page-faults","regressed",null,"absolute"],["branches","unchanged",null,"relative"],["branch-misses","regressed",null,"relative"],["branch-misses: of all branches","regressed",null,"relative"]]'
	# a pattern meets a metric by the metric's name
	cmp_json single2 --threshold 'page-faults=+150,branch*=20%,of all *=20%' "$D/single-base.json" "$D/single-new.json"
	assert_success
	run jq -c '[.entries[] | .verdict] | unique' "$out"
	assert_output '["unchanged"]'
}

@test "rules: exact names beat patterns beat *, and the last given wins" {
	cmp_json rules --threshold '*=0%,instructions:*=50%,instructions:u=0.5%' \
		--threshold 'page-*=10%' --threshold 'instructions:u=0.7%' \
		"$D/tight-base.json" "$D/tight-new.json"
	run jq -c '[.entries[] | [.name, .limit.rule]]' "$out"
	assert_output '[["instructions:u","instructions:u=0.7%"],["instructions:u: insn per cycle","*=0%"],["cycles:u","*=0%"],["page-faults","page-*=10%"]]'
	# a PMU event's commas and '=' stay in its name; unused rules are
	# pointed out
	run --separate-stderr "$PSTAT" compare --threshold 'cpu/event=0x3c,umask=0/u=2%' \
		"$D/tight-base.json" "$D/tight-new.json"
	assert_success
	assert_equal "$stderr" "pstat: warning: --threshold rule 'cpu/event=0x3c,umask=0/u=2%' applies to no counter"
}

@test "a multiplexed counter is invalid, never compared" {
	cmp_json mux "$D/tight-base.json" "$D/mux-new.json"
	assert_failure 4
	run entry "$out" cycles:u '[.verdict, .reason, .delta, .new.status, .new.value]'
	assert_output '["invalid","multiplexed in new",null,"multiplexed",null]'
	run "$PSTAT" compare "$D/mux-new.json" "$D/tight-base.json"
	assert_failure 4
	assert_line --regexp '^cycles:u +- +800,000 +- +- +- +invalid: multiplexed in base$'
	assert_line 'not comparable: 3 unchanged, 1 invalid'
}

@test "a missing event is reported on either side and is not comparable" {
	cmp_json missing "$D/tight-base.json" "$D/missing-new.json"
	assert_failure 4
	run entry "$out" page-faults '[.verdict, .reason, .base.value, .new]'
	assert_output '["missing","only in base",120,null]'
	cmp_json missing-rev "$D/missing-new.json" "$D/tight-base.json"
	assert_failure 4
	run entry "$out" page-faults '[.verdict, .reason]'
	assert_output '["missing","only in new"]'
	# a regression found stands over the missing one
	cmp_json missing-reg --threshold instructions:u=0.5% "$D/missing-new.json" "$D/tight-new.json"
	assert_failure 3
	# nothing in common at all
	run "$PSTAT" compare "$D/ttest-base.json" "$D/single-new.json"
	assert_failure 4
	assert_line 'not comparable: 4 missing'
}

@test "-I output: the summary on the last line is compared" {
	run "$PSTAT" compare "$D/intervals.jsonl" "$D/intervals.jsonl"
	assert_success
	assert_line --regexp '^page-faults +120 +120 +0 +0\.00% +- +unchanged$'
	run --separate-stderr "$PSTAT" compare "$D/intervals.jsonl" "$D/intervals-cut.jsonl"
	assert_failure 4
	assert_equal "$stderr" "pstat: cannot read the run in '$D/intervals-cut.jsonl': no summary after the interval documents (the run was cut short?)"
}

@test "unreadable, truncated, binary, empty and wrong-schema input exit 4" {
	t=$BATS_TEST_TMPDIR
	head -c 700 "$D/tight-base.json" >"$t/truncated.json"
	printf '{"schema": "pstat/1"\0\1\2' >"$t/binary.json"
	: >"$t/empty.json"
	printf '{"schema": "pstat/1", "type": "summary"} trailing' >"$t/trailing.json"
	printf '{"schema": "pstat/1", "type": "summary", "runs": 1, "counters": [{"event": "x", "status": "counted", "value": "12"}]}' >"$t/badtype.json"
	for f in "$t/nonexistent.json" "$t" "$t/truncated.json" "$t/binary.json" \
		"$t/empty.json" "$t/trailing.json" "$t/badtype.json" \
		"$D/wrong-schema.json"; do
		for args in "$f $D/tight-base.json" "$D/tight-base.json $f"; do
			# shellcheck disable=SC2086
			run --separate-stderr "$PSTAT" compare $args
			[ "$status" = 4 ] || { echo "$args: exit $status" >&2; false; }
			[ -z "$output" ]
			run grep -c '' <<<"$stderr"
			[ "$output" -le 2 ]
		done
	done
	run --separate-stderr "$PSTAT" compare "$t/truncated.json" "$D/tight-base.json"
	[[ $stderr == "pstat: cannot read the run in '$t/truncated.json': truncated JSON at line "[0-9]*": "* ]]
	run --separate-stderr "$PSTAT" compare "$t/binary.json" "$D/tight-base.json"
	assert_equal "$stderr" "pstat: cannot read the run in '$t/binary.json': binary data (a NUL byte at offset 20), not JSON"
	run --separate-stderr "$PSTAT" compare "$D/wrong-schema.json" "$D/tight-base.json"
	assert_equal "$stderr" "pstat: cannot read the run in '$D/wrong-schema.json': schema is 'pstat-list/1', not 'pstat/1'
pstat: hint: compare files written by 'pstat -j -o FILE'"
	run --separate-stderr "$PSTAT" compare "$t/badtype.json" "$D/tight-base.json"
	assert_equal "$stderr" "pstat: cannot read the run in '$t/badtype.json': counters[0].value is not a number or null"
	run --separate-stderr "$PSTAT" compare "$t/nonexistent.json" "$D/tight-base.json"
	assert_equal "$stderr" "pstat: cannot read '$t/nonexistent.json': No such file or directory"
}

@test "markdown: a one-line verdict, then a table ready for a pull request" {
	run "$PSTAT" compare --format markdown --threshold instructions:u=0.5% \
		"$D/tight-base.json" "$D/mux-new.json"
	assert_failure 4
	run "$PSTAT" compare --format markdown --threshold instructions:u=0.5% \
		"$D/tight-base.json" "$D/tight-new.json"
	assert_failure 3
	assert_line --index 0 --regexp '^\*\*pstat: regression\*\*: 1 regressed, 3 unchanged \(base .*tight-base\.json, 5 runs; new .*tight-new\.json, 5 runs; alpha 0\.05\)$'
	[ "${lines[1]}" = '| event | base | new | delta | delta % | 95% CI of delta | p | verdict |' ]
	[ "${lines[2]}" = '| :--- | ---: | ---: | ---: | ---: | ---: | ---: | :--- |' ]
	[ "${#lines[@]}" = 7 ] # bats drops the blank line
	assert_line --index 3 --regexp '^\| instructions:u \| 1,000,000 \| 1,010,000 \| \+10,000 \| \+1\.00% \| \+[0-9,]+ \.\. \+[0-9,]+ \| <0\.001 \| \*\*regressed \(limit 0\.5%\)\*\* \|$'
	# every row has the header's 9 unescaped pipes
	for l in "${lines[@]:1}"; do
		n=$(sed 's/\\|//g' <<<"$l" | tr -cd '|' | wc -c)
		[ "$n" = 9 ] || { echo "$l" >&2; false; }
	done
	# names cannot break the table or add markup
	[[ ${lines[4]} == '| instructions:u: insn per cycle |'* ]]
	sed 's/"page-faults"/"odd|name_*x*"/' "$D/tight-base.json" >"$BATS_TEST_TMPDIR/odd.json"
	run "$PSTAT" compare --format markdown "$BATS_TEST_TMPDIR/odd.json" "$BATS_TEST_TMPDIR/odd.json"
	assert_success
	assert_line --partial '| odd\|name\_\*x\* |'
}

@test "table: aligned columns and a summary line; -o writes to a file" {
	run "$PSTAT" compare "$D/single-base.json" "$D/single-new.json"
	assert_failure 3
	assert_line --index 0 "base: $D/single-base.json (1 run), new: $D/single-new.json (1 run), alpha 0.05"
	assert_line --index 1 --regexp '^event +base +new +delta +delta% +p +verdict$'
	assert_line --index 2 --regexp '^page-faults +100 +250 +\+150 +\+150\.00% +- +regressed \(limit 5%\)$'
	assert_line --index 5 --regexp '^branch-misses: of all branches \(%\) +1 +1\.15 +\+0\.15 +\+15\.00% +- +regressed \(limit 5%\)$'
	assert_line --index 6 'regression: 3 regressed, 1 unchanged'
	# the verdict column starts at the same place on every line
	col=$(awk '/^event/ { print index($0, "verdict") }' <<<"$output")
	for i in 2 3 4 5; do
		[[ ${lines[$i]:$((col - 1))} =~ ^(regressed|unchanged) ]]
	done
	f="$BATS_TEST_TMPDIR/cmp.txt"
	run --separate-stderr "$PSTAT" compare -o "$f" "$D/single-base.json" "$D/single-new.json"
	assert_failure 3
	[ -z "$output" ]
	[ -z "$stderr" ]
	grep -q '^regression: 3 regressed, 1 unchanged$' "$f"
	run "$PSTAT" compare -o /nonexistent/dir/cmp.txt "$D/single-base.json" "$D/single-new.json"
	assert_failure 125
	assert_output --partial "pstat: cannot open output file '/nonexistent/dir/cmp.txt'"
	if [ -c /dev/full ] && [ -w /dev/full ]; then
		run "$PSTAT" compare -o /dev/full "$D/single-base.json" "$D/single-new.json"
		assert_failure 125
		assert_output "pstat: cannot write the comparison to '/dev/full': No space left on device"
		# a special file is written directly, never removed
		[ -c /dev/full ]
	fi
}

# Two real runs of the writer: N and M writes per run, five runs each.
real_runs() {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/base.json" -e syscalls:sys_enter_write,task-clock -r 5 "$w" "$1"
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/new.json" -e syscalls:sys_enter_write,task-clock -r 5 "$w" "$2"
}

@test "real runs: 10% more writes regress, the same count does not" {
	real_runs 100 110
	# task-clock of a 1 ms program is noise: a generous absolute limit
	cmp_json real --threshold task-clock=+1000 "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/new.json"
	assert_failure 3
	run entry "$out" syscalls:sys_enter_write '[.verdict, .base.value, .new.value, .delta_pct, .test.p, .base.stddev]'
	assert_output '["regressed",100,110,10,0,0]'
	run entry "$out" task-clock '[.verdict, .unit, .limit.rule]'
	assert_output '["unchanged","msec","task-clock=+1000"]'
	# CPUs utilized and /sec restate time: not compared
	run jq '.entries | length' "$out"
	assert_output 2
	cmp_json same --threshold task-clock=+1000 "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/base.json"
	assert_success
	run "$PSTAT" compare --threshold task-clock=+1000 "$BATS_TEST_TMPDIR/new.json" "$BATS_TEST_TMPDIR/base.json"
	assert_success
	assert_line --regexp '^syscalls:sys_enter_write +110 +100 +-10 +-9\.09% +<0\.001 +improved \(limit 5%\)$'
}

@test "--baseline: run and compare in one step, the same as pstat compare" {
	real_runs 100 100
	w=$(prog writer)
	run --separate-stderr "$PSTAT" --baseline "$BATS_TEST_TMPDIR/base.json" \
		--threshold task-clock=+1000 -e syscalls:sys_enter_write,task-clock -r 3 "$w" 110
	assert_failure 3
	# the comparison on stdout, the run's own table on stderr
	assert_line --index 0 "base: $BATS_TEST_TMPDIR/base.json (5 runs), new: this run (3 runs), alpha 0.05"
	assert_line --regexp '^syscalls:sys_enter_write +100 +110 +\+10 +\+10\.00% +<0\.001 +regressed \(limit 5%\)$'
	[[ $stderr == *"Performance counter stats for '$w 110' (3 runs):"* ]]
	# with -j -o the run's document still goes to the file; the
	# comparison, as JSON here, is that of the saved file
	run --separate-stderr "$PSTAT" --baseline "$BATS_TEST_TMPDIR/base.json" \
		--threshold task-clock=+1000 --compare-format json -j -o "$BATS_TEST_TMPDIR/run.json" \
		-e syscalls:sys_enter_write,task-clock -r 3 "$w" 120
	assert_failure 3
	echo "$output" >"$BATS_TEST_TMPDIR/one-step.json"
	validate_json "$BATS_TEST_TMPDIR/one-step.json" "$CMP_SCHEMA"
	validate_json "$BATS_TEST_TMPDIR/run.json"
	cmp_json two-step --threshold task-clock=+1000 "$BATS_TEST_TMPDIR/base.json" "$BATS_TEST_TMPDIR/run.json"
	assert_failure 3
	a=$(jq -c '[.entries[] | del(.name) ], .summary, .exit_status' "$BATS_TEST_TMPDIR/one-step.json")
	b=$(jq -c '[.entries[] | del(.name) ], .summary, .exit_status' "$out")
	assert_equal "$a" "$b"
	run jq -r .new.label "$BATS_TEST_TMPDIR/one-step.json"
	assert_output 'this run'
	# markdown too, and no regression: exit 0
	run --separate-stderr "$PSTAT" --baseline "$BATS_TEST_TMPDIR/base.json" --compare-format markdown \
		--threshold task-clock=+1000 -e syscalls:sys_enter_write,task-clock -r 2 "$w" 100
	assert_success
	assert_line --index 0 --partial '**pstat: no regression**: 2 unchanged'
}

@test "--baseline: a failing command's status wins" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	base="$BATS_TEST_TMPDIR/base.json"
	"$PSTAT" -j -o "$base" -e syscalls:sys_enter_write -r 2 "$w" 100
	# would be a regression (more writes), but the command fails
	run --separate-stderr "$PSTAT" --baseline "$base" -e syscalls:sys_enter_write \
		-- sh -c "$w 200; exit 7"
	assert_failure 7
	[ -z "$output" ]
	[[ $stderr == *"pstat: warning: not compared with '$base': the run failed (exit 7)"* ]]
	run -127 "$PSTAT" --baseline "$base" -e syscalls:sys_enter_write /nonexistent/cmd
	assert_failure 127
	# the same events, a clean run: compared
	run "$PSTAT" --baseline "$base" -e syscalls:sys_enter_write "$w" 100
	assert_success
	# different events: not comparable
	run "$PSTAT" --baseline "$base" -e task-clock "$w" 100
	assert_failure 4
	# -I: the summary after the intervals is what is compared
	run "$PSTAT" --baseline "$base" -I 20 -e syscalls:sys_enter_write "$w" 100 1 0 1
	assert_success
	assert_line --regexp '^syscalls:sys_enter_write +100 +100 +0 +0\.00% +- +unchanged$'
}

@test "--baseline: bad input fails before the command runs" {
	mark="$BATS_TEST_TMPDIR/ran"
	run --separate-stderr "$PSTAT" --baseline "$BATS_TEST_TMPDIR/none.json" -e task-clock -- touch "$mark"
	assert_failure 4
	assert_equal "$stderr" "pstat: cannot read '$BATS_TEST_TMPDIR/none.json': No such file or directory"
	run "$PSTAT" --baseline "$D/wrong-schema.json" -e task-clock -- touch "$mark"
	assert_failure 4
	run "$PSTAT" --baseline "$D/single-base.json" --threshold 'x=5' -e task-clock -- touch "$mark"
	assert_failure 125
	run "$PSTAT" --baseline "$D/single-base.json" --alpha 5 -e task-clock -- touch "$mark"
	assert_failure 125
	run "$PSTAT" --baseline "$D/single-base.json" --compare-format yaml -e task-clock -- touch "$mark"
	assert_failure 125
	assert_output "pstat: invalid value 'yaml' for --compare-format: use table, json or markdown"
	[ ! -e "$mark" ]
	for opt in "--threshold x=5%" "--alpha 0.1" "--compare-format json"; do
		# shellcheck disable=SC2086
		run "$PSTAT" $opt -e task-clock true
		assert_failure 125
		assert_output "pstat: ${opt%% *} needs --baseline FILE"
	done
	run "$PSTAT" --baseline "$D/single-base.json" --dry-run -e task-clock
	assert_failure 125
}
