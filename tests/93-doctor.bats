#!/usr/bin/env bats
# pstat doctor: one line per check, a fix after each warn or fail, the
# exit status, the JSON document against its schema, and the core PMU
# check over fixture sysfs trees.

load test_helper
load json_helper

# Whether software counting works here, as doctor should find.
software_works() {
	"$PSTAT" -e task-clock true 2>/dev/null
}

# A copy of a fixture sysfs tree that we may add to.
sysfs_copy() {
	local d="$BATS_TEST_TMPDIR/sysfs-$1"
	cp -a "$SYSFS/$1" "$d"
	echo "$d"
}

@test "doctor: one line per check, a fix after each warn and fail" {
	run "$PSTAT" doctor
	assert_line --regexp '^ok    perf_event_paranoid = -?[0-9]+: '
	assert_line --regexp '^(ok|warn) +capabilities: '
	assert_line --regexp '^(ok|warn) +core PMU: '
	assert_line --regexp '^(ok|warn) +libpfm4: '
	assert_line --regexp '^(ok|warn) +nmi_watchdog'
	assert_line --regexp '^(ok|warn) +tracefs: '
	assert_line --regexp '^(ok|warn) +seccomp: '
	assert_line --regexp '^(ok|warn) +RLIMIT_NOFILE: '
	assert_line --regexp '^(ok|fail) +task-clock: '
	assert_line --regexp '^(ok|warn|fail) +syscalls:sys_enter_write: '
	assert_line --regexp '^(ok|warn) +instructions:u: '
	assert_line --regexp '^result: software counting (works|does not work); hardware counting (works|is not available)$'
	# nothing but check lines, fix lines, a blank line and the result
	local bad
	bad=$(grep -vE '^(ok    |warn  |fail  |      fix: |result: |$)' <<<"$output" || true)
	[ -z "$bad" ] || { echo "unexpected lines: $bad" >&2; return 1; }
	# each warn or fail is followed by its fix, and only they are
	awk '/^(warn|fail) / { want = 1; next }
	     /^      fix: / { if (!want) exit 1; want = 0; next }
	     { if (want) exit 1 }
	     END { if (want) exit 1 }' <<<"$output"
}

@test "doctor: exit 0 when software counting works, with the probe ok" {
	software_works || skip "perf_event_open refuses software events here"
	run "$PSTAT" doctor
	assert_success
	assert_line --regexp '^ok    task-clock: counted [0-9.]+ msec on this process'
	assert_line --regexp '^result: software counting works; '
}

@test "doctor: exit 1 and a fix when software counting does not work" {
	software_works && skip "software counting works here"
	run "$PSTAT" doctor
	assert_failure 1
	assert_line --regexp '^fail  task-clock: '
	assert_line --regexp '^result: software counting does not work; '
}

@test "doctor: perf_event_open missing: exit 1, and each probe says why" {
	local so
	so=$(refusing_preload) || skip "cannot build a preload library"
	FAKE_ERRNO=38 LD_PRELOAD=$so run "$PSTAT" doctor
	assert_failure 1
	assert_line 'fail  task-clock: cannot open it on this process: Function not implemented'
	assert_line "      fix: perf_event_open is missing: use a kernel with CONFIG_PERF_EVENTS=y, or allow the syscall in the container's seccomp profile"
	assert_line --regexp '^(fail|warn)  syscalls:sys_enter_write: '
	assert_line --regexp '^warn  instructions:u: '
	assert_line 'result: software counting does not work; hardware counting is not available'
	FAKE_ERRNO=38 LD_PRELOAD=$so run "$PSTAT" doctor -j
	assert_failure 1
	[ "$(jq .exit_status <<<"$output")" = 1 ]
	[ "$(jq -r '.checks[] | select(.name == "probe:task-clock") | .status' <<<"$output")" = fail ]
}

@test "doctor: perf_event_open refused: the fix names a cause" {
	local so
	so=$(refusing_preload) || skip "cannot build a preload library"
	FAKE_ERRNO=13 LD_PRELOAD=$so run "$PSTAT" doctor
	assert_failure 1
	assert_line 'fail  task-clock: cannot open it on this process: Permission denied'
	assert_line --regexp '^      fix: .*(perf_event_paranoid|CAP_PERFMON|seccomp)'
}

@test "doctor: the tracepoint and hardware probes" {
	run "$PSTAT" doctor
	if software_works && [ -r /sys/kernel/tracing/events/syscalls/sys_enter_write/id ]; then
		assert_line --regexp '^ok    syscalls:sys_enter_write: counted [1-9][0-9]* write\(2\) calls'
	fi
	if "$PSTAT" -x, -e instructions:u true 2>&1 >/dev/null |
		grep -q '^[0-9]'; then
		assert_line --regexp '^ok    instructions:u: counted [1-9]'
		assert_line --regexp 'hardware counting works$'
	else
		assert_line --regexp '^warn  instructions:u: '
		assert_line --regexp 'hardware counting is not available$'
	fi
}

@test "doctor -j: valid against schema/pstat-doctor.schema.json" {
	run "$PSTAT" doctor -j
	local st=$status
	[ "$st" = 0 ] || [ "$st" = 1 ]
	echo "$output" >"$BATS_TEST_TMPDIR/doctor.json"
	validate_json "$BATS_TEST_TMPDIR/doctor.json" \
		"$ROOT/schema/pstat-doctor.schema.json"
	[ "$(jq .exit_status "$BATS_TEST_TMPDIR/doctor.json")" = "$st" ]
	run jq -r '.checks[].name' "$BATS_TEST_TMPDIR/doctor.json"
	assert_line perf_event_paranoid
	assert_line core_pmu
	assert_line probe:task-clock
	assert_line probe:syscalls:sys_enter_write
	assert_line probe:instructions:u
}

@test "doctor -j: the same checks as the text report" {
	run "$PSTAT" doctor
	local text=$output
	run "$PSTAT" doctor -j
	run jq -r '.checks[] | .status + " " + .detail' <<<"$output"
	assert_success
	# probes report live counts, so compare the statuses and subjects
	[ "$(cut -d: -f1 <<<"$output")" = \
		"$(grep -E '^(ok|warn|fail) ' <<<"$text" | sed 's/  */ /' | cut -d: -f1)" ]
}

@test "doctor -j: the verdict of the text report, as fields" {
	run "$PSTAT" doctor
	local text=$output result
	result=$(sed -n 's/^result: //p' <<<"$text")
	[ -n "$result" ]
	run "$PSTAT" doctor -j
	local st=$status json=$output
	[ "$(jq -r .result <<<"$json")" = "$result" ]
	# each boolean says what its probe found, and what the sentence says
	[ "$(jq '.software_counting == (.checks[] |
		select(.name == "probe:task-clock") | .status == "ok")' \
		<<<"$json")" = true ]
	[ "$(jq '.hardware_counting == (.checks[] |
		select(.name == "probe:instructions:u") | .status == "ok")' \
		<<<"$json")" = true ]
	if [ "$(jq .software_counting <<<"$json")" = true ]; then
		[[ $result == "software counting works; "* ]]
		[ "$st" = 0 ]
	else
		[[ $result == "software counting does not work; "* ]]
		[ "$st" = 1 ]
	fi
	if [ "$(jq .hardware_counting <<<"$json")" = true ]; then
		[[ $result == *"; hardware counting works" ]]
	else
		[[ $result == *"; hardware counting is not available" ]]
	fi
}

@test "doctor -j: the verdict when perf_event_open is missing" {
	local so
	so=$(refusing_preload) || skip "cannot build a preload library"
	FAKE_ERRNO=38 LD_PRELOAD=$so run "$PSTAT" doctor -j
	assert_failure 1
	[ "$(jq -c '[.software_counting, .hardware_counting, .result,
		.exit_status]' <<<"$output")" = \
		'[false,false,"software counting does not work; hardware counting is not available",1]' ]
}

@test "doctor: a VM without a core PMU, with the hypervisor hint" {
	local root
	root=$(sysfs_copy vm-nopmu)
	mkdir -p "$root/hypervisor"
	echo xen >"$root/hypervisor/type"
	PSTAT_SYSFS_ROOT=$root run "$PSTAT" doctor
	assert_line --regexp '^warn  core PMU: none under .*: hardware events \(cycles, instructions\) are not supported; this is a virtual machine \(hypervisor: xen\) without a virtual PMU$'
	assert_line --regexp '^      fix: enable the virtual PMU'
	assert_line --regexp '^ok    hybrid CPU: no'
}

@test "doctor: the plain vm-nopmu fixture shows no core PMU" {
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu run "$PSTAT" doctor
	assert_line --regexp '^warn  core PMU: none under .*/vm-nopmu/bus/event_source/devices'
	if grep -qw hypervisor /proc/cpuinfo 2>/dev/null; then
		assert_line --regexp '^warn  core PMU: .*; this is a virtual machine'
	fi
}

@test "doctor: intel-skylake has a core PMU" {
	PSTAT_SYSFS_ROOT=$SYSFS/intel-skylake run "$PSTAT" doctor
	assert_line --regexp '^ok    core PMU: cpu \(type 4\) under .*/intel-skylake/bus/event_source/devices: hardware events'
	refute_line --regexp '^warn  core PMU'
}

@test "doctor: arm64 armv8_pmuv3_0 is a core PMU" {
	PSTAT_SYSFS_ROOT=$SYSFS/arm64-neoverse run "$PSTAT" doctor
	assert_line --regexp '^ok    core PMU: armv8_pmuv3_0 \(type 8\)'
}

@test "doctor: hybrid core types cpu_core and cpu_atom, and their CPUs" {
	PSTAT_SYSFS_ROOT=$FIX/intel-alderlake run "$PSTAT" doctor
	assert_line --regexp '^ok    core PMU: cpu_atom \(type 8\), cpu_core \(type 4\) under '
	assert_line --regexp '^ok    hybrid CPU: 2 core PMUs, each counting on its own CPUs: cpu_atom \(CPUs 4-7\), cpu_core \(CPUs 0-3\); .* cpu_core/cycles/ counts on the cpu_core CPUs alone$'
}

@test "doctor: three core PMUs, and big.LITTLE Arm" {
	PSTAT_SYSFS_ROOT=$FIX/intel-arrowlake-h run "$PSTAT" doctor
	assert_line --regexp '^ok    hybrid CPU: 3 core PMUs, each counting on its own CPUs: cpu_atom \(CPUs 2-5\), cpu_core \(CPUs 0-1\), cpu_lowpower \(CPUs 6-7\)'
	PSTAT_SYSFS_ROOT=$FIX/arm64-rk3399 run "$PSTAT" doctor
	assert_line --regexp '^ok    hybrid CPU: 2 core PMUs, each counting on its own CPUs: armv8_cortex_a53 \(CPUs 0-3\), armv8_cortex_a72 \(CPUs 4-5\)'
}

@test "doctor: the event form it suggests on a hybrid CPU is one pstat takes" {
	local form
	PSTAT_SYSFS_ROOT=$FIX/intel-alderlake run "$PSTAT" doctor
	form=$(printf '%s\n' "$output" | sed -n 's/^ok    hybrid CPU: .* and \([a-z_]*\/cycles\/\) counts on .*/\1/p')
	[ "$form" = cpu_core/cycles/ ]
	PSTAT_SYSFS_ROOT=$FIX/intel-alderlake run "$PSTAT" --dry-run -e "$form" true
	assert_success
	assert_line 'cpu_core/cycles/: resolver generic, pmu cpu_core, group 0 (leader)'
	assert_line '  type 0 config 0x400000000 config1 0 config2 0'
}

@test "doctor: tracefs missing is a warning with a fix, not a failure" {
	PSTAT_TRACEFS_ROOT=$BATS_TEST_TMPDIR/none run "$PSTAT" doctor
	assert_line --regexp '^warn  tracefs: .*/none/events is not readable'
	assert_line --regexp '^warn  syscalls:sys_enter_write: cannot resolve it'
	if software_works; then
		assert_success
	fi
}

@test "doctor: a report that cannot be written exits 125" {
	[ -c /dev/full ] || skip "/dev/full is not the full device here"
	run bash -c '"$1" doctor >/dev/full' _ "$PSTAT"
	assert_failure 125
	assert_output --partial 'pstat: cannot write the report'
	run bash -c '"$1" doctor -j >/dev/full' _ "$PSTAT"
	assert_failure 125
}

# A core PMU without instructions (QEMU's PMUv3 without -icount) still
# counts cycles (issue 30 item 2): a shim refuses instructions with
# ENOENT and counts cycles as task-clock, under a tree with a core PMU.
@test "doctor: a core PMU without instructions: cycles probed, counting works" {
	local src=$BATS_TEST_TMPDIR/hw.c so=$BATS_TEST_TMPDIR/hw.so
	software_works || skip "software counting does not work here"
	cat >"$src" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>

long syscall(long n, ...)
{
	static long (*real)(long, ...);
	struct perf_event_attr a;
	long v[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		v[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (n == SYS_perf_event_open) {
		memcpy(&a, (void *)v[0], sizeof(a));
		if (a.type == PERF_TYPE_HARDWARE &&
		    a.config == PERF_COUNT_HW_INSTRUCTIONS) {
			errno = ENOENT;
			return -1;
		}
		if (a.type == PERF_TYPE_HARDWARE &&
		    a.config == PERF_COUNT_HW_CPU_CYCLES) {
			a.type = PERF_TYPE_SOFTWARE;
			a.config = PERF_COUNT_SW_TASK_CLOCK;
			v[0] = (long)&a;
		}
	}
	return real(n, v[0], v[1], v[2], v[3], v[4], v[5]);
}
EOF
	cc -shared -fPIC -o "$so" "$src" -ldl || skip "cannot build a preload library"
	PSTAT_SYSFS_ROOT=$SYSFS/arm64-neoverse LD_PRELOAD=$so run "$PSTAT" doctor
	assert_success
	assert_line --regexp '^warn  instructions:u: not supported \(.*\): the core PMU does not count this event$'
	assert_line "      fix: 'pstat list' shows the events it has"
	assert_line --regexp '^ok    cycles:u: counted [1-9][0-9]*: hardware events work$'
	assert_line 'result: software counting works; hardware counting works'
	# without a core PMU, the verdict stands on instructions alone
	PSTAT_SYSFS_ROOT=$SYSFS/vm-nopmu LD_PRELOAD=$so run "$PSTAT" doctor
	refute_line --regexp '^ok    cycles:u'
	assert_line --regexp '^warn  instructions:u: not supported .*hardware events cannot be counted here$'
}
