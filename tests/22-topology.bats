#!/usr/bin/env bats
# CPU topology (src/base/topology.c) read from the machine trees of
# tests/fixtures/README.md, and the aggregation units --per-socket,
# --per-die, --per-cluster, --per-cache, --per-core and --per-node make
# of it. The expected values follow from the trees' APIC IDs and the
# kernel's rules as the README gives them, not from pstat's output.

load test_helper

ADL="$FIX/intel-alderlake"
ARL="$FIX/intel-arrowlake-h"
SPR="$FIX/intel-sapphirerapids-2s"
RK="$FIX/arm64-rk3399"

@test "topology: counts of a hybrid laptop (2 P-cores with SMT, 4 E-cores)" {
	run "$PT" topo "$ADL"
	assert_success
	assert_line --index 0 'cpus 8 packages 1 dies 1 clusters 3 cores 6 nodes 1 smt 1 cache L3'
	# SMT siblings share a core; E-cores are cores of one thread
	assert_line 'cpu1 S0 D0 CLS0 C0 N0 threads 2 L1:0 L2:0 L3:0'
	assert_line 'cpu3 S0 D0 CLS8 C4 N0 threads 2 L1:2 L2:2 L3:0'
	# the E-core module's L2 is named by its first CPU, 4, not its id 2
	assert_line 'cpu6 S0 D0 CLS16 C10 N0 threads 1 L1:6 L2:4 L3:0'
}

@test "topology: two sockets, two dies each, die ids not package-relative" {
	run "$PT" topo "$SPR"
	assert_success
	assert_line --index 0 'cpus 16 packages 2 dies 4 clusters 8 cores 8 nodes 4 smt 1 cache L3'
	# CPU n and n+8 are siblings
	assert_line 'cpu5 S1 D2 CLS10 C1 N2 threads 2 L1:5 L2:5 L3:4'
	assert_line 'cpu13 S1 D2 CLS10 C1 N2 threads 2 L1:5 L2:5 L3:4'
	assert_line 'cpu11 S0 D1 CLS6 C3 N1 threads 2 L1:3 L2:3 L3:2'
}

@test "topology: arm64 has no die files and core ids repeat per cluster" {
	[ ! -e "$RK/devices/system/cpu/cpu0/topology/die_id" ]
	run "$PT" topo "$RK"
	assert_success
	# six cores although core_id 0 appears twice; no SMT; L2 is the last
	assert_line --index 0 'cpus 6 packages 1 dies 1 clusters 2 cores 6 nodes 1 smt 0 cache L2'
	assert_line 'cpu0 S0 D0 CLS0 C0 N0 threads 1 L1:0 L2:0'
	assert_line 'cpu4 S0 D0 CLS1 C0 N0 threads 1 L1:4 L2:4'
}

@test "topology: three core kinds, low-power cores without an L3" {
	run "$PT" topo "$ARL"
	assert_success
	assert_line --index 0 'cpus 8 packages 1 dies 1 clusters 4 cores 8 nodes 1 smt 0 cache L3'
	assert_line 'cpu7 S0 D0 CLS64 C33 N0 threads 1 L1:7 L2:6'
}

@test "topology: perf's unit names for each mode" {
	run "$PT" topo "$SPR" socket
	assert_line 'cpu2 S0'
	assert_line 'cpu12 S1'
	run "$PT" topo "$SPR" die
	assert_line 'cpu2 S0-D1'
	assert_line 'cpu12 S1-D2'
	run "$PT" topo "$SPR" core
	assert_line 'cpu15 S1-D3-C3'
	run "$PT" topo "$SPR" node
	assert_line 'cpu10 N1'
	run "$PT" topo "$ADL" cluster
	assert_line 'cpu2 S0-D0-CLS8'
	assert_line 'cpu7 S0-D0-CLS16'
	run "$PT" topo "$ADL" cache
	assert_line 'cpu7 S0-D0-L3-ID0'
	run "$PT" topo "$ADL" cache=L2
	assert_line 'cpu3 S0-D0-L2-ID2'
	assert_line 'cpu7 S0-D0-L2-ID4'
	run "$PT" topo "$ADL" cpu
	assert_line 'cpu7 CPU7'
}

@test "topology: --per-cache takes each CPU's highest level unless told" {
	# as perf: the low-power cores' highest cache is their L2
	run "$PT" topo "$ARL" cache
	assert_line 'cpu5 S0-D0-L3-ID0'
	assert_line 'cpu6 S0-D0-L2-ID6'
	# asked for L3, a CPU without one is a unit of its own (ID-1)
	run "$PT" topo "$ARL" cache=L3
	assert_line 'cpu6 S0-D0-L3-ID-1'
}

@test "topology: a missing level collapses, never an error" {
	local t="$BATS_TEST_TMPDIR/sys"
	mkdir -p "$t/devices/system/cpu/cpu0" "$t/devices/system/cpu/cpu1/topology"
	echo 0-1 >"$t/devices/system/cpu/online"
	# cpu0: no topology directory at all; cpu1: only a package id
	echo 0 >"$t/devices/system/cpu/cpu1/topology/physical_package_id"
	run "$PT" topo "$t"
	assert_success
	assert_line --index 0 'cpus 2 packages 1 dies 1 clusters 1 cores 2 nodes 1 smt 0 cache L0'
	assert_line 'cpu0 S0 D0 CLS0 C0 N0 threads 1'
	assert_line 'cpu1 S0 D0 CLS0 C1 N0 threads 1'
	run "$PT" topo "$t" die
	assert_line 'cpu1 S0-D0'
}

@test "topology: this machine's topology reads without error" {
	run "$PT" topo /sys
	assert_success
	assert_line --index 0 --regexp "^cpus $(getconf _NPROCESSORS_ONLN) "
}

# sum_cpus EXPR CPU...: the helper's synthetic count of event index EXPR
# summed over CPUs: each CPU counts 1000 * (cpu + 1) + the event's index
sum_cpus() {
	local idx=$1 total=0 c
	shift
	for c in "$@"; do
		total=$(( total + 1000 * (c + 1) + idx ))
	done
	echo $total
}

# cpus_of LIST: "0-1,8-9" as words
cpus_of() {
	local r out=() lo hi
	for r in ${1//,/ }; do
		lo=${r%-*} hi=${r#*-}
		out+=($(seq "$lo" "$hi"))
	done
	echo "${out[@]}"
}

@test "aggregation: per socket, die and node, the CPUs' counts added up" {
	local s0 d1 n3
	s0=$(cpus_of "$(cat "$SPR/devices/system/cpu/cpu0/topology/package_cpus_list")")
	d1=$(cpus_of "$(cat "$SPR/devices/system/cpu/cpu2/topology/die_cpus_list")")
	n3=$(cpus_of "$(cat "$SPR/devices/system/node/node3/cpulist")")
	run "$PT" aggr "$SPR" socket cpu-clock
	assert_success
	assert_line "S0 8 cpu-clock $(sum_cpus 0 $s0)"
	assert_equal "${#lines[@]}" 2
	run "$PT" aggr "$SPR" die cpu-clock,task-clock
	assert_line "S0-D1 4 task-clock $(sum_cpus 1 $d1)"
	# unit by unit, as perf prints: S0-D0's two events, then S0-D1's
	assert_line --index 0 --regexp '^S0-D0 4 cpu-clock '
	assert_line --index 1 --regexp '^S0-D0 4 task-clock '
	assert_line --index 2 --regexp '^S0-D1 4 cpu-clock '
	assert_line --index 7 --regexp '^S1-D3 4 task-clock '
	run "$PT" aggr "$SPR" node cpu-clock
	assert_line "N3 4 cpu-clock $(sum_cpus 0 $n3)"
}

@test "aggregation: an uncore event is in the units of its cpumask's CPUs" {
	# one CPU per die in the cpumask: two per socket, one per die
	run "$PT" aggr "$SPR" socket 'cpu-clock,uncore_imc_0/clockticks/'
	assert_line "S0 2 uncore_imc_0/clockticks/ $(sum_cpus 1 0 2)"
	assert_line "S1 2 uncore_imc_0/clockticks/ $(sum_cpus 1 4 6)"
	run "$PT" aggr "$SPR" core 'uncore_imc_0/clockticks/'
	assert_equal "${#lines[@]}" 4
	assert_line "S1-D3-C2 1 uncore_imc_0/clockticks/ $(sum_cpus 0 6)"
}

@test "aggregation: hybrid events in the units of their core PMU's CPUs" {
	# cpu_atom/cycles/ is event 0, cpu_core/cycles/ event 1
	run "$PT" aggr "$ADL" core cycles
	assert_success
	assert_output "S0-D0-C0 2 cpu_core/cycles/ $(sum_cpus 1 0 1)
S0-D0-C4 2 cpu_core/cycles/ $(sum_cpus 1 2 3)
S0-D0-C8 1 cpu_atom/cycles/ $(sum_cpus 0 4)
S0-D0-C9 1 cpu_atom/cycles/ $(sum_cpus 0 5)
S0-D0-C10 1 cpu_atom/cycles/ $(sum_cpus 0 6)
S0-D0-C11 1 cpu_atom/cycles/ $(sum_cpus 0 7)"
	run "$PT" aggr "$ADL" socket cycles
	assert_output "S0 4 cpu_atom/cycles/ $(sum_cpus 0 4 5 6 7)
S0 4 cpu_core/cycles/ $(sum_cpus 1 0 1 2 3)"
}

@test "aggregation: arm64 cores of two clusters stay apart; clusters; caches" {
	run "$PT" aggr "$RK" core task-clock
	assert_equal "${#lines[@]}" 6
	assert_line --index 4 "S0-D0-C0 1 task-clock $(sum_cpus 0 4)"
	run "$PT" aggr "$RK" cluster task-clock
	assert_output "S0-D0-CLS0 4 task-clock $(sum_cpus 0 0 1 2 3)
S0-D0-CLS1 2 task-clock $(sum_cpus 0 4 5)"
	run "$PT" aggr "$ARL" cache task-clock
	assert_output "S0-D0-L2-ID6 2 task-clock $(sum_cpus 0 6 7)
S0-D0-L3-ID0 6 task-clock $(sum_cpus 0 0 1 2 3 4 5)"
	run "$PT" aggr "$ADL" cache=L2 task-clock
	assert_line "S0-D0-L2-ID4 4 task-clock $(sum_cpus 0 4 5 6 7)"
}

@test "aggregation: each unit's metrics from that unit's counts" {
	local s0 s1 d1 n3
	s0=$(cpus_of "$(cat "$SPR/devices/system/cpu/cpu0/topology/package_cpus_list")")
	s1=$(cpus_of "$(cat "$SPR/devices/system/cpu/cpu4/topology/package_cpus_list")")
	d1=$(cpus_of "$(cat "$SPR/devices/system/cpu/cpu2/topology/die_cpus_list")")
	n3=$(cpus_of "$(cat "$SPR/devices/system/node/node3/cpulist")")
	# context-switches is event 0, page-faults event 1: d is the unit's
	# number of CPUs
	run "$PT" aggr "$SPR" socket context-switches,page-faults \
		'sum = context-switches + page-faults' 'd = page-faults - context-switches'
	assert_success
	assert_line "S0 8 sum $(( $(sum_cpus 0 $s0) + $(sum_cpus 1 $s0) ))"
	assert_line "S1 8 sum $(( $(sum_cpus 0 $s1) + $(sum_cpus 1 $s1) ))"
	assert_line "S0 8 d 8"
	assert_line "S1 8 d 8"
	assert_equal "$(grep -c ' sum ' <<<"$output")" 2
	run "$PT" aggr "$SPR" die context-switches,page-faults \
		'sum = context-switches + page-faults' 'd = page-faults - context-switches'
	assert_line "S0-D1 4 sum $(( $(sum_cpus 0 $d1) + $(sum_cpus 1 $d1) ))"
	assert_equal "$(grep -c '^S[01]-D[0-3] 4 d 4$' <<<"$output")" 4
	run "$PT" aggr "$SPR" node context-switches 'x = context-switches * 2'
	assert_line "N3 4 x $(( 2 * $(sum_cpus 0 $n3) ))"
	assert_equal "$(grep -c ' x ' <<<"$output")" 4
}

@test "aggregation: a metric only in the units its events count in" {
	# uncore_imc_0's cpumask has one CPU per die: 4 of the 8 cores
	run "$PT" aggr "$SPR" core 'context-switches,uncore_imc_0/clockticks/' \
		'u = uncore_imc_0@clockticks@' 'r = uncore_imc_0@clockticks@ / context-switches'
	assert_success
	assert_equal "$(grep -c ' u ' <<<"$output")" 4
	assert_line "S1-D3-C2 1 u $(sum_cpus 1 6)"
	# no other unit's count borrowed: where it was not counted, no value
	assert_equal "$(grep -c ' r ' <<<"$output")" 8
	assert_equal "$(grep -c ' r none$' <<<"$output")" 4
	refute_line --partial ' u none'
	# hybrid: a per core PMU copy in the units of its PMU's CPUs alone,
	# its instructions / cycles there
	local mode
	for mode in core socket; do
		run "$PT" aggr "$ADL" "$mode" task-clock 'ipc = instructions / cycles'
		assert_success
		awk '
			$3 ~ /\/instructions\/$/ { split($3, p, "/"); ins[$1 " " p[1]] = $4; nr[$1 " " p[1]] = $2 }
			$3 ~ /\/cycles\/$/ { split($3, p, "/"); cyc[$1 " " p[1]] = $4 }
			$3 ~ /^ipc\./ { k = $1 " " substr($3, 5); seen[k]++
				if (!(k in cyc)) { print "ipc on " k " without its events"; bad = 1; next }
				if ($2 != nr[k]) { print k ": " $2 " CPUs, not " nr[k]; bad = 1 }
				d = $4 - ins[k] / cyc[k]
				if (d < -1e-8 || d > 1e-8) { print k ": " $4; bad = 1 } }
			END { for (k in cyc) if (seen[k] != 1) { print k ": " seen[k] + 0 " values"; bad = 1 }
				exit bad }' <<<"$output"
	done
	# one socket: one copy of each; two P-cores, four E-cores
	assert_equal "$(grep -c ' ipc\.cpu_core ' <<<"$output")" 1
	assert_equal "$(grep -c ' ipc\.cpu_atom ' <<<"$output")" 1
	run "$PT" aggr "$ADL" core task-clock 'ipc = instructions / cycles'
	assert_equal "$(grep -c ' ipc\.cpu_core ' <<<"$output")" 2
	assert_equal "$(grep -c ' ipc\.cpu_atom ' <<<"$output")" 4
}

@test "-A: a metric only on the CPUs its events count on, no CPU borrows" {
	# cstate_pkg's cpumask is CPU 0 alone: its count is CPU 0's, never
	# lent to the other CPUs
	run "$PT" aggr "$ADL" cpu 'context-switches,cstate_pkg/c2-residency/' \
		'u = cstate_pkg@c2\-residency@' 'r = cstate_pkg@c2\-residency@ / context-switches' \
		'x = context-switches * 2'
	assert_success
	assert_line "0 u $(sum_cpus 1 0)"
	assert_equal "$(grep -c ' u ' <<<"$output")" 1
	# some of its events counted there: the metric with no value, and why
	assert_equal "$(grep -c '^[1-7] r none$' <<<"$output")" 7
	assert_equal "$(grep -c '^[0-7] x ' <<<"$output")" 8
	assert_line "5 x $(( 2 * $(sum_cpus 0 5) ))"
	run "$PT" aggr "$ADL" cpu=0,3:table 'context-switches,cstate_pkg/c2-residency/' \
		'r = cstate_pkg@c2\-residency@ / context-switches'
	assert_line --regexp "^CPU3 .* r +\(no value: 'cstate_pkg/c2-residency/' was not counted\)$"
	refute_line --regexp '^CPU3 .*c2-residency/ *$'
	# -C naming only CPUs outside the cpumask: no value anywhere
	run "$PT" aggr "$ADL" cpu=2,3 'context-switches,cstate_pkg/c2-residency/' \
		'u = cstate_pkg@c2\-residency@'
	assert_success
	refute_line --partial ' u '
}

@test "--per-thread: a metric over an event counted per CPU reads its system-wide row" {
	local ev=/sys/bus/event_source/devices/power
	[ "$(cat "$ev/cpumask" 2>/dev/null)" = 0 ] && [ -e "$ev/events/energy-psys" ] ||
		skip "no power/energy-psys/ counted on CPU 0 alone here"
	sleep 5 3>&- &
	local pid=$!
	run "$PSTAT" -x, -p "$pid" --per-thread -e 'task-clock,power/energy-psys/' \
		--metric 'j = power@energy\-psys@ * 2' -- sleep 0.1
	kill "$pid"
	[ "$status" -eq 0 ] || skip "power/energy-psys/ cannot be counted here: $output"
	# the thread has a value of j, from the system-wide row's count
	assert_line --regexp "^[^,]*-$pid,,,,,,[0-9.]+,j\$"
	assert_line --regexp '^system-wide,,,,,,[0-9.]+,j$'
}

@test "--metric-only: a column per metric, empty where a unit or CPU has none" {
	local fmt want
	# P-cores have ipc.cpu_core, E-cores ipc.cpu_atom: each value in its
	# own column, never under another's title
	run "$PT" aggr "$ADL" core:csv-metric-only task-clock \
		'ipc = instructions / cycles' 'w = task-clock / duration_time'
	assert_success
	assert_line --index 0 'unit,cpus,ipc.cpu_core,w,ipc.cpu_atom'
	assert_line --index 1 --regexp '^S0-D0-C0,2,[0-9.]+,[0-9.]+,$'
	assert_line --index 3 --regexp '^S0-D0-C8,1,,[0-9.]+,[0-9.]+$'
	assert_equal "${#lines[@]}" 7
	run "$PT" aggr "$ADL" cpu=0,4:csv-metric-only task-clock 'ipc = instructions / cycles'
	assert_output --regexp '^cpu,ipc.cpu_core,ipc.cpu_atom
CPU0,[0-9.]+,
CPU4,,[0-9.]+$'
	# the table: each value under its title's last character
	run "$PT" aggr "$ADL" core:table-metric-only task-clock \
		'ipc = instructions / cycles' 'w = task-clock / duration_time'
	assert_success
	awk '
		/ipc\.cpu_core/ && !h { h = $0; next }
		h && /^S0-D0-C[0-9]+ / {
			n = split("ipc.cpu_core w ipc.cpu_atom", t, " ")
			for (i = 1; i <= n; i++) {
				e = index(h, " " t[i] " ") ? index(h, " " t[i] " ") + length(t[i]) : index(h, " " t[i]) + length(t[i])
				c = substr($0, e, 1); b = substr($0, e + 1, 1)
				v = (c ~ /[0-9]/)
				want = ($1 ~ /C[04]$/) ? (t[i] != "ipc.cpu_atom") : (t[i] != "ipc.cpu_core")
				if (v != want || (b != " " && b != "")) { print $1 " " t[i] ": [" c b "]"; bad = 1 }
			}
			rows++
		}
		END { exit bad || rows != 6 }' <<<"$output"
	# a core without a CPU of the uncore event's: an empty field
	run "$PT" aggr "$SPR" core:csv-metric-only 'context-switches,uncore_imc_0/clockticks/' \
		'u = uncore_imc_0@clockticks@' 'x = context-switches * 2'
	assert_line --index 0 'unit,cpus,u,x'
	assert_line "S0-D0-C0,2,$(sum_cpus 1 0).000,$(( 2 * $(sum_cpus 0 0 8) )).000"
	assert_line "S0-D0-C1,2,,$(( 2 * $(sum_cpus 0 1 9) )).000"
	assert_equal "$(grep -c '^S[01]-D[0-3]-C[0-3],2,,[0-9]' <<<"$output")" 4
}

@test "aggregation: needs -a or -C, and excludes -A and --per-thread" {
	run "$PSTAT" --per-socket true
	assert_failure 125
	assert_output --partial 'pstat: --per-socket needs -a or -C'
	run "$PSTAT" -a -A --per-core true
	assert_failure 125
	assert_output --partial 'pstat: --per-core cannot be combined with -A'
	run "$PSTAT" -a --per-cache=L9 true
	assert_failure 125
	assert_output --partial "invalid --per-cache level 'L9'"
	run "$PSTAT" -a --per-cache=3 true
	assert_failure 125
}

# live: on this machine, with software events
@test "aggregation: every mode's rows cover the CPUs once and add up to the total" {
	need_cpu_wide
	local mode ncpu
	ncpu=$(getconf _NPROCESSORS_ONLN)
	for mode in socket die cluster cache core node; do
		run "$PSTAT" -a "--per-$mode" -j -o "$BATS_TEST_TMPDIR/$mode.json" -e cpu-clock sleep 0.05
		assert_success
		jq_assert "[.counters[] | .aggr.mode] | unique == [\"$mode\"]" "$BATS_TEST_TMPDIR/$mode.json"
		# each CPU in exactly one unit
		jq_assert "[.counters[] | .aggr.cpus] | add == $ncpu" "$BATS_TEST_TMPDIR/$mode.json"
		# cpu-clock: every CPU's clock over the run, within 20% of
		# the CPUs times the elapsed time (a ratio, not a timing)
		jq_assert '(([.counters[].value] | add) / (.time.elapsed_ns / 1e6)) as $r
			| $r > (0.8 * '"$ncpu"') and $r < (1.2 * '"$ncpu"')' "$BATS_TEST_TMPDIR/$mode.json"
	done
}

@test "aggregation: a tracepoint's rows per core hold the writes done there" {
	need_cpu_wide
	need_tracepoint syscalls/sys_enter_write
	local w="$BATS_TEST_TMPDIR/w.json" a="$BATS_TEST_TMPDIR/a.json"
	# 3000 writes pinned to CPU 0: its core's row has them all (and
	# what else ran there); -A's CPU 0 row has them too
	run "$PSTAT" -C 0 --per-core -j -o "$w" -e syscalls:sys_enter_write \
		taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=3000 status=none
	assert_success
	jq_assert '[.counters[] | .aggr.cpus] == [1]' "$w"
	jq_assert '.counters[0].value >= 3000' "$w"
	run "$PSTAT" -C 0 -A -j -o "$a" -e syscalls:sys_enter_write \
		taskset -c 0 dd if=/dev/zero of=/dev/null bs=1 count=3000 status=none
	assert_success
	jq_assert '[.counters[] | .cpu] == [0] and .counters[0].value >= 3000' "$a"
}

@test "aggregation: table, CSV and interval lines in perf's layout" {
	need_cpu_wide
	run "$PSTAT" -a --per-socket -e task-clock sleep 0.01
	assert_success
	assert_line --regexp '^S0     [ 0-9]{3}[0-9] +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized'
	run "$PSTAT" -a --per-core -x, -e task-clock sleep 0.01
	assert_line --regexp '^S0-D0-C[0-9]+,1,[0-9.]+,msec,task-clock,'
	run "$PSTAT" -a --per-die -I 20 -e context-switches sleep 0.05
	assert_line --index 0 '#           time die          cpus             counts unit events'
	assert_line --regexp '^ +[0-9]+\.[0-9]{9} S0-D0 +[0-9]+ +[0-9]+ +context-switches'
	run "$PSTAT" -a --per-node -x, -I 20 -e context-switches sleep 0.05
	assert_line --regexp '^ +[0-9]+\.[0-9]{9},N0,[0-9]+,[0-9]+,,context-switches,'
	run "$PSTAT" -a --per-core -r 2 -e context-switches sleep 0.01
	assert_success
	assert_line --regexp '^S0-D0-C[0-9]+ +1 +[0-9]+ +context-switches'
}

@test "aggregation: the same layout as perf stat 6.1 where perf has the mode" {
	need_cpu_wide
	command -v perf >/dev/null || skip "perf is not installed"
	perf stat -a --per-socket -e task-clock true >/dev/null 2>&1 ||
		skip "perf stat cannot count system-wide here"
	local mode p q
	for mode in socket die core node; do
		# the label and CPU count columns, and the event column,
		# with numbers made N: the same text
		p=$(perf stat -a "--per-$mode" -e task-clock,context-switches sleep 0.01 2>&1 |
			grep -E '^(S|N)[0-9]' | sed -E 's/[0-9][0-9.,]*/N/g; s/  +/ /g; s/ #.*//')
		q=$("$PSTAT" -a "--per-$mode" -e task-clock,context-switches sleep 0.01 2>&1 |
			grep -E '^(S|N)[0-9]' | sed -E 's/[0-9][0-9.,]*/N/g; s/  +/ /g; s/ #.*//')
		assert_equal "$q" "$p"
		# the label column itself is byte for byte perf's
		p=$(perf stat -a "--per-$mode" -e task-clock sleep 0.01 2>&1 |
			grep -E '^(S|N)[0-9]' | cut -c1-20)
		q=$("$PSTAT" -a "--per-$mode" -e task-clock sleep 0.01 2>&1 |
			grep -E '^(S|N)[0-9]' | cut -c1-20)
		assert_equal "$q" "$p"
		p=$(perf stat -a "--per-$mode" -I 20 -e context-switches sleep 0.03 2>&1 | head -1)
		q=$("$PSTAT" -a "--per-$mode" -I 20 -e context-switches sleep 0.03 2>&1 | head -1)
		assert_equal "$q" "$p"
		# CSV: perf's columns in perf's order
		p=$(perf stat -x, -a "--per-$mode" -e task-clock,context-switches sleep 0.01 2>&1 |
			sed -E 's/[0-9][0-9.]*/N/g; s/[KMG]?\/sec/\/sec/')
		q=$("$PSTAT" -x, -a "--per-$mode" -e task-clock,context-switches sleep 0.01 2>&1 |
			sed -E 's/[0-9][0-9.]*/N/g; s/[KMG]?\/sec/\/sec/')
		assert_equal "$q" "$p"
	done
}

@test "aggregation: OpenMetrics labels each unit's series with its ids" {
	need_cpu_wide
	local py=${OM_PYTHON:-/usr/bin/python3} om="$BATS_TEST_TMPDIR/om"
	"$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
		skip "python3-prometheus-client is not installed for $py"
	run "$PSTAT" -a --per-core --openmetrics -o "$om" -e context-switches sleep 0.01
	assert_success
	run "$py" "$ROOT/tests/lib/om-check.py" openmetrics "$om"
	assert_success
	# one series per core, not one for the first core alone
	assert_equal "$(grep -c '^pstat_events_total{event="context-switches",pmu="software",socket="0",die="0",cluster="[0-9]*",core="[0-9]*"}' "$om")" \
		"$(cat /sys/devices/system/cpu/cpu*/topology/core_cpus_list 2>/dev/null | sort -u | wc -l)"
	run "$PSTAT" -a --per-socket --prometheus -o "$om" -e context-switches sleep 0.01
	run "$py" "$ROOT/tests/lib/om-check.py" prometheus "$om"
	assert_success
}

# two_sockets DIR: a sysfs tree in DIR with this machine's CPUs 0 and 1,
# as if in two sockets and two nodes
two_sockets() {
	local t=$1 c
	mkdir -p "$t/devices/system/cpu" "$t/devices/system/node/node0" \
		"$t/devices/system/node/node1"
	echo 0-1 >"$t/devices/system/cpu/online"
	for c in 0 1; do
		mkdir -p "$t/devices/system/cpu/cpu$c/topology"
		echo $c >"$t/devices/system/cpu/cpu$c/topology/physical_package_id"
		echo 0 >"$t/devices/system/cpu/cpu$c/topology/core_id"
		echo $c >"$t/devices/system/node/node$c/cpulist"
	done
}

@test "aggregation: live counts add up by PSTAT_SYSFS_ROOT's topology" {
	need_cpu_wide
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs two CPUs"
	local t="$BATS_TEST_TMPDIR/sys" j="$BATS_TEST_TMPDIR/s.json"
	two_sockets "$t"
	PSTAT_SYSFS_ROOT=$t run "$PSTAT" -a --per-socket -j -o "$j" -e cpu-clock sleep 0.05
	assert_success
	jq_assert '[.counters[] | .aggr.id] == ["S0", "S1"]' "$j"
	jq_assert '[.counters[] | .aggr.cpus] == [1, 1]' "$j"
	# each socket's one CPU ran its clock for the whole run
	jq_assert '[.counters[] | .value / (.time_enabled_ns / 1e6)] | all(. > 0.9 and . < 1.1)' "$j"
	PSTAT_SYSFS_ROOT=$t run "$PSTAT" -a --per-node -e cpu-clock sleep 0.01
	assert_line --regexp '^N0        1 '
	assert_line --regexp '^N1        1 '
	# core 0 of socket 0 and core 0 of socket 1 are two cores
	PSTAT_SYSFS_ROOT=$t run "$PSTAT" -a --per-core -x, -e cpu-clock sleep 0.01
	assert_line --regexp '^S0-D0-C0,1,'
	assert_line --regexp '^S1-D0-C0,1,'
}

@test "aggregation: live metrics after each unit's rows, in every output" {
	need_cpu_wide
	local m='w = task-clock / duration_time' o="$BATS_TEST_TMPDIR/o"
	local py=${OM_PYTHON:-/usr/bin/python3}
	run "$PSTAT" -a --per-socket -e task-clock,context-switches --metric "$m" sleep 0.01
	assert_success
	# right after the task-clock row it reads, with the unit's label
	grep -A1 'msec task-clock' <<<"$output" | tail -1 |
		grep -Eq '^S0 +[0-9]+ +# +[0-9.]+ w +$'
	# one per unit, in each unit's rows
	run "$PSTAT" -a --per-core -e task-clock --metric "$m" sleep 0.01
	assert_equal "$(grep -cE '^S0-D0-C[0-9]+ +1 +# +[0-9.]+ w' <<<"$output")" \
		"$(grep -c ' task-clock ' <<<"$output")"
	run "$PSTAT" -a --per-socket -I 20 -e task-clock --metric "$m" sleep 0.05
	assert_line --regexp '^ +[0-9]+\.[0-9]{9} S0 +[0-9]+ +# +[0-9.]+ w'
	run "$PSTAT" -a --per-socket -r 2 -e task-clock --metric "$m" sleep 0.01
	assert_line --regexp '^S0 +[0-9]+ +# +[0-9.]+ w +\( \+- +[0-9.]+% \)'
	run "$PSTAT" -a --per-socket --metric-only -e task-clock --metric "$m" sleep 0.01
	assert_line --regexp '^S0 +[0-9]+ +[0-9.]+$'
	# CSV: the unit's two fields, then the metric's
	run "$PSTAT" -a --per-node -x, -e task-clock --metric "$m" sleep 0.01
	assert_line --regexp '^N0,[0-9]+,,,,,,[0-9.]+,w$'
	run "$PSTAT" -a --per-socket -x, --metric-only -e task-clock --metric "$m" sleep 0.01
	assert_line --index 0 --regexp '^[a-z]+,cpus,w$'
	assert_line --regexp '^S0,[0-9]+,[0-9.]+$'
	# JSON: the unit as counters have it
	"$PSTAT" -a --per-core -j -o "$o" -e task-clock --metric "$m" sleep 0.01
	jq_assert '(.counters | map(.aggr)) == (.metrics | map(.aggr))
		and (.metrics | length) > 0 and all(.metrics[]; .name == "w")' "$o"
	# OpenMetrics: the unit's labels as counters have them
	"$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
		skip "python3-prometheus-client is not installed for $py"
	"$PSTAT" -a --per-socket --openmetrics -o "$o" -e task-clock --metric "$m" sleep 0.01
	run "$py" "$ROOT/tests/lib/om-check.py" openmetrics "$o"
	assert_success
	assert_line --regexp '^sample pstat_metric\{metric="w",socket="0"\} [0-9.e+]+$'
}

@test "aggregation: live metrics of two sockets, each from its own writes" {
	need_cpu_wide
	need_tracepoint syscalls/sys_enter_write
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs two CPUs"
	local t="$BATS_TEST_TMPDIR/sys" j="$BATS_TEST_TMPDIR/s.json"
	local om="$BATS_TEST_TMPDIR/om" w py=${OM_PYTHON:-/usr/bin/python3}
	two_sockets "$t"
	w=$(prog writer)
	# 3000 writes on CPU 1, socket 1: its metric has them (and whatever
	# else wrote there), each socket's metric its own counters' values
	PSTAT_SYSFS_ROOT=$t run "$PSTAT" -a --per-socket -j -o "$j" \
		-e syscalls:sys_enter_write,cpu-clock \
		--metric 'writes = syscalls:sys_enter_write' \
		--metric 'per_ms = syscalls:sys_enter_write / cpu-clock' \
		taskset -c 1 "$w" 3000
	assert_success
	jq_assert '[.metrics[] | .aggr.id] == ["S0", "S0", "S1", "S1"]' "$j"
	jq_assert '[.metrics[] | .aggr.cpus] == [1, 1, 1, 1]' "$j"
	jq_assert '(.metrics[] | select(.name == "writes" and .aggr.id == "S1")
		| .value) >= 3000' "$j"
	jq_assert '. as $d | [$d.metrics[] | . as $m
		| ($d.counters | map(select(.aggr.id == $m.aggr.id)
			| {(.event): .value}) | add) as $c
		| if $m.name == "writes" then $m.value == $c["syscalls:sys_enter_write"]
		  else ($m.value - $c["syscalls:sys_enter_write"] / $c["cpu-clock"]) | fabs
			<= 1e-9 * ($m.value | fabs) end] | length == 4 and all' "$j"
	"$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
		skip "python3-prometheus-client is not installed for $py"
	PSTAT_SYSFS_ROOT=$t run "$PSTAT" -a --per-socket --openmetrics -o "$om" \
		-e syscalls:sys_enter_write --metric 'writes = syscalls:sys_enter_write' \
		taskset -c 0 "$w" 3000
	assert_success
	run "$py" "$ROOT/tests/lib/om-check.py" openmetrics "$om"
	assert_success
	assert_line --regexp '^sample pstat_metric\{metric="writes",socket="0"\} [0-9.e+]+$'
	assert_line --regexp '^sample pstat_metric\{metric="writes",socket="1"\} [0-9.e+]+$'
	# each socket's sample is that socket's counter's
	[ "$(grep '^sample pstat_metric{metric="writes",socket="0"' <<<"$output" | awk '{print $3}')" = \
	  "$(grep '^sample pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint",socket="0"' <<<"$output" | awk '{print $3}')" ]
	[ "$(grep '^sample pstat_metric{metric="writes",socket="0"' <<<"$output" | awk '{print ($3 >= 3000)}')" = 1 ]
}
