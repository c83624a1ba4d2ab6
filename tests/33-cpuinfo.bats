#!/usr/bin/env bats
# The CPU's identity from /proc/cpuinfo, or from a fixture tree's
# proc/cpuinfo: AMD's pipeline-utilisation top-down on the Zen 4 and
# Zen 5 trees (encodings with --dry-run, the level-1 fractions on
# synthetic counts), its refusal on Zen 3 and without a family, the
# vendor, and #tsc_freq from CPUID leaf 0x15 or the model name.

load test_helper
load json_helper

# The config the kernel's AMD core PMU format gives EVENT and UMASK:
# event bits 0-7 in config:0-7, bits 8-11 in config:32-35, the umask in
# config:8-15 (arch/x86/events/amd/core.c, amd_format_attr).
amd_config() {
	printf '0x%x' $(( ($1 & 0xff) | (($1 >> 8) << 32) | (${2:-0} << 8) ))
}

# PPR event number, unit mask: the level-1 inputs (AMD PPR for family
# 19h model 11h, and the performance counter document of family 1Ah).
AMD_L1="0x76:0 0x1a0:0x01 0x1a0:0x1e 0x1a0:0x60 0xaa:0x07 0xc1:0"

@test "AMD Zen 4 and Zen 5 trees: --topdown encodes the PPR's events" {
	for tree in amd-zen4 amd-zen5; do
		PSTAT_SYSFS_ROOT="$FIX/$tree" run "$PSTAT" --topdown --dry-run
		assert_success
		[ "$(grep -c 'resolver sysfs, pmu cpu' <<<"$output")" = 6 ]
		for e in $AMD_L1; do
			ev=${e%%:*} um=${e#*:}
			name="cpu/event=$ev/"
			[ "$um" = 0 ] || name="cpu/event=$ev,umask=$(printf '0x%x' "$um")/"
			assert_line --regexp "^${name//\//\\/}: resolver sysfs, pmu cpu, "
			assert_line "  type 4 config $(amd_config "$ev" "$um") config1 0 config2 0"
		done
		PSTAT_SYSFS_ROOT="$FIX/$tree" run "$PSTAT" --topdown --dry-run -j
		assert_success
		want=$(for e in $AMD_L1; do amd_config "${e%%:*}" "${e#*:}"; echo; done |
			jq -R . | jq -sc 'sort')
		jq_assert --argjson w "$want" '[.events[].attr | select(.type == 4) |
			.config] | sort == $w' <<<"$output"
	done
}

@test "AMD level 1: the five fractions of the dispatch slots sum to 1" {
	# Zen 4 dispatches 6 ops a cycle, Zen 5 8: every slot of a cycle
	# either dispatched an op (retired or not) or says why it did not
	local cyc=1000
	for z in 4:6:1200:1600:600:2600:2000 5:8:1600:2400:800:3200:2500; do
		IFS=: read -r gen w fe be smt disp ret <<<"$z"
		[ $((fe + be + smt + disp)) = $((w * cyc)) ]
		run "$PT" metric-eval "$FIX/amd-zen$gen -M TopdownL1 cpu/event=0x76/=$cyc cpu/event=0x1a0,umask=0x1/=$fe cpu/event=0x1a0,umask=0x1e/=$be cpu/event=0x1a0,umask=0x60/=$smt cpu/event=0xaa,umask=0x7/=$disp cpu/event=0xc1/=$ret"
		assert_success
		for m in frontend_bound:$fe backend_bound:$be smt_contention:$smt \
		    bad_speculation:$((disp - ret)) retiring:$ret; do
			want=$(awk -v a="${m#*:}" -v w="$w" -v c=$cyc 'BEGIN { printf "%.6f", 100 * a / (w * c) }')
			close_to "$(mval "${m%%:*}")" "$want"
		done
		sum=$(awk '$3 == "%" { s += $2 } END { printf "%.6f", s }' <<<"$output")
		close_to "$sum" 100
	done
}

@test "AMD Zen 3 has no pipeline-utilisation events: refused, saying why" {
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" --topdown true
	assert_failure 125
	assert_output --partial "(family 19h model 01h) is a Zen 3"
	assert_output --partial "from Zen 4 on"
	PSTAT_SYSFS_ROOT="$SYSFS/amd-zen3" run "$PSTAT" list -j metrics
	assert_success
	jq_assert '.topdown.levels == 0 and (.topdown.why_not | test("Zen 3"))' <<<"$output"
}

@test "an AMD tree without a cpuinfo: the family is not known, refused" {
	cp -a "$FIX/amd-zen4" "$BATS_TEST_TMPDIR/t"
	rm "$BATS_TEST_TMPDIR/t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/t" run "$PSTAT" --topdown true
	assert_failure 125
	assert_output --partial "depend on the CPU's family, which $BATS_TEST_TMPDIR/t/proc/cpuinfo does not give"
	# a FIFO where the file should be is refused, not waited on
	mkfifo "$BATS_TEST_TMPDIR/t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/t" run timeout 10 "$PSTAT" --topdown true
	assert_failure 125
	assert_output --partial "does not give (Invalid argument)"
}

@test "the vendor decides: AMD's PMU under an Intel cpuinfo is not AMD's" {
	cp -a "$FIX/amd-zen4" "$BATS_TEST_TMPDIR/t"
	sed -i 's/^vendor_id\t: AuthenticAMD$/vendor_id\t: GenuineIntel/' \
		"$BATS_TEST_TMPDIR/t/proc/cpuinfo"
	grep -q GenuineIntel "$BATS_TEST_TMPDIR/t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/t" run "$PSTAT" list -j metrics
	assert_success
	jq_assert '.topdown.levels == 0 and
		(.metrics | map(.name) | index("smt_contention") == null)' <<<"$output"
	# an Intel tree with a cpuinfo gets the vendor's TMA of its model
	# (Skylake-SP: IDQ_UOPS_NOT_DELIVERED.CORE first)
	PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake" run "$PSTAT" -a --topdown --dry-run
	assert_success
	assert_line "cpu/event=0x9c,umask=0x1/: resolver sysfs, pmu cpu, group 0 (leader, weak)"
}

@test "privileged (set-user-ID): a tree's cpuinfo is never used" {
	need_nobody
	chmod 4755 "$BATS_TEST_TMPDIR/pstat"
	PSTAT_SYSFS_ROOT="$FIX/amd-zen4" run as_nobody --topdown --dry-run
	[[ $output == *"runs with privileges it was not started with"* ]] ||
		skip "set-user-ID is not honoured here"
	assert_failure 125
	refute_output --partial "cpu/event=0x1a0"
	refute_output --partial "$FIX/amd-zen4"
}

# The value of metric tsc_ghz in the JSON document in file $1 (or
# "null"), and why it has none.
tsc_run() {
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/m.json" \
		--metric 'tsc_ghz = #tsc_freq / 1e9 * task-clock / task-clock' true
	assert_success
	validate_json "$BATS_TEST_TMPDIR/m.json"
	got=$(jq -r '.metrics[] | select(.name == "tsc_ghz") | .value' "$BATS_TEST_TMPDIR/m.json")
	why=$(jq -r '.metrics[] | select(.name == "tsc_ghz") | .why' "$BATS_TEST_TMPDIR/m.json")
}

@test "#tsc_freq of a tree: its cpuinfo's model name, '@ 2.40GHz'" {
	need_perf_events
	name=$(sed -n 's/^model name\t: //p' "$SYSFS/intel-skylake/proc/cpuinfo" | head -1)
	want=$(sed -n 's/.* @ \([0-9.]*\)GHz$/\1/p' <<<"$name")
	[ -n "$want" ]
	PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake" tsc_run
	close_to "$got" "$want"
	# no frequency in the name (AMD's), no cpuinfo (arm64): no value
	for tree in "$FIX/amd-zen4" "$SYSFS/arm64-neoverse"; do
		PSTAT_SYSFS_ROOT="$tree" tsc_run
		[ "$got" = null ]
		[ "$why" = "a constant is not known on this machine" ]
	done
}

@test "#tsc_freq live: CPUID leaf 0x15, else the model name, as read here" {
	need_perf_events
	# The test's own reading: CPUID through the kernel's cpuid driver
	# (Intel's leaf 0x15: crystal Hz x EBX / EAX), else /proc/cpuinfo.
	want=$(python3 - <<'EOF'
import os, platform, re, struct
if platform.machine() not in ("x86_64", "i386", "i686"):
    print("none")
    raise SystemExit
try:
    fd = os.open("/dev/cpu/0/cpuid", os.O_RDONLY)
    def cpuid(leaf):
        return struct.unpack("<4I", os.pread(fd, 16, leaf))
    top, b, c, d = cpuid(0)
    if struct.pack("<3I", b, d, c) == b"GenuineIntel" and top >= 0x15:
        a, b, c, _ = cpuid(0x15)
        if a and b and c:
            print(c * b / a / 1e9)
            raise SystemExit
    known = True
except OSError:
    known = False
with open("/proc/cpuinfo") as f:
    m = re.search(r"^model name\s*:.* @ ([0-9.]+)GHz$", f.read(), re.M)
print(m.group(1) if m else "none" if known else "unknown")
EOF
)
	tsc_run
	case $want in
	none)
		[ "$got" = null ]
		[ "$why" = "a constant is not known on this machine" ] ;;
	unknown)
		[ "$got" = null ] ||
			skip "pstat has #tsc_freq from CPUID, which this test cannot read (no /dev/cpu/0/cpuid)"
		[ "$why" = "a constant is not known on this machine" ] ;;
	*)
		close_to "$got" "$want" 1e-6 ;;
	esac
}

# The cpu_model of a -j run of `true`.
json_cpu_model() {
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/m.json" -e task-clock true
	assert_success
	jq_assert -r '.cpu_model | strings' "$BATS_TEST_TMPDIR/m.json"
	model=$(jq -r .cpu_model "$BATS_TEST_TMPDIR/m.json")
}

@test "-j: cpu_model is the tree's cpuinfo's, the machine's without a tree" {
	local model want
	for tree in amd-zen4 amd-zen5 sysfs/amd-zen3 sysfs/intel-skylake; do
		want=$(sed -n 's/^model name[[:blank:]]*: //p' \
			"$FIX/$tree/proc/cpuinfo" | head -n1)
		[ -n "$want" ]
		PSTAT_SYSFS_ROOT="$FIX/$tree" json_cpu_model
		[ "$model" = "$want" ]
	done
	# a tree without proc/cpuinfo names no CPU: not this machine's either
	PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" json_cpu_model
	[ "$model" = unknown ]
	want=$(awk -F': ' '/^(model name|Processor|cpu model)[[:blank:]]*:/ {
		print $2; exit }' /proc/cpuinfo)
	json_cpu_model
	[ "$model" = "${want:-unknown}" ]
}

@test "-j: cpu_model from 32-bit Arm's Processor and MIPS's cpu model lines" {
	local model
	mkdir -p "$BATS_TEST_TMPDIR/t/proc"
	printf 'Processor\t: ARMv7 Processor rev 10 (v7l)\nprocessor\t: 0\nBogoMIPS\t: 38.40\n\n' \
		>"$BATS_TEST_TMPDIR/t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/t" json_cpu_model
	[ "$model" = "ARMv7 Processor rev 10 (v7l)" ]
	printf 'system type\t\t: MIPS Malta\nprocessor\t\t: 0\ncpu model\t\t: MIPS 24Kc V0.0  FPU V0.0\n\n' \
		>"$BATS_TEST_TMPDIR/t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/t" json_cpu_model
	[ "$model" = "MIPS 24Kc V0.0  FPU V0.0" ]
}

# arm64's cpuinfo has no model name (issue 30): the implementer and part,
# from its lines or else from sysfs's MIDR_EL1, of the tree when given.
@test "-j: cpu_model on arm64: implementer and part, from cpuinfo or MIDR" {
	local model t=$BATS_TEST_TMPDIR/t id
	mkdir -p "$t/proc"
	printf 'processor\t: 0\nBogoMIPS\t: 125.00\nCPU implementer\t: 0x00\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0x051\nCPU revision\t: 0\n\n' \
		>"$t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT=$t json_cpu_model
	[ "$model" = "CPU implementer 0x00 part 0x051" ]
	# without a cpuinfo: MIDR_EL1 (a Cortex-A53 r0p4), bits 31:24 and 15:4
	rm -r "$t/proc"
	id=$t/devices/system/cpu/cpu0/regs/identification
	mkdir -p "$id"
	echo 0x00000000410fd034 >"$id/midr_el1"
	PSTAT_SYSFS_ROOT=$t json_cpu_model
	[ "$model" = "CPU implementer 0x41 part 0xd03" ]
	# a cpuinfo's model name still comes first
	mkdir -p "$t/proc"
	printf 'model name\t: Some CPU\n\n' >"$t/proc/cpuinfo"
	PSTAT_SYSFS_ROOT=$t json_cpu_model
	[ "$model" = "Some CPU" ]
}
