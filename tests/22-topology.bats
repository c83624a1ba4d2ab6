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
