#!/usr/bin/env bats
# The source tree's shape (issue 15): one folder per pipeline stage, and
# includes that only point down the pipeline (tests/lib/check-layout,
# which the build runs too).

load test_helper

@test "layout: every include points down the pipeline" {
	run "$ROOT/tests/lib/check-layout" "$ROOT/src"
	assert_success
	assert_output ""
}

# A copy of the tree with one include added the wrong way: the check,
# and the build through it, must refuse it and name the line.
@test "layout: an upward include fails the check and the build" {
	cp -r "$ROOT/src" "$BATS_TEST_TMPDIR/src"
	sed -i '1a #include "cli/options.h"' "$BATS_TEST_TMPDIR/src/base/util.c"
	run "$ROOT/tests/lib/check-layout" "$BATS_TEST_TMPDIR/src"
	assert_failure
	assert_output --partial 'src/base/util.c:2: src/base/ may not include cli/options.h'
	# run/ reaching into cli/ is the seam issue 15 closed
	cp "$ROOT/src/base/util.c" "$BATS_TEST_TMPDIR/src/base/util.c"
	sed -i '1a #include "cli/options.h"' "$BATS_TEST_TMPDIR/src/run/session.c"
	run "$ROOT/tests/lib/check-layout" "$BATS_TEST_TMPDIR/src"
	assert_failure
	assert_output --partial 'src/run/session.c:2: src/run/ may not include cli/options.h'
	# and the Makefile runs the check before it links
	run make -s -C "$ROOT" --no-print-directory LAYOUT_SRC="$BATS_TEST_TMPDIR/src" layout-check
	assert_failure
	assert_output --partial 'may not include cli/options.h'
}

@test "layout: an include without its stage folder is refused" {
	cp -r "$ROOT/src" "$BATS_TEST_TMPDIR/src"
	sed -i '1a #include "util.h"' "$BATS_TEST_TMPDIR/src/events/pmu.c"
	run "$ROOT/tests/lib/check-layout" "$BATS_TEST_TMPDIR/src"
	assert_failure
	assert_output --partial 'src/events/pmu.c:2: "util.h" names no stage folder'
}

@test "layout: no file under src/ past 800 lines, no circle of includes" {
	local f n big=
	for f in "$ROOT"/src/*.c "$ROOT"/src/*/*.c; do
		n=$(wc -l <"$f")
		[ "$n" -le 800 ] || big="$big ${f#"$ROOT"/} ($n)"
	done
	[ -z "$big" ] || { echo "over 800 lines:$big" >&2; return 1; }
	# a header never includes, directly or not, itself: tsort finds
	# cycles in the graph of quoted includes
	run bash -c 'cd "$1/src" && for f in */*.[ch]; do
		grep -o "^#include \"[^\"]*\"" "$f" | cut -d\" -f2 |
			while read -r h; do echo "$f $h"; done
	done | tsort >/dev/null' _ "$ROOT"
	assert_success
	refute_output --partial 'input contains a loop'
}

# The suite's own JSON assertion must not pass on nothing (jq 1.6 does).
@test "jq_assert: fails on empty input, false and non-JSON; passes on true" {
	run jq_assert '.a == 1' <<<""
	assert_failure
	assert_output --partial 'the input is empty'
	run jq_assert '.a == 1' <<<'{"a": 2}'
	assert_failure
	run jq_assert '.a == 1' <<<'not json'
	assert_failure
	run jq_assert '.a == 1' <<<'{"a": 1}'
	assert_success
	echo '{"a": [1, 2]}' >"$BATS_TEST_TMPDIR/d.json"
	run jq_assert --argjson n 2 '.a | length == $n' "$BATS_TEST_TMPDIR/d.json"
	assert_success
	: >"$BATS_TEST_TMPDIR/empty.json"
	run jq_assert '.a' "$BATS_TEST_TMPDIR/empty.json"
	assert_failure
}

@test "tests assert JSON through jq_assert, never a bare jq's -e" {
	run grep -n '[j]q -e' "$ROOT"/tests/*.bats
	assert_failure
	assert_output ""
}
