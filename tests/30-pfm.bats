#!/usr/bin/env bats
# libpfm4 names through pfm_encode (pstat-test pfm). Which PMUs libpfm4
# detects depends on the CPU, so core events are picked at run time and
# checked against sources that do not go through pfm.c: the kernel's
# generic constants, libpfm4's own check_events example (another encoding
# path) and the kernel's sysfs alias for "instructions".

bats_require_minimum_version 1.5.0
load test_helper

# The first core PMU libpfm4 detects, or skip.
core_pmu() {
	"$PT" pfm --pmus | awk '$2 == "core" { print $1; exit }'
}

need_core_pmu() {
	pfm_force_core_pmu
	CORE_PMU=$(core_pmu)
	[ -n "$CORE_PMU" ] || skip "libpfm4 detects no core PMU on this machine"
	CORE_EVENT=$("$PT" pfm --first-core-event) ||
		skip "no event of $CORE_PMU encodes without a umask"
}

# libpfm4's "perf" PMU (the generic perf_event names) is there wherever
# the kernel has perf_event, unless LIBPFM_FORCE_PMU narrows detection.
need_perf_pmu() {
	"$PT" pfm --pmus | grep -q '^perf ' ||
		skip "libpfm4 does not detect its perf PMU here"
}

# A field of a "type=.. config=.. ..." line.
field() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"
}

# libpfm4's check_events example, built once, or skip: it encodes with
# PFM_OS_NONE, not the perf_event path pfm.c takes.
check_events() {
	local bin="$BATS_RUN_TMPDIR/check_events" dir="$BATS_RUN_TMPDIR/shim"
	local src=/usr/share/doc/libpfm4-dev/examples/check_events.c
	if [ ! -x "$bin" ]; then
		if [ ! -r "$src" ] && [ -r "$src.gz" ]; then
			gzip -dc "$src.gz" >"$BATS_RUN_TMPDIR/check_events.c"
			src="$BATS_RUN_TMPDIR/check_events.c"
		fi
		[ -r "$src" ] || return 1
		# Debian ships the example but not its <perfmon/err.h>.
		mkdir -p "$dir/perfmon"
		echo '#include <err.h>' >"$dir/perfmon/err.h"
		cc -I"$dir" -o "$bin" "$src" -lpfm 2>/dev/null || return 1
	fi
	"$bin" "$@"
}

@test "pfm: perf::PERF_COUNT_HW_CPU_CYCLES is PERF_TYPE_HARDWARE, config 0" {
	need_perf_pmu
	run "$PT" pfm perf::PERF_COUNT_HW_CPU_CYCLES
	assert_success
	assert_output --regexp '^type=0 config=0x0 config1=0x0 config2=0x0 exclude_user=0 exclude_kernel=0 exclude_hv=[01] pmu=perf$'
}

@test "pfm: perf:: generic names follow <linux/perf_event.h>" {
	need_perf_pmu
	# PERF_TYPE_SOFTWARE = 1, PERF_COUNT_SW_TASK_CLOCK = 1,
	# PERF_COUNT_HW_INSTRUCTIONS = 1, PERF_COUNT_SW_CONTEXT_SWITCHES = 3.
	run "$PT" pfm perf::PERF_COUNT_SW_TASK_CLOCK
	assert_success
	assert_output --partial 'type=1 config=0x1 '
	run "$PT" pfm perf::PERF_COUNT_HW_INSTRUCTIONS
	assert_success
	assert_output --partial 'type=0 config=0x1 '
	run "$PT" pfm perf::PERF_COUNT_SW_CONTEXT_SWITCHES
	assert_success
	assert_output --partial 'type=1 config=0x3 '
}

@test "pfm: :u excludes the kernel, :k excludes user space" {
	need_perf_pmu
	run "$PT" pfm perf::PERF_COUNT_HW_CPU_CYCLES:u
	assert_success
	assert_output --partial 'exclude_user=0 exclude_kernel=1 '
	run "$PT" pfm perf::PERF_COUNT_HW_CPU_CYCLES:k
	assert_success
	assert_output --partial 'exclude_user=1 exclude_kernel=0 '
}

@test "pfm: an unknown name is ENOENT" {
	run "$PT" pfm NO_SUCH_EVENT_PSTAT
	assert_failure 1
	assert_output "error: libpfm4 does not know event 'NO_SUCH_EVENT_PSTAT' (ENOENT)"
	run "$PT" pfm no_such_pmu::CYCLES
	assert_failure 1
	assert_output "error: libpfm4 does not know event 'no_such_pmu::CYCLES' (ENOENT)"
}

@test "pfm: the perf PMU is detected and is not a core PMU" {
	need_perf_pmu
	run "$PT" pfm --pmus
	assert_success
	assert_line --regexp '^perf other '
}

@test "pfm: --first-core-event names an event of a detected core PMU" {
	need_core_pmu
	[[ "$CORE_EVENT" == "$CORE_PMU"::* ]]
	run "$PT" pfm "$CORE_EVENT"
	assert_success
	assert_output --regexp "^type=[0-9]+ config=0x[0-9a-f]+ .* pmu=$CORE_PMU\$"
}

@test "pfm: a core event counts user and kernel by default, :u narrows" {
	need_core_pmu
	run "$PT" pfm "$CORE_EVENT"
	assert_success
	assert_output --partial 'exclude_user=0 exclude_kernel=0 '
	run "$PT" pfm "$CORE_EVENT:u"
	assert_success
	assert_output --partial 'exclude_user=0 exclude_kernel=1 '
	# The modifier changes the exclusion bits, not the event.
	local plain u
	plain=$("$PT" pfm "$CORE_EVENT")
	u=$("$PT" pfm "$CORE_EVENT:u")
	[ "$(field "$plain" config)" = "$(field "$u" config)" ]
}

@test "pfm: a bad umask is a libpfm4 error, not ENOENT" {
	need_core_pmu
	run "$PT" pfm "$CORE_EVENT:NO_SUCH_UMASK"
	assert_failure 1
	assert_output --partial "error: libpfm4 cannot encode '$CORE_EVENT:NO_SUCH_UMASK': "
	refute_output --partial ENOENT
}

@test "pfm: instructions retired is event 0xc0 on x86 (kernel's encoding)" {
	need_core_pmu
	[ "$(uname -m)" = x86_64 ] || skip "event 0xc0 is x86's"
	local name
	case "$CORE_PMU" in
	amd64_*) name="$CORE_PMU::RETIRED_INSTRUCTIONS" ;;
	*) name="$CORE_PMU::INST_RETIRED:ANY_P" ;;
	esac
	run "$PT" pfm "$name"
	assert_success
	# arch/x86/events/{amd,intel}/core.c map PERF_COUNT_HW_INSTRUCTIONS
	# to event 0xc0 (umask 0) on both vendors.
	assert_output --partial ' config=0xc0 '
	assert_output --partial "pmu=$CORE_PMU"
	# Where the kernel exposes its core PMU, its alias must agree.
	local alias=/sys/bus/event_source/devices/cpu/events/instructions
	if [ -r "$alias" ]; then
		grep -qi 'event=0x0*c0' "$alias"
	fi
}

@test "pfm: core encodings agree with libpfm4's check_events example" {
	need_core_pmu
	[ "$(uname -m)" = x86_64 ] || skip "the mask below is x86's PERFEVTSEL"
	local ev codes config
	for ev in "$CORE_EVENT" "$CORE_EVENT:u"; do
		run check_events "$ev"
		[ "$status" -eq 0 ] ||
			skip "cannot build or run libpfm4's check_events example"
		codes=$(sed -n 's/^Codes *: *//p' <<<"$output" | awk '{ print $1 }')
		[ -n "$codes" ]
		run "$PT" pfm "$ev"
		assert_success
		config=$(field "$output" config)
		# PFM_OS_NONE gives the whole PERFEVTSEL value; perf_event takes
		# the event without USR (16), OS (17), INT (20) and EN (22),
		# which it sets itself from the exclusion bits.
		[ $((codes & ~0x530000)) -eq $((config)) ]
	done
}

# --- through the pstat binary ------------------------------------------

# Whether the kernel has a core hardware PMU here (src/events/pmu.c's test).
kernel_core_pmu() {
	local d=/sys/bus/event_source/devices
	[ -d "$d/cpu" ] || [ -d "$d/cpu_core" ] || ls "$d"/*/cpus >/dev/null 2>&1
}

@test "pfm: a libpfm4 name through pstat --dry-run -j is libpfm4's encoding" {
	need_core_pmu
	local want
	want=$("$PT" pfm "$CORE_EVENT")
	run "$PSTAT" --dry-run -j -e "$CORE_EVENT"
	assert_success
	run jq -r '.events[0] | [.name, .resolver, .pmu, .attr.type,
		.attr.config, .attr.exclude_user, .attr.exclude_kernel] | @tsv' \
		<<<"$output"
	assert_output "$(printf '%s\tlibpfm4\t%s\t%s\t%s\tfalse\tfalse' \
		"$CORE_EVENT" "$CORE_PMU" "$(field "$want" type)" \
		"$(field "$want" config)")"
	# the event part alone resolves to the same, perf modifiers apply
	run "$PSTAT" --dry-run -j -e "${CORE_EVENT#*::}:u"
	assert_success
	run jq -r '.events[0] | [.resolver, .attr.config,
		.attr.exclude_user, .attr.exclude_kernel] | @tsv' <<<"$output"
	assert_output "$(printf 'libpfm4\t%s\tfalse\ttrue' "$(field "$want" config)")"
}

@test "pfm: a live run of a libpfm4 core event (<not supported> on a VM)" {
	need_core_pmu
	need_perf_events
	run "$PSTAT" -e "$CORE_EVENT" true
	assert_success
	if kernel_core_pmu; then
		assert_line --regexp "^ +([0-9,]+|<not counted>|<not supported>) +$CORE_EVENT( |\$)"
	else
		assert_line --regexp "^ +<not supported> +$CORE_EVENT( |\$)"
	fi
	run "$PSTAT" -j -e "$CORE_EVENT" true
	assert_success
	run jq -r '.counters[0] | .event' <<<"$output"
	assert_output "$CORE_EVENT"
}

@test "pfm: libpfm4 is loaded only when a name reaches it" {
	command -v strace >/dev/null || skip "strace is not installed"
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
	local trace="$BATS_TEST_TMPDIR/trace" ev
	export PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu PSTAT_TRACEFS_ROOT=$FIX/tracefs
	# (LeakSanitizer cannot run under ptrace: off for a sanitized build)
	export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
	for ev in cycles r1a8 msr/tsc/ sched:sched_switch mem:0x1000:w \
		'{cycles,instructions}:u' 'syscalls:sys_enter_*'; do
		strace -f -e trace=openat -o "$trace" \
			"$ROOT/pstat" --dry-run -e "$ev" >/dev/null 2>&1 ||
			fail "pstat --dry-run -e $ev failed"
		! grep -q 'libpfm' "$trace" ||
			fail "libpfm4 was opened for $ev: $(grep libpfm "$trace")"
	done
	# a live run of a software event, too
	if "$ROOT/pstat" -e task-clock true 2>/dev/null; then
		strace -f -e trace=openat -o "$trace" "$ROOT/pstat" -e task-clock \
			true >/dev/null 2>&1
		! grep -q 'libpfm' "$trace"
	fi
	# and a libpfm4 name does load it
	"$PT" pfm --pmus | grep -q '^perf ' ||
		skip "libpfm4 does not detect its perf PMU here"
	strace -f -e trace=openat -o "$trace" "$ROOT/pstat" --dry-run \
		-e perf::PERF_COUNT_HW_CPU_CYCLES >/dev/null 2>&1
	grep -q 'libpfm\.so' "$trace"
}

# PSTAT_LIBPFM names the library to load: one that does not exist is a
# machine without libpfm4.
@test "pfm: without libpfm4 a name is unknown, with suggestions" {
	export PSTAT_LIBPFM=$BATS_TEST_TMPDIR/no-libpfm.so.4
	run --separate-stderr "$PSTAT" -e cycels true
	assert_failure 125
	assert_equal "$stderr" "pstat: unknown event 'cycels' (did you mean 'cycles'?)"
	run --separate-stderr "$PSTAT" --dry-run -e INST_RETIRED
	assert_failure 125
	assert_equal "$stderr" "pstat: unknown event 'INST_RETIRED'"
	# a name that is plainly libpfm4's is unknown too; the encoder says
	# why, for a hint line
	run --separate-stderr "$PSTAT" --dry-run -e skl::INST_RETIRED:ANY_P
	assert_failure 125
	assert_equal "$stderr" "pstat: unknown event 'skl::INST_RETIRED:ANY_P'
pstat: hint: 'skl::INST_RETIRED:ANY_P' is a libpfm4 name, but libpfm4 cannot be loaded ($PSTAT_LIBPFM: cannot open shared object file: No such file or directory)"
	run "$PT" encode 'skl::INST_RETIRED:ANY_P'
	assert_failure 1
	assert_line "error: unknown event 'skl::INST_RETIRED:ANY_P'"
	assert_line "hint: 'skl::INST_RETIRED:ANY_P' is a libpfm4 name, but libpfm4 cannot be loaded ($PSTAT_LIBPFM: cannot open shared object file: No such file or directory)"
	run "$PT" encode 'INST_RETIRED:ANY_P'
	assert_line --partial "hint: 'INST_RETIRED:ANY_P' is a libpfm4 name"
	# a lower-case name is no libpfm4 name: no hint
	run "$PT" encode 'nosuch:thing'
	assert_failure 1
	refute_output --partial 'hint:'
	# everything else works without it
	run "$PSTAT" --dry-run -e cycles,r1a8,mem:0x1000
	assert_success
	PSTAT_TRACEFS_ROOT=$FIX/tracefs run "$PSTAT" list --names 'sched:*'
	assert_success
	assert_line sched:sched_switch
}

@test "pfm: PSTAT_LIBPFM loads the library it names" {
	local lib
	lib=$(ldconfig -p 2>/dev/null | awk '/libpfm\.so\.4 / { print $NF; exit }')
	[ -n "$lib" ] || skip "ldconfig does not know libpfm.so.4"
	"$PT" pfm --pmus | grep -q '^perf ' ||
		skip "libpfm4 does not detect its perf PMU here"
	PSTAT_LIBPFM=$lib run "$PSTAT" --dry-run -j -e perf::PERF_COUNT_HW_CPU_CYCLES
	assert_success
	run jq -r '.events[0].resolver' <<<"$output"
	assert_output libpfm4
}

@test "pfm: an unqualified libpfm4 name with a typo gets the full name" {
	need_core_pmu
	local part=${CORE_EVENT#*::}
	# the event part without its last letter
	run "$PSTAT" --dry-run -e "${part%?}"
	assert_failure 125
	assert_output "pstat: unknown event '${part%?}' (did you mean '$CORE_EVENT'?)"
}


# The attr fields pstat --dry-run -j opens for NAME, as pstat-test pfm
# prints them.
dry_fields() {
	"$PSTAT" --dry-run -j -e "$1" 2>&1 | jq -r '.events[0].attr |
		"type=\(.type) config=\(.config) exclude_user=\(.exclude_user | if . then 1 else 0 end) exclude_kernel=\(.exclude_kernel | if . then 1 else 0 end) exclude_hv=\(.exclude_hv | if . then 1 else 0 end) exclusive=\(.exclusive)"'
}

@test "pfm: modifiers after a libpfm4 name are libpfm4's, given to it whole" {
	need_core_pmu
	local m want got
	# whatever libpfm4 makes of the whole name, pstat opens: perf's
	# letters mean something else to libpfm4 (or nothing)
	for m in u k h e i I H u:e excl c=2 p; do
		if want=$("$PT" pfm "$CORE_EVENT:$m"); then
			got=$(dry_fields "$CORE_EVENT:$m")
			[ "$got" = "$(sed 's/ config1=.*exclude_user=/ exclude_user=/; s/ pmu=.*//' <<<"$want") exclusive=$([ "$m" = excl ] && echo true || echo false)" ] ||
				fail "$CORE_EVENT:$m: pstat opens '$got', libpfm4 encodes '$want'"
		else
			run "$PSTAT" --dry-run -e "$CORE_EVENT:$m"
			assert_failure 125
			assert_output --partial "libpfm4 cannot encode '$CORE_EVENT:$m': "
		fi
	done
	# the event part alone goes to libpfm4 whole too
	m=${CORE_EVENT#*::}
	[ "$(dry_fields "$m:k")" = "$(dry_fields "$CORE_EVENT:k")" ]
}

@test "pfm: on x86, :e is the edge bit and :i the invert bit, not perf's" {
	need_core_pmu
	[ "$(uname -m)" = x86_64 ] || skip "edge and invert are x86's PERFEVTSEL bits"
	"$PT" pfm "$CORE_EVENT:e" >/dev/null && "$PT" pfm "$CORE_EVENT:i" >/dev/null ||
		skip "$CORE_EVENT takes no :e or :i in libpfm4"
	local plain edge inv
	plain=$("$PSTAT" --dry-run -j -e "$CORE_EVENT" 2>&1 | jq -r '.events[0].attr.config')
	run "$PSTAT" --dry-run -j -e "$CORE_EVENT:e"
	assert_success
	edge=$(jq -r '.events[0].attr.config' <<<"$output")
	# Intel SDM and AMD APM: PERFEVTSEL bit 18 is edge detect, 23 invert
	[ $((edge)) -eq $((plain | 1 << 18)) ]
	[ "$(jq -r '.events[0].attr.exclusive' <<<"$output")" = false ]
	inv=$("$PSTAT" --dry-run -j -e "$CORE_EVENT:i" 2>&1 | jq -r '.events[0].attr.config')
	[ $((inv)) -eq $((plain | 1 << 23)) ]
	# upper case is the same to libpfm4; perf's exclude_idle stays off
	run "$PSTAT" --dry-run -j -e "$CORE_EVENT:I"
	assert_success
	[ "$(jq -r '.events[0].attr | "\(.config) \(.exclude_idle)"' <<<"$output")" = "$inv false" ]
	# a group's modifiers are still perf's
	run "$PSTAT" --dry-run -j -e "{$CORE_EVENT:e}:D"
	assert_success
	[ "$(jq -r '.events[0].attr | "\(.config) \(.pinned)"' <<<"$output")" = "$edge true" ]
}
