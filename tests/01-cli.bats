#!/usr/bin/env bats
# The command line, exit statuses and signals, as a user runs pstat.

bats_require_minimum_version 1.5.0
load test_helper

@test "--help lists the options and exits 0" {
	run "$PSTAT" --help
	assert_success
	assert_output --partial "usage: pstat [options] [--] command [args...]"
	assert_output --partial "--event LIST"
}

@test "--version prints the version, then jansson's and libpfm4's" {
	run "$PSTAT" --version
	assert_success
	assert_line --index 0 --regexp '^pstat [0-9]+\.[0-9]+\.[0-9]+$'
	assert_line --index 1 --regexp '^jansson [0-9]+\.[0-9]+'
	assert_line --index 2 --regexp '^libpfm4 ([0-9]+\.[0-9]+|unavailable: )'
	[ "${#lines[@]}" -eq 3 ]
	# the libpfm4 the loader finds: its file's release
	local so
	so=$(ldconfig -p 2>/dev/null | awk '$1 == "libpfm.so.4" { print $NF; exit }')
	if [ -n "$so" ]; then
		so=$(readlink -f "$so")
		assert_line --index 2 "libpfm4 ${so##*.so.}"
	fi
	# and why, when it cannot be loaded
	PSTAT_LIBPFM=/nonexistent/libpfm.so run "$PSTAT" -V
	assert_success
	assert_line --index 2 --partial "libpfm4 unavailable: /nonexistent/libpfm.so: "
}

@test "an unknown option is one error line, a hint, and 125" {
	run "$PSTAT" --bogus true
	assert_failure 125
	assert_line --index 0 "pstat: unknown option '--bogus'"
	assert_line --index 1 "pstat: hint: see 'pstat --help'"
	[ "${#lines[@]}" -eq 2 ]
}

@test "an option without its value is a usage error" {
	run "$PSTAT" -e
	assert_failure 125
	assert_output --partial "option '-e' needs a value"
}

@test "no command is a usage error" {
	run "$PSTAT" -e task-clock
	assert_failure 125
	assert_line --index 0 "pstat: no command given"
}

@test "a missing command exits 127 with no report" {
	run -127 "$PSTAT" -e task-clock /nonexistent/cmd
	assert_output "pstat: cannot run '/nonexistent/cmd': No such file or directory"
}

@test "a directory as command exits 126" {
	run "$PSTAT" -e task-clock /tmp
	assert_failure 126
	assert_output --partial "pstat: cannot run '/tmp': Permission denied"
}

@test "a file that is not executable exits 126" {
	f="$BATS_TEST_TMPDIR/noexec"
	echo 'echo hi' > "$f"
	chmod 644 "$f"
	run "$PSTAT" -e task-clock "$f"
	assert_failure 126
}

@test "the command's exit status is pstat's" {
	need_perf_events
	run "$PSTAT" -e task-clock -- sh -c 'exit 7'
	assert_failure 7
	assert_output --partial "Performance counter stats for 'sh -c exit 7'"
}

@test "a command killed by a signal gives 128+N, with the report" {
	need_perf_events
	run "$PSTAT" -e task-clock -- sh -c 'kill -TERM $$'
	assert_failure 143
	assert_output --partial "task-clock"
	run "$PSTAT" -e task-clock -- sh -c 'kill -SEGV $$'
	assert_failure 139
}

@test "options after the command belong to the command" {
	need_perf_events
	run --separate-stderr "$PSTAT" -e task-clock sh -c 'echo "$@"' x -e -v --help
	assert_success
	assert_output "-e -v --help"
}

@test "the command's stdout is untouched; the report goes to stderr" {
	need_perf_events
	out=$("$PSTAT" -e task-clock echo hello 2>/dev/null)
	[ "$out" = hello ]
	err=$("$PSTAT" -e task-clock echo hello 2>&1 >/dev/null)
	[[ "$err" == *"task-clock"* ]]
}

@test "SIGINT to pstat ends the command, prints the counts, exits 130" {
	need_perf_events
	"$PSTAT" -e task-clock sleep 10 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	sleep 0.5
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ]
	run cat "$BATS_TEST_TMPDIR/err"
	assert_output --partial "task-clock"
	assert_output --partial "seconds time elapsed"
}

@test "Ctrl-C to the whole process group: counts printed, exit 130" {
	need_perf_events
	# a new session so the group signal reaches pstat and sleep only
	setsid sh -c "exec '$PSTAT' -e task-clock sleep 10 2>'$BATS_TEST_TMPDIR/err'" &
	sleep 0.5
	pgid=$(ps -o pgid= -p $! | tr -d ' ')
	kill -INT -- "-$pgid"
	rc=0
	wait $! || rc=$?
	[ "$rc" = 130 ]
	grep -q "task-clock" "$BATS_TEST_TMPDIR/err"
}

@test "SIGTERM and SIGHUP to pstat are passed on to the command" {
	need_perf_events
	for sig in TERM HUP; do
		"$PSTAT" -e task-clock sleep 10 2>"$BATS_TEST_TMPDIR/err" &
		pid=$!
		sleep 0.4
		kill -$sig "$pid"
		rc=0
		wait "$pid" || rc=$?
		if [ $sig = TERM ]; then [ $rc = 143 ]; else [ $rc = 129 ]; fi
		grep -q "seconds time elapsed" "$BATS_TEST_TMPDIR/err"
	done
}

@test "-o FILE writes the report there with a started-on line" {
	need_perf_events
	run --separate-stderr "$PSTAT" -e task-clock -o "$BATS_TEST_TMPDIR/r.txt" true
	assert_success
	[ -z "$stderr" ]
	run cat "$BATS_TEST_TMPDIR/r.txt"
	assert_line --index 0 --regexp '^# started on '
	assert_output --partial "task-clock"
}

@test "--append adds to the -o FILE" {
	need_perf_events
	f="$BATS_TEST_TMPDIR/r.txt"
	"$PSTAT" -e task-clock -o "$f" true
	"$PSTAT" -e page-faults -o "$f" --append true
	run grep -c "Performance counter stats" "$f"
	assert_output 2
}

@test "-o into a missing directory fails before running the command" {
	run "$PSTAT" -e task-clock -o /nonexistent/dir/r.txt touch "$BATS_TEST_TMPDIR/ran"
	assert_failure 125
	assert_output --partial "cannot open output file '/nonexistent/dir/r.txt'"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
}

@test "output to /dev/full is reported and the status says so" {
	need_perf_events
	run "$PSTAT" -e task-clock -o /dev/full true
	assert_failure 125
	assert_output --partial "cannot write the results to '/dev/full': No space left on device"
}

@test "a failed run leaves no results file behind" {
	run "$PSTAT" -e nosuchevent -o "$BATS_TEST_TMPDIR/r.txt" true
	assert_failure 125
	[ ! -e "$BATS_TEST_TMPDIR/r.txt" ]
	run ls -A "$BATS_TEST_TMPDIR"
	assert_output ""
}

@test "an unknown event names the culprit and a suggestion" {
	run "$PSTAT" -e cycels true
	assert_failure 125
	assert_output "pstat: unknown event 'cycels' (did you mean 'cycles'?)"
}

@test "-e is repeatable and appends" {
	need_perf_events
	run "$PSTAT" -e task-clock -e page-faults,context-switches true
	assert_success
	assert_output --partial "task-clock"
	assert_output --partial "page-faults"
	assert_output --partial "context-switches"
}

@test "without -e, perf's default set is counted" {
	need_perf_events
	run "$PSTAT" true
	assert_success
	for ev in task-clock context-switches cpu-migrations page-faults \
		cycles instructions branches branch-misses; do
		assert_output --regexp " $ev( |$)"
	done
}

@test "-v says which resolver took each event" {
	need_perf_events
	run "$PSTAT" -v -e task-clock,r1a8 true
	assert_success
	assert_output --partial "event 'task-clock': resolved by generic"
	assert_output --partial "event 'r1a8': resolved by raw"
}

@test "the measured program inherits only stdin, stdout and stderr" {
	need_perf_events
	# whatever this shell passes down, pstat adds nothing to it
	want=$(ls /proc/self/fd | sort)
	got=$("$PSTAT" -e task-clock -o "$BATS_TEST_TMPDIR/r" -- ls /proc/self/fd | sort)
	[ "$got" = "$want" ]
}

@test "-o through a symlink writes the target and keeps the link" {
	need_perf_events
	echo old >"$BATS_TEST_TMPDIR/target"
	ln -s target "$BATS_TEST_TMPDIR/link"
	run "$PSTAT" -e task-clock -o "$BATS_TEST_TMPDIR/link" true
	assert_success
	[ -L "$BATS_TEST_TMPDIR/link" ]
	grep -q task-clock "$BATS_TEST_TMPDIR/target"
}

@test "a command's own exit 5 is passed on without a --fail-on warning" {
	need_perf_events
	run --separate-stderr "$PSTAT" -e task-clock -- sh -c 'exit 5'
	assert_failure 5
	! grep -q -- '--fail-on' <<<"$stderr" || fail "$stderr"
}

@test "usage errors end with a pointer to --help" {
	for args in "-x , -B true" "--append true" "-A true" "-x , -j true" \
		"--fail-on=bogus true" "--per-thread true" "-p 1 -t 1" \
		"--interval-count 3 true" "-x '\"' true"; do
		eval "run \"\$PSTAT\" $args"
		assert_failure 125
		[ "${#lines[@]}" = 2 ] || fail "pstat $args: $output"
		assert_line --index 1 "pstat: hint: see 'pstat --help'"
	done
}

@test "-o keeps a whole report whatever the command's own status (125, 141)" {
	need_perf_events
	cd "$BATS_TEST_TMPDIR"
	run "$PSTAT" -o s125.txt -e task-clock -- sh -c 'exit 125'
	assert_failure 125
	grep -q 'task-clock' s125.txt
	run "$PSTAT" -j -o s141.json -e task-clock -- sh -c 'kill -PIPE $$'
	assert_failure 141
	[ "$(jq -c .exit s141.json)" = '{"status":141,"signal":"SIGPIPE"}' ]
}

@test "-I -o FILE: the intervals are in the file as they come" {
	need_perf_events
	cd "$BATS_TEST_TMPDIR"
	"$PSTAT" -I 100 --summary -o iv.txt -e task-clock -- sleep 1 &
	pid=$!
	sleep 0.55
	# four or five intervals written while the command still runs
	n=$(grep -c 'task-clock' iv.txt)
	wait "$pid"
	[ "$n" -ge 3 ] || fail "$n interval lines after 0.55 s"
	grep -q 'seconds time elapsed' iv.txt
	# a run that fails before its first interval leaves no file
	run -127 "$PSTAT" -I 100 -o none.txt -e task-clock -- no-such-command
	[ ! -e none.txt ]
}

@test "JSON: a command's target names its process" {
	need_perf_events
	run --separate-stderr "$PSTAT" -j -e task-clock -- sh -c 'echo $$'
	assert_success
	[ "$(jq -c '.target.pids' <<<"$stderr")" = "[$output]" ]
}
