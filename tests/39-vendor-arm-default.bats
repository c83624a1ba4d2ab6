#!/usr/bin/env bats
# perf's Default metric group on Arm: perf 6.6 and later tag Arm's level
# 1 (frontend_bound, bad_speculation, retiring, backend_bound: its common
# arm64 table, which each of its Neoverse tables takes with the core's own
# formula) "Default", and print it after the default events. pstat does
# the same on the cores perf has tables for, from Arm's data; on a
# heterogeneous machine one group per kind of core.

load test_helper

CPUS="$FIX/cpus"
ARM="$ROOT/src/events/vendor/arm"

# perf's line of a Default group's metric (stat-display.c's widths: the
# group's name right-aligned in 32 after a blank, padded to 49, then
# " # ", "%8.1f", a blank, the unit and the name padded to 26); $1 the
# group's name or "" under it, $2 the value, $3 the metric.
perf_line() {
	if [ -n "$1" ]; then
		printf ' %32s%16s # %8.1f %-26s' "$1" "" "$2" "%  $3"
	else
		printf '%49s # %8.1f %-26s' "" "$2" "%  $3"
	fi
}

# Synthetic counts, by Arm's event names (cycles, slots, operations).
COUNTS='{"CPU_CYCLES": 10000, "STALL_SLOT": 30000, "STALL_SLOT_FRONTEND": 18000,
	"STALL_SLOT_BACKEND": 12000, "OP_SPEC": 30000, "OP_RETIRED": 24000,
	"BR_MIS_PRED": 100, "STALL_FRONTEND_FLUSH": 300}'

# For Arm's extract $1 (a file of src/events/vendor/arm) on core PMU
# $2, $3 "args": the counts as pstat-test default-out takes them (a
# common event by its alias, on PMU $2 when $4 is "pmu", another by its
# code on $2), or $3 "want": the four metrics' values by Arm's formulas,
# evaluated here ("NAME VALUE", by name).
arm_l1() {
	python3 - "$ARM/$1" "$2" "$3" "${4:-}" "$COUNTS" <<'EOF'
import json, re, sys
doc = json.load(open(sys.argv[1]))
pmu, what, qual, counts = sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
names = ("backend_bound", "bad_speculation", "frontend_bound", "retiring")
if what == "args":
    used = set()
    for n in names:
        used |= set(re.findall(r"[A-Z][A-Z0-9_]*", doc["metrics"][n]["formula"]))
    for e in sorted(used):
        code = int(doc["events"][e]["code"], 16)
        if code < 0x40:
            row = "%s/%s/" % (pmu, e.lower()) if qual else e.lower()
        else:
            row = "%s/event=0x%x/" % (pmu, code)
        print("%s=%d" % (row, counts[e]))
else:
    for n in names:
        f = re.sub(r"[A-Z][A-Z0-9_]*", lambda m: "%d" % counts[m.group(0)],
                   doc["metrics"][n]["formula"])
        print("%s %.1f" % (n, eval(f, {"__builtins__": {}})))
EOF
}

# The Default group's four lines perf prints for extract $1 under the
# group title $2.
want_lines() {
	local title="$2" n v
	while read -r n v; do
		perf_line "$title" "$v" "$n"; echo
		title=""
	done < <(arm_l1 "$1" x want)
}

@test "Arm Default: pstat with no -e prints TopdownL1 after the default events on every Neoverse perf has a table for, by the core's formula" {
	for t in n2-r0p0:neoverse-n2-r0p0.json n2-r0p3:neoverse-n2-r0p3.json \
		 v1:neoverse-v1.json v2:neoverse-v2.json n3:neoverse-n3.json \
		 v3:neoverse-v3.json; do
		local tree=${t%%:*} f=${t#*:}
		# shellcheck disable=SC2046
		run "$PT" default-out table "$CPUS/arm64-neoverse-$tree" \
			$(arm_l1 "$f" armv8_pmuv3_0 args)
		assert_success
		diff <(sed -n '/branch-misses/,/^$/p' <<<"$output" | sed '1d;$d') \
			<(want_lines "$f" TopdownL1)
		# the group's events are not shown, as perf does not show them
		refute_output --partial 'stall_slot'
		refute_output --partial 'op_spec'
		assert_line --regexp '^ +1000 +branch-misses '
	done
	# the values are Arm's, not the generic formula's: N2 r0p0 takes
	# the cycle counted in each slot event out, r0p3 does not
	run "$PT" default-out table "$CPUS/arm64-neoverse-n2-r0p0" $(arm_l1 neoverse-n2-r0p0.json armv8_pmuv3_0 args)
	assert_line "$(perf_line '' 15.0 frontend_bound)"
	run "$PT" default-out table "$CPUS/arm64-neoverse-n2-r0p3" $(arm_l1 neoverse-n2-r0p3.json armv8_pmuv3_0 args)
	assert_line "$(perf_line '' 35.0 frontend_bound)"
	# with -I each line after the interval's time, as perf's
	run "$PT" default-out table-interval "$CPUS/arm64-neoverse-v2" $(arm_l1 neoverse-v2.json armv8_pmuv3_0 args)
	assert_success
	assert_line "     0.001000000 $(want_lines neoverse-v2.json TopdownL1 | head -1)"
	# machine output keeps every counter and prints the metrics, valid
	run "$PT" default-out json "$CPUS/arm64-neoverse-v3" $(arm_l1 neoverse-v3.json armv8_pmuv3_0 args)
	assert_success
	jq_assert '([.counters[].event] | index("stall_slot") != null) and ([.metrics[].name] | sort == ["backend_bound", "bad_speculation", "frontend_bound", "retiring"])' <<<"$output"
	# --dry-run shows the group's events after the default ones
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p3" run "$ROOT/pstat" --dry-run true
	assert_success
	assert_line --regexp '^stall_slot_frontend: resolver sysfs, pmu armv8_pmuv3_0, group [0-9]+'
	# -e, a metric or --for-each-cgroup: no Default group
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p3" run "$ROOT/pstat" --dry-run -e cycles true
	assert_success
	refute_output --partial 'stall_slot'
	PSTAT_SYSFS_ROOT="$CPUS/arm64-neoverse-n2-r0p3" run "$ROOT/pstat" --dry-run -a --for-each-cgroup / true
	assert_success
	refute_output --partial 'stall_slot'
	# -M Default names the same four metrics
	run "$PT" metric-eval "$CPUS/arm64-neoverse-n3 -M Default $(arm_l1 neoverse-n3.json armv8_pmuv3_0 args | tr '\n' ' ')"
	assert_success
	[ "$(grep -cE '^(frontend_bound|bad_speculation|retiring|backend_bound) ' <<<"$output")" = 4 ]
	refute_output --partial 'frontend_core_bound'
}

@test "Arm Default: a core without the slot events has none, as perf; an event the kernel does not list comes from Arm's data" {
	# the QEMU lab's core (no stall_slot*): the default events alone
	run "$PT" default-out table "$CPUS/arm64-qemu-max"
	assert_success
	refute_output --partial 'Topdown'
	assert_line --regexp '^ +1000 +branch-misses '
	# a Neoverse whose kernel does not list the slot events
	cp -r "$CPUS/arm64-neoverse-v2" "$BATS_TEST_TMPDIR/v2"
	rm "$BATS_TEST_TMPDIR"/v2/devices/armv8_pmuv3_0/events/stall_slot*
	run "$PT" default-out table "$BATS_TEST_TMPDIR/v2"
	assert_success
	refute_output --partial 'Topdown'
	refute_output --partial 'bound'
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/v2" run "$ROOT/pstat" --dry-run true
	assert_success
	refute_output --partial 'op_spec'
	# one event of the group not listed by the kernel: Arm's data
	# names it (as perf's tables do), the group stays
	cp -r "$CPUS/arm64-neoverse-v2" "$BATS_TEST_TMPDIR/v2b"
	rm "$BATS_TEST_TMPDIR/v2b/devices/armv8_pmuv3_0/events/stall_slot_backend"
	PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/v2b" run "$ROOT/pstat" --dry-run true
	assert_success
	assert_line --regexp '^stall_slot_backend: resolver vendor, pmu armv8_pmuv3_0, group [0-9]+'
	# counters that never ran: no lines, as perf leaves the group out
	run "$PT" default-out table "$CPUS/arm64-neoverse-v2" stall_slot=- \
		stall_slot_frontend=- stall_slot_backend=- op_spec=- \
		op_retired=- cpu_cycles=- br_mis_pred=-
	assert_success
	refute_output --partial 'Topdown'
}

@test "Arm Default: big.LITTLE has one group per kind of core with Arm's data, as perf on hybrids; none on the Lumex cores perf has no table for" {
	# arm64-dynamiq: Neoverse V2 and N2 PMUs (and a Cortex-A510 without
	# Arm's data): TopdownL1 of each, by PMU name as perf lists them
	# shellcheck disable=SC2046
	run "$PT" default-out table "$CPUS/arm64-dynamiq" \
		$(arm_l1 neoverse-v2.json armv8_neoverse_v2 args pmu) \
		$(arm_l1 neoverse-n2-r0p3.json armv9_neoverse_n2 args pmu)
	assert_success
	diff <(sed -n '/armv9_neoverse_n2\/branch-misses/,/^$/p' <<<"$output" | sed '1d;$d') \
		<(want_lines neoverse-v2.json 'TopdownL1 (armv8_neoverse_v2)'
		  want_lines neoverse-n2-r0p3.json 'TopdownL1 (armv9_neoverse_n2)')
	refute_output --partial 'a510)'
	# the names without the copy's suffix: the title says the core
	refute_output --partial 'bound.armv'
	# Lumex: perf has no table for the C1 cores, so no Default group
	run "$PT" default-out table "$CPUS/arm64-lumex"
	assert_success
	refute_output --partial 'Topdown'
	refute_output --partial 'bound'
	PSTAT_SYSFS_ROOT="$CPUS/arm64-lumex" run "$ROOT/pstat" --dry-run -M Default true
	assert_failure 125
	assert_output --partial "perf's Default group is empty on this CPU: on Arm it holds level 1 of the cores perf has tables for"
	PSTAT_SYSFS_ROOT="$CPUS/arm64-lumex" run "$ROOT/pstat" --dry-run -M TopdownL1 true
	assert_success
	assert_output --partial 'stall_slot'
}
