#!/usr/bin/env bats
# --openmetrics: the exposition is read back by the official parsers of
# Debian's python3-prometheus-client (OpenMetrics, and the Prometheus
# text format 0.0.4 that `pstat serve` also speaks), counters are totals
# that never go backwards, metrics are gauges of each interval's value,
# and -o FILE -I MS replaces FILE whole each interval, for node_exporter's
# textfile collector.

load test_helper

# need_om_parser, om_check, free_port
load serve_helper

OM_CASES="basic notsupported multiplexed badutf8 sep-in-name percpu
thread huge attach signal"
OM_INTERVAL_CASES="interval percpu-interval thread-interval"

@test "openmetrics: every print case passes the OpenMetrics parser" {
	need_om_parser
	for c in $OM_CASES; do
		"$PT" print openmetrics "$c" >"$BATS_TEST_TMPDIR/om"
		om_check openmetrics "$BATS_TEST_TMPDIR/om" >"$BATS_TEST_TMPDIR/r" ||
			{ echo "case $c"; cat "$BATS_TEST_TMPDIR/om"; return 1; }
		# something was read: the build info at least
		grep -q '^sample pstat_build_info{version="' "$BATS_TEST_TMPDIR/r"
		[ "$(tail -n1 "$BATS_TEST_TMPDIR/om")" = "# EOF" ]
	done
	for c in $OM_INTERVAL_CASES; do
		"$PT" print openmetrics "$c" >"$BATS_TEST_TMPDIR/om"
		om_check openmetrics-stream "$BATS_TEST_TMPDIR/om" >/dev/null ||
			{ echo "case $c"; return 1; }
	done
}

@test "openmetrics: every print case passes the text format 0.0.4 parser" {
	need_om_parser
	for c in $OM_CASES; do
		"$PT" print prometheus "$c" >"$BATS_TEST_TMPDIR/t"
		run om_check text "$BATS_TEST_TMPDIR/t"
		assert_success
		# the parser saw the types: counters are counters, not unknown
		assert_line --regexp '^family pstat_(events|event_seconds) counter -$'
		refute_line --regexp '^family .* unknown '
		# no OpenMetrics-only lines in the text format
		run grep -E '^# (UNIT|EOF)' "$BATS_TEST_TMPDIR/t"
		assert_failure
	done
	for c in $OM_INTERVAL_CASES; do
		"$PT" print prometheus "$c" >"$BATS_TEST_TMPDIR/t"
		om_check text-stream "$BATS_TEST_TMPDIR/t" >/dev/null
	done
}

@test "openmetrics: families, units and labels" {
	need_om_parser
	run om_check openmetrics <("$PT" print openmetrics basic)
	assert_success
	# task-clock in seconds, not msec; Joules in the base unit's name
	assert_line 'family pstat_event_seconds counter seconds'
	assert_line 'sample pstat_event_seconds_total{event="task-clock",pmu="software"} 0.000634812'
	assert_line 'family pstat_events counter -'
	assert_line 'sample pstat_events_total{event="instructions",pmu="cpu"} 1234567.0'
	assert_line 'family pstat_event_joules counter joules'
	assert_line 'sample pstat_event_joules_total{event="power/energy-pkg/",pmu="power"} 1.25'
	assert_line 'family pstat_enabled_seconds counter seconds'
	assert_line 'family pstat_running_seconds counter seconds'
	assert_line 'family pstat_build info -'
	# -A: a cpu label; --per-thread: a thread label
	run om_check openmetrics <("$PT" print openmetrics percpu)
	assert_line 'sample pstat_event_seconds_total{cpu="1",event="task-clock",pmu="software"} 0.01187'
	run om_check openmetrics <("$PT" print openmetrics thread)
	assert_line 'sample pstat_events_total{comm="worker",event="cs",pmu="software",tid="4250"} 21.0'
	assert_line 'sample pstat_event_seconds_total{comm="pt-threads",event="task-clock",pmu="software",tid="4242"} 0.21724'
	refute_line --partial 'thread='
}

@test "openmetrics: a counter that was not opened has no samples but pstat_counted 0" {
	need_om_parser
	for fmt in openmetrics prometheus; do
		p=$fmt
		[ "$fmt" = prometheus ] && p=text
		run om_check "$p" <("$PT" print "$fmt" notsupported)
		assert_success
		assert_line 'sample pstat_event_seconds_total{event="task-clock",pmu="software"} 0.0005'
		refute_line --regexp '^sample pstat_(events|enabled|running).*event="(cycles|msr/tsc/)"'
		# but each is a series that says it did not count
		assert_line --regexp '^family pstat_counted (gauge|unknown) -$'
		assert_line 'sample pstat_counted{event="task-clock",pmu="software"} 1.0'
		assert_line 'sample pstat_counted{event="cycles",pmu="cpu"} 0.0'
		assert_line 'sample pstat_counted{event="msr/tsc/",pmu="msr"} 0.0'
		assert_line 'sample pstat_counted{event="cpu/nonsense/",pmu="cpu"} 0.0'
		[ "$(grep -c '^sample pstat_counted' <<<"$output")" = 4 ]
	done
	# one that was opened and never ran counts 0, and says it never ran
	run om_check openmetrics <("$PT" print openmetrics multiplexed)
	assert_line 'sample pstat_events_total{event="cache-misses",pmu="cpu"} 0.0'
	assert_line 'sample pstat_running_seconds_total{event="cache-misses",pmu="cpu"} 0.0'
	assert_line 'sample pstat_enabled_seconds_total{event="cache-misses",pmu="cpu"} 0.002'
	assert_line 'sample pstat_counted{event="cache-misses",pmu="cpu"} 0.0'
	assert_line --regexp '^sample pstat_counted\{event="cycles",pmu="cpu"\} 1\.0$'
}

@test "openmetrics: live, cycles on a machine without them is pstat_counted 0" {
	need_om_parser
	need_perf_events
	run "$PSTAT" --openmetrics -e task-clock,cycles -o "$BATS_TEST_TMPDIR/om" true
	grep -q '^pstat_events_total{event="cycles"' "$BATS_TEST_TMPDIR/om" &&
		skip "this machine counts cycles"
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line 'sample pstat_counted{event="cycles",pmu="cpu"} 0.0'
	assert_line 'sample pstat_counted{event="task-clock",pmu="software"} 1.0'
}

@test "openmetrics: label values are escaped and UTF-8" {
	need_om_parser
	run om_check openmetrics <("$PT" print openmetrics sep-in-name)
	assert_success
	assert_line 'sample pstat_events_total{comm="plain",event="quo\"te",pmu="software",tid="19"} 5.0'
	assert_line 'sample pstat_events_total{comm="a::b",event="new\nline",pmu="software",tid="20"} 6.0'
	# a unit that is no base unit names its own family
	assert_line 'family pstat_event_u_nit counter u_nit'
	# bytes that are not UTF-8 become U+FFFD
	"$PT" print openmetrics badutf8 >"$BATS_TEST_TMPDIR/om"
	iconv -f UTF-8 -t UTF-8 "$BATS_TEST_TMPDIR/om" >/dev/null
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line --partial $'event="name\xef\xbf\xbd\xef\xbf\xbd"'
}

@test "openmetrics: numbers ignore a locale with a decimal comma" {
	comma_locale || skip "no locale with a decimal comma (install locales, or localedef de_DE.UTF-8)"
	for fmt in openmetrics prometheus; do
		for c in $OM_CASES $OM_INTERVAL_CASES; do
			LC_ALL=C "$PT" print "$fmt" "$c" >"$BATS_TEST_TMPDIR/c"
			LC_ALL=$loc "$PT" print "$fmt" "$c" >"$BATS_TEST_TMPDIR/l"
			cmp "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/l"
		done
	done
	# and the live printer too
	LC_ALL=$loc "$PSTAT" --openmetrics -e task-clock true 2>"$BATS_TEST_TMPDIR/l" ||
		skip "perf_event_open refuses task-clock here"
	grep -q '^pstat_event_seconds_total{[^}]*} [0-9]*\.[0-9]*$' "$BATS_TEST_TMPDIR/l"
}

@test "openmetrics: a write error is an error" {
	run "$PT" print openmetrics basic /dev/full
	assert_failure
	need_perf_events
	run "$PSTAT" --openmetrics -e task-clock -o /dev/full true
	assert_failure 125
	assert_output --partial "pstat: cannot write the results to '/dev/full'"
}

@test "openmetrics: totals never go backwards over 100 multiplexed intervals" {
	run "$PT" totals 7 100
	assert_success
	[ "${#lines[@]}" = 300 ]
	# each counter's total, enabled and running times only grow, while
	# scaling each whole reading at once goes back at least once here
	# (the hazard the totals avoid)
	echo "$output" | awk '
		{
			for (f = 3; f <= 6; f++) {
				split($f, kv, "=")
				k = $2 " " kv[1]
				if (k in last && kv[2] + 0 < last[k]) {
					if (kv[1] == "naive")
						naive_back++
					else {
						print "went back: " $0
						bad++
					}
				}
				last[k] = kv[2] + 0
			}
		}
		END { exit !(bad == 0 && naive_back > 0) }'
	for seed in 1 2 3 99; do
		"$PT" totals "$seed" 100 | awk '
			{ split($3, kv, "="); k = $2
			  if (k in last && kv[2] + 0 < last[k]) exit 1
			  last[k] = kv[2] + 0 }'
	done
}

# Issue 33: an interval that adds nothing to the totals (every thread
# idle) and has no metric is written from the text kept of the last;
# each must be the exposition written anew from all the intervals so far.
@test "openmetrics: an interval of idle threads, its text kept, is the one written anew" {
	local a

	for a in "50 20 3" "300 12 5" "2 40 11"; do
		run "$PT" om-kept $a
		assert_success
		set -- $a
		[[ "$output" =~ ^intervals\ $2,\ idle\ [1-9][0-9]*,\ differ\ 0$ ]]
	done
}

@test "openmetrics: an exact tracepoint count, both parsers" {
	need_om_parser
	need_tracepoint
	w=$(prog writer)
	run "$PSTAT" --openmetrics -o "$BATS_TEST_TMPDIR/om" \
		-e syscalls:sys_enter_write,task-clock -- "$w" 1234
	assert_success
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line 'sample pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"} 1234.0'
	assert_line --regexp '^sample pstat_event_seconds_total\{event="task-clock",pmu="software"\} [0-9.e-]+$'
	# the text format parser reads it too (without the types)
	run om_check text "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line 'sample pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"} 1234.0'
}

@test "openmetrics: -I prints running totals, each exposition whole" {
	need_om_parser
	need_tracepoint
	w=$(prog writer)
	# 40 writes 10 ms apart: several 100 ms intervals, on stderr (a
	# stream: one exposition after another)
	"$PSTAT" --openmetrics -I 100 -e syscalls:sys_enter_write \
		-- "$w" 40 1 0 10 2>"$BATS_TEST_TMPDIR/om"
	run om_check openmetrics-stream "$BATS_TEST_TMPDIR/om"
	assert_success
	echo "$output" | grep ' sample pstat_events_total' >"$BATS_TEST_TMPDIR/v"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/v")" -ge 2 ]
	# never backwards, and the last is the whole count
	awk '{ if ($NF + 0 < last) exit 1; last = $NF + 0 }' "$BATS_TEST_TMPDIR/v"
	[ "$(tail -n1 "$BATS_TEST_TMPDIR/v" | awk '{ print $NF }')" = 40.0 ]
}

@test "openmetrics: -o FILE -I MS replaces FILE whole, for a reader at any moment" {
	need_om_parser
	need_tracepoint
	w=$(prog writer)
	f="$BATS_TEST_TMPDIR/pstat.prom"
	"$PSTAT" --openmetrics -I 20 -o "$f" -e syscalls:sys_enter_write \
		-- "$w" 150 1 0 4 &
	pid=$!
	# read it as often as we can while it is rewritten
	n=0
	while kill -0 "$pid" 2>/dev/null; do
		if cp "$f" "$BATS_TEST_TMPDIR/copy" 2>/dev/null; then
			om_check openmetrics "$BATS_TEST_TMPDIR/copy" >/dev/null ||
				{ cat "$BATS_TEST_TMPDIR/copy"; return 1; }
			n=$((n + 1))
		fi
	done
	wait "$pid"
	[ "$n" -ge 1 ]
	# the file holds one exposition: the final totals
	run om_check openmetrics "$f"
	assert_success
	assert_line 'sample pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"} 150.0'
	# and no temporary file is left beside it
	run ls -A "$BATS_TEST_TMPDIR"
	refute_output --partial '.pstat.prom.'
}

@test "openmetrics: a new -o FILE (with or without -I) appears with a whole report, never empty" {
	need_perf_events
	f="$BATS_TEST_TMPDIR/new.prom"
	go="$BATS_TEST_TMPDIR/go"
	for interval in "-I 100000" ""; do
		rm -f "$f" "$go"
		# the command waits (20 s at most) until told to go
		# shellcheck disable=SC2086
		"$PSTAT" --openmetrics $interval -o "$f" -e task-clock -- \
			sh -c 'for i in $(seq 400); do [ -e "$1" ] && exit; sleep 0.05; done' \
			_ "$go" &
		pid=$!
		# the output is open once its temporary file is there
		for _ in $(seq 100); do
			ls -A "$BATS_TEST_TMPDIR" | grep -q '^\.new\.prom\.' && break
			sleep 0.05
		done
		opened=no absent=no
		ls -A "$BATS_TEST_TMPDIR" | grep -q '^\.new\.prom\.' && opened=yes
		[ -e "$f" ] || absent=yes
		touch "$go"
		wait "$pid"
		[ "$opened" = yes ]
		[ "$absent" = yes ]
		grep -q '^pstat_event_seconds_total{event="task-clock"' "$f"
		[ "$(tail -n1 "$f")" = "# EOF" ]
		run ls -A "$BATS_TEST_TMPDIR"
		refute_output --partial '.new.prom.'
	done
}

@test "openmetrics: node_exporter's textfile collector reads the --prometheus -o file" {
	need_tracepoint
	command -v prometheus-node-exporter >/dev/null ||
		skip "prometheus-node-exporter is not installed"
	command -v curl >/dev/null || skip "curl is not installed"
	w=$(prog writer)
	dir="$BATS_TEST_TMPDIR/textfile"
	mkdir "$dir"
	"$PSTAT" --prometheus -I 50 -o "$dir/pstat.prom" \
		-e syscalls:sys_enter_write -- "$w" 77
	port=$(free_port)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$dir" \
		>"$BATS_TEST_TMPDIR/ne.log" 2>&1 &
	ne=$!
	for _ in $(seq 50); do
		curl -sf "http://127.0.0.1:$port/metrics" >"$BATS_TEST_TMPDIR/m" && break
		sleep 0.1
	done
	kill "$ne"
	wait "$ne" || true
	run cat "$BATS_TEST_TMPDIR/m"
	assert_line 'node_textfile_scrape_error 0'
	# typed as pstat typed them, not "untyped"
	assert_line '# TYPE pstat_events_total counter'
	assert_line 'pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"} 77'
}

@test "openmetrics: options that cannot go with it" {
	run "$PSTAT" --openmetrics -j true
	assert_failure 125
	assert_output --partial '--openmetrics and -j cannot be combined'
	run "$PSTAT" --openmetrics -x, true
	assert_failure 125
	run "$PSTAT" --openmetrics -r 3 true
	assert_failure 125
	assert_output --partial 'not means of runs'
	run "$PSTAT" --openmetrics -B true
	assert_failure 125
	run "$PSTAT" --prometheus --openmetrics true
	assert_failure 125
	assert_output --partial '--openmetrics and --prometheus cannot be combined'
	run "$PSTAT" --prometheus -j true
	assert_failure 125
	assert_output --partial '--prometheus and -j cannot be combined'
}

@test "openmetrics: -o in a directory that cannot be written fails before counting" {
	need_nobody
	mkdir "$BATS_TEST_TMPDIR/ro"
	chmod 755 "$BATS_TEST_TMPDIR/ro"
	run as_nobody --openmetrics -I 100 -o "$BATS_TEST_TMPDIR/ro/x.prom" \
		-e task-clock true
	assert_failure 125
	assert_output --regexp "^pstat: cannot open output file '.*/ro/x.prom': Permission denied"
	[ ! -e "$BATS_TEST_TMPDIR/ro/x.prom" ]
}

@test "openmetrics: -G labels each series with its cgroup, in every interval" {
	need_om_parser
	need_cpu_wide
	"$PSTAT" -a -e task-clock -G / --timeout 50 >/dev/null 2>&1 ||
		skip "cgroup events cannot be counted here"
	"$PSTAT" --openmetrics -a -e task-clock -G / -e context-switches \
		-I 100 --timeout 350 2>"$BATS_TEST_TMPDIR/om"
	run om_check openmetrics-stream "$BATS_TEST_TMPDIR/om"
	assert_success
	# the running totals keep the label, and tell the two series apart
	assert_line --regexp '^1 sample pstat_event_seconds_total\{cgroup="/",event="task-clock",pmu="software"\} '
	assert_line --regexp '^3 sample pstat_event_seconds_total\{cgroup="/",event="task-clock",pmu="software"\} '
	assert_line --regexp '^3 sample pstat_events_total\{event="context-switches",pmu="software"\} '
}

@test "openmetrics: metric values are a gauge family per unit, in both parsers" {
	need_om_parser
	for fmt in openmetrics prometheus; do
		p=$fmt
		[ "$fmt" = prometheus ] && p=text
		"$PT" om-metrics "$fmt" summary >"$BATS_TEST_TMPDIR/m"
		run om_check "$p" "$BATS_TEST_TMPDIR/m"
		assert_success
		if [ "$fmt" = openmetrics ]; then
			assert_line 'family pstat_metric gauge -'
			assert_line 'family pstat_metric_ratio gauge ratio'
			assert_line 'family pstat_metric_insn_per_cycle gauge insn_per_cycle'
		else
			assert_line 'family pstat_metric_ratio gauge -'
		fi
		# a percentage as a fraction 0-1, the unit in the name
		assert_line 'sample pstat_metric_ratio{metric="frontend_bound"} 0.225'
		assert_line 'sample pstat_metric{metric="ipc"} 1.25'
		assert_line 'sample pstat_metric_insn_per_cycle{metric="quo\"te\\"} 3.0'
		refute_line --partial 'unit="'
		# no value, +inf and -inf: no sample; a repeat: the first
		[ "$(grep -c '^sample pstat_metric' <<<"$output")" = 3 ]
		run grep -Eic '^pstat_metric[a-z_]*\{.*\} [+-]?(nan|inf)' "$BATS_TEST_TMPDIR/m"
		assert_output 0
		# -A: each CPU's own, none for the CPU without a value
		"$PT" om-metrics "$fmt" percpu >"$BATS_TEST_TMPDIR/m"
		run om_check "$p" "$BATS_TEST_TMPDIR/m"
		assert_success
		assert_line 'sample pstat_metric{cpu="0",metric="ipc"} 0.5'
		assert_line 'sample pstat_metric{cpu="2",metric="ipc"} 2.0'
		refute_line --partial 'cpu="1",metric='
		# --per-core's ids and --per-thread's comm and tid, as counters have
		"$PT" om-metrics "$fmt" aggr >"$BATS_TEST_TMPDIR/m"
		run om_check "$p" "$BATS_TEST_TMPDIR/m"
		assert_success
		assert_line 'sample pstat_metric_ratio{cluster="0",core="1",die="0",metric="retiring",socket="0"} 0.6'
		assert_line 'sample pstat_metric{comm="app",metric="ipc",tid="42"} 1.0'
	done
	# without metrics, no family
	"$PT" print openmetrics basic >"$BATS_TEST_TMPDIR/m"
	run grep -c pstat_metric "$BATS_TEST_TMPDIR/m"
	assert_output 0
}

@test "openmetrics: metric units as Prometheus names them" {
	need_om_parser
	run "$PT" om-units '' % GHz MHz ms ns MiB/s KiB/sec insn/cycle \
		cycles/insn MPKI CPUs walks/kinsn 'a b/c' Joules
	assert_success
	assert_output "'' pstat_metric x1
'%' pstat_metric_ratio x0.01
'GHz' pstat_metric_hertz x1000000000
'MHz' pstat_metric_hertz x1000000
'ms' pstat_metric_seconds x0.001
'ns' pstat_metric_seconds x1e-09
'MiB/s' pstat_metric_bytes_per_second x1048576
'KiB/sec' pstat_metric_bytes_per_second x1024
'insn/cycle' pstat_metric_insn_per_cycle x1
'cycles/insn' pstat_metric_cycles_per_insn x1
'MPKI' pstat_metric_mpki x1
'CPUs' pstat_metric_cpus x1
'walks/kinsn' pstat_metric_walks_per_kinsn x1
'a b/c' pstat_metric_a_b_per_c x1
'Joules' pstat_metric_joules x1"
}

@test "openmetrics: -I, each interval's metric value beside running totals" {
	need_om_parser
	"$PT" om-metrics openmetrics interval >"$BATS_TEST_TMPDIR/m"
	run om_check openmetrics-stream "$BATS_TEST_TMPDIR/m"
	assert_success
	assert_line '1 sample pstat_events_total{event="cycles",pmu="cpu"} 2000.0'
	assert_line '1 sample pstat_metric{metric="ipc"} 1.5'
	assert_line '2 sample pstat_events_total{event="cycles",pmu="cpu"} 4000.0'
	# the second interval's metric had no value: the family, no sample
	assert_line '2 family pstat_metric gauge -'
	refute_line --regexp '^2 sample pstat_metric'
	assert_line '3 sample pstat_events_total{event="cycles",pmu="cpu"} 6000.0'
	assert_line '3 sample pstat_metric{metric="ipc"} 0.25'
	# and nothing after the intervals
	[ "$(grep -c '^# EOF$' "$BATS_TEST_TMPDIR/m")" = 3 ]
	"$PT" om-metrics prometheus interval >"$BATS_TEST_TMPDIR/t"
	run om_check text-stream "$BATS_TEST_TMPDIR/t"
	assert_success
	assert_line '3 sample pstat_metric{metric="ipc"} 0.25'
}

@test "openmetrics: live metrics from an exact tracepoint count, both formats" {
	need_om_parser
	need_tracepoint
	w=$(prog writer)
	for fmt in openmetrics prometheus; do
		p=$fmt
		[ "$fmt" = prometheus ] && p=text
		run "$PSTAT" "--$fmt" -o "$BATS_TEST_TMPDIR/om" \
			-e syscalls:sys_enter_write \
			--metric 'kwrites = syscalls:sys_enter_write / 1000; unit = kwrites' \
			--metric 'half = syscalls:sys_enter_write / (2 * syscalls:sys_enter_write); scale = 100; unit = %' \
			--metric 'zero = syscalls:sys_enter_write / (syscalls:sys_enter_write - syscalls:sys_enter_write)' \
			-- "$w" 1234
		assert_success
		run om_check "$p" "$BATS_TEST_TMPDIR/om"
		assert_success
		assert_line 'sample pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"} 1234.0'
		assert_line 'sample pstat_metric_kwrites{metric="kwrites"} 1.234'
		assert_line 'sample pstat_metric_ratio{metric="half"} 0.5'
		# a division by zero: no sample
		refute_line --partial 'metric="zero"'
	done
}

@test "openmetrics: live -I, each exposition's metric from its own interval" {
	need_om_parser
	need_tracepoint
	w=$(prog writer)
	"$PSTAT" --openmetrics -I 100 -e syscalls:sys_enter_write \
		--metric 'w = syscalls:sys_enter_write / 1' \
		-- "$w" 40 1 0 10 2>"$BATS_TEST_TMPDIR/om"
	run om_check openmetrics-stream "$BATS_TEST_TMPDIR/om"
	assert_success
	# each interval's metric is its total less the one before
	echo "$output" | awk '
		/ sample pstat_events_total/ { tot[$1] = $NF + 0 }
		/ sample pstat_metric\{metric="w"/ { m[$1] = $NF + 0 }
		END {
			for (i = 1; i in tot; i++) {
				d = tot[i] - (i > 1 ? tot[i - 1] : 0)
				if ((i in m) ? m[i] != d : d != 0) exit 1
				n += (i in m)
			}
			exit !(n >= 2)
		}'
}

@test "openmetrics: --metric-only, the pstat_metric families alone, in both parsers" {
	need_om_parser
	local fmt p c s want
	for fmt in openmetrics prometheus; do
		p=$fmt
		[ "$fmt" = prometheus ] && p=text
		for c in summary percpu aggr interval; do
			s=
			[ "$c" = interval ] && s=-stream
			"$PT" om-metrics "$fmt" "$c" >"$BATS_TEST_TMPDIR/all"
			"$PT" om-metrics "$fmt" "$c" metric-only >"$BATS_TEST_TMPDIR/m"
			run om_check "$p$s" "$BATS_TEST_TMPDIR/all"
			assert_success
			grep -E '(^| )sample pstat_metric[a-z_]*\{' <<<"$output" >"$BATS_TEST_TMPDIR/want"
			run om_check "$p$s" "$BATS_TEST_TMPDIR/m"
			assert_success
			# the metrics' samples as without it, in every exposition
			[ -s "$BATS_TEST_TMPDIR/want" ]
			diff "$BATS_TEST_TMPDIR/want" <(grep -E '(^| )sample pstat_metric[a-z_]*\{' <<<"$output")
			# no counter, enabled or running family: metrics and the build
			refute_line --regexp '(^| )sample pstat_(event|enabled|running|counted)'
			want="family pstat_build"
			[ "$fmt" = prometheus ] && want="family pstat_build_info"
			[ "$(grep -oE 'family [a-z_]+' <<<"$output" | grep -v 'family pstat_metric' | sort -u | paste -sd' ')" = "$want" ]
		done
	done
}

@test "openmetrics: live --metric-only prints the metrics without the counters" {
	need_om_parser
	need_tracepoint
	w=$(prog writer)
	for fmt in openmetrics prometheus; do
		p=$fmt
		[ "$fmt" = prometheus ] && p=text
		run "$PSTAT" "--$fmt" --metric-only -o "$BATS_TEST_TMPDIR/om" \
			-e syscalls:sys_enter_write \
			--metric 'kwrites = syscalls:sys_enter_write / 1000; unit = kwrites' \
			-- "$w" 1234
		assert_success
		run om_check "$p" "$BATS_TEST_TMPDIR/om"
		assert_success
		assert_line 'sample pstat_metric_kwrites{metric="kwrites"} 1.234'
		refute_line --partial 'pstat_events'
		refute_line --partial 'pstat_enabled'
		refute_line --partial 'pstat_running'
		[ "$(grep -c '^sample ' <<<"$output")" = 2 ]
		assert_line --regexp '^sample pstat_build_info\{version="[^"]+"\} 1\.0$'
	done
}

@test "openmetrics: two events given one name are two series, as in the table" {
	need_om_parser
	need_perf_events
	# the attack: one series where the table shows two
	run "$PSTAT" --openmetrics -o "$BATS_TEST_TMPDIR/om" \
		-e cpu-clock/name=x/ -e task-clock/name=x/ -e cpu-clock \
		-e cpu-clock true
	assert_success
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	assert_line --regexp '^sample pstat_event_seconds_total\{event="x",pmu="software"\} '
	assert_line --regexp '^sample pstat_event_seconds_total\{event="x",occurrence="2",pmu="software"\} '
	assert_line --regexp '^sample pstat_event_seconds_total\{event="cpu-clock",occurrence="2",pmu="software"\} '
	[ "$(grep -c '^sample pstat_event_seconds_total' <<<"$output")" = 4 ]
	[ "$(grep -c '^sample pstat_running_seconds_total' <<<"$output")" = 4 ]
}

@test "openmetrics: cgroups whose names differ only in bytes that are not UTF-8 are two series" {
	need_om_parser
	need_root
	need_cpu_wide
	# the hierarchy pstat counts in (51-cgroup.bats's cgroup_mount)
	CG=$(awk '{
		for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)perf_event(,|$)/) v1 = $5
		else if ($(i + 1) == "cgroup2" && !v2) v2 = $5
	} END { print (v1 != "" ? v1 : v2) }' /proc/self/mountinfo)
	[ -n "$CG" ] || skip "no cgroup hierarchy counts perf events here"
	"$PSTAT" -a -e task-clock -G / --timeout 50 >/dev/null 2>&1 ||
		skip "cgroup events cannot be counted here"
	a=$'pstat-om'$$$'-dup\xff' b=$'pstat-om'$$$'-dup\xfe'
	mkdir "$CG/$a" "$CG/$b" || skip "cannot make a cgroup under $CG"
	run "$PSTAT" --openmetrics -o "$BATS_TEST_TMPDIR/om" -a \
		-e task-clock,task-clock -G "$a,$b" --timeout 100
	rmdir "$CG/$a" "$CG/$b"
	assert_success
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	want=$'cgroup="pstat-om'$$$'-dup\xef\xbf\xbd"'
	[ "$(grep -c "^sample pstat_event_seconds_total{$want,event=\"task-clock\",pmu=\"software\"} " <<<"$output")" = 1 ]
	[ "$(grep -c "^sample pstat_event_seconds_total{$want,event=\"task-clock\",occurrence=\"2\",pmu=\"software\"} " <<<"$output")" = 1 ]
}
