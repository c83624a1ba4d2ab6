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

# Run a pure-tier table: tests/data/NAME.test through pstat-test CMD.
run_table() {
	run "$PT" table "$1" "$ROOT/tests/data/$2"
	assert_success
}

# Skip unless perf_event_open works for software events here.
need_perf_events() {
	"$PSTAT" -e task-clock true 2>/dev/null ||
		skip "perf_event_open refuses software events here"
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
}

need_tracepoint() {
	local tp="${1:-syscalls/sys_enter_write}"
	[ -r "/sys/kernel/tracing/events/$tp/id" ] ||
		[ -r "/sys/kernel/debug/tracing/events/$tp/id" ] ||
		skip "tracepoint $tp is not readable here"
}

# Build a test program from tests/progs/NAME.c once per run.
prog() {
	local src="$ROOT/tests/progs/$1.c" bin="$BATS_RUN_TMPDIR/prog-$1"
	if [ ! -x "$bin" ]; then
		cc -O1 -pthread -o "$bin" "$src" || return 1
	fi
	echo "$bin"
}
