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

# close_rel A B: fails unless |A - B| <= 1e-8 |B| (B not 0).
close_rel() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
		m = b < 0 ? -b : b; exit !(d <= 1e-8 * m) }' ||
		{ echo "$1 is not close to $2" >&2; return 1; }
}

# need_scipy: sets $SCIPY_PY to a python3 with scipy, or skips. Debian's
# python3-scipy is for /usr/bin/python3; one first on PATH may lack it.
need_scipy() {
	local py
	for py in python3 /usr/bin/python3; do
		if "$py" -c 'import scipy.stats' 2>/dev/null; then
			SCIPY_PY=$py
			return 0
		fi
	done
	skip "python3 with scipy is not installed (python3-scipy)"
}

# welch_ref BASE NEW LEVEL: Welch's test of the samples NEW against BASE
# (JSON arrays), computed here independently of pstat with scipy: t and p
# from scipy.stats.ttest_ind(equal_var=False), df by Welch-Satterthwaite,
# the interval of mean(new) - mean(base) at LEVEL from the t
# distribution. Prints "t df p ci_low ci_high".
welch_ref() {
	"$SCIPY_PY" - "$@" <<'PY'
import json
import math
import sys

from scipy import stats

base, new = json.loads(sys.argv[1]), json.loads(sys.argv[2])
level = float(sys.argv[3])
r = stats.ttest_ind(new, base, equal_var=False)
vb = stats.tvar(base) / len(base)
vn = stats.tvar(new) / len(new)
se = math.sqrt(vb + vn)
df = (vb + vn) ** 2 / (vb ** 2 / (len(base) - 1) + vn ** 2 / (len(new) - 1))
d = sum(new) / len(new) - sum(base) / len(base)
h = stats.t.ppf(1 - (1 - level) / 2, df) * se
print("%.17g %.17g %.17g %.17g %.17g" % (r.statistic, df, r.pvalue,
					 d - h, d + h))
PY
}

# samples FILE EVENT: the samples of EVENT in the run FILE, a JSON array.
samples() {
	jq -c --arg e "$2" '.counters[] | select(.event == $e) | .samples' "$1"
}

# check_test FILE ENTRY BASE NEW LEVEL: the test of ENTRY in the compare
# document FILE is Welch's on the samples BASE and NEW (JSON arrays) at
# LEVEL, as scipy computes it.
check_test() {
	local ref t
	read -r -a ref < <(welch_ref "$3" "$4" "$5")
	[ "${#ref[@]}" = 5 ]
	t=$(entry "$1" "$2" .test)
	close_rel "$(jq .t <<<"$t")" "${ref[0]}"
	close_rel "$(jq .df <<<"$t")" "${ref[1]}"
	close_rel "$(jq .p <<<"$t")" "${ref[2]}"
	close_rel "$(jq .ci_low <<<"$t")" "${ref[3]}"
	close_rel "$(jq .ci_high <<<"$t")" "${ref[4]}"
	close_rel "$(jq .confidence <<<"$t")" "$5"
}

# edit_run IN OUT FILTER: the run IN changed by the jq FILTER, into OUT.
edit_run() {
	jq "$3" "$1" >"$2"
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
		"--alpha 1e-400 a b" "--alpha -0.1 a b" "--alpha .05x a b" \
		"--alpha nan a b" "--alpha inf a b" "--alpha 0,05 a b" \
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
	run --separate-stderr "$PSTAT" compare --alpha 1e-400 a b
	assert_equal "$stderr" "pstat: invalid value '1e-400' for --alpha: not between 0 and 1"
	run --separate-stderr "$PSTAT" compare --alpha 0,05 a b
	assert_equal "$stderr" "pstat: invalid value '0,05' for --alpha: not a number"
}

@test "--alpha takes any number strtod reads: 1e-3, 5E-2, 0x1p-4, .5" {
	local a want
	for a in 1e-3:0.001 0.05:0.05 5E-2:0.05 0x1p-4:0.0625 .5:0.5; do
		want=${a#*:}
		cmp_json alpha --alpha "${a%%:*}" "$D/tight-base.json" "$D/tight-new.json"
		assert_success
		close_rel "$(jq .alpha "$out")" "$want"
	done
	# a stricter level: the tight 1% change is still significant
	cmp_json alpha3 --alpha 1e-3 --threshold instructions:u=0.5% \
		"$D/tight-base.json" "$D/tight-new.json"
	assert_failure 3
	# with --baseline too, checked before the baseline is read
	run "$PSTAT" --baseline "$D/wrong-schema.json" --alpha 1e-3 -e task-clock true
	assert_failure 4
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
	assert_line --regexp '^instructions:u +1,000,000 +1,010,000 +\+10,000 +\+1\.00% +\+9,885 \.\. \+10,115 +<0\.001 +unchanged$'
}

@test "the same delta with wide samples is within noise" {
	cmp_json wide --threshold instructions:u=0.5% "$D/wide-base.json" "$D/wide-new.json"
	assert_success
	run entry "$out" instructions:u '[.verdict, .delta_pct, .test.ci_low < 0, .test.ci_high > 0]'
	assert_output '["within_noise",1,true,true]'
	run "$PSTAT" compare --threshold instructions:u=0.5% "$D/wide-base.json" "$D/wide-new.json"
	assert_line --regexp '^instructions:u .* -[0-9,]+ \.\. \+[0-9,]+ +0\.846 +within noise \(limit 0\.5%\)$'
	assert_line 'no regression: 3 unchanged, 1 within noise'
	need_scipy
	check_test "$out" instructions:u "$(samples "$D/wide-base.json" instructions:u)" \
		"$(samples "$D/wide-new.json" instructions:u)" 0.95
}

@test "Welch's t, df, p and the interval match scipy's, computed here" {
	need_scipy
	local b n
	b=$(samples "$D/ttest-base.json" instructions)
	n=$(samples "$D/ttest-new.json" instructions)
	cmp_json ttest --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	assert_failure 3
	check_test "$out" instructions "$b" "$n" 0.95
	run entry "$out" instructions '[.verdict, .delta, .base.n, .new.n]'
	assert_output '["regressed",2.5,5,6]'
	# the other way round: the interval changes sign
	cmp_json ttest-rev --threshold instructions=1% "$D/ttest-new.json" "$D/ttest-base.json"
	check_test "$out" instructions "$n" "$b" 0.95
	# --alpha sets the level of the interval too (documented)
	cmp_json ttest90 --alpha 0.1 --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	check_test "$out" instructions "$b" "$n" 0.9
	# a stricter alpha than p: the change is no longer significant
	cmp_json ttest01 --alpha 0.01 --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	check_test "$out" instructions "$b" "$n" 0.99
	run entry "$out" instructions .verdict
	assert_output '"within_noise"'
	# the table shows the same interval and p
	run "$PSTAT" compare --threshold instructions=1% "$D/ttest-base.json" "$D/ttest-new.json"
	assert_line --regexp '^event +base +new +delta +delta% +95% CI +p +verdict$'
	assert_line --regexp '^instructions +100\.00 +102\.50 +\+2\.50 +\+2\.50% +\+0\.15 \.\. \+4\.85 +0\.040 +regressed \(limit 1%\)$'
}

@test "metrics have their own direction: insn per cycle up is an improvement" {
	cmp_json ipc --threshold 'instructions:u=0.5%,insn per cycle=0.5%' \
		"$D/tight-base.json" "$D/tight-new.json"
	assert_failure 3
	run entry "$out" 'instructions:u: insn per cycle' '[.metric, .higher_is_better, .verdict, .base.n, .test.p < 0.05]'
	assert_output '["insn per cycle",true,"improved",5,true]'
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
	assert_line --regexp '^cycles:u +- +800,000 +- +- +- +- +invalid: multiplexed in base$'
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
	assert_line --regexp '^page-faults +120 +120 +0 +0\.00% +- +- +unchanged$'
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
	assert_line --index 1 --regexp '^event +base +new +delta +delta% +95% CI +p +verdict$'
	assert_line --index 2 --regexp '^page-faults +100 +250 +\+150 +\+150\.00% +- +- +regressed \(limit 5%\)$'
	# one number of decimals on a line: 1.00, not 1, beside 1.15
	assert_line --index 5 --regexp '^branch-misses: of all branches \(%\) +1\.00 +1\.15 +\+0\.15 +\+15\.00% +- +- +regressed \(limit 5%\)$'
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
	assert_line --regexp '^syscalls:sys_enter_write +110 +100 +-10 +-9\.09% +-10 \.\. -10 +<0\.001 +improved \(limit 5%\)$'
}

@test "--per-socket, --per-core: each unit's counters and metrics paired and named by it" {
	need_cpu_wide
	local mode a b r id
	a="$BATS_TEST_TMPDIR/a.json" b="$BATS_TEST_TMPDIR/b.json" r="$BATS_TEST_TMPDIR/r.json"
	for mode in socket core; do
		for f in "$a" "$b"; do
			run "$PSTAT" "--per-$mode" -a -j -o "$f" -e task-clock,context-switches \
				--metric 'w = task-clock * 2' true
			assert_success
		done
		# the new run in the opposite order: paired by unit, not by order
		edit_run "$b" "$r" '.counters |= reverse | .metrics |= reverse'
		cmp_json "$mode" "$a" "$r"
		jq_assert '[.entries[] | .name | test(" #[0-9]+")] | any | not' "$out"
		jq_assert --slurpfile a "$a" --slurpfile b "$b" '
			def keyed(d): [d.counters[] | {key: "\(.event) (\(.aggr.id))", value: .value}] +
				[d.metrics[] | {key: "\(.name) (\(.aggr.id))", value: .value}];
			keyed($a[0]) as $ka | (keyed($b[0]) | from_entries) as $kb |
			([.entries[] | {key: .name, value: .}] | from_entries) as $e |
			($ka | length) == 3 * ($a[0].counters | map(.aggr.id) | unique | length) and
			([.entries[] | select(.name | contains(": ") | not)] | length) == ($ka | length) and
			all($ka[]; $e[.key] != null and $e[.key].base.value == .value and
				$e[.key].new.value == $kb[.key])' "$out"
	done
	# a unit only in the base run: its entries are missing, named by it
	id=$(jq -r '.counters[-1].aggr.id' "$a")
	jq --arg id "$id" '.counters |= map(select(.aggr.id != $id)) |
		.metrics |= map(select(.aggr.id != $id))' "$a" >"$r"
	cmp_json gone "$a" "$r"
	[ "$status" = 4 ]
	jq_assert --arg n "task-clock ($id)" '.entries[] | select(.name == $n) |
		.verdict == "missing" and .reason == "only in base"' "$out"
	jq_assert --arg n "w ($id)" '[.entries[] | select(.name == $n)] | length == 1 and
		.[0].verdict == "missing"' "$out"
}

@test "--baseline: run and compare in one step, the same as pstat compare" {
	real_runs 100 100
	w=$(prog writer)
	run --separate-stderr "$PSTAT" --baseline "$BATS_TEST_TMPDIR/base.json" \
		--threshold task-clock=+1000 -e syscalls:sys_enter_write,task-clock -r 3 "$w" 110
	assert_failure 3
	# the comparison on stdout, the run's own table on stderr
	assert_line --index 0 "base: $BATS_TEST_TMPDIR/base.json (5 runs), new: this run (3 runs), alpha 0.05"
	assert_line --regexp '^syscalls:sys_enter_write +100 +110 +\+10 +\+10\.00% +\+10 \.\. \+10 +<0\.001 +regressed \(limit 5%\)$'
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
	assert_line --regexp '^syscalls:sys_enter_write +100 +100 +0 +0\.00% +- +- +unchanged$'
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
	for opt in "--threshold x=5%" "--alpha 0.1" "--compare-format json" \
		"--format json" "--compare-output f.txt"; do
		# shellcheck disable=SC2086
		run "$PSTAT" $opt -e task-clock true
		assert_failure 125
		assert_line --index 0 "pstat: ${opt%% *} needs --baseline FILE"
		assert_line --index 1 "pstat: hint: see 'pstat --help'"
	done
	run "$PSTAT" --baseline "$D/single-base.json" --dry-run -e task-clock
	assert_failure 125
}

@test "metrics are tested on their per-run ratios, as scipy computes them" {
	cmp_json ipc-wide --threshold 'insn per cycle=0.5%' "$D/wide-base.json" "$D/wide-new.json"
	assert_success
	run entry "$out" 'instructions:u: insn per cycle' '[.verdict, .base.n, .new.n, .test != null]'
	assert_output '["within_noise",5,5,true]'
	need_scipy
	# the per-run ratios instructions / cycles, computed here
	ratios() {
		jq -c '[.counters[0].samples, .counters[1].samples] | transpose |
			map(.[0] / .[1])' "$1"
	}
	check_test "$out" 'instructions:u: insn per cycle' \
		"$(ratios "$D/wide-base.json")" "$(ratios "$D/wide-new.json")" 0.95
}

@test "wide samples: instructions within noise never make IPC regress" {
	# IPC goes down 1% (worse) while instructions is within noise
	cmp_json ipc-noise --threshold 'instructions:u=0.5%,insn per cycle=0.5%' \
		"$D/wide-new.json" "$D/wide-base.json"
	assert_success
	run jq -c '[.entries[] | [.name, .verdict]]' "$out"
	assert_output '[["instructions:u","within_noise"],["instructions:u: insn per cycle","within_noise"],["cycles:u","unchanged"],["page-faults","unchanged"]]'
	run "$PSTAT" compare --threshold 'insn per cycle=0.5%' "$D/wide-new.json" "$D/wide-base.json"
	assert_success
	assert_line --regexp '^instructions:u: insn per cycle +1\.26 +1\.25 +-0\.01 +-0\.99% +-[0-9.]+ \.\. \+[0-9.]+ +0\.[0-9]+ +within noise \(limit 0\.5%\)$'
	# without the cycles' samples there are no per-run ratios: the metric
	# is untested, and within noise because its counter is
	t=$BATS_TEST_TMPDIR
	for f in wide-base wide-new tight-base tight-new; do
		edit_run "$D/$f.json" "$t/$f.json" \
			'del(.counters[1] | .samples, .mean, .stddev, .stderr, .min, .median, .max)'
	done
	cmp_json ipc-untested --threshold 'insn per cycle=0.5%' "$t/wide-new.json" "$t/wide-base.json"
	assert_success
	run entry "$out" 'instructions:u: insn per cycle' '[.verdict, .test, .new.n]'
	assert_output '["within_noise",null,0]'
	# a significant counter still carries its untested metric
	cmp_json ipc-untested-tight --threshold 'insn per cycle=0.5%' "$t/tight-new.json" "$t/tight-base.json"
	assert_failure 3
	run entry "$out" 'instructions:u: insn per cycle' '[.verdict, .test]'
	assert_output '["regressed",null]'
}

@test "a metric on one side only is missing, and not comparable as a counter is" {
	t=$BATS_TEST_TMPDIR
	edit_run "$D/tight-new.json" "$t/no-ipc.json" 'del(.counters[0].metric)'
	cmp_json ipc-missing "$D/tight-base.json" "$t/no-ipc.json"
	assert_failure 4
	run entry "$out" 'instructions:u: insn per cycle' '[.verdict, .reason, .new]'
	assert_output '["missing","only in base",null]'
	run jq -c '[.summary.missing, .exit_status]' "$out"
	assert_output '[1,4]'
	cmp_json ipc-missing-rev "$t/no-ipc.json" "$D/tight-base.json"
	assert_failure 4
	run entry "$out" 'instructions:u: insn per cycle' '[.verdict, .reason]'
	assert_output '["missing","only in new"]'
	# a metric without a value is invalid
	edit_run "$D/tight-new.json" "$t/null-ipc.json" '.counters[0].metric.value = null'
	cmp_json ipc-null "$D/tight-base.json" "$t/null-ipc.json"
	assert_failure 4
	run entry "$out" 'instructions:u: insn per cycle' '[.verdict, .reason, .delta]'
	assert_output '["invalid","no value in new",null]'
}

@test "not supported and not counted counters are invalid, never compared" {
	t=$BATS_TEST_TMPDIR
	edit_run "$D/tight-new.json" "$t/nosup-in.json" \
		'.counters[1] |= (.status = "not_supported" | .value = null |
			del(.samples, .mean, .stddev, .stderr, .min, .median, .max))
		 | del(.counters[0].metric)'
	cmp_json nosup "$D/tight-base.json" "$t/nosup-in.json"
	assert_failure 4
	run entry "$out" cycles:u '[.verdict, .reason, .delta, .test, .new.status]'
	assert_output '["invalid","not supported in new",null,null,"not_supported"]'
	run "$PSTAT" compare "$D/tight-base.json" "$t/nosup-in.json"
	assert_failure 4
	assert_line --regexp '^cycles:u +800,000 +- +- +- +- +- +invalid: not supported in new$'
	edit_run "$D/tight-base.json" "$t/nocount-in.json" \
		'.counters[2] |= (.status = "not_counted" | .value = null)'
	cmp_json nocount "$t/nocount-in.json" "$D/tight-base.json"
	assert_failure 4
	run entry "$out" page-faults '[.verdict, .reason, .base.status]'
	assert_output '["invalid","not counted in base","not_counted"]'
	# a regression elsewhere still wins
	cmp_json nocount-reg --threshold instructions:u=0.5% "$t/nocount-in.json" "$D/tight-new.json"
	assert_failure 3
}

@test "--baseline: an event this machine does not support is invalid (exit 4)" {
	need_perf_events
	t=$BATS_TEST_TMPDIR
	"$PSTAT" -j -o "$t/probe.json" -e instructions true
	[ "$(jq -r '.counters[0].status' "$t/probe.json")" != counted ] ||
		skip "instructions is counted here: no unsupported event to compare"
	"$PSTAT" -j -o "$t/base.json" -e instructions,task-clock -r 2 true
	run --separate-stderr "$PSTAT" --baseline "$t/base.json" --threshold task-clock=+1000 \
		-e instructions,task-clock -r 2 true
	assert_failure 4
	assert_line --regexp '^instructions +- +- +- +- +- +- +invalid: not supported in base$'
	assert_line --regexp '^not comparable: 1 unchanged, 1 invalid$'
	# counted in the baseline (another machine), not supported here
	edit_run "$t/base.json" "$t/counted.json" \
		'.counters[0] |= (.status = "counted" | .value = 1000 |
			.samples = [1000, 1000])'
	run --separate-stderr "$PSTAT" --baseline "$t/counted.json" --threshold task-clock=+1000 \
		--format json -e instructions,task-clock -r 2 true
	assert_failure 4
	echo "$output" >"$t/cmp.json"
	validate_json "$t/cmp.json" "$CMP_SCHEMA"
	run entry "$t/cmp.json" instructions '[.verdict, .reason]'
	assert_output '["invalid","not supported in new"]'
}

@test "a tracepoint in a threshold rule; blanks around names are ignored" {
	t=$BATS_TEST_TMPDIR
	for f in single-base single-new; do
		edit_run "$D/$f.json" "$t/$f.json" \
			'.counters[0].event = "syscalls:sys_enter_write"'
	done
	cmp_json tp --threshold 'syscalls:sys_enter_write=2%' "$t/single-base.json" "$t/single-new.json"
	assert_failure 3
	run entry "$out" syscalls:sys_enter_write '[.verdict, .limit]'
	assert_output '["regressed",{"kind":"relative","value":2,"rule":"syscalls:sys_enter_write=2%"}]'
	cmp_json tp2 --threshold ' syscalls:sys_enter_write = 200% , branch-misses=20%,  of all branches =+1' \
		"$t/single-base.json" "$t/single-new.json"
	assert_success
	run jq -c '[.entries[] | [.name, .verdict, .limit.rule]]' "$out"
	assert_output '[["syscalls:sys_enter_write","unchanged","syscalls:sys_enter_write=200%"],["branches","unchanged",null],["branch-misses","unchanged","branch-misses=20%"],["branch-misses: of all branches","unchanged","of all branches=+1"]]'
	# and in a real run of a tracepoint, with --baseline
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	"$PSTAT" -j -o "$t/base.json" -e syscalls:sys_enter_write -r 2 "$w" 100
	run "$PSTAT" --baseline "$t/base.json" --threshold 'syscalls:sys_enter_write=20%' \
		-e syscalls:sys_enter_write -r 2 "$w" 110
	assert_success
	assert_line --regexp '^syscalls:sys_enter_write +100 +110 +\+10 +\+10\.00% .* unchanged$'
	run "$PSTAT" --baseline "$t/base.json" --threshold 'syscalls:sys_enter_write=2%' \
		-e syscalls:sys_enter_write -r 2 "$w" 110
	assert_failure 3
	assert_line --regexp '^syscalls:sys_enter_write .* regressed \(limit 2%\)$'
}

@test "a saved run whose command failed or crashed is not comparable (exit 4)" {
	t=$BATS_TEST_TMPDIR
	edit_run "$D/tight-new.json" "$t/segv.json" '.exit = {"status": 139, "signal": "SIGSEGV"}'
	edit_run "$D/tight-new.json" "$t/exit1.json" '.exit = {"status": 1, "signal": null}'
	edit_run "$D/tight-new.json" "$t/run3.json" \
		'.exit = {"status": 0, "signal": null, "runs": [0, 0, 2, 0, 0]}'
	validate_json_files "$ROOT/schema/pstat.schema.json" "$t/segv.json" "$t/exit1.json" "$t/run3.json"
	for f in segv exit1 run3; do
		for args in "$D/tight-base.json $t/$f.json" "$t/$f.json $D/tight-base.json"; do
			# shellcheck disable=SC2086
			run --separate-stderr "$PSTAT" compare --format json $args
			[ "$status" = 4 ] || { echo "$args: exit $status" >&2; false; }
			[ -z "$output" ]
		done
	done
	# even a regression found is not reported from a crashed run
	run --separate-stderr "$PSTAT" compare --threshold instructions:u=0.5% "$D/tight-base.json" "$t/segv.json"
	assert_failure 4
	assert_equal "$stderr" "pstat: cannot compare the run in '$t/segv.json': its command failed (exit status 139, SIGSEGV)"
	run --separate-stderr "$PSTAT" compare "$D/tight-base.json" "$t/exit1.json"
	assert_equal "$stderr" "pstat: cannot compare the run in '$t/exit1.json': its command failed (exit status 1)"
	run --separate-stderr "$PSTAT" compare "$D/tight-base.json" "$t/run3.json"
	assert_equal "$stderr" "pstat: cannot compare the run in '$t/run3.json': its command failed (run 3 of 5 exited with 2)"
	# a malformed exit object is unreadable input
	edit_run "$D/tight-new.json" "$t/badexit.json" '.exit = {"status": "x", "signal": null}'
	run --separate-stderr "$PSTAT" compare "$D/tight-base.json" "$t/badexit.json"
	assert_failure 4
	assert_equal "$stderr" "pstat: cannot read the run in '$t/badexit.json': \"exit\" has no \"status\" of 0 to 255"
}

@test "an attached run ended by Ctrl-C (130) compares; a crash does not" {
	t=$BATS_TEST_TMPDIR
	# -a or -p: no command, and SIGINT, SIGTERM or SIGHUP is how it ends
	for st in 130 143 129; do
		edit_run "$D/tight-new.json" "$t/att.json" \
			".command = null | .target.kind = \"system\" | .exit = {\"status\": $st, \"signal\": null}"
		run "$PSTAT" compare "$t/att.json" "$t/att.json"
		assert_success
	done
	# a command ended by the same signal is a run that did not finish
	edit_run "$D/tight-new.json" "$t/cmd.json" '.exit = {"status": 130, "signal": "SIGINT"}'
	run "$PSTAT" compare "$t/cmd.json" "$t/cmd.json"
	assert_failure 4
}

@test "a real run that crashed (SIGSEGV) is not comparable, nor a baseline of it" {
	need_perf_events
	t=$BATS_TEST_TMPDIR
	run "$PSTAT" -j -o "$t/segv.json" -e task-clock -- sh -c 'kill -SEGV $$'
	assert_failure 139
	run jq -c .exit "$t/segv.json"
	assert_output '{"status":139,"signal":"SIGSEGV"}'
	"$PSTAT" -j -o "$t/good.json" -e task-clock true
	run --separate-stderr "$PSTAT" compare "$t/good.json" "$t/segv.json"
	assert_failure 4
	assert_equal "$stderr" "pstat: cannot compare the run in '$t/segv.json': its command failed (exit status 139, SIGSEGV)"
	# as a baseline: refused before the command runs
	run --separate-stderr "$PSTAT" --baseline "$t/segv.json" -e task-clock -- touch "$t/ran"
	assert_failure 4
	assert_equal "$stderr" "pstat: cannot compare the run in '$t/segv.json': its command failed (exit status 139, SIGSEGV)"
	[ ! -e "$t/ran" ]
	# a run that crashes now: its own status wins, nothing compared
	run --separate-stderr "$PSTAT" --baseline "$t/good.json" -e task-clock -- sh -c 'kill -SEGV $$'
	assert_failure 139
	[ -z "$output" ]
	[[ $stderr == *"pstat: warning: not compared with '$t/good.json': the run failed (exit 139)"* ]]
}

@test "--baseline: --format (or --compare-format) and --compare-output FILE" {
	need_perf_events
	t=$BATS_TEST_TMPDIR
	"$PSTAT" -j -o "$t/base.json" -e task-clock -r 2 -- sh -c 'echo hello'
	# the comparison in a file: stdout is the command's alone
	run --separate-stderr "$PSTAT" --baseline "$t/base.json" --threshold task-clock=+1000 \
		--format markdown --compare-output "$t/cmp.md" -e task-clock -r 2 -- sh -c 'echo hello'
	assert_success
	assert_output $'hello\nhello'
	run head -1 "$t/cmp.md"
	assert_output --regexp '^\*\*pstat: no regression\*\*: 1 unchanged \(base .*base\.json, 2 runs; new this run, 2 runs; alpha 0\.05\)$'
	# --format json on stdout, and --compare-format as another name for it
	for opt in --format --compare-format; do
		run --separate-stderr "$PSTAT" --baseline "$t/base.json" --threshold task-clock=+1000 \
			"$opt" json -e task-clock -- true
		assert_success
		echo "$output" >"$t/cmp$opt.json"
		validate_json "$t/cmp$opt.json" "$CMP_SCHEMA"
		run jq -r '.new.label' "$t/cmp$opt.json"
		assert_output 'this run'
	done
	run "$PSTAT" --baseline "$t/base.json" --format yaml -e task-clock -- true
	assert_failure 125
	assert_output "pstat: invalid value 'yaml' for --format: use table, json or markdown"
	# -j -o keeps the run; --compare-output may not be that file
	run "$PSTAT" --baseline "$t/base.json" -j -o "$t/x.json" --compare-output "$t/x.json" -e task-clock true
	assert_failure 125
	assert_line --index 0 "pstat: --compare-output and -o name the same file '$t/x.json'"
	run "$PSTAT" --baseline "$t/base.json" --compare-output "$t/base.json" -e task-clock true
	assert_failure 125
	run "$PSTAT" --baseline "$t/base.json" --threshold task-clock=+1000 \
		--compare-output /nonexistent/dir/cmp.txt -e task-clock true
	assert_failure 125
	assert_output --partial "pstat: cannot open output file '/nonexistent/dir/cmp.txt'"
}

# The commands of the first code block of README.md's "A CI gate"
# section, one a line (continuations joined, comments left out).
readme_ci_commands() {
	awk '/^### A CI gate/ { s = 1; next }
		s && /^#/ { exit }
		s && /^    / { b = 1; print; next }
		s && b && /^[^ ]/ { exit }' "$ROOT/README.md" |
		sed 's/^    //' |
		awk '/\\$/ { sub(/\\$/, ""); line = line $0; next }
			{ print line $0; line = "" }' |
		grep -v -e '^ *#' -e '^ *$'
}

@test "README: the CI gate recipe works as written" {
	need_perf_events
	local t=$BATS_TEST_TMPDIR/ci cmds i want
	mkdir -p "$t"
	# ./bench: a small workload of a thousand page faults
	printf '#!/bin/sh\nexec %s 1000\n' "$(prog toucher)" >"$t/bench"
	chmod +x "$t/bench"
	mapfile -t cmds < <(readme_ci_commands)
	[ "${#cmds[@]}" = 3 ]
	[[ ${cmds[0]} == "pstat -j -o baseline.json "* ]]
	[[ ${cmds[1]} == "pstat --baseline baseline.json "*" -j -o branch.json "* ]]
	[[ ${cmds[2]} == "pstat compare "*" baseline.json branch.json" ]]
	# one threshold in both comparisons
	[ "$(grep -o -- "--threshold '[^']*'" <<<"${cmds[1]}")" = \
		"$(grep -o -- "--threshold '[^']*'" <<<"${cmds[2]}")" ]
	# without a hardware PMU instructions:u is not supported: exit 4, as
	# the README says
	"$PSTAT" -j -o "$t/probe.json" -e instructions:u true
	if [ "$(jq -r '.counters[0].status' "$t/probe.json")" = counted ]; then
		want=(0 0 0)
	else
		want=(0 4 4)
	fi
	export PSTAT
	for i in 0 1 2; do
		run bash -c 'pstat() { "$PSTAT" "$@"; }; cd "$1" && eval "$2"' _ "$t" "${cmds[$i]}"
		[ "$status" = "${want[$i]}" ] ||
			{ echo "${cmds[$i]}: exit $status, not ${want[$i]}: $output" >&2; false; }
	done
	validate_json "$t/baseline.json"
	validate_json "$t/branch.json"
	grep -q '^no regression: \|^not comparable: ' "$t/comparison.txt"
	grep -q '^\*\*pstat: \(no regression\|not comparable\)\*\*' "$t/comparison.md"
	if [ "${want[1]}" = 4 ]; then
		grep -q '^instructions:u .* invalid: not supported in base$' "$t/comparison.txt"
	fi
}
