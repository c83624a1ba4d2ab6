#!/usr/bin/env bats
# The JSON and CSV printers on synthetic reports (pstat-test print):
# schema validity, values and types, invalid UTF-8, perf's CSV layout,
# quoting, write errors and independence from LC_NUMERIC.

load test_helper
load json_helper

JSON_CASES="basic header notsupported multiplexed repeats badutf8
	sep-in-name percpu attach signal huge interval interval-repeats
	interval-repeats-late"
CSV_FORMATS="csv csv-semicolon csv-tab csv-multi csv=. csv=0"

# Print CASE as FORMAT into $BATS_TEST_TMPDIR/CASE.FORMAT; echo the path.
pt_print() {
	local f="$BATS_TEST_TMPDIR/$2.$1"
	"$PT" print "$1" "$2" >"$f" || return 1
	echo "$f"
}

# pycheck FILE EXPR: EXPR over the parsed document d must be true. Python,
# not jq, where exact 64-bit integers matter (jq 1.6 reads doubles).
pycheck() {
	"$JSON_PYTHON" - "$1" "$2" <<'EOF'
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    d = json.load(f)
if not eval(sys.argv[2]):
    sys.exit("false: %s" % sys.argv[2])
EOF
}

# csv_records FILE SEP: each record of a CSV file as a JSON array, one a
# line. Quotes are honoured (a quoted field may hold SEP, "" or a line
# break); a stray quote fails. '#' comment lines and blank lines are
# skipped, as in perf's "# started on" header. A one-character SEP is
# also read with Python's csv module, which must agree.
csv_records() {
	"$JSON_PYTHON" - "$1" "$2" <<'EOF'
import csv
import io
import json
import sys

path, sep = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
    text = f.read()


def die(msg, at):
    sys.exit("%s: offset %d: %s" % (path, at, msg))


records, i, n = [], 0, len(text)
while i < n:
    if text[i] == "\n" or text[i] == "#":
        j = text.find("\n", i)
        i = n if j < 0 else j + 1
        continue
    fields = []
    while True:
        if text.startswith('"', i):
            parts, j = [], i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    die("unterminated quote", i)
                parts.append(text[j:k])
                if text.startswith('"', k + 1):
                    parts.append('"')
                    j = k + 2
                    continue
                i = k + 1
                break
            fields.append("".join(parts))
            if text.startswith(sep, i):
                i += len(sep)
                continue
            if i == n or text[i] == "\n":
                i += 1
                break
            die("text after a closing quote", i)
        kn = text.find("\n", i)
        kn = n if kn < 0 else kn
        ks = text.find(sep, i, kn)
        end = ks < 0
        field = text[i:kn] if end else text[i:ks]
        if '"' in field:
            die("quote inside an unquoted field", i)
        fields.append(field)
        i = kn + 1 if end else ks + len(sep)
        if end:
            break
    records.append(fields)

if len(sep) == 1:
    body = "".join(l for l in io.StringIO(text, newline="")
                   if l.strip("\r\n") and not l.startswith("#"))
    theirs = list(csv.reader(io.StringIO(body, newline=""),
                             delimiter=sep, strict=True))
    if theirs != records:
        sys.exit("%s: csv module disagrees:\n%r\n%r" % (path, theirs, records))
for r in records:
    print(json.dumps(r))
EOF
}

# The field count every CSV record of CASE must have: perf's 7, one more
# for each leading column (time, CPU, thread) and for -r's noise column.
csv_width() {
	case "$1" in
	interval-repeats) echo 9 ;;
	repeats | badutf8 | sep-in-name | percpu | interval | \
		interval-repeats-late) echo 8 ;;
	*) echo 7 ;;
	esac
}

@test "schemas are valid JSON Schema 2020-12 documents" {
	need_jsonschema
	for s in "$ROOT"/schema/pstat*.schema.json; do
		"$JSON_PYTHON" -c '
import json, sys
from jsonschema import Draft202012Validator
s = json.load(open(sys.argv[1]))
assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
Draft202012Validator.check_schema(s)' "$s"
	done
}

@test "json: every case is valid against pstat.schema.json" {
	files=()
	for c in $JSON_CASES; do
		files+=("$(pt_print json "$c")")
	done
	validate_json_files "$ROOT/schema/pstat.schema.json" "${files[@]}"
}

@test "json: dry run and list are valid against their schemas" {
	f=$(pt_print json dryrun)
	validate_json "$f" "$ROOT/schema/pstat-dryrun.schema.json"
	run jq -c '[.events[] | .cpus]' "$f"
	assert_output '[null,null,null,null,null,[0,20],null]'
	f=$(pt_print json list)
	validate_json "$f" "$ROOT/schema/pstat-list.schema.json"
}

@test "json: the schema rejects what pstat must not write" {
	f=$(pt_print json basic)
	d="$BATS_TEST_TMPDIR"
	jq '.counters[0].value = "0.63"' "$f" >"$d/string-value.json"
	jq '.counters[1].status = "not_counted"' "$f" >"$d/value-not-null.json"
	jq '.type = "interval"' "$f" >"$d/no-interval.json"
	jq 'del(.counters[0].note)' "$f" >"$d/missing-note.json"
	jq '.counters[0].extra = 1' "$f" >"$d/extra-key.json"
	f=$(pt_print json repeats)
	jq '.counters[2].mean = 0' "$f" >"$d/mean-not-counted.json"
	jq '.counters[3].samples = [0, 0, 0]' "$f" >"$d/samples-not-counted.json"
	for bad in string-value value-not-null no-interval missing-note \
		extra-key mean-not-counted samples-not-counted; do
		run validate_json "$d/$bad.json"
		assert_failure
		assert_output --partial "$bad.json:1: "
	done
}

@test "json: a run document is indented and ends with a newline" {
	f=$(pt_print json basic)
	[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ]
	[ "$(wc -l <"$f")" -gt 10 ]
	[ "$(head -c 1 "$f")" = "{" ]
}

@test "json: top-level fields" {
	f=$(pt_print json basic)
	run jq -c '[.schema, .type, (.pstat_version | type), .kernel, .cpu_model,
		.perf_event_paranoid, .command, .target, .started_at, .runs,
		.exit, .time]' "$f"
	assert_success
	assert_output '["pstat/1","summary","string","6.1.0-test-amd64","Test CPU @ 2.00GHz",2,["./workload","20000000"],{"kind":"command","pids":[31337],"tids":[],"cpus":[]},"2026-11-22T06:09:00.123456Z",1,{"status":0,"signal":null},{"elapsed_ns":1254321,"user_ns":400000,"sys_ns":200000}]'
}

@test "json: counters carry numbers, and doubles read back exactly" {
	f=$(pt_print json basic)
	run jq -c '.counters[] | [.event, (.value | type), (.raw | type),
		.unit, .running_pct, .metric.name]' "$f"
	assert_success
	assert_line --index 0 '["task-clock","number","number","msec",100,"CPUs utilized"]'
	assert_line --index 5 '["power/energy-pkg/","number","number","Joules",100,null]'
	pycheck "$f" 'd["counters"][0]["value"] == 0.634812'
	pycheck "$f" 'd["counters"][0]["metric"]["value"] == 0.5061'
	pycheck "$f" 'd["counters"][4]["metric"] == {"name": "of all branches", "value": 2.345678, "unit": "%"}'
	pycheck "$f" 'all(type(c["raw"]) is int for c in d["counters"])'
}

@test "json: 64-bit counts and non-finite metrics" {
	f=$(pt_print json huge)
	validate_json "$f"
	pycheck "$f" 'd["counters"][0]["raw"] == 18446744073709551615.0'
	pycheck "$f" 'd["counters"][0]["metric"]["value"] is None'
	pycheck "$f" 'd["counters"][1]["value"] == 2.3283064365386963e-10'
	pycheck "$f" 'd["counters"][2]["raw"] == 9007199254740993'
	pycheck "$f" 'd["counters"][2]["time_enabled_ns"] == 9223372036854775807'
}

@test "json: not supported, errors and notes" {
	f=$(pt_print json notsupported)
	run jq -c '.counters[] | [.event, .status, .value, .error, .note]' "$f"
	assert_success
	assert_output - <<'EOF'
["cycles","not_supported",null,{"errno":"EOPNOTSUPP","message":"Operation not supported"},null]
["task-clock","counted",0.5,null,"kernel excluded"]
["msr/tsc/","error",null,{"errno":"EACCES","message":"Permission denied"},null]
["cpu/nonsense/","not_supported",null,null,null]
EOF
}

@test "json: multiplexed and not counted" {
	f=$(pt_print json multiplexed)
	run jq -c '.counters[] | [.status, .value, .raw, .time_enabled_ns,
		.time_running_ns, .running_pct]' "$f"
	assert_success
	assert_output - <<'EOF'
["multiplexed",200000000,100000000,2000000,1000000,50]
["multiplexed",300000000,150000000,2000000,1000000,50]
["multiplexed",3000001,999999,3000000,1000000,33.333333333333336]
["not_counted",null,0,2000000,0,0]
EOF
	run jq -c '[.counters[].group]' "$f"
	assert_output '[0,0,1,2]'
}

@test "json: repeats carry samples and statistics" {
	f=$(pt_print json repeats)
	run jq -c '[.runs, .exit, .time.mean, .time.stddev, .time.median]' "$f"
	assert_output '[3,{"status":1,"signal":null,"runs":[0,0,1]},1250000,50000,1250000]'
	pycheck "$f" 'd["counters"][0]["samples"] == [0.61, 0.53, 0.65]'
	pycheck "$f" 'd["counters"][0]["value"] == d["counters"][0]["mean"]'
	pycheck "$f" 'd["counters"][1]["stderr"] == 0.33333333333333331'
	# counters that never counted: null, not the zeros standing in
	# for "no count" (not supported, then not counted)
	for i in 2 3; do
		pycheck "$f" "d['counters'][$i]['samples'] == [None] * 3"
		pycheck "$f" "all(d['counters'][$i][k] is None for k in
			('value', 'mean', 'stddev', 'stderr', 'min', 'median', 'max'))"
	done
	run jq -c '[.counters[] | .mean]' "$f"
	assert_output '[0.5966666666666667,49.333333333333336,null,null]'
}

@test "json: interval documents of a repeated run, then its summary" {
	f=$(pt_print json interval-repeats)
	validate_json "$f"
	run jq -c '[.type, .runs, (.counters[0] | has("samples")), .exit.runs]' "$f"
	assert_output - <<'EOF'
["interval",1,false,null]
["interval",1,false,null]
["interval",1,false,null]
["summary",2,true,[0,0]]
EOF
}

@test "json: invalid UTF-8 becomes U+FFFD, never a broken document" {
	f=$(pt_print json badutf8)
	validate_json "$f"
	jq . "$f" >/dev/null
	pycheck "$f" 'd["command"] == ["./prog", "caf\ufffd", "line1\nline2", "\ufffd" * 3, "\ufffd" * 2, "\ufffd" * 2, "ok \u20ac"]'
	pycheck "$f" 'd["cpu_model"] == "Bad \ufffd CPU"'
	pycheck "$f" '[c["thread"] for c in d["counters"]] == ["caf\ufffd-101"] * 2'
	pycheck "$f" 'd["counters"][1]["event"] == "name\ufffd\ufffd"'
	pycheck "$f" 'd["counters"][1]["note"] == "bad \ufffd note"'
	# The line break is escaped, not written raw.
	grep -q 'line1\\nline2' "$f"
}

@test "json: attaching has no command" {
	f=$(pt_print json attach)
	run jq -c '[.command, .target, .kernel, .cpu_model]' "$f"
	assert_output '[null,{"kind":"pid","pids":[4242,4243],"tids":[4242,4250,4251],"cpus":[]},null,null]'
}

@test "json: a signal is named" {
	f=$(pt_print json signal)
	run jq -c '.exit' "$f"
	assert_output '{"status":143,"signal":"SIGTERM"}'
}

@test "json: per-CPU rows" {
	f=$(pt_print json percpu)
	run jq -c '[.target.kind, .target.cpus, [.counters[].cpu],
		[.counters[].status]]' "$f"
	assert_output '["system",[0,1,2,3],[0,1,2,3],["counted","counted","counted","not_counted"]]'
}

@test "json: intervals are JSON Lines ending with the summary" {
	f=$(pt_print json interval)
	validate_json "$f"
	[ "$(wc -l <"$f")" = 4 ]
	while IFS= read -r line; do
		jq_assert . <<<"$line" >/dev/null
	done <"$f"
	run jq -c '[.type, .interval, .exit]' "$f"
	assert_output - <<'EOF'
["interval",{"index":1,"start_ns":0,"end_ns":100220457,"partial":false},null]
["interval",{"index":2,"start_ns":100220457,"end_ns":200594992,"partial":false},null]
["interval",{"index":3,"start_ns":200594992,"end_ns":302344354,"partial":true},null]
["summary",null,{"status":0,"signal":null}]
EOF
}

@test "json: interval documents updated in place are those built anew" {
	# the printer keeps its last interval document and overwrites its
	# values; rows change their keys, types and strings between
	# intervals, and threads leave; a third of the rows are the same as
	# in the interval before, copied from the last document's text
	f=$BATS_TEST_TMPDIR/kept.jsonl
	run "$PT" print-kept 300 3 30 7 "$f"
	assert_success
	[[ "$output" =~ ^documents\ 30,\ differ\ 0,\ keys\ changed\ [1-9][0-9]*,\ rows\ repeated\ [1-9][0-9]*$ ]]
	# JSON Lines, each line a document with its counters (the rows mix
	# what no run gives together, so no schema check)
	run "$JSON_PYTHON" -c 'import json, sys
docs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
print(len(docs), sum(len(d["counters"]) for d in docs))' "$f"
	assert_success
	[[ "$output" =~ ^30\ [1-9][0-9]*$ ]]
	run "$PT" print-kept 6000 2 3 5
	assert_success
	[[ "$output" =~ ^documents\ 3,\ differ\ 0, ]]
}

@test "json: dry run attr fields are hex strings" {
	f=$(pt_print json dryrun)
	run jq -c '.events[] | [.name, .resolver, .group, .leader,
		.attr.type, .attr.config, .attr.config1, .attr.config2]' "$f"
	assert_output - <<'EOF'
["cycles","generic",0,true,0,"0x0","0x0","0x0"]
["instructions:u","libpfm4",1,true,0,"0x1","0x0","0x0"]
["sched:sched_switch","tracepoint",1,false,2,"0x1234","0x0","0x0"]
["r1c2","raw",2,true,4,"0x1c2","0xffffffffffffffff","0x8000000000000000"]
["mem:0x7ffd12345678:rw","breakpoint",3,true,5,"0x0","0x7ffd12345678","0x8"]
["power/energy-pkg/","sysfs",4,true,23,"0x2","0x0","0x0"]
["bad� name","sysfs",5,true,23,"0x2","0x0","0x0"]
EOF
	run jq -c '.events[4].attr | [.bp_type, .bp_addr, .bp_len,
		.exclude_user, .exclude_kernel]' "$f"
	assert_output '[3,"0x7ffd12345678","0x8",true,false]'
	run jq -c '.events[3].attr | [.exclude_host, .exclude_idle,
		.exclusive, .pinned]' "$f"
	assert_output '[true,true,true,false]'
	pycheck "$f" 'd["events"][5]["scale"] == 2.3283064365386962890625e-10'
	pycheck "$f" 'd["events"][6]["pmu"] is None and d["events"][6]["unit"] == ""'
}

@test "json: list" {
	f=$(pt_print json list)
	run jq -c '[.schema, .core_pmu_exposed, (.pmus | length),
		(.events | length), .pmus[3], .events[5], .events[0].umasks]' "$f"
	assert_output '["pstat-list/1",true,4,7,{"name":"skl","source":"libpfm4","type":-1,"kernel_exposed":true,"is_core":true},{"section":"libpfm4","pmu":"skl","name":"skl::INST_RETIRED","desc":"Instructions retired","unit":null,"encoding":"0xc0","scale":1,"umasks":[{"name":"ANY_P","description":"Any"},{"name":"PREC_DIST","description":""}]},[]]'
	# a scale given, and one left 0 (taken as 1)
	run jq -c '[.events[3].scale, .events[6].scale]' "$f"
	assert_output '[2.3283064365386963e-10,1]'
}

@test "a write error is reported, not ignored" {
	[ -w /dev/full ] || skip "no /dev/full"
	for c in "json basic" "json interval" "json dryrun" "json list" \
		"csv basic" "csv interval"; do
		run "$PT" print $c /dev/full
		assert_failure 1
		assert_output --partial "No space left on device"
	done
}

@test "csv: perf's seven fields, values and metrics" {
	f=$(pt_print csv basic)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
0.63,msec,task-clock,634812,100.00,0.506,CPUs utilized
0,,context-switches,634812,100.00,0.000,/sec
50,,page-faults,634812,100.00,77.713,K/sec
1234567,,instructions,634812,100.00,0.95,insn per cycle
4321,,branch-misses,634812,100.00,2.35,of all branches
1.25,Joules,power/energy-pkg/,634812,100.00,,
EOF
)"
}

@test "csv: not supported and not counted as perf writes them" {
	f=$(pt_print csv notsupported)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
<not supported>,,cycles,0,100.00,,
0.50,msec,task-clock,500000,100.00,0.400,CPUs utilized
<not counted>,,msr/tsc/,0,100.00,,
<not supported>,,cpu/nonsense/,0,100.00,,
EOF
)"
	f=$(pt_print csv multiplexed)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
200000000,,cycles,1000000,50.00,,
300000000,,instructions,1000000,50.00,1.50,insn per cycle
3000001,,branches,1000000,33.33,,
<not counted>,,cache-misses,0,0.00,,
EOF
)"
}

@test "csv: repeats add perf's noise column after the event" {
	f=$(pt_print csv repeats)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
0.60,msec,task-clock,5.91%,596667,100.00,0.477,CPUs utilized
49,,page-faults,0.68%,596667,100.00,82.680,K/sec
<not supported>,,cycles,0.00%,0,100.00,,
<not counted>,,msr/tsc/,0.00%,0,100.00,,
EOF
)"
}

@test "csv: intervals lead with perf's padded timestamps, then summary" {
	f=$(pt_print csv interval)
	# the last interval was cut short: unlike the table, no comment
	# line says so (perf prints none; scripts read every line)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
     0.100220457,0.97,msec,task-clock,969426,100.00,0.010,CPUs utilized
     0.100220457,45,,page-faults,969426,100.00,46.420,K/sec
     0.200594992,<not counted>,msec,task-clock,0,100.00,,
     0.200594992,<not counted>,,page-faults,0,100.00,,
     0.302344354,0.06,msec,task-clock,63283,100.00,0.001,CPUs utilized
     0.302344354,2,,page-faults,63283,100.00,31.600,K/sec
         summary,1.03,msec,task-clock,1032709,100.00,0.003,CPUs utilized
         summary,47,,page-faults,1032709,100.00,45.510,K/sec
EOF
)"
	# nor with any other separator
	for fmt in csv-semicolon csv-tab csv-multi; do
		f=$(pt_print "$fmt" interval)
		run grep -c '^#' "$f"
		assert_output 0
	done
}

@test "csv: with -r every line has the noise column, interval lines too" {
	# -r 2 known from the start: 0.00% on the interval lines, each a
	# single measurement, as perf writes them
	f=$(pt_print csv interval-repeats)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
     0.100220457,0.97,msec,task-clock,0.00%,969426,100.00,0.010,CPUs utilized
     0.100220457,45,,page-faults,0.00%,969426,100.00,46.420,K/sec
     0.200594992,<not counted>,msec,task-clock,0.00%,0,100.00,,
     0.200594992,<not counted>,,page-faults,0.00%,0,100.00,,
     0.302344354,0.06,msec,task-clock,0.00%,63283,100.00,0.001,CPUs utilized
     0.302344354,2,,page-faults,0.00%,63283,100.00,31.600,K/sec
         summary,1.07,msec,task-clock,3.16%,1100000,100.00,0.004,CPUs utilized
         summary,47,,page-faults,0.00%,1100000,100.00,42.730,K/sec
EOF
)"
	# runs known only at the summary, after the intervals: no noise
	# column anywhere rather than on some lines
	f=$(pt_print csv interval-repeats-late)
	run grep -c '%' "$f"
	assert_output 0
	run cut -d, -f1,5 "$f"
	assert_line --index 0 '     0.100220457,969426'
	assert_line --index 7 '         summary,1100000'
}

@test "csv: per-CPU and per-thread columns" {
	f=$(pt_print csv percpu)
	run cut -d, -f1-2 "$f"
	assert_output - <<'EOF'
CPU0,11.78
CPU1,11.87
CPU2,0.01
CPU3,<not counted>
EOF
	f=$(pt_print csv-semicolon badutf8)
	run cut -d';' -f1,4 "$f"
	assert_line --index 0 $'caf\xe9-101;task-clock'
}

@test "csv: idle threads' lines, alike up to what differs" {
	# the printer copies the end of a line of a row without a value to
	# the next such row of the event: never to one that ran, has
	# another status or a metric
	local want
	want=$(cat <<'EOF'
     0.100220457,idle-1,<not counted>,msec,task-clock,0,100.00,,
     0.100220457,idle-2,<not counted>,msec,task-clock,0,100.00,,
     0.100220457,idle-3,<not counted>,msec,task-clock,2000,50.00,,
     0.100220457,idle-4,<not supported>,msec,task-clock,0,100.00,,
     0.100220457,idle-5,<not counted>,msec,task-clock,0,100.00,0.250,CPUs utilized
     0.100220457,idle-6,<not counted>,msec,task-clock,0,100.00,,
     0.100220457,idle-1,<not counted>,,cs,0,100.00,,
     0.100220457,idle-2,<not counted>,,cs,0,100.00,,
     0.100220457,idle-3,<not counted>,,cs,0,100.00,,
     0.100220457,CPU1,idle-4,<not counted>,,cs,0,100.00,,
EOF
)
	run "$PT" print csv idle-interval
	assert_success
	assert_output "$want"
	run "$PT" print csv-multi idle-interval
	assert_success
	assert_output "${want//,/::}"
}

@test "csv: every record of every case has the same field count" {
	for fmt in $CSV_FORMATS; do
		case "$fmt" in
		csv) sep=, ;;
		csv-semicolon) sep=';' ;;
		csv-tab) sep=$'\t' ;;
		csv-multi) sep=:: ;;
		csv=*) sep=${fmt#csv=} ;;
		esac
		for c in $JSON_CASES; do
			f=$(pt_print "$fmt" "$c")
			csv_records "$f" "$sep" >"$f.rec"
			run jq -sc 'map(length) | unique' "$f.rec"
			assert_output "[$(csv_width "$c")]"
		done
	done
}

@test "csv: a field holding the separator, a quote or a line break is quoted" {
	f=$(pt_print csv sep-in-name)
	assert_equal "$(cat "$f")" "$(cat <<'EOF'
"my,comm-17",3,,"a,b",1000,100.00,,
tab	comm-18,4.00,u;nit,x;y,1000,100.00,,
plain-19,5,,"quo""te",1000,100.00,,
a::b-20,6,,"new
line",1000,100.00,1.500,"per, thing"
EOF
)"
	for fmt in csv csv-semicolon csv-tab csv-multi; do
		case "$fmt" in
		csv) sep=, ;;
		csv-semicolon) sep=';' ;;
		csv-tab) sep=$'\t' ;;
		csv-multi) sep=:: ;;
		esac
		f=$(pt_print "$fmt" sep-in-name)
		csv_records "$f" "$sep" >"$f.rec"
		run jq -sc 'map([.[0], .[2], .[3], .[7]])' "$f.rec"
		assert_output '[["my,comm-17","","a,b",""],["tab\tcomm-18","u;nit","x;y",""],["plain-19","","quo\"te",""],["a::b-20","","new\nline","per, thing"]]'
	done
}

@test "csv: a separator that occurs in numbers still splits right" {
	f=$(pt_print csv=. basic)
	run head -n 1 "$f"
	assert_output '"0.63".msec.task-clock.634812."100.00"."0.506".CPUs utilized'
}

@test "csv: the started-on header is perf's" {
	f="$BATS_TEST_TMPDIR/header.csv"
	TZ=UTC "$PT" print csv header >"$f"
	assert_equal "$(sed -n 1,3p "$f")" "$(cat <<'EOF'
# started on Sun Nov 22 06:09:00 2026

0.63,msec,task-clock,634812,100.00,0.506,CPUs utilized
EOF
)"
	[ "$(grep -c '^# started on' "$f")" = 1 ]
}

@test "json and csv ignore a locale with a decimal comma" {
	comma_locale || skip "no locale with a decimal comma (install locales, or localedef de_DE.UTF-8)"
	# the locale is really in effect: the table follows it
	LC_ALL=$loc "$PT" print table basic | grep -q '[0-9],[0-9][0-9] msec'
	for fmt in json csv csv-semicolon; do
		for c in $JSON_CASES; do
			LC_ALL=C "$PT" print "$fmt" "$c" >"$BATS_TEST_TMPDIR/c"
			LC_ALL=$loc "$PT" print "$fmt" "$c" >"$BATS_TEST_TMPDIR/l"
			cmp "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/l"
		done
	done
	for c in dryrun list; do
		LC_ALL=C "$PT" print json "$c" >"$BATS_TEST_TMPDIR/c"
		LC_ALL=$loc "$PT" print json "$c" >"$BATS_TEST_TMPDIR/l"
		cmp "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/l"
	done
}

@test "table: synthetic reports match their golden files byte for byte" {
	# multiplexed rows end "(50.00%)"; metrics after '#'; rows without a
	# metric padded as perf pads them; <not ...> and <error> rows; -A and
	# --per-thread labels, plain and in intervals, under perf's headers
	for c in basic multiplexed notsupported repeats percpu \
		percpu-interval thread thread-interval; do
		LC_ALL=C "$PT" print table "$c" >"$BATS_TEST_TMPDIR/$c.txt" 2>&1
		diff "$ROOT/tests/data/golden/table-$c.txt" "$BATS_TEST_TMPDIR/$c.txt" ||
			fail "table $c differs from tests/data/golden/table-$c.txt"
	done
	grep -q 'instructions .*#    1.50  insn per cycle  .*(50.00%)$' \
		"$ROOT/tests/data/golden/table-multiplexed.txt"
	grep -q '% of all branches' "$ROOT/tests/data/golden/table-basic.txt"
	grep -qx '#           time CPU                    counts unit events' \
		"$ROOT/tests/data/golden/table-percpu-interval.txt"
	grep -qx '#           time             comm-pid                  counts unit events' \
		"$ROOT/tests/data/golden/table-thread-interval.txt"
	# perf's label columns: "CPU%-7d " and comm in 16, '-', tid in 8
	grep -q '^CPU0       ' "$ROOT/tests/data/golden/table-percpu.txt"
	grep -q '^      pt-threads-4242     ' \
		"$ROOT/tests/data/golden/table-thread.txt"
	! grep -q '(null)' "$BATS_TEST_TMPDIR"/*.txt
}
