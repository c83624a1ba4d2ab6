#!/usr/bin/env bats
# Processes, signals and descriptors: the measured program gets nothing
# of pstat's, a signal at any moment still ends in a complete report with
# the right status, and long or fork-heavy runs neither lose counts nor
# leak descriptors.

bats_require_minimum_version 1.5.0

load test_helper

setup() {
	need_perf_events
	cd "$BATS_TEST_TMPDIR" || return 1
	# many events make the setup (resolve, open) last long enough to be
	# hit by a signal before the command is started
	LONG="$(printf 'task-clock,%.0s' $(seq 8000))page-faults"
	BG=()
	# pstat keeps an ignored SIGHUP (nohup); a suite run under nohup
	# must still start it as from a terminal
	DFL=()
	if [ $((0x$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status) & 1)) = 1 ]; then
		DFL=(env --default-signal=HUP)
	fi
}

teardown() {
	local p

	for p in "${BG[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	return 0
}

# Start pstat ARGS in the background as its own process, so that $! is
# pstat; sets $pid. The signal tests run pstat itself: under valgrind
# (make check-valgrind) a signal would meet valgrind's start-up, not
# pstat's, and their timing would be valgrind's.
pstat_bg() {
	exec_pstat() { exec "${DFL[@]}" "$ROOT/pstat" "$@"; }
	exec_pstat "$@" &
	pid=$!
	BG+=("$pid")
}

# The same under $PSTAT_WRAP, for the tests that do not depend on timing.
pstat_bg_wrapped() {
	# shellcheck disable=SC2086
	exec_wrapped() { exec "${DFL[@]}" $PSTAT_WRAP "$ROOT/pstat" "$@"; }
	exec_wrapped "$@" &
	pid=$!
	BG+=("$pid")
}

# The same in a new session, so that -$pid is its process group.
pstat_bg_group() {
	exec_group() { exec "${DFL[@]}" setsid "$ROOT/pstat" "$@"; }
	exec_group "$@" &
	pid=$!
	BG+=("$pid")
}

# Wait until pstat has blocked SIGINT, SIGHUP and SIGTERM (mask 0x4003):
# it is then past its start and resolving events or opening counters.
# (The shell's child blocks signals too for a moment before its exec:
# comm tells it apart.)
wait_blocked() {
	local i blk comm

	for i in $(seq 3000); do
		comm=$(cat "/proc/$1/comm" 2>/dev/null)
		blk=$(awk '/^SigBlk:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
		if [ -n "$blk" ] && [ "$comm" != bash ] && [ "$comm" != setsid ] &&
			[ $((0x$blk & 0x4003)) = $((0x4003)) ]; then
			return 0
		fi
		sleep 0.001
	done
	fail "pstat $1 never blocked its signals"
}

# Wait until process $1 has a child running program $2 (exec'd).
wait_child_exec() {
	local i c

	for i in $(seq 3000); do
		for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
			[ "$(cat "/proc/$c/comm" 2>/dev/null)" = "$2" ] && return 0
		done
		sleep 0.001
	done
	fail "no child '$2' of $1 appeared"
}

# Whether pstat $1 has not started its command yet: no child, or one
# that has not exec'd (still called pstat).
not_started() {
	local c

	c=$(awk '{ print $1 }' /proc/"$1"/task/*/children 2>/dev/null)
	[ -z "$c" ] || [ "$(cat "/proc/$c/comm" 2>/dev/null)" != sleep ]
}

# check_report FILE STATUS SIGNAL NCOUNTERS: FILE is one complete pstat/1
# summary with that exit status and signal name (or null).
check_report() {
	local sig=\"$3\"

	[ "$3" = null ] && sig=null
	jq_assert --argjson st "$2" --argjson sig "$sig" --argjson n "$4" \
		'.schema == "pstat/1" and .type == "summary" and
		 .exit.status == $st and .exit.signal == $sig and
		 (.counters | length) == $n' "$1" >/dev/null ||
		fail "not the expected report: $(jq -c '{exit, n: (.counters | length)}' "$1" 2>&1 | head -c 300)"
}

# Run "$@" with every descriptor above 2 closed.
only_012() {
	bash -c 'for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$@"' _ "$@"
}

# --- descriptors -----------------------------------------------------

@test "robust: the command inherits no descriptor of pstat's" {
	local want opts

	want=$(only_012 ls /proc/self/fd | tr '\n' ' ')
	[ "$want" = "0 1 2 3 " ] || skip "ls shows '$want' here even alone"
	for opts in "-e task-clock" "-o out.txt -e task-clock" \
		"-j -o out.json -e task-clock,page-faults" \
		"-x , -I 10 -e {task-clock,page-faults}" \
		"--timeout 5000 -D 1 -e task-clock" \
		"-r 2 -e task-clock" "-a -e task-clock"; do
		[ "$opts" != "-a -e task-clock" ] || need_cpu_wide
		# shellcheck disable=SC2086
		run --separate-stderr only_012 "$ROOT/pstat" $opts -- ls /proc/self/fd
		assert_success
		if [[ $opts == *"-r 2"* ]]; then
			[ "$(tr '\n' ' ' <<<"$output")" = "$want$want" ] ||
				fail "with $opts: $(tr '\n' ' ' <<<"$output")"
		else
			[ "$(tr '\n' ' ' <<<"$output")" = "$want" ] ||
				fail "with $opts: $(tr '\n' ' ' <<<"$output")"
		fi
	done
}

@test "robust: descriptors the caller passed on still reach the command" {
	local want got

	want=$(ls /proc/self/fd 5</dev/null | tr '\n' ' ')
	got=$("$ROOT/pstat" -o out.txt -e task-clock -- ls /proc/self/fd 5</dev/null |
		tr '\n' ' ')
	[ "$got" = "$want" ]
}

# --- signal mask and dispositions --------------------------------------

# Run "$@" with every signal at its default disposition, whatever the
# suite inherited (nohup, a background job's ignored SIGINT).
dfl() {
	env --default-signal "$@"
}

@test "robust: the command starts with default signal mask and dispositions" {
	local want

	# (env cannot reset the two signals glibc keeps for itself, 32 and
	# 33: a suite run in the background may show them ignored)
	want=$(dfl grep -E '^Sig(Blk|Ign|Cgt):' /proc/self/status)
	run --separate-stderr dfl "$ROOT/pstat" -e task-clock -- \
		grep -E '^Sig(Blk|Ign|Cgt):' /proc/self/status
	assert_success
	[ "$output" = "$want" ] || fail "under pstat: $output; alone: $want"
	grep -q '^SigBlk:[[:space:]]*0*$' <<<"$output"
	# the same with intervals, a timeout and a delay (timers, more handlers)
	run --separate-stderr dfl "$ROOT/pstat" -I 50 --timeout 5000 -D 1 \
		-e task-clock -- grep -E '^Sig(Blk|Ign|Cgt):' /proc/self/status
	[ "$output" = "$want" ]
	# and from a shell that made pstat ignore SIGINT and SIGQUIT (a
	# background job): the command gets SIGINT back, as pstat catches it
	run --separate-stderr dfl env --ignore-signal=INT "$ROOT/pstat" \
		-e task-clock -- grep -E '^Sig(Blk|Ign|Cgt):' /proc/self/status
	[ "$output" = "$want" ]
}

@test "robust: pstat changes its own signals, not the command's" {
	pstat_bg -o out.txt -e task-clock -- sleep 0.5
	wait_child_exec "$pid" sleep
	# pstat catches INT, TERM and HUP (mask 0x4003) ...
	cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status")
	[ $((0x$cgt & 0x4003)) = $((0x4003)) ] || fail "pstat's SigCgt: $cgt"
	# ... its child does neither
	c=$(awk '{ print $1 }' /proc/"$pid"/task/*/children)
	grep -q '^SigBlk:[[:space:]]*0*$' "/proc/$c/status"
	grep -q '^SigCgt:[[:space:]]*0*$' "/proc/$c/status"
	wait "$pid"
}

@test "robust: an ignored SIGHUP (nohup) passes on to the command" {
	local want got

	want=$(dfl env --ignore-signal=HUP grep '^SigIgn:' /proc/self/status)
	got=$(dfl env --ignore-signal=HUP "$ROOT/pstat" -e task-clock -- \
		grep '^SigIgn:' /proc/self/status 2>/dev/null)
	[ "$got" = "$want" ] || fail "under pstat: $got; alone: $want"
	# and a hangup then ends neither pstat nor the command
	nohup_pstat() { exec env --ignore-signal=HUP "$ROOT/pstat" "$@"; }
	nohup_pstat -j -o out.json -e task-clock -- sleep 0.3 &
	pid=$!
	BG+=("$pid")
	wait_child_exec "$pid" sleep
	kill -HUP "$pid"
	wait "$pid"
	check_report out.json 0 null 1
}

# --- signals -----------------------------------------------------------

# A results FIFO holds pstat in its setup: it opens -o before it forks
# the command, and open(2) waits for a reader. A signal sent then comes
# before the command exists, whatever the machine's speed.
# Start pstat with $1 (pstat_bg or pstat_bg_group), held in its setup
# by an output FIFO that has no reader, send INT, TERM, HUP to $2 (pid:
# pstat, group: its group): pstat ends at once with 128+N and one line
# that says why, and the command never starts.
signal_before_start() {
	local sig st target

	mkfifo out.fifo
	for sig in INT TERM HUP; do
		"$1" -j -o out.fifo -e task-clock,page-faults -- touch started 2>err
		wait_blocked "$pid"
		not_started "$pid" || fail "the command started before -o was open"
		target=$pid
		[ "$2" = pid ] || target=-$pid
		kill -"$sig" -- "$target"
		st=0
		timeout -k 1 10 tail --pid="$pid" -f /dev/null ||
			fail "SIG$sig did not end the wait for a reader"
		wait "$pid" || st=$?
		[ "$st" = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $st"
		[ "$(cat err)" = "pstat: cannot open output file 'out.fifo': no reader yet when SIG$sig came" ] ||
			fail "SIG$sig: $(cat err)"
		[ ! -e started ] || fail "SIG$sig: the command ran"
	done
}

@test "robust: INT, TERM, HUP to pstat before the command starts" {
	signal_before_start pstat_bg pid
}

@test "robust: INT, TERM, HUP to the process group before the command starts" {
	signal_before_start pstat_bg_group group
}

# Wait until pstat $1 has forked its command: 0 while the child still
# waits to exec (it is then called pstat), 1 once it runs sleep.
wait_forked() {
	local i c comm

	for i in $(seq 3000); do
		c=$(awk '{ print $1 }' /proc/"$1"/task/*/children 2>/dev/null)
		comm=$(cat "/proc/$c/comm" 2>/dev/null)
		[ -n "$c" ] && [ "$comm" = pstat ] && return 0
		[ "$comm" = sleep ] && return 1
	done
	fail "pstat $1 started no command"
}

# kill_and_check SIG TARGET N: signal SIG to TARGET (pstat $pid, or its
# group -$pid), then pstat must exit 128+SIG with a whole report of N
# counters in out.json.
kill_and_check() {
	local sig=$1 target=$2 n=$3 st=0

	kill -"$sig" -- "$target"
	wait "$pid" || st=$?
	[ "$st" = $((128 + $(kill -l "$sig"))) ] ||
		fail "SIG$sig to $target: exit $st"
	check_report out.json "$st" "SIG$sig" "$n"
}

# Between the fork and the exec the command holds the signals pstat
# blocks: one sent to the group then ends it only once it is let go.
# Opening 8,000 counters makes that moment long enough to hit, mostly.
@test "robust: signals to the group while the forked command waits" {
	local sig hit=0

	for sig in INT TERM HUP INT TERM HUP; do
		pstat_bg_group -j -o out.json -e "$LONG" -- sleep 5
		wait_forked "$pid" && hit=$((hit + 1))
		kill_and_check "$sig" -"$pid" 8001
	done
	[ "$hit" -ge 1 ] || skip "the fork-to-exec moment was never hit"
}

@test "robust: INT, TERM, HUP to pstat and to the group while the command runs" {
	local sig

	for sig in INT TERM HUP; do
		pstat_bg -j -o out.json -e task-clock,page-faults -- sleep 5
		wait_child_exec "$pid" sleep
		kill_and_check "$sig" "$pid" 2

		pstat_bg_group -j -o out.json -e task-clock,page-faults -- sleep 5
		wait_child_exec "$pid" sleep
		kill_and_check "$sig" -"$pid" 2
	done
}

@test "robust: a signal during the -D delay" {
	local st

	pstat_bg -j -o out.json -D 2000 -e task-clock -- sleep 5
	wait_child_exec "$pid" sleep
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	[ "$st" = 143 ]
	check_report out.json 143 SIGTERM 1
	# counting had not started: nothing counted, and said so
	jq_assert '.counters[0].status == "not_counted"' out.json
}

@test "robust: signals while intervals are printed leave whole documents" {
	local d st n

	for d in 0.05 0.1 0.15; do
		pstat_bg -j -I 10 -o out.jsonl \
			-e "$(printf 'task-clock,%.0s' $(seq 300))page-faults" -- sleep 5
		wait_child_exec "$pid" sleep
		sleep "$d"
		kill -HUP "$pid"
		st=0
		wait "$pid" || st=$?
		[ "$st" = 129 ] || fail "exit $st"
		# every line one document; the intervals, then the summary
		n=$(wc -l <out.jsonl)
		[ "$n" -ge 2 ]
		jq_assert -s 'length == '"$n"' and
			(.[:-1] | all(.type == "interval" and (.counters | length) == 301)) and
			.[-1].type == "summary"' out.jsonl >/dev/null ||
			fail "not whole documents: $(tail -c 300 out.jsonl)"
		tail -n 1 out.jsonl >last.json
		check_report last.json 129 SIGHUP 301
	done
}

# The pid of the pstat whose command line holds $1, once it exists.
pstat_pid() {
	local i p

	for i in $(seq 3000); do
		for p in $(pgrep -f -- "$1"); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = pstat ] &&
				echo "$p" && return 0
		done
		sleep 0.005
	done
	return 1
}

# Ctrl-C typed on a terminal (script(1) makes one) reaches the whole
# foreground process group as SIGINT from the kernel: early, pstat holds
# it until the command exists and then passes it on; later it reaches
# the command itself. Either way: a report, and 130.
# With 3,000 events, one interval takes longer to print than the 1 ms
# period: the timer is ready at every wait, and the command's end and
# signals must still get in (ppoll alone would keep them out forever).
@test "robust: intervals slower to print than their period still see the end" {
	local list st

	list="$(printf 'task-clock,%.0s' $(seq 3000))page-faults"
	st=0
	timeout -k 1 20 "$ROOT/pstat" -x , -I 1 -o out.csv -e "$list" -- sleep 0.3 ||
		st=$?
	[ "$st" = 0 ] || fail "exit $st (124/137: it never noticed the end)"
	pstat_bg -x , -I 1 -o out2.csv -e "$list" -- sleep 30
	wait_child_exec "$pid" sleep
	sleep 0.3
	kill -TERM "$pid"
	st=0
	timeout -k 1 10 tail --pid="$pid" -f /dev/null || fail "SIGTERM was never seen"
	wait "$pid" || st=$?
	[ "$st" = 143 ]
}

@test "robust: Ctrl-C from the terminal, early and while the command runs" {
	local p

	command -v script >/dev/null || skip "no script(1) for a terminal"
	# held by an output FIFO without a reader: Ctrl-C ends pstat, no
	# command started
	mkfifo early.fifo
	(
		p=$(pstat_pid "-o $PWD/early.fifo") || exit 1
		wait_blocked "$p" >/dev/null
		not_started "$p" || exit 1
		printf '\003'
		sleep 2
	) | timeout 20 script -qec "'$ROOT/pstat' -j -o '$PWD/early.fifo' -e task-clock -- touch started 2>early.err" \
		/dev/null >/dev/null || true
	grep -q "cannot open output file '$PWD/early.fifo': no reader yet when SIGINT came" early.err ||
		fail "early Ctrl-C: $(cat early.err)"
	[ ! -e started ]

	(
		p=$(pstat_pid "-o $PWD/late.json") || exit 1
		wait_child_exec "$p" sleep >/dev/null
		printf '\003'
		sleep 2
	) | timeout 20 script -qec "'$ROOT/pstat' -j -o '$PWD/late.json' -e task-clock -- sleep 5" \
		/dev/null >/dev/null || true
	check_report late.json 130 SIGINT 1
	jq_assert '.time.elapsed_ns < 3000000000' late.json >/dev/null
}

@test "robust: --timeout kills a command that ignores SIGTERM after 2 s" {
	local t0 t1 st

	t0=$(date +%s%N)
	st=0
	"$ROOT/pstat" -j -o out.json --timeout 100 -e task-clock -- \
		sh -c 'trap "" TERM; exec sleep 30' || st=$?
	t1=$(date +%s%N)
	[ "$st" = 124 ] || fail "exit $st"
	check_report out.json 124 SIGKILL 1
	# the documented grace period: 2 seconds after the timeout
	[ $(((t1 - t0) / 1000000)) -ge 2000 ]
	[ $(((t1 - t0) / 1000000)) -lt 4500 ]
}

@test "robust: --timeout ends the command's children too" {
	local st

	st=0
	"$ROOT/pstat" -j -o out.json --timeout 200 -e task-clock -- \
		sh -c 'sleep 31.25 & sleep 32.25 & trap "" TERM; sleep 33.25; wait' ||
		st=$?
	[ "$st" = 124 ] || fail "exit $st"
	check_report out.json 124 SIGKILL 1
	# the background children and the ignoring shell: all gone
	! pgrep -f 'sleep 3[123].25' || fail "children outlived the timeout"
}

@test "robust: SIGPIPE on the output ends pstat quietly with 141" {
	local out t0

	# pstat ignores SIGPIPE, sees EPIPE, and ends the command (SIGTERM)
	# rather than dying and leaving it to run its 37 s
	t0=$SECONDS
	out=$(bash -c '"$1" -x , -I 10 -e task-clock -- sh -c "exec sleep 37.25 >/dev/null 2>&1" 2>&1 |
		head -1; echo "status ${PIPESTATUS[0]}"' _ "$ROOT/pstat")
	grep -q '^status 141$' <<<"$out" || fail "$out"
	grep -q 'task-clock' <<<"$out"
	[ $((SECONDS - t0)) -lt 10 ] || fail "pstat took $((SECONDS - t0)) s"
	! pgrep -f 'sleep 37.25' || fail "the command outlived pstat"
	# the same with the results on a pipe and pstat's messages apart
	out=$(bash -c '"$1" -x , -I 10 -o /dev/stdout -e task-clock -- sh -c "exec sleep 37.5 >/dev/null 2>&1" 2>err |
		head -1 >/dev/null; echo "status ${PIPESTATUS[0]}"' _ "$ROOT/pstat")
	[ "$out" = "status 141" ] || fail "$out"
	[ ! -s err ] || fail "not quiet: $(cat err)"
	! pgrep -f 'sleep 37.5' || fail "the command outlived pstat"
	# the summary, into a pipe whose reader is long gone
	out=$(bash -c '"$1" -x , -e task-clock -- sleep 0.5 2>&1 | true;
		echo "status ${PIPESTATUS[0]}"' _ "$ROOT/pstat")
	[ "$out" = "status 141" ] || fail "$out"
	# -o - (standard output itself, as the README pipes into jq): the
	# same 141, and no stale errno said at exit, in every format
	for f in -x, -j --json=perf --openmetrics ''; do
		for _ in 1 2 3; do
			out=$(bash -c '"$1" -I 20 $2 -o - -e task-clock -- sleep 0.4 2>err |
				head -1 >/dev/null; echo "status ${PIPESTATUS[0]}"' _ "$ROOT/pstat" "$f")
			[ "$out" = "status 141" ] || fail "$f: $out: $(cat err)"
			[ ! -s err ] || fail "$f: not quiet: $(cat err)"
		done
	done
}

# --- many runs, many processes -----------------------------------------

# The number of descriptors process $1 holds.
nfds() {
	ls "/proc/$1/fd" 2>/dev/null | wc -l
}

# Sample nfds of $1 until it exits, one count a line, into FILE $2.
sample_fds() {
	while [ -d "/proc/$1/fd" ]; do
		nfds "$1"
		sleep 0.02
	done >"$2"
}

# The descriptor counts sampled in FILE $1 stay near their median: the
# counters, pipes and timers of a run, and no more as runs, intervals or
# children go by.
no_growth() {
	local median max

	median=$(sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	max=$(sort -n "$1" | tail -1)
	[ "$max" -le $((median + 4)) ] ||
		fail "descriptors grew: $(uniq -c "$1" | tr '\n' ' ')"
}

# Closing the last counter on a tracepoint makes the kernel wait for an
# RCU grace period, some 50 ms a run: a second pstat keeps the
# tracepoints in use meanwhile, so a thousand runs take seconds.
hold_tracepoints() {
	sleep 60 &
	BG+=("$!")
	"$ROOT/pstat" -e "$1" -p "$!" 2>/dev/null &
	BG+=("$!")
	sleep 0.2
}

@test "robust: -r 1000 on true: exact totals, no descriptor growth" {
	local tps=syscalls:sys_enter_write,sched:sched_process_exec,sched:sched_process_exit

	need_tracepoint syscalls/sys_enter_write
	need_tracepoint sched/sched_process_exec
	hold_tracepoints "$tps"
	pstat_bg_wrapped -j -o out.json -r 1000 -e "$tps" true
	sample_fds "$pid" fds
	wait "$pid"
	jq_assert '.runs == 1000 and
		([.counters[] | [.event, (.samples | length), (.samples | add)]] ==
		 [["syscalls:sys_enter_write", 1000, 0],
		  ["sched:sched_process_exec", 1000, 1000],
		  ["sched:sched_process_exit", 1000, 1000]])' out.json ||
		fail "$(jq -c '[.runs, [.counters[] | [.event, (.samples | add)]]]' out.json)"
	[ "$(wc -l <fds)" -ge 3 ] || skip "the run was too quick to sample"
	# a run holds its counters and pipes; nothing piles up across runs
	no_growth fds
}

@test "robust: 2,000 short-lived children: exact totals, no descriptor growth" {
	local w first last

	need_tracepoint syscalls/sys_enter_write
	need_tracepoint sched/sched_process_fork
	w=$(prog writer)
	pstat_bg_wrapped -j -I 20 -o out.jsonl \
		-e syscalls:sys_enter_write,sched:sched_process_fork,sched:sched_process_exit \
		-- "$w" 1 1 2000 5
	sample_fds "$pid" fds
	wait "$pid"
	tail -n 1 out.jsonl >sum.json
	jq_assert '[.counters[] | [.event, .value]] ==
		[["syscalls:sys_enter_write", 2001], ["sched:sched_process_fork", 2000],
		 ["sched:sched_process_exit", 2001]]' sum.json ||
		fail "$(jq -c '[.counters[] | [.event, .value]]' sum.json)"
	# the intervals add up to the same totals
	jq_assert -s '[.[:-1][] | .counters[0].value] | add == 2001' out.jsonl
	[ "$(wc -l <fds)" -ge 3 ] || skip "the run was too quick to sample"
	no_growth fds
}

@test "robust: a thread's counter read that fails keeps its last reading: -I sums stay exact" {
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	so=$(failing_read_preload)
	# 20 writes 50 ms apart; the 3rd to 5th reads (intervals 3 to 5) fail
	run env LD_PRELOAD="$so" FAKE_READ_FAIL_FROM=3 FAKE_READ_FAIL_TO=5 \
		"$PSTAT" -x, -I 100 -e syscalls:sys_enter_write "$w" 20 1 0 50
	assert_success
	# every interval is there, none below 0, and they add up to the 20
	# writes: a failed read neither ends the run nor loses nor repeats a
	# count (zeros for the failed reads would count the writes twice)
	n=$(grep -c ',syscalls:sys_enter_write,' <<<"$output")
	[ "$n" -ge 8 ]
	sum=$(awk -F, '$4 == "syscalls:sys_enter_write" { if ($2 < 0) bad = 1; s += $2 }
		END { print bad ? "negative" : s }' <<<"$output")
	[ "$sum" = 20 ]
}
