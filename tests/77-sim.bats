#!/usr/bin/env bats
# The simulated PMU, sim: commands run under Valgrind (cachegrind, or
# callgrind for --sim-toggle-collect), whose counts are exact. Programs
# with known instruction counts: tests/progs/loop2n.S retires 2N + 4
# instructions, tests/progs/spin.c 2N plus what libc costs, the same
# for every N of as many digits.

load test_helper
load json_helper
bats_require_minimum_version 1.5.0

setup_file() {
	local d=$BATS_FILE_TMPDIR

	command -v valgrind >/dev/null || return 0
	[ "$(uname -m)" = x86_64 ] || return 0
	cc -nostdlib -static -DN=1000000 -o "$d/loop" "$ROOT/tests/progs/loop2n.S"
	# one in a thousand more: 2,002,004 against 2,000,004
	cc -nostdlib -static -DN=1001000 -o "$d/loop-slower" \
		"$ROOT/tests/progs/loop2n.S"
	cc -O1 -o "$d/spin" "$ROOT/tests/progs/spin.c"
}

setup() {
	LOOP=$BATS_FILE_TMPDIR/loop
	SLOWER=$BATS_FILE_TMPDIR/loop-slower
	SPIN=$BATS_FILE_TMPDIR/spin
}

# Tests that run Valgrind: skip, saying why, where it cannot.
need_sim() {
	command -v valgrind >/dev/null ||
		skip "valgrind is not installed (apt-get install valgrind)"
	[ "$(uname -m)" = x86_64 ] ||
		skip "the test programs are x86-64 assembly"
	[[ ${PSTAT_WRAP:-} != *valgrind* ]] ||
		skip "valgrind cannot run under valgrind (make check-valgrind)"
}

# The value of the CSV row of EVENT in file $1.
csv_value() { # FILE EVENT
	awk -F, -v e="$2" '$3 == e { print $1 }' "$1"
}

@test "sim: Valgrind's output files and --sim-cache, parsed (pure)" {
	run_table sim-out sim.test
	run_table sim-cache sim-cache.test
}

@test "sim: --dry-run shows the encoding, valid against its schema" {
	"$PSTAT" --dry-run -j -e 'sim/instructions/,sim/D1mr/:u,sim/branch-misses,name=bm/' \
		>"$BATS_TEST_TMPDIR/d.json"
	validate_json "$BATS_TEST_TMPDIR/d.json" "$ROOT/schema/pstat-dryrun.schema.json"
	jq_assert '[.events[] | [.name, .pmu, .resolver]] == [
		["sim/instructions/", "sim", "sim"], ["sim/D1mr/:u", "sim", "sim"],
		["bm", "sim", "sim"]] and
		([.events[].attr.type] | unique | length) == 1' "$BATS_TEST_TMPDIR/d.json"
}

@test "sim: the static program's exact count, 2N + 4, on every run" {
	need_sim
	for i in 1 2 3; do
		run "$PSTAT" -x, -o "$BATS_TEST_TMPDIR/c$i" -e sim/instructions/ -- "$LOOP"
		assert_success
		[ "$(csv_value "$BATS_TEST_TMPDIR/c$i" sim/instructions/)" = 2000004 ]
	done
}

@test "sim: through libc, the count is exact and the same on every run" {
	need_sim
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/a" -e sim/instructions/ -- "$SPIN" 1000000
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/b" -e sim/instructions/ -- "$SPIN" 1000000
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/c" -e sim/instructions/ -- "$SPIN" 2000000
	a=$(csv_value "$BATS_TEST_TMPDIR/a" sim/instructions/)
	b=$(csv_value "$BATS_TEST_TMPDIR/b" sim/instructions/)
	c=$(csv_value "$BATS_TEST_TMPDIR/c" sim/instructions/)
	[ "$a" -gt 2000000 ]
	[ "$a" = "$b" ]
	# a million more iterations of dec, jnz: two million more
	[ $((c - a)) = 2000000 ]
}

@test "sim: -r 5 has no variance, and JSON says pmu sim, unscaled" {
	need_sim
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/r.json" -r 5 -e sim/instructions/ -- "$LOOP"
	assert_success
	jq_assert '.counters[] | select(.event == "sim/instructions/") |
		.pmu == "sim" and .status == "counted" and .stddev == 0 and
		.mean == 2000004 and (.samples | length) == 5 and
		all(.samples[]; . == 2000004) and .running_pct == 100 and
		.time_enabled_ns == .time_running_ns' "$BATS_TEST_TMPDIR/r.json"
}

@test "sim: pstat compare flags a 0.1% instruction regression every time" {
	need_sim
	cd "$BATS_TEST_TMPDIR"
	"$PSTAT" -j -o base.json -r 3 -e sim/instructions/ -- "$LOOP"
	for i in 1 2 3; do
		"$PSTAT" -j -o new.json -r 3 -e sim/instructions/ -- "$SLOWER"
		run "$PSTAT" compare --threshold 'sim/instructions/=0.05%' base.json new.json
		assert_failure 3
		assert_output --partial 'regressed'
		# and the same program again is no regression
		"$PSTAT" -j -o same.json -r 3 -e sim/instructions/ -- "$LOOP"
		run "$PSTAT" compare --threshold 'sim/instructions/=0.05%' base.json same.json
		assert_success
	done
	# the one-step gate of the README's CI recipe
	run "$PSTAT" --baseline base.json --threshold 'sim/instructions/=0.05%' \
		-j -o branch.json --compare-output cmp.txt \
		-r 3 -e sim/instructions/ -- "$SLOWER"
	assert_failure 3
	grep -q regressed cmp.txt
}

@test "sim: pstat bench's ratio of sim counts is exact" {
	need_sim
	run "$PSTAT" bench -N -r 3 -j -o "$BATS_TEST_TMPDIR/b.json" \
		-e sim/instructions/ "$LOOP" "$SLOWER"
	assert_success
	jq_assert '[.. | objects | select(.measure? == "sim/instructions/")][0] |
		.ratio == (2002004 / 2000004) and
		.ratio_interval == [2002004 / 2000004, 2002004 / 2000004] and
		.verdict == "slower"' "$BATS_TEST_TMPDIR/b.json"
}

@test "sim: table, CSV, JSON and OpenMetrics carry the counts" {
	need_sim
	run "$PSTAT" -e sim/instructions/,sim/L1-dcache-loads/ -- "$LOOP"
	assert_success
	assert_output --regexp '2000004 +sim/instructions/'
	assert_output --regexp ' 0 +sim/L1-dcache-loads/'
	"$PSTAT" -x';' -o "$BATS_TEST_TMPDIR/c" -e sim/instructions/ -- "$LOOP"
	python3 - "$BATS_TEST_TMPDIR/c" <<'EOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1]), delimiter=';')
        if r and not r[0].startswith('#')]
assert [r[0] for r in rows if r[2] == "sim/instructions/"] == ["2000004"], rows
EOF
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/j" -e sim/instructions/ -- "$LOOP"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["counters"] if c["event"] == "sim/instructions/"]
assert c[0]["value"] == 2000004 and c[0]["pmu"] == "sim", c' "$BATS_TEST_TMPDIR/j"
	"$PSTAT" --openmetrics -o "$BATS_TEST_TMPDIR/om" -e sim/instructions/ -- "$LOOP"
	grep -qx 'pstat_events_total{event="sim/instructions/",pmu="sim"} 2000004' \
		"$BATS_TEST_TMPDIR/om"
	/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null ||
		skip "python3-prometheus-client is not installed: the exposition was not parsed"
	run /usr/bin/python3 "$ROOT/tests/lib/om-check.py" openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line --partial 'sim/instructions/'
}

@test "sim: metrics over sim events" {
	need_sim
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/m.json" \
		--metric 'loop_branch_share = sim@cond-branches@ / sim@instructions@' \
		--metric 'sim_ipms = sim@instructions@ / task-clock' \
		-- "$LOOP"
	assert_success
	# N conditional branches of 2N + 4 instructions
	jq_assert '.metrics[] | select(.name == "loop_branch_share") |
		.value == (1000000 / 2000004)' "$BATS_TEST_TMPDIR/m.json"
}

@test "sim: --sim counts the default events with the hardware ones on sim" {
	need_sim
	run "$PSTAT" --sim -x, -- "$LOOP"
	assert_success
	assert_line --regexp '^2000004,,sim/instructions/,'
	assert_line --regexp '^1000000,,sim/branches/,'
	assert_line --regexp ',,sim/branch-misses/,'
	assert_line --regexp ',msec,task-clock,'
	refute_line --regexp ',cycles,'
	# no rate beside the sim rows: it would be Valgrind's speed
	run "$PSTAT" --sim -- "$LOOP"
	assert_success
	assert_line --regexp '^ +2000004 +sim/instructions/ *$'
	assert_line --regexp 'task-clock +# +[0-9.]+ CPUs utilized'
}

@test "sim: the command's exit status, 128+N for a signal, 126 and 127" {
	need_sim
	run "$PSTAT" -e sim/instructions/ -- "$SPIN" 10 7
	assert_failure 7
	assert_output --regexp 'sim/instructions/'
	run "$PSTAT" -e sim/instructions/ -- sh -c 'kill -SEGV $$'
	assert_failure 139
	assert_output --regexp 'sim/instructions/'
	run -127 "$PSTAT" -e sim/instructions/ -- "$BATS_TEST_TMPDIR/nonexistent"
	assert_failure 127
	assert_output "pstat: cannot run '$BATS_TEST_TMPDIR/nonexistent': No such file or directory"
	touch "$BATS_TEST_TMPDIR/plain"
	run "$PSTAT" -e sim/instructions/ -- "$BATS_TEST_TMPDIR/plain"
	assert_failure 126
	assert_output --partial "pstat: cannot run '$BATS_TEST_TMPDIR/plain': Permission denied"
}

@test "sim: a program valgrind cannot run, an instruction it cannot emulate" {
	need_sim
	# the static program with its ELF machine made AArch64's
	cp "$LOOP" "$BATS_TEST_TMPDIR/foreign"
	printf '\xb7\x00' | dd of="$BATS_TEST_TMPDIR/foreign" bs=1 seek=18 \
		conv=notrunc status=none
	run "$PSTAT" -e sim/instructions/ -- "$BATS_TEST_TMPDIR/foreign"
	assert_failure 126
	assert_line --regexp "^pstat: cannot run '.*/foreign': valgrind"
	[ "$(grep -c '^pstat:' <<<"$output")" = 1 ]
	# an AVX-512 instruction, which Valgrind 3.19 does not know
	printf '.globl _start\n_start:\n vpaddd %%zmm0,%%zmm1,%%zmm2\n mov $60,%%eax\n syscall\n' \
		>"$BATS_TEST_TMPDIR/avx.S"
	cc -nostdlib -static -o "$BATS_TEST_TMPDIR/avx" "$BATS_TEST_TMPDIR/avx.S"
	run "$PSTAT" -e sim/instructions/ -- "$BATS_TEST_TMPDIR/avx"
	assert_failure 132
	assert_line --regexp "^pstat: '.*/avx' died of .*: valgrind cannot emulate an instruction of the command \(unhandled instruction bytes: 0x62 "
	[ "$(grep -c '^pstat:' <<<"$output")" = 1 ]
}

@test "sim: valgrind missing says how to install it" {
	mkdir "$BATS_TEST_TMPDIR/empty"
	# (pstat itself: the JSON-keeping wrapper needs a PATH)
	PATH=$BATS_TEST_TMPDIR/empty run "$ROOT/pstat" -e sim/instructions/ -- "$LOOP"
	assert_failure 125
	assert_line 'pstat: cannot count sim events: valgrind is not installed (no valgrind in PATH)'
	assert_line --partial 'pstat: hint: install it: apt-get install valgrind'
}

@test "sim: refusals say why" {
	need_sim
	refused() { # PATTERN ARGS...
		local want=$1

		shift
		run "$PSTAT" "$@"
		assert_failure 125
		assert_output --regexp "$want"
		[ "${#lines[@]}" -le 2 ]
	}
	refused "cannot count cycles with sim events: valgrind runs" \
		-e sim/instructions/,cycles -- "$LOOP"
	refused "cannot count syscalls:sys_enter_write with sim events" \
		-e sim/instructions/,syscalls:sys_enter_write -- "$LOOP"
	refused "cannot count -a with sim events" -a -e sim/instructions/ -- "$LOOP"
	refused "cannot count -C with sim events" -C 0 -e sim/instructions/ -- "$LOOP"
	refused "cannot count -p with sim events" -p $$ -e sim/instructions/
	refused "^pstat: sim events need a command: valgrind runs it" -e sim/instructions/
	refused "cannot count --per-thread with sim events" \
		--per-thread -t $$ -e sim/instructions/
	refused "cannot count -t with sim events" -t $$ -e sim/instructions/
	refused "cannot count -I with sim events: valgrind writes its counts when the program ends" \
		-I 100 -e sim/instructions/ -- "$LOOP"
	refused "cannot count -D with sim events: .*--sim-toggle-collect" \
		-D 10 -e sim/instructions/ -- "$LOOP"
	refused "a group cannot hold sim events and others" \
		-e '{sim/instructions/,task-clock}' -- "$LOOP"
	refused "modifier 'k' of 'sim/instructions/k'" -e sim/instructions/k -- "$LOOP"
	refused "unknown sim event 'cycles'" -e sim/cycles/ -- "$LOOP"
	refused "'sim/branch-misses/' needs branch simulation" \
		--sim-simulate cache -e sim/branch-misses/ -- "$LOOP"
	refused "--sim-cache needs sim events" --sim-cache LL=8388608,16,64 -- "$LOOP"
	refused "--sim replaces the default events" --sim -e sim/instructions/ -- "$LOOP"
	refused "bad --sim-cache 'L2=1,1,64'" --sim-cache L2=1,1,64 \
		-e sim/L1-dcache-load-misses/ -- "$LOOP"
	refused "the line size must be a power of two" --sim-cache D1=32768,8,48 \
		-e sim/L1-dcache-load-misses/ -- "$LOOP"
}

@test "sim: software events alongside count the emulated run" {
	need_sim
	run "$PSTAT" -x, -e sim/instructions/,task-clock,page-faults -- "$LOOP"
	assert_success
	assert_line --regexp '^2000004,,sim/instructions/,'
	# valgrind's own start-up is in them: far more than the program's
	# two pages
	pf=$(awk -F, '$3 == "page-faults" { print $1 }' <<<"$output")
	[ "$pf" -gt 100 ]
	# and the report says so beside them
	run "$PSTAT" -e sim/instructions/,task-clock -- "$LOOP"
	assert_line --regexp 'msec task-clock .*\(under valgrind, emulation included\)$'
	assert_line --regexp '^ +2000004 +sim/instructions/ *$'
	"$PSTAT" -j -o "$BATS_TEST_TMPDIR/n.json" -e sim/instructions/,task-clock -- "$LOOP"
	jq_assert '[.counters[] | [.event, .note]] == [
		["sim/instructions/", null],
		["task-clock", "under valgrind, emulation included"]]' \
		"$BATS_TEST_TMPDIR/n.json"
}

@test "sim: children are followed, -i counts the command alone" {
	need_sim
	run "$PSTAT" -x, -e sim/instructions/ -- sh -c "\"$LOOP\"; \"$LOOP\""
	assert_success
	all=$(awk -F, '$3 == "sim/instructions/" { print $1 }' <<<"$output")
	[ "$all" -gt 4000008 ]
	run "$PSTAT" -i -x, -e sim/instructions/ -- sh -c "\"$LOOP\"; \"$LOOP\""
	assert_success
	sh_only=$(awk -F, '$3 == "sim/instructions/" { print $1 }' <<<"$output")
	[ "$sh_only" -lt 2000004 ]
	[ $((all - sh_only)) -ge 4000008 ]
}

@test "sim: --sim-toggle-collect counts one function, exactly" {
	need_sim
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/a" --sim-toggle-collect=spin \
		-e sim/instructions/ -- "$SPIN" 1000000
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/b" --sim-toggle-collect=spin \
		-e sim/instructions/ -- "$SPIN" 2000000
	a=$(csv_value "$BATS_TEST_TMPDIR/a" sim/instructions/)
	b=$(csv_value "$BATS_TEST_TMPDIR/b" sim/instructions/)
	# the loop and spin's own few instructions, nothing of main or libc
	[ "$a" -ge 2000000 ] && [ "$a" -lt 2000010 ]
	[ $((b - a)) = 2000000 ]
}

@test "sim: cache geometry and what is simulated" {
	need_sim
	# 4 KiB of data read twice, in 64-byte lines: 64 cold misses a read,
	# and with a D1 of 1 KiB the second read misses again
	cat >"$BATS_TEST_TMPDIR/walk.c" <<'EOF'
static volatile char buf[4096];
int main(void)
{
	int s = 0;
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 4096; i += 64)
			s += buf[i];
	return s;
}
EOF
	cc -O1 -o "$BATS_TEST_TMPDIR/walk" "$BATS_TEST_TMPDIR/walk.c"
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/big" -e sim/L1-dcache-load-misses/ -- \
		"$BATS_TEST_TMPDIR/walk"
	"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/small" --sim-cache D1=1024,2,64 \
		-e sim/L1-dcache-load-misses/ -- "$BATS_TEST_TMPDIR/walk"
	big=$(csv_value "$BATS_TEST_TMPDIR/big" sim/L1-dcache-load-misses/)
	small=$(csv_value "$BATS_TEST_TMPDIR/small" sim/L1-dcache-load-misses/)
	[ $((small - big)) -ge 64 ]
	# data reads do not depend on where the data lies, and are exact;
	# misses do (the environment's size moves the stack): not compared
	for i in 1 2; do
		"$PSTAT" -x, -o "$BATS_TEST_TMPDIR/dr$i" --sim-cache D1=1024,2,64 \
			-e sim/L1-dcache-loads/ -- "$BATS_TEST_TMPDIR/walk"
	done
	dr=$(csv_value "$BATS_TEST_TMPDIR/dr1" sim/L1-dcache-loads/)
	[ "$dr" -gt 128 ]
	[ "$(csv_value "$BATS_TEST_TMPDIR/dr2" sim/L1-dcache-loads/)" = "$dr" ]
	# valgrind is asked for no more than the events need (-v says how)
	run "$PSTAT" -v -e sim/instructions/ -- "$LOOP"
	assert_success
	assert_output --partial -- '--cache-sim=no --branch-sim=no'
	run "$PSTAT" -v -e sim/branch-misses/ -- "$LOOP"
	assert_output --partial -- '--cache-sim=no --branch-sim=yes'
	run "$PSTAT" -v --sim-simulate cache,branch -e sim/instructions/ -- "$LOOP"
	assert_output --partial -- '--cache-sim=yes --branch-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64'
}

@test "sim: valgrind's files stay in a directory of pstat's, removed after" {
	need_sim
	mkdir "$BATS_TEST_TMPDIR/cwd" "$BATS_TEST_TMPDIR/tmp"
	cd "$BATS_TEST_TMPDIR/cwd"
	TMPDIR=$BATS_TEST_TMPDIR/tmp run "$PSTAT" -r 2 -e sim/instructions/ -- \
		sh -c "\"$LOOP\"; kill -TERM \$\$"
	assert_failure 143
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/cwd")" ]
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ]
	# the user's valgrind settings do not reach it
	echo '--tool=memcheck' >"$BATS_TEST_TMPDIR/cwd/.valgrindrc"
	VALGRIND_OPTS=--cachegrind-out-file=/nonexistent/x run \
		"$PSTAT" -x, -e sim/instructions/ -- "$LOOP"
	assert_success
	assert_line --regexp '^2000004,,sim/instructions/,'
}

@test "sim: pstat list sim and pstat doctor show the simulated PMU" {
	run "$PSTAT" list sim
	assert_success
	assert_line --regexp '^Simulated PMU sim \(the command runs under Valgrind, 4 to 20 times slower'
	assert_line --regexp '^  sim/instructions/ +\[Simulated PMU event\]'
	assert_line --regexp '^  sim/LLC-load-misses/ '
	"$PSTAT" list -j sim >"$BATS_TEST_TMPDIR/l.json"
	validate_json "$BATS_TEST_TMPDIR/l.json" "$ROOT/schema/pstat-list.schema.json"
	jq_assert '[.events[] | select(.section == "sim")] | length == 19 and
		all(.[]; .pmu == "sim" and (.name | test("^sim/.*/$")))' \
		"$BATS_TEST_TMPDIR/l.json"
	run "$PSTAT" list --names
	assert_line sim/branch-misses/
	# every listed name encodes
	for n in $("$PSTAT" list --names sim); do
		"$PSTAT" --dry-run -e "$n" >/dev/null
	done
	mkdir "$BATS_TEST_TMPDIR/empty"
	PATH=$BATS_TEST_TMPDIR/empty run "$ROOT/pstat" doctor
	assert_line --regexp '^warn  sim: valgrind is not installed'
	assert_line --partial 'fix: install valgrind: apt-get install valgrind'
	PATH=$BATS_TEST_TMPDIR/empty run "$ROOT/pstat" list sim
	assert_line --partial '; valgrind is not installed here):'
	command -v valgrind >/dev/null || skip "valgrind is not installed"
	run "$PSTAT" doctor
	assert_line --regexp '^ok    sim: .*valgrind runs the simulated PMU .* 4 to 20 times'
}

@test "sim: --timeout and Ctrl-C end the run with its counts so far" {
	need_sim
	mkdir "$BATS_TEST_TMPDIR/tmp"
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	run "$PSTAT" --timeout 1500 -x, -e sim/instructions/ -- "$SPIN" 9000000000
	assert_failure 124
	n=$(awk -F, '$3 == "sim/instructions/" { print $1 }' <<<"$output")
	[ "$n" -gt 1000 ]
	pstat_sigint_after 1.5 -x, -o "$BATS_TEST_TMPDIR/int" \
		-e sim/instructions/ -- "$SPIN" 9000000000
	[ "$st" = 130 ]
	[ "$(csv_value "$BATS_TEST_TMPDIR/int" sim/instructions/)" -gt 1000 ]
	# Valgrind's files went with the runs
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/tmp")" ]
}
