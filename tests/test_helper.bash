# Loaded by every bats file: paths, bats-assert, and small helpers.
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

ROOT="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
# pstat through a wrapper that keeps every JSON document it writes, for
# tests/99-schema.bats; it execs pstat itself for every other run
PSTAT="$ROOT/tests/lib/pstat-json-keep"
export PSTAT_JSON_KEEP="${BATS_RUN_TMPDIR:-/tmp}/json-docs"
PT="$ROOT/tests/pstat-test"
FIX="$ROOT/tests/fixtures"
SYSFS="$FIX/sysfs"
export LC_ALL=C

# make check SANITIZE=address,undefined: a report ends pstat with status
# 86 (ASan, LSan) or 87 (UBSan), which no test expects (1, their default,
# could pass for a status a test does expect), so no test passes over it.
# LeakSanitizer stays on unless it cannot run here at all (it stops the
# process with ptrace, which some sandboxes refuse): checked once per run.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:exitcode=87}"
# glibc's own leaks (tests/lsan.supp) are not pstat's
# (and their use is not reported: the report would join pstat's stderr)
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/tests/lsan.supp:print_suppressions=0}"
lsan_mark="${BATS_RUN_TMPDIR:-/tmp}/lsan-works"
if [ ! -e "$lsan_mark" ]; then
	if "$ROOT/pstat" --version 2>&1 | grep -q 'LeakSanitizer has encountered a fatal error'; then
		echo no >"$lsan_mark"
		echo "# LeakSanitizer cannot run here: ASAN_OPTIONS=detect_leaks=0" >&3
	else
		echo yes >"$lsan_mark"
	fi
fi
# (tests that LD_PRELOAD a shim need ASan not to insist on coming first)
export ASAN_OPTIONS="${ASAN_OPTIONS:-verify_asan_link_order=0:exitcode=86}"
if [ "$(cat "$lsan_mark")" = no ]; then
	export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
fi

# run ARGS..., and set $ms to how long it took in milliseconds.
timed_run() {
	local t0

	t0=$(date +%s%N)
	run "$@"
	ms=$((($(date +%s%N) - t0) / 1000000))
}

# pstat ARGS... in the background, SIGINT to it after SECONDS: sets $st
# to its exit status.
pstat_sigint_after() {
	local secs=$1 pid

	shift
	"$PSTAT" "$@" &
	pid=$!
	sleep "$secs"
	kill -INT "$pid"
	st=0
	wait "$pid" || st=$?
}

# Run a pure-tier table: tests/data/NAME.test through pstat-test CMD.
run_table() {
	run "$PT" table "$1" "$ROOT/tests/data/$2"
	assert_success
}

# The value of EVENT in a perf-style table on stdin (digits only).
value_of() {
	awk -v ev="$1" '$0 ~ (" " ev "( |$)") {
		v = $1; gsub(/[^0-9.]/, "", v); print v; exit }'
}

# Skip unless perf_event_open works for software events here.
need_perf_events() {
	"$PSTAT" -e task-clock true 2>/dev/null ||
		skip "perf_event_open refuses software events here"
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
}

paranoid() {
	cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo unknown
}

# Whether this user may count the kernel (perf_event_paranoid <= 1, or
# CAP_PERFMON): if not, perf and pstat retry a plain event user-only,
# and an EINVAL from that retry is <not supported>, not an error.
can_count_kernel() {
	"$PSTAT" -e cs:k true >/dev/null 2>&1
}
need_kernel_counting() {
	need_perf_events
	can_count_kernel ||
		skip "counting the kernel is refused here (perf_event_paranoid $(paranoid), uid $(id -u))${1:+: $1}"
}

# Whether this user may count whole CPUs (-a, -C): perf_event_paranoid
# <= 0, or CAP_PERFMON.
can_count_cpu_wide() {
	"$PSTAT" -a -e cs --timeout 10 >/dev/null 2>&1
}
need_cpu_wide() {
	need_perf_events
	can_count_cpu_wide ||
		skip "system-wide counting (-a, -C) is refused here (perf_event_paranoid $(paranoid), uid $(id -u))"
}

# Skip unless msr/tsc/ really counts: the msr PMU refuses exclusion
# bits, so where kernel counting is refused (a user, perf_event_paranoid
# 2) it is <not supported>, as with perf.
need_msr() {
	need_perf_events
	[ -e /sys/bus/event_source/devices/msr ] || skip "no msr PMU here"
	"$PSTAT" -x, -e msr/tsc/ true 2>&1 >/dev/null |
		awk -F, '$3 == "msr/tsc/" && $1 ~ /^[0-9]+$/ { ok = 1 } END { exit !ok }' ||
		skip "msr/tsc/ cannot be counted here (perf_event_paranoid $(paranoid), uid $(id -u): the msr PMU cannot count user-only)"
}

# need_nobody, then as_nobody ARGS...: a copy of pstat run as user nobody.
need_nobody() {
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	cp "$ROOT/pstat" "$BATS_TEST_TMPDIR/pstat"
	chmod 755 "$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR/pstat"
}
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BATS_TEST_TMPDIR/pstat" "$@"
}

# Skip unless tracepoint SUBSYS/NAME is readable in tracefs (it is
# root's alone on most systems) and pstat resolves it.
need_tracepoint() {
	local tp="${1:-syscalls/sys_enter_write}"
	[ -r "/sys/kernel/tracing/events/$tp/id" ] ||
		[ -r "/sys/kernel/debug/tracing/events/$tp/id" ] ||
		skip "tracepoint $tp is not readable here (tracefs is unreadable or lacks it)"
	"$PSTAT" --dry-run -e "${tp/\//:}" >/dev/null 2>&1 ||
		skip "pstat cannot resolve tracepoint ${tp/\//:} here"
}

# A preload library that makes perf_event_open fail: every call with
# errno $FAKE_ERRNO (as a seccomp filter or a kernel without perf events
# would), or only a group member's (group_fd >= 0) with errno
# $FAKE_MEMBER_ERRNO (as a PMU refuses a group its counters cannot
# hold). Prints its path; built once per run.
refusing_preload() {
	local so="$BATS_RUN_TMPDIR/refuse.so" src="$BATS_RUN_TMPDIR/refuse.c"

	[ -f "$so" ] && { echo "$so"; return 0; }
	cat >"$src" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>

long syscall(long n, ...)
{
	static long (*real)(long, ...);
	const char *all = getenv("FAKE_ERRNO");
	const char *member = getenv("FAKE_MEMBER_ERRNO");
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	/* perf_event_open(attr, pid, cpu, group_fd, flags) */
	if (n == SYS_perf_event_open &&
	    ((all && *all) || (member && *member && (int)a[3] >= 0))) {
		errno = atoi(all && *all ? all : member);
		return -1;
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}
EOF
	cc -shared -fPIC -o "$so.$$" "$src" -ldl && mv "$so.$$" "$so" ||
		return 1
	echo "$so"
}

# A preload library whose read(2) of a perf event descriptor fails with
# errno ECHILD (as the kernel has answered for a thread in the middle of
# exiting) for the perf reads numbered $FAKE_READ_FAIL_FROM to
# $FAKE_READ_FAIL_TO (from 1, in the order pstat makes them). Prints
# its path; built once per run.
failing_read_preload() {
	local so="$BATS_RUN_TMPDIR/readfail.so" src="$BATS_RUN_TMPDIR/readfail.c"

	[ -f "$so" ] && { echo "$so"; return 0; }
	cat >"$src" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	static long nread;
	char path[64], link[64];
	ssize_t k;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	k = readlink(path, link, sizeof(link) - 1);
	if (k > 0) {
		link[k] = 0;
		if (strstr(link, "perf_event") && ++nread >=
		    atol(getenv("FAKE_READ_FAIL_FROM") ?: "0") &&
		    nread <= atol(getenv("FAKE_READ_FAIL_TO") ?: "-1")) {
			errno = ECHILD;
			return -1;
		}
	}
	return real(fd, buf, n);
}
EOF
	cc -shared -fPIC -o "$so.$$" "$src" -ldl && mv "$so.$$" "$so" ||
		return 1
	echo "$so"
}

# Build a test program from tests/progs/NAME.c once per run.
prog() {
	local src="$ROOT/tests/progs/$1.c" bin="$BATS_RUN_TMPDIR/prog-$1"
	if [ ! -x "$bin" ]; then
		cc -O1 -pthread -o "$bin" "$src" || return 1
	fi
	echo "$bin"
}

# Start tests/progs/threads N WRITES DELAY_MS in the background and wait
# until its threads exist; sets $tpid.
start_threads() {
	local t
	t=$(prog threads)
	"$t" "$@" >"$BATS_TEST_TMPDIR/ready" &
	tpid=$!
	for _ in $(seq 100); do
		grep -q ready "$BATS_TEST_TMPDIR/ready" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# Skip unless en_IN.UTF-8 (grouping 3;2: 12,34,567) is installed or can
# be built privately with localedef (LOCPATH, exported); call it
# directly, not in $(...).
need_en_in() {
	local dir="$BATS_FILE_TMPDIR/locale-in"

	LC_ALL=en_IN.UTF-8 locale -k LC_NUMERIC 2>/dev/null | grep -q 'grouping=3;2' &&
		return 0
	command -v localedef >/dev/null && [ -e /usr/share/i18n/locales/en_IN ] ||
		skip "no en_IN locale, and no localedef and en_IN sources to build it"
	mkdir -p "$dir"
	localedef -i en_IN -f UTF-8 "$dir/en_IN.UTF-8" >/dev/null 2>&1 ||
		[ -d "$dir/en_IN.UTF-8" ] || skip "localedef cannot build en_IN here"
	export LOCPATH="$dir"
}

# A locale whose decimal point is ',': installed, or built privately
# with localedef (LOCPATH) when the locale sources are there. Sets $loc
# (and exports LOCPATH); call it directly, not in $(...), or LOCPATH is
# lost with the subshell.
comma_locale() {
	local l dir="$BATS_FILE_TMPDIR/locale"

	for l in $(locale -a 2>/dev/null); do
		if [ "$(LC_ALL=$l /usr/bin/printf '%.1f' 1.5 2>/dev/null)" = 1,5 ]; then
			loc=$l
			return 0
		fi
	done
	command -v localedef >/dev/null && [ -e /usr/share/i18n/locales/de_DE ] ||
		return 1
	mkdir -p "$dir"
	[ -d "$dir/de_DE.UTF-8" ] ||
		localedef -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" >/dev/null 2>&1 ||
		[ -d "$dir/de_DE.UTF-8" ] || return 1
	export LOCPATH="$dir"
	[ "$(LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 1.5 2>/dev/null)" = 1,5 ] ||
		return 1
	loc=de_DE.UTF-8
}

# jq_assert [JQ_OPTIONS...] FILTER [FILE]
#	jq -e FILTER over FILE or stdin, but failing on empty input: Debian's
#	jq 1.6 exits 0 under -e when it reads nothing, so a bare
#	`jq -e ... <<<"$output"` passes when pstat printed nothing. Every
#	JSON assertion goes through this. Prints the input on failure.
jq_assert() {
	local input last

	# a build chroot (make check NO_INSTALL=1) may have no jq
	command -v jq >/dev/null || skip "jq is not installed"
	last=${!#}
	if [ $# -ge 2 ] && [ -f "$last" ]; then
		input=$(cat -- "$last") || return 1
		set -- "${@:1:$#-1}"
	else
		input=$(cat) || return 1
	fi
	# (a regex: ${input//[[:space:]]/} is quadratic on a large document)
	if ! [[ $input =~ [^[:space:]] ]]; then
		echo "jq_assert: the input is empty (filter: ${!#})" >&2
		return 1
	fi
	if ! jq -e "$@" <<<"$input" >/dev/null; then
		echo "jq_assert: false, null or not JSON: ${!#}" >&2
		echo "input: ${input:0:2000}" >&2
		return 1
	fi
}

# libpfm4 4.13 has no table for some CPUs these tests run on (AMD family
# 0x1a, Intel family 6 model 207): there it detects no core PMU, and its
# vendor names are all unknown. Force a related table (LIBPFM_FORCE_PMU)
# so that the libpfm4 path is tested on every CPU; returns 1 when even
# that gives no core PMU.
pfm_force_core_pmu() {
	"$PT" pfm --pmus 2>/dev/null | awk '$2 == "core" { f = 1 } END { exit !f }' &&
		return 0
	case $(uname -m) in
	x86_64) export LIBPFM_FORCE_PMU=skl ;;
	aarch64) export LIBPFM_FORCE_PMU=arm_n1 ;;
	*) return 1 ;;
	esac
	"$PT" pfm --pmus 2>/dev/null | awk '$2 == "core" { f = 1 } END { exit !f }'
}

# need_breakpoints: build tests/progs/bpvar (non-PIE) as $bp_prog with the
# address of its variable in $bp_addr, and skip unless a write breakpoint
# on it counts here: some virtual machines accept breakpoints but never
# fire them (perf counts 0 there too).
need_breakpoints() {
	local v
	need_perf_events
	bp_prog="$BATS_TEST_TMPDIR/bpvar"
	cc -O1 -no-pie -o "$bp_prog" "$ROOT/tests/progs/bpvar.c" ||
		skip "cannot build a non-PIE program"
	bp_addr=0x$(nm "$bp_prog" | awk '$3 == "target" { print $1 }')
	v=$("$ROOT/pstat" -x, -e "mem:$bp_addr:w" "$bp_prog" 10 2>&1 >/dev/null |
		awk -F, 'NF > 2 { print $1; exit }')
	case $v in
	'' | '<not supported>') skip "breakpoints cannot be opened here ($v)" ;;
	0 | '<not counted>') skip "breakpoints count nothing here: 10 writes to a watched variable counted $v (a virtual machine without debug registers?)" ;;
	esac
}

# The value of metric NAME in `pstat-test metric-eval` output ($output).
mval() {
	awk -v n="$1" '$1 == n { print $2; exit }' <<<"$output"
}

# close_to A B [TOL]: whether |A - B| <= TOL (default 1e-6: metric-eval
# prints 6 decimals); says which two values were not when they are not.
close_to() {
	awk -v a="$1" -v b="$2" -v t="${3:-1e-6}" 'BEGIN { d = a - b;
		if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }' ||
		{ echo "not close: '$1' '$2'"; return 1; }
}

# kids_add_up [-p PREFIX] PARENT:A:B ...: in metric-eval output ($output),
# metrics PREFIX.A and PREFIX.B add up to PREFIX.PARENT (a level's two
# children to their parent, clamped as TMA clamps).
kids_add_up() {
	local pre="" parent a b kids

	[ "$1" = -p ] && { pre=$2; shift 2; }
	for pair in "$@"; do
		IFS=: read -r parent a b <<<"$pair"
		kids=$(awk -v x="$(mval "$pre$a")" -v y="$(mval "$pre$b")" \
			'BEGIN { printf "%.6f", x + y }')
		close_to "$kids" "$(mval "$pre$parent")" || return 1
	done
}
