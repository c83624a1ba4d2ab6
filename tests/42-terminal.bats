#!/usr/bin/env bats
# The table on a terminal: digit grouping by default, the interval header
# repeated every 25 lines, and the sparklines after an interval run,
# which fit the terminal's width. script(1) gives pstat a terminal.
# Also the -A and --per-thread layouts, plain and -I, against perf's.

bats_require_minimum_version 1.5.0
load test_helper

# what a test started in the background, killed however it ends
teardown() {
	[ -z "${spin_pid:-}" ] || kill "$spin_pid" 2>/dev/null || true
}

need_script() {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
}

# on_tty COLS CMD...: run CMD on a terminal COLS columns wide, its output
# (without the terminal's carriage returns) in $output.
on_tty() {
	local cols=$1 cmd=""

	shift
	printf -v cmd '%q ' "$@"
	run script -qec "stty cols $cols rows 50 2>/dev/null; $cmd" /dev/null
	output=${output//$'\r'/}
}

# The glyphs of EVENT's sparkline in $output, counted.
sparkline_glyphs() {
	/usr/bin/python3 -c '
import re, sys
for line in sys.stdin.read().split("\n"):
    m = re.match(r" (\S+) +([\u2581-\u2588]+)$", line)
    if m and m.group(1) == sys.argv[1]:
        print(len(m.group(2)))' "$1" <<<"$output"
}

@test "sparkline: bucket means, as many glyphs as fit" {
	run_table sparkline sparkline.test
}

@test "sparkline: only on a terminal, one per event" {
	run "$PT" print table interval
	assert_success
	refute_output --partial "Rates per interval"
	run "$PT" print table-tty interval
	assert_success
	assert_output --partial " Rates per interval:"
	assert_output --regexp $'\n task-clock +█▁▁\n page-faults +█▁▁$'
}

# A flat rate whose last interval was a sliver ended in a spike, ▁▁▁█
# (issue 30): that interval is left out of the sparkline.
@test "sparkline: a last interval under half the one before is left out" {
	local ms
	need_script
	on_tty 100 "$PSTAT" -I 100 -e task-clock -- sleep 0.32
	assert_success
	ms=$(sed -n 's/^# interval 4 is partial: \([0-9]*\)\..*/\1/p' <<<"$output")
	[ -n "$ms" ] && [ "$ms" -lt 50 ] ||
		skip "the machine is too slow: intervals ${ms:-missing}"
	[ "$(sparkline_glyphs task-clock)" = 3 ]
}

# A long run keeps at most twice the terminal's width of rates per row
# (they grew by a row's worth every interval, without bound): pairs of
# older intervals merge, and the line still shows the run's shape.
@test "sparkline: 4000 intervals, rising then falling, in as many glyphs as fit" {
	local glyphs

	run "$PT" print table-tty long-interval
	assert_success
	glyphs=$(/usr/bin/python3 -c '
import re, sys
for line in sys.stdin.read().split("\n"):
    m = re.match(r" task-clock +([\u2581-\u2588]+)$", line)
    if m:
        print(" ".join(str(ord(c) - 0x2581) for c in m.group(1)))' <<<"$output")
	# 80 columns less " task-clock" padded to 32 and 3 spaces: 45
	[ "$(wc -w <<<"$glyphs")" = 45 ]
	/usr/bin/python3 -c '
import sys
g = [int(x) for x in sys.argv[1].split()]
top = g.index(max(g))
assert g[0] == 0 and g[-1] == 0 and max(g) == 7, g
assert 18 <= top <= 26, g
assert g[:top + 1] == sorted(g[:top + 1]), g
assert g[top:] == sorted(g[top:], reverse=True), g' "$glyphs"
}

@test "sparkline: with -A and --per-thread each line names its CPU or thread" {
	run "$PT" print table-tty percpu-interval
	assert_success
	assert_output --partial "$(cat <<'EOF'
 CPU0 task-clock                       ▁█▂
 CPU1 task-clock                       █▁█
 CPU0 cs                               █▁▄
 CPU1 cs                               ▁▆█
EOF
)"
	run "$PT" print table-tty thread-interval
	assert_success
	assert_output --partial "$(cat <<'EOF'
 pt-threads-4242 task-clock                       ▁▄█
 worker-4250     task-clock                       ▁█▁
 pt-threads-4242 cs                               ██▁
 worker-4250     cs                               ▁█▁
EOF
)"
}

# same_as_perf WHAT ARGS...: pstat and perf stat with ARGS print the same
# table (WHAT "all") or the same interval header and lines (WHAT
# "intervals": perf prints no summary after them): alike once numbers
# are N, each line as long and with its '#' at the same column.
same_as_perf() {
	local what=$1

	shift
	perf stat "$@" 2>"$BATS_TEST_TMPDIR/perf" >/dev/null ||
		skip "perf stat cannot count this here: $(head -1 "$BATS_TEST_TMPDIR/perf")"
	"$PSTAT" "$@" 2>"$BATS_TEST_TMPDIR/ours" >/dev/null ||
		fail "pstat $*: $(cat "$BATS_TEST_TMPDIR/ours")"
	pick() {
		if [ "$what" = intervals ]; then
			grep -E '^#  *time |^ +[0-9]+\.[0-9]{9} ' "$1" |
				grep -v 'seconds time elapsed'
		else
			grep -v '^pstat: hint:' "$1"
		fi
	}
	norm() {
		pick "$1" |
			sed -E 's/[0-9]([0-9,.]*[0-9])?/N/g; s/[KMG]\/sec/\/sec/; s/ +/ /g'
	}
	shape() {
		pick "$1" | awk '{ print length($0), index($0, "#") }'
	}
	[ -n "$(pick "$BATS_TEST_TMPDIR/perf")" ] || fail "no lines from perf"
	diff <(norm "$BATS_TEST_TMPDIR/ours") <(norm "$BATS_TEST_TMPDIR/perf")
	diff <(shape "$BATS_TEST_TMPDIR/ours") <(shape "$BATS_TEST_TMPDIR/perf")
}

@test "-A tables have perf's layout, plain and with -I" {
	need_cpu_wide
	command -v perf >/dev/null || skip "perf is not installed"
	same_as_perf all -a -A -e cs sleep 0.1
	same_as_perf all -a -A -e task-clock,cs sleep 0.1
	same_as_perf intervals -a -A -I 100 --interval-count 2 -e cs
	same_as_perf intervals -a -A -I 100 --interval-count 2 -e task-clock,cs
}

@test "--per-thread tables have perf's layout, plain and with -I" {
	need_perf_events
	command -v perf >/dev/null || skip "perf is not installed"
	yes >/dev/null &
	spin_pid=$!
	# until the child has become yes, its comm is the shell's
	for _ in $(seq 200); do
		[ "$(cat /proc/$spin_pid/comm 2>/dev/null)" = yes ] && break
		sleep 0.01
	done
	# where the kernel may not be counted, perf names its user-only
	# retry task-clock:u, pstat adds a note: ask both for :u
	u=
	can_count_kernel || u=:u
	same_as_perf all --per-thread -p "$spin_pid" -e task-clock$u,cs$u --timeout 200
	same_as_perf intervals --per-thread -p "$spin_pid" -I 100 \
		--interval-count 2 -e task-clock$u,cs$u
}

# The interval lines between the headers of $output, one count a line
# (the first is the lines before the first header), then those after the
# last header. Independent of timing: under load intervals may be fewer.
header_gaps() {
	awk '/counts unit events$/ { print n + 0; n = 0; next }
	     /^ +[0-9]+\.[0-9]+ / { n++ }
	     END { print n + 0 }' <<<"$output"
}

@test "on a terminal the interval header comes back every 25 lines" {
	need_perf_events
	need_script
	local gaps n
	on_tty 80 "$ROOT/pstat" -I 20 --interval-count 60 -e task-clock sleep 5
	assert_success
	gaps=($(header_gaps))
	# the header first, then every 25 intervals of one line
	[ "${gaps[0]}" = 0 ]
	n=$(( ${#gaps[@]} - 1 ))
	[ "${gaps[$n]}" -le 25 ] && [ "${gaps[$n]}" -gt 0 ]
	for ((i = 1; i < n; i++)); do
		[ "${gaps[$i]}" = 25 ] || fail "gaps: ${gaps[*]}"
	done
	[ "$n" -ge 2 ] ||
		skip "only ${gaps[1]} intervals were printed (a loaded machine merges late ones)"
	# not on a terminal: once
	run "$ROOT/pstat" -I 20 --interval-count 60 -e task-clock sleep 5
	[ "$(grep -c 'counts unit events' <<<"$output")" = 1 ]
}

@test "on a terminal the header comes back before the interval after 25 lines" {
	need_perf_events
	need_script
	local gaps n
	# two events: every 13 intervals (26 lines), never inside one
	on_tty 80 "$ROOT/pstat" -I 20 --interval-count 30 -e task-clock,cs sleep 5
	assert_success
	gaps=($(header_gaps))
	[ "${gaps[0]}" = 0 ]
	n=$(( ${#gaps[@]} - 1 ))
	for ((i = 1; i < n; i++)); do
		[ "${gaps[$i]}" = 26 ] || fail "gaps: ${gaps[*]}"
	done
	# the last run of lines: whole intervals of two lines
	[ $(( ${gaps[$n]} % 2 )) = 0 ] && [ "${gaps[$n]}" -le 26 ]
	[ "$n" -ge 2 ] ||
		skip "only $(( ${gaps[1]} / 2 )) intervals were printed (a loaded machine merges late ones)"
}

@test "on a terminal the sparklines of many intervals fit its width" {
	need_perf_events
	need_script
	# 60 intervals on 60 columns: " task-clock" padded to 32, a space,
	# and one column spare leave 25 glyphs, each the mean of 2 or 3
	on_tty 60 "$ROOT/pstat" -I 20 --interval-count 60 -e task-clock,cs sleep 5
	assert_success
	assert_output --partial " Rates per interval:"
	[ "$(sparkline_glyphs task-clock)" = 25 ]
	[ "$(sparkline_glyphs cs)" = 25 ]
	# every line fits
	while IFS= read -r line; do
		[[ $line == *[▁▂▃▄▅▆▇█]* ]] || continue
		[ "$(/usr/bin/python3 -c 'import sys; print(len(sys.argv[1]))' "$line")" -lt 60 ]
	done <<<"$output"
	# on a wide terminal, a glyph per interval
	on_tty 200 "$ROOT/pstat" -I 20 --interval-count 60 -e task-clock sleep 5
	assert_success
	[ "$(sparkline_glyphs task-clock)" = 60 ]
}

@test "on a terminal digits are grouped by default; --no-big-num turns it off" {
	need_perf_events
	need_script
	# de_DE groups thousands with '.'; C.utf8 does not group at all
	comma_locale || skip "no de_DE locale (localedef) here"
	t=$(prog toucher)
	on_tty 100 env LC_ALL="$loc" "$ROOT/pstat" -e page-faults "$t" 2000
	assert_success
	assert_output --regexp ' [0-9]{1,3}(\.[0-9]{3})+ +page-faults'
	on_tty 100 env LC_ALL="$loc" "$ROOT/pstat" --no-big-num -e page-faults "$t" 2000
	assert_success
	assert_output --regexp ' [0-9]{4,} +page-faults'
	refute_output --regexp '[0-9]\.[0-9]{3} +page-faults'
	# not on a terminal the default is on too, as perf's; -B groups
	run env LC_ALL="$loc" "$ROOT/pstat" -e page-faults "$t" 2000
	assert_output --regexp ' [0-9]{1,3}(\.[0-9]{3})+ +page-faults'
	run env LC_ALL="$loc" "$ROOT/pstat" --no-big-num -e page-faults "$t" 2000
	assert_output --regexp ' [0-9]{4,} +page-faults'
	run env LC_ALL="$loc" "$ROOT/pstat" -B -e page-faults "$t" 2000
	assert_output --regexp ' [0-9]{1,3}(\.[0-9]{3})+ +page-faults'
}

# The table's values and metrics ("%.2f", "%'.2f", "%8.3f"...) are made
# without printf, which cost more than the rest of a row with thousands
# of rows an interval: they must be printf's strings, rounding ties and
# all, in every locale's decimal point and grouping.
@test "the table's numbers are printf's: C, and de_DE, en_IN and fr_FR when they can be built" {
	local l dir="$BATS_FILE_TMPDIR/locale" built=0

	run env LC_ALL=C "$PT" fixed "200000 1"
	assert_success
	assert_output --regexp "^[0-9]+ strings as printf's, point '\\.' separator ''$"
	command -v localedef >/dev/null || skip "no localedef to build de_DE, en_IN and fr_FR"
	mkdir -p "$dir"
	# each with its point and separator: "1.234,5", "12,34,567.8", "1 234,5"
	for l in de_DE:,:. en_IN:.:, fr_FR:,:$'\xe2\x80\xaf'; do
		IFS=: read -r l point sep <<<"$l"
		[ -e "/usr/share/i18n/locales/$l" ] || continue
		[ -d "$dir/$l.UTF-8" ] ||
			localedef -i "$l" -f UTF-8 "$dir/$l.UTF-8" >/dev/null 2>&1 ||
			[ -d "$dir/$l.UTF-8" ] || continue
		run env LOCPATH="$dir" LC_ALL="$l.UTF-8" "$PT" fixed "50000 $((++built))"
		assert_success
		assert_output --regexp "^[0-9]+ strings as printf's, point '\\$point' separator '$sep'$"
	done
	[ "$built" -gt 0 ] || skip "none of de_DE, en_IN and fr_FR could be built"
}
