#!/usr/bin/env bats
# Scripts written for perf stat 6.1 run unchanged (issue 33): each test
# runs perf itself where it can count here, and pstat the same way.

load test_helper

need_perf() {
	command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1 ||
		skip "perf stat is not installed or cannot count here"
}

# The first fields of CSV lines (perf's own, then pstat's), for shape.
csv_shape() {
	awk -F, '{ n = split($0, f, ","); printf "%d %s\n", n, ($1 ~ /summary/ ? "summary" : "") }'
}

@test "-I: no summary and no comment lines without --summary, as perf" {
	need_cpu_wide
	need_perf
	perf stat -a -I 100 --interval-count 2 -x, -e cs 2>"$BATS_TEST_TMPDIR/perf"
	run "$PSTAT" -a -I 100 --interval-count 2 -x, -e cs
	assert_success
	[ "$(csv_shape <<<"$output")" = "$(csv_shape <"$BATS_TEST_TMPDIR/perf")" ]
	[ "${#lines[@]}" = 2 ]
	refute_output --partial summary
	refute_output --partial '#'
	# the table likewise ends with the last interval
	run "$PSTAT" -a -I 100 --interval-count 2 -e cs
	assert_success
	refute_output --partial 'Performance counter stats'
	refute_output --partial 'seconds time elapsed'
}

@test "-I --summary: a summary line as perf's, exactly the intervals' sum" {
	need_cpu_wide
	need_perf
	perf stat -a -I 100 --interval-count 2 --summary -x, -e cs \
		2>"$BATS_TEST_TMPDIR/perf"
	run "$PSTAT" -a -I 100 --interval-count 2 --summary -x, -e cs
	assert_success
	[ "$(csv_shape <<<"$output")" = "$(csv_shape <"$BATS_TEST_TMPDIR/perf")" ]
	# what is counted after the last interval is in none of them
	sum=$(awk -F, '$1 !~ /summary/ { s += $2 } END { print s }' <<<"$output")
	total=$(awk -F, '$1 ~ /summary/ { print $2 }' <<<"$output")
	[ -n "$total" ] && [ "$total" = "$sum" ] || fail "summary $total, intervals $sum"
}

@test "-I with a command: a partial last interval gets no comment in CSV" {
	need_perf_events
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" -I 50 -x, --summary -e syscalls:sys_enter_write -- "$w" 30 1 0 5
	assert_success
	refute_output --partial '#'
	sum=$(awk -F, '$1 !~ /summary/ { s += $2 } END { print s }' <<<"$output")
	total=$(awk -F, '$1 ~ /summary/ { print $2 }' <<<"$output")
	[ "$sum" = 30 ] && [ "$total" = 30 ]
	# the table still says which interval was cut short
	run "$PSTAT" -I 50 -e syscalls:sys_enter_write -- "$w" 30 1 0 5
	assert_success
	assert_output --regexp '# interval [0-9]+ is partial'
}

@test "-a, -C count cpu-clock by default, as perf" {
	need_cpu_wide
	need_perf
	p=$(perf stat -a -x, sleep 0.05 2>&1 | cut -d, -f3)
	run "$PSTAT" -a -x, sleep 0.05
	assert_success
	[ "$(cut -d, -f3 <<<"$output")" = "$p" ]
	[ "$(cut -d, -f3 <<<"$output" | head -1)" = cpu-clock ]
	run "$PSTAT" -C 0 -x, sleep 0.05
	assert_success
	[ "$(cut -d, -f3 <<<"$output" | head -1)" = cpu-clock ]
	# a command alone: task-clock, as before
	run "$PSTAT" -x, true
	assert_success
	[ "$(cut -d, -f3 <<<"$output" | head -1)" = task-clock ]
}

@test "digits grouped in -o files and pipes, as perf; not with -x or --no-big-num" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	local w
	need_en_in
	w=$(prog writer)
	LC_ALL=en_IN.UTF-8 "$PSTAT" -o "$BATS_TEST_TMPDIR/o" -e syscalls:sys_enter_write "$w" 1234567
	grep -Eq '^ +12,34,567 +syscalls:sys_enter_write' "$BATS_TEST_TMPDIR/o"
	LC_ALL=en_IN.UTF-8 run "$PSTAT" -e syscalls:sys_enter_write "$w" 1234567
	assert_success
	assert_line --regexp '^ +12,34,567 +syscalls:sys_enter_write'
	LC_ALL=en_IN.UTF-8 run "$PSTAT" --no-big-num -e syscalls:sys_enter_write "$w" 1234567
	assert_line --regexp '^ +1234567 +syscalls:sys_enter_write'
	LC_ALL=en_IN.UTF-8 run "$PSTAT" -x, -e syscalls:sys_enter_write "$w" 1234567
	assert_line --regexp '^1234567,,syscalls:sys_enter_write,'
	# perf groups the same way into a file
	command -v perf >/dev/null || return 0
	LC_ALL=en_IN.UTF-8 perf stat -o "$BATS_TEST_TMPDIR/p" -e syscalls:sys_enter_write "$w" 1234567 ||
		return 0
	grep -Eq '^ +12,34,567 +syscalls:sys_enter_write' "$BATS_TEST_TMPDIR/p"
}

@test "-p --per-thread: each event's threads by count, largest first, as perf" {
	need_perf_events
	need_tracepoint
	need_perf
	start_threads 4 10 600
	perf stat -x, --per-thread -p "$tpid" -e syscalls:sys_enter_write,cs \
		2>"$BATS_TEST_TMPDIR/perf"
	wait "$tpid"
	start_threads 4 10 600
	"$PSTAT" -x, --per-thread -p "$tpid" -e syscalls:sys_enter_write,cs \
		2>"$BATS_TEST_TMPDIR/pstat"
	wait "$tpid"
	for f in perf pstat; do
		[ "$(awk -F, '$4 ~ /write/ { print $2 }' "$BATS_TEST_TMPDIR/$f" | paste -sd' ')" = "40 30 20 10 0" ] ||
			fail "$f: $(cat "$BATS_TEST_TMPDIR/$f")"
	done
	# the events in their order, each a block of five threads
	[ "$(cut -d, -f4 "$BATS_TEST_TMPDIR/pstat" | uniq -c | awk '{ print $1 }' | paste -sd' ')" = "5 5" ]
	# the table in the same order
	start_threads 4 10 600
	run "$PSTAT" --per-thread -p "$tpid" -e syscalls:sys_enter_write
	wait "$tpid"
	[ "$(awk '/sys_enter_write/ { print $2 }' <<<"$output" | paste -sd' ')" = "40 30 20 10 0" ]
}

@test "--log-fd N: the report to descriptor N, as perf; errors as perf's" {
	need_perf_events
	need_perf
	perf stat --log-fd 3 -x, -e cs,task-clock true 3>"$BATS_TEST_TMPDIR/perf"
	"$PSTAT" --log-fd 3 -x, -e cs,task-clock true 3>"$BATS_TEST_TMPDIR/pstat" \
		2>"$BATS_TEST_TMPDIR/err"
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
	[ "$(cut -d, -f3 "$BATS_TEST_TMPDIR/pstat")" = "$(cut -d, -f3 "$BATS_TEST_TMPDIR/perf")" ]
	# the table, appended to what the descriptor holds
	echo before >"$BATS_TEST_TMPDIR/t"
	"$PSTAT" --log-fd 3 -e cs true 3>>"$BATS_TEST_TMPDIR/t"
	[ "$(head -1 "$BATS_TEST_TMPDIR/t")" = before ]
	grep -q "Performance counter stats for 'true'" "$BATS_TEST_TMPDIR/t"
	# not open, or read-only: refused before the command runs
	run "$PSTAT" --log-fd 63 -e cs touch "$BATS_TEST_TMPDIR/ran" 63>&-
	assert_failure 125
	assert_output "pstat: cannot write the results to descriptor 63 (--log-fd): Bad file descriptor"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	run "$PSTAT" --log-fd 3 -e cs true 3</dev/null
	assert_failure 125
	run "$PSTAT" --log-fd 3 -o x -e cs true
	assert_failure 125
	assert_line --index 0 "pstat: -o and --log-fd cannot be combined"
}

@test "-a --per-thread: every thread, by count, the idle ones left out, as perf 6.1" {
	need_cpu_wide
	need_tracepoint
	need_perf
	# perf fails (status 234, its usage) when a thread ends between
	# its listing and its counter's open: a few tries, then pstat alone
	local tools=pstat
	for _ in 1 2 3; do
		start_threads 4 10 1500
		perf stat -x, -a --per-thread -e syscalls:sys_enter_write -- sleep 2.5 \
			2>"$BATS_TEST_TMPDIR/perf" && tools="perf pstat"
		wait "$tpid"
		[ "$tools" = pstat ] || break
	done
	start_threads 4 10 1500
	# system wide: another test's threads (a parallel run) may show up
	# too; the order checked is that of this test's own threads
	local ours
	ours=$(ls "/proc/$tpid/task" | paste -sd'|')
	run "$PSTAT" -x, -a --per-thread -e syscalls:sys_enter_write -- sleep 2.5
	wait "$tpid"
	assert_success
	for f in $tools; do
		[ $f = pstat ] && echo "$output" >"$BATS_TEST_TMPDIR/pstat"
		# (perf says which threads ended before it named them)
		grep -E '^[^,]+,[0-9]+,' "$BATS_TEST_TMPDIR/$f" >"$BATS_TEST_TMPDIR/$f.rows"
		mv "$BATS_TEST_TMPDIR/$f.rows" "$BATS_TEST_TMPDIR/$f"
		# the threads' 40 30 20 10, in that order (perf, slow to
		# open a counter per thread of a busy machine, may start
		# after they wrote); no zero row
		[ $f = perf ] ||
			[ "$(awk -F, -v t="^prog-threads-($ours)\$" '$1 ~ t { print $2 }' "$BATS_TEST_TMPDIR/$f" | paste -sd' ')" = "40 30 20 10" ] ||
			fail "$f: $(cat "$BATS_TEST_TMPDIR/$f")"
		awk -F, '$2 == 0 { exit 1 }' "$BATS_TEST_TMPDIR/$f"
		# counts largest first
		awk -F, 'NR > 1 && $2 > last { exit 1 } { last = $2 }' "$BATS_TEST_TMPDIR/$f" ||
			fail "$f not by count: $(cat "$BATS_TEST_TMPDIR/$f")"
	done
	# the table says system wide, as perf's
	run "$PSTAT" -a --per-thread -e cs -- sleep 0.1
	assert_success
	assert_output --partial "Performance counter stats for 'system wide'"
	run "$PSTAT" -a --per-thread -A -e cs -- true
	assert_failure 125
	assert_line --index 0 "pstat: -a --per-thread cannot be combined with -A"
}

@test "--metric-only over plain events: the derived figures as columns, as perf" {
	# perf's own test (stat+csv_output.sh) runs exactly this
	need_perf_events
	run "$PSTAT" -x, --metric-only -e instructions,cycles true
	assert_success
	# software events alone: perf leaves CPUs utilized and rates out
	run "$PSTAT" -x, --metric-only -e task-clock,cs true
	assert_success
	refute_output --partial 'CPUs utilized'
	refute_output --partial '/sec'
	# where the machine counts instructions and cycles (the report
	# pstat-test prints): insn per cycle and the branch-miss ratio
	run "$PT" print csv-metric-only basic
	assert_success
	assert_line --index 0 'insn per cycle,% of all branches'
	assert_line --index 1 '0.951,2.346'
	run "$PT" print table-metric-only basic
	assert_success
	assert_line --regexp '^ +insn per cycle +of all branches$'
	assert_line --regexp '^ +0\.951 +2\.35%$'
	refute_output --partial 'page-faults'
	# where perf can count them too, the same columns as perf
	command -v perf >/dev/null || return 0
	p=$(perf stat -x, --metric-only -e instructions,cycles true 2>&1 | grep -c 'insn per cycle' || true)
	run "$PSTAT" -x, --metric-only -e instructions,cycles true
	[ "$(grep -c 'insn per cycle' <<<"$output" || true)" = "$p" ]
}

@test "-x' ': the time column's padding is never quoted; the first field reads as perf's" {
	need_cpu_wide
	need_perf
	perf stat -x' ' -a -I 100 --interval-count 1 --summary -e cs 2>"$BATS_TEST_TMPDIR/perf"
	run "$PSTAT" -x' ' -a -I 100 --interval-count 1 --summary -e cs
	assert_success
	refute_output --partial '"'
	# perf's test reads the first field so
	[ "$(awk '{ print $1 }' <<<"$output" | sed 's/[0-9]/N/g')" = \
		"$(awk '{ print $1 }' "$BATS_TEST_TMPDIR/perf" | sed 's/[0-9]/N/g')" ]
	[ "$(awk '{ print NF }' <<<"$output")" = "$(awk '{ print NF }' "$BATS_TEST_TMPDIR/perf")" ]
	# a field that holds the separator is still quoted, whole
	run "$PSTAT" -x' ' -e task-clock true
	assert_success
	assert_output --regexp ' "CPUs utilized"$'
	python3 -c 'import csv, sys
rows = list(csv.reader(sys.stdin, delimiter=" "))
assert rows[0][-1] == "CPUs utilized", rows' <<<"$output"
}

@test "pstat stat ... as perf stat ...; pstat help; --help names every subcommand" {
	need_perf_events
	run "$PSTAT" stat -x, -e task-clock true
	assert_success
	assert_line --regexp '^[0-9.]+,msec,task-clock,'
	# after --, stat(1) runs
	run "$PSTAT" -x, -e task-clock -- stat -c %n /
	assert_success
	assert_line --index 0 /
	run "$PSTAT" help
	assert_success
	help=$output
	run "$PSTAT" --help
	[ "$output" = "$help" ]
	for sub in list compare doctor bench serve help; do
		assert_line --regexp "^ +pstat $sub "
		run "$PSTAT" help "$sub"
		[ "$sub" = help ] && { assert_success; continue; }
		assert_success
		assert_line --index 0 --regexp "^usage: pstat $sub "
		run "$PSTAT" --help
	done
	run "$PSTAT" help nope
	assert_failure 125
	assert_line --index 0 "pstat: no help on 'nope': pstat has no such subcommand"
}

@test "JSON numbers: the fewest digits that read back to the same double (python's, jansson's parser)" {
	# 20000 doubles: random bits, decimals, counts, ratios
	python3 - "$PT" <<'PY'
import json, random, struct, subprocess, sys
random.seed(33)
vals = []
while len(vals) < 20000:
    k = random.random()
    if k < 0.3:
        v = struct.unpack('d', struct.pack('Q', random.getrandbits(64)))[0]
    elif k < 0.5:
        v = random.random() * 10 ** random.randint(-12, 20)
    elif k < 0.7:
        v = random.randint(0, 10**9) / 10 ** random.randint(0, 9)
    elif k < 0.85:
        v = float(random.randint(0, 2**64))
    else:
        v = random.randint(1, 10**6) / random.randint(1, 10**6)
    if v == v and abs(v) != float('inf'):
        vals.append(v)
# each side of every power of ten a double reaches: where log10 rounds
import math
for e in range(-320, 309):
    for p in (10.0 ** e, math.nextafter(10.0 ** e, 0), math.nextafter(10.0 ** e, math.inf)):
        if p and abs(p) != float('inf'):
            vals.append(p)
run = lambda cmd, text: subprocess.run([sys.argv[1], cmd], input=text,
                                       capture_output=True, text=True,
                                       check=True).stdout.split('\n')
out = run('real', '\n'.join(v.hex() for v in vals) + '\n')
back = run('jansson-real', '\n'.join(out[:len(vals)]) + '\n')
def digits(s):
    m = s.lstrip('-').split('e')[0].replace('.', '').lstrip('0').rstrip('0')
    return len(m) or 1
bad = 0
for v, s, j in zip(vals, out, back):
    r = json.loads(s)
    ok = (isinstance(r, float) and r == v and str(r) == str(v) and
          digits(s) <= digits(repr(v)) and j != 'error' and
          float.fromhex(j) == v)
    if not ok:
        bad += 1
        print('differs:', repr(v), s, j, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	# OpenMetrics' numbers: print_g15 writes exactly what printf's %.15g
	# does, without printf
	run bash -c 'python3 -c "
import random, struct
random.seed(15)
for _ in range(20000):
    k = random.random()
    v = (struct.unpack(\"d\", struct.pack(\"Q\", random.getrandbits(64)))[0] if k < 0.3 else
         random.randint(0, 10**12) / 10**random.randint(0, 12) / 1e3 if k < 0.7 else
         random.random() * 10**random.randint(-8, 16))
    if v == v and abs(v) != float(\"inf\"):
        print(v.hex())
" | "$1" real g15' _ "$PT"
	assert_success
	assert_output ""
	# a run's document: no number longer than it needs
	need_perf_events
	run "$PSTAT" -j -o - -e task-clock,cs,page-faults true
	assert_success
	python3 -c '
import json, sys
floats = []
json.loads(sys.stdin.read(), parse_float=lambda s: floats.append(s) or float(s))
assert floats
for s in floats:
    m = s.lstrip("-").split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    assert len(m) <= len(repr(float(s)).replace(".", "").lstrip("0").rstrip("0")), s
' <<<"$output"
}

# The shape of perf stat -j lines on stdin: each line's keys, with the
# value's kind ("s%f" for a "%f" string, "<not ...>" as it is, "n" a
# number), and metric-unit's own text.
perf_json_shape() {
	python3 -c '
import json, re, sys
for line in sys.stdin:
    line = line.strip()
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    out = []
    for k, v in d.items():
        if k == "metric-unit":
            # (the prefix of a rate goes with the count: K/sec past 1000)
            out.append("%s=%s" % (k, re.sub(r"^[KMG]/sec$", "/sec", v)))
        elif k in ("unit", "event", "socket", "cpu"):
            out.append("%s=%s" % (k, v))
        elif isinstance(v, str):
            out.append("%s:%s" % (k, "s%f" if re.fullmatch(r"-?[0-9]+\.[0-9]{6}", v) else v if v.startswith("<") else "s"))
        else:
            out.append("%s:n" % k)
    print(" ".join(out))'
}

@test "--json=perf: perf stat 6.1's -j lines, the same keys, kinds and units as perf's own" {
	need_perf_events
	need_perf
	local args
	for args in "-e task-clock,cs,cycles true" "-r 2 -e task-clock,cs true" \
		"-e page-faults,task-clock -- sleep 0.01"; do
		# shellcheck disable=SC2086
		perf stat -j $args 2>"$BATS_TEST_TMPDIR/perf" >/dev/null
		# shellcheck disable=SC2086
		"$PSTAT" --json=perf $args 2>"$BATS_TEST_TMPDIR/pstat" >/dev/null
		perf_json_shape <"$BATS_TEST_TMPDIR/perf" >"$BATS_TEST_TMPDIR/p.shape"
		perf_json_shape <"$BATS_TEST_TMPDIR/pstat" >"$BATS_TEST_TMPDIR/q.shape"
		[ -s "$BATS_TEST_TMPDIR/q.shape" ]
		diff "$BATS_TEST_TMPDIR/p.shape" "$BATS_TEST_TMPDIR/q.shape" ||
			fail "$args: perf (<) and pstat (>) differ"
	done
	if can_count_cpu_wide; then
		for args in "-a -A -e cs sleep 0.05" "-a --per-socket -e cs sleep 0.05" \
			"-a -I 100 --interval-count 2 -e cs,task-clock" \
			"-a -I 100 --interval-count 1 --summary -e cs"; do
			# shellcheck disable=SC2086
			perf stat -j $args 2>"$BATS_TEST_TMPDIR/perf" >/dev/null
			# shellcheck disable=SC2086
			"$PSTAT" --json=perf $args 2>"$BATS_TEST_TMPDIR/pstat" >/dev/null
			# (the number of CPUs and their counts as they come)
			perf_json_shape <"$BATS_TEST_TMPDIR/perf" | sort -u >"$BATS_TEST_TMPDIR/p.shape"
			perf_json_shape <"$BATS_TEST_TMPDIR/pstat" | sort -u >"$BATS_TEST_TMPDIR/q.shape"
			[ -s "$BATS_TEST_TMPDIR/q.shape" ]
			diff "$BATS_TEST_TMPDIR/p.shape" "$BATS_TEST_TMPDIR/q.shape" ||
				fail "$args: perf (<) and pstat (>) differ"
		done
	fi
	# every line one JSON object, an event name with a quote too (which
	# perf would leave unescaped)
	run "$PSTAT" --json=perf -e 'cs/name=a"b/' true
	assert_success
	jq_assert -s 'length == 1 and .[0].event == "a\"b"' <<<"$output"
	# pstat/1 stays the default
	run "$PSTAT" -j -o - -e cs true
	jq_assert '.schema == "pstat/1"' <<<"$output"
	run "$PSTAT" --json=xml -e cs true
	assert_failure 125
	assert_line --index 0 --partial "invalid --json format 'xml'"
}
