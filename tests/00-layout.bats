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
