#!/usr/bin/env bats
# Scaling of multiplexed readings and run statistics (src/report/stats.c), and
# which rows derived metrics are computed from (src/report/metrics.c).

load test_helper

@test "stats: scaling table" {
	run_table scale scale.test
}

@test "stats: summaries, Welch's test and the t distribution" {
	run_table stats stats.test
}

@test "stats: samples may come as separate arguments" {
	run "$PT" stats 1 2 3 4
	assert_success
	assert_output "n=4 mean=2.5 stddev=1.290994449 stderr=0.6454972244 min=1 median=2.5 max=4 rel=25.81988897"
	run "$PT" stats welch 5,5,5 7,7
	assert_success
	assert_output "t=-inf df=3 p=0 ci=[-2,-2]"
}

@test "stats: bad input fails with a message" {
	run "$PT" scale 1 2
	assert_failure
	assert_output "error: expected VAL ENA RUN"
	run "$PT" stats 1 nope
	assert_failure
	assert_output "error: bad number 'nope'"
	run "$PT" stats welch 1,2
	assert_failure
	assert_output "error: expected welch A1,A2,... B1,B2,..."
}

@test "metrics: only from counted rows of one group, or both counted in full" {
	# same group multiplexed: a metric; different groups multiplexed:
	# none; counted in full in different groups: a metric; never from
	# <not counted>; never across CPUs or threads
	run_table metrics metrics.test
}

# Issue 22: building a report is one pass over the readings, whatever
# the number of threads, events and PMU instances (it was a scan of
# every thread for each thread's row, and of every event for each row).
@test "report rows: each reading is summed once, at 100 and 6000 threads" {
	local a

	for a in "3 100" "3 6000" "40 100 4" "8 6000 2"; do
		run "$PT" rows "$a"
		assert_success
		set -- $a
		assert_output "rows $(($1 * $2)) summed $(($1 * $2 * ${3:-1}))"
	done
}

# The metrics of --metric and -M, once per thread: each thread's inputs
# and the row its line follows were found by scanning every row for
# every thread (and again for each input), quadratic in the threads.
@test "report rows: a metric per thread at 100 and 6000 threads, from its own rows" {
	local a

	for a in "2 100 1 m" "3 6000 1 m" "8 6000 2 m"; do
		run "$PT" rows "$a"
		assert_success
		set -- $a
		assert_output "rows $(($1 * $2)) summed $(($1 * $2 * $3)) metrics $2"
	done
	run "$PT" rows "1 100 1 m"
	assert_failure
	assert_output --partial "error: usage"
}

# Issue 33: an idle thread's interval row (its counters read as the
# time before) is kept from the last interval rather than built again;
# the rows must be those a build of every row gives, interval after
# interval, as threads wake and sleep, and after a build of the totals.
@test "report rows: an idle thread's interval row kept is the row built anew" {
	local a

	for a in "300 40 7" "50 100 3" "6000 6 9"; do
		run "$PT" rows-idle $a
		assert_success
		set -- $a
		[[ "$output" =~ ^intervals\ $2,\ rows\ $(($1 * 2 * $2)),\ differ\ 0,\ kept\ [1-9][0-9]*$ ]]
	done
}

@test "stats: a counter on one CPU is enabled at most the time that passed" {
	# an empty cgroup's task-clock, whose kernel clock jumped by 665 s
	# before the first reading: 1 s an interval, as the -I path saw
	run "$PT" bound 1000000000 665000000000,0 666000000000,0 667000000000,0
	assert_success
	assert_output "1 ena=1000000000 run=0 total_ena=1000000000 total_run=0 bounded
2 ena=1000000000 run=0 total_ena=2000000000 total_run=0
3 ena=1000000000 run=0 total_ena=3000000000 total_run=0"
	# the 3.8 s of another run, while the counter ran
	run "$PT" bound 1000000000 3800000000,3800000000 4800000000,4800000000
	assert_output "1 ena=1000000000 run=1000000000 total_ena=1000000000 total_run=1000000000 bounded
2 ena=1000000000 run=1000000000 total_ena=2000000000 total_run=2000000000"
	# sane readings pass as they are: multiplexed, idle, a little late
	# (the CPUs are read one after another)
	run "$PT" bound 1000000000 1000000000,500000000 2100000000,1000000000 2100000000,1000000000
	assert_output "1 ena=1000000000 run=500000000 total_ena=1000000000 total_run=500000000
2 ena=1100000000 run=500000000 total_ena=2100000000 total_run=1000000000
3 ena=0 run=0 total_ena=2100000000 total_run=1000000000"
	# a jump later on, in a counter that counted
	run "$PT" bound 1000000000 1000000000,1000000000 9000000000,9000000000 10000000000,10000000000
	assert_output "1 ena=1000000000 run=1000000000 total_ena=1000000000 total_run=1000000000
2 ena=1000000000 run=1000000000 total_ena=2000000000 total_run=2000000000 bounded
3 ena=1000000000 run=1000000000 total_ena=3000000000 total_run=3000000000"
	run "$PT" bound 1000000000 1,2,3
	assert_failure
}
