#!/usr/bin/env bats
# Events on CPUs with several core PMUs (src/events/hybrid.c,
# encode_hybrid.c), on the machine trees of tests/fixtures/README.md,
# through --dry-run. The expected encodings are worked out here from the
# kernel's rules: a generic hardware or cache event carries its PMU's
# type in config bits 63:32 (PERF_PMU_TYPE_SHIFT); a raw event is
# opened with the PMU's own type, since the kernel reads the extended
# type of hardware and cache events alone.

load test_helper

# enc TREE EVENTS [ARGS...]: "name type T config C [cpus L]" per event
enc() {
	local tree=$1 events=$2
	shift 2
	PSTAT_SYSFS_ROOT=$FIX/$tree "$PSTAT" --dry-run -e "$events" "$@" true 2>&1 |
		awk '/^[^ ].*: resolver / { if (line) print line;
				sub(/: resolver .*/, ""); line = $0; next }
			/^  type / { line = line " type " $2 " config " $4 }
			/^  cpus .*core PMU/ { line = line " cpus " $2 }
			END { if (line) print line }'
}

# cfg TYPE CONFIG: the config with PMU type TYPE in bits 63:32
cfg() {
	printf '%#x' $(( ($1 << 32) | $2 ))
}

HW_CYCLES=0
HW_INSTRUCTIONS=1
# L1D (0) | OP_READ (0) << 8 | RESULT_MISS (1) << 16
L1D_READ_MISS=$(( 0 | 0 << 8 | 1 << 16 ))

@test "hybrid: cycles and instructions on Alder Lake, one event per core PMU" {
	run enc intel-alderlake cycles,instructions
	assert_success
	assert_output "cpu_atom/cycles/ type 0 config $(cfg 8 $HW_CYCLES) cpus 4-7
cpu_core/cycles/ type 0 config $(cfg 4 $HW_CYCLES) cpus 0-3
cpu_atom/instructions/ type 0 config $(cfg 8 $HW_INSTRUCTIONS) cpus 4-7
cpu_core/instructions/ type 0 config $(cfg 4 $HW_INSTRUCTIONS) cpus 0-3"
}

@test "hybrid: a cache event carries the PMU type too, a raw one is opened with it" {
	run enc intel-alderlake L1-dcache-load-misses,r3c
	assert_success
	assert_output "cpu_atom/L1-dcache-load-misses/ type 3 config $(cfg 8 $L1D_READ_MISS) cpus 4-7
cpu_core/L1-dcache-load-misses/ type 3 config $(cfg 4 $L1D_READ_MISS) cpus 0-3
cpu_atom/r3c/ type 8 config 0x3c cpus 4-7
cpu_core/r3c/ type 4 config 0x3c cpus 0-3"
}

@test "hybrid: a group becomes one group per core PMU" {
	run env PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" "$PSTAT" --dry-run -e '{cycles,instructions}' true
	assert_success
	assert_line 'cpu_atom/cycles/: resolver generic, pmu cpu_atom, group 0 (leader)'
	assert_line 'cpu_atom/instructions/: resolver generic, pmu cpu_atom, group 0'
	assert_line 'cpu_core/cycles/: resolver generic, pmu cpu_core, group 1 (leader)'
	assert_line 'cpu_core/instructions/: resolver generic, pmu cpu_core, group 1'
}

@test "hybrid: a group naming two core PMUs is refused, saying how to write it" {
	run env PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" "$PSTAT" --dry-run -e '{cpu_core/cycles/,cpu_atom/instructions/}' true
	assert_failure 125
	assert_output --partial "pstat: cannot group 'cpu_core/cycles/' with 'cpu_atom/instructions/': core PMUs 'cpu_core' and 'cpu_atom' count on different CPUs"
	assert_output --partial "'{cpu_core/...,cpu_core/...},{cpu_atom/...,cpu_atom/...}'"
	# a software event cannot follow a group split per core PMU
	run env PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" "$PSTAT" --dry-run -e '{cycles,task-clock}' true
	assert_failure 125
	assert_output --partial "cannot group 'task-clock' with"
}

@test "hybrid: cpu_atom/cycles/u names one core PMU, user level only" {
	run enc intel-alderlake cpu_atom/cycles/u
	assert_success
	assert_output "cpu_atom/cycles/u type 0 config $(cfg 8 $HW_CYCLES) cpus 4-7"
	run env PSTAT_SYSFS_ROOT="$FIX/intel-alderlake" "$PSTAT" --dry-run -e cpu_atom/cycles/u true
	assert_line --partial 'exclude_user 0 exclude_kernel 1 exclude_hv 1'
	# a sysfs alias of the same name wins over the generic one, as perf
	run enc intel-alderlake cpu_core/cpu-cycles/
	assert_output "cpu_core/cpu-cycles/ type 4 config 0x3c cpus 0-3"
}

@test "hybrid: three core PMUs on Arrow Lake-H" {
	run enc intel-arrowlake-h cycles,r3c,cpu_lowpower/cycles/
	assert_success
	assert_output "cpu_atom/cycles/ type 0 config $(cfg 8 $HW_CYCLES) cpus 2-5
cpu_core/cycles/ type 0 config $(cfg 4 $HW_CYCLES) cpus 0-1
cpu_lowpower/cycles/ type 0 config $(cfg 9 $HW_CYCLES) cpus 6-7
cpu_atom/r3c/ type 8 config 0x3c cpus 2-5
cpu_core/r3c/ type 4 config 0x3c cpus 0-1
cpu_lowpower/r3c/ type 9 config 0x3c cpus 6-7
cpu_lowpower/cycles/ type 0 config $(cfg 9 $HW_CYCLES) cpus 6-7"
	run enc intel-arrowlake-h '{cycles,instructions}'
	assert_equal "$(printf '%s\n' "$output" | wc -l)" 6
}

@test "hybrid: the same term encodes by each PMU's own format" {
	# umask is config:8-15,40-47 on cpu_atom and config:8-15 on cpu_lowpower
	run enc intel-arrowlake-h 'cpu_atom/event=0x3c,umask=0x101/'
	assert_output "cpu_atom/event=0x3c,umask=0x101/ type 8 config $(printf '%#x' $(( 0x3c | 0x01 << 8 | 0x01 << 40 ))) cpus 2-5"
	run env PSTAT_SYSFS_ROOT="$FIX/intel-arrowlake-h" "$PSTAT" --dry-run -e 'cpu_lowpower/event=0x3c,umask=0x101/' true
	assert_failure 125
	assert_output --partial "value 0x101 too large for 'umask' of PMU 'cpu_lowpower' (8 bits)"
}

@test "hybrid: Arm big.LITTLE, each armv8 PMU on its own CPUs" {
	run enc arm64-rk3399 cycles,L1-dcache-load-misses,r11,armv8_cortex_a53/cycles/u
	assert_success
	assert_output "armv8_cortex_a53/cycles/ type 0 config $(cfg 8 $HW_CYCLES) cpus 0-3
armv8_cortex_a72/cycles/ type 0 config $(cfg 9 $HW_CYCLES) cpus 4-5
armv8_cortex_a53/L1-dcache-load-misses/ type 3 config $(cfg 8 $L1D_READ_MISS) cpus 0-3
armv8_cortex_a72/L1-dcache-load-misses/ type 3 config $(cfg 9 $L1D_READ_MISS) cpus 4-5
armv8_cortex_a53/r11/ type 8 config 0x11 cpus 0-3
armv8_cortex_a72/r11/ type 9 config 0x11 cpus 4-5
armv8_cortex_a53/cycles/u type 0 config $(cfg 8 $HW_CYCLES) cpus 0-3"
}

@test "hybrid: one core PMU keeps the plain encoding, labelled with that PMU" {
	# Arm with one PMU: its name, not cpu; the kernel needs no extended type
	run env PSTAT_SYSFS_ROOT="$SYSFS/arm64-neoverse" "$PSTAT" --dry-run -e cycles,r11 true
	assert_success
	assert_line 'cycles: resolver generic, pmu armv8_pmuv3_0, group 0 (leader)'
	assert_line '  type 0 config 0 config1 0 config2 0'
	assert_line 'r11: resolver raw, pmu armv8_pmuv3_0, group 1 (leader)'
	assert_line '  type 4 config 0x11 config1 0 config2 0'
	refute_output --partial 'core PMU'
	# a two-socket server: one x86 cpu PMU, no cpus file
	run enc intel-sapphirerapids-2s cycles,'{cycles,instructions}',cpu/cycles/
	assert_output "cycles type 0 config 0
cycles type 0 config 0
instructions type 0 config 0x1
cpu/cycles/ type 0 config 0"
}

@test "hybrid: no generic event on a hybrid tree is encoded without its PMU type" {
	local tree ev
	for tree in intel-alderlake intel-arrowlake-h arm64-rk3399; do
		for ev in cycles instructions branches branch-misses \
			cache-references cache-misses ref-cycles bus-cycles \
			L1-dcache-loads LLC-load-misses dTLB-load-misses \
			'{cycles,instructions}' cycles:u; do
			run enc "$tree" "$ev"
			assert_success
			# every line carries a PMU type in bits 63:32
			[ -n "$output" ]
			if printf '%s\n' "$output" | grep -v ' config 0x[0-9a-f]\{9,\} '; then
				false
			fi
		done
	done
}

@test "hybrid: the JSON dry run names each event's core PMU" {
	PSTAT_SYSFS_ROOT=$FIX/intel-alderlake run "$PSTAT" --dry-run -j -e cycles true
	assert_success
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/d.json"
	jq_assert '[.events[] | .pmu] == ["cpu_atom", "cpu_core"]' "$BATS_TEST_TMPDIR/d.json"
	jq_assert '[.events[] | .name] == ["cpu_atom/cycles/", "cpu_core/cycles/"]' "$BATS_TEST_TMPDIR/d.json"
	jq_assert '[.events[] | .core_cpus] == [[4, 5, 6, 7], [0, 1, 2, 3]]' "$BATS_TEST_TMPDIR/d.json"
	jq_assert '[.events[] | .cpus] == [null, null]' "$BATS_TEST_TMPDIR/d.json"
}

@test "hybrid: compare refuses a run split per core PMU against one that was not" {
	local d=$BATS_TEST_TMPDIR
	run "$PSTAT" -j -o "$d/one.json" -e task-clock,cycles true
	assert_success
	# the same run as a hybrid CPU writes it: cycles once per core PMU
	jq '.counters |= [.[] | if .event == "cycles" then
		(.event = "cpu_atom/cycles/" | .pmu = "cpu_atom"),
		(.event = "cpu_core/cycles/" | .pmu = "cpu_core") else . end]' \
		"$d/one.json" >"$d/split.json"
	jq_assert '[.counters[].event] == ["task-clock", "cpu_atom/cycles/", "cpu_core/cycles/"]' "$d/split.json"
	run "$PSTAT" compare "$d/one.json" "$d/split.json"
	assert_failure 6
	assert_line --partial "pstat: cannot compare '$d/one.json' with '$d/split.json': '$d/split.json' counts 'cycles' once per core PMU ('cpu_atom/cycles/', ...), as on a hybrid CPU, and '$d/one.json' as one event"
	run "$PSTAT" compare "$d/split.json" "$d/one.json"
	assert_failure 6
	# --baseline: this run's own events against a split baseline
	run "$PSTAT" --baseline "$d/split.json" -e task-clock,cycles true
	assert_failure 6
	assert_output --partial "counts 'cycles' once per core PMU"
	# runs split alike compare as usual
	run "$PSTAT" compare "$d/split.json" "$d/split.json"
	refute [ "$status" -eq 6 ]
}

@test "hybrid: following a task, a core PMU's count is not scaled by its running time" {
	# every counter ran a quarter of its enabled time and counted 1000
	run "$PT" aggr "$FIX/intel-alderlake" task 'cycles,context-switches'
	assert_success
	# the rest of the time the task was on the other kind of core
	assert_line "cpu_atom/cycles/ counted 1000 not scaled: counts while the task runs on this PMU's CPUs"
	assert_line "cpu_core/cycles/ counted 1000 not scaled: counts while the task runs on this PMU's CPUs"
	# anything else ran a quarter of the time: multiplexed, scaled by 4
	assert_line 'context-switches multiplexed 4000'
	# one core PMU: a quarter of the time is multiplexing, as ever
	run "$PT" aggr "$SYSFS/intel-skylake" task cycles
	assert_output 'cycles multiplexed 4000'
}

# The CPUs of a list such as 0-3,8, one a line.
cpu_list() {
	local r
	for r in ${1//,/ }; do
		seq "${r%-*}" "${r#*-}"
	done
}

# copies_on_own_cpus TREE: pstat-test aggr's -A lines in $output have,
# for each core PMU of TREE, one ipc.PMU on each of its CPUs counted (those
# with a task-clock row) and on no other, its instructions / cycles there.
copies_on_own_cpus() {
	local f pmu cpus n=0
	for f in "$FIX/$1/devices/"*/cpus; do
		pmu=$(basename "$(dirname "$f")")
		cpus=$(cpu_list "$(cat "$f")" | paste -sd,)
		n=$((n + 1))
		awk -v p="$pmu" -v cpus="$cpus" '
			BEGIN { k = split(cpus, c, ","); for (i = 1; i <= k; i++) own[c[i]] = 1 }
			$2 == "task-clock" && ($1 in own) { want[$1] = 1 }
			$2 == p "/instructions/" { ins[$1] = $3 }
			$2 == p "/cycles/" { cyc[$1] = $3 }
			$2 == "ipc." p { seen[$1]++; val[$1] = $3
				if (!($1 in want)) { print "ipc." p " on CPU " $1; bad = 1 } }
			END {
				for (x in want) {
					if (seen[x] != 1 || !(x in cyc)) { print "CPU " x ": " seen[x] + 0 " values"; bad = 1; continue }
					d = val[x] - ins[x] / cyc[x]
					if (d < -1e-8 || d > 1e-8) { print "CPU " x ": " val[x] " != " ins[x] "/" cyc[x]; bad = 1 }
				}
				exit bad
			}' <<<"$output" || return 1
	done
	[ "$n" -ge 2 ]
}

@test "hybrid -A: a per core PMU metric copy only on its PMU's CPUs, as perf prints it" {
	local tree
	for tree in intel-alderlake intel-arrowlake-h arm64-rk3399; do
		# every CPU counts 1000 * (cpu + 1) + the event's index
		run "$PT" aggr "$FIX/$tree" cpu task-clock \
			'ipc = instructions / cycles' 'w = task-clock / duration_time'
		assert_success
		refute_line --partial ' none'
		copies_on_own_cpus "$tree"
		# a metric over no core PMU's events is on every CPU
		[ "$(grep -c '^[0-9]* w ' <<<"$output")" = \
		  "$(grep -c '^[0-9]* task-clock ' <<<"$output")" ]
		[ "$(grep -c '^[0-9]* ipc\.' <<<"$output")" = \
		  "$(grep -c '^[0-9]* task-clock ' <<<"$output")" ]
	done
	# -C with one CPU of each kind: neither copy read on the other's CPU
	# (each PMU's events have one row, which no other CPU may borrow)
	for tree in intel-alderlake:0,4 arm64-rk3399:3,4 intel-arrowlake-h:1,2,6; do
		run "$PT" aggr "$FIX/${tree%:*}" "cpu=${tree#*:}" task-clock \
			'ipc = instructions / cycles'
		assert_success
		refute_line --partial ' none'
		copies_on_own_cpus "${tree%:*}"
		[ "$(grep -c '^[0-9]* ipc\.' <<<"$output")" = \
		  "$(grep -c '^[0-9]* task-clock ' <<<"$output")" ]
	done
}
