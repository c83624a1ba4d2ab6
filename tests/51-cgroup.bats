#!/usr/bin/env bats
# cgroups: -G and --for-each-cgroup count only the tasks of a cgroup, on
# whole CPUs. The tests make two fresh cgroups under the hierarchy that
# counts perf events (cgroup v1's perf_event if mounted, else cgroup2),
# put a writer in each and count its writes exactly, while a writer
# outside them runs at the same time.

load test_helper
load json_helper
# need_om_parser, om_check
load serve_helper

# The mount point of the hierarchy perf events are counted in, as pstat
# finds it: cgroup v1 with perf_event first, else cgroup2.
cgroup_mount() {
	awk '{
		for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)perf_event(,|$)/) v1 = $5
		else if ($(i + 1) == "cgroup2" && !v2) v2 = $5
	} END { print (v1 != "" ? v1 : v2) }' /proc/self/mountinfo
}

need_cgroups() {
	need_root
	need_cpu_wide
	need_tracepoint syscalls/sys_enter_write
	CG=$(cgroup_mount)
	[ -n "$CG" ] || skip "no cgroup hierarchy counts perf events here"
	A=pstat-t$$-a
	B=pstat-t$$-b
	mkdir "$CG/$A" "$CG/$B" 2>/dev/null ||
		skip "cannot make a cgroup under $CG (read-only mount?)"
	WRITER=$(prog writer)
	# inwr CGROUP N: N writes by a process in CGROUP
	INWR="$BATS_TEST_TMPDIR/inwr"
	printf '#!/bin/sh\necho $$ >"%s/$1/cgroup.procs" && exec "%s" "$2"\n' \
		"$CG" "$WRITER" >"$INWR"
	chmod +x "$INWR"
}

teardown() {
	local g

	[ -n "${CG:-}" ] || return 0
	for g in "${A:-}" "${B:-}" ${MORE:-}; do
		[ -n "$g" ] && [ -d "$CG/$g" ] || continue
		# anything left behind goes back to the root first
		while read -r p; do
			echo "$p" >"$CG/cgroup.procs" 2>/dev/null || true
		done <"$CG/$g/cgroup.procs"
		rmdir "$CG/$g"
	done
}

# The CSV value of EVENT in CGROUP (perf's column after the event).
csv_value() {
	awk -F, -v ev="$1" -v cg="$2" '$3 == ev && $4 == cg { print $1 }'
}

@test "-G: exactly the cgroup's writes, not those of a writer outside it" {
	need_cgroups
	run "$PSTAT" -a -x, -e syscalls:sys_enter_write -G "$A" -- \
		sh -c "'$WRITER' 5000 & '$INWR' '$A' 1234; wait"
	assert_success
	[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 1234 ]

	# the table: perf's layout, the cgroup after the event
	run "$PSTAT" -a -e syscalls:sys_enter_write -G "$A" -- \
		sh -c "'$WRITER' 5000 & '$INWR' '$A' 1234; wait"
	assert_success
	assert_line --regexp "^ +1234 +syscalls:sys_enter_write +$A( |\$)"

	# -C: the cgroup on the CPUs chosen (the writer kept on CPU 0)
	command -v taskset >/dev/null || skip "taskset is not installed"
	run "$PSTAT" -C 0 -x, -e syscalls:sys_enter_write -G "$A" -- \
		taskset -c 0 "$INWR" "$A" 1234
	assert_success
	[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 1234 ]
}

@test "-G pairs its cgroups with the events before it, in order" {
	need_cgroups
	run "$PSTAT" -a -x, -e syscalls:sys_enter_write,syscalls:sys_enter_write \
		-G "$A,$B" -e syscalls:sys_enter_close -- \
		sh -c "'$INWR' '$A' 300; '$INWR' '$B' 200"
	assert_success
	[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 300 ]
	[ "$(csv_value syscalls:sys_enter_write "$B" <<<"$output")" = 200 ]
	# the event after -G counts every task: an empty cgroup column
	assert_line --regexp '^[0-9]+,,syscalls:sys_enter_close,,'
}

@test "--for-each-cgroup: every event per cgroup, exact, in CSV and JSON" {
	need_cgroups
	run "$PSTAT" -a -x, --for-each-cgroup "$A,$B" \
		-e syscalls:sys_enter_write,task-clock -- \
		sh -c "'$WRITER' 3000 & '$INWR' '$A' 1234; '$INWR' '$B' 777; wait"
	assert_success
	[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 1234 ]
	[ "$(csv_value syscalls:sys_enter_write "$B" <<<"$output")" = 777 ]
	assert_line --regexp "^[0-9.]+,msec,task-clock,$A,"

	run "$PSTAT" -a -j -o "$BATS_TEST_TMPDIR/cg.json" \
		--for-each-cgroup "$A,$B" -e syscalls:sys_enter_write -- \
		sh -c "'$INWR' '$A' 1234; '$INWR' '$B' 777"
	assert_success
	validate_json "$BATS_TEST_TMPDIR/cg.json"
	jq_assert --arg a "$A" --arg b "$B" '
		[.counters[] | {(.cgroup): .value}] | add ==
		{($a): 1234, ($b): 777}' "$BATS_TEST_TMPDIR/cg.json"
}

@test "--for-each-cgroup takes a regular expression over cgroup paths" {
	need_cgroups
	run "$PSTAT" -a -x, --for-each-cgroup "pstat-t$$-.*" \
		-e syscalls:sys_enter_write -- \
		sh -c "'$INWR' '$A' 11; '$INWR' '$B' 22"
	assert_success
	[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 11 ]
	[ "$(csv_value syscalls:sys_enter_write "$B" <<<"$output")" = 22 ]
	run "$PSTAT" -a --for-each-cgroup "pstat-none-$$.*" -e cs true
	assert_failure 125
	assert_line --partial "no cgroup matches 'pstat-none-$$.*'"
}

@test "-A: one row per CPU and cgroup; -I: per interval" {
	need_cgroups
	run "$PSTAT" -a -A -x, --for-each-cgroup "$A,$B" \
		-e syscalls:sys_enter_write -- \
		sh -c "'$INWR' '$A' 1234; '$INWR' '$B' 777"
	assert_success
	ncpu=$(grep -c . <<<"$(awk -F, '$4 == "syscalls:sys_enter_write" && $5 == "'"$A"'"' <<<"$output")")
	[ "$ncpu" = "$(nproc)" ]
	# the CPUs' rows add up to the exact count
	sum=$(awk -F, -v cg="$A" '$5 == cg && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' <<<"$output")
	[ "$sum" = 1234 ]

	run "$PSTAT" -a -I 100 -x, --for-each-cgroup "$A" \
		-e syscalls:sys_enter_write -- \
		sh -c "sleep 0.25; '$INWR' '$A' 1234; sleep 0.25"
	assert_success
	# the intervals' deltas add up to the cgroup's count
	sum=$(awk -F, -v cg="$A" '$1 !~ /summary/ && $5 == cg && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' <<<"$output")
	[ "$sum" = 1234 ]
}

@test "cgroup errors: missing, without -a, too many, none before, both options" {
	need_perf_events
	run "$PSTAT" -a -e cs -G "pstat-missing-$$" true
	assert_failure 125
	assert_line --index 0 --partial "pstat-missing-$$"
	run "$PSTAT" -e cs -G x true
	assert_failure 125
	assert_line --index 0 'pstat: -G needs -a or -C: cgroups are counted on whole CPUs'
	run "$PSTAT" -a -e cs -G x,y true
	assert_failure 125
	assert_line --index 0 --partial '-G x,y: more cgroups than the 1 event before it'
	run "$PSTAT" -a -G x -e cs true
	assert_failure 125
	assert_line --index 0 --partial '-G x: no events before it'
	run "$PSTAT" -a -e cs -G x --for-each-cgroup y true
	assert_failure 125
	assert_line --index 0 'pstat: -G and --for-each-cgroup cannot be combined'
	run "$PSTAT" -a -e cs -G ../etc true
	assert_failure 125
	assert_line --index 0 --partial "invalid cgroup '../etc'"
	run "$PSTAT" -a -e '{cs,task-clock}' -G x,y true
	assert_failure 125
	assert_line --index 0 --partial "the events of a {group} count in one cgroup"
	# each of them one line
	for args in "-e cs -G x" "-a -e cs -G x,y" "-a -G x -e cs" \
		"-a -e cs -G x --for-each-cgroup y" "-a -e cs -G pstat-missing-$$"; do
		run "$PSTAT" $args true
		assert_failure 125
		[ "${#lines[@]}" = 1 ]
	done
}

@test "cgroup mount: v1 perf_event first, else cgroup2, escapes undone" {
	run_table cgroup-mount cgroup-mount.test
}

@test "--dry-run shows each event's cgroup; compare matches cgroups by name" {
	run "$PSTAT" --dry-run -e task-clock,cs -G web,db
	assert_success
	assert_line '  cgroup web'
	assert_line '  cgroup db'

	need_cgroups
	for order in "$A,$B" "$B,$A"; do
		"$PSTAT" -a -j -o "$BATS_TEST_TMPDIR/$order.json" \
			--for-each-cgroup "$order" -e syscalls:sys_enter_write -- \
			sh -c "'$INWR' '$A' 1234; '$INWR' '$B' 777"
	done
	run "$PSTAT" compare "$BATS_TEST_TMPDIR/$A,$B.json" "$BATS_TEST_TMPDIR/$B,$A.json"
	assert_success
	assert_line --regexp "^syscalls:sys_enter_write \(cgroup $A\) +1,234 +1,234 "
	assert_line --regexp "^syscalls:sys_enter_write \(cgroup $B\) +777 +777 "
}

@test "bash completes cgroup names after -G, in a comma list too" {
	need_cgroups
	run bash -c '
		. "$1/completions/pstat.bash"
		COMP_LINE="pstat -a -e cs -G $2,pstat-t$3-"
		COMP_POINT=${#COMP_LINE}
		COMP_WORDS=(pstat -a -e cs -G "$2,pstat-t$3-")
		COMP_CWORD=5
		_pstat pstat "${COMP_WORDS[5]}" -G || exit
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$ROOT" "$A" "$$"
	assert_success
	assert_line "$A,$A"
	assert_line "$A,$B"
}

@test "fish completes cgroup names after -G and --for-each-cgroup" {
	need_cgroups
	command -v fish >/dev/null || skip "fish is not installed"
	HOME=$BATS_TEST_TMPDIR XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config \
		XDG_DATA_HOME=$BATS_TEST_TMPDIR/data \
		run fish -c 'source $argv[1]; complete -C $argv[2]' \
		"$ROOT/completions/pstat.fish" "pstat -a -e cs -G $A,pstat-t$$-"
	assert_success
	assert_line --regexp "^$A,$B	"
	HOME=$BATS_TEST_TMPDIR XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/config \
		XDG_DATA_HOME=$BATS_TEST_TMPDIR/data \
		run fish -c 'source $argv[1]; complete -C $argv[2]' \
		"$ROOT/completions/pstat.fish" "pstat -a --for-each-cgroup pstat-t$$-"
	assert_success
	assert_line --regexp "^$A	"
	assert_line --regexp "^$B	"
}

# more_cgroups N PREFIX: N more cgroups PREFIX1..PREFIXN, removed at
# teardown.
more_cgroups() {
	local i

	for i in $(seq "$1"); do
		mkdir "$CG/$2$i"
		MORE="${MORE:-} $2$i"
	done
}

@test "--for-each-cgroup: a pattern whose repeats would blow up regcomp is refused at once" {
	need_cgroups
	# the attack: 12 s and 3.3 GB in regcomp
	run timeout 10 "$PSTAT" -a --for-each-cgroup '(((.{255}){255}){255})' -e cs true
	assert_failure 125
	assert_output "pstat: cgroup pattern '(((.{255}){255}){255})' is too large: more than 4096 characters with its {m,n} repeats written out"
	# at the limit, (x{64}){64} is 4096: compiled (and matches nothing)
	run timeout 10 "$PSTAT" -a --for-each-cgroup '(x{64}){64}' -e cs true
	assert_failure 125
	assert_output "pstat: no cgroup matches '(x{64}){64}' (in $CG)"
	run timeout 10 "$PSTAT" -a --for-each-cgroup '(x{64}){64}y' -e cs true
	assert_failure 125
	assert_output --partial "is too large: more than 4096 characters"
}

@test "--for-each-cgroup: commas inside {m,n} belong to the pattern; groups keep their numbers" {
	need_cgroups
	more_cgroups 3 "pstat-t$$-r"
	mkdir "$CG/pstat-t$$-rr" && MORE="$MORE pstat-t$$-rr"
	# the attack: a{1,3} was cut at its comma into 'a{1' and '3}'
	run "$PSTAT" -a -x, --for-each-cgroup "pstat-t$$-r[0-9]{1,2},$A" -e cs true
	assert_success
	[ "$(awk -F, '$3 == "cs" { print $4 }' <<<"$output" | sort | paste -sd' ')" = \
		"$A pstat-t$$-r1 pstat-t$$-r2 pstat-t$$-r3" ] || fail "$output"
	# \1 is the pattern's own first group, not the anchoring's
	run "$PSTAT" -a -x, --for-each-cgroup "pstat-t$$-(r)\\1" -e cs true
	assert_success
	[ "$(awk -F, '$3 == "cs" { print $4 }' <<<"$output")" = "pstat-t$$-rr" ] || fail "$output"
	# alternatives still match the whole path only
	run "$PSTAT" -a -x, --for-each-cgroup "pstat-t$$-r1|pstat-t$$-r" -e cs true
	assert_success
	[ "$(awk -F, '$3 == "cs" { print $4 }' <<<"$output")" = "pstat-t$$-r1" ] || fail "$output"
}

@test "--for-each-cgroup: the descriptor check counts the cgroups' directories" {
	need_cgroups
	more_cgroups 40 "pstat-t$$-fd"
	ncpu=$(getconf _NPROCESSORS_ONLN)
	# counters need ncpu x 40 + 16; the 40 directories on top do not fit
	lim=$((ncpu * 40 + 16 + 20))
	# the attack: the check passed, then opening failed with EMFILE
	run bash -c 'ulimit -n "$1" && ulimit -Hn "$1" && exec "${@:2}"' _ "$lim" \
		"$PSTAT" -a --for-each-cgroup "pstat-t$$-fd[0-9]+" -e cs true
	assert_failure 125
	assert_line --index 0 "pstat: counting needs $((ncpu * 40 + 40 + 16)) file descriptors, but the limit is $lim"
	refute_output --partial 'Too many open files'
	run bash -c 'ulimit -n "$1" && ulimit -Hn "$1" && exec "${@:2}"' _ "$((lim + 20))" \
		"$PSTAT" -a -x, --for-each-cgroup "pstat-t$$-fd[0-9]+" -e cs true
	assert_success
	[ "$(grep -c ',cs,' <<<"$output")" = 40 ]
}

# The value of metric NAME in CGROUP, from CSV: a metric's line has its
# cgroup in perf's cgroup column and "NAME" last.
csv_metric() {
	awk -F, -v m="$1" -v cg="$2" '$NF == m && $4 == cg { print $(NF - 1) }'
}

@test "-G with metrics: the metrics' events count the cgroup's work alone" {
	need_cgroups
	# a -G before any -e names the metrics' cgroups (perf refuses it)
	run "$PSTAT" -a -x, -G "$A" --metric 'W2 = syscalls:sys_enter_write * 2' \
		-- sh -c "'$WRITER' 5000 & '$INWR' '$A' 1234; wait"
	assert_success
	[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 1234 ]
	[ "$(csv_metric W2 "$A" <<<"$output")" = 2468.000 ]
	# no row counts every task's writes
	refute_line --regexp '^[0-9]+,,syscalls:sys_enter_write,,'

	# with -e before it: -G pairs with the events and the metrics count
	# in it too, the table printing each metric under its cgroup's rows
	run "$PSTAT" -a -e task-clock -G "$A" \
		--metric 'W = syscalls:sys_enter_write' -- \
		sh -c "'$WRITER' 5000 & '$INWR' '$A' 1234; wait"
	assert_success
	assert_line --regexp "^ +1234 +syscalls:sys_enter_write +$A( |\$)"
	assert_line --regexp '^ +# +1234.000 W +$'

	# a built-in metric (-M) over task-clock: a busy process outside the
	# cgroup adds nothing to it (every task's would be ~1 CPU or more)
	s=$(prog spinner)
	INCG="$BATS_TEST_TMPDIR/incg"
	printf '#!/bin/sh\necho $$ >"%s/$1/cgroup.procs" && shift && exec "$@"\n' \
		"$CG" >"$INCG"
	chmod +x "$INCG"
	run "$PSTAT" -a -j -o "$BATS_TEST_TMPDIR/m.json" -G "$A" \
		-M cpus_utilized -- \
		sh -c "'$s' 1 600 & '$INCG' '$A' '$s' 1 50; wait"
	assert_success
	validate_json "$BATS_TEST_TMPDIR/m.json"
	jq_assert --arg a "$A" '
		(.counters | map(select(.event == "task-clock")) |
			length == 1 and .[0].cgroup == $a and
			.[0].value < 300) and
		(.metrics | length == 1 and .[0].cgroup == $a and
			.[0].value > 0 and .[0].value < 0.5)' "$BATS_TEST_TMPDIR/m.json"
}

@test "-G A,B with metrics: each cgroup's metrics from its own rows, in every format" {
	need_cgroups
	cmd="'$WRITER' 3000 & '$INWR' '$A' 1234; '$INWR' '$B' 777; wait"
	run "$PSTAT" -a -x, -G "$A,$B" --metric 'W = syscalls:sys_enter_write' \
		-- sh -c "$cmd"
	assert_success
	[ "$(csv_metric W "$A" <<<"$output")" = 1234.000 ]
	[ "$(csv_metric W "$B" <<<"$output")" = 777.000 ]

	run "$PSTAT" -a -x, --metric-only -G "$A,$B" \
		--metric 'W = syscalls:sys_enter_write' -- sh -c "$cmd"
	assert_success
	assert_line 'cgroup,W'
	assert_line "$A,1234.000"
	assert_line "$B,777.000"

	run "$PSTAT" -a --metric-only -G "$A,$B" \
		--metric 'W = syscalls:sys_enter_write' -- sh -c "$cmd"
	assert_success
	assert_line --regexp "^ +$A +1234.000\$"
	assert_line --regexp "^ +$B +777.000\$"

	run "$PSTAT" -a -j -o "$BATS_TEST_TMPDIR/g.json" -G "$A,$B" \
		--metric 'W = syscalls:sys_enter_write' -- sh -c "$cmd"
	assert_success
	validate_json "$BATS_TEST_TMPDIR/g.json"
	jq_assert --arg a "$A" --arg b "$B" '
		[.metrics[] | {(.cgroup): .value}] | add ==
		{($a): 1234, ($b): 777}' "$BATS_TEST_TMPDIR/g.json"

	# compare matches each cgroup's metric with the same cgroup's
	run "$PSTAT" compare "$BATS_TEST_TMPDIR/g.json" "$BATS_TEST_TMPDIR/g.json"
	assert_success
	assert_line --regexp "^W \(cgroup $A\) +1,234 +1,234 "
	assert_line --regexp "^W \(cgroup $B\) +777 +777 "
}

@test "--for-each-cgroup with metrics: each cgroup's metric from its own rows" {
	need_cgroups
	cmd="'$WRITER' 3000 & '$INWR' '$A' 1234; '$INWR' '$B' 777; wait"
	# the metric alone, and one sharing an -e event's counts
	for e in "" "-e syscalls:sys_enter_write"; do
		run "$PSTAT" -a -x, --for-each-cgroup "$A,$B" $e \
			--metric 'W2 = syscalls:sys_enter_write * 2' -- sh -c "$cmd"
		assert_success
		[ "$(csv_value syscalls:sys_enter_write "$A" <<<"$output")" = 1234 ]
		[ "$(csv_value syscalls:sys_enter_write "$B" <<<"$output")" = 777 ]
		[ "$(csv_metric W2 "$A" <<<"$output")" = 2468.000 ]
		[ "$(csv_metric W2 "$B" <<<"$output")" = 1554.000 ]
		[ "$(grep -c 'syscalls:sys_enter_write' <<<"$output")" = 2 ]
	done

	run "$PSTAT" -a -j -o "$BATS_TEST_TMPDIR/f.json" \
		--for-each-cgroup "$A,$B" \
		--metric 'W2 = syscalls:sys_enter_write * 2' -- sh -c "$cmd"
	assert_success
	validate_json "$BATS_TEST_TMPDIR/f.json"
	jq_assert --arg a "$A" --arg b "$B" '
		([.metrics[] | {(.cgroup): .value}] | add ==
			{($a): 2468, ($b): 1554}) and
		([.counters[] | {(.cgroup): .value}] | add ==
			{($a): 1234, ($b): 777})' "$BATS_TEST_TMPDIR/f.json"

	# perf's JSON lines: each metric's line names its cgroup
	run "$PSTAT" -a --json=perf -o "$BATS_TEST_TMPDIR/p.json" \
		--for-each-cgroup "$A,$B" \
		--metric 'W2 = syscalls:sys_enter_write * 2' -- sh -c "$cmd"
	assert_success
	# (after perf's '# started on' line)
	grep -v '^#' "$BATS_TEST_TMPDIR/p.json" | jq_assert -s --arg a "$A" \
		--arg b "$B" '
		[.[] | select(."metric-unit" == "W2") |
			{(.cgroup): ."metric-value"}] | add ==
		{($a): 2468, ($b): 1554}'
}

@test "--openmetrics: each cgroup's metric a sample with its cgroup label" {
	need_cgroups
	need_om_parser
	run "$PSTAT" -a --openmetrics -o "$BATS_TEST_TMPDIR/om" \
		--for-each-cgroup "$A,$B" \
		--metric 'W2 = syscalls:sys_enter_write * 2' -- \
		sh -c "'$WRITER' 3000 & '$INWR' '$A' 1234; '$INWR' '$B' 777; wait"
	assert_success
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line "sample pstat_metric{cgroup=\"$A\",metric=\"W2\"} 2468.0"
	assert_line "sample pstat_metric{cgroup=\"$B\",metric=\"W2\"} 1554.0"
}

@test "--dry-run: -M and --topdown events once per cgroup, groups in one cgroup each" {
	local skl="$SYSFS/intel-skylake" doc="$BATS_TEST_TMPDIR/d.json"

	# (Skylake's top-down from the vendor's data, for the fixture tree's
	# CPU; nothing is opened)
	for args in "-G web,db -M TopdownL1" "-G web,db --topdown" \
		"--for-each-cgroup web,db -M TopdownL1" \
		"-e cs -G web,,db --topdown"; do
		PSTAT_SYSFS_ROOT="$skl" "$PSTAT" --dry-run -a -j -o "$doc" $args
		validate_json "$doc" "$ROOT/schema/pstat-dryrun.schema.json"
		# the same metric events in web as in db, each group in one
		jq_assert '
			[.events[] | select(.name != "cs")] as $t |
			($t | map(select(.cgroup == "web") | .name)) as $w |
			($t | map(select(.cgroup == "db") | .name)) as $d |
			($w | length) >= 4 and $w == $d and
			($t | length) == ($w | length) * 2 and
			([.events | group_by(.group)[] |
				map(.cgroup) | unique | length] | max) == 1' "$doc"
	done
	# -e cs -G web,,db: cs paired with web, the metrics in web and db
	jq_assert '.events[0] | .name == "cs" and .cgroup == "web"' "$doc"
}
