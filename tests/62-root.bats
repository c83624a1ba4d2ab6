#!/usr/bin/env bats
# Safe as root: results files that another local user cannot turn against
# their owner, signals that never lose the report nor leave the command
# running, FIFOs that never hang pstat. The cases that need a second user
# run as root with user nobody as the other one, and skip where either is
# not possible.

bats_require_minimum_version 1.5.0

load test_helper
load json_helper

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ulimit -c 0
	BG=()
	SHARED=
}

teardown() {
	local p

	for p in "${BG[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	[ -n "$SHARED" ] && rm -rf "$SHARED"
	return 0
}

# A directory like /tmp (sticky, anyone may write), in $SHARED, that
# user nobody can reach.
need_shared_tmp() {
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	SHARED=$(mktemp -d /tmp/pstat-62.XXXXXX)
	chmod 755 "$SHARED"
	mkdir -m 1777 "$SHARED/tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		touch "$SHARED/tmp/.probe" 2>/dev/null ||
		skip "user nobody cannot write to a directory of /tmp here"
	rm -f "$SHARED/tmp/.probe"
}

# What user nobody does: nobody CMD...
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# Start pstat ARGS in the background (no wrapper: the signals and timing
# are pstat's); sets $pid.
pstat_bg() {
	"$ROOT/pstat" "$@" &
	pid=$!
	BG+=("$pid")
}

# Wait until process $1 has a child running $2; its pid in $child.
wait_child() {
	local i c

	for i in $(seq 3000); do
		for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
			if [ "$(cat "/proc/$c/comm" 2>/dev/null)" = "$2" ]; then
				child=$c
				return 0
			fi
		done
		sleep 0.01
	done
	fail "no child '$2' of $1 appeared"
}

# Wait up to 5 s for process $1 to be gone; fails if it is not.
wait_gone() {
	local i

	for i in $(seq 500); do
		[ -e "/proc/$1" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ] ||
			return 0
		sleep 0.01
	done
	fail "process $1 ($(cat /proc/"$1"/comm 2>/dev/null)) still runs"
}

# --- results files in a shared directory -----------------------------

@test "root: a symlink planted by another user is not followed" {
	need_perf_events
	need_shared_tmp
	echo secret >"$SHARED/root-only"
	chmod 600 "$SHARED/root-only"
	nobody ln -s "$SHARED/root-only" "$SHARED/tmp/out.txt"
	rc=0
	"$ROOT/pstat" -o "$SHARED/tmp/out.txt" -e task-clock -- touch ran 2>err || rc=$?
	[ "$rc" = 125 ] || fail "exit $rc: $(cat err)"
	grep -q "cannot open output file '$SHARED/tmp/out.txt': Permission denied" err ||
		fail "$(cat err)"
	[ ! -e ran ] || fail "the command ran"
	[ "$(cat "$SHARED/root-only")" = secret ]
	# the same for --append, -I, and pstat compare -o
	for args in "--append" "-I 100"; do
		rc=0
		"$ROOT/pstat" $args -o "$SHARED/tmp/out.txt" -e task-clock true 2>err || rc=$?
		[ "$rc" = 125 ] || fail "$args: exit $rc"
	done
	"$ROOT/pstat" -j -o base.json -e task-clock true
	rc=0
	"$ROOT/pstat" compare -o "$SHARED/tmp/out.txt" base.json base.json 2>err || rc=$?
	[ "$rc" = 125 ] || fail "compare -o: exit $rc: $(cat err)"
	[ "$(cat "$SHARED/root-only")" = secret ]
}

@test "root: a symlink of root's own in a shared directory is followed" {
	need_perf_events
	need_shared_tmp
	echo old >"$SHARED/mine"
	ln -s "$SHARED/mine" "$SHARED/tmp/link.txt"
	"$ROOT/pstat" -o "$SHARED/tmp/link.txt" -e task-clock true
	[ -L "$SHARED/tmp/link.txt" ]
	grep -q task-clock "$SHARED/mine"
}

@test "root: another user's set-uid file in a shared directory is refused, untouched" {
	need_perf_events
	need_shared_tmp
	nobody sh -c "echo theirs >'$SHARED/tmp/out.txt' && chmod 6777 '$SHARED/tmp/out.txt'"
	rc=0
	"$ROOT/pstat" -o "$SHARED/tmp/out.txt" -e task-clock true 2>err || rc=$?
	[ "$rc" = 125 ] || fail "exit $rc: $(cat err)"
	grep -q "Permission denied" err
	[ "$(stat -c '%U %a' "$SHARED/tmp/out.txt")" = "nobody 6777" ]
	[ "$(cat "$SHARED/tmp/out.txt")" = theirs ]
	# a FIFO of theirs too: refused at once, not waited on
	nobody mkfifo "$SHARED/tmp/out.fifo"
	rc=0
	timeout 10 "$ROOT/pstat" -o "$SHARED/tmp/out.fifo" -e task-clock true 2>err || rc=$?
	[ "$rc" = 125 ] || fail "FIFO: exit $rc: $(cat err)"
	grep -q "Permission denied" err
}

@test "root: another user's file elsewhere keeps its owner and loses set-id bits" {
	need_perf_events
	need_shared_tmp
	mkdir -m 755 "$SHARED/home"
	chown nobody "$SHARED/home"
	nobody sh -c "echo theirs >'$SHARED/home/out.txt' && chmod 6755 '$SHARED/home/out.txt'"
	"$ROOT/pstat" -o "$SHARED/home/out.txt" -e task-clock true
	[ "$(stat -c '%U %a' "$SHARED/home/out.txt")" = "nobody 755" ]
	grep -q task-clock "$SHARED/home/out.txt"
	! grep -q theirs "$SHARED/home/out.txt"
}

@test "root: a new file gets 0666 & ~umask; root's own file is replaced whole" {
	need_perf_events
	(umask 027 && "$ROOT/pstat" -o new.txt -e task-clock true)
	[ "$(stat -c '%U %a' new.txt)" = "root 640" ]
	echo old >own.txt
	chmod 4750 own.txt
	ino=$(stat -c %i own.txt)
	"$ROOT/pstat" -o own.txt -e task-clock true
	# renamed into place (a reader never sees half a report), mode kept
	# without the set-uid bit
	[ "$(stat -c %i own.txt)" != "$ino" ]
	[ "$(stat -c %a own.txt)" = 750 ]
	grep -q task-clock own.txt
}

@test "root: output names of 248 to 255 bytes are accepted" {
	need_perf_events
	local n name

	for n in 248 251 255; do
		name=$(printf 'n%.0s' $(seq "$n"))
		"$ROOT/pstat" -o "$name" -e task-clock true
		"$ROOT/pstat" -o "$name" -e task-clock true ||
			fail "replacing a $n-byte name failed"
		grep -q task-clock "$name"
	done
	[ -z "$(ls -A | grep '^\.')" ] || fail "a temporary was left: $(ls -A)"
}

# --- --append --------------------------------------------------------

@test "root: a failed --append keeps what other writers appended" {
	need_perf_events
	need_root
	mkdir tiny
	mount -t tmpfs -o size=16k tmpfs tiny 2>/dev/null ||
		skip "cannot mount a small tmpfs here"
	ev=$(printf 'cs,%.0s' $(seq 2000))
	echo first >tiny/log
	rc=0
	# the command appends a line of its own; the report cannot fit
	# (--wait-close: no detached closer may hold tiny/log at the umount)
	"$ROOT/pstat" -j --wait-close --append -o tiny/log -e "${ev%,}" -- \
		sh -c 'echo other >>tiny/log' 2>err || rc=$?
	[ "$rc" = 125 ] || { umount tiny; fail "exit $rc: $(cat err)"; }
	got=$(cat tiny/log)
	umount tiny
	[ "$got" = "$(printf 'first\nother')" ] || fail "log is now: $got"
}

@test "root: --append writes the report with one write" {
	need_perf_events
	command -v strace >/dev/null || skip "strace is not installed"
	echo first >log
	# (LeakSanitizer cannot run under ptrace: a SANITIZE build skips it)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -e trace=write -o trace "$ROOT/pstat" -j --append -o log \
		-e task-clock,page-faults,context-switches true
	tail -n +2 log >doc.json
	jq_assert -s 'length == 1 and .[0].schema == "pstat/1"' doc.json
	n=$(grep -c "^[0-9]* *write([0-9]*, \"{" trace)
	[ "$n" = 1 ] || fail "$n writes of the document: $(grep write trace | head)"
	[ "$(head -1 log)" = first ]
}

# --- FIFOs -----------------------------------------------------------

@test "root: a FIFO without a reader: SIGTERM, SIGINT and --timeout end pstat" {
	need_perf_events
	local sig st

	mkfifo out.fifo
	for sig in TERM INT; do
		pstat_bg -o out.fifo -e task-clock -- touch ran
		sleep 0.3
		kill -"$sig" "$pid"
		st=0
		wait "$pid" 2>/dev/null || st=$?
		[ "$st" = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $st"
	done
	[ ! -e ran ] || fail "the command ran"
	rc=0
	timeout 20 "$ROOT/pstat" --timeout 300 -o out.fifo -e task-clock -- touch ran 2>err ||
		rc=$?
	[ "$rc" = 124 ] || fail "--timeout: exit $rc: $(cat err)"
	[ "$(cat err)" = "pstat: cannot open output file 'out.fifo': no reader within the 300 ms of --timeout" ] ||
		fail "$(cat err)"
	[ "$(wc -l <err)" = 1 ]
	[ ! -e ran ]
}

@test "root: a FIFO with a reader gets the report" {
	need_perf_events
	mkfifo out.fifo
	cat out.fifo >got.json &
	BG+=($!)
	"$ROOT/pstat" -j -o out.fifo -e task-clock true
	wait "${BG[0]}"
	jq_assert '.schema == "pstat/1"' got.json
}

# --- signals ---------------------------------------------------------

@test "root: QUIT, USR1, USR2, ABRT to pstat: passed on, report, 128+N" {
	need_perf_events
	local sig st

	for sig in QUIT USR1 USR2 ABRT; do
		pstat_bg -j -o out.json -e task-clock -- sleep 10
		wait_child "$pid" sleep
		kill -"$sig" "$pid"
		st=0
		wait "$pid" || st=$?
		[ "$st" = $((128 + $(kill -l "$sig"))) ] || fail "SIG$sig: exit $st"
		jq_assert --arg s "SIG$sig" '.exit.signal == $s and (.counters | length) == 1' out.json
		wait_gone "$child"
	done
}

@test "root: SIGALRM to pstat is ignored" {
	need_perf_events
	pstat_bg -j -o out.json -e task-clock -- sleep 0.5
	wait_child "$pid" sleep
	kill -ALRM "$pid"
	wait "$pid"
	jq_assert '.exit.status == 0' out.json
}

@test "root: pstat killed by SIGKILL takes its command along, unless --keep-on-exit" {
	need_perf_events
	pstat_bg -e task-clock -- sleep 30
	wait_child "$pid" sleep
	kill -KILL "$pid"
	wait_gone "$child"
	pstat_bg --keep-on-exit -e task-clock -- sleep 30
	wait_child "$pid" sleep
	kill -KILL "$pid"
	sleep 0.3
	[ -e "/proc/$child" ] || fail "--keep-on-exit: the command was killed"
	kill "$child"
}

# --- privileges ------------------------------------------------------

@test "root: set-uid pstat ignores variables that load code or redirect reads" {
	need_perf_events
	need_shared_tmp
	cp "$ROOT/pstat" "$SHARED/pstat"
	chmod 4755 "$SHARED/pstat"
	run -0 nobody env PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake" \
		PSTAT_LIBPFM=/nonexistent/libpfm.so LIBPFM_ENCODE_FILE=/etc/shadow \
		"$SHARED/pstat" --dry-run -e task-clock
	[[ $output == *"warning: ignoring PSTAT_SYSFS_ROOT"* ]] || fail "$output"
	[[ $output == *"warning: ignoring PSTAT_LIBPFM"* ]] || fail "$output"
	[[ $output == *"warning: ignoring LIBPFM_ENCODE_FILE"* ]] || fail "$output"
	# a file the user cannot read is not read for them
	echo 'root:secret-hash' >"$SHARED/private.json"
	chmod 600 "$SHARED/private.json"
	run nobody "$SHARED/pstat" compare "$SHARED/private.json" "$SHARED/private.json"
	[ "$status" = 4 ]
	[[ $output != *secret-hash* ]] || fail "$output"
	[[ $output == *"Permission denied"* ]] || fail "$output"
	# nor written for them
	run nobody "$SHARED/pstat" -o "$SHARED/private.json" -e task-clock true
	[ "$status" = 125 ]
	[[ $output == *"cannot open output file '$SHARED/private.json': Permission denied"* ]] ||
		fail "$output"
	[ "$(cat "$SHARED/private.json")" = 'root:secret-hash' ]
	# and the command runs as that user, not as root
	run --separate-stderr nobody "$SHARED/pstat" -e task-clock -- id -u
	[ "$status" = 0 ]
	[ "$output" = 65534 ] || fail "the command ran as uid $output"
}

# A set-user-ID root copy of pstat in $SHARED, for user nobody.
need_setuid_copy() {
	need_perf_events
	need_shared_tmp
	cp "$ROOT/pstat" "$SHARED/pstat"
	chmod 4755 "$SHARED/pstat"
}

# That copy run by user nobody, without the tests' PSTAT_* variables
# (which it would warn about): suid ARGS...
suid() {
	nobody env -i PATH=/usr/bin:/bin "$SHARED/pstat" "$@"
}

@test "root: set-uid pstat reads no metrics file the user may not read" {
	need_setuid_copy
	echo 'password = hunter2' >"$SHARED/secret.metrics"
	chmod 600 "$SHARED/secret.metrics"
	# the attack: the contents came back in the error message
	run suid --metrics-file "$SHARED/secret.metrics" \
		-e task-clock true
	[ "$status" = 125 ] || fail "$output"
	[[ $output != *hunter2* ]] || fail "$output"
	[ "$output" = "pstat: cannot read metrics file '$SHARED/secret.metrics': Permission denied" ] ||
		fail "$output"
	# nor tells whether a path only root may look into exists
	mkdir -m 700 "$SHARED/private"
	touch "$SHARED/private/there"
	run suid --metrics-file "$SHARED/private/there" -e task-clock true
	[[ $output == *"Permission denied" ]] || fail "$output"
	run suid --metrics-file "$SHARED/private/not-there" -e task-clock true
	[[ $output == *"Permission denied" ]] || fail "$output"
	# serve reads it the same way
	run suid serve --listen 127.0.0.1:0 \
		--metrics-file "$SHARED/secret.metrics" -e task-clock --timeout 100
	[ "$status" = 125 ] || fail "$output"
	[[ $output != *hunter2* ]] || fail "$output"
	[[ $output == *"'$SHARED/secret.metrics': Permission denied"* ]] || fail "$output"
	# the user's own file is read for them
	echo 'mine = task-clock * 2' >"$SHARED/tmp/mine.metrics"
	chown 65534 "$SHARED/tmp/mine.metrics"
	run suid --metrics-file "$SHARED/tmp/mine.metrics" -e task-clock true
	[ "$status" = 0 ] || fail "$output"
	[[ $output == *mine* ]] || fail "$output"
}

@test "root: set-uid pstat neither reads nor writes a control FIFO the user may not use" {
	need_setuid_copy
	mkfifo -m 600 "$SHARED/ctl" "$SHARED/ack"
	# the attack: a root-only FIFO was read (and the ack written)
	exec 7<>"$SHARED/ctl" 8<>"$SHARED/ack"
	echo SECRET-TOKEN-abc123 >&7
	run suid --control "fifo:$SHARED/ctl,$SHARED/ack" \
		-e task-clock -- sleep 0.2
	[ "$status" = 125 ] || fail "$output"
	[[ $output != *SECRET-TOKEN* ]] || fail "$output"
	[ "$output" = "pstat: cannot open the control FIFO '$SHARED/ctl': Permission denied" ] ||
		fail "$output"
	# the token is still there, unread; no ack was written
	run timeout 2 head -n1 <&7
	[ "$output" = SECRET-TOKEN-abc123 ]
	run timeout 0.3 head -c1 <&8
	[ -z "$output" ]
	exec 7>&- 8>&-
	# a root-only ack FIFO beside the user's own control FIFO
	mkfifo "$SHARED/tmp/ctl"
	chown 65534 "$SHARED/tmp/ctl"
	run suid --control "fifo:$SHARED/tmp/ctl,$SHARED/ack" \
		-e task-clock true
	[ "$output" = "pstat: cannot open the ack FIFO '$SHARED/ack': Permission denied" ] ||
		fail "$output"
	# the user's own FIFO works
	run suid --control "fifo:$SHARED/tmp/ctl" -e task-clock true
	[ "$status" = 0 ] || fail "$output"
}

@test "root: a FIFO as --metrics-file never hangs pstat" {
	need_perf_events
	mkfifo m.fifo
	# the attack: open(2) waited for a writer with INT and TERM blocked;
	# without one, the FIFO reads as empty, at once
	run timeout 10 "$ROOT/pstat" --metrics-file m.fifo -e task-clock true
	[ "$status" = 125 ] || fail "$status $output"
	[ "$output" = "pstat: metrics file 'm.fifo' defines no metric" ] || fail "$output"
	run timeout 10 "$ROOT/pstat" serve --metrics-file m.fifo -e task-clock
	[ "$status" = 125 ] || fail "$status $output"
	# a writer that holds it open and never writes: SIGTERM ends the wait
	exec 9<>m.fifo
	pstat_bg --metrics-file m.fifo -e task-clock true
	sleep 0.3
	kill -TERM "$pid"
	st=0
	timeout 10 tail --pid="$pid" -f /dev/null || fail "pstat still runs after SIGTERM"
	wait "$pid" 2>/dev/null || st=$?
	exec 9>&-
	[ "$st" = 125 ] || fail "exit $st"
	# a pipe with its writer, as <(...) gives, is read
	run "$ROOT/pstat" --metrics-file <(echo 'twice = task-clock * 2') \
		-e task-clock true
	[ "$status" = 0 ] || fail "$output"
	[[ $output == *twice* ]] || fail "$output"
}
