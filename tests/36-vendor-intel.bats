#!/usr/bin/env bats
# Intel's metric groups as perf takes them (every MetricGroup of Intel's
# metrics JSON, perf's TopdownLn / tma_Ln_group / tma_<parent>_group and
# Default), the metrics pstat leaves out said rather than silently
# missing, perf's Default group in the default output, and the metrics
# the generator could add back (:sup/:user, UMaskExt, eq). The expected
# sets come from Intel's JSON through jq, not from pstat.

bats_require_minimum_version 1.5.0
load test_helper

CPUS="$FIX/cpus"
INTEL="$ROOT/src/events/vendor/intel"
SPR_JSON="$INTEL/SPR/metrics/sapphirerapids_metrics.json"

# Intel's TMA metrics of JSON file $1 in group $2, as pstat names them
# (tma_<name> in lower case, $3 appended), sorted.
intel_group() {
	jq -r --arg g "$2" --arg sfx "${3:-}" '.Metrics[] |
		select(.Category == "TMA") |
		select((.MetricGroup // "") | split(";") | index($g)) |
		"tma_" + (.MetricName | ascii_downcase) + $sfx' "$1" | sort
}

# Intel's metrics (tma_*) of `pstat list metrics -j` (output) in group
# $1, with those left out, sorted.
listed_group() {
	jq -r --arg g "$1" '(.metrics[], .left_out[]) |
		select(.groups | index($g)) | .name |
		select(startswith("tma_"))' <<<"$output" | sort
}

@test "groups: every MetricGroup of Intel's Sapphire Rapids JSON holds in pstat what it holds in Intel's data" {
	local g n=0
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" list -j metrics
	assert_success
	local list=$output
	for g in $(jq -r '.Metrics[] | select(.Category == "TMA") |
	    (.MetricGroup // "") | split(";")[]' "$SPR_JSON" | sort -u); do
		[ -n "$g" ] || continue
		output=$list
		diff <(intel_group "$SPR_JSON" "$g") <(listed_group "$g") ||
			{ echo "group $g differs"; return 1; }
		n=$((n + 1))
	done
	# Summary, BvMP, BvBC, Mem, Branches ... (Intel's 70-odd)
	[ "$n" -gt 50 ]
	# perf's own names of the tree: TopdownLn, tma_Ln_group, the parent's
	output=$list
	jq_assert '[.metrics[] | select(.groups | index("tma_backend_bound_group")) | .name] | sort == ["tma_core_bound", "tma_memory_bound"]' <<<"$output"
	jq_assert '[.metrics[] | select(.groups | index("tma_L1_group")) | .name] | sort == ["tma_backend_bound", "tma_bad_speculation", "tma_frontend_bound", "tma_retiring"]' <<<"$output"
	jq_assert '[.metrics[] | select(.group == "TopdownL3")] | all(.groups | index("TopdownL3") and index("tma_L3_group"))' <<<"$output"
	# pstat's own metrics keep their one group
	jq_assert '.metrics[] | select(.name == "ipc") | .groups == ["Summary"]' <<<"$output"
}

@test "groups: -M takes each group of Intel's data, what list shows in it (Summary, BvMP, tma_L1_group, a parent's, in any case)" {
	local T="$CPUS/intel-sapphirerapids" g
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list -j metrics
	assert_success
	local list=$output
	for g in Summary BvMP BvBC Mem Branches TmaL1 tma_L1_group tma_backend_bound_group TopdownL3; do
		run "$PT" metric-eval "$T -M $g"
		assert_success
		# Intel's metrics of the group, and pstat's own of that name
		diff <(jq -r --arg g "$g" '.metrics[] | select(.groups | index($g)) | .name' <<<"$list" | sort) \
			<(grep -v '^inputs:\|^group:' <<<"$output" | awk '{ print $1 }' | sort) ||
			{ echo "-M $g differs"; return 1; }
	done
	# perf matches groups in any case
	run "$PT" metric-eval "$T -M bvmp"
	assert_success
	assert_line --regexp '^tma_bottleneck_mispredictions '
	# Summary holds Intel's Summary and pstat's own
	run "$PT" metric-eval "$T -M Summary"
	assert_line --regexp '^tma_info_thread_ipc '
	assert_line --regexp '^ipc '
}

@test "groups: --dry-run -M BvMP counts the events of Intel's formulas for the group" {
	export PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids"
	run "$ROOT/pstat" --dry-run -M BvMP true
	assert_success
	# tma_branch_mispredicts: the kernel's topdown event, in the slots group
	assert_line 'cpu/slots/: resolver sysfs, pmu cpu, group 0 (leader)'
	assert_line 'cpu/topdown-br-mispredict/: resolver sysfs, pmu cpu, group 0'
	# tma_mispredicts_resteers: INT_MISC.CLEAR_RESTEER_CYCLES, encoded
	# as Intel's events JSON says
	read -r umask code < <(jq -r '.Events[] | select(.EventName == "INT_MISC.CLEAR_RESTEER_CYCLES") | "\(.UMask) \(.EventCode)"' "$INTEL/SPR/events/sapphirerapids_core.json")
	assert_output --partial "config $(printf '0x%x' $((umask * 256 + code))) "
}

@test "groups: what pstat leaves out is listed with why, and -M says so rather than give a smaller group" {
	export PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids"
	run "$ROOT/pstat" list metrics
	assert_success
	assert_line 'Left out (in the vendor'"'"'s data, not computed by pstat):'
	assert_line --regexp '^  tma_info_thread_slots_utilization +modifier :percore of topdown\.slots \(a sum over the SMT siblings of a core, made only per CPU\)$'
	assert_line --regexp '^ +groups: .*Default'
	# TmaL1 holds one left out: the selection says so, on stderr
	run --separate-stderr "$ROOT/pstat" --dry-run -M TmaL1 true
	assert_success
	[[ $stderr == *"pstat: warning: -M TmaL1: 1 of the group's metrics in the vendor's data is not computed: tma_info_thread_slots_utilization (modifier :percore of topdown.slots (a sum over the SMT siblings of a core, made only per CPU))"* ]]
	[[ $stderr == *"pstat: hint: 'pstat list metrics' lists them all, with why"* ]]
	# a group wholly left out (uncore events, where the tree has no
	# uncore PMUs: Emerald Rapids') is refused, saying why
	PSTAT_SYSFS_ROOT="$CPUS/intel-emeraldrapids" run "$ROOT/pstat" --dry-run -M SoC true
	assert_failure 125
	assert_output --partial "-M SoC: pstat computes none of the"
	assert_output --partial "metrics of the vendor's group SoC here: tma_info_system_"
	# a metric left out, by name
	run "$ROOT/pstat" --dry-run -M tma_info_thread_slots_utilization true
	assert_failure 125
	assert_output "pstat: -M tma_info_thread_slots_utilization: pstat does not compute tma_info_thread_slots_utilization, of the vendor's data: modifier :percore of topdown.slots (a sum over the SMT siblings of a core, made only per CPU)"
	# so does --td-level, per level (Arrow Lake has no retire latency
	# file: its metrics over retire latencies are left out)
	PSTAT_SYSFS_ROOT="$CPUS/intel-arrowlake-h" run --separate-stderr "$ROOT/pstat" --dry-run --td-level 4 true
	assert_success
	[[ $stderr == *"pstat: warning: --td-level TopdownL4: "*" of the group's metrics in the vendor's data are not computed: tma_"*"(no retire latency of "* ]]
	# a group with nothing left out says nothing
	run --separate-stderr "$ROOT/pstat" --dry-run -M BvMP true
	assert_success
	[ -z "$stderr" ]
	# and the JSON list carries them, valid against its schema
	run "$ROOT/pstat" list -j metrics
	jq_assert '.left_out | any(.name == "tma_info_thread_slots_utilization" and (.groups | index("TmaL1")) and (.why | test("percore")))' <<<"$output"
}

@test "groups: list --names gives Intel's groups for completion; hybrids' groups take both kinds of core" {
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" list --names metrics
	assert_success
	for g in Summary BvMP BvBC Default tma_L1_group tma_backend_bound_group TopdownL6; do
		assert_line "$g"
	done
	# Alder Lake: the P-core's JSON and the E-core's CSV, each copy in
	# its groups
	local T="$CPUS/intel-alderlake"
	PSTAT_SYSFS_ROOT=$T run "$ROOT/pstat" list -j metrics
	assert_success
	local list=$output
	output=$list
	diff <(intel_group "$INTEL/ADL/metrics/alderlake_metrics_goldencove_core.json" BvMP .cpu_core) <(listed_group BvMP)
	run "$PT" metric-eval "$T -M tma_L1_group"
	assert_success
	for m in frontend_bound bad_speculation backend_bound retiring; do
		assert_line --regexp "^tma_$m\.cpu_core "
		assert_line --regexp "^tma_$m\.cpu_atom "
	done
}

@test "groups: Default is perf's: level 1 from Ice Lake and Alder Lake on, level 2 too from Sapphire Rapids on, none on Skylake" {
	run "$PT" metric-eval "$CPUS/intel-sapphirerapids -M Default"
	assert_success
	[ "$(grep -c '^tma_' <<<"$output")" = 12 ]
	assert_line --regexp '^tma_heavy_operations '
	run "$PT" metric-eval "$CPUS/intel-icelake -M Default"
	assert_success
	[ "$(grep -c '^tma_' <<<"$output")" = 4 ]
	refute_line --regexp '^tma_heavy_operations '
	run "$PT" metric-eval "$CPUS/intel-alderlake -M Default"
	assert_success
	[ "$(grep -c '^tma_.*\.cpu_core ' <<<"$output")" = 4 ]
	[ "$(grep -c '^tma_.*\.cpu_atom ' <<<"$output")" = 4 ]
	# Skylake's top-down is no part of perf's default output
	PSTAT_SYSFS_ROOT="$CPUS/intel-skylake-sp" run "$ROOT/pstat" --dry-run -M Default true
	assert_failure 125
	assert_output --partial "perf's Default group is empty on this CPU"
}

# perf's line of a Default group's metric (stat-display.c's widths:
# the group's name right-aligned in 32 after a blank, padded to 49, then
# " # ", "%8.1f", a blank and the unit and name padded to 26); $1 the
# group's name or "" under it, $2 the value, $3 the metric.
perf_line() {
	if [ -n "$1" ]; then
		printf ' %32s%16s # %8.1f %-26s' "$1" "" "$2" "%  $3"
	else
		printf '%49s # %8.1f %-26s' "" "$2" "%  $3"
	fi
}

# TMA on synthetic counts, in percent: $1 an awk expression of the
# counts s (slots), fe, bs, re, be, hv (heavy ops), br (mispredicts),
# fl (fetch latency), mb (memory bound), dr (INT_MISC.UOP_DROPPING).
pct() {
	awk -v s=10000 -v fe=200 -v bs=100 -v re=400 -v be=300 -v hv=150 \
	    -v br=60 -v fl=120 -v mb=180 -v dr=500 \
	    "BEGIN { t = fe + bs + re + be; printf \"%.1f\", 100 * ($1) }"
}

SPR_COUNTS="cpu/slots/=10000 cpu/topdown-fe-bound/=200 cpu/topdown-bad-spec/=100 cpu/topdown-retiring/=400 cpu/topdown-be-bound/=300 cpu/topdown-heavy-ops/=150 cpu/topdown-br-mispredict/=60 cpu/topdown-fetch-lat/=120 cpu/topdown-mem-bound/=180 cpu/event=0xad,umask=0x10/=500"

@test "Default: pstat with no -e on Sapphire Rapids prints TopdownL1 and TopdownL2 after the default events, in perf's layout" {
	# shellcheck disable=SC2086
	run "$PT" default-out table "$CPUS/intel-sapphirerapids" $SPR_COUNTS
	assert_success
	# the default events, then the two groups, each in name order
	local fe bs be re
	fe=$(pct "fe / t - dr / s"); be=$(pct "be / t"); re=$(pct "re / t")
	bs=$(pct "1 - (fe / t - dr / s) - be / t - re / t")
	local want
	want=$(
		perf_line TopdownL1 "$be" tma_backend_bound; echo
		perf_line "" "$bs" tma_bad_speculation; echo
		perf_line "" "$fe" tma_frontend_bound; echo
		perf_line "" "$re" tma_retiring; echo
		perf_line TopdownL2 "$(pct "br / t")" tma_branch_mispredicts; echo
		perf_line "" "$(pct "be / t - mb / t")" tma_core_bound; echo
		perf_line "" "$(pct "(fe / t - dr / s) - (fl / t - dr / s)")" tma_fetch_bandwidth; echo
		perf_line "" "$(pct "fl / t - dr / s")" tma_fetch_latency; echo
		perf_line "" "$(pct "hv / t")" tma_heavy_operations; echo
		perf_line "" "$(pct "re / t - hv / t")" tma_light_operations; echo
		perf_line "" "$(pct "(1 - (fe / t - dr / s) - be / t - re / t) - br / t")" tma_machine_clears; echo
		perf_line "" "$(pct "mb / t")" tma_memory_bound
	)
	diff <(sed -n '/branch-misses/,/^$/p' <<<"$output" | sed '1d;$d') <(echo "$want")
	# the first line as perf's own example has it: the "#" in column 51
	assert_line --regexp '^ {24}TopdownL1 {17}# +30\.0 %  tma_backend_bound {6}$'
	# the groups' events are not shown, as perf does not show them
	refute_output --partial 'slots'
	refute_output --partial 'topdown-'
	# with -I, each line after the interval's time, as perf's
	# shellcheck disable=SC2086
	run "$PT" default-out table-interval "$CPUS/intel-sapphirerapids" $SPR_COUNTS
	assert_success
	assert_line "     0.001000000 $(perf_line TopdownL1 "$be" tma_backend_bound)"
	assert_line "     0.001000000 $(perf_line "" "$re" tma_retiring)"
	refute_output --partial 'slots'
	# machine output keeps every counter and every metric, valid
	# shellcheck disable=SC2086
	run "$PT" default-out json "$CPUS/intel-sapphirerapids" $SPR_COUNTS
	assert_success
	jq_assert '([.counters[].event] | index("cpu/slots/") != null) and ([.metrics[].name] | length == 12) and (.metrics[] | select(.name == "tma_retiring") | .value == 40)' <<<"$output"
}

@test "Default: a hybrid's groups per kind of core, P-cores first, as perf names them" {
	run "$PT" default-out table "$CPUS/intel-alderlake" cpu_core/slots/=10000 \
		cpu_core/topdown-fe-bound/=200 cpu_core/topdown-bad-spec/=100 \
		cpu_core/topdown-retiring/=400 cpu_core/topdown-be-bound/=300
	assert_success
	assert_line "$(perf_line 'TopdownL1 (cpu_core)' 30.0 tma_backend_bound)"
	assert_line "$(perf_line '' 40.0 tma_retiring)"
	assert_line --regexp '^ {13}TopdownL1 \(cpu_atom\) {17}# '
	[ "$(grep -n 'TopdownL1 (cpu_core)' <<<"$output" | cut -d: -f1)" -lt \
	  "$(grep -n 'TopdownL1 (cpu_atom)' <<<"$output" | cut -d: -f1)" ]
	# the name without its copy's suffix: the title says the core
	refute_output --partial 'tma_retiring.cpu_'
}

@test "Default: where perf has none (Skylake, no core PMU) the default output is the default events alone" {
	run "$PT" default-out table "$CPUS/intel-skylake-sp"
	assert_success
	refute_output --partial 'Topdown'
	refute_output --partial 'tma_'
	assert_line --regexp '^ +1000 +branch-misses '
	# and so --dry-run: the default events only, with -e none at all
	PSTAT_SYSFS_ROOT="$CPUS/intel-skylake-sp" run "$ROOT/pstat" --dry-run true
	assert_success
	refute_output --partial 'topdown'
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" --dry-run true
	assert_success
	assert_line 'cpu/slots/: resolver sysfs, pmu cpu, group 8 (leader)'
	assert_line 'cpu/topdown-heavy-ops/: resolver sysfs, pmu cpu, group 8'
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" --dry-run -e task-clock true
	assert_success
	refute_output --partial 'slots'
	# per cgroup, the default events only: the metrics' events would
	# be counted outside the cgroups
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" --dry-run -a --for-each-cgroup / true
	assert_success
	assert_output --partial 'branch-misses'
	refute_output --partial 'slots'
	# a kernel without one of the group's events (level 2's here): the
	# run of the default events goes on without the group, said at -v
	cp -r "$CPUS/intel-sapphirerapids" "$BATS_TEST_TMPDIR/spr"
	rm "$BATS_TEST_TMPDIR/spr/bus/event_source/devices/cpu/events/topdown-heavy-ops"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/spr" run "$ROOT/pstat" -v --dry-run true
	assert_success
	assert_line --partial "pstat: perf's Default metric group left out: cpu/topdown-heavy-ops/: unknown term"
	refute_line --partial 'cpu/slots/: resolver'
	assert_line --partial 'branch-misses: resolver generic'
	# a count whose counters cannot open has no metric lines: perf
	# leaves the group out when its events did not count
	run "$PT" default-out table "$CPUS/intel-sapphirerapids" cpu/slots/=- \
		cpu/topdown-fe-bound/=- cpu/topdown-bad-spec/=- \
		cpu/topdown-retiring/=- cpu/topdown-be-bound/=- \
		cpu/topdown-heavy-ops/=- cpu/topdown-br-mispredict/=- \
		cpu/topdown-fetch-lat/=- cpu/topdown-mem-bound/=- \
		cpu/event=0xad,umask=0x10/=-
	assert_success
	refute_output --partial 'Topdown'
}

# The raw config of Intel event NAME in events JSON FILE as the kernel
# lays it out: event, umask (UMaskExt the high byte, in config bits
# 40-47 by the umask format config:8-15,40-47), edge 18, inv 23, cmask
# 24, eq 36; with CMASK, INV and EQ given (a formula's :cN:iN:eqN).
intel_raw() {
	jq -r --arg n "$2" '.Events[] | select(.EventName == $n) |
		"\(.EventCode) \(.UMask) \(.UMaskExt // "0") \(.EdgeDetect // "0")"' \
		"$INTEL/$1" | head -1 | {
		read -r code umask ext edge
		printf '0x%x\n' $((code | umask << 8 | ext << 40 | edge << 18 |
			${3:-0} << 24 | ${4:-0} << 23 | ${5:-0} << 36))
	}
}

@test "left out no more: :sup and :user as the k and u modifiers (Sapphire Rapids kernel utilization, far branches)" {
	export PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids"
	run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '.metrics[] | select(.name == "tma_info_system_kernel_utilization") | .expr == "cpu@event=0x3c,umask=0x0@k / cpu@event=0x3c,umask=0x0@"' <<<"$output"
	jq_assert '.metrics[] | select(.name == "tma_info_system_ipfarbranch") | .expr | endswith("@u")' <<<"$output"
	jq_assert '[.left_out[] | select(.why | test(":sup|:user"))] | length == 0' <<<"$output"
	# Intel's OS group is whole again
	run "$ROOT/pstat" --dry-run -j -M OS true
	assert_success
	jq_assert '[.events[] | select(.attr.config == "0x3c" and .attr.exclude_user == true and .attr.exclude_kernel == false)] | length == 1' <<<"$output"
	# the ratio on synthetic counts: kernel cycles over all cycles
	run "$PT" metric-eval "$CPUS/intel-sapphirerapids -M tma_info_system_kernel_utilization cpu/event=0x3c,umask=0x0/k=250 cpu/event=0x3c,umask=0x0/=1000"
	assert_success
	# (Intel's threshold: more than 5%)
	assert_line 'tma_info_system_kernel_utilization 0.250000  [crossed]'
}

@test "left out no more: Lion Cove's extended umask and eq terms, encoded as Intel's events JSON and the kernel's formats say" {
	local T="$CPUS/intel-arrowlake-h" ev="ARL/events/arrowlake_lioncove_core.json"
	export PSTAT_SYSFS_ROOT=$T
	run "$ROOT/pstat" --dry-run -M tma_mite,tma_lsd,tma_info_branches_cond_tk_fwd true
	assert_success
	# IDQ.MITE_UOPS:c8:i1:eq1 and LSD.UOPS:c8:i1:eq1
	assert_output --partial "config $(intel_raw "$ev" IDQ.MITE_UOPS 8 1 1) "
	assert_output --partial "config $(intel_raw "$ev" LSD.UOPS 8 1 1) "
	# BR_INST_RETIRED.COND_TAKEN_FWD: UMaskExt 0x01 in bit 40
	want=$(intel_raw "$ev" BR_INST_RETIRED.COND_TAKEN_FWD)
	[ "$want" = 0x100000000c4 ]
	assert_output --partial "config $want "
	# Lunar Lake, the other Lion Cove: the same terms
	PSTAT_SYSFS_ROOT="$CPUS/intel-lunarlake" run "$ROOT/pstat" --dry-run -M tma_info_memory_l1dl0_mpki true
	assert_success
	assert_output --partial "config $(intel_raw LNL/events/lunarlake_lioncove_core.json MEM_LOAD_RETIRED.L1_HIT_L1) "
	# none of Arrow Lake's metrics is left out for an extended umask or eq
	run "$ROOT/pstat" list -j metrics
	jq_assert '[.left_out[] | select(.why | test("extended umask|:eq"))] | length == 0' <<<"$output"
}

@test "left out still: :percore, retire latencies without Intel's file, uncore events; each says why" {
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '.left_out[] | select(.name == "tma_info_thread_slots_utilization") | .why | startswith("modifier :percore of topdown.slots (a sum over the SMT siblings")' <<<"$output"
	# the package energy (a free-running power counter); the uncore
	# metrics count on the tree's uncore PMUs (38-vendor-uncore.bats)
	jq_assert '.left_out[] | select(.name == "tma_info_system_power") | .why | test("freerun_pkg_energy_status")' <<<"$output"
	PSTAT_SYSFS_ROOT="$CPUS/intel-arrowlake-h" run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '.left_out[] | select(.name == "tma_lock_latency.cpu_core") | .why == "no retire latency of MEM_INST_RETIRED.LOCK_LOADS"' <<<"$output"
	# the E-cores' CPU utilization reads the TSC, as the P-cores'
	jq_assert '.metrics[] | select(.name == "tma_cpu_utilization.cpu_atom") | .expr | endswith("/ msr@tsc@")' <<<"$output"
}

@test "left out no more: Emerald Rapids' bottlenecks (no HBM: its HBM_Bound term is 0) and its name written with blanks" {
	PSTAT_SYSFS_ROOT="$CPUS/intel-emeraldrapids" run "$ROOT/pstat" list -j metrics
	assert_success
	# Intel's file names hbm_bound and defines no HBM_Bound
	jq_assert '[.Metrics[] | select(.MetricName == "HBM_Bound")] | length == 0' \
		<"$INTEL/EMR/metrics/emeraldrapids_metrics.json"
	jq_assert '.metrics[] | select(.name == "tma_bottleneck_data_cache_memory_bandwidth") | .expr | test("tma_memory_bound \\* 0 /")' <<<"$output"
	jq_assert '[.metrics[] | select(.name == "tma_bottleneck_data_cache_memory_latency" or .name == "tma_bottleneck_other_bottlenecks")] | length == 2' <<<"$output"
	jq_assert '.metrics[] | select(.name == "tma_info_botlnk_l0_core_bound_likely") | .expr | test("tma_info_system_smt_2t_utilization > 0.5")' <<<"$output"
	jq_assert '[.left_out[] | select(.why | test("hbm_bound|tma_info_system,"))] | length == 0' <<<"$output"
	# and Intel's BvMB and BvOB groups are whole
	PSTAT_SYSFS_ROOT="$CPUS/intel-emeraldrapids" run --separate-stderr "$ROOT/pstat" --dry-run -M BvMB,BvML,BvOB true
	assert_success
	[ -z "$stderr" ]
}
