#!/usr/bin/env bats
# A region of a run: --control fifo:/fd: in perf's protocol, and -D -1.
# tests/progs/region.c writes 3 x 1000 times and enables counting around
# the middle 1000 through the channel, so syscalls:sys_enter_write counts
# exactly 1000 in the region.

load test_helper
load json_helper

setup() {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	REGION=$(prog region)
	cd "$BATS_TEST_TMPDIR"
	mkfifo ctl ack
}

teardown() {
	# a pstat left in the background by a failed test
	if [ -n "${bg:-}" ]; then
		kill "$bg" 2>/dev/null || true
		wait "$bg" 2>/dev/null || true
	fi
}

# The 5 bytes of one ack from fd 8, within 10 s, as od prints them.
read_ack() {
	timeout 10 dd bs=1 count=5 status=none <&8 | od -An -c | tr -s ' '
}

# Send COMMAND on fd 7, without blocking on a channel nobody reads.
send() {
	timeout 10 sh -c 'printf "%s\n" "$1" >&7' sh "$1"
}

@test "fifo: only the region is counted, exactly, in the table and JSON" {
	run "$PSTAT" -D -1 --control fifo:ctl,ack -e syscalls:sys_enter_write \
		-- "$REGION" fifo ctl ack
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 1000 ]

	run "$PSTAT" -j -o out.json -D -1 --control fifo:ctl,ack \
		-e syscalls:sys_enter_write,task-clock -- "$REGION" fifo ctl ack
	assert_success
	validate_json out.json
	jq_assert '.counters[0] | .value == 1000 and .status == "counted"' out.json
	# time enabled and elapsed are those of the region, not of the run
	jq_assert '.counters[0].time_enabled_ns > 0' out.json
}

@test "fd: pipes given by a harness, CSV, exactly 1000" {
	run python3 - "$PSTAT" "$REGION" <<'EOF'
import os, subprocess, sys
pstat, region = sys.argv[1:3]
c_r, c_w = os.pipe()
a_r, a_w = os.pipe()
p = subprocess.run([pstat, "-x,", "-D", "-1", "--control", "fd:%d,%d" % (c_r, a_w),
                    "-e", "syscalls:sys_enter_write", "--", region, "fd",
                    str(c_w), str(a_r)],
                   pass_fds=(c_r, c_w, a_r, a_w), stderr=subprocess.PIPE,
                   text=True, timeout=60)
sys.stdout.write(p.stderr)
sys.exit(p.returncode)
EOF
	assert_success
	assert_line --regexp '^1000,,syscalls:sys_enter_write,'
}

@test "-D -1 never enabled: <not counted>, and JSON says not_counted" {
	run "$PSTAT" -D -1 --control fifo:ctl,ack -e syscalls:sys_enter_write \
		-- "$(prog writer)" 100
	assert_success
	assert_line --regexp '<not counted> +syscalls:sys_enter_write'

	run "$PSTAT" -j -o out.json -D -1 --control fifo:ctl \
		-e syscalls:sys_enter_write -- "$(prog writer)" 100
	assert_success
	validate_json out.json
	jq_assert '.counters[0].status == "not_counted" and .counters[0].time_enabled_ns == 0' out.json

	# without --control, pstat says why nothing will be counted
	run "$PSTAT" -D -1 -e syscalls:sys_enter_write -- "$(prog writer)" 100
	assert_success
	assert_line --partial 'warning: -D -1 without --control'
	assert_line --regexp '<not counted> +syscalls:sys_enter_write'
}

@test "-r 3: each run starts disabled and counts its own region" {
	run "$PSTAT" -j -o out.json -r 3 -D -1 --control fifo:ctl,ack \
		-e syscalls:sys_enter_write -- "$REGION" fifo ctl ack
	assert_success
	validate_json out.json
	jq_assert '.counters[0].samples == [1000, 1000, 1000]' out.json
}

@test "without -D -1, counting runs from the exec until disabled" {
	# 1000 before the enable (a no-op) and 1000 in the region; the 1000
	# after the disable are not counted
	run "$PSTAT" --control fifo:ctl,ack -e syscalls:sys_enter_write -- \
		"$REGION" fifo ctl ack
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 2000 ]
}

@test "enable NAME and disable NAME switch one event" {
	run "$PSTAT" -x, -D -1 --control fifo:ctl,ack \
		-e syscalls:sys_enter_write,syscalls:sys_enter_close \
		-- "$REGION" fifo ctl ack 1000 syscalls:sys_enter_write
	assert_success
	assert_line --regexp '^1000,,syscalls:sys_enter_write,'
	assert_line --regexp '^<not counted>,,syscalls:sys_enter_close,'
}

@test "every command is acknowledged with perf's ack bytes; stop ends the run" {
	exec 7<>ctl 8<>ack
	"$PSTAT" -j -o out.json -I 100000 -D -1 --control fifo:ctl,ack \
		-e task-clock -- sleep 30 2>err &
	bg=$!
	for cmd in ping enable snapshot disable 'enable task-clock' \
		'disable task-clock'; do
		send "$cmd"
		[ "$(read_ack)" = " a c k \n \0" ]
	done
	# the snapshot printed an interval at once (-I 100 s has not passed)
	[ "$(grep -c '"interval"' out.json)" -ge 1 ]
	# an unknown command: a warning, no ack, and the run goes on
	send bogus
	send ping
	[ "$(read_ack)" = " a c k \n \0" ]
	send stop
	[ "$(read_ack)" = " a c k \n \0" ]
	st=0
	wait "$bg" || st=$?
	bg=
	# stop ended the command with SIGTERM, as --interval-count does
	[ "$st" = 0 ]
	grep -q "unknown control command 'bogus' ignored" err
	validate_json out.json
	tail -n 1 out.json | jq_assert '.counters[0].event == "task-clock"'
}

@test "a closed control channel ends nothing: counting goes on" {
	# fd 3 is a pipe whose writer has already gone: EOF at once
	run "$PSTAT" --control fd:3 -e syscalls:sys_enter_write \
		-- "$(prog writer)" 500 3< <(true)
	assert_success
	[ "$(value_of syscalls:sys_enter_write <<<"$output")" = 500 ]
}

@test "-p: the region of an attached process" {
	exec 7<>ctl 8<>ack
	mkfifo go
	# the process waits on go until pstat is attached, then runs
	sh -c 'read x <go; exec "$0" fifo ctl ack' "$REGION" &
	pid=$!
	"$PSTAT" -x, -o out.csv -D -1 --control fifo:ctl,ack \
		-e syscalls:sys_enter_write -p "$pid" 2>err &
	bg=$!
	# counters are open once pstat answers
	send ping
	[ "$(read_ack)" = " a c k \n \0" ]
	echo >go
	wait "$pid"
	wait "$bg"
	bg=
	grep -q '^1000,,syscalls:sys_enter_write,' out.csv
}

@test "-a: the region of every CPU, ended by stop" {
	need_cpu_wide
	exec 7<>ctl 8<>ack
	"$PSTAT" -x, -o out.csv -a -D -1 --control fifo:ctl,ack \
		-e syscalls:sys_enter_write 2>err &
	bg=$!
	send ping
	[ "$(read_ack)" = " a c k \n \0" ]
	# the region's own ack reader is fd 8's twin: let it have them
	exec 8<&-
	"$REGION" fifo ctl ack
	send stop
	st=0
	wait "$bg" || st=$?
	bg=
	[ "$st" = 0 ]
	# every CPU: the region's 1000 and whatever else wrote meanwhile
	n=$(awk -F, '$3 == "syscalls:sys_enter_write" { print $1 }' out.csv)
	[ "$n" -ge 1000 ]
}

@test "bad --control values are usage errors" {
	for v in nope fifo: fd: fd:x fd:3, fd:3,x 'fifo:,ack'; do
		run "$PSTAT" --control "$v" true
		assert_failure 125
		assert_line --index 0 --partial "invalid --control '$v'"
	done
	touch plain
	run "$PSTAT" --control fifo:plain true
	assert_failure 125
	assert_line --partial "'plain' as the control FIFO: not a FIFO"
	run "$PSTAT" --control fifo:missing true
	assert_failure 125
	assert_line --partial "cannot open the control FIFO 'missing'"
	run "$PSTAT" --control fd:97 true
	assert_failure 125
	assert_line --partial 'cannot use descriptor 97 as the control channel'
}

@test "control commands and --control arguments parse as perf's" {
	run_table control control.test
	run_table control-arg control-arg.test
}

@test "-I: the intervals' deltas add up to the region" {
	run "$PSTAT" -x, -I 20 --summary -D -1 --control fifo:ctl,ack \
		-e syscalls:sys_enter_write -- "$REGION" fifo ctl ack 1000
	assert_success
	sum=$(awk -F, '$1 !~ /summary/ && $4 == "syscalls:sys_enter_write" && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' <<<"$output")
	[ "$sum" = 1000 ]
	assert_line --regexp '^ *summary,1000,,syscalls:sys_enter_write,'
}

@test "an ack channel nobody reads: one warning, and counting goes on" {
	exec 7<>ctl
	"$PSTAT" --control fifo:ctl,ack -e task-clock -- sleep 60 2>err &
	bg=$!
	# more acks than a pipe holds (5 bytes each, 64 KiB), then stop:
	# commands are carried out in order, so all of them were
	for _ in $(seq 1 14000); do echo ping; done >&7
	echo stop >&7
	st=0
	wait "$bg" || st=$?
	bg=
	[ "$st" = 0 ]
	[ "$(grep -c 'warning: control' err)" = 1 ]
	grep -q 'the ack channel is full' err
	grep -q ' task-clock ' err
}

@test "control: garbage at full speed gives at most 10 warnings a second" {
	# the attack: /dev/urandom gave 166,000 warning lines a second
	"$PSTAT" --control fd:3 -e task-clock -- sleep 1.5 3</dev/urandom 2>err >/dev/null
	n=$(grep -c 'warning: \(unknown \)\?control command' err)
	[ "$n" -ge 10 ] && [ "$n" -le 30 ] || fail "$n warnings"
	grep -Eq '^pstat: warning: control: [0-9]+ more warnings not shown \(at most 10 a second\)$' err
	[ "$(wc -l <err)" -le 40 ] || fail "$(wc -l <err) lines"
	# at the limit: ten unknown commands, ten warnings, none held back
	printf 'bad%d\n' 1 2 3 4 5 6 7 8 9 10 >cmds
	run "$PSTAT" --control fd:3 -e task-clock -- sleep 0.1 3<cmds
	assert_success
	[ "$(grep -c 'unknown control command' <<<"$output")" = 10 ]
	refute_line --partial 'not shown'
	# one past it: the eleventh is counted and said
	printf 'bad%d\n' 1 2 3 4 5 6 7 8 9 10 11 >cmds
	run "$PSTAT" --control fd:3 -e task-clock -- sleep 0.1 3<cmds
	assert_success
	[ "$(grep -c 'unknown control command' <<<"$output")" = 10 ]
	assert_line 'pstat: warning: control: 1 more warnings not shown (at most 10 a second)'
}

@test "control: a command of 255 bytes is read whole; 256 bytes is too long" {
	# the attack: a 255-byte line was cut as too long
	name=$(printf 'x%.0s' $(seq 247))
	line="disable $name"
	[ "${#line}" = 255 ]
	printf '%s\n' "$line" >cmds
	run "$PSTAT" -e "task-clock/name=$name/" --control fd:3 -- true 3<cmds
	assert_success
	refute_line --partial 'warning'
	# 256 bytes: refused, said so, and the next command is read
	printf '%sx\nbad\n' "$line" >cmds
	run "$PSTAT" -e task-clock --control fd:3 -- sleep 0.1 3<cmds
	assert_success
	assert_line "pstat: warning: control command 'disable xxxxxxxxxxxxxxxxxxxxxxxx...' ignored: longer than 255 bytes"
	assert_line --partial "unknown control command 'bad' ignored"
	[ "$(grep -c warning <<<"$output")" = 2 ]
}
