#!/usr/bin/env bats
# pstat counted against a real kernel PMU driver (issue 30): Debian's
# arm64 kernel under qemu-system-aarch64 -machine virt -cpu max, whose
# armv8_pmuv3 driver has six event counters and the cycle counter. With
# -smp 1 -icount shift=0 a user-mode instruction count is exact, so the
# programs of tests/pmulab/loop.S retire a known number: loop1m
# 2000005, loop2m 4000005, loop10m 20000005, loop50m 100000005,
# sysloop10k 40005.
#
# tests/pmulab/lab boots the guest once, in setup_file; the guest runs
# every scenario of tests/pmulab/guest.sh and the tests below assert on
# the results ($PMU/NAME.out, .err, .rc). To add a scenario: a line in
# guest.sh and a test here. PSTAT_PMULAB_RESULTS=DIR reuses the results
# of an earlier `tests/pmulab/lab DIR` instead of booting.

load test_helper
load json_helper

setup_file() {
	if [ -n "${PSTAT_PMULAB_RESULTS:-}" ]; then
		export PMU=$PSTAT_PMULAB_RESULTS
		return 0
	fi
	export PMU=$BATS_FILE_TMPDIR/pmu
	local st=0 t0=$SECONDS
	"$ROOT/tests/pmulab/lab" "$PMU" >"$BATS_FILE_TMPDIR/lab.log" 2>&1 || st=$?
	echo "# pmulab: $((SECONDS - t0)) s ($(tr '\n' ' ' <"$PMU/time"))" >&3
	if [ "$st" != 0 ] && [ "$st" != 77 ]; then
		tail -20 "$BATS_FILE_TMPDIR/lab.log" >"$PMU/failed"
	fi
}

setup() {
	[ ! -e "$PMU/skip" ] || skip "$(cat "$PMU/skip")"
	if [ ! -e "$PMU/guest.done" ]; then
		echo "the lab failed: $(cat "$PMU/failed" 2>/dev/null)" >&2
		return 1
	fi
}

# The CSV of scenario $1 (pstat -x, or perf -x,), one event per line.
csv() {
	local f=$PMU/$1.out
	[ -s "$f" ] || f=$PMU/$1.err
	grep -v '^#' "$f" | grep -v '^$'
}

# rc NAME: the scenario's exit status
rc() {
	cat "$PMU/$1.rc"
}

@test "pmulab: the guest runs the kernel's armv8_pmuv3 driver" {
	run cat "$PMU/facts.out"
	assert_output --partial 'enabled with armv8_pmuv3 PMU driver'
	assert_output --partial 'CPU part	: 0x051'
}

@test "pmulab: instructions:u is exact in the table, CSV and JSON" {
	[ "$(rc table)" = 0 ]
	run grep -E '^ +2000005 +instructions:u' "$PMU/table.err"
	assert_success
	[ "$(rc csv)" = 0 ]
	run csv csv
	assert_output '2000005,,instructions:u,'"$(cut -d, -f4 "$PMU/csv.out")"',100.00,,'
	[ "$(rc json)" = 0 ]
	jq_assert '[.counters[] | .raw] == [2000005, 2000005]
		and ([.counters[] | .value] == [2000005, 2000005])
		and .counters[0].event == "instructions:u"
		and .counters[0].pmu == "armv8_pmuv3"' "$PMU/json.out"
	# and perf agrees
	run grep -E '^ +2000005 +instructions:u' "$PMU/perf-table.err"
	assert_success
	run csv perf-csv
	assert_output --regexp '^2000005,,instructions:u,'
}

@test "pmulab: system calls do not reach instructions:u (4n+5 exactly)" {
	run csv sys
	assert_output --regexp '^40005,,instructions:u,'
}

@test "pmulab: -r 5 gives five exact values, standard deviation 0" {
	jq_assert '.runs == 5 and .counters[0].samples == [2000005, 2000005,
		2000005, 2000005, 2000005] and .counters[0].stddev == 0
		and .counters[0].value == 2000005' "$PMU/repeat.out"
	# perf's -x, puts the spread after the unit
	run csv perf-repeat
	assert_output --regexp '^2000005,,instructions:u,0.00%,'
}

@test "pmulab: the -I intervals add up to the exact count" {
	run awk -F, '$4 == "instructions:u" && $1 !~ /summary/ { s += $2; n++ }
		END { print (n > 1 ? s : "too few intervals") }' "$PMU/interval.out"
	assert_output 20000005
	run awk -F, '$4 == "instructions:u" { s += $2; n++ }
		END { print (n > 1 ? s : "too few intervals") }' "$PMU/perf-interval.err"
	assert_output 20000005
}

@test "pmulab: a --control region counts only the region, exactly" {
	[ "$(rc region)" = 0 ]
	# loop.S: 2n+16, at most 5 more when the enable overtook the wait;
	# the loops before and after it (2n+2 each) are not counted
	run csv region
	assert_output --regexp '^20000(1[6-9]|2[01]),,instructions:u,'
}

@test "pmulab: pstat bench: 2n loops against n is 2.000x, an interval of width 0" {
	[ "$(rc bench)" = 0 ]
	jq_assert '[.commands[].measures[] | select(.name == "instructions:u")
			| .samples] == [[2000005, 2000005, 2000005],
				[4000005, 4000005, 4000005]]
		and (.comparisons[0].measures[]
			| select(.measure == "instructions:u")
			| .ratio == 4000005 / 2000005
			and .ratio_interval == [.ratio, .ratio]
			and .delta == 2000000)' "$PMU/bench.out"
	run grep -E '^\* instructions:u +2\.000x +\[2\.000x, 2\.000x\]' \
		"$PMU/bench-table.err" "$PMU/bench-table.out"
	assert_success
}

@test "pmulab: pstat compare of two exact runs: no change, no spread" {
	[ "$(rc compare)" = 0 ]
	jq_assert '.entries[] | select(.name == "instructions:u")
		| .base.value == 2000005 and .new.value == 2000005
		and .delta == 0 and .verdict == "unchanged"' "$PMU/compare.out"
}

@test "pmulab: the attrs pstat encodes are perf's, for every form and modifier" {
	local m n=0
	for m in '' u k h G H uk uh kh ukh uG kH GH ukG groups; do
		run python3 "$ROOT/tests/pmulab/attrs.py" \
			"$PMU/attrs-perf-$m.err" "$PMU/attrs-pstat-$m.out"
		assert_success
		assert_output --regexp '^[0-9]+ events agree$'
		n=$((n + 1))
	done
	[ "$n" = 15 ]
}

# Ten counters on six: each scaled within 2% of the exact count; JSON's
# value is raw x enabled / running. At the start four of the ten wait for
# a counter, so at least four run less than all the time; how many more
# the rotation leaves below 100% varies from run to run.
@test "pmulab: multiplexing: ten instructions:u each within 2%, scaled as perf" {
	run awk -F, '$3 == "instructions:u" { n++
		d = $1 / 20000005 - 1; if (d < 0) d = -d
		if (d > 0.02) print "off by " d * 100 "%: " $0
		if ($5 < 100) m++ }
		END { print n " rows, " (m >= 4 ? "multiplexed" : m " multiplexed") }' \
		"$PMU/mux-csv.out"
	assert_output '10 rows, multiplexed'
	jq_assert '([.counters[]
			| (.raw * .time_enabled_ns / .time_running_ns) as $v
			| (.value - $v) | fabs < 1] | all)
		and ([.counters[] | (.value / 20000005 - 1) | fabs < 0.02]
			| all)
		and ([.counters[] | .running_pct | select(. < 100)]
			| length >= 4)' "$PMU/mux-json.out"
	# the table shows each running percentage as perf does, "(21.30%)"
	n=$(grep -cE 'instructions:u +\([0-9]+\.[0-9]{2}%\)$' "$PMU/mux.err")
	[ "$n" -ge 4 ]
}

# Eight counters on six, 100 ms in intervals of 20: each counter's
# scaled intervals add up to the exact count within 2%.
@test "pmulab: multiplexing with -I: the scaled intervals add up within 2%" {
	run awk -F, '$4 == "instructions:u" && $1 !~ /summary/ {
		i = $1 == t ? i + 1 : 0; t = $1; if ($5 < 100) m++
		if ($2 ~ /^[0-9]+$/) s[i] += $2; n[i]++ }
		END { for (i = 0; i < 8; i++) {
			d = s[i] / 100000005 - 1; if (d < 0) d = -d
			printf "%d %s\n", n[i], d < 0.02 ? "within 2%" : "off by " d }
		print (m > 0 ? "multiplexed" : "never multiplexed") }' \
		"$PMU/mux-i.out"
	assert_line --index 0 --regexp '^[4-9] within 2%$'
	[ "$(printf '%s\n' "${lines[@]}" | sort -u | wc -l)" = 2 ]
	assert_line --index 8 multiplexed
}

@test "pmulab: groups: six events and cycles fit; :W falls back, each within 2%" {
	[ "$(rc group-fit)" = 0 ]
	run awk -F, '$5 == "100.00" { n++ } END { print n }' "$PMU/group-fit.out"
	assert_output 7
	[ "$(rc group-w)" = 0 ]
	run awk -F, '$3 == "r08" { n++; d = $1 / 20000005 - 1
		if (d < 0) d = -d; if (d < 0.02) ok++ }
		END { print n, ok }' "$PMU/group-w.out"
	assert_output '7 7'
}

@test "pmulab: three overlapping groups each count together, within 2%" {
	[ "$(rc group-3)" = 0 ]
	# a group's members share one running time
	run awk -F, '{ d = $1 / 20000005 - 1; if (d < 0) d = -d
		if (d >= 0.02) print "off: " $0
		g = NR <= 2 ? 1 : NR <= 5 ? 2 : 3; run[g] = run[g] " " $4 }
		END { print NR; for (g = 1; g <= 3; g++) print run[g] }' \
		"$PMU/group-3.out"
	assert_line --index 0 8
	assert_line --index 1 --regexp '^ ([0-9]+) \1$'
	assert_line --index 2 --regexp '^ ([0-9]+) \1 \1$'
	assert_line --index 3 --regexp '^ ([0-9]+) \1 \1$'
}

@test "pmulab: -a -A -I 200, -C 0, --per-core, --per-socket on one CPU" {
	[ "$(rc cpus-a)" = 0 ]
	run awk -F, '$2 == "CPU0" && $5 == "cycles" && $1 !~ /summary/ { n++ }
		END { print (n >= 5) }' "$PMU/cpus-a.out"
	assert_output 1
	run csv cpus-c
	assert_line --index 0 --regexp '^[0-9]+,,cycles,[0-9]+,100.00,,$'
	run csv per-core
	assert_output --regexp '^S0-D0-C0,1,[0-9]+,,cycles,'
	run csv per-socket
	assert_output --regexp '^S0,1,[0-9]+,,cycles,'
}

@test "pmulab: pstat serve with hardware counters, scraped with wget" {
	[ "$(rc serve)" = 0 ]
	run grep -E '^pstat_events_total\{event="(instructions|cycles)",pmu="armv8_pmuv3"\} [1-9][0-9]*$' \
		"$PMU/serve.out"
	assert_success
	[ "${#lines[@]}" = 2 ]
}

@test "pmulab: -M ipc is exactly 1.000 (cycles equal instructions under shift=0)" {
	jq_assert '(.metrics[] | select(.name == "ipc") | .value) == 1
		and .counters[0].raw == .counters[1].raw' "$PMU/ipc-j.out"
}

@test "pmulab: --topdown is refused, naming the missing Armv8.4 slot events" {
	[ "$(rc topdown)" = 125 ]
	run cat "$PMU/topdown.err"
	assert_output --partial 'stall_slot_frontend'
	assert_output --partial 'Armv8.4'
}

# Issue 30's first contact, items 1 to 6, on the real driver.

@test "pmulab: no 'no core PMU' hint where the core PMU counts (pstat -d)" {
	[ "$(rc detailed)" = 0 ]
	run cat "$PMU/detailed.err"
	assert_output --regexp '<not supported> +branches'
	assert_output --regexp '[0-9]+ +instructions'
	refute_output --partial 'no core PMU'
}

@test "pmulab: doctor probes the arm64 PMU and suggests no x86 tables" {
	[ "$(rc doctor-j)" = 0 ]
	jq_assert '(.checks[] | select(.name == "core_pmu") | .status) == "ok"
		and (.checks[] | select(.name == "probe:instructions:u")
			| .status) == "ok"
		and (.result | test("hardware counting works"))' \
		"$PMU/doctor-j.out"
	run cat "$PMU/doctor.out"
	assert_success
	refute_output --partial 'skl'
	refute_output --partial 'amd64'
	assert_output --partial 'LIBPFM_FORCE_PMU=NAME (arm_n1'
}

# A counter multiplexed out of a whole interval: perf prints 0.00 and
# (0.00%) for it (enabled, never running), and so does pstat.
@test "pmulab: an interval a counter never ran in reads 0.00 and (0.00%), as perf" {
	run awk -F, '$2 == "<not counted>" { n++; if ($5 == 0 && $6 == "0.00") ok++ }
		END { print (n > 0 && n == ok ? "as perf" : n " rows, " ok " as perf") }' \
		"$PMU/perf-mux-i5.err"
	assert_output 'as perf'
	run awk -F, '$2 == "<not counted>" { n++; if ($5 == 0 && $6 == "0.00") ok++ }
		END { print (n > 0 && n == ok ? "as perf" : n " rows, " ok " as perf") }' \
		"$PMU/mux-i5.out"
	assert_output 'as perf'
	run grep -c '<not counted> .*instructions:u .*(0.00%)$' "$PMU/mux-i5-table.err"
	assert_output --regexp '^[1-9]'
	[ "$output" = "$(grep -c '<not counted>' "$PMU/mux-i5-table.err")" ]
}

# Seven event counters asked of six: the command runs, as with perf; the
# group's events are <not counted>, and a warning says which group,
# which member, and what the PMU holds; -j's document is complete.
@test "pmulab: a group the PMU cannot hold: named, <not counted>, -j complete" {
	[ "$(rc group-7)" = 0 ]
	run csv group-7
	assert_output "$(printf '<not counted>,,r08,0,100.00,,\n%.0s' 1 2 3 4 5 6 7)"
	run cat "$PMU/group-7.err"
	assert_line --index 0 "pstat: warning: the group {r08,r08,r08,r08,r08,r08,r08} cannot be counted: the kernel refused its member 7, r08 (Invalid argument), which counts on its own: armv8_pmuv3 holds at most 6 of the group's events at once; they are <not counted>"
	assert_line --index 1 --partial 'pstat: hint: add :W'
	[ "$(rc group-7-j)" = 0 ]
	jq_assert '.exit.status == 0 and (.counters | length) == 7
		and ([.counters[] | .status] | unique) == ["not_counted"]
		and .counters[0].note == "its group does not fit the PMU"' \
		"$PMU/group-7-j.out"
	run grep -c '<not counted> .*r08 .*(its group does not fit the PMU)' \
		"$PMU/group-7-table.err"
	assert_output 7
	# perf runs it too
	[ "$(rc perf-group-7)" = 0 ]
}

@test "pmulab: -M ipc and -M Summary print each value once" {
	[ "$(rc ipc)" = 0 ]
	run grep -cE 'insn per cycle|insn/cycle ipc' "$PMU/ipc.err"
	assert_output 1
	run grep -E '# +1\.000 insn/cycle ipc' "$PMU/ipc.err"
	assert_success
	[ "$(rc summary)" = 0 ]
	run grep -cE 'insn per cycle|insn/cycle ipc' "$PMU/summary.err"
	assert_output 1
	run grep -cE 'GHz' "$PMU/summary.err"
	assert_output 1
	run grep -cE 'CPUs' "$PMU/summary.err"
	assert_output 1
}

@test "pmulab: JSON cpu_model names the implementer and part; -v shows config1" {
	jq_assert '.cpu_model == "CPU implementer 0x00 part 0x051"' "$PMU/json.out"
	run cat "$PMU/verbose.err"
	assert_output --partial "resolved by sysfs (pmu armv8_pmuv3, type 8, config 0x8, config1 0x1)"
}

# Every document the guest wrote, against its schema (an independent
# parser: python's jsonschema).
@test "pmulab: the guest's JSON documents match their schemas" {
	validate_json_files "$ROOT/schema/pstat.schema.json" "$PMU/json.out" \
		"$PMU/repeat.out" "$PMU/mux-json.out" "$PMU/group-7-j.out" \
		"$PMU/ipc-j.out" "$PMU/a.json" "$PMU/b.json"
	validate_json_files "$ROOT/schema/pstat-bench.schema.json" "$PMU/bench.out"
	validate_json_files "$ROOT/schema/pstat-compare.schema.json" "$PMU/compare.out"
	validate_json_files "$ROOT/schema/pstat-doctor.schema.json" "$PMU/doctor-j.out"
	validate_json_files "$ROOT/schema/pstat-dryrun.schema.json" "$PMU/attrs-pstat-u.out"
}
