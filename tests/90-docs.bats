#!/usr/bin/env bats
# Docs cannot drift (bpftool's docs-sync test): the options of
# `pstat --help`, of the man page and of each shell completion are the
# same set; the man pages lint clean and render; pstat-json(5) names
# every member of the schemas it documents.

load test_helper

# The baseline comparison's options: `pstat compare` has its own help, and
# the man page documents them, with `pstat --baseline`, under COMPARE, so
# they are left out on every side.
COMPARE_OPTS='--alpha --baseline --compare-format --format --threshold'

drop_compare_opts() {
	grep -vxF -f <(tr ' ' '\n' <<<"$COMPARE_OPTS")
}

# The long options of `pstat --help`: those starting an option line.
help_long() {
	"$PSTAT" --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
		grep -oE -- '--[a-z][a-z-]*' | drop_compare_opts | sort -u
}

help_short() {
	"$PSTAT" --help | grep -oE '^ +-[A-Za-z],' | grep -oE -- '-[A-Za-z]' |
		sort -u
}

# The item heads of the OPTIONS section of pstat.1.
man_items() {
	sed -n '/^\.Sh OPTIONS$/,/^\.Sh /p' "$ROOT/man/pstat.1" | grep '^\.It Fl'
}

man_long() {
	man_items | grep -oE 'Fl \\-[a-z][a-z-]*' | sed 's/^Fl \\-/--/' |
		drop_compare_opts | sort -u
}

man_short() {
	man_items | grep -oE '^\.It Fl [A-Za-z]( |$)' | grep -oE -- '[A-Za-z] ?$' |
		tr -d ' ' | sed 's/^/-/' | sort -u
}

bash_long() {
	bash -c '. "$1"; printf "%s\n" $_pstat_opts_long' _ \
		"$ROOT/completions/pstat.bash" | drop_compare_opts | sort -u
}

bash_short() {
	bash -c '. "$1"; printf "%s\n" $_pstat_opts_short' _ \
		"$ROOT/completions/pstat.bash" | sort -u
}

# The entries of the pstat_opts array in _pstat.
zsh_specs() {
	sed -n '/^\tpstat_opts=($/,/^\t)$/p' "$ROOT/completions/_pstat"
}

zsh_long() {
	zsh_specs | grep -oE -- "--[a-z][a-z-]*[=}[]" | tr -d '=}[' |
		drop_compare_opts | sort -u
}

zsh_short() {
	zsh_specs | grep -oE -- "[{ ]-[A-Za-z]\+?[,\[]" | grep -oE -- '-[A-Za-z]' |
		sort -u
}

# The complete lines that apply among pstat's own options.
fish_specs() {
	grep -- '-n __fish_pstat_in_options ' "$ROOT/completions/pstat.fish"
}

fish_long() {
	fish_specs | grep -oE -- ' -l [a-z][a-z-]*' | sed 's/^ -l /--/' |
		drop_compare_opts | sort -u
}

fish_short() {
	fish_specs | grep -oE -- ' -s [A-Za-z]' | sed 's/^ -s /-/' | sort -u
}

# same_set NAME EXPECTED ACTUAL: fails with the difference.
same_set() {
	if [ -z "$2" ]; then
		echo "no options found in --help" >&2
		return 1
	fi
	if [ -z "$3" ]; then
		echo "no options found in $1" >&2
		return 1
	fi
	if [ "$2" != "$3" ]; then
		echo "$1 differs from pstat --help (< --help, > $1):" >&2
		diff <(echo "$2") <(echo "$3") >&2
		return 1
	fi
}

@test "docs: --help has the long options of options.c" {
	# the option table is the source of truth; --help must show all of it
	local table
	table=$(sed -n '/^static const struct option long_opts/,/^};/p' \
		"$ROOT/src/cli/options.c" | grep -oE '^\s*\{ "[a-z-]+"' |
		grep -oE '[a-z-]+' | sed 's/^/--/' | drop_compare_opts | sort -u)
	same_set "src/cli/options.c long_opts" "$(help_long)" "$table"
}

@test "docs: man/pstat.1 OPTIONS has the options of --help" {
	same_set man/pstat.1 "$(help_long)" "$(man_long)"
	same_set "man/pstat.1 (short)" "$(help_short)" "$(man_short)"
}

@test "docs: the bash completion has the options of --help" {
	same_set completions/pstat.bash "$(help_long)" "$(bash_long)"
	same_set "completions/pstat.bash (short)" "$(help_short)" "$(bash_short)"
}

@test "docs: the zsh completion has the options of --help" {
	same_set completions/_pstat "$(help_long)" "$(zsh_long)"
	same_set "completions/_pstat (short)" "$(help_short)" "$(zsh_short)"
}

@test "docs: the fish completion has the options of --help" {
	same_set completions/pstat.fish "$(help_long)" "$(fish_long)"
	same_set "completions/pstat.fish (short)" "$(help_short)" "$(fish_short)"
}

@test "docs: the options of pstat compare --help, in the man page and completions" {
	local help man bash zsh fish
	help=$("$PSTAT" compare --help |
		grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' |
		grep -oE -- '--[a-z][a-z-]*' | sort -u)
	man=$(sed -n '/^\.Sh COMPARE$/,/^\.Sh /p' "$ROOT/man/pstat.1" |
		grep '^\.It Fl' | grep -oE 'Fl \\-[a-z][a-z-]*' |
		sed 's/^Fl \\-/--/' | sort -u)
	bash=$(bash -c '. "$1"; printf "%s\n" $_pstat_compare_opts' _ \
		"$ROOT/completions/pstat.bash" | grep -- '^--' | sort -u)
	zsh=$(sed -n '/^\tcompare)$/,/;;$/p' "$ROOT/completions/_pstat" |
		grep -oE -- "--[a-z][a-z-]*[=}[]" | tr -d '=}[' | sort -u)
	fish=$(grep -- "-n '__fish_pstat_sub compare'" \
		"$ROOT/completions/pstat.fish" | grep -oE -- ' -l [a-z][a-z-]*' |
		sed 's/^ -l /--/' | sort -u)
	same_set "man/pstat.1 COMPARE" "$help" "$man"
	same_set "completions/pstat.bash (compare)" "$help" "$bash"
	same_set "completions/_pstat (compare)" "$help" "$zsh"
	same_set "completions/pstat.fish (compare)" "$help" "$fish"
}

# sub_set SUB SECTION: the options, long and short, of `pstat SUB --help`
# and of the SECTION of pstat.1 and the three completions, each checked
# to be the same set.
sub_set() {
	local sub=$1 section=$2 help man bash zsh fish
	help=$("$PSTAT" "$sub" --help |
		grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z.-]*' |
		grep -oE -- '--?[A-Za-z][a-z.-]*' | sort -u)
	man=$(sed -n "/^\.Sh $section\$/,/^\.Sh /p" "$ROOT/man/pstat.1" |
		grep '^\.It Fl' | grep -oE 'Fl (\\-[a-z][a-z.-]*|[A-Za-z])( |$)' |
		sed 's/^Fl \\-/--/; s/^Fl /-/; s/ $//' | sort -u)
	bash=$(bash -c '. "$1"; v=_pstat_$2_opts; printf "%s\n" ${!v}' _ \
		"$ROOT/completions/pstat.bash" "$sub" | sort -u)
	zsh=$(sed -n "/^\t$sub)\$/,/;;\$/p" "$ROOT/completions/_pstat" |
		grep -v '_arguments' | grep -oE -- "[{,(' ]--?[A-Za-z][A-Za-z.-]*" | cut -c2- | sort -u)
	fish=$(grep -- "-n '__fish_pstat_sub $sub'" \
		"$ROOT/completions/pstat.fish" |
		grep -oE -- ' -[sl] [A-Za-z][a-z.-]*' |
		sed 's/^ -s /-/; s/^ -l /--/' | sort -u)
	same_set "man/pstat.1 $section" "$help" "$man"
	same_set "completions/pstat.bash ($sub)" "$help" "$bash"
	same_set "completions/_pstat ($sub)" "$help" "$zsh"
	same_set "completions/pstat.fish ($sub)" "$help" "$fish"
}

@test "docs: the options of pstat list --help, in the man page and completions" {
	run "$PSTAT" list --help
	assert_success
	assert_line --regexp '^usage: pstat list '
	sub_set list LIST
	# every option the help lists, and only those
	[ "$(sub_set_help list)" = "$(printf '%s\n' --help --json --names \
		--tracepoints -h -j)" ]
}

@test "docs: the options of pstat doctor --help, in the man page and completions" {
	run "$PSTAT" doctor --help
	assert_success
	assert_line --regexp '^usage: pstat doctor '
	sub_set doctor DOCTOR
	[ "$(sub_set_help doctor)" = "$(printf '%s\n' --help --json -h -j)" ]
}

@test "docs: the options of pstat bench --help, in the man page and completions" {
	run "$PSTAT" bench --help
	assert_success
	assert_line --regexp '^usage: pstat bench '
	sub_set bench BENCH
	[ "$(sub_set_help bench | wc -l)" -ge 40 ]
}

@test "docs: the options of pstat serve --help, in the man page and completions" {
	run "$PSTAT" serve --help
	assert_success
	assert_line --regexp '^usage: pstat serve '
	sub_set serve SERVE
	[ "$(sub_set_help serve | tr '\n' ' ')" = "--all-cpus --cgroup --cpu --event --for-each-cgroup --help --interval --listen --metric --metrics --metrics-file --no-aggr --per-thread --pid --timeout --verbose --web.config.file -A -C -G -I -M -a -e -h -p -v " ]
}

# The options of `pstat SUB --help`, as sub_set reads them.
sub_set_help() {
	"$PSTAT" "$1" --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z.-]*' |
		grep -oE -- '--?[A-Za-z][a-z.-]*' | sort -u
}

# Text with runs of blanks as one space and none around '|', on one line.
squeeze() {
	tr '\n\t' '  ' | sed 's/  */ /g; s/ *| */|/g; s/^ //; s/ $//'
}

@test "docs: every usage line of --help and compare --help is in SYNOPSIS" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	local synopsis line n=0
	# the rendered SYNOPSIS as one line: a long usage may wrap there
	synopsis=$(mandoc -Tascii "$ROOT/man/pstat.1" 2>/dev/null | col -b |
		sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' | sed '1d;$d' | squeeze)
	while IFS= read -r line; do
		line=$(sed 's/^usage: *//' <<<"$line" | squeeze)
		n=$((n + 1))
		if [[ " $synopsis " != *" $line "* ]]; then
			echo "not in SYNOPSIS: $line" >&2
			echo "SYNOPSIS: $synopsis" >&2
			return 1
		fi
	done < <("$PSTAT" --help | sed -n '/^usage:/,/^$/p' | grep -v '^$'
		"$PSTAT" compare --help | grep '^usage:'
		"$PSTAT" bench --help | grep '^usage:')
	# pstat's six usage lines, compare's and bench's were all seen
	[ "$n" -ge 8 ]
}

@test "docs: mandoc -Tlint reports nothing above style level" {
	command -v mandoc >/dev/null || skip "mandoc is not installed"
	run mandoc -Tlint -Wwarning "$ROOT/man/pstat.1" "$ROOT/man/pstat-json.5"
	assert_success
	assert_output ''
}

@test "docs: the man pages render" {
	local page out
	for page in man/pstat.1 man/pstat-json.5; do
		if command -v man >/dev/null; then
			out=$(MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$ROOT/$page" 2>&1)
		elif command -v mandoc >/dev/null; then
			out=$(mandoc -Tutf8 "$ROOT/$page" 2>/dev/null)
		else
			skip "neither man nor mandoc is installed"
		fi
		case $page in
		*.1)
			grep -q 'PSTAT(1)' <<<"$out"
			grep -q 'EVENT SPECIFICATION' <<<"$out"
			grep -q 'EXIT STATUS' <<<"$out"
			;;
		*.5)
			grep -q 'PSTAT-JSON(5)' <<<"$out"
			grep -q 'RUN DOCUMENT' <<<"$out"
			;;
		esac
	done
}

@test "docs: pstat-json(5) names every member of the schemas" {
	command -v jq >/dev/null || skip "jq is not installed"
	local schema name names missing=
	for schema in pstat pstat-dryrun pstat-list pstat-doctor \
	    pstat-compare pstat-bench pstat-metrics; do
		names=$(jq -r '[.. | objects | .properties? // empty |
				keys[]] | unique[]' \
				"$ROOT/schema/$schema.schema.json")
		[ -n "$names" ]
		for name in $names; do
			grep -E '^\.(It )?Li ' "$ROOT/man/pstat-json.5" |
				grep -qw -- "$name" ||
				missing="$missing $schema:$name"
		done
	done
	if [ -n "$missing" ]; then
		echo "not in man/pstat-json.5:$missing" >&2
		return 1
	fi
}

@test "docs: the exit statuses of session.h and msg.h are in the man page" {
	local code codes
	codes=$(grep -ohE '^#define EXIT_[A-Z_]+ +[0-9]+' "$ROOT/src/run/session.h" "$ROOT/src/base/msg.h" |
		awk '{print $3}')
	[ "$(wc -w <<<"$codes")" -ge 3 ]
	# and compare's, and the command-start failures
	for code in $codes 3 4 126 127; do
		grep -qx "\.It $code" "$ROOT/man/pstat.1" || {
			echo "exit status $code is not in EXIT STATUS" >&2
			return 1
		}
	done
}

@test "docs: groff -man -ww reports nothing" {
	command -v groff >/dev/null || skip "groff is not installed"
	local page
	for page in man/pstat.1 man/pstat-json.5; do
		run groff -man -ww -z "$ROOT/$page"
		assert_success
		assert_output ''
	done
}

@test "docs: the man page renders on a terminal that is not UTF-8" {
	command -v groff >/dev/null || skip "groff is not installed"
	local dev out
	# the sparkline glyphs fall back to ASCII; nothing is lost or warned
	for dev in ascii latin1; do
		out=$(groff -mandoc -ww -T"$dev" "$ROOT/man/pstat.1" 2>&1 >/dev/null)
		[ -z "$out" ] || { echo "groff -T$dev: $out" >&2; return 1; }
		out=$(groff -mandoc -T"$dev" "$ROOT/man/pstat.1" | col -b)
		grep -q 'Rates per interval' <<<"$out"
		# the example's sparklines, in ASCII
		grep -Eq '^[[:space:]]+task-clock[[:space:]]+[_.=+*%#-]{10}$' <<<"$out"
		# nothing outside printable ASCII (latin1: its own range)
		if [ "$dev" = ascii ]; then
			! LC_ALL=C grep -q '[^[:print:][:space:]]' <<<"$out"
		fi
	done
	# and the glyphs themselves on a UTF-8 one
	groff -mandoc -Tutf8 "$ROOT/man/pstat.1" | grep -q '▁'
}
