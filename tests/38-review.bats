#!/usr/bin/env bats
# Acceptance review of issues 32 and 33: command lines as a perf user
# or a script written for perf runs them, beyond the other files' cases.

load test_helper

CPUS="$FIX/cpus"
VENDOR="$ROOT/src/events/vendor"

@test "vendor events: every name pstat list shows resolves, several dots included (ocr.*, offcore_response)" {
	command -v jq >/dev/null || skip "jq is not installed"
	# libpfm4 would take the host's table: the vendor's names alone
	export LIBPFM_FORCE_PMU=none
	for t in intel-broadwell intel-sapphirerapids intel-graniterapids \
		intel-arrowlake-h intel-sierraforest arm64-neoverse-v3; do
		export PSTAT_SYSFS_ROOT="$CPUS/$t"
		names=$("$ROOT/pstat" list -j |
			jq -r '[.events[] | select(.section == "vendor") | .name] | unique | join(",")')
		[ -n "$names" ]
		n=$(tr , '\n' <<<"$names" | wc -l)
		run "$ROOT/pstat" --dry-run -e "$names"
		assert_success
		# a row per name at least (hybrids: one per kind of core; on Arm
		# the kernel's own names resolve through sysfs first)
		[ "$(grep -c ': resolver ' <<<"$output")" -ge "$n" ] ||
			{ echo "$t: fewer rows than the $n names"; return 1; }
	done
}

@test "vendor events: ocr.* and idq_uops_not_delivered.*.core are encoded as Intel's events JSON says" {
	command -v jq >/dev/null || skip "jq is not installed"
	export LIBPFM_FORCE_PMU=none
	export PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids"
	# Intel: EventCode "0x2A,0x2B" (the first), UMask, MSRValue into
	# offcore_rsp (config1)
	read -r code umask msr < <(jq -r '.Events[] |
		select(.EventName == "OCR.DEMAND_DATA_RD.L3_MISS") |
		"\(.EventCode | split(",")[0]) \(.UMask) \(.MSRValue)"' \
		"$VENDOR/intel/SPR/events/sapphirerapids_core.json")
	want=$(printf 'config 0x%x config1 0x%x ' $((umask * 256 + code)) $((msr)))
	for name in ocr.demand_data_rd.l3_miss OCR.DEMAND_DATA_RD.L3_MISS \
		OCR.DEMAND_DATA_RD:L3_MISS; do
		run "$ROOT/pstat" --dry-run -e "$name"
		assert_success
		assert_line "$name: resolver vendor, pmu cpu, group 0 (leader)"
		assert_output --partial "$want"
	done
	# and with perf's modifiers
	run "$ROOT/pstat" --dry-run -e ocr.demand_data_rd.l3_miss:u
	assert_success
	assert_output --partial 'exclude_user 0 exclude_kernel 1'
	# Broadwell: two dots, and a counter mask
	export PSTAT_SYSFS_ROOT="$CPUS/intel-broadwell"
	read -r code umask cmask < <(jq -r '.Events[] |
		select(.EventName == "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE") |
		"\(.EventCode) \(.UMask) \(.CounterMask)"' \
		"$VENDOR/intel/BDW/events/broadwell_core.json")
	run "$ROOT/pstat" --dry-run -e idq_uops_not_delivered.cycles_0_uops_deliv.core
	assert_success
	assert_output --partial "$(printf 'config 0x%x ' $((cmask << 24 | umask * 256 + code)))"
	# libpfm4's spelling with the modifiers it shares with perf (u, k,
	# h; :k=1), where libpfm4 does not know the CPU (Granite Rapids)
	export PSTAT_SYSFS_ROOT="$CPUS/intel-graniterapids"
	for m in u k=1 u:k; do
		run "$ROOT/pstat" --dry-run -e "INST_RETIRED:ANY:$m"
		assert_success
		assert_line "INST_RETIRED:ANY:$m: resolver vendor, pmu cpu, group 0 (leader)"
		want=$("$ROOT/pstat" --dry-run -e "inst_retired.any:${m//[:=1]/}" | grep -o 'exclude_user [01] exclude_kernel [01]')
		assert_output --partial "$want"
	done
	# libpfm4's own (e: edge) are not perf's, and stay unknown here
	run "$ROOT/pstat" --dry-run -e INST_RETIRED:ANY:e
	assert_failure 125
	# a name in no table is still unknown
	run "$ROOT/pstat" --dry-run -e ocr.no_such.event
	assert_failure 125
	assert_output "pstat: unknown event 'ocr.no_such.event'"
}

@test "--log-fd N --append: added at the descriptor's end, as perf (its man page: --append may be used here)" {
	need_perf_events
	f="$BATS_TEST_TMPDIR/log"
	printf 'old line 1\nold line 2\n' >"$f"
	# opened read-write without O_APPEND, at offset 0: only --append
	# makes the report go after what is there
	run "$PSTAT" --log-fd 3 --append -x, -e task-clock true 3<>"$f"
	assert_success
	assert_output ''
	run cat "$f"
	assert_line --index 0 'old line 1'
	assert_line --index 1 'old line 2'
	assert_line --index 2 --regexp '^[0-9.]+,msec,task-clock,[0-9]+,100\.00,'
	[ "${#lines[@]}" = 3 ]
	# a second run appends again
	"$PSTAT" --log-fd 3 --append -x, -e task-clock true 3<>"$f"
	[ "$(grep -c ',task-clock,' "$f")" = 2 ]
	# --append alone still needs somewhere to append to
	run "$PSTAT" --append -e task-clock true
	assert_failure 125
	assert_line --index 0 'pstat: --append needs -o FILE or --log-fd FD'
	# perf stat 6.1 takes the same command line and writes the same place
	command -v perf >/dev/null || return 0
	printf 'old line 1\nold line 2\n' >"$f"
	perf stat --log-fd 3 --append -x, -e task-clock true 3<>"$f" ||
		skip "perf stat cannot count task-clock here"
	run cat "$f"
	assert_line --index 0 'old line 1'
	assert_line --index 2 --regexp '^[0-9.]+,msec,task-clock,'
}

# Build LOCALE (fr_FR.UTF-8...) privately with localedef unless installed;
# exports LOCPATH. Call it directly, not in $(...).
need_locale() {
	local l=$1 dir="$BATS_FILE_TMPDIR/locale-review"

	LC_ALL=$l locale -k LC_NUMERIC >/dev/null 2>&1 &&
		[ "$(LC_ALL=$l locale charmap 2>/dev/null)" = UTF-8 ] && return 0
	command -v localedef >/dev/null && [ -e "/usr/share/i18n/locales/${l%%.*}" ] ||
		skip "no $l locale, and no localedef and its sources to build it"
	mkdir -p "$dir"
	[ -d "$dir/$l" ] || localedef -i "${l%%.*}" -f UTF-8 "$dir/$l" >/dev/null 2>&1 ||
		[ -d "$dir/$l" ] || skip "localedef cannot build $l here"
	export LOCPATH="$dir"
}

# The characters (not bytes) of $1.
cols() {
	printf %s "$1" | LC_ALL=C.UTF-8 wc -m
}

@test "digit grouping by a multibyte separator (fr_FR's U+202F) keeps the table's columns, as perf's" {
	need_tracepoint syscalls/sys_enter_write
	need_locale fr_FR.UTF-8
	[ "$(LC_ALL=fr_FR.UTF-8 locale thousands_sep 2>/dev/null | od -An -tx1 | tr -d ' \n')" = e280af0a ] ||
		skip "this fr_FR does not group with U+202F"
	w=$(prog writer)
	LC_ALL=fr_FR.UTF-8 run "$PSTAT" -e syscalls:sys_enter_write,task-clock "$w" 1234567
	assert_success
	line=$(grep 'syscalls:sys_enter_write' <<<"$output")
	# 1 234 567 right-aligned in perf's 18 columns, the event after them
	[[ $line == *$'1\xe2\x80\xaf234\xe2\x80\xaf567      syscalls:sys_enter_write'* ]]
	[ "$(cols "${line%%syscalls*}")" = 24 ]
	tc=$(grep 'msec task-clock' <<<"$output")
	[ "$(cols "${tc%%msec*}")" = 19 ]
	# perf stat 6.1 puts the event in the same column
	command -v perf >/dev/null || return 0
	LC_ALL=fr_FR.UTF-8 perf stat -e syscalls:sys_enter_write "$w" 1234567 2>"$BATS_TEST_TMPDIR/perf" ||
		return 0
	pl=$(grep 'syscalls:sys_enter_write' "$BATS_TEST_TMPDIR/perf")
	[ "$(cols "${pl%%syscalls*}")" = 24 ]
}

@test "-r N with -I: every run's intervals, each timed from its own start (perf 6.1 shows the first run's)" {
	need_perf_events
	run "$PSTAT" -r 3 -I 100 -x, -e task-clock sleep 0.25
	assert_success
	# three runs of three intervals (the last partial), CSV records only
	[ "${#lines[@]}" = 9 ]
	refute_output --partial '#'
	# the time goes back to the start twice: three runs
	[ "$(awk -F, 'NR > 1 && $1 + 0 < prev { n++ } { prev = $1 + 0 } END { print n + 0 }' <<<"$output")" = 2 ]
	for l in "${lines[@]}"; do
		[[ $l =~ ^\ +[0-9]+\.[0-9]{9},([0-9.]+|\<not\ counted\>),msec,task-clock, ]] ||
			{ echo "not a record: $l"; return 1; }
	done
	# JSON numbers each interval with its run
	command -v jq >/dev/null || skip "jq is not installed"
	run "$PSTAT" -r 2 -I 100 -j -e task-clock sleep 0.15
	assert_success
	[ "$(jq -c 'select(.type == "interval") | .interval.run' <<<"$output" | sort -u | paste -sd,)" = 1,2 ]
	# perf 6.1 prints one run's (documented in README)
	command -v perf >/dev/null || return 0
	perf stat -r 3 -I 100 -x, -e task-clock -o "$BATS_TEST_TMPDIR/p" sleep 0.25 || return 0
	[ "$(grep -c task-clock "$BATS_TEST_TMPDIR/p")" -le 3 ]
}

@test "perf's long names --interval-print and --json-output run as in perf (a script spelling them out)" {
	need_perf_events
	run "$PSTAT" --interval-print 100 --interval-count 2 -x, -e task-clock sleep 0.5
	assert_success
	[ "${#lines[@]}" = 2 ]
	assert_line --index 0 --regexp '^ +0\.1[0-9]{8},[0-9.]+,msec,task-clock,'
	# --json-output is perf's -j: perf's lines, not pstat/1
	command -v jq >/dev/null || skip "jq is not installed"
	run "$PSTAT" --json-output --interval-print 100 --interval-count 1 -e task-clock sleep 0.3
	assert_success
	[ "${#lines[@]}" = 1 ]
	keys=$(jq -c 'keys_unsorted' <<<"${lines[0]}")
	[ "$keys" = '["interval","counter-value","unit","event","event-runtime","pcnt-running","metric-value","metric-unit"]' ]
	refute_output --partial '"schema"'
	# as --json=perf, and never with -x
	run "$PSTAT" --json-output -x, -e task-clock true
	assert_failure 125
	# perf stat 6.1 takes the same command line, with the same keys
	command -v perf >/dev/null || return 0
	perf stat --json-output --interval-print 100 --interval-count 1 -e task-clock \
		-o "$BATS_TEST_TMPDIR/p" sleep 0.3 || return 0
	[ "$(grep '^{' "$BATS_TEST_TMPDIR/p" | head -1 | jq -c 'keys_unsorted')" = "$keys" ]
}

@test "vendor events as a core PMU's term (cpu_core/inst_retired.any/), on one kind of core, as perf takes them" {
	command -v jq >/dev/null || skip "jq is not installed"
	export LIBPFM_FORCE_PMU=none
	export PSTAT_SYSFS_ROOT="$CPUS/intel-alderlake"
	run "$ROOT/pstat" --dry-run -e inst_retired.any
	assert_success
	core=$(awk '/pmu cpu_core/ { getline; print $4; exit }' <<<"$output")
	[ -n "$core" ]
	run "$ROOT/pstat" --dry-run -e cpu_core/inst_retired.any/u,cpu_atom/topdown_fe_bound.all/
	assert_success
	assert_line 'cpu_core/inst_retired.any/u: resolver vendor, pmu cpu_core, group 0 (leader)'
	assert_line 'cpu_atom/topdown_fe_bound.all/: resolver vendor, pmu cpu_atom, group 1 (leader)'
	# one event each, on its own PMU, and the bare name's encoding
	[ "$(grep -c ': resolver ' <<<"$output")" = 2 ]
	assert_output --partial "config $core "
	assert_output --partial 'exclude_user 0 exclude_kernel 1'
	# other terms still apply; sysfs aliases and generic names win
	run "$ROOT/pstat" --dry-run -e 'cpu_core/ocr.demand_data_rd.l3_miss,name=l3miss/,cpu_core/cycles/,cpu_core/mem-loads-aux/'
	assert_success
	assert_line 'l3miss: resolver vendor, pmu cpu_core, group 0 (leader)'
	assert_line 'cpu_core/cycles/: resolver generic, pmu cpu_core, group 1 (leader)'
	assert_line 'cpu_core/mem-loads-aux/: resolver sysfs, pmu cpu_core, group 2 (leader)'
	run "$ROOT/pstat" --dry-run -e cpu_core/no_such.event/
	assert_failure 125
	assert_output --partial "unknown term 'no_such.event' for PMU 'cpu_core'"
	# big.LITTLE Arm: every listed vendor event as PMU/NAME/ of its PMU
	export PSTAT_SYSFS_ROOT="$CPUS/arm64-dynamiq"
	names=$("$ROOT/pstat" list -j |
		jq -r '[.events[] | select(.section == "vendor") | "\(.pmu)/\(.name)/"] | unique | join(",")')
	[ -n "$names" ]
	run "$ROOT/pstat" --dry-run -e "$names"
	assert_success
	[ "$(grep -c ': resolver ' <<<"$output")" = "$(tr , '\n' <<<"$names" | wc -l)" ]
}

@test "-j, -x or --openmetrics on stderr: a fatal error keeps its hint; a run's own hints stay out of the document" {
	# nothing is written after a usage error: its hint is all the help
	for f in -j -x, --openmetrics --json=perf; do
		run "$PSTAT" $f -e task-clock --per-core true
		assert_failure 125
		assert_line --index 0 "pstat: --per-core needs -a or -C: it adds up counts by the CPUs they were counted on"
		assert_line --index 1 "pstat: hint: see 'pstat --help'"
		[ "${#lines[@]}" = 2 ]
	done
	# a successful run's document on stderr has nothing else around it,
	# even where hardware events are not supported (the table's hint)
	need_perf_events
	command -v jq >/dev/null || skip "jq is not installed"
	run "$PSTAT" -j -e cycles,task-clock true
	assert_success
	jq_assert '.schema == "pstat/1"' <<<"$output"
	refute_output --partial 'hint:'
}

@test "-j as a user kept out of the kernel (paranoid 2): the error says how to fix it" {
	need_nobody
	[ "$(paranoid)" = 2 ] || skip "perf_event_paranoid is $(paranoid), not 2"
	run as_nobody -j -e task-clock:k true
	assert_failure 125
	assert_line --index 0 "pstat: cannot open event 'task-clock:k': Permission denied"
	assert_line --index 1 --regexp '^pstat: hint: perf_event_paranoid is 2 .*counting the kernel needs it <= 1'
}

@test "--json=perf -o FILE: perf's '# started on' and blank line first, the lines after, as perf's file" {
	need_perf_events
	command -v jq >/dev/null || skip "jq is not installed"
	f="$BATS_TEST_TMPDIR/pj"
	run "$PSTAT" --json=perf -I 100 --interval-count 2 -o "$f" -e task-clock sleep 0.3
	assert_success
	run cat "$f"
	assert_line --index 0 --regexp '^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$'
	[ -z "$(sed -n 2p "$f")" ]
	# a harness that skips perf's two lines reads every record
	tail -n +3 "$f" | jq_assert -s 'length == 2 and all(.[]; has("interval"))'
	# none on stderr, on stdout or in pstat/1 documents
	run "$PSTAT" --json=perf -o - -e task-clock true
	refute_output --partial '# started on'
	"$PSTAT" -j -o "$f" -e task-clock true
	jq_assert '.schema == "pstat/1"' "$f"
	# perf's own file has the same two lines first
	command -v perf >/dev/null || return 0
	perf stat -j -o "$f.perf" -e task-clock true || return 0
	grep -q '^# started on ' <(head -1 "$f.perf")
	[ -z "$(sed -n 2p "$f.perf")" ]
}

@test "--json=perf with -r N and -I: every interval line has perf's variance key, as perf and the CSV noise column" {
	need_perf_events
	command -v jq >/dev/null || skip "jq is not installed"
	want='["interval","counter-value","unit","event","variance","event-runtime","pcnt-running","metric-value","metric-unit"]'
	run "$PSTAT" --json=perf -r 2 -I 100 --interval-count 1 -e task-clock sleep 0.15
	assert_success
	[ "${#lines[@]}" = 2 ]
	for l in "${lines[@]}"; do
		[ "$(jq -c keys_unsorted <<<"$l")" = "$want" ] || { echo "$l"; return 1; }
	done
	# the summary of -r keeps it; a single run has none
	run "$PSTAT" --json=perf -r 3 -e task-clock true
	[ "$(jq -c 'has("variance")' <<<"$output")" = true ]
	run "$PSTAT" --json=perf -e task-clock true
	[ "$(jq -c 'has("variance")' <<<"$output")" = false ]
	# perf stat 6.1's lines for the same command line
	command -v perf >/dev/null || return 0
	perf stat -j -r 2 -I 100 --interval-count 1 -e task-clock -o "$BATS_TEST_TMPDIR/p" sleep 0.15 ||
		return 0
	[ "$(grep '^{' "$BATS_TEST_TMPDIR/p" | head -1 | jq -c keys_unsorted)" = "$want" ]
}

@test "--dry-run with metrics gives each metric's formula after the events (issue 32: visible in --dry-run)" {
	export LIBPFM_FORCE_PMU=none
	export PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids"
	run "$ROOT/pstat" list metrics
	assert_success
	want=$(sed -n 's/^  tma_frontend_bound  *//p' <<<"$output" | head -1)
	[ -n "$want" ]
	run "$ROOT/pstat" --dry-run -M tma_frontend_bound
	assert_success
	assert_line 'cpu/slots/: resolver sysfs, pmu cpu, group 0 (leader)'
	assert_line "metric tma_frontend_bound = $want"
	# (finding 2's INT_MISC.UOP_DROPPING, Intel's 0x10ad)
	assert_line --regexp '^metric tma_frontend_bound = .* - cpu@event=0xad,umask=0x10@ / tma_info_thread_slots  in %$'
	assert_line 'metric tma_info_thread_slots = cpu@slots@  (referred to)'
	# Neoverse N2 r0p0: Arm's corrected level 1
	export PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p0"
	run "$ROOT/pstat" --dry-run -M TopdownL1
	assert_success
	assert_line 'metric frontend_bound = 100 * ((stall_slot_frontend - cpu_cycles) / (5 * cpu_cycles) - br_mis_pred / cpu_cycles)  in %'
	# none without metrics; the JSON document is unchanged
	run "$ROOT/pstat" --dry-run -e task-clock
	refute_output --partial 'metric '
	run "$ROOT/pstat" --dry-run -j -M TopdownL1
	assert_success
	jq_assert '.schema == "pstat-dryrun/1" and (.events | length) > 0' <<<"$output"
}
