#!/usr/bin/env bats
# make install / make uninstall under a DESTDIR: exactly the expected
# files with the expected modes, a working installed binary, and nothing
# left behind.

load test_helper

setup() {
	DEST="$BATS_TEST_TMPDIR/dest"
}

# The files make install PREFIX=/usr must create, sorted.
expected_files() {
	local s
	{
		echo usr/bin/pstat
		echo usr/share/man/man1/pstat.1
		echo usr/share/man/man5/pstat-json.5
		echo usr/share/bash-completion/completions/pstat
		echo usr/share/zsh/site-functions/_pstat
		echo usr/share/fish/vendor_completions.d/pstat.fish
		echo usr/lib/systemd/system/pstat.service
		echo usr/share/pstat/prometheus/pstat.rules.yml
		echo usr/share/pstat/grafana/pstat.json
		for s in "$ROOT"/schema/*.json; do
			echo "usr/share/pstat/${s##*/}"
		done
		for s in "$ROOT"/src/events/metric_lib_licenses/*; do
			echo "usr/share/pstat/licenses/${s##*/}"
		done
	} | LC_ALL=C sort
}

installed_files() {
	(cd "$DEST" && find . \( -type f -o -type l \) | sed 's|^\./||' |
		LC_ALL=C sort)
}

do_install() {
	run make -s -C "$ROOT" install PREFIX=/usr DESTDIR="$DEST"
	assert_success
}

@test "install: exactly the binary, man pages, completions, schemas, licences, unit, rules, dashboard" {
	do_install
	run installed_files
	assert_success
	assert_output "$(expected_files)"
}

@test "install: modes, and files identical to the sources" {
	do_install
	[ "$(stat -c %a "$DEST/usr/bin/pstat")" = 755 ]
	local f
	while IFS= read -r f; do
		[ "$f" = usr/bin/pstat ] && continue
		[ "$(stat -c %a "$DEST/$f")" = 644 ] || {
			echo "$f: mode $(stat -c %a "$DEST/$f")" >&2
			return 1
		}
	done < <(expected_files)
	# the man pages differ only in naming the real schema directory
	cmp <(sed -e 's|\$(PREFIX)/share/pstat|/usr/share/pstat|g' \
		-e 's|\$(PREFIX)/lib/systemd/system|/usr/lib/systemd/system|g' "$ROOT/man/pstat.1") \
		"$DEST/usr/share/man/man1/pstat.1"
	cmp <(sed 's|\$(PREFIX)/share/pstat|/usr/share/pstat|g' \
		"$ROOT/man/pstat-json.5") "$DEST/usr/share/man/man5/pstat-json.5"
	cmp "$ROOT/completions/pstat.bash" \
		"$DEST/usr/share/bash-completion/completions/pstat"
	cmp "$ROOT/completions/_pstat" "$DEST/usr/share/zsh/site-functions/_pstat"
	cmp "$ROOT/completions/pstat.fish" \
		"$DEST/usr/share/fish/vendor_completions.d/pstat.fish"
	cmp "$ROOT/schema/pstat.schema.json" \
		"$DEST/usr/share/pstat/pstat.schema.json"
	cmp "$ROOT/contrib/systemd/pstat.service" \
		"$DEST/usr/lib/systemd/system/pstat.service"
	cmp "$ROOT/contrib/prometheus/pstat.rules.yml" \
		"$DEST/usr/share/pstat/prometheus/pstat.rules.yml"
	cmp "$ROOT/contrib/grafana/pstat.json" "$DEST/usr/share/pstat/grafana/pstat.json"
}

@test "install: the installed binary runs" {
	do_install
	run "$DEST/usr/bin/pstat" --version
	assert_success
	assert_output --regexp '^pstat [0-9]+\.[0-9]+'
	run "$DEST/usr/bin/pstat" --help
	assert_success
	assert_line --partial 'usage: pstat'
	need_perf_events
	run "$DEST/usr/bin/pstat" -e task-clock true
	assert_success
	assert_output --partial 'task-clock'
	assert_output --partial 'seconds time elapsed'
}

@test "install: the installed man page renders" {
	command -v man >/dev/null || skip "man is not installed"
	do_install
	run env MANWIDTH=80 MANPAGER=cat PAGER=cat \
		man -l "$DEST/usr/share/man/man1/pstat.1"
	assert_success
	assert_output --partial 'EXIT STATUS'
}

@test "install: the man pages name PREFIX's schema directory" {
	run make -s -C "$ROOT" install PREFIX=/opt/pstat-test DESTDIR="$DEST"
	assert_success
	local page
	for page in man1/pstat.1 man5/pstat-json.5; do
		page=$DEST/opt/pstat-test/share/man/$page
		grep -q '/opt/pstat-test/share/pstat/pstat.schema.json' "$page"
		run grep -F '$(PREFIX)' "$page"
		assert_failure
	done
	# the unit runs the binary where it was installed
	grep -qx 'ExecStart=/opt/pstat-test/bin/pstat serve $PSTAT_ARGS $PSTAT_WEB_ARGS' \
		"$DEST/opt/pstat-test/lib/systemd/system/pstat.service"
	command -v mandoc >/dev/null || return 0
	run bash -c 'mandoc -Tascii "$1" | col -b' _ \
		"$DEST/opt/pstat-test/share/man/man1/pstat.1"
	assert_success
	assert_output --partial '/opt/pstat-test/share/pstat/*.schema.json'
}

@test "uninstall: removes every installed file and the directories it made" {
	do_install
	run make -s -C "$ROOT" uninstall PREFIX=/usr DESTDIR="$DEST"
	assert_success
	run installed_files
	assert_success
	assert_output ''
	run find "$DEST" -type f
	assert_output ''
	[ ! -e "$DEST/usr/share/pstat" ]
	# no empty directory is left behind, and DESTDIR itself stays
	[ -d "$DEST" ]
	run find "$DEST" -mindepth 1
	assert_output ''
}

@test "uninstall: directories holding other files stay" {
	do_install
	mkdir -p "$DEST/usr/share/zsh/site-functions" "$DEST/usr/share/man/man1/keep"
	echo other >"$DEST/usr/share/zsh/site-functions/_other"
	echo other >"$DEST/usr/share/pstat/notes"
	run make -s -C "$ROOT" uninstall PREFIX=/usr DESTDIR="$DEST"
	assert_success
	[ -f "$DEST/usr/share/zsh/site-functions/_other" ]
	[ -f "$DEST/usr/share/pstat/notes" ]
	[ -d "$DEST/usr/share/man/man1/keep" ]
	[ ! -e "$DEST/usr/share/fish" ]
	[ ! -e "$DEST/usr/bin" ]
}

@test "uninstall: leaves other files in shared directories alone" {
	do_install
	mkdir -p "$DEST/usr/share/bash-completion/completions"
	echo other >"$DEST/usr/share/bash-completion/completions/other"
	echo other >"$DEST/usr/bin/other"
	run make -s -C "$ROOT" uninstall PREFIX=/usr DESTDIR="$DEST"
	assert_success
	run installed_files
	assert_output "$(printf '%s\n' usr/bin/other \
		usr/share/bash-completion/completions/other)"
}

@test "install: BASHCOMPDIR, ZSHCOMPDIR, FISHCOMPDIR place the completions" {
	run make -s -C "$ROOT" install PREFIX=/usr DESTDIR="$DEST" \
		ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
		BASHCOMPDIR=/etc/bash_completion.d FISHCOMPDIR=/usr/share/fish/completions
	assert_success
	cmp "$ROOT/completions/_pstat" "$DEST/usr/share/zsh/vendor-completions/_pstat"
	cmp "$ROOT/completions/pstat.bash" "$DEST/etc/bash_completion.d/pstat"
	cmp "$ROOT/completions/pstat.fish" "$DEST/usr/share/fish/completions/pstat.fish"
	[ ! -e "$DEST/usr/share/zsh/site-functions" ]
	# and uninstall finds them there
	run make -s -C "$ROOT" uninstall PREFIX=/usr DESTDIR="$DEST" \
		ZSHCOMPDIR=/usr/share/zsh/vendor-completions \
		BASHCOMPDIR=/etc/bash_completion.d FISHCOMPDIR=/usr/share/fish/completions
	assert_success
	run installed_files
	assert_output ''
}

@test "build: CPPFLAGS and LDFLAGS reach the compiler and the linker" {
	# what a distribution passes (dpkg-buildflags): every compile line
	# has the CPPFLAGS, every link line the LDFLAGS
	run make -s -n -B -C "$ROOT" V=1 pstat tests/pstat-test \
		CPPFLAGS='-D_FORTIFY_SOURCE=2 -DPSTAT_CPPFLAGS_SEEN' \
		LDFLAGS='-Wl,-z,relro -Wl,-z,now'
	assert_success
	local cc ld
	cc=$(grep -c -- ' -c -o ' <<<"$output")
	ld=$(grep -c -- ' -o pstat \| -o tests/pstat-test ' <<<"$output")
	[ "$cc" -gt 10 ]
	[ "$ld" = 2 ]
	[ "$(grep -- ' -c -o ' <<<"$output" | grep -c -- '-DPSTAT_CPPFLAGS_SEEN')" = "$cc" ]
	[ "$(grep -- ' -o pstat \| -o tests/pstat-test ' <<<"$output" |
		grep -c -- '-Wl,-z,relro -Wl,-z,now')" = 2 ]
}

# make LDFLAGS=-static linked jansson's archive, then -Bdynamic for the
# rest (issue 30 item 7): now all static, or a stop that says why.
@test "build: LDFLAGS=-static links statically, or says why not" {
	local t=$BATS_TEST_TMPDIR/tree
	run make -s -n -B -C "$ROOT" V=1 LDFLAGS=-static pstat
	assert_success
	assert_output --regexp ' -static -o pstat .* -ljansson'
	refute_output --partial 'Bdynamic'
	# a compiler without libjansson.a: the build stops, saying so
	run make -s -n -B -C "$ROOT" LDFLAGS=-static \
		CC="$ROOT/tests/lib/no-such-cc" pstat
	assert_failure
	assert_output --partial 'LDFLAGS=-static: no libjansson.a for'
	# the link itself, on this tree's objects (.build-flags left alone)
	[ -e "$ROOT/src/libpstat.a" ] || skip "pstat is not built"
	[ -n "$(cc -print-file-name=libc.a | grep /)" ] && [ -e "$(cc -print-file-name=libc.a)" ] ||
		skip "no static libc here (Debian: libc6-dev has it)"
	mkdir -p "$t"
	cp -a "$ROOT/Makefile" "$ROOT/src" "$ROOT/.build-flags" "$t/"
	mkdir -p "$t/tests/lib" && cp -a "$ROOT/tests/lib/check-layout" "$t/tests/lib/"
	run make -s -C "$t" -o .build-flags LDFLAGS=-static pstat
	assert_success
	run readelf -l "$t/pstat"
	assert_success
	refute_output --partial 'INTERP'
	run "$t/pstat" -x, -o - -e task-clock true
	assert_success
	assert_output --regexp ',msec,task-clock,'
}

@test "check: NO_INSTALL=1 installs nothing, even with packages missing" {
	# make's plan for check: no .ci/install-deps with NO_INSTALL=1
	run make -n -C "$ROOT" check NO_INSTALL=1
	assert_success
	refute_output --partial 'install-deps'
	run make -n -C "$ROOT" check
	assert_success
	assert_output --partial 'install-deps'
}

@test "demo installs what building and running need, no test tool; check the rest" {
	run make -n -C "$ROOT" demo
	assert_success
	assert_output --partial '.ci/install-deps build'
	run make -n -C "$ROOT" demo NO_INSTALL=1
	refute_output --partial 'install-deps'
	run make -n -C "$ROOT" check
	assert_output --partial '.ci/install-deps'
	refute_output --partial 'install-deps build'
	run "$ROOT/.ci/install-deps" --list build
	assert_success
	local build=$output t
	for t in bats jq linux-perf prometheus prometheus-node-exporter zsh fish \
		hyperfine valgrind python3-scipy mandoc clang strace; do
		refute_line "$t"
	done
	# every header the sources include from outside libc comes from a
	# package of the build list (where dpkg can say whose it is)
	command -v dpkg >/dev/null || return 0
	for t in jansson.h perfmon/pfmlib_perf_event.h microhttpd.h yaml.h \
		zlib.h crypt.h; do
		[ -e "/usr/include/$t" ] || continue
		pkg=$(dpkg -S "/usr/include/$t" 2>/dev/null | head -1 | cut -d: -f1)
		[ -n "$pkg" ] || continue
		grep -qx "$pkg" <<<"$build" || fail "$t is from $pkg, not in the build list"
	done
	# and make check installs the build list too
	run "$ROOT/.ci/install-deps" --list
	for t in $build; do assert_line "$t"; done
	assert_line bats
}
