#!/usr/bin/env bats
# Pure tier: the event grammar, the generic names, the encoder and the
# read() decoder, through tests/pstat-test over data tables.

load test_helper

setup() {
	export PSTAT_TEST_FIXTURES="$FIX"
}

@test "event-list grammar table" {
	run_table evspec evspec.test
}

@test "generic names table" {
	run_table legacy legacy.test
}

@test "encoder table over the fixture trees" {
	run_table encode encode.test
}

@test "read() decoder table" {
	run_table read read.test
}

@test "cache names are generated for every valid cache/op/result" {
	# 7 caches; ops valid per perf's table; 2 results each
	run "$PSTAT" list --names 'L1-*'
	assert_success
	assert_line L1-dcache-loads
	assert_line L1-icache-prefetch-misses
	refute_line L1-icache-stores
	run bash -c "'$PSTAT' list --names | grep -cE '^(L1-dcache|L1-icache|LLC|dTLB|iTLB|branch|node)-(loads|stores|prefetches|load-misses|store-misses|prefetch-misses)\$'"
	# L1D 3 ops, L1I 2, LLC 3, dTLB 3, iTLB 1, BPU 1, node 3 = 16 x 2 results
	assert_output 32
}
