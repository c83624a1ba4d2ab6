#!/usr/bin/env bats
# Arm's own analysis beyond level 1 (src/events/vendor/arm/, extracts of
# Arm's telemetry data): the stall breakdowns of the cores whose data
# has them (TopdownL2..L4, Arm's Topdown_Frontend/Topdown_Backend), the
# metric groups Arm publishes for every Neoverse (MPKI, Miss_Ratio,
# Operation_Mix, ...), under perf's names; their encodings are Arm's,
# their groups fit the counters.

load test_helper

CPUS="$FIX/cpus"
ARM="$ROOT/src/events/vendor/arm"

# The sum of the values of the metrics named.
msum() {
	local s=0 v

	for n in "$@"; do
		v=$(mval "$n")
		[ -n "$v" ] || { echo "no value of $n" >&2; return 1; }
		s=$(awk -v s="$s" -v v="$v" 'BEGIN { printf "%.6f", s + v }')
	done
	echo "$s"
}

# Synthetic stall counts (cycles) where, as Arm's events define them,
# the stalls on CPU resources and on memory make up all the frontend's
# (and the backend's) stall cycles.
stalls() {
	local p=armv8_pmuv3_0
	echo "stall_frontend=600 $p/event=0x8160/=350 $p/event=0x8158/=250" \
		"$p/event=0x8161/=200 $p/event=0x8162/=150" \
		"$p/event=0x8159/=100 $p/event=0x815b/=90 $p/event=0x815c/=60" \
		"stall_backend=900 $p/event=0x816a/=400 $p/event=0x8164/=500" \
		"$p/event=0x816d/=300 $p/event=0x816b/=450" \
		"$p/event=0x8165/=200 stall_backend_mem=150 $p/event=0x8167/=100" \
		"$p/event=0x8168/=50"
}

@test "Arm level 2 to 4: Neoverse N3 and V3 stall breakdowns, as shares of their parent's stall cycles" {
	for core in n3 v3; do
		run "$PT" metric-eval "$CPUS/arm64-neoverse-$core -M TopdownL2,TopdownL3,TopdownL4 $(stalls)"
		assert_success
		refute_output --partial 'error:'
		# level 2: core + memory = all of the parent's stall cycles
		close_to "$(mval frontend_core_bound)" "$(awk 'BEGIN { printf "%.6f", 350 / 600 * 100 }')"
		close_to "$(msum frontend_core_bound frontend_mem_bound)" 100
		close_to "$(msum backend_core_bound backend_mem_bound)" 100
		# level 3: Arm's formulas over their parent's event
		close_to "$(mval frontend_core_flush_bound)" "$(awk 'BEGIN { printf "%.6f", 150 / 350 * 100 }')"
		close_to "$(mval frontend_mem_cache_bound)" "$(awk 'BEGIN { printf "%.6f", 190 / 250 * 100 }')"
		close_to "$(mval backend_mem_cache_bound)" "$(awk 'BEGIN { printf "%.6f", 350 / 500 * 100 }')"
		close_to "$(mval backend_core_rename_bound)" 75
		# level 4: level 1 and level 2 cache, all of the cache stalls
		close_to "$(msum frontend_cache_l1i_bound frontend_cache_l2i_bound)" 100
		close_to "$(msum backend_cache_l1d_bound backend_cache_l2d_bound)" 100
		# backend_busy_bound: in Arm's Topdown_Backend group, in no level
		refute_output --partial backend_busy_bound
	done
	run "$PT" metric-eval "$CPUS/arm64-neoverse-v3 -M Topdown_Backend $(stalls)"
	assert_success
	close_to "$(mval backend_busy_bound)" 50
	close_to "$(mval backend_mem_store_bound)" 10
	refute_output --partial frontend_
}

@test "Arm: --td-level 4 on N3 and V3; N2, V1 and V2 have level 1 only, and --td-level 2 says so" {
	for core in n3 v3; do
		PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-$core" run "$ROOT/pstat" --td-level 4 --dry-run true
		assert_success
		assert_line --partial 'armv8_pmuv3_0/event=0x8160/: resolver sysfs'
		PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-$core" run "$ROOT/pstat" --td-level 5 --dry-run true
		assert_failure 125
		assert_output --partial "cannot count TopdownL5 here: Arm's telemetry data for this core has 4 top-down levels"
	done
	for core in n2-r0p0 n2-r0p3 v1 v2; do
		PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-$core" run "$ROOT/pstat" --td-level 2 --dry-run true
		assert_failure 125
		assert_output --partial "cannot count TopdownL2 here: Arm's telemetry data for this core has 1 top-down level; its next stage is metric groups (Cycle_Accounting, MPKI, Miss_Ratio, Operation_Mix"
		PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-$core" run "$ROOT/pstat" --td-level 1 --dry-run true
		assert_success
	done
	# perf's Default is level 1 alone
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-v3" run "$ROOT/pstat" -M Default --dry-run true
	assert_success
	refute_output --partial 'event=0x8160'
}

@test "Arm metric groups: perf's names, in pstat list metrics, taken by -M on every Neoverse" {
	for core in n2-r0p0 n2-r0p3 v1 v2 n3 v3; do
		T="$CPUS/arm64-neoverse-$core"
		f=$(ls "$ARM"/neoverse-"${core%-r0p0}".json 2>/dev/null || echo "$ARM/neoverse-$core.json")
		[ "$core" = n2-r0p0 ] && f="$ARM/neoverse-n2-r0p0.json"
		PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics --names
		assert_success
		# every group of Arm's file (Topdown_L1 spelled TopdownL1), every metric
		for g in $(jq -r '.groups.metrics | keys[]' "$f" | sed 's/^Topdown_L1$/TopdownL1/'); do
			assert_line "$g"
		done
		for m in $(jq -r '.metrics | keys[]' "$f"); do
			assert_line "$m"
		done
		# a metric of two groups is listed under its first, and says the other
		PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics
		assert_line --regexp '^  branch_mpki +inst_retired|^  branch_mpki +br_mis_pred_retired / inst_retired \* 1000  in MPKI$'
		assert_line --regexp '^ +also in Branch_Effectiveness$'
		PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list -j metrics
		assert_success
		jq_assert '[.metrics[] | select(.name == "branch_mpki")] | length == 1 and .[0].group == "MPKI;Branch_Effectiveness"' <<<"$output"
	done
	# -M by group and by name, any case, on synthetic counts
	run "$PT" metric-eval "$CPUS/arm64-neoverse-n2-r0p3 -M mpki,Branch_Effectiveness,ipc inst_retired=20000 cpu_cycles=10000 br_mis_pred_retired=30 br_retired=3000 itlb_walk=2 dtlb_walk=4 l1i_tlb_refill=6 l1d_tlb_refill=8 l2d_tlb_refill=10 l1i_cache_refill=12 l1d_cache_refill=14 l2d_cache_refill=16 ll_cache_miss_rd=18"
	assert_success
	close_to "$(mval branch_mpki)" 1.5
	close_to "$(mval branch_misprediction_ratio)" 0.01
	close_to "$(mval ll_cache_read_mpki)" 0.9
	close_to "$(mval ipc)" 2
	[ "$(grep -c '^branch_mpki ' <<<"$output")" = 1 ]
	[ "$(awk '$3 == "MPKI"' <<<"$output" | wc -l)" = 10 ]
	# Arm's ipc replaces pstat's generic one, in its groups too
	run "$PT" metric-eval "$CPUS/arm64-neoverse-v2 -M Summary inst_retired=3000 cpu_cycles=1000"
	assert_success
	close_to "$(mval ipc)" 3
	[ "$(grep -c '^ipc ' <<<"$output")" = 1 ]
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-v2" run "$ROOT/pstat" list -j metrics
	jq_assert '[.metrics[] | select(.name == "ipc")] | length == 1 and (.[0].group == "General;Summary") and (.[0].expr == "inst_retired / cpu_cycles")' <<<"$output"
	# a group this core's data lacks: known elsewhere, not here
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p3" run "$ROOT/pstat" -M Topdown_Frontend --dry-run true
	assert_failure 125
	assert_output --partial "'Topdown_Frontend' is not available here"
}

# Every event of every Arm metric of core TREE (extract FILE) counted in
# --dry-run with Arm's code, nothing else (on PMU P, when given); no
# group over the counters, or over two PMUs.
check_core() {
	local T="$1" f="$ARM/$2" p="${3:-}" groups want got
	groups=$(jq -r '[.groups.metrics | keys[] | sub("^Topdown_L1$"; "TopdownL1")] | join(",")' "$f")
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --dry-run -M "$groups" true
	assert_success
	want=$(jq -r '. as $d | [.metrics[].events[]] | unique[] | $d.events[.].code' "$f" |
		while read -r c; do printf '0x%x\n' "$c"; done | sort -u)
	got=$(awk -v p="$p" '/resolver/ { on = p == "" || index($0, "pmu " p ",") }
		on && /^  type [0-9]+ config/ { print $4 }' <<<"$output" | sort -u)
	[ "$want" = "$got" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
	# the group of each event: at most six counters besides the cycle
	# counter, all on one PMU
	awk '/resolver/ { g = $0; sub(/.*group /, "", g); sub(/ .*/, "", g); cur = g
	                  q = $0; sub(/.*pmu /, "", q); sub(/,.*/, "", q)
	                  if (g in pmu && pmu[g] != q) { print "group " g " on two PMUs"; bad = 1 }
	                  pmu[g] = q }
	     /^  type [0-9]+ config/ { n[cur]++; if ($4 != "0x11") gp[cur]++ }
	     END { for (g in n) if (gp[g] > 6 || n[g] > 7) { print "group " g ": " n[g]; bad = 1 }
	           exit bad }' <<<"$output"
}

@test "Arm encodings: every event of Arm's metrics counts with the code of Arm's data, in groups within the six counters" {
	for core in n2-r0p0 n2-r0p3 v1 v2 n3 v3; do
		check_core "$CPUS/arm64-neoverse-$core" "neoverse-$core.json"
	done
	check_core "$CPUS/arm64-lumex" c1-pro.json armv8_c1_pro
	check_core "$CPUS/arm64-lumex" c1-premium.json armv8_c1_premium
	check_core "$CPUS/arm64-lumex" c1-ultra.json armv8_c1_ultra
	# the extracts' codes are ARM-software/data's where it has the event
	for f in "$ARM"/neoverse-*.json; do
		d="$ARM/data/$(basename "$f" | sed 's/-r0p[03]//')"
		run jq -n --slurpfile x "$f" --slurpfile d "$d" '
			($d[0].events | map({(.name): .code}) | add) as $c |
			[$x[0].events | to_entries[] | select($c[.key] != null) |
			 select(($c[.key]) != (.value.code | ltrimstr("0x") | ascii_downcase |
				explode | reduce .[] as $h (0; . * 16 + (if $h >= 97 then $h - 87 else $h - 48 end))))] | length'
		assert_success
		assert_output 0
	done
}

@test "Arm extracts: Arm's data unchanged, with its licence, the commit named" {
	for f in "$ARM"/c1-*.json; do
		jq_assert '.extracted_from.commit == "af9cce786916a002c32d434fc66d17dbadfebd02" and (.document.license == "Apache-2.0") and (.metrics | length > 100)' <"$f"
	done
	grep -q 'af9cce786916' "$ARM/README"
	for f in "$ARM"/neoverse-*.json; do
		jq_assert '.extracted_from.commit == "58986297938ea90ee5aa2aa98565bff495ee1a81" and (.document.license == "Apache-2.0") and (.metrics | length > 30) and (.methodologies.topdown_methodology.decision_tree.root_nodes | length == 4)' <"$f"
	done
	grep -q 'Apache License' "$ARM/LICENSE"
	grep -q '58986297938e' "$ARM/README"
}

# Level-1 counts on core PMU P: C cycles, B mispredicts, the slot stalls
# (STALL_SLOT = frontend + backend), ops speculated and retired.
pmu_counts() {
	local p=$1
	echo "$p/cpu_cycles/=$2 $p/br_mis_pred/=$3 $p/stall_slot_frontend/=$4" \
		"$p/stall_slot_backend/=$5 $p/stall_slot/=$(($4 + $5))" \
		"$p/op_spec/=$6 $p/op_retired/=$7"
}

@test "big.LITTLE: each core PMU's metrics by the MIDR of its CPUs, NAME.pmu copies, -M NAME takes all" {
	local T="$CPUS/arm64-dynamiq"
	# CPU 0 is a Cortex-A510, which Arm's data does not describe; the
	# N2 and V2 PMUs' CPUs are what their tables are chosen by
	[ "$(cat "$T/devices/system/cpu/cpu0/regs/identification/midr_el1")" = 0x00000000411fd461 ]
	[ "$(cat "$T/bus/event_source/devices/armv9_neoverse_n2/cpus")" = 4-5 ]
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics --names
	assert_success
	assert_line frontend_bound.armv9_neoverse_n2
	assert_line frontend_bound.armv8_neoverse_v2
	assert_line TopdownL1
	refute_line --partial armv9_cortex_a510
	refute_line frontend_bound
	# each copy is its core's formula (five slots a cycle on N2 r0p3,
	# eight on V2), on its own PMU
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics
	assert_line '  frontend_bound.armv9_neoverse_n2 100 * (armv9_neoverse_n2@stall_slot_frontend@ / (armv9_neoverse_n2@cpu_cycles@ * 5) - armv9_neoverse_n2@br_mis_pred@ / armv9_neoverse_n2@cpu_cycles@)  in %'
	assert_line '  frontend_bound.armv8_neoverse_v2 100 * (armv8_neoverse_v2@stall_slot_frontend@ / (armv8_neoverse_v2@cpu_cycles@ * 8) - armv8_neoverse_v2@br_mis_pred@ / armv8_neoverse_v2@cpu_cycles@)  in %'
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '.topdown.levels == 1 and ([.metrics[] | select(.name | startswith("retiring."))] | length == 2)' <<<"$output"
	# synthetic counts: each copy its core's value, each summing to 100
	local c=1000 b=10 f=2500 k=1500 s=3000 r=2400
	run "$PT" metric-eval "$T -M TopdownL1 $(pmu_counts armv9_neoverse_n2 $c $b $f $k $s $r) $(pmu_counts armv8_neoverse_v2 $c $b $f $k $s $r)"
	assert_success
	close_to "$(mval frontend_bound.armv9_neoverse_n2)" "$(awk "BEGIN { printf \"%.6f\", 100 * ($f / (5 * $c) - $b / $c) }")"
	close_to "$(mval frontend_bound.armv8_neoverse_v2)" "$(awk "BEGIN { printf \"%.6f\", 100 * ($f / (8 * $c) - $b / $c) }")"
	for p in armv9_neoverse_n2 armv8_neoverse_v2; do
		close_to "$(msum frontend_bound.$p bad_speculation.$p backend_bound.$p retiring.$p)" 100
	done
	# -M NAME: every copy; -M NAME.pmu: that one
	run "$PT" metric-eval "$T -M ipc inst_retired=1"
	assert_success
	assert_line --regexp '^ipc\.armv9_neoverse_n2 '
	assert_line --regexp '^ipc\.armv8_neoverse_v2 '
	# (and pstat's generic one, for the Cortex-A510: see below)
	assert_line --regexp '^ipc '
	[ "$(grep -c '^ipc' <<<"$output")" = 3 ]
	run "$PT" metric-eval "$T -M retiring.armv8_neoverse_v2 inst_retired=1"
	assert_success
	[ "$(grep -c '^retiring' <<<"$output")" = 1 ]
	assert_line --regexp '^retiring\.armv8_neoverse_v2 '
}

@test "big.LITTLE: a kind of core without Arm's data keeps pstat's generic metric of a name Arm's data redefines, the others Arm's" {
	local T="$CPUS/arm64-dynamiq" a=armv9_cortex_a510 n=armv9_neoverse_n2 v=armv8_neoverse_v2
	# ipc: Arm's (inst_retired / cpu_cycles) on N2 and V2, pstat's
	# (instructions / cycles) on the A510, each on its own PMU's counts
	run "$PT" metric-eval "$T -M ipc --metric 'twice = ipc * 2' --per-pmu $a,$v,$n $a/instructions/=3000 $a/cycles/=2000 $v/instructions/=1 $v/cycles/=1 $n/instructions/=1 $n/cycles/=1 $n/inst_retired/=5000 $n/cpu_cycles/=2000 $v/inst_retired/=8000 $v/cpu_cycles/=2000"
	assert_success
	close_to "$(mval ipc.$a)" 1.5
	close_to "$(mval ipc.$n)" 2.5
	close_to "$(mval ipc.$v)" 4
	[ "$(grep -c '^ipc' <<<"$output")" = 3 ]
	assert_line --regexp "^ipc\.$a [0-9.]+ insn/cycle$"
	assert_line --regexp "^ipc\.$n [0-9.]+ per cycle$"
	# a metric over ipc reads each core's own
	close_to "$(mval twice.$a)" 3
	close_to "$(mval twice.$n)" 5
	close_to "$(mval twice.$v)" 8
	# as pstat counts it: each PMU's events, in groups on that PMU
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --dry-run -M ipc true
	assert_success
	assert_line "$a/instructions/: resolver generic, pmu $a, group 2 (leader, weak)"
	assert_line "$a/cycles/: resolver generic, pmu $a, group 2 (weak)"
	assert_line --regexp "^$n/inst_retired/: resolver sysfs, pmu $n, group [01] "
	refute_line --regexp "^$n/instructions/"
	[ "$(grep -c resolver <<<"$output")" = 6 ]
	# pstat list metrics says which cores pstat's is for
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics
	assert_success
	assert_line --regexp "^  ipc +instructions / cycles  in insn/cycle$"
	assert_line --regexp "^ +on $a \(not in Arm's data; the other cores: Arm's ipc\.<pmu>\)$"
	# -M Summary too: Arm's ipc joined the group on N2 and V2
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --dry-run -M Summary true
	assert_success
	assert_line --partial "$a/instructions/: resolver generic"
	# dtlb_mpki: a kernel that lists the A510's dtlb_walk (a real A510
	# has DTLB_WALK; the tree's A510 lists Armv8.0's events only) gives
	# it pstat's, split per PMU as the others' copies are
	cp -r "$T" "$BATS_TEST_TMPDIR/dq"
	echo event=0x0034 >"$BATS_TEST_TMPDIR/dq/devices/$a/events/dtlb_walk"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/dq" run "$ROOT/pstat" --dry-run -M dtlb_mpki true
	assert_success
	for p in $a $n $v; do
		assert_line --regexp "^$p/dtlb_walk/: resolver sysfs, pmu $p, group [0-2] \(leader, weak\)$"
		assert_line --regexp "^$p/inst_retired/: resolver sysfs, pmu $p, group [0-2] \(weak\)$"
	done
	[ "$(grep -c resolver <<<"$output")" = 6 ]
	run "$PT" metric-eval "$BATS_TEST_TMPDIR/dq -M dtlb_mpki --per-pmu $a,$v,$n $a/dtlb_walk/=30 $a/inst_retired/=10000 $v/dtlb_walk/=1 $v/inst_retired/=1 $n/dtlb_walk/=1 $n/inst_retired/=1"
	assert_success
	close_to "$(mval dtlb_mpki.$a)" 3
	assert_line --regexp "^dtlb_mpki\.$a [0-9.]+ walks/kinsn$"
	# the same tree as it is: the A510 lists no dtlb_walk, so pstat's
	# dtlb_mpki is not offered there (every Arm PMU must list its events)
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --dry-run -M dtlb_mpki true
	assert_success
	refute_output --partial "$a/"
	# one kind of core: Arm's alone, as before
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-v2" run "$ROOT/pstat" list -j metrics
	jq_assert '[.metrics[] | select(.name == "ipc")] | length == 1 and .[0].expr == "inst_retired / cpu_cycles"' <<<"$output"
}

@test "big.LITTLE: --topdown counts each copy's events on its own PMU, in groups within each PMU's counters" {
	local T="$CPUS/arm64-dynamiq"
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --topdown --dry-run true
	assert_success
	assert_line --partial 'armv9_neoverse_n2/stall_slot_frontend/: resolver sysfs, pmu armv9_neoverse_n2'
	assert_line --partial 'armv8_neoverse_v2/stall_slot_frontend/: resolver sysfs, pmu armv8_neoverse_v2'
	refute_output --partial armv9_cortex_a510
	# seven events a core: each on its PMU, a group on one PMU, at most
	# six counters besides the cycle counter
	[ "$(grep -c 'pmu armv9_neoverse_n2' <<<"$output")" = 7 ]
	[ "$(grep -c 'pmu armv8_neoverse_v2' <<<"$output")" = 7 ]
	awk '/resolver/ { p = $0; sub(/.*pmu /, "", p); sub(/,.*/, "", p)
	                  g = $0; sub(/.*group /, "", g); sub(/ .*/, "", g)
	                  if (g in pmu && pmu[g] != p) { print "group " g " on two PMUs"; bad = 1 }
	                  pmu[g] = p; n[g]++ }
	     END { for (g in n) if (n[g] > 7) { print "group " g ": " n[g]; bad = 1 }
	           exit bad }' <<<"$output"
	# the types in the attrs are the PMUs' own
	assert_line --regexp '^  type 9 config 0x3e '
	assert_line --regexp '^  type 10 config 0x3e '
}

@test "big.LITTLE: a kind of core is known by its own CPUs' MIDR; vendor events on each PMU its core has them" {
	local T="$BATS_TEST_TMPDIR/dq"
	cp -r "$CPUS/arm64-dynamiq" "$T"
	# without the V2 CPUs' MIDR, cpuinfo's fields are CPU 0's: V2 unknown
	rm "$T"/devices/system/cpu/cpu[67]/regs/identification/midr_el1
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics --names
	assert_success
	assert_line frontend_bound.armv9_neoverse_n2
	refute_line --partial armv8_neoverse_v2
	# without the N2 CPUs' either, no core is Arm's data's: no copies
	rm "$T"/devices/system/cpu/cpu[45]/regs/identification/midr_el1
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list metrics --names
	assert_success
	refute_line --regexp '\.armv'
	# and a machine of cores Arm's data does not describe says why, per PMU
	rm -r "$T"/bus/event_source/devices/armv*_neoverse_*
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --topdown --dry-run true
	assert_failure 125
	assert_output --partial "Arm's telemetry data has no top-down for this core (MIDR implementer 0x41 part 0xd46 r1p1)"
	# vendor events: the N2's and the V2's own names, on their PMUs
	export PSTAT_SYSFS_ROOT="$CPUS/arm64-dynamiq" LIBPFM_FORCE_PMU=none
	run "$ROOT/pstat" --dry-run -e l1d_cache_refill_inner true
	assert_success
	assert_line 'l1d_cache_refill_inner: resolver vendor, pmu armv9_neoverse_n2, group 1 (leader)'
	assert_line 'l1d_cache_refill_inner: resolver vendor, pmu armv8_neoverse_v2, group 0 (leader)'
	refute_output --partial armv9_cortex_a510
	run "$ROOT/pstat" list
	assert_success
	assert_line --partial 'Vendor events of PMU armv9_neoverse_n2'
	assert_line --partial 'Vendor events of PMU armv8_neoverse_v2'
	refute_line --partial 'Vendor events of PMU armv9_cortex_a510'
}

# Level-1 counts on Lumex core PMU P: as pmu_counts, with W cycles in
# WFI/WFE (IMP_WFX_CLOCK_CYCLES, 0x225) and F frontend flush stalls
# (STALL_FRONTEND_FLUSH, 0x8162), which Arm's C1 formulas take out.
lumex_counts() {
	echo "$(pmu_counts "$@") $1/event=0x225/=$8 $1/event=0x8162/=$9"
}

@test "Lumex: C1-Pro, C1-Premium and C1-Ultra each by its own MIDR, Arm's formula on each, levels to 4" {
	local T="$CPUS/arm64-lumex"
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '.topdown.levels == 4 and
		([.metrics[] | select(.name | startswith("frontend_bound."))] | map(.name) | sort ==
		 ["frontend_bound.armv8_c1_premium", "frontend_bound.armv8_c1_pro", "frontend_bound.armv8_c1_ultra"]) and
		([.metrics[] | select(.name == "frontend_bound.armv8_c1_pro")][0].expr | test("\\(5 \\* \\(armv8_c1_pro@cpu_cycles@")) and
		([.metrics[] | select(.name == "frontend_bound.armv8_c1_ultra")][0].expr | test("10 \\* armv8_c1_ultra@event=0x225@"))' <<<"$output"
	# synthetic counts: each copy its core's value, each level 1 summing to 100
	local c=1000 b=10 f=2500 k=1500 s=3000 r=2400 w=100 fl=40
	run "$PT" metric-eval "$T -M TopdownL1 $(lumex_counts armv8_c1_pro $c $b $f $k $s $r $w $fl) $(lumex_counts armv8_c1_ultra $c $b $f $k $s $r $w $fl) $(lumex_counts armv8_c1_premium $c $b $f $k $s $r $w $fl)"
	assert_success
	close_to "$(mval frontend_bound.armv8_c1_pro)" "$(awk "BEGIN { printf \"%.6f\", 100 * ($f / (5 * ($c - $w)) - $fl / ($c - $w)) }")"
	close_to "$(mval frontend_bound.armv8_c1_ultra)" "$(awk "BEGIN { printf \"%.6f\", 100 * (($f - 10 * $w) / (10 * ($c - $w)) - ($fl - $w) / ($c - $w)) }")"
	for p in armv8_c1_pro armv8_c1_premium armv8_c1_ultra; do
		close_to "$(msum frontend_bound.$p bad_speculation.$p backend_bound.$p retiring.$p)" 100
	done
	# --td-level 4: every copy's events on its own PMU, within its counters
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" --td-level 4 --dry-run true
	assert_success
	for p in armv8_c1_pro armv8_c1_premium armv8_c1_ultra; do
		assert_line --partial "$p/event=0x8160/: resolver sysfs, pmu $p"
	done
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" -M backend_cme_cpu_bound --dry-run true
	assert_success
	[ "$(grep -c 'resolver' <<<"$output")" -ge 3 ]
	# a C1-Nano (part 0xd8a): three slots a cycle, its own table
	local N="$BATS_TEST_TMPDIR/nano"
	cp -r "$CPUS/arm64-neoverse-n2-r0p3" "$N"
	for m in "$N"/devices/system/cpu/cpu*/regs/identification/midr_el1; do
		echo 0x00000000410fd8a0 >"$m"
	done
	PSTAT_SYSFS_ROOT=$N run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '[.metrics[] | select(.name == "frontend_bound")][0] | (.expr | test("3 \\* cpu_cycles")) and (.source | test("c1-nano"))' <<<"$output"
}

@test "Arm: Intel's tma_ names point to the core's own metric" {
	run env PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p3" "$PSTAT" -M tma_frontend_bound --dry-run true
	[ "$status" -eq 125 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ $output == "pstat: -M tma_frontend_bound: 'tma_frontend_bound' is the name in Intel's TMA; this CPU's metric is 'frontend_bound'"* ]]
	run env PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p3" "$PSTAT" -M frontend_bound --dry-run true
	assert_success
}
