#!/usr/bin/env bats
# pstat bench: interleaved runs of several commands, counted, with
# statistics and a verdict for every command against the first.

load test_helper
load json_helper

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# A bench of the writer pair: N and 2N write(2) calls, -j to b.json.
writer_pair() {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -j -o b.json -r 5 -e syscalls:sys_enter_write \
		-N "$@" -n small -n large "$w 1000" "$w 2000"
}

@test "bench: --help lists its options and exits 0" {
	run "$PSTAT" bench --help
	assert_success
	assert_line --regexp '^usage: pstat bench '
	assert_output --partial '--fail-on-regression'
}

@test "bench: no command, unknown option, bad values are usage errors" {
	run "$PSTAT" bench
	assert_failure 125
	assert_output --partial "pstat: 'pstat bench' needs a command to run"
	run "$PSTAT" bench --frobnicate true
	assert_failure 125
	assert_output --partial "unknown option '--frobnicate' for 'pstat bench'"
	run "$PSTAT" bench -r 0 true
	assert_failure 125
	assert_output --partial "invalid value '0' for --runs"
	run "$PSTAT" bench --order random true
	assert_failure 125
	run "$PSTAT" bench -n a -n b true
	assert_failure 125
	assert_output --partial '2 names (-n) for 1 commands'
	run "$PSTAT" bench -N -r 2 "'unclosed"
	assert_failure 125
	assert_output --partial 'a quote is not closed'
}

@test "bench: the commands run interleaved, A B A B" {
	need_perf_events
	run "$PSTAT" bench -j -o order.json -r 4 -e task-clock 'echo A >>log' \
		'echo B >>log'
	assert_success
	[ "$(tr -d '\n' <log)" = ABABABAB ]
	# the document says so: places in the sequence, and start times
	# (the third run of each round: the shell's start-up, measured)
	jq_assert '.commands[0].sequence == [0, 3, 6, 9] and
		.commands[1].sequence == [1, 4, 7, 10]' order.json
	jq_assert '[.commands[0].start_ms, .commands[1].start_ms] |
		transpose | flatten | . == sort' order.json
}

@test "bench: --order shuffle runs each command once per round, by its seed" {
	need_perf_events
	run "$PSTAT" bench -r 6 -w 1 --order shuffle --seed 7 -e task-clock \
		'echo A >>log1' 'echo B >>log1' 'echo C >>log1'
	assert_success
	run "$PSTAT" bench -r 6 -w 1 --order shuffle --seed 7 -e task-clock \
		'echo A >>log2' 'echo B >>log2' 'echo C >>log2'
	assert_success
	assert_line --index 0 '6 rounds of 3 commands, in a shuffled order per round (--seed 7), after 1 warm-up round'
	# (the warm-up round's three lines: not recorded, but shuffled too)
	sed -i 1,3d log1
	sed -i 1,3d log2
	# the same seed, the same order
	cmp log1 log2
	# every round (three lines) holds each command once
	run sh -c 'paste -d "" - - - <log1 | while read -r r; do
		echo "$r" | fold -w1 | sort | tr -d "\n"; echo; done | sort -u'
	assert_output ABC
	# and not every round in the same order (6 rounds, 6 orders)
	[ "$(paste -d '' - - - <log1 | sort -u | wc -l)" -gt 1 ]
}

@test "bench: N against 2N writes: exactly 2x, slower, significant" {
	writer_pair
	assert_success
	validate_json b.json "$ROOT/schema/pstat-bench.schema.json"
	jq_assert '.commands | length == 2' b.json
	# every run counted exactly
	jq_assert '[.commands[0].measures[] | select(.name ==
		"syscalls:sys_enter_write") | .samples[]] | unique == [1000]' b.json
	jq_assert '[.commands[1].measures[] | select(.name ==
		"syscalls:sys_enter_write") | .samples[]] | unique == [2000]' b.json
	jq_assert '.comparisons[0].measures[] | select(.measure ==
		"syscalls:sys_enter_write") | .ratio == 2 and
		.ratio_interval == [2, 2] and .verdict == "slower" and
		.significant and .p < 0.001' b.json
	jq_assert '.commands[0].runs == 5 and .commands[1].runs == 5' b.json
}

@test "bench: the table shows the ratio, its interval and the verdict" {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -r 4 -e syscalls:sys_enter_write -N "$w 500" "$w 1000"
	assert_success
	assert_line --index 0 '4 rounds of 2 commands, interleaved'
	assert_line --regexp '^Benchmark 1: .*writer 500$'
	assert_line --regexp '^  syscalls:sys_enter_write +500 ± 0 +500 +500 +500'
	assert_line --regexp "^.*writer 1000 against .*writer 500 \(Welch's t-test, alpha 0.05\):$"
	assert_line --regexp '^\* syscalls:sys_enter_write +2\.000x +\[2\.000x, 2\.000x\] +<0\.001 +slower$'
}

@test "bench: the same command twice: no significant difference" {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -j -o same.json -r 5 -e syscalls:sys_enter_write \
		-N "$w 1000" "$w 1000"
	assert_success
	jq_assert '.comparisons[0].measures[] | select(.measure ==
		"syscalls:sys_enter_write") | .ratio == 1 and
		.verdict == "same" and (.significant | not)' same.json
}

@test "bench: commands that differ only in wall time: wall-time slower" {
	need_perf_events
	run "$PSTAT" bench -j -o t.json -r 6 -e task-clock 'sleep 0.01' 'sleep 0.1'
	assert_success
	# (a loaded machine stretches the short one most: a loose bound)
	jq_assert '.comparisons[0].measures[] | select(.measure ==
		"wall-time") | .ratio > 1.3 and .verdict == "slower"' t.json
}

@test "bench: each command's run document is a pstat compare input" {
	writer_pair
	assert_success
	jq '.commands[0].run' b.json >small.json
	jq '.commands[1].run' b.json >large.json
	validate_json small.json
	run "$PSTAT" compare small.json large.json
	assert_failure 3
	assert_line --regexp '^syscalls:sys_enter_write +1,000 +2,000 .* regressed'
	run "$PSTAT" compare small.json small.json
	assert_success
}

@test "bench: --fail-on-regression exits 3 when the second regressed" {
	writer_pair --fail-on-regression
	assert_failure 3
	jq_assert '.regression == 3 and .exit_status == 3' b.json
	# the same pair the other way round is an improvement
	w=$(prog writer)
	run "$PSTAT" bench -r 4 -e syscalls:sys_enter_write -N \
		--fail-on-regression --threshold 'wall-time=1000%' \
		"$w 2000" "$w 1000"
	assert_success
	assert_output --partial 'improved'
}

@test "bench: setup, warm-up, prepare and cleanup run in their order" {
	need_perf_events
	run "$PSTAT" bench -r 2 -w 1 -e task-clock \
		--setup 'echo setup >>log' --prepare 'echo prep >>log' \
		--cleanup 'echo clean >>log' 'echo A >>log' 'echo B >>log'
	assert_success
	[ "$(tr '\n' ' ' <log)" = \
	  "setup prep A prep B prep A prep B prep A prep B clean " ]
}

@test "bench: --prepare, --setup, --cleanup once per command" {
	need_perf_events
	run "$PSTAT" bench -r 1 -e task-clock \
		-s 'echo sA >>log' -s 'echo sB >>log' \
		-p 'echo pA >>log' -p 'echo pB >>log' \
		-c 'echo cA >>log' -c 'echo cB >>log' 'echo A >>log' 'echo B >>log'
	assert_success
	[ "$(tr '\n' ' ' <log)" = "sA sB pA A pB B cA cB " ]
	run "$PSTAT" bench -r 1 -p x -p y -p z true false
	assert_failure 125
	assert_output --partial 'once per command (2)'
}

@test "bench: the warm-up rounds are not recorded" {
	need_perf_events
	run "$PSTAT" bench -j -o w.json -r 3 -w 2 -e task-clock 'echo A >>log'
	assert_success
	[ "$(wc -l <log)" -eq 5 ]
	# (each round: the command, then the shell's start-up)
	jq_assert '.commands[0].runs == 3 and .warmup == 2 and
		.commands[0].sequence == [4, 6, 8]' w.json
}

@test "bench: a failing command ends the bench with its status and name" {
	need_perf_events
	run "$PSTAT" bench -r 3 -e task-clock -n good -n bad true 'exit 3'
	assert_failure 3
	assert_output --partial "pstat: command 2 'bad' failed (exit status 3)"
	assert_output --partial 'hint: -i (--ignore-failure)'
	refute_output --partial 'Benchmark 1'
	# -j -o: no document then
	run "$PSTAT" bench -j -o f.json -r 3 -e task-clock true false
	assert_failure 1
	[ ! -e f.json ]
}

@test "bench: -i keeps going over failed runs" {
	need_perf_events
	run "$PSTAT" bench -i -j -o i.json -r 3 -e task-clock true 'exit 3'
	assert_success
	jq_assert '.commands[1].exit == [3, 3, 3] and .commands[1].runs == 3' i.json
}

@test "bench: a command that cannot be executed: 127, named" {
	need_perf_events
	run -127 "$PSTAT" bench -N -r 2 -e task-clock true /nonexistent/cmd
	assert_output --partial "cannot run '/nonexistent/cmd'"
	# through the shell, the shell's 127
	run -127 "$PSTAT" bench -r 2 -e task-clock true /nonexistent/cmd
	assert_output --partial "pstat: command 2 '/nonexistent/cmd' failed (exit status 127): the shell found no such command"
	# a signal by its name (the output went to null: the status is all)
	run -143 "$PSTAT" bench -N -r 1 -e task-clock 'sh -c "kill -TERM \$\$"'
	assert_line --index 0 --partial 'failed (exit status 143): killed by SIGTERM'
	# a plain exit status is not explained away
	run -5 "$PSTAT" bench -r 1 -e task-clock 'exit 5'
	assert_line --index 0 "pstat: command 1 'exit 5' failed (exit status 5)"
}

@test "bench: a failing --prepare ends the bench" {
	need_perf_events
	run "$PSTAT" bench -r 2 -e task-clock --prepare 'exit 4' true
	assert_failure 4
	assert_output --partial 'the --prepare command failed (exit status 4)'
}

@test "bench: without -r, at least --min-runs rounds, at most --max-runs" {
	need_perf_events
	run "$PSTAT" bench -j -o m.json -m 3 -M 5 -e task-clock true
	assert_success
	# true takes far less than 3 s / 5: the maximum
	jq_assert '.rounds == 5 and .commands[0].runs == 5' m.json
	run "$PSTAT" bench -m 6 -M 5 true
	assert_failure 125
}

@test "bench: the commands' output goes to /dev/null unless --show-output" {
	need_perf_events
	# (the output, not the command's name in the report)
	run "$PSTAT" bench -r 1 -e task-clock 'echo hidden-$((6 * 7))'
	assert_success
	refute_output --partial hidden-42
	run "$PSTAT" bench -r 1 --show-output -e task-clock 'echo shown-$((6 * 7))'
	assert_success
	assert_output --partial shown-42
}

@test "bench: default events leave out what the machine cannot count" {
	need_perf_events
	run "$PSTAT" bench -j -o d.json -r 2 true
	assert_success
	jq_assert '[.commands[0].measures[].name] | index("task-clock") and
		index("wall-time")' d.json
	# every default the machine counts, none it cannot, in the report
	# and in the run document pstat compare reads
	jq_assert '[.commands[0].measures[] | .status] |
		all(. != "not_supported")' d.json
	jq_assert '[.commands[0].run.counters[] | .status] |
		all(. != "not_supported")' d.json
	run "$PSTAT" bench -r 2 true
	refute_output --partial 'not supported'
}

@test "bench: --per divides every counter by the work of a run" {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -j -o p.json -r 2 --per-unit writes=1000 \
		-e syscalls:sys_enter_write -N "$w 1000"
	assert_success
	jq_assert '.per == {"values": [1000], "unit": "writes"} and
		(.commands[0].measures[] | select(.name ==
		"syscalls:sys_enter_write") | .mean == 1)' p.json
	# runs of different size, once per command: the same per write
	run "$PSTAT" bench -r 3 --per-unit writes=1000 --per-unit writes=3000 \
		-e syscalls:sys_enter_write -N "$w 1000" "$w 3000"
	assert_success
	assert_line '  (counters per writes: each run divided by 3000)'
	assert_line --regexp '^  syscalls:sys_enter_write +1\.000x +\[1\.000x, 1\.000x\] +1\.000 +no significant difference$'
	run "$PSTAT" bench -r 1 --per 1 --per 2 --per 3 true false
	assert_failure 125
	assert_output --partial 'once per command (2)'
}

@test "bench: --plot writes an SVG with a panel per measure, a lane per command" {
	need_tracepoint
	command -v python3 >/dev/null || skip "python3 is not installed"
	w=$(prog writer)
	run "$PSTAT" bench -r 4 --plot p.svg -e syscalls:sys_enter_write -N \
		-n 'a<&>"b' -n second "$w 100" "$w 200"
	assert_success
	run python3 - p.svg <<'PY'
import sys
import xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
panels = root.findall("s:g[@class='measure']", ns)
names = [g.get("data-measure") for g in panels]
assert names == ["wall-time", "user-time", "sys-time",
                 "syscalls:sys_enter_write"], names
for g in panels:
    lanes = g.findall("s:g[@class='lane']", ns)
    assert len(lanes) == 2, len(lanes)
    # every run a dot, a box and a median per lane
    for lane in lanes:
        assert len(lane.findall("s:circle[@class='sample']", ns)) == 4
        assert len(lane.findall("s:rect[@class='box']", ns)) == 1
        assert len(lane.findall("s:line[@class='median']", ns)) == 1
    assert lanes[0].find("s:text[@class='command']", ns).text == 'a<&>"b'
tp = panels[3].find(".//s:text[@class='ratio']", ns).text
assert tp == "2.000x [2.000x, 2.000x] slower", tp
print("ok")
PY
	assert_success
	assert_output ok
}

@test "bench: --export-markdown and --export-csv hold every command and measure" {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -r 3 --export-markdown b.md --export-csv b.csv \
		--export-json b.json \
		-e syscalls:sys_enter_write -N -n 'one, "1"' -n two "$w 10" "$w 30"
	assert_success
	assert_line --regexp '^Benchmark 1: one, "1"$'
	grep -q '^| Command | Measure | Mean ± σ |' b.md
	# hyperfine's document: the commands by name, their runs
	jq_assert '[.results[].command] == ["one, \"1\"", "two"] and
		(.results[1].times | length) == 3' b.json
	grep -qE '^\| `two` \| syscalls:sys_enter_write \| 30 ± 0 \| 30 \| 30 \| 30 \| 3\.000x \| slower \|$' b.md
	run python3 -c '
import csv, sys
rows = list(csv.DictReader(open("b.csv")))
assert len(rows) == 8, len(rows)
r = [x for x in rows if x["command"] == "two" and
     x["measure"] == "syscalls:sys_enter_write"][0]
assert float(r["mean"]) == 30 and float(r["ratio"]) == 3, r
assert r["verdict"] == "slower" and r["runs"] == "3", r
assert rows[0]["command"] == "one, \"1\"", rows[0]
print("ok")'
	assert_success
	assert_output ok
}

@test "bench: an unwritable -o or export fails with 125, before running" {
	need_perf_events
	run "$PSTAT" bench -r 1 -o /nonexistent/dir/out -e task-clock 'echo A >>log'
	assert_failure 125
	assert_output --partial "cannot open output file '/nonexistent/dir/out'"
	[ ! -e log ]
	run "$PSTAT" bench -r 1 --export-csv /nonexistent/dir/x.csv -e task-clock true
	assert_failure 125
	assert_output --partial "/nonexistent/dir/x.csv"
}

@test "bench: a progress bar on a terminal, nothing on a pipe" {
	need_perf_events
	command -v script >/dev/null || skip "script(1) is not installed"
	# script gives pstat a pseudo-terminal for its stdout and stderr
	run script -qec "$PSTAT bench -r 3 -w 1 -e task-clock true" /dev/null
	assert_success
	assert_output --partial $'\r\e[Kwarm-up 0/1 ['
	assert_output --partial $'\r\e[Kround 2/3 [####################..........]'
	assert_output --partial 'Benchmark 1: true'
	# on a pipe: the report alone
	"$PSTAT" bench -r 3 -w 1 -e task-clock true >out 2>err
	[ ! -s err ]
	if grep -q $'\r' out; then fail "a carriage return on a pipe"; fi
	grep -q '^Benchmark 1: true$' out
}

@test "bench: SIGINT reports the rounds done and exits 130" {
	need_perf_events
	"$PSTAT" bench -j -o s.json -r 1000 -e task-clock 'sleep 0.1' true &
	pid=$!
	sleep 3
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" = 130 ]
	validate_json s.json "$ROOT/schema/pstat-bench.schema.json"
	jq_assert '.interrupted == 2 and .exit_status == 130 and
		.rounds >= 1 and .rounds < 1000' s.json
	# every recorded round ran both commands
	jq_assert '.commands[0].runs >= .rounds and
		.commands[1].runs == .rounds' s.json
}

@test "bench: -S runs the commands with that shell, -N splits them into words" {
	need_perf_events
	command -v bash >/dev/null || skip "bash is not installed"
	# [[ ]] is bash's: sh (dash) fails on it
	run "$PSTAT" bench -r 1 -S 'bash --norc' -e task-clock \
		'[[ 1 == 1 ]] && echo bash >>log'
	assert_success
	[ "$(cat log)" = bash ]
	run "$PSTAT" bench -j -o n.json -r 1 -N -e task-clock \
		"printf '%s|' 'a b' \"c\\\"d\" e\\ f"
	assert_success
	jq_assert '.commands[0].argv == ["printf", "%s|", "a b", "c\"d", "e f"]
		and .shell == null' n.json
	run "$PSTAT" bench -j -o s.json -r 1 -e task-clock 'true && true'
	jq_assert '.commands[0].argv == ["sh", "-c", "true && true"] and
		.shell == "sh"' s.json
}

@test "bench: the statistics of two commands' samples (pure)" {
	run_table bench bench.test
}

@test "bench: -L runs each command once per value, every combination" {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -j -o l.json -r 2 -e syscalls:sys_enter_write -N \
		-L n 10,20 -L k 1,2 -n 'w{n}x{k}' "$w {n} {k}"
	assert_success
	jq_assert '[.commands[].name] == ["w10x1", "w10x2", "w20x1", "w20x2"]' l.json
	# writer N THREADS: N x THREADS writes
	jq_assert '[.commands[].measures[] | select(.name ==
		"syscalls:sys_enter_write") | .mean] == [10, 20, 20, 40]' l.json
	run "$PSTAT" bench -L n
	assert_failure 125
	assert_output --partial 'pstat: -L n needs its values too'
	run "$PSTAT" bench -L '{n}' 1 true
	assert_failure 125
	assert_output --partial "invalid parameter name '{n}'"
	run "$PSTAT" bench -L a 1,2,3,4,5,6,7,8 -L b 1,2,3,4,5,6,7,8,9 'echo {a}{b}'
	assert_failure 125
	assert_output --partial 'more than 64 commands'
}

@test "bench: -L puts a value in once, as one shell word, in every command" {
	need_perf_events
	# through the shell: text, never code
	run "$PSTAT" bench -j -o q.json -r 1 -e task-clock \
		-L x 'a;touch F,$(touch G),`touch H`' 'echo {x} >>log'
	assert_success
	[ ! -e F ] && [ ! -e G ] && [ ! -e H ]
	[ "$(cat log)" = 'a;touch F
$(touch G)
`touch H`' ]
	jq_assert '.commands[0].argv == ["sh", "-c", "echo '"'"'a;touch F'"'"' >>log"]' q.json
	# once: a value's own braces stay as they are
	rm -f log
	run "$PSTAT" bench -r 1 -e task-clock -L x '{y}' -L y Z 'echo {x}{y} >>log'
	assert_success
	[ "$(cat log)" = '{y}Z' ]
	# without a shell: one word, never split or unquoted again
	run "$PSTAT" bench -j -o n.json -r 1 -N -e task-clock \
		-L x "a b 'c" 'printf %s| {x}'
	assert_success
	jq_assert '.commands[0].argv == ["printf", "%s|", "a b '"'"'c"]' n.json
	# --prepare, --setup and --cleanup get the command's values
	rm -f log
	run "$PSTAT" bench -r 1 -e task-clock -L x 1,2 -s 'echo s{x} >>log' \
		-p 'echo p{x} >>log' -c 'echo c{x} >>log' 'echo {x} >>log'
	assert_success
	[ "$(tr '\n' ' ' <log)" = "s1 s2 p1 1 p2 2 c1 c2 " ]
	# a --setup without a placeholder runs once
	rm -f log
	run "$PSTAT" bench -r 1 -e task-clock -L x 1,2 -s 'echo s >>log' 'true {x}'
	assert_success
	[ "$(cat log)" = s ]
}

@test "bench: -L takes time linear in what it makes, and refuses what cannot run" {
	need_perf_events
	c=$(printf '{x}%.0s' $(seq 2000))
	v=$(printf 'v%.0s' $(seq 60))
	# 2,000 placeholders of a 60-byte value: 120 KB, at once
	run timeout 20 "$PSTAT" bench -r 1 -e task-clock -L x "$v" ": $c"
	assert_success
	# 20 MB: more than a command line may hold, said before running
	v=$(printf 'v%.0s' $(seq 10240))
	run timeout 20 "$PSTAT" bench -r 1 -e task-clock -L x "$v" "touch F $c"
	assert_failure 125
	assert_output 'pstat: command 1 is longer than 131072 bytes with its -L values'
	[ ! -e F ]
}

@test "bench: every export and the plot are opened before the first run" {
	need_perf_events
	for opt in --export-markdown --export-csv --export-json --plot; do
		run "$PSTAT" bench -r 1 "$opt" /nonexistent/dir/x -e task-clock \
			'echo A >>log'
		assert_failure 125
		assert_output --partial "cannot open output file '/nonexistent/dir/x'"
		[ ! -e log ]
	done
	# the good ones of a failing set are left as they were: absent
	run "$PSTAT" bench -r 1 --export-csv ok.csv --plot /nonexistent/x.svg \
		-e task-clock true
	assert_failure 125
	[ ! -e ok.csv ]
}

@test "bench: what a run leaves running is ended after it, and said" {
	need_perf_events
	run "$PSTAT" bench -r 3 -e task-clock 'sleep 31.4159 & true'
	assert_success
	assert_line "pstat: warning: command 1 'sleep 31.4159 & true' left 1 process running after its run: ended (SIGKILL), as after every run"
	# once, not per run
	[ "$(grep -c 'left 1 process' <<<"$output")" = 1 ]
	sleep 0.2
	[ -z "$(pgrep -f 'sleep 31.4159')" ] || fail "the sleep outlived pstat"
	# a command that leaves nothing: no word of it
	run "$PSTAT" bench -r 2 -e task-clock 'sleep 0.01'
	refute_output --partial 'left'
}

@test "bench: command names are escaped in the report, Markdown and CSV" {
	need_perf_events
	name=$'red\e[31mX\nnext'
	run "$PSTAT" bench -r 1 -e task-clock --export-markdown b.md \
		--export-csv b.csv -n "$name" true
	assert_success
	assert_line 'Benchmark 1: red\x1b[31mX\nnext'
	if grep -q $'\e' <<<"$output" || grep -q $'\e' b.md b.csv; then
		fail "an ESC got through"
	fi
	grep -qF '| `red\x1b[31mX\nnext` | wall-time |' b.md
	[ "$(wc -l <b.csv)" = 5 ]
	grep -q '^red\\x1b\[31mX\\nnext,wall-time,' b.csv
	# a backtick and a bar in a Markdown cell
	run "$PSTAT" bench -r 1 -e task-clock --export-markdown c.md -n 'a`b|c' true
	grep -qF '| ``a`b\|c`` | wall-time |' c.md
}

@test "bench: ratio intervals are Fieller's: never below 0, none to a zero mean" {
	need_perf_events
	# (the issue's case: a Welch interval went to -0.9x here)
	run "$PSTAT" bench -r 2 -i -j -o f.json --export-csv f.csv \
		-e task-clock false true
	assert_success
	validate_json f.json "$ROOT/schema/pstat-bench.schema.json"
	jq_assert '[.comparisons[].measures[].ratio_interval[0] |
		select(. != null)] | all(. >= 0)' f.json
	# a baseline mean of 0 (sys-time often is): no ratio, no interval
	jq_assert '[.comparisons[0].measures[] as $m | .commands[0].measures[] |
		select(.name == $m.measure and .mean == 0) | $m] |
		all(.ratio == null and .ratio_interval == [null, null])' f.json
	run python3 -c '
import csv
for r in csv.DictReader(open("f.csv")):
    assert r["ratio_low"] == "" or float(r["ratio_low"]) >= 0, r
print("ok")'
	assert_output ok
	# the terminal says unbounded where the baseline is not surely > 0
	run "$PSTAT" bench -r 2 -e task-clock -N true true
	refute_output --regexp '\[-[0-9]'
}

@test "bench: failing runs are said in every format, with a warning" {
	need_perf_events
	run "$PSTAT" bench -r 3 -i -e task-clock --export-markdown f.md \
		--export-csv f.csv --plot f.svg -j -o f.json -n bad 'exit 3' true
	assert_success
	assert_line "pstat: warning: command 1 'bad': 3 of 3 runs failed (exit status 3), counted all the same (-i)"
	jq_assert '.commands[0].failed_runs == 3 and .commands[1].failed_runs == 0' f.json
	grep -qxF 'Failed runs: `bad`, 3 of 3 (exit status 3).' f.md
	run python3 -c '
import csv
rows = list(csv.DictReader(open("f.csv")))
assert all(r["failed_runs"] == "3" and r["exit_statuses"] == "3"
           for r in rows if r["command"] == "bad"), rows
assert all(r["failed_runs"] == "0" for r in rows if r["command"] == "true")
print("ok")'
	assert_output ok
	grep -q '<text class="failed"[^>]*>3 of 3 runs failed (exit status 3)</text>' f.svg
	run "$PSTAT" bench -r 3 -i -e task-clock -n bad 'exit 3' true
	assert_line '  failed: 3 of 3 runs (exit status 3), counted all the same'
}

@test "bench: --output is where the commands' output goes, as in hyperfine" {
	need_perf_events
	# null: no file named null
	run "$PSTAT" bench -r 2 -e task-clock --output null 'echo hidden-$((6*7))'
	assert_success
	[ ! -e null ]
	refute_output --partial hidden-42
	# a file: every run's output, opened before the first run
	run "$PSTAT" bench -r 3 -w 1 -e task-clock --output o.txt 'echo run'
	assert_success
	[ "$(cat o.txt)" = $'run\nrun\nrun\nrun' ]
	run "$PSTAT" bench -r 1 -e task-clock --output /nonexistent/o 'echo A >>log'
	assert_failure 125
	[ ! -e log ]
	# pipe: a pipe that pstat reads; inherit: pstat's own
	run "$PSTAT" bench -r 2 -e task-clock --output pipe '[ -p /dev/stdout ]'
	assert_success
	run "$PSTAT" bench -r 2 -e task-clock '[ -p /dev/stdout ]'
	assert_failure 1
	run "$PSTAT" bench -r 1 -e task-clock --output inherit 'echo shown-$((6*7))'
	assert_output --partial shown-42
	# the report file is -o, --report
	run "$PSTAT" bench -r 1 -e task-clock --report r.txt true
	assert_success
	grep -q '^Benchmark 1: true$' r.txt
	# -o with one of --output's words is that mistake: no file, no run
	for w in null pipe inherit; do
		run "$PSTAT" bench -r 1 -e task-clock -o "$w" 'echo A >>log'
		assert_failure 125
		assert_line --index 0 "pstat: -o $w: the report file would be named '$w'"
		assert_line --index 1 --partial "--output $w"
		[ ! -e "$w" ] && [ ! -e log ]
	done
	run "$PSTAT" bench -r 1 -e task-clock -o ./null true
	assert_success
	grep -q '^Benchmark 1: true$' null
}

@test "bench: --input is the commands' input, from its start at every run" {
	need_perf_events
	echo hello >in.txt
	run "$PSTAT" bench -r 3 -e task-clock --input in.txt 'read l && [ "$l" = hello ]'
	assert_success
	run "$PSTAT" bench -r 1 -e task-clock 'read l'
	assert_failure 1
	mkfifo fifo
	run timeout 10 "$PSTAT" bench -r 1 -e task-clock --input fifo true
	assert_failure 125
	assert_output "pstat: cannot use 'fifo' as --input: not a regular file"
}

@test "bench: one unit per row, -u to choose it, no spread after one run" {
	need_perf_events
	run "$PSTAT" bench -r 3 -e task-clock 'sleep 0.002' true
	assert_success
	# every time row: one unit in all five columns
	while read -r line; do
		n=$(grep -oE '[0-9] (s|ms|µs)\b' <<<"$line" | cut -d' ' -f2 |
			sort -u | wc -l)
		[ "$n" = 1 ] || fail "units mixed: $line"
	done < <(grep -E '^  ((wall|user|sys)-time|task-clock) .*±' <<<"$output")
	run "$PSTAT" bench -r 2 -u second -e task-clock 'sleep 0.002'
	assert_line --regexp '^  wall-time +0\.[0-9]{3} s ± 0\.[0-9]{3} s +0\.[0-9]{3} s'
	run "$PSTAT" bench -r 2 -u us -e task-clock 'sleep 0.002'
	assert_line --regexp '^  wall-time +[0-9]+\.[0-9] µs ± '
	run "$PSTAT" bench -r 1 -e task-clock true
	assert_success
	refute_output --partial '±'$' '[0-9]
	assert_line --regexp '^  wall-time +[0-9.]+ (ms|µs) +[0-9.]+ (ms|µs) '
	# nor in the document, the CSV or the Markdown
	run "$PSTAT" bench -r 1 -e task-clock -j -o one.json --export-csv one.csv \
		--export-markdown one.md true
	jq_assert '[.commands[0].measures[].stddev] | all(. == null)' one.json
	run python3 -c '
import csv
assert all(r["stddev"] == "" for r in csv.DictReader(open("one.csv")))
print("ok")'
	assert_output ok
	if tail -n +3 one.md | grep -q '±'; then fail "a spread after one run"; fi
	run "$PSTAT" bench -r 1 -u minute true
	assert_failure 125
}

@test "bench: the report comes first, then --fail-on-regression's tables" {
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" bench -r 3 -e syscalls:sys_enter_write -N \
		--fail-on-regression "$w 100" "$w 200"
	assert_failure 3
	report=$(grep -n '^Benchmark 2' <<<"$output" | cut -d: -f1)
	table=$(grep -n 'regressed' <<<"$output" | head -1 | cut -d: -f1)
	[ "$report" -lt "$table" ]
}

@test "bench: -P and -D scan a range as hyperfine's" {
	need_perf_events
	run "$PSTAT" bench -j -o p.json -r 1 -e task-clock -P n 1 3 'true {n}'
	assert_success
	jq_assert '[.commands[].command] == ["true 1", "true 2", "true 3"]' p.json
	run "$PSTAT" bench -j -o d.json -r 1 -e task-clock -P t 0 0.5 -D 0.25 \
		'sleep {t}'
	assert_success
	# hyperfine's decimal sums: MIN as written, then MIN's or STEP's
	# decimals, whichever are more; MAX's do not count
	jq_assert '[.commands[].command] == ["sleep 0", "sleep 0.25", "sleep 0.50"]' d.json
	run "$PSTAT" bench -j -o m.json -r 1 -e task-clock -P t 1 2.00 -D 0.5 \
		'true {t}'
	assert_success
	jq_assert '[.commands[].command] == ["true 1", "true 1.5", "true 2.0"]' m.json
	if command -v hyperfine >/dev/null &&
		hyperfine -r 1 --style none -P t 1 2.00 -D 0.5 'true {t}' \
			--export-json h.json >/dev/null 2>&1; then
		jq_assert '[.results[].command] == ["true 1", "true 1.5", "true 2.0"]' h.json
	fi
	run "$PSTAT" bench -r 1 -P n 3 1 true
	assert_failure 125
	assert_output --partial 'the range ends below its start'
	run "$PSTAT" bench -r 1 -P n 1 1000 true
	assert_failure 125
	assert_output --partial 'makes more than 64 commands'
	run "$PSTAT" bench -r 1 -D 2 true
	assert_failure 125
	assert_output --partial '-D (--parameter-step-size) needs -P'
	run "$PSTAT" bench -r 1 -P n 1 x true
	assert_failure 125
}

@test "bench: --style, --sort and --conclude" {
	need_perf_events
	run "$PSTAT" bench -r 1 -e task-clock --style none --export-csv s.csv true
	assert_success
	assert_output ''
	[ -s s.csv ]
	run script -qec "$PSTAT bench -r 2 --style basic -e task-clock true false -i" /dev/null
	if grep -q $'\e' <<<"$output"; then fail "colour with --style basic"; fi
	# the comparisons by mean time: the slowest last
	run "$PSTAT" bench -r 2 -e task-clock --sort mean-time true 'sleep 0.05' 'sleep 0.01'
	assert_success
	a=$(grep -n '^sleep 0.01 against' <<<"$output" | cut -d: -f1)
	b=$(grep -n '^sleep 0.05 against' <<<"$output" | cut -d: -f1)
	[ "$a" -lt "$b" ]
	run "$PSTAT" bench -r 2 -e task-clock --sort command true 'sleep 0.05' 'sleep 0.01'
	a=$(grep -n '^sleep 0.01 against' <<<"$output" | cut -d: -f1)
	b=$(grep -n '^sleep 0.05 against' <<<"$output" | cut -d: -f1)
	[ "$a" -gt "$b" ]
	run "$PSTAT" bench -r 2 -e task-clock --prepare 'echo p >>log' \
		--conclude 'echo c >>log' 'echo A >>log'
	assert_success
	[ "$(tr '\n' ' ' <log)" = "p A c p A c " ]
	run "$PSTAT" bench -r 2 -e task-clock --conclude 'exit 5' true
	assert_failure 5
	assert_output --partial 'the --conclude command failed (exit status 5)'
}

# The shape of a JSON value: objects by key, arrays by their first
# element, numbers as "number", so that 0 and 0.5 compare alike.
json_shape() {
	python3 -c '
import json, sys
def shape(v):
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return [shape(v[0])] if v else []
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    return type(v).__name__
print(json.dumps(shape(json.load(open(sys.argv[1]))), sort_keys=True))' "$1"
}

@test "bench: --export-json writes hyperfine's own document" {
	need_perf_events
	command -v hyperfine >/dev/null || skip "hyperfine is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	hyperfine -r 2 -L x 1,2 --export-json h.json 'sleep 0.00{x}' \
		true >/dev/null 2>&1 || skip "hyperfine cannot run here"
	run "$PSTAT" bench -r 2 -L x 1,2 --export-json p.json 'sleep 0.00{x}' true
	assert_success
	# the same keys, types and nesting, command by command
	[ "$(json_shape h.json)" = "$(json_shape p.json)" ] ||
		fail "shapes differ: $(json_shape h.json) vs $(json_shape p.json)"
	# in hyperfine's order, each command per value
	jq_assert '[.results[].command] == ["sleep 0.001", "true", "sleep 0.002", "true"] and
		.results[0].parameters == {"x": "1"} and
		.results[3].parameters == {"x": "2"} and
		(.results[0].times | length) == 2 and
		.results[0].mean > 0.0005 and .results[0].mean < 1' p.json
	# one run: no stddev, as hyperfine
	run "$PSTAT" bench -r 1 --export-json one.json true
	jq_assert '.results[0].stddev == null' one.json
}

@test "bench: a command runs without a shell unless it needs one" {
	need_perf_events
	run "$PSTAT" bench -j -o a.json -r 2 -e task-clock 'sleep 0.001' \
		"printf '%s' 'a b'" 'echo a | cat' 'exit 0' 'X=1 env' \
		'no-such-program-here' -i
	assert_success
	jq_assert '[.commands[] | .via_shell] ==
		[false, false, true, true, true, true]' a.json
	jq_assert '.commands[0].argv == ["sleep", "0.001"] and
		.commands[1].argv == ["printf", "%s", "a b"] and
		.commands[2].argv == ["sh", "-c", "echo a | cat"]' a.json
	# -L placeholders do not call for a shell; their values are words
	run "$PSTAT" bench -j -o l.json -r 1 -e task-clock -L x 'a;b' 'printf {x}'
	jq_assert '.commands[0].argv == ["printf", "a;b"] and .shell == null and
		.shell_startup == null' l.json
	# -S: every command through it
	run "$PSTAT" bench -j -o s.json -r 1 -S sh -e task-clock 'sleep 0.001'
	jq_assert '.commands[0].argv == ["sh", "-c", "sleep 0.001"] and
		.commands[0].via_shell' s.json
}

@test "bench: the shell's start-up is measured in the rounds and taken out" {
	need_perf_events
	run "$PSTAT" bench -j -o s.json -r 4 -e task-clock 'sleep 0.001;' true
	assert_success
	validate_json s.json "$ROOT/schema/pstat-bench.schema.json"
	jq_assert '.shell_startup.argv == ["sh", "-c", ""] and
		.shell_startup.runs == 4 and
		.shell_startup.subtracted_from == ["wall-time", "user-time",
			"sys-time", "task-clock"] and
		(.shell_startup.measures[0].mean > 0) and
		[.commands[].via_shell] == [true, false]' s.json
	# in the rounds: 4 rounds of 3 runs, the probe's among them
	jq_assert '([.commands[].sequence[]] + [range(12)] | unique | length)
		== 12 and .rounds == 4' s.json
	run "$PSTAT" bench -r 3 -e task-clock 'sleep 0.001;' true
	assert_line --regexp '^shell start-up \('"'"'sh -c ""'"'"', in every round\): [0-9.]+ (ms|µs) ± '
	assert_line '  taken out of the times and task-clock of command 1, run by run'
	# a shell that does not start ends the bench, said
	run -127 "$PSTAT" bench -r 1 -S /nonexistent/sh -e task-clock true
	assert_output --partial "pstat: cannot run '/nonexistent/sh'"
}

# ratio_pair TOOLARGS...: the wall-time ratio of sleep 0.02 to sleep
# 0.01 and its interval from pstat bench (ARGS), then hyperfine's ratio
# of the means (-N when ARGS hold -N), as "lo ratio hi hyperfine".
ratio_pair() {
	local hf=()

	[[ " $* " == *" -N "* ]] && hf=(-N)
	"$PSTAT" bench -r 30 -j -o r.json -e task-clock "$@" \
		'sleep 0.01' 'sleep 0.02' || return 1
	hyperfine "${hf[@]}" -r 30 --export-json h.json 'sleep 0.01' \
		'sleep 0.02' >/dev/null 2>&1 || return 1
	echo "$(jq -r '.comparisons[0].measures[] |
		select(.measure == "wall-time") |
		"\(.ratio_interval[0]) \(.ratio) \(.ratio_interval[1])"' r.json) $(
		jq -r '.results[1].mean / .results[0].mean' h.json)"
}

@test "bench: sleep 0.01 against 0.02: an interval holding hyperfine's ratio" {
	need_perf_events
	command -v hyperfine >/dev/null || skip "hyperfine is not installed"
	# Both tools measure a shared machine: each way gets up to four
	# tries, and one passes whose interval holds hyperfine's ratio, or,
	# from the second try on, meets the range hyperfine's own ratios
	# spread over (one run of each is not the other's reference: their
	# ratios move between runs by more than pstat's interval is wide).
	# When none does and hyperfine's ratios spread wider than 0.1, the
	# machine is too loaded for either to be the reference: skip.
	for args in "" "-N" "-S sh"; do
		ok= hs= hmin= hmax=
		for try in 1 2 3 4; do
			read -r lo ratio hi h < <(ratio_pair $args) ||
				fail "the pair failed to run ($args)"
			echo "# pstat $args: $ratio [$lo, $hi], hyperfine $h" >&3
			hs="$hs $h"
			read -r hmin hmax < <(awk -v a="${hmin:-$h}" -v b="${hmax:-$h}" \
				-v h="$h" 'BEGIN { print (h < a ? h : a), (h > b ? h : b) }')
			if awk -v lo="$lo" -v hi="$hi" -v h="$h" -v a="$hmin" \
				-v b="$hmax" -v t="$try" 'BEGIN { exit !((lo <= h && h <= hi) ||
				(t > 1 && lo <= b && hi >= a)) }'; then
				ok=1
				break
			fi
		done
		[ -n "$ok" ] && continue
		if echo "$hs" | tr ' ' '\n' | sort -g | awk 'NF { a[++n] = $1 }
			END { exit !(a[n] - a[1] > 0.1) }'; then
			skip "too loaded to compare: hyperfine's ratios were$hs"
		fi
		fail "pstat $args: [$lo, $hi] misses hyperfine's $h (all:$hs)"
	done
}
