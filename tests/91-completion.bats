#!/usr/bin/env bats
# Shell completions: bash (with bash-completion when installed), fish and
# zsh, each completing event lists, pids, CPUs and the command after
# pstat's options. The completions call the pstat built here.

load test_helper

setup() {
	export PATH="$ROOT:$PATH"
	tpid=
}

teardown() {
	if [ -n "$tpid" ]; then
		kill "$tpid" 2>/dev/null || true
		wait "$tpid" 2>/dev/null || true
	fi
}

# bash_complete LINE WORD...: complete LINE (the cursor at its end) in a
# fresh bash; the WORDs are COMP_WORDS as bash splits LINE. Prints one
# COMPREPLY entry a line.
bash_complete() {
	run bash -c '
		if [ -r /usr/share/bash-completion/bash_completion ]; then
			. /usr/share/bash-completion/bash_completion
		fi
		. "$1/completions/pstat.bash"
		COMP_LINE=$2
		COMP_POINT=${#2}
		shift 2
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_pstat pstat "${COMP_WORDS[COMP_CWORD]}" \
			"${COMP_WORDS[COMP_CWORD - 1]}" || exit
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$ROOT" "$@"
}

# bash_words WORD...: complete with only COMP_WORDS and COMP_CWORD set,
# as a caller that has no COMP_LINE does; the last WORD is the current.
bash_words() {
	run bash -c '
		if [ -r /usr/share/bash-completion/bash_completion ]; then
			. /usr/share/bash-completion/bash_completion
		fi
		. "$1/completions/pstat.bash"
		unset COMP_LINE COMP_POINT
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_pstat pstat "${COMP_WORDS[COMP_CWORD]}" \
			"${COMP_WORDS[COMP_CWORD - 1]}" || exit
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$ROOT" "$@"
}

# no_line REGEX: fails when a line of $output matches REGEX (refute_line
# cannot take an empty output).
no_line() {
	if grep -qE -- "$1" <<<"$output"; then
		echo "offered: $(grep -E -- "$1" <<<"$output")" >&2
		return 1
	fi
}

# A kernel thread's pid (PF_KTHREAD in /proc/PID/stat), or nothing.
kernel_thread() {
	local d stat
	local -a f
	for d in /proc/[0-9]*; do
		read -r stat 2>/dev/null <"$d/stat" || continue
		read -ra f <<<"${stat##*) }"
		if ((${f[6]:-0} & 0x00200000)); then
			echo "${d#/proc/}"
			return
		fi
	done
}

# Sets tpid, a process with three threads, and tid, a thread of it that
# is not its leader; teardown ends it.
start_threads() {
	prog threads >/dev/null
	"$BATS_RUN_TMPDIR/prog-threads" 3 1 30000 >"$BATS_TEST_TMPDIR/ready" &
	tpid=$!
	until grep -q ready "$BATS_TEST_TMPDIR/ready" 2>/dev/null; do
		sleep 0.01
	done
	tid=$(ls "/proc/$tpid/task" | grep -vx "$tpid" | head -1)
}

# fish_complete LINE: what fish offers for LINE, "candidate<TAB>desc".
fish_complete() {
	command -v fish >/dev/null || skip "fish is not installed"
	# an empty home, so no user configuration takes part
	HOME=$BATS_TEST_TMPDIR XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config \
		XDG_DATA_HOME=$BATS_TEST_TMPDIR/data \
		run fish -c 'source $argv[1]; complete -C $argv[2]' \
		"$ROOT/completions/pstat.fish" "$1"
}

# The online CPUs expanded, one a line.
online_cpus() {
	local r i
	for r in $(tr ',' ' ' </sys/devices/system/cpu/online); do
		for ((i = ${r%-*}; i <= ${r#*-}; i++)); do
			echo "$i"
		done
	done
}

fake_tracefs() {
	local t="$BATS_TEST_TMPDIR/tracefs"
	mkdir -p "$t/events/pstatfake/first" "$t/events/pstatfake/second"
	echo 101 >"$t/events/pstatfake/first/id"
	echo 102 >"$t/events/pstatfake/second/id"
	echo "$t"
}

@test "bash: an event name" {
	bash_complete 'pstat -e task-' pstat -e task-
	assert_success
	assert_output 'task-clock'
}

@test "bash: the last event of a list keeps the ones before it" {
	bash_complete 'pstat -e task-clock,page-' pstat -e task-clock,page-
	assert_success
	assert_output 'task-clock,page-faults'
}

@test "bash: an event inside a group" {
	# (a tracefs whose subsystems start with no "cs", as csd: does)
	export PSTAT_TRACEFS_ROOT=$(fake_tracefs)
	bash_complete 'pstat -e {task-clock,cs' pstat -e '{task-clock,cs'
	assert_success
	assert_output '{task-clock,cs'
	# inside an open quote, as typed: pstat -e '{task-clock,cs
	bash_complete "pstat -e '{task-clock,cs" pstat -e "'{task-clock,cs"
	assert_success
	assert_output '{task-clock,cs'
}

@test "bash: an event after --event= and in a short cluster" {
	bash_complete 'pstat --event=task-' pstat --event = task-
	assert_success
	assert_output 'task-clock'
	bash_complete 'pstat -ietask-' pstat -ietask-
	assert_success
	assert_output '-ietask-clock'
}

@test "bash: tracepoints of a subsystem, after the colon bash splits at" {
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t bash_complete 'pstat -e cs,pstatfake:f' \
		pstat -e cs,pstatfake : f
	assert_success
	assert_output 'first'
}

@test "bash and fish: a bare prefix offers the tracepoint subsystems (sch -> sched:)" {
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t bash_complete 'pstat -e cs,pstatf' pstat -e cs,pstatf
	assert_success
	assert_output 'cs,pstatfake:'
	# the real tracefs: sched's events come after "sched:"
	if [ -r /sys/kernel/tracing/events/sched ]; then
		bash_complete 'pstat -e sch' pstat -e sch
		assert_line 'sched:'
	fi
	PSTAT_TRACEFS_ROOT=$t fish_complete 'pstat -e cs,pstatf'
	assert_success
	assert_line --regexp $'^cs,pstatfake:(\t|$)'
}

@test "fish: pstat compare offers run documents, not every file" {
	mkdir -p "$BATS_TEST_TMPDIR/docs/sub"
	touch "$BATS_TEST_TMPDIR/docs/base.json" "$BATS_TEST_TMPDIR/docs/notes.txt"
	cd "$BATS_TEST_TMPDIR/docs"
	fish_complete 'pstat compare '
	assert_success
	assert_line 'base.json'
	assert_line 'sub/'
	refute_line 'notes.txt'
}

@test "bash: long options" {
	bash_complete 'pstat --no-' pstat --no-
	assert_success
	assert_output "$(printf '%s\n' --no-aggr --no-big-num --no-csv-summary --no-inherit --no-merge)"
}

@test "bash: CPUs after -C" {
	[ -r /sys/devices/system/cpu/online ] || skip "no online CPU list"
	bash_complete 'pstat -C ' pstat -C ''
	assert_success
	assert_output "$(online_cpus)"
}

@test "bash: process ids with their names after -p" {
	bash_complete 'pstat -p ' pstat -p ''
	assert_success
	assert_line --regexp '^1 \(.*\)$'
	# every entry is "PID (comm)"
	refute_line --regexp '^([^0-9]|[0-9]+([^0-9 ]| [^(]))'
}

@test "bash: one process left is inserted as its number" {
	# several left: each keeps its name (the pids after 1, every one)
	bash_complete 'pstat -p 1,' pstat -p 1,
	assert_success
	assert_line --regexp '^1,1 \(.*\)$'
	# a pid that no other pid starts with, a long-lived one first
	local pid= p
	for p in $$ $PPID $(ls /proc | grep -E '^[0-9]+$'); do
		if [ "$(ls /proc | grep -c "^$p")" = 1 ]; then
			pid=$p
			break
		fi
	done
	[ -n "$pid" ] || skip "every pid is the prefix of another"
	bash_complete "pstat -p $pid" pstat -p "$pid"
	assert_success
	assert_output "$pid"
}

@test "bash: --fail-on states" {
	bash_complete 'pstat --fail-on not-counted,m' pstat --fail-on not-counted,m
	assert_success
	assert_output 'not-counted,multiplexed'
}

@test "bash: subcommands as the first word only" {
	bash_complete 'pstat doc' pstat doc
	assert_success
	assert_line 'doctor'
	bash_complete 'pstat -e cs doc' pstat -e cs doc
	assert_success
	refute_line 'doctor'
	bash_complete 'pstat list --na' pstat list --na
	assert_success
	assert_output '--names'
	bash_complete 'pstat compare --format ' pstat compare --format ''
	assert_success
	assert_output "$(printf '%s\n' table json markdown)"
	bash_complete 'pstat ben' pstat ben
	assert_success
	assert_line 'bench'
	bash_complete 'pstat bench --ord' pstat bench --ord
	assert_success
	assert_output '--order'
	bash_complete 'pstat bench --order ' pstat bench --order ''
	assert_success
	assert_output "$(printf '%s\n' interleave shuffle)"
	# the value of -r is a number: nothing offered
	bash_complete 'pstat bench -r ' pstat bench -r ''
	assert_success
	assert_output ''
}

@test "bash: the command after pstat's options, and its own completion" {
	bash_complete 'pstat -e task-clock -r 3 tru' pstat -e task-clock -r 3 tru
	assert_success
	assert_line 'true'
	[ -r /usr/share/bash-completion/bash_completion ] ||
		skip "bash-completion is not installed"
	# kill's completion offers signal names
	bash_complete 'pstat --event=a:b -r 3 -- kill -TE' \
		pstat --event = a : b -r 3 -- kill -TE
	assert_success
	assert_output '-TERM'
}

@test "bash: COMP_WORDS and COMP_CWORD alone, without COMP_LINE" {
	bash_words pstat -e task-
	assert_success
	assert_output 'task-clock'
	bash_words pstat -e task-clock,page-
	assert_success
	assert_output 'task-clock,page-faults'
	PSTAT_TRACEFS_ROOT=$(fake_tracefs) bash_words pstat -e '{task-clock,cs'
	assert_success
	assert_output '{task-clock,cs'
	bash_words pstat --event = task-
	assert_success
	assert_output 'task-clock'
	bash_words pstat -p ''
	assert_success
	assert_line --regexp '^1 \(.*\)$'
	refute_line --regexp '^([^0-9]|[0-9]+([^0-9 ]| [^(]))'
	if [ -r /sys/devices/system/cpu/online ]; then
		bash_words pstat -C ''
		assert_success
		assert_output "$(online_cpus)"
	fi
	bash_words pstat -e task-clock -r 3 tru
	assert_success
	assert_line 'true'
	refute_line 'task-clock'
	bash_words pstat doc
	assert_success
	assert_line 'doctor'
	bash_words pstat -e cs --no-
	assert_success
	assert_output "$(printf '%s\n' --no-aggr --no-big-num --no-csv-summary --no-inherit --no-merge)"
	[ -r /usr/share/bash-completion/bash_completion ] ||
		skip "bash-completion is not installed"
	# the command's own completion: kill's offers signal names
	bash_words pstat --event = a : b -r 3 kill -TE
	assert_success
	assert_output '-TERM'
	bash_words pstat -e cs -- kill -TE
	assert_success
	assert_output '-TERM'
}

@test "bash: tracepoints after the colon, without COMP_LINE" {
	local t
	t=$(fake_tracefs)
	PSTAT_TRACEFS_ROOT=$t bash_words pstat -e cs,pstatfake : f
	assert_success
	assert_output 'first'
	PSTAT_TRACEFS_ROOT=$t bash_words pstat --event = pstatfake : s
	assert_success
	assert_output 'second'
}

@test "pids after -p leave out kernel threads, which pstat refuses" {
	local k
	k=$(kernel_thread)
	[ -n "$k" ] || skip "no kernel thread is visible here"
	run "$ROOT/pstat" -p "$k" -e task-clock --timeout 10
	assert_failure 125
	assert_output --partial 'it is a kernel thread'
	bash_complete "pstat -p $k" pstat -p "$k"
	assert_success
	no_line "^$k( |$)"
	bash_words pstat -p ''
	assert_success
	no_line "^$k( |$)"
	assert_line --regexp '^1 \(.*\)$'
	if command -v fish >/dev/null; then
		fish_complete "pstat -p $k"
		assert_success
		no_line "^$k"$'\t'
	fi
}

@test "thread ids with their names after -t" {
	local tid
	start_threads
	[ -n "$tid" ] || skip "the threads program started no thread"
	bash_words pstat -t "$tid"
	assert_success
	assert_line --regexp "^$tid( \(.*\))?$"
	bash_words pstat -t ''
	assert_success
	refute_line --regexp '^([^0-9]|[0-9]+([^0-9 ]| [^(]))'
	bash_words pstat -p "$tid"
	assert_success
	no_line "^$tid( |$)"
}

@test "fish: thread ids after -t, kernel threads left out after -p" {
	command -v fish >/dev/null || skip "fish is not installed"
	local tid
	start_threads
	[ -n "$tid" ] || skip "the threads program started no thread"
	fish_complete "pstat -t $tid"
	assert_success
	assert_line --regexp "^$tid"$'\t'
	fish_complete "pstat -p $tid"
	assert_success
	no_line "^$tid"$'\t'
}

@test "fish: an event name, in a list and in a group" {
	fish_complete 'pstat -e task-'
	assert_success
	assert_line --regexp $'^task-clock\t'
	fish_complete 'pstat -e task-clock,page-'
	assert_success
	assert_line --regexp $'^task-clock,page-faults\t'
	fish_complete 'pstat -e {task-clock,cs'
	assert_success
	assert_line --regexp $'^\\{task-clock,cs\t'
	fish_complete 'pstat --event=task-'
	assert_success
	assert_line --regexp $'^--event=task-clock\t'
}

@test "fish: options, CPUs, pids, subcommands, the command" {
	fish_complete 'pstat --no-'
	assert_success
	assert_line --regexp $'^--no-inherit\t'
	fish_complete 'pstat -p 1'
	assert_success
	assert_line --regexp $'^1\t'
	if [ -r /sys/devices/system/cpu/online ]; then
		fish_complete 'pstat -C '
		assert_success
		[ "$(cut -f1 <<<"$output")" = "$(online_cpus)" ]
	fi
	fish_complete 'pstat doc'
	assert_success
	assert_line --regexp $'^doctor\t'
	fish_complete 'pstat -e cs -- tru'
	assert_success
	assert_line --regexp $'^true\t'
	fish_complete 'pstat compare --format '
	assert_success
	assert_line --regexp $'^markdown\t'
	fish_complete 'pstat bench --order '
	assert_success
	assert_line --regexp $'^shuffle(\t|$)'
}

@test "bash and fish: pstat serve, its options and their values" {
	bash_complete 'pstat ser' pstat ser
	assert_success
	assert_line 'serve'
	bash_complete 'pstat serve --li' pstat serve --li
	assert_success
	assert_output '--listen'
	bash_complete 'pstat serve --for' pstat serve --for
	assert_output '--for-each-cgroup'
	# a value: nothing offered, not the options
	bash_complete 'pstat serve --listen ' pstat serve --listen ''
	assert_success
	assert_output ''
	fish_complete 'pstat ser'
	assert_line --regexp $'^serve\t'
	fish_complete 'pstat serve --li'
	assert_success
	assert_line --regexp $'^--listen\t'
}

@test "zsh: the completion parses and loads with compinit" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh -n "$ROOT/completions/_pstat"
	assert_success
	mkdir -p "$BATS_TEST_TMPDIR/fpath"
	cp "$ROOT/completions/_pstat" "$BATS_TEST_TMPDIR/fpath/"
	run zsh -f -c '
		fpath=("$1" $fpath)
		autoload -Uz compinit
		compinit -u -d "$1/zcompdump"
		[[ $_comps[pstat] == _pstat ]] || exit 3
		autoload +X _pstat' _ "$BATS_TEST_TMPDIR/fpath"
	assert_success
	assert_output ''
}

@test "zsh: completing in a terminal offers events, CPUs and subcommands" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	zsh -f -c 'zmodload zsh/zpty' 2>/dev/null || skip "no zsh/zpty module"
	mkdir -p "$BATS_TEST_TMPDIR/fpath"
	cp "$ROOT/completions/_pstat" "$BATS_TEST_TMPDIR/fpath/"
	# An interactive zsh in a pseudo-terminal completes the line; compadd
	# is wrapped to print each match, and the shell exits afterwards.
	zsh_complete() {
		timeout 30 zsh -f -c '
			zmodload zsh/zpty
			zpty z zsh -f -i
			zpty -w z "PROMPT= ; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D"
			zpty -w z '\''compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi; local -a h; builtin compadd -A h "$@"; local m; for m in $h; do print -r -- "MA""TCH:$IPREFIX$m"; done; builtin compadd "$@"; }'\''
			zpty -w z "comppostfuncs=(exit); bindkey \"^I\" complete-word"
			zpty -w z "$2"$'\''\t'\''
			while zpty -r z line; do
				[[ $line == *MATCH:* ]] && print -r -- "${line#*MATCH:}"
			done
			zpty -d z' _ "$BATS_TEST_TMPDIR/fpath" "$1" |
			tr -d '\r' | sed 's/[[:space:]]*$//' | sort -u
	}
	run zsh_complete 'pstat -e task-'
	assert_line 'task-clock'
	run zsh_complete 'pstat -e task-clock,page-'
	assert_line --regexp '^(task-clock,)?page-faults$'
	run zsh_complete 'pstat --no-'
	assert_line '--no-big-num'
	run zsh_complete 'pstat '
	assert_line 'doctor'
	run zsh_complete 'pstat compare --format '
	assert_line 'markdown'
	# a bare prefix offers the tracepoint subsystems it may start
	PSTAT_TRACEFS_ROOT=$(fake_tracefs) run zsh_complete 'pstat -e cs,pstatf'
	assert_line --regexp '^(cs,)?pstatfake:$'
	run zsh_complete 'pstat bench --order '
	assert_line 'shuffle'
	# thread ids after -t; no kernel thread after -p
	local tid k
	start_threads
	if [ -n "$tid" ]; then
		run zsh_complete "pstat -t $tid"
		assert_line "$tid"
		run zsh_complete "pstat -p $tid"
		no_line "^$tid$"
	fi
	k=$(kernel_thread)
	if [ -n "$k" ]; then
		run zsh_complete "pstat -p $k"
		no_line "^$k$"
		run zsh_complete 'pstat -p '
		assert_line 1
		no_line "^$k$"
	fi
}
