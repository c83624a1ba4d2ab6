#!/usr/bin/env bats
# The metric engine: the expression language and definitions (pure tier,
# tests/data/metric-*.test), the built-in formulas against values
# computed here from synthetic counts, top-down's event groups on the
# fixture trees (--dry-run) and its refusal on this machine, and user
# metrics counted live from software events and tracepoints in the
# table, CSV, JSON, -r, -I and --metric-only.

load test_helper
load json_helper

MFIX="$FIX/metrics"

# Skylake-SP without its cpuinfo: a CPU the vendors' tables do not name,
# where the hand-written library's Skylake formulas apply (with it, the
# vendor's TMA: tests/34-vendor.bats)
SKL="$BATS_FILE_TMPDIR/intel-skylake"
setup_file() {
	cp -r "$SYSFS/intel-skylake" "$BATS_FILE_TMPDIR/"
	rm -r "$BATS_FILE_TMPDIR/intel-skylake/proc"
}

@test "metric expressions: precedence, names, constants, no value, errors" {
	run_table metric-expr metric-expr.test
}

@test "metric definitions: NAME = EXPR and its keys, errors with a caret" {
	run_table metric-def metric-def.test
}

@test "Skylake TopdownL1 formulas on synthetic counts, summing to 100%" {
	local slots=40000 fb=9000 iss=23000 ret=20000 rec=1500
	run "$PT" metric-eval "$SKL -M TopdownL1 topdown-total-slots=$slots topdown-fetch-bubbles=$fb topdown-slots-issued=$iss topdown-slots-retired=$ret topdown-recovery-bubbles=$rec"
	assert_success
	# the first line names the group, total slots first
	assert_line "group: topdown-total-slots topdown-fetch-bubbles topdown-slots-issued topdown-slots-retired topdown-recovery-bubbles"
	fe=$(awk -v a=$fb -v s=$slots 'BEGIN { printf "%.6f", 100 * a / s }')
	bs=$(awk -v i=$iss -v r=$ret -v c=$rec -v s=$slots 'BEGIN { printf "%.6f", 100 * (i - r + c) / s }')
	re=$(awk -v r=$ret -v s=$slots 'BEGIN { printf "%.6f", 100 * r / s }')
	close_to "$(mval frontend_bound)" "$fe"
	close_to "$(mval bad_speculation)" "$bs"
	close_to "$(mval retiring)" "$re"
	sum=$(awk '$3 == "%" { s += $2 } END { printf "%.6f", s }' <<<"$output")
	close_to "$sum" 100
}

@test "Skylake TopdownL2 (Intel's TMA) on synthetic counts, children summing to parents" {
	local slots=40000 fb=9000 iss=23000 ret=20000 rec=1500
	local cyc0=1200 brm=300 clr=100 fused=2000 insn=19000
	local smem=3000 bst=500 stot=5000 p1=1500 p2=1000
	local C=cpu/event=
	local counts="topdown-total-slots=$slots topdown-fetch-bubbles=$fb topdown-slots-issued=$iss topdown-slots-retired=$ret topdown-recovery-bubbles=$rec ${C}0x9c,umask=0x1,cmask=4/=$cyc0 ${C}0xc5,umask=0x0/=$brm ${C}0xc3,umask=0x1,cmask=1,edge=1/=$clr ${C}0xc2,umask=0x4/=$fused instructions=$insn ${C}0xa3,umask=0x14,cmask=20/=$smem ${C}0xa6,umask=0x40/=$bst ${C}0xa3,umask=0x4,cmask=4/=$stot ${C}0xa6,umask=0x2/=$p1 ${C}0xa6,umask=0x4/=$p2"
	run "$PT" metric-eval "$SKL -M TopdownL1,TopdownL2 $counts"
	assert_success
	# the kernel's events and instructions (fixed counters) together;
	# the raw events four to a group
	assert_line "group: topdown-total-slots topdown-fetch-bubbles topdown-slots-issued topdown-slots-retired topdown-recovery-bubbles instructions"
	assert_line "group: ${C}0x9c,umask=0x1,cmask=4/ ${C}0xc5,umask=0x0/ ${C}0xc3,umask=0x1,cmask=1,edge=1/ ${C}0xc2,umask=0x4/"
	assert_line "group: ${C}0xa3,umask=0x14,cmask=20/ ${C}0xa6,umask=0x40/ ${C}0xa3,umask=0x4,cmask=4/ ${C}0xa6,umask=0x2/"
	assert_line "group: ${C}0xa6,umask=0x4/"
	# Intel's formulas, written out here over the same counts
	f() { awk "BEGIN { s = $slots; fb = $fb; iss = $iss; ret = $ret; rec = $rec;
		be = 1 - (fb + iss + rec) / s; bs = (iss - ret + rec) / s;
		printf \"%.6f\", 100 * ($1) }"; }
	close_to "$(mval fetch_latency)" "$(f "4 * $cyc0 / s")"
	close_to "$(mval fetch_bandwidth)" "$(f "fb / s - 4 * $cyc0 / s")"
	close_to "$(mval branch_mispredicts)" "$(f "$brm / ($brm + $clr) * bs")"
	close_to "$(mval machine_clears)" "$(f "bs - $brm / ($brm + $clr) * bs")"
	close_to "$(mval heavy_operations)" "$(f "(ret + $fused - $insn) / s")"
	close_to "$(mval light_operations)" "$(f "ret / s - (ret + $fused - $insn) / s")"
	close_to "$(mval memory_bound)" "$(f "($smem + $bst) / ($stot + $p1 + ret / s * $p2 + $bst) * be")"
	close_to "$(mval core_bound)" "$(f "be - ($smem + $bst) / ($stot + $p1 + ret / s * $p2 + $bst) * be")"
	kids_add_up retiring:heavy_operations:light_operations \
	    bad_speculation:branch_mispredicts:machine_clears \
	    frontend_bound:fetch_latency:fetch_bandwidth \
	    backend_bound:memory_bound:core_bound
	l1=$(awk '$1 ~ /^(frontend_bound|bad_speculation|retiring|backend_bound)$/ { s += $2 } END { printf "%.6f", s }' <<<"$output")
	close_to "$l1" 100
	# TopdownL2 alone pulls level 1 in (the set grows while resolving)
	want=$(mval core_bound)
	run "$PT" metric-eval "$SKL -M TopdownL2 $counts"
	assert_success
	refute_line --regexp '^frontend_bound '
	close_to "$(mval core_bound)" "$want"
}

@test "Sapphire Rapids TopdownL1 and L2: slots leads, children sum to parents" {
	local fe=200 bs=100 re=400 be=300 heavy=150 brm=60 fl=120 mem=180
	run "$PT" metric-eval "$MFIX/intel-spr -M TopdownL1,TopdownL2 cpu/topdown-fe-bound/=$fe cpu/topdown-bad-spec/=$bs cpu/topdown-retiring/=$re cpu/topdown-be-bound/=$be cpu/topdown-heavy-ops/=$heavy cpu/topdown-br-mispredict/=$brm cpu/topdown-fetch-lat/=$fl cpu/topdown-mem-bound/=$mem"
	assert_success
	assert_line --regexp '^group: cpu/slots/ '
	total=$((fe + bs + re + be))
	for m in frontend_bound:$fe bad_speculation:$bs retiring:$re \
	    backend_bound:$be heavy_operations:$heavy \
	    branch_mispredicts:$brm fetch_latency:$fl memory_bound:$mem; do
		want=$(awk -v a=${m#*:} -v t=$total 'BEGIN { printf "%.6f", 100 * a / t }')
		close_to "$(mval ${m%%:*})" "$want"
	done
	l1=$(awk '$1 ~ /^(frontend_bound|bad_speculation|retiring|backend_bound)$/ { s += $2 } END { printf "%.6f", s }' <<<"$output")
	close_to "$l1" 100
	kids_add_up retiring:heavy_operations:light_operations \
	    bad_speculation:branch_mispredicts:machine_clears \
	    frontend_bound:fetch_latency:fetch_bandwidth \
	    backend_bound:memory_bound:core_bound
}

@test "Neoverse V2 TopdownL1 (slots from caps/slots = 8) sums to 100%" {
	local cyc=1000 sf=2000 sb=3000 ss=5000 spec=2500 retd=2000 brm=10
	run "$PT" metric-eval "$MFIX/arm-neoverse-v2 -M TopdownL1 cpu_cycles=$cyc stall_slot_frontend=$sf stall_slot_backend=$sb stall_slot=$ss op_spec=$spec op_retired=$retd br_mis_pred=$brm"
	assert_success
	want=$(awk -v f=$sf -v c=$cyc -v b=$brm 'BEGIN { printf "%.6f", 100 * (f / (c * 8) - b / c) }')
	close_to "$(mval frontend_bound)" "$want"
	want=$(awk -v s=$sb -v c=$cyc -v b=$brm 'BEGIN { printf "%.6f", 100 * (s / (c * 8) - 3 * b / c) }')
	close_to "$(mval backend_bound)" "$want"
	want=$(awk -v r=$retd -v p=$spec -v s=$ss -v c=$cyc 'BEGIN { printf "%.6f", 100 * r / p * (1 - s / (c * 8)) }')
	close_to "$(mval retiring)" "$want"
	sum=$(awk '$3 == "%" { s += $2 } END { printf "%.6f", s }' <<<"$output")
	close_to "$sum" 100
}

@test "library metrics: IPC, CPI, miss rates and MPKI from their counts" {
	run "$PT" metric-eval "$SYSFS/intel-skylake -M ipc,cpi,branch_miss_rate,l1d_mpki,llc_mpki,dtlb_mpki,frequency instructions=3000 cycles=1500 branches=400 branch-misses=10 L1-dcache-load-misses=30 LLC-load-misses=6 dTLB-load-misses=3 task-clock=2"
	assert_success
	close_to "$(mval ipc)" 2
	close_to "$(mval cpi)" 0.5
	close_to "$(mval branch_miss_rate)" 2.5
	close_to "$(mval l1d_mpki)" 10
	close_to "$(mval llc_mpki)" 2
	close_to "$(mval dtlb_mpki)" 1
	# cycles over task-clock in msec: 1500 / 2 ms = 0.00075 GHz
	close_to "$(mval frequency)" 0.00075
	run "$PT" metric-eval "$SYSFS/arm64-neoverse -M l1d_mpki,l2_mpki inst_retired=2000 l1d_cache_refill=8 l2d_cache_refill=2"
	assert_success
	close_to "$(mval l1d_mpki)" 4
	close_to "$(mval l2_mpki)" 1
}

@test "memory bandwidth from the IMC cas counts, over duration_time" {
	run "$PT" metric-eval "$SYSFS/intel-skylake -M memory_bandwidth duration=2 uncore_imc/cas_count_read/=300 uncore_imc/cas_count_write/=100"
	assert_success
	# MB/s, as Intel's: the kernel's MiB x 1.048576
	close_to "$(mval memory_bandwidth)" 209.715200
}

@test "top-down is refused where the PMU lacks it, naming what is missing" {
	run "$PT" metric-eval "$SYSFS/arm64-neoverse -M TopdownL1"
	assert_failure
	assert_output --partial "no stall_slot_frontend, stall_slot_backend, stall_slot, op_spec, op_retired events"
	run "$PT" metric-eval "$SYSFS/vm-nopmu -M TopdownL1"
	assert_failure
	assert_output --partial "no core PMU"
	# among other metrics: rows without a value, the others computed
	run "$PT" metric-eval "$SYSFS/vm-nopmu -M TopdownL1,cpus_utilized task-clock=500 duration=1"
	assert_success
	assert_line --regexp '^frontend_bound none: no core PMU'
	close_to "$(mval cpus_utilized)" 0.5
}

@test "a metric referring to another, and to itself through others" {
	run "$PT" metric-eval "- -M - --metric 'a = x / y' --metric 'b = a * 2; unit = %' x=3 y=4"
	assert_success
	close_to "$(mval b)" 1.5
	run "$PT" metric-eval "- -M - --metric 'a = b + 1' --metric 'b = a * 2'"
	assert_failure
	assert_output --partial "refers to itself through other metrics"
}

# --- the command line -------------------------------------------------

@test "--topdown is refused here with exit 125, naming what is missing" {
	if [ -e /sys/bus/event_source/devices/cpu/events/topdown-retiring ] ||
	    [ -e /sys/bus/event_source/devices/cpu/events/topdown-total-slots ]; then
		skip "this machine has top-down events"
	fi
	run "$PSTAT" --topdown true
	assert_failure 125
	assert_output --partial "pstat: --topdown: cannot count TopdownL1 here:"
	run "$PSTAT" --td-level 2 true
	assert_failure 125
}

# A copy of fixture tree $1 at $2 whose NMI watchdog reads $3.
tree_with_watchdog() {
	cp -r "$1" "$2"
	mkdir -p "$2/proc/sys/kernel"
	echo "$3" >"$2/proc/sys/kernel/nmi_watchdog"
}

@test "--dry-run: Skylake's topdown group, total slots leading; SMT needs -a" {
	# the NMI watchdog off: its cycles fixed counter is free for total slots
	tree_with_watchdog "$SKL" "$BATS_TEST_TMPDIR/skl" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/skl" run "$PSTAT" --dry-run -a --topdown
	assert_success
	refute_output --partial watchdog
	assert_line "topdown-total-slots: resolver sysfs, pmu cpu, group 0 (leader)"
	for e in topdown-fetch-bubbles topdown-slots-issued topdown-slots-retired topdown-recovery-bubbles; do
		assert_line "$e: resolver sysfs, pmu cpu, group 0"
	done
	# on (the tree does not say: the kernel's default), it holds that
	# counter: the group would never be scheduled, so, as perf, none is
	# made, and it is said; the events go in their metrics' weak groups
	PSTAT_SYSFS_ROOT="$SKL" run "$PSTAT" --dry-run -a --topdown
	assert_success
	assert_line --index 0 "pstat: warning: the NMI watchdog holds the counter topdown-total-slots needs: the top-down events are not counted as one group, and may be multiplexed"
	assert_line --index 1 "pstat: hint: to count them together: echo 0 > /proc/sys/kernel/nmi_watchdog"
	run groups_of
	assert_output - <<'EOF'
topdown-total-slots: group 0 (leader, weak)
topdown-slots-issued: group 0 (weak)
topdown-slots-retired: group 0 (weak)
topdown-recovery-bubbles: group 0 (weak)
topdown-fetch-bubbles: group 1 (leader)
EOF
	# the fixture's topdown events are the SMT variants (.scale 2)
	PSTAT_SYSFS_ROOT="$SKL" run "$PSTAT" --dry-run --topdown
	assert_failure 125
	assert_output --partial "needs -a"
}

@test "--dry-run: Skylake's TopdownL2, raw encodings in groups of four; SMT needs -a" {
	tree_with_watchdog "$SKL" "$BATS_TEST_TMPDIR/skl" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/skl" run "$PSTAT" --dry-run -a -j --td-level 2
	assert_success
	echo "$output" >"$BATS_TEST_TMPDIR/d.json"
	validate_json "$BATS_TEST_TMPDIR/d.json" "$ROOT/schema/pstat-dryrun.schema.json"
	# name, group, leader and config of every event, in order: the
	# configs are event | umask << 8 | edge << 18 | any << 21 |
	# cmask << 24 on the tree's cpu format
	jq -r '.events[] | "\(.name) \(.group) \(.leader) \(.attr.type) \(.attr.config)"' \
		"$BATS_TEST_TMPDIR/d.json" >"$BATS_TEST_TMPDIR/got"
	cat >"$BATS_TEST_TMPDIR/want" <<-'EOF'
	topdown-total-slots 0 true 4 0x20003c
	topdown-fetch-bubbles 0 false 4 0x19c
	topdown-slots-issued 0 false 4 0x10e
	topdown-slots-retired 0 false 4 0x2c2
	topdown-recovery-bubbles 0 false 4 0x120030d
	instructions 0 false 0 0x1
	cpu/event=0x9c,umask=0x1,cmask=4/ 1 true 4 0x400019c
	cpu/event=0xc5,umask=0x0/ 1 false 4 0xc5
	cpu/event=0xc3,umask=0x1,cmask=1,edge=1/ 1 false 4 0x10401c3
	cpu/event=0xc2,umask=0x4/ 1 false 4 0x4c2
	cpu/event=0xa3,umask=0x14,cmask=20/ 2 true 4 0x140014a3
	cpu/event=0xa6,umask=0x40/ 2 false 4 0x40a6
	cpu/event=0xa3,umask=0x4,cmask=4/ 2 false 4 0x40004a3
	cpu/event=0xa6,umask=0x2/ 2 false 4 0x2a6
	cpu/event=0xa6,umask=0x4/ 3 true 4 0x4a6
	EOF
	diff -u "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
	# per-core aggregation, as level 1; SMT on without -a is refused
	PSTAT_SYSFS_ROOT="$SKL" run "$PSTAT" --dry-run -a --per-core -M TopdownL2
	assert_success
	PSTAT_SYSFS_ROOT="$SKL" run "$PSTAT" --dry-run -M memory_bound
	assert_failure 125
	assert_output --partial "needs -a"
	# a Haswell or Broadwell (caps/pmu_name) has the kernel's level 1
	# only: Intel's level-2 events differ there
	cp -r "$SKL" "$BATS_TEST_TMPDIR/hsw"
	echo haswell >"$BATS_TEST_TMPDIR/hsw/bus/event_source/devices/cpu/caps/pmu_name"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/hsw" run "$PSTAT" --dry-run -a --td-level 2
	assert_failure 125
	assert_output "pstat: --td-level: cannot count TopdownL2 here: this PMU has no level-2 top-down events pstat knows (the vendors' tables cover the CPUs whose /proc/cpuinfo they name; by hand: Skylake-class level 2, Sapphire Rapids and later level 2)"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/hsw" run "$PSTAT" --dry-run -a --topdown
	assert_success
}

@test "--dry-run: Sapphire Rapids' slots leads the PERF_METRICS group" {
	PSTAT_SYSFS_ROOT="$MFIX/intel-spr" run "$PSTAT" --dry-run -j --td-level 2
	assert_success
	jq_assert '.events | map(select(.group == 0)) |
		(.[0].name == "cpu/slots/" and .[0].leader == true and
		 length == 9 and (.[1:] | all(.leader == false)))' <<<"$output"
}

@test "--dry-run: Neoverse V2 top-down events; N1 refused" {
	PSTAT_SYSFS_ROOT="$MFIX/arm-neoverse-v2" run "$PSTAT" --dry-run -M TopdownL1
	assert_success
	for e in stall_slot_frontend stall_slot_backend stall_slot op_spec op_retired br_mis_pred cpu_cycles; do
		assert_line --regexp "^$e: resolver sysfs, pmu armv8_pmuv3_0"
	done
	PSTAT_SYSFS_ROOT="$SYSFS/arm64-neoverse" run "$PSTAT" --dry-run -M TopdownL1
	assert_failure 125
	assert_output --partial "has no stall_slot_frontend"
}

@test "a user metric's events are added, and shared with -e" {
	run "$PSTAT" --dry-run --metric 'cs_per_ms = cs / task-clock'
	assert_success
	assert_line --regexp '^cs: '
	assert_line --regexp '^task-clock: '
	run "$PSTAT" --dry-run -e task-clock,cs --metric 'cs_per_ms = cs / task-clock'
	assert_success
	[ "$(grep -c '^task-clock: ' <<<"$output")" = 1 ]
	[ "$(grep -c '^cs: ' <<<"$output")" = 1 ]
}

# The group lines of --dry-run's text, "NAME: group N (...)".
groups_of() {
	sed -n 's/^\([^ ]*\): resolver [^,]*, pmu [^,]*, \(group .*\)$/\1: \2/p' <<<"$output"
}

@test "--dry-run: a metric's software events and tracepoint are one weak group, each event once" {
	need_tracepoint syscalls/sys_enter_write
	run "$PSTAT" --dry-run --metric 'w = syscalls:sys_enter_write / task-clock' \
		--metric 'x = context-switches + syscalls:sys_enter_write' \
		--metric 'y = page-faults / cpu-clock' true
	assert_success
	# w and x share the tracepoint: one group of their three events
	run groups_of
	assert_output - <<'EOF'
syscalls:sys_enter_write: group 0 (leader, weak)
task-clock: group 0 (weak)
context-switches: group 0 (weak)
page-faults: group 1 (leader, weak)
cpu-clock: group 1 (weak)
EOF
	run "$PSTAT" --dry-run -j -o "$BATS_TEST_TMPDIR/d.json" \
		--metric 'w = syscalls:sys_enter_write / task-clock' true
	assert_success
	validate_json "$BATS_TEST_TMPDIR/d.json" "$ROOT/schema/pstat-dryrun.schema.json"
	jq_assert '.events | length == 2 and all(.group == 0 and .weak == true) and
		.[0].leader and (.[1].leader | not)' "$BATS_TEST_TMPDIR/d.json"
}

@test "--dry-run: an event -e counts is read there; --metric-no-group opens each alone" {
	run "$PSTAT" --dry-run -e task-clock --metric 'a = context-switches / task-clock' \
		--metric 'b = page-faults / task-clock' true
	assert_success
	run groups_of
	assert_output - <<'EOF'
task-clock: group 0 (leader)
context-switches: group 1 (leader)
page-faults: group 2 (leader)
EOF
	run "$PSTAT" --dry-run --metric-no-group \
		--metric 'a = context-switches / task-clock' true
	assert_success
	refute_output --partial weak
	run groups_of
	assert_output - <<'EOF'
context-switches: group 0 (leader)
task-clock: group 1 (leader)
EOF
	# a group a user writes is weak with :W only
	run "$PSTAT" --dry-run -e '{task-clock,page-faults}:W,{cs,cpu-clock}'
	assert_success
	run groups_of
	assert_output - <<'EOF'
task-clock: group 0 (leader, weak)
page-faults: group 0 (weak)
cs: group 1 (leader)
cpu-clock: group 1
EOF
}

@test "--dry-run: metric groups on Skylake: one core PMU's events, software after them" {
	PSTAT_SYSFS_ROOT="$SKL" run "$PSTAT" --dry-run \
		--metric 'ipc = instructions / cycles' \
		--metric 'bmr = branch-misses / branches' \
		--metric 'ghz = cycles / task-clock' \
		--metric 'r = msr@tsc@ / L1-dcache-load-misses' true
	assert_success
	# ipc and ghz share cycles; r joins two PMUs: not grouped
	run groups_of
	assert_output - <<'EOF'
instructions: group 0 (leader, weak)
cycles: group 0 (weak)
task-clock: group 0 (weak)
branch-misses: group 1 (leader, weak)
branches: group 1 (weak)
msr/tsc/: group 2 (leader)
L1-dcache-load-misses: group 3 (leader)
EOF
	# the top-down group is not weak (its events count only together);
	# uncore events count on their own CPUs, ungrouped
	tree_with_watchdog "$SKL" "$BATS_TEST_TMPDIR/skl" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/skl" run "$PSTAT" --dry-run -a \
		--topdown -M ipc,memory_bandwidth_read true
	assert_success
	run groups_of
	assert_output - <<'EOF'
topdown-total-slots: group 0 (leader)
topdown-fetch-bubbles: group 0
topdown-slots-issued: group 0
topdown-slots-retired: group 0
topdown-recovery-bubbles: group 0
instructions: group 1 (leader, weak)
cycles: group 1 (weak)
uncore_imc/cas_count_read/: group 2 (leader)
uncore_imc/cas_count_read/: group 3 (leader)
EOF
}

@test "--dry-run: metric groups on Sapphire Rapids and a hybrid, per core PMU" {
	PSTAT_SYSFS_ROOT="$MFIX/intel-spr" run "$PSTAT" --dry-run -j --topdown \
		--metric 'ipc = instructions / cycles'
	assert_success
	jq_assert '.events | (map(select(.group == 0)) |
		.[0].name == "cpu/slots/" and all(has("weak") | not)) and
		(map(select(.group == 1)) | map(.name) == ["instructions", "cycles"] and
		 all(.weak == true))' <<<"$output"
	PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" run "$PSTAT" --dry-run \
		--metric 'x = cpu_core@cycles@ / cpu_atom@cycles@' \
		--metric 'pipc = cpu_core@instructions@ / cpu_core@cycles@' \
		--metric 'eipc = cpu_atom@instructions@ / cpu_atom@cycles@' true
	assert_success
	run groups_of
	assert_output - <<'EOF'
cpu_core/cycles/: group 0 (leader, weak)
cpu_core/instructions/: group 0 (weak)
cpu_atom/cycles/: group 1 (leader, weak)
cpu_atom/instructions/: group 1 (weak)
EOF
}

# Whether each group of the --dry-run -j document on stdin needs at most
# $2 general-purpose counters: its hardware events, less those of $1 (a
# JSON list of "type:config" on fixed counters), software events taking
# none; and whether each event is opened once.
gp_check() {
	jq_assert --argjson fixed "$1" --argjson max "$2" '
		[.events[] | "\(.attr.type):\(.attr.config)"] as $ev |
		($ev | length) == ($ev | unique | length) and
		([.events[] | select(.attr.type != 1 and .attr.type != 2)] |
		 group_by(.group) |
		 map([.[] | "\(.attr.type):\(.attr.config)" |
		      select(. as $e | $fixed | index($e) | not)] | length) |
		 max <= $max)'
}

@test "--dry-run: merged metric groups fit the PMU: Skylake's four counters, the watchdog's" {
	local S="$SYSFS/intel-skylake"
	local mine=cpus_utilized,ipc,cpi,frequency,l1d_mpki,l2_mpki,llc_mpki,dtlb_mpki
	# instructions on its fixed counter; the NMI watchdog (the tree
	# does not say: taken as on) holds cycles' fixed counter, so cycles
	# takes one of the four: dtlb_mpki's dTLB-load-misses would be
	# a fifth, and is read alone, with instructions from group 0
	# (pstat's own Summary, Cache and TLB metrics: the tree is a Skylake
	# Intel's data names, whose Summary group holds Intel's too)
	PSTAT_SYSFS_ROOT="$S" run "$PSTAT" --dry-run -M $mine true
	assert_success
	run groups_of
	assert_output - <<'EOF'
instructions: group 0 (leader, weak)
cycles: group 0 (weak)
L1-dcache-load-misses: group 0 (weak)
cpu/event=0xf1,umask=0x1f/: group 0 (weak)
LLC-load-misses: group 0 (weak)
task-clock: group 0 (weak)
dTLB-load-misses: group 1 (leader)
EOF
	# said at -v; not marked: its counts are over the same time unless
	# multiplexed
	PSTAT_SYSFS_ROOT="$S" run "$PSTAT" -v --dry-run -M $mine true
	assert_success
	assert_line "pstat: metric 'dtlb_mpki' reads events of more than one group: the PMU's counters cannot hold them with the other metrics' (its counts are taken together unless multiplexed)"
	[ "$(grep -c 'more than one group' <<<"$output")" = 1 ]
	PSTAT_SYSFS_ROOT="$S" run "$PSTAT" --dry-run -j -M $mine,branch_miss_rate true
	assert_success
	gp_check '["0:0x1"]' 4 <<<"$output"
	# the watchdog off: cycles on its fixed counter, and all fit one
	tree_with_watchdog "$S" "$BATS_TEST_TMPDIR/skl" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/skl" run "$PSTAT" --dry-run -j -M $mine true
	assert_success
	gp_check '["0:0x1", "0:0x0"]' 4 <<<"$output"
	jq_assert '.events | length == 7 and all(.group == 0 and .weak)' <<<"$output"
	tree_with_watchdog "$S" "$BATS_TEST_TMPDIR/skl1" 1
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/skl1" run "$PSTAT" --dry-run -M $mine true
	assert_success
	assert_line "dTLB-load-misses: resolver generic, pmu cpu, group 1 (leader)"
}

@test "--dry-run: a metric's new events join the group of its others that they fit, else their own" {
	# a and b fill two groups; c's L2 event joins a's group, which
	# holds instructions, and c reads branches from b's
	PSTAT_SYSFS_ROOT="$SYSFS/intel-skylake" run "$PSTAT" --dry-run \
		--metric 'a = (L1-dcache-load-misses + LLC-load-misses) / instructions / cycles' \
		--metric 'b = (branch-misses + dTLB-load-misses) / branches' \
		--metric 'c = cpu@event=0xf1,umask=0x1f@ / instructions + branches' true
	assert_success
	run groups_of
	assert_output - <<'EOF'
L1-dcache-load-misses: group 0 (leader, weak)
LLC-load-misses: group 0 (weak)
instructions: group 0 (weak)
cycles: group 0 (weak)
cpu/event=0xf1,umask=0x1f/: group 0 (weak)
branch-misses: group 1 (leader, weak)
dTLB-load-misses: group 1 (weak)
branches: group 1 (weak)
EOF
}

@test "--dry-run: one metric larger than the PMU is a weak group; one the watchdog's counter would stop, not" {
	local S="$SYSFS/intel-skylake" R=cpu@event=
	local four="${R}0xc4@ + ${R}0xc5@ + ${R}0xd0,umask=0x81@ + ${R}0xd1,umask=0x1@"
	# five general-purpose events: the kernel refuses the group (the
	# fallback counts them ungrouped), as perf leaves it to the kernel
	PSTAT_SYSFS_ROOT="$S" run "$PSTAT" --dry-run -j \
		--metric "big = $four + ${R}0xd1,umask=0x8@" true
	assert_success
	jq_assert '.events | length == 5 and all(.group == 0 and .weak)' <<<"$output"
	# four and cycles: the kernel would take the group (cycles on its
	# fixed counter) and never schedule it while the watchdog holds
	# that counter: ungrouped
	PSTAT_SYSFS_ROOT="$S" run "$PSTAT" --dry-run -j --metric "w = ($four) / cycles" true
	assert_success
	jq_assert '.events | length == 5 and all(.leader and (has("weak") | not))' <<<"$output"
	PSTAT_SYSFS_ROOT="$S" run "$PSTAT" -v --dry-run --metric "w = ($four) / cycles" true
	assert_success
	assert_line --partial "metric 'w': its events fit the PMU only with the counter the NMI watchdog holds"
	tree_with_watchdog "$S" "$BATS_TEST_TMPDIR/skl" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/skl" run "$PSTAT" --dry-run -j --metric "w = ($four) / cycles" true
	assert_success
	jq_assert '.events | length == 5 and all(.group == 0 and .weak)' <<<"$output"
}

@test "--dry-run: the counters per vendor: Sapphire Rapids' eight, Neoverse's six and cycle counter" {
	# N raw events over cycles: with cycles' counter held by the
	# watchdog they fit only without it (ungrouped); one fewer fits
	raw() {
		local s="" i
		for ((i = 1; i <= $2; i++)); do
			s+="${s:+ + }$1$(printf '0x%x' $((0x20 + i)))@"
		done
		echo "($s) / $3"
	}
	groups_n() {
		jq_assert --argjson n "$1" --argjson weak "$2" \
			'(.events | map(.group) | unique | length) == $n and
			 all(.events[]; has("weak") == $weak)'
	}
	local P="$FIX/intel-sapphirerapids-2s" V="$MFIX/arm-neoverse-v2"
	PSTAT_SYSFS_ROOT="$P" run "$PSTAT" --dry-run -j --metric "a = $(raw cpu@event= 8 cycles)" true
	assert_success
	groups_n 9 false <<<"$output"
	PSTAT_SYSFS_ROOT="$P" run "$PSTAT" --dry-run -j --metric "a = $(raw cpu@event= 7 cycles)" true
	assert_success
	groups_n 1 true <<<"$output"
	PSTAT_SYSFS_ROOT="$V" run "$PSTAT" --dry-run -j --metric "a = $(raw armv8_pmuv3_0@event= 6 cpu_cycles)" true
	assert_success
	groups_n 7 false <<<"$output"
	PSTAT_SYSFS_ROOT="$V" run "$PSTAT" --dry-run -j --metric "a = $(raw armv8_pmuv3_0@event= 5 cpu_cycles)" true
	assert_success
	groups_n 1 true <<<"$output"
	tree_with_watchdog "$V" "$BATS_TEST_TMPDIR/v2" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/v2" run "$PSTAT" --dry-run -j --metric "a = $(raw armv8_pmuv3_0@event= 6 cpu_cycles)" true
	assert_success
	groups_n 1 true <<<"$output"
}

@test "--dry-run: AMD Zen 4 top-down in groups of five beside the watchdog, six without" {
	local Z="$FIX/amd-zen4"
	# six core counters, no fixed one; the watchdog holds one
	PSTAT_SYSFS_ROOT="$Z" run "$PSTAT" --dry-run -j --topdown true
	assert_success
	gp_check '[]' 5 <<<"$output"
	jq_assert '.events | length == 6 and
		(map(select(.group == 0)) | length == 5 and all(.weak))' <<<"$output"
	tree_with_watchdog "$Z" "$BATS_TEST_TMPDIR/zen4" 0
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/zen4" run "$PSTAT" --dry-run -j --topdown true
	assert_success
	gp_check '[]' 6 <<<"$output"
	jq_assert '.events | length == 6 and all(.group == 0 and .weak)' <<<"$output"
}

@test "weak-group fallback on synthetic readings: refused on one CPU, ungrouped on all" {
	# a PMU of 3 counters on both CPUs: the group holds
	run "$PT" weak 3,3 '{task-clock,context-switches,page-faults}:W'
	assert_success
	refute_output --partial ungrouped
	assert_line 'context-switches cpu1: 201 1000 1000'
	# CPU 1 holds 2: the group is reopened ungrouped on CPU 0 too, each
	# event read on its own, CPU 1's three sharing its two counters
	run "$PT" weak 3,2 '{task-clock,context-switches,page-faults}:W'
	assert_success
	assert_output - <<'EOF'
task-clock cpu0: 100 1000 1000 ungrouped
task-clock cpu1: 101 1000 666 ungrouped
context-switches cpu0: 200 1000 1000 ungrouped
context-switches cpu1: 201 1000 666 ungrouped
page-faults cpu0: 300 1000 1000 ungrouped
page-faults cpu1: 301 1000 666 ungrouped
EOF
	# only the refused group falls back
	run "$PT" weak 3,2 '{task-clock,context-switches}:W,{page-faults,cpu-migrations,minor-faults}:W'
	assert_success
	assert_line 'task-clock cpu1: 101 1000 500'
	assert_line 'minor-faults cpu1: 501 1000 500 ungrouped'
	[ "$(grep -c ungrouped <<<"$output")" = 6 ]
	# a group without :W that the PMU cannot hold (its third member
	# opens alone) is closed on every CPU and not counted, as perf
	# runs it (issue 30); the member refused is marked
	run "$PT" weak 2,2 '{task-clock,context-switches,page-faults}'
	assert_success
	assert_output - <<'EOF'
task-clock cpu0: 0 0 0 group-full
task-clock cpu1: 0 0 0 group-full
context-switches cpu0: 0 0 0 group-full
context-switches cpu1: 0 0 0 group-full
page-faults cpu0: 0 0 0 group-full refused
page-faults cpu1: 0 0 0 group-full refused
EOF
	# the other groups count on
	run "$PT" weak 2,2 '{task-clock,context-switches},{page-faults,cpu-migrations,minor-faults}'
	assert_success
	assert_line 'task-clock cpu1: 101 1000 1000'
	assert_line 'minor-faults cpu0: 0 0 0 group-full refused'
}

# Attached, a thread's lone software events are one group pstat made
# (issue 22): weak like :W, and when refused opened on their own, with
# no event saying so (no one grouped them).
@test "a task's group of lone events: read together, refused, each on its own unmarked" {
	run "$PT" weak task:3 'task-clock,context-switches,page-faults'
	assert_success
	assert_output - <<'EOF'
task-clock cpu0: 100 1000 1000
context-switches cpu0: 200 1000 1000
page-faults cpu0: 300 1000 1000
EOF
	# a PMU of 2 refuses the third member: three counters sharing two
	run "$PT" weak task:2 'task-clock,context-switches,page-faults'
	assert_success
	assert_output - <<'EOF'
task-clock cpu0: 100 1000 666
context-switches cpu0: 200 1000 666
page-faults cpu0: 300 1000 666
EOF
	# the user's {...}:W is said to be ungrouped, as on CPUs
	run "$PT" weak task:2 '{task-clock,context-switches,page-faults}:W'
	assert_success
	[ "$(grep -c ungrouped <<<"$output")" = 3 ]
}

@test "live: a refused weak group counts on ungrouped, exact, and its metric is marked" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	local so w
	so=$(refusing_preload) || skip "cannot build a preload library"
	w=$(prog writer)
	# every group member refused with EINVAL, as a PMU too small for it
	FAKE_MEMBER_ERRNO=22 LD_PRELOAD=$so run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/f.json" \
		--metric "$WPM" "$w" 600
	assert_success
	validate_json "$BATS_TEST_TMPDIR/f.json"
	jq_assert '(.counters | map({(.event): .}) | add) as $c |
		$c["syscalls:sys_enter_write"].value == 600 and
		$c["task-clock"].value > 0 and
		(.metrics[0] | .multiplexed == true and
		 ((.value - 600 / $c["task-clock"].value) | fabs) < 1e-9)' \
		"$BATS_TEST_TMPDIR/f.json"
	FAKE_MEMBER_ERRNO=22 LD_PRELOAD=$so run "$PSTAT" -v --metric "$WPM" "$w" 600
	assert_success
	assert_line --regexp '^ +600 +syscalls:sys_enter_write'
	assert_output --regexp '# .* writes_per_ms .*\(from multiplexed counts\)'
	assert_line "pstat: the kernel refused the weak group of 'syscalls:sys_enter_write' (2 events): counted ungrouped"
	# counting every CPU: each CPU's group closed and reopened
	FAKE_MEMBER_ERRNO=22 LD_PRELOAD=$so run "$PSTAT" -a -x, --metric "$WPM" "$w" 600
	if [ "$status" = 125 ] && grep -q 'perf_event_paranoid' <<<"$output"; then
		skip "cannot count CPU-wide here"
	fi
	assert_success
	# the writer's 600 writes, and any other process's meanwhile
	awk -F, '$3 == "syscalls:sys_enter_write" && $1 >= 600 { ok = 1 }
		END { exit !ok }' <<<"$output"
	# without the shim, the group holds: not marked
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/g.json" --metric "$WPM" "$w" 600
	assert_success
	jq_assert '.metrics[0].multiplexed == false' "$BATS_TEST_TMPDIR/g.json"
}

@test "live: a user group the kernel refuses is not counted, named; with :W it counts" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	local so w
	so=$(refusing_preload) || skip "cannot build a preload library"
	w=$(prog writer)
	# the member opens alone: the group is more than the PMU holds, so
	# the run goes on, the group <not counted> and named (issue 30)
	FAKE_MEMBER_ERRNO=22 LD_PRELOAD=$so run "$PSTAT" -x, -o "$BATS_TEST_TMPDIR/g.csv" \
		-e '{task-clock,syscalls:sys_enter_write}' "$w" 10
	assert_success
	assert_line --index 0 "pstat: warning: the group {task-clock,syscalls:sys_enter_write} cannot be counted: the kernel refused its member 2, syscalls:sys_enter_write (Invalid argument), which counts on its own: tracepoint holds at most 1 of the group's events at once; they are <not counted>"
	assert_line --index 1 --partial 'add :W'
	run cat "$BATS_TEST_TMPDIR/g.csv"
	assert_line '<not counted>,,syscalls:sys_enter_write,0,100.00,,'
	FAKE_MEMBER_ERRNO=22 LD_PRELOAD=$so run "$PSTAT" -x, -e '{task-clock,syscalls:sys_enter_write}:W' "$w" 10
	assert_success
	assert_line --regexp '^10,,syscalls:sys_enter_write,'
	# an errno that is no group refusal stays an error
	FAKE_MEMBER_ERRNO=13 LD_PRELOAD=$so run "$PSTAT" -e '{task-clock,syscalls:sys_enter_write}:W' "$w" 10
	assert_failure 125
	assert_line --index 0 --partial "pstat: cannot open event 'syscalls:sys_enter_write'"
}

@test "--metric errors: a caret under the column, an unknown event, exit 125" {
	run "$PSTAT" --metric 'x = task-clock +* 2' true
	assert_failure 125
	assert_line --index 0 "pstat: invalid --metric 'x = task-clock +* 2': unexpected '*': expected a number, a name or '('"
	assert_line --index 1 "pstat: hint: x = task-clock +* 2"
	# the caret under the '*': 13 columns of "pstat: hint: " and 16
	assert_line --index 2 "$(printf '%29s^' '')"
	run "$PSTAT" --metric 'x = no-such-event / task-clock' true
	assert_failure 125
	assert_line --index 0 --partial "pstat: metric 'x': "
	assert_line --index 0 --partial "no-such-event"
	run "$PSTAT" -M no_such_metric true
	assert_failure 125
	assert_output --partial "unknown metric or metric group 'no_such_metric'"
	# known, for other PMUs
	PSTAT_SYSFS_ROOT="$SYSFS/vm-nopmu" run "$PSTAT" -M ipc true
	assert_failure 125
	assert_output --partial "'ipc' is not available here: its events are not among this machine's PMUs"
}

# Live: writes counted by a tracepoint over task-clock.
WPM='writes_per_ms = syscalls:sys_enter_write / task-clock'

@test "live: --metric in the table, after its first event" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	run "$PSTAT" --metric "$WPM" "$w" 1000
	assert_success
	writes=$(value_of syscalls:sys_enter_write <<<"$output")
	[ "$writes" = 1000 ]
	msec=$(awk '/ msec task-clock/ { print $1 }' <<<"$output")
	got=$(awk '/# .* writes_per_ms/ { print $2 }' <<<"$output")
	want=$(awk -v w=$writes -v t=$msec 'BEGIN { printf "%.3f", w / t }')
	# task-clock is printed with 2 decimals: allow for its rounding
	awk -v g="$got" -v w="$want" -v t="$msec" 'BEGIN { d = (g - w) / w; if (d < 0) d = -d; exit !(g > 0 && d < 0.0051 / t + 0.001) }'
	# the metric's line follows the tracepoint's
	grep -A1 'syscalls:sys_enter_write' <<<"$output" | grep -q 'writes_per_ms'
}

@test "live: a division by zero is no value, never inf, in table and JSON" {
	need_perf_events
	run "$PSTAT" --metric 'zero = task-clock / (task-clock - task-clock)' true
	assert_success
	assert_output --regexp '# +- zero .*\(no value: division by zero\)'
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/z.json" \
		--metric 'zero = task-clock / (task-clock - task-clock)' true
	assert_success
	validate_json "$BATS_TEST_TMPDIR/z.json"
	jq_assert '.metrics[0] | .value == null and .why == "division by zero"' "$BATS_TEST_TMPDIR/z.json"
}

@test "live: --metric in CSV, a line of the same fields after its event" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	run "$PSTAT" -x, --metric "$WPM" "$w" 500
	assert_success
	line=$(grep ',writes_per_ms$' <<<"$output")
	row=$(grep ',syscalls:sys_enter_write,' <<<"$output")
	[ "$(awk -F, '{ print NF }' <<<"$line")" = "$(awk -F, '{ print NF }' <<<"$row")" ]
	msec=$(awk -F, '$3 == "task-clock" { print $1 }' <<<"$output")
	awk -F, -v t="$msec" '{ d = ($6 - 500 / t) / (500 / t); if (d < 0) d = -d; exit !(d < 0.0051 / t + 0.001) }' <<<"$line"
}

@test "live: --metric in JSON: value, expr, inputs; valid against the schema" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/m.json" --metric "$WPM; higher = yes" "$w" 700
	assert_success
	validate_json "$BATS_TEST_TMPDIR/m.json"
	jq_assert '
		(.counters | map({(.event): .value}) | add) as $c |
		.metrics[0] | .name == "writes_per_ms" and
		.expr == "syscalls:sys_enter_write / task-clock" and
		.inputs == ["syscalls:sys_enter_write", "task-clock"] and
		.higher_is_better == true and .multiplexed == false and
		.group == null and .why == null and
		((.value - $c["syscalls:sys_enter_write"] / $c["task-clock"]) | fabs) < 1e-9' \
		"$BATS_TEST_TMPDIR/m.json"
}

@test "live: -r 3 gives a metric its per-run samples and statistics" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	run "$PSTAT" -j -r 3 -o "$BATS_TEST_TMPDIR/r.json" --metric "$WPM" "$w" 300
	assert_success
	validate_json "$BATS_TEST_TMPDIR/r.json"
	jq_assert '.metrics[0] | (.samples | length) == 3 and
		(.samples | all(. > 0)) and .min <= .median and
		.median <= .max and .mean > 0' "$BATS_TEST_TMPDIR/r.json"
	run "$PSTAT" -r 3 --metric "$WPM" "$w" 300
	assert_success
	assert_output --regexp '# +[0-9.]+ writes_per_ms'
}

@test "live: -I gives each interval its metric value" {
	need_perf_events
	s=$(prog spinner)
	run "$PSTAT" -j -I 100 --interval-count 3 -o "$BATS_TEST_TMPDIR/i.json" \
		--metric 'busy = task-clock / (duration_time * 1000)' "$s" 1 2000
	assert_success
	validate_json "$BATS_TEST_TMPDIR/i.json"
	[ "$(grep -c '"type":"interval"' "$BATS_TEST_TMPDIR/i.json")" = 3 ]
	# a number, or null with why when the spinner got no CPU then
	jq_assert -s 'map(select(.type == "interval")) |
		all(.metrics[0].name == "busy" and
		    ((.metrics[0].value | type) == "number" or .metrics[0].why != null)) and
		any(.[]; (.metrics[0].value | type) == "number")' \
		"$BATS_TEST_TMPDIR/i.json"
	run "$PSTAT" -I 100 --interval-count 2 \
		--metric 'busy = task-clock / (duration_time * 1000)' "$s" 1 2000
	assert_success
	[ "$(grep -cE '^ +[0-9]+\.[0-9]+ +# +([0-9.]+|-) busy' <<<"$output")" = 2 ]
}

@test "live: --metric-only in the table, CSV and JSON" {
	need_perf_events
	run "$PSTAT" --metric-only --metric 'a = task-clock / task-clock' \
		--metric 'b = 2 * task-clock / task-clock' true
	assert_success
	assert_line --regexp '^ +a +b$'
	assert_line --regexp '^ +1\.000 +2\.000$'
	refute_output --partial 'msec task-clock'
	run "$PSTAT" -x';' --metric-only --metric 'a = task-clock / task-clock' \
		--metric 'b = 2 * task-clock / task-clock' true
	assert_success
	assert_line 'a;b'
	assert_line '1.000;2.000'
	run "$PSTAT" -j -o "$BATS_TEST_TMPDIR/mo.json" --metric-only \
		--metric 'a = task-clock / task-clock' true
	assert_success
	validate_json "$BATS_TEST_TMPDIR/mo.json"
	jq_assert '.counters == [] and .metrics[0].value == 1' "$BATS_TEST_TMPDIR/mo.json"
}

@test "live: -M cpus_utilized from the library, and TopdownL1 among others" {
	need_perf_events
	run "$PSTAT" -M cpus_utilized true
	assert_success
	assert_output --regexp '# +[0-9.]+ CPUs cpus_utilized'
	run "$PSTAT" -M TopdownL1,cpus_utilized true
	if [ -e /sys/bus/event_source/devices/cpu/events/topdown-retiring ]; then
		skip "this machine counts top-down"
	fi
	assert_success
	assert_output --regexp 'frontend_bound +\(no value: '
	assert_output --regexp '# +[0-9.]+ CPUs cpus_utilized'
}

@test "live: --metrics-file, comments and blank lines; errors name the line" {
	need_perf_events
	f="$BATS_TEST_TMPDIR/m.metrics"
	printf '# my metrics\n\ntwice = 2 * task-clock / task-clock ; unit = x\n' >"$f"
	run "$PSTAT" --metrics-file "$f" true
	assert_success
	assert_output --regexp '# +2\.000 x twice'
	printf 'ok = 1\nbad = 1 +\n' >"$f"
	run "$PSTAT" --metrics-file "$f" true
	assert_failure 125
	assert_output --partial "m.metrics:2:10: unexpected end of the expression"
	run "$PSTAT" --metrics-file "$BATS_TEST_TMPDIR/none" true
	assert_failure 125
	assert_output --partial "cannot read metrics file"
}

@test "list metrics: what this machine or tree supports, with formulas" {
	run "$PSTAT" list metrics
	assert_success
	assert_line --regexp '^  cpus_utilized +task-clock / \(duration_time \* 1000\)'
	PSTAT_SYSFS_ROOT="$MFIX/intel-spr" run "$PSTAT" list --names metrics
	assert_success
	assert_line TopdownL1
	assert_line TopdownL2
	assert_line memory_bound
	PSTAT_SYSFS_ROOT="$SYSFS/arm64-neoverse" run "$PSTAT" list metrics
	assert_success
	assert_line --regexp '^  l1d_mpki +l1d_cache_refill / inst_retired \* 1000'
	assert_output --partial "no top-down analysis here: the PMU armv8_pmuv3_0 has no stall_slot_frontend"
}

@test "list metrics -j: valid, every formula of every tree parses" {
	for tree in "$SYSFS/intel-skylake" "$SYSFS/amd-zen3" "$SYSFS/arm64-neoverse" \
	    "$SYSFS/vm-nopmu" "$MFIX/intel-spr" "$MFIX/arm-neoverse-v2" \
	    "$FIX/intel-alderlake" "$FIX/intel-arrowlake-h" "$FIX/intel-sapphirerapids-2s" "$FIX/arm64-rk3399" \
	    "$FIX/amd-zen4" "$FIX/amd-zen5" "$FIX"/cpus/*; do
		PSTAT_SYSFS_ROOT="$tree" run "$PSTAT" list -j metrics
		assert_success
		echo "$output" >"$BATS_TEST_TMPDIR/l.json"
		validate_json "$BATS_TEST_TMPDIR/l.json" "$ROOT/schema/pstat-metrics.schema.json"
		# an entry that failed to parse would show its error as expr;
		# every hand-written one says its direction, for pstat
		# compare (the vendors' say it where it is clear)
		jq_assert '.metrics | length > 0 and
			all(.expr | test("^(unexpected|invalid|expected)") | not) and
			all(.[] | select(.source | test("^(Intel perfmon|Arm telemetry-solution)") | not);
			    .higher_is_better != null)' \
			"$BATS_TEST_TMPDIR/l.json"
		# each hand-written one is documented in pstat(1); the
		# vendor's by pstat list metrics, in the vendor's words
		for n in $(jq -r '.metrics[] | select(.source | test("^(Intel perfmon|Arm telemetry-solution)") | not) | .name' \
		    "$BATS_TEST_TMPDIR/l.json"); do
			grep -q "^\.It Li $n Pq" "$ROOT/man/pstat.1" ||
				{ echo "$n is not in pstat.1" >&2; return 1; }
		done
	done
	PSTAT_SYSFS_ROOT="$MFIX/intel-spr" run "$PSTAT" list -j metrics
	jq_assert '.topdown == {"levels": 2, "why_not": null}' <<<"$output"
	# Skylake's level 2 lists its raw encodings and Intel's TMA as source
	PSTAT_SYSFS_ROOT="$SKL" run "$PSTAT" list -j metrics
	jq_assert '.topdown == {"levels": 2, "why_not": null} and
		(.metrics | map(select(.group == "TopdownL2")) | length == 8 and
		 all(.source | test("Intel perfmon SKL and SKX metrics"))) and
		(.metrics[] | select(.name == "fetch_latency") | .expr ==
		 "#slots * cpu@event=0x9c,umask=0x1,cmask=4@ / topdown-total-slots")' \
		<<<"$output"
}

@test "compare: metrics are compared in their own direction, with -r samples" {
	need_perf_events
	need_tracepoint syscalls/sys_enter_write
	w=$(prog writer)
	b="$BATS_TEST_TMPDIR/base.json"
	run "$PSTAT" -j -r 3 -o "$b" --metric "$WPM; higher = yes" \
		--metric 'tc = task-clock / task-clock' "$w" 300
	assert_success
	# the same run against itself: unchanged
	run "$PSTAT" compare "$b" "$b"
	assert_success
	assert_line --regexp '^writes_per_ms +.* unchanged$'
	# half the writes per ms: worse, as higher is better (the samples
	# made equal first: on a loaded machine three runs' task-clock may
	# spread so far that half the rate is only "within noise")
	jq '.metrics |= map(if .name == "writes_per_ms" then
		.mean as $m | .samples |= map($m) | .stddev = 0 else . end)' \
		"$b" >"$BATS_TEST_TMPDIR/steady.json"
	jq '.metrics |= map(if .name == "writes_per_ms" then
		.value /= 2 | .samples |= map(. / 2) | .mean /= 2 else . end)' \
		"$BATS_TEST_TMPDIR/steady.json" >"$BATS_TEST_TMPDIR/worse.json"
	run "$PSTAT" compare "$BATS_TEST_TMPDIR/steady.json" "$BATS_TEST_TMPDIR/worse.json"
	assert_failure 3
	assert_line --regexp '^writes_per_ms +.* regressed( \(limit 5%\))?$'
	# a metric without a direction is lower-is-better, as a counter
	jq '.metrics |= map(if .name == "tc" then
		.value /= 2 | .samples |= map(. / 2) else . end)' \
		"$b" >"$BATS_TEST_TMPDIR/less.json"
	run "$PSTAT" compare --format json "$b" "$BATS_TEST_TMPDIR/less.json"
	assert_success
	jq_assert '.entries | map(select(.name == "tc")) | .[0].verdict == "improved"' <<<"$output"
	# --threshold by the metric's name
	run "$PSTAT" compare --threshold 'writes_per_ms=60%' "$BATS_TEST_TMPDIR/steady.json" "$BATS_TEST_TMPDIR/worse.json"
	assert_success
	assert_line --regexp '^writes_per_ms +.* unchanged$'
}

@test "--dry-run: slots moved to lead a user's group of topdown events" {
	PSTAT_SYSFS_ROOT="$MFIX/intel-spr" run "$PSTAT" --dry-run \
		-e '{cpu/topdown-retiring/,cpu/topdown-fe-bound/,cpu/slots/}'
	assert_success
	assert_line --index 0 "cpu/slots/: resolver sysfs, pmu cpu, group 0 (leader)"
	assert_line "cpu/topdown-retiring/: resolver sysfs, pmu cpu, group 0"
	# not without a topdown event in the group
	PSTAT_SYSFS_ROOT="$MFIX/intel-spr" run "$PSTAT" --dry-run \
		-e '{cpu-cycles,cpu/slots/}'
	assert_success
	assert_line --index 0 --regexp "^cpu-cycles: .*, group 0 \\(leader\\)$"
}

@test "hybrid --topdown: cpu_core's slots group, cpu_atom's own level 1" {
	PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" run "$PSTAT" --dry-run --topdown
	assert_success
	assert_line "cpu_core/slots/: resolver sysfs, pmu cpu_core, group 0 (leader)"
	assert_line "cpu_atom/topdown-fe-bound/: resolver sysfs, pmu cpu_atom, group 1 (leader)"
	local fe=10 bs=20 re=30 be=40
	run "$PT" metric-eval "$FIX/intel-alderlake -M TopdownL1 cpu_atom/topdown-fe-bound/=$fe cpu_atom/topdown-bad-spec/=$bs cpu_atom/topdown-retiring/=$re cpu_atom/topdown-be-bound/=$be"
	assert_success
	close_to "$(mval atom_frontend_bound)" 10
	close_to "$(mval atom_backend_bound)" 40
	sum=$(awk '$1 ~ /^atom_/ { s += $2 } END { printf "%.6f", s }' <<<"$output")
	close_to "$sum" 100
}

@test "a metric from multiplexed counts says so, through the metrics it uses" {
	run "$PT" metric-eval "- -M - --metric 'a = x / y' --metric 'b = a * 2' --metric 'c = y * 1' x=3! y=4"
	assert_success
	assert_line "a 0.750000  [multiplexed]"
	assert_line "b 1.500000  [multiplexed]"
	assert_line "c 4.000000 "
}

@test "live: -a -A gives each CPU its metric value" {
	need_cpu_wide
	run "$PSTAT" -j -a -A --timeout 100 -o "$BATS_TEST_TMPDIR/a.json" \
		--metric 'busy = cpu-clock / (duration_time * 1000)'
	assert_success
	validate_json "$BATS_TEST_TMPDIR/a.json"
	ncpu=$(jq '[.counters[] | select(.event == "cpu-clock")] | length' "$BATS_TEST_TMPDIR/a.json")
	jq_assert --argjson n "$ncpu" '(.metrics | length) == $n and
		all(.metrics[]; (.cpu | type) == "number")' "$BATS_TEST_TMPDIR/a.json"
}

@test "live: -I with --metric-only prints a line of values per interval" {
	need_perf_events
	s=$(prog spinner)
	run "$PSTAT" -I 100 --interval-count 3 --metric-only \
		--metric 'busy = task-clock / (duration_time * 1000)' "$s" 1 2000
	assert_success
	assert_line --regexp '^# +time +busy$'
	# (an interval where the spinner got no CPU has no value: -)
	[ "$(grep -cE '^ +[0-9]+\.[0-9]{9} +([0-9]+\.[0-9]{3}|-)$' <<<"$output")" = 3 ]
}

@test "constants from the tree's topology: #num_cpus, #num_cores, #num_packages, #smt_on" {
	run "$PT" metric-eval "$FIX/intel-sapphirerapids-2s -M - --metric 'c = #num_cpus' --metric 'k = #num_cores' --metric 's = #smt_on' --metric 'p = #num_packages'"
	assert_success
	# counted here from the tree's own topology files
	local d="$FIX/intel-sapphirerapids-2s/devices/system/cpu" n k p
	n=$(ls -d "$d"/cpu[0-9]* | wc -l)
	k=$(for c in "$d"/cpu[0-9]*/topology; do
		echo "$(cat "$c/physical_package_id") $(cat "$c/core_id")"
	    done | sort -u | wc -l)
	p=$(cat "$d"/cpu[0-9]*/topology/physical_package_id | sort -u | wc -l)
	close_to "$(mval c)" "$n"
	close_to "$(mval k)" "$k"
	close_to "$(mval p)" "$p"
	close_to "$(mval s)" "$(cat "$d/smt/active")"
	# a tree without topology: no value, never a guess
	run "$PT" metric-eval "$SYSFS/intel-skylake -M - --metric 'c = #num_cores'"
	assert_success
	assert_line "c none: a constant is not known on this machine"
}

@test "hybrid: -M Summary evaluates ipc once per core PMU, each PMU's events grouped apart" {
	for tree in "$FIX/intel-alderlake" "$FIX/intel-arrowlake-h"; do
		PSTAT_SYSFS_ROOT="$tree" run "$PSTAT" --dry-run -j -M Summary,Cache,Branches,TLB true
		assert_success
		echo "$output" >"$BATS_TEST_TMPDIR/d.json"
		validate_json "$BATS_TEST_TMPDIR/d.json" "$ROOT/schema/pstat-dryrun.schema.json"
		pmus=$(ls "$tree/bus/event_source/devices" | grep '^cpu_' | sort | tr '\n' ' ')
		# every core PMU counts its own instructions and cycles in one
		# group of that PMU's events (and task-clock), each event once
		for p in $pmus; do
			jq_assert --arg p "$p" '.events |
				(map(select(.name == "\($p)/instructions/")) | length == 1) and
				(map(select(.name == "\($p)/cycles/")) | length == 1) and
				(map(select(.name == "\($p)/instructions/"))[0].group ==
				 map(select(.name == "\($p)/cycles/"))[0].group)' \
				"$BATS_TEST_TMPDIR/d.json"
		done
		jq_assert '.events | map(.name) | (length == (unique | length)) and
			all(test("^(cpu_[a-z]+/|task-clock$)"))' "$BATS_TEST_TMPDIR/d.json"
		jq_assert '.events | group_by(.group) |
			all(map(select(.pmu != "software") | .pmu) | unique | length == 1)' \
			"$BATS_TEST_TMPDIR/d.json"
	done
}

@test "hybrid: a user --metric over generic events, one group per core PMU" {
	PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" run "$PSTAT" --dry-run \
		--metric 'ipc = instructions / cycles' true
	assert_success
	run groups_of
	assert_output - <<'EOF2'
cpu_atom/instructions/: group 0 (leader, weak)
cpu_atom/cycles/: group 0 (weak)
cpu_core/instructions/: group 1 (leader, weak)
cpu_core/cycles/: group 1 (weak)
EOF2
	# with a modifier; events -e counts already are read from their rows
	PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" run "$PSTAT" --dry-run \
		-e instructions:u,cycles:u --metric 'ipc = instructions:u / cycles:u' true
	assert_success
	run groups_of
	assert_output - <<'EOF2'
cpu_atom/instructions:u/: group 0 (leader)
cpu_core/instructions:u/: group 1 (leader)
cpu_atom/cycles:u/: group 2 (leader)
cpu_core/cycles:u/: group 3 (leader)
EOF2
	# a copy's name taken by another metric is refused, not shadowed
	PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" run "$PSTAT" --dry-run \
		--metric 'ipc = instructions / cycles' --metric 'ipc.cpu_core = 1' true
	assert_failure 125
	assert_output "pstat: metric 'ipc.cpu_core' is defined twice: 'ipc' counts once per core PMU, and its copy on each is named so"
	# an Arm big.LITTLE's two kinds of core alike
	PSTAT_SYSFS_ROOT="$FIX/arm64-rk3399" run "$PSTAT" --dry-run -M ipc true
	assert_success
	run groups_of
	assert_output - <<'EOF2'
armv8_cortex_a53/instructions/: group 0 (leader, weak)
armv8_cortex_a53/cycles/: group 0 (weak)
armv8_cortex_a72/instructions/: group 1 (leader, weak)
armv8_cortex_a72/cycles/: group 1 (weak)
EOF2
}

@test "hybrid: per core PMU values on synthetic counts, through the metrics that refer to them" {
	local ci=9000 cc=3000 ai=2000 ac=4000
	run "$PT" metric-eval "- -M - --metric 'ipc = instructions / cycles; threshold = ipc < 1' --metric 'twice = ipc * 2' --metric 'w = task-clock / duration_time' --per-pmu cpu_atom,cpu_core cpu_core/instructions/=$ci cpu_core/cycles/=$cc! cpu_atom/instructions/=$ai cpu_atom/cycles/=$ac task-clock=500 duration=2"
	assert_success
	assert_line "inputs: cpu_atom/instructions/ cpu_atom/cycles/ cpu_core/instructions/ cpu_core/cycles/ task-clock"
	close_to "$(mval ipc.cpu_core)" "$(awk -v i=$ci -v c=$cc 'BEGIN { printf "%.6f", i / c }')"
	close_to "$(mval ipc.cpu_atom)" "$(awk -v i=$ai -v c=$ac 'BEGIN { printf "%.6f", i / c }')"
	close_to "$(mval twice.cpu_atom)" "$(awk -v i=$ai -v c=$ac 'BEGIN { printf "%.6f", 2 * i / c }')"
	close_to "$(mval twice.cpu_core)" "$(awk -v i=$ci -v c=$cc 'BEGIN { printf "%.6f", 2 * i / c }')"
	close_to "$(mval w)" 250
	# each copy's threshold over its own value, mux from its own inputs
	assert_line --regexp '^ipc\.cpu_atom [0-9.]+ +\[crossed\]$'
	assert_line --regexp '^ipc\.cpu_core [0-9.]+ +\[multiplexed\]$'
	refute_line --regexp '^(ipc|twice) '
}

@test "-M: metric names match in any case, as group names and perf's do" {
	need_perf_events
	run "$PSTAT" -j -M CPUS_Utilized true
	assert_success
	jq_assert -e '[.metrics[].name] == ["cpus_utilized"]' <<<"$output"
	run "$PSTAT" -M nosuch true
	assert_failure 125
	assert_output --partial "unknown metric or metric group 'nosuch'"
}

@test "library: an Arm metric is offered only where each core PMU lists its events" {
	# the RK3399's Cortex-A53 and A72 implement no LL_CACHE_MISS_RD (0x37):
	# its llc_mpki is the generic one, and -M Cache works
	PSTAT_SYSFS_ROOT="$FIX/arm64-rk3399" run "$PSTAT" list metrics -j
	assert_success
	jq_assert -e '[.metrics[] | select(.name == "llc_mpki")] |
		length == 1 and (.[0].expr | test("ll_cache_miss_rd") | not)' <<<"$output"
	PSTAT_SYSFS_ROOT="$FIX/arm64-rk3399" run "$PSTAT" --dry-run -M Cache true
	assert_success
	refute_output --partial ll_cache_miss_rd
	# a tree whose cores both list it gets Arm's formula
	t="$BATS_TEST_TMPDIR/rk"
	cp -r "$FIX/arm64-rk3399" "$t"
	for c in a53 a72; do
		echo event=0x0037 >"$t/devices/armv8_cortex_$c/events/ll_cache_miss_rd"
	done
	PSTAT_SYSFS_ROOT="$t" run "$PSTAT" list metrics -j
	assert_success
	jq_assert -e '[.metrics[] | select(.name == "llc_mpki")][0].expr |
		test("ll_cache_miss_rd")' <<<"$output"
	# one core without it is enough to fall back
	rm "$t/devices/armv8_cortex_a72/events/ll_cache_miss_rd"
	PSTAT_SYSFS_ROOT="$t" run "$PSTAT" list metrics -j
	assert_success
	jq_assert -e '[.metrics[] | select(.name == "llc_mpki")][0].expr |
		test("ll_cache_miss_rd") | not' <<<"$output"
}
