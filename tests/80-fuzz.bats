#!/usr/bin/env bats
# A short smoke run of each libFuzzer target in fuzz/ (make fuzz runs
# them for longer), and every corpus file, crash regressions included,
# run once. Needs clang with its libFuzzer runtime.

load test_helper

setup_file() {
	local probe="$BATS_FILE_TMPDIR/probe"

	export FUZZ_SKIP=
	if ! command -v "${FUZZ_CC:-clang}" >/dev/null; then
		FUZZ_SKIP="no ${FUZZ_CC:-clang} here: the fuzzers need clang"
		return
	fi
	if ! printf 'int LLVMFuzzerTestOneInput(const char *d, long n)\n{ return 0; }\n' |
		"${FUZZ_CC:-clang}" -x c -fsanitize=fuzzer,address,undefined \
			-o "$probe" - 2>/dev/null ||
		! "$probe" -runs=1 >/dev/null 2>&1; then
		FUZZ_SKIP="clang's libFuzzer/ASan runtime is unavailable here"
		return
	fi
	make -s -C "$ROOT" fuzz-build >"$BATS_FILE_TMPDIR/build.log" 2>&1 ||
		export FUZZ_BUILD_LOG="$BATS_FILE_TMPDIR/build.log"
}

need_fuzz() {
	[ -z "$FUZZ_SKIP" ] || skip "$FUZZ_SKIP"
	[ -z "$FUZZ_BUILD_LOG" ] ||
		fail "make fuzz-build failed: $(tail -20 "$FUZZ_BUILD_LOG")"
	[ -x "$ROOT/fuzz/build/$1" ] || fail "make fuzz-build did not build $1"
}

# fuzz TARGET: run it 3 s on a scratch copy of its seed corpus.
fuzz() {
	local t=$1 w="$BATS_TEST_TMPDIR/$1" dict=()

	need_fuzz "$t"
	mkdir -p "$w/corpus"
	cp "$ROOT/fuzz/corpus/$t/"* "$w/corpus/"
	[ -f "$ROOT/fuzz/$t.dict" ] && dict=("-dict=$ROOT/fuzz/$t.dict")
	run "$ROOT/fuzz/build/$t" -max_total_time=3 -max_len=4096 \
		"${dict[@]}" -artifact_prefix="$w/" "$w/corpus"
	[ "$status" = 0 ] || fail "$t found something: $(tail -30 <<<"$output")"
	[ -z "$(ls "$w" | grep -v '^corpus$')" ] || fail "$t left $(ls "$w")"
}

# replay TARGET: every file of its corpus once.
replay() {
	need_fuzz "$1"
	run "$ROOT/fuzz/build/$1" "$ROOT/fuzz/corpus/$1/"*
	[ "$status" = 0 ] || fail "$(tail -30 <<<"$output")"
}

@test "fuzz: every corpus file of every target runs cleanly" {
	local n=0

	for src in "$ROOT"/fuzz/fuzz_*.c; do
		t=$(basename "$src" .c)
		[ -d "$ROOT/fuzz/corpus/$t" ] || fail "no seed corpus for $t"
		replay "$t"
		n=$((n + 1))
	done
	[ "$n" -ge 4 ]
}

@test "fuzz: event lists over the fixture sysfs trees (3 s)" {
	fuzz fuzz_evlist
}

@test "fuzz: sysfs format and alias files (3 s)" {
	fuzz fuzz_pmu_format
}

@test "fuzz: JSON files given to pstat compare (3 s)" {
	fuzz fuzz_compare_json
}

@test "fuzz: run documents of 20,000 counters given to pstat compare (3 s)" {
	fuzz fuzz_compare_scale
}

@test "fuzz: HTTP requests to pstat serve, on 127.0.0.1 (3 s)" {
	fuzz fuzz_serve_http
}

@test "fuzz: web configuration files of pstat serve (3 s)" {
	fuzz fuzz_serve_web
}

@test "fuzz: metrics files, resolved, split, grouped and evaluated (3 s)" {
	fuzz fuzz_metric_file
}
