# bash completion for pstat                                  -*- shell-script -*-
# SPDX-License-Identifier: MIT
#
# Works with or without the bash-completion package; with it, the command
# after pstat's options is completed by that command's own completion.

# pstat's long options: the same set as `pstat --help` shows, which
# tests/90-docs.bats checks. Those taking a value are in _pstat_opts_arg.
_pstat_opts_long='--all-cpus --append --big-num --cgroup --compare-output --control --cpu
--delay --detailed --dry-run --event --fail-on --field-separator --for-each-cgroup --help --interval --interval-count --interval-print
--json --json-output --keep-on-exit --log-fd --metric --metric-no-group --metric-only --metrics --metrics-file --no-aggr --no-big-num
--no-csv-summary --no-inherit --no-merge --null --openmetrics --output --per-cache
--per-cluster --per-core --per-die --per-node --per-socket --per-thread --pid
--post --pre --prometheus --quiet --repeat --sim --sim-cache --sim-simulate --sim-toggle-collect
--summary --sync --td-level --tid --timeout
--topdown --verbose --version --wait-close --warmup'
# Run, then compare with a baseline as `pstat compare` does.
_pstat_opts_compare='--alpha --baseline --compare-format --format
--threshold'
_pstat_opts_short='-A -a -B -C -D -d -e -G -h -I -i -j -M -n -o -p -r -S -t -V -v -x'
_pstat_opts_arg=' --alpha --baseline --cgroup --compare-format --compare-output --control --cpu
--delay --event --fail-on --field-separator --for-each-cgroup --format --interval --interval-count --interval-print
--log-fd --metric --metrics --metrics-file --output --pid
--post --pre --repeat --sim-cache --sim-simulate --sim-toggle-collect
--td-level --threshold --tid --timeout --warmup -C -D -e -G -I -M -o -p -r -t -x '
_pstat_opts_arg=${_pstat_opts_arg//$'\n'/ }
# The options of `pstat compare`, as its --help shows them.
_pstat_compare_opts='--alpha --format -h --help -o --output --threshold'
# The options of `pstat list` and `pstat doctor`, as their --help shows
# them.
_pstat_list_opts='--json --names --tracepoints -h --help -j'
_pstat_doctor_opts='-h --help -j --json'
# The options of `pstat bench`, as its --help shows them; those taking a
# value in _pstat_bench_arg.
_pstat_bench_opts='--alpha -c --cleanup -n --command-name --conclude -D -e --event
--export-csv --export-json --export-markdown --fail-on-regression -h --help -i
--ignore-failure --input -j --json -L --parameter-list -M --max-runs -m --min-runs -N
--order -o --output -P --parameter-scan --parameter-step-size --per --per-unit --plot
-p --prepare -r --report --runs --seed -s --setup -S --shell --show-output --sort
--style --threshold -u --time-unit -w --warmup'
_pstat_bench_arg=' --alpha -c --cleanup -n --command-name --conclude -D -e --event
--export-csv --export-json --export-markdown --input -L --parameter-list -M --max-runs
-m --min-runs --order -o --output -P --parameter-scan --parameter-step-size --per
--per-unit --plot -p --prepare -r --report --runs --seed -s --setup -S --shell --sort
--style --threshold -u --time-unit -w --warmup '
_pstat_bench_arg=${_pstat_bench_arg//$'\n'/ }
# The options of `pstat serve`, as its --help shows them.
_pstat_serve_opts='-A -a -C -e -G -h -I -M -p -v --all-cpus --cgroup --cpu --event
--for-each-cgroup --help --interval --listen --metric --metrics --metrics-file
--no-aggr --per-thread --pid --timeout --verbose --web.config.file'
# The short options that take a value, as getopt reads a cluster.
_pstat_short_arg='CDeGIMoprtx'

# Event names that may complete the fragment $1 (the text after the last
# ',' or '{' of an event list), from the pstat on PATH.
_pstat_event_names()
{
	case $1 in
	*::*) ;;
	*:*)
		# tracepoints are listed only when a subsystem is named
		pstat list --names "${1%%:*}:*" 2>/dev/null
		return
		;;
	esac
	pstat list --names 2>/dev/null
	# and the tracepoint subsystems the prefix may start ("sched:")
	pstat list --names "$1*:*" 2>/dev/null |
		awk -F: '!/::/ && !seen[$1]++ { print $1 ":" }'
}

# Complete the last element of the comma list $2 from the words $1,
# keeping the elements before it.
_pstat_list_words()
{
	local frag=${2##*,}
	compgen -P "${2%"$frag"}" -W "$1" -- "$frag"
}

# "PID (comm)" for each process whose PID starts with the last element
# of the comma list $1. Kernel threads are left out: pstat -p refuses
# them, knowing them as pstat does by PF_KTHREAD in the flags of
# /proc/PID/stat (the ninth field; the comm before it may hold blanks).
_pstat_pids()
{
	local frag=${1##*,} d pid comm stat
	local prefix=${1%"$frag"}
	local -a f
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[[ $pid == "$frag"* ]] || continue
		read -r stat 2>/dev/null <"$d/stat" || continue
		read -ra f <<<"${stat##*) }"
		((${f[6]:-0} & 0x00200000)) && continue
		comm=
		read -r comm 2>/dev/null <"$d/comm"
		printf '%s%s (%s)\n' "$prefix" "$pid" "$comm"
	done
}

# "TID (comm)" for each thread of every process whose TID starts with
# the last element of the comma list $1.
_pstat_tids()
{
	local frag=${1##*,} d tid comm
	local prefix=${1%"$frag"}
	for d in /proc/[0-9]*/task/[0-9]*; do
		tid=${d##*/}
		[[ $tid == "$frag"* ]] || continue
		comm=
		read -r comm 2>/dev/null <"$d/comm" || continue
		printf '%s%s (%s)\n' "$prefix" "$tid" "$comm"
	done
}

# The online CPUs, one a line, from a list such as "0-3,7".
_pstat_cpus()
{
	local online r i IFS=,
	read -r online 2>/dev/null </sys/devices/system/cpu/online || return
	for r in $online; do
		if [[ $r == *-* ]]; then
			for ((i = ${r%-*}; i <= ${r#*-}; i++)); do
				echo "$i"
			done
		else
			echo "$r"
		fi
	done
}

# The cgroups as -G names them (paths below the mount of the hierarchy
# that counts perf events: cgroup v1's perf_event, else cgroup2) that
# complete the last element of the comma list $1.
_pstat_cgroups()
{
	local frag=${1##*,} mnt d
	local prefix=${1%"$frag"}
	mnt=$(awk '{
		for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)perf_event(,|$)/) v1 = $5
		else if ($(i + 1) == "cgroup2" && !v2) v2 = $5
	} END { print (v1 != "" ? v1 : v2) }' /proc/self/mountinfo 2>/dev/null)
	[ -n "$mnt" ] || return
	for d in "$mnt/$frag"*/; do
		[ -d "$d" ] || continue
		d=${d#"$mnt/"}
		printf '%s%s\n' "$prefix" "${d%/}"
	done
}

# Values of option $1 that complete the text $2.
_pstat_value()
{
	local frag
	case $1 in
	-e | --event)
		frag=${2##*[,\{]}
		compgen -P "${2%"$frag"}" -W "$(_pstat_event_names "$frag")" \
			-- "$frag"
		;;
	-p | --pid)
		_pstat_pids "$2"
		;;
	-t | --tid)
		_pstat_tids "$2"
		;;
	-C | --cpu)
		_pstat_list_words "$(_pstat_cpus)" "$2"
		;;
	-G | --cgroup | --for-each-cgroup)
		_pstat_cgroups "$2"
		;;
	--fail-on)
		_pstat_list_words 'not-supported not-counted multiplexed' "$2"
		;;
	-o | --output | --compare-output | --metrics-file)
		compgen -f -- "$2"
		;;
	-M | --metrics)
		_pstat_list_words "$(pstat list --names metrics 2>/dev/null)" "$2"
		;;
	--td-level)
		compgen -W '1 2 3 4 5 6' -- "$2"
		;;
	--baseline)
		compgen -d -S / -- "$2"
		compgen -f -X '!*.json' -- "$2"
		;;
	--compare-format | --format)
		compgen -W 'table json markdown' -- "$2"
		;;
	esac
}

# Arguments of `pstat list`, `pstat compare`, `pstat doctor`,
# `pstat bench` and `pstat serve`.
_pstat_subcommand()
{
	local sub=$1 cur=$2 prev=$3
	case $sub in
	list)
		if [[ $cur == -* ]]; then
			compgen -W "$_pstat_list_opts" -- "$cur"
		else
			compgen -W "$(_pstat_event_names "$cur")" -- "$cur"
		fi
		;;
	compare)
		case $prev in
		--format)
			compgen -W 'table json markdown' -- "$cur"
			return
			;;
		-o | --output)
			compgen -f -- "$cur"
			return
			;;
		--threshold | --alpha)
			return
			;;
		esac
		if [[ $cur == -* ]]; then
			compgen -W "$_pstat_compare_opts" -- "$cur"
		else
			compgen -d -S / -- "$cur"
			compgen -f -X '!*.json' -- "$cur"
		fi
		;;
	doctor)
		compgen -W "$_pstat_doctor_opts" -- "$cur"
		;;
	help)
		compgen -W 'list compare doctor bench serve' -- "$cur"
		;;
	bench)
		case $prev in
		-e | --event)
			compgen -W "$(_pstat_event_names "${cur##*[,\{]}")" \
				-- "${cur##*[,\{]}"
			return
			;;
		--order)
			compgen -W 'interleave shuffle' -- "$cur"
			return
			;;
		--output)
			compgen -W 'null pipe inherit' -- "$cur"
			compgen -f -- "$cur"
			return
			;;
		--input)
			compgen -W 'null' -- "$cur"
			compgen -f -- "$cur"
			return
			;;
		--sort)
			compgen -W 'auto command mean-time' -- "$cur"
			return
			;;
		--style)
			compgen -W 'auto full basic nocolor color none' -- "$cur"
			return
			;;
		-u | --time-unit)
			compgen -W 'microsecond millisecond second' -- "$cur"
			return
			;;
		-o | --report | --export-csv | --export-json | --export-markdown | --plot)
			compgen -f -- "$cur"
			return
			;;
		esac
		# the value of an option: nothing to offer
		[[ $_pstat_bench_arg == *" $prev "* ]] && return
		if [[ $cur == -* ]]; then
			compgen -W "$_pstat_bench_opts" -- "$cur"
		else
			compgen -c -- "$cur"
		fi
		;;
	serve)
		case $prev in
		-e | --event)
			compgen -W "$(_pstat_event_names "${cur##*,}")" -- "$cur"
			return
			;;
		-M | --metrics)
			_pstat_list_words "$(pstat list --names metrics 2>/dev/null)" "$cur"
			return
			;;
		--metrics-file | --web.config.file)
			compgen -f -- "$cur"
			return
			;;
		-C | --cpu | -p | --pid | -I | --interval | --listen | --timeout | \
			-G | --cgroup | --for-each-cgroup | --metric)
			return
			;;
		esac
		compgen -W "$_pstat_serve_opts" -- "$cur"
		;;
	esac
}

# The words up to the cursor as pstat sees them, from COMP_WORDS and
# COMP_CWORD: bash splits those at the characters of COMP_WORDBREAKS too
# (':' and '='), so "--event=sys:write" comes as four words; they are
# joined back where no blank stood between them in COMP_LINE or, when
# there is no COMP_LINE, where one of them is only such characters. Sets
# words, cword, and comp_at: the COMP_WORDS index each word starts at.
_pstat_split_line()
{
	local k w prev= glued line=${COMP_LINE-} pos=0 rest pre
	local wb=${COMP_WORDBREAKS-$'"\'><=;|&(:'}
	wb=${wb//[[:space:]]/}
	words=() comp_at=() cword=-1
	for ((k = 0; k < ${#COMP_WORDS[@]} && k <= COMP_CWORD; k++)); do
		w=${COMP_WORDS[k]}
		glued=0
		if [[ -n $line && -n $w ]]; then
			rest=${line:pos}
			pre=${rest%%"$w"*}
			pos=$((pos + ${#pre} + ${#w}))
			((k > 0)) && [[ -z $pre ]] && glued=1
		elif [[ -n $w && -n $wb ]] && ((k > 0)); then
			[[ $w == +([$wb]) || $prev == +([$wb]) ]] && glued=1
		fi
		if ((glued && cword >= 0)); then
			words[cword]+=$w
		else
			words+=("$w")
			cword=$((${#words[@]} - 1))
			comp_at[cword]=$k
		fi
		prev=$w
	done
	# the cursor inside a word: complete the text before it
	if [[ -n $line && -n ${COMP_POINT-} ]] && ((pos > COMP_POINT)) &&
		((${#words[cword]} >= pos - COMP_POINT)); then
		words[cword]=${words[cword]:0:${#words[cword]}-(pos - COMP_POINT)}
	fi
	if ((cword < 0)); then
		words=("") comp_at=(0) cword=0
	fi
}

# Index in words where the command starts (after pstat's options and
# their values, or after --), or 0 when there is none before the cursor.
_pstat_command_index()
{
	local i j w
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		case $w in
		--)
			echo $((i + 1))
			return
			;;
		--*=*) ;;
		--*)
			[[ $_pstat_opts_arg == *" $w "* ]] && ((i++))
			;;
		-?*)
			for ((j = 1; j < ${#w}; j++)); do
				if [[ $_pstat_short_arg == *"${w:j:1}"* ]]; then
					((j + 1 == ${#w})) && ((i++))
					break
				fi
			done
			;;
		*)
			echo "$i"
			return
			;;
		esac
	done
	echo 0
}

# The index in COMP_WORDS of words[$1]: the command's own completion
# counts in COMP_WORDS.
_pstat_comp_index()
{
	echo "${comp_at[$1]:-$COMP_CWORD}"
}

_pstat()
{
	local cur prev cword i k opt= val
	local -a reply=() words=() comp_at=()

	_pstat_split_line
	cur=${words[cword]}
	prev=${words[cword - 1]}
	# inside an open quote readline completes the text after the quote
	case $cur in
	\'* | \"*) cur=${cur:1} ;;
	esac

	i=0
	if ((cword > 1)) && [[ ${words[1]} == @(list|compare|doctor|bench|serve|help) ]]; then
		mapfile -t reply < <(_pstat_subcommand "${words[1]}" "$cur" \
			"$prev")
	elif i=$(_pstat_command_index) && ((i > 0 && cword > i)); then
		i=$(_pstat_comp_index "$i")
		# bash-completion reads the line: make one from the words
		if [[ -z ${COMP_LINE+set} ]]; then
			local COMP_LINE COMP_POINT
			printf -v COMP_LINE '%s ' "${COMP_WORDS[@]:0:COMP_CWORD+1}"
			COMP_LINE=${COMP_LINE% }
			COMP_POINT=${#COMP_LINE}
		fi
		if declare -F _comp_command_offset >/dev/null; then
			_comp_command_offset "$i"
		elif declare -F _command_offset >/dev/null; then
			_command_offset "$i"
		else
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	elif ((i > 0)); then
		# the command's name, after --
		mapfile -t reply < <(compgen -c -- "$cur")
	else
		if [[ $cur == --*=* ]]; then
			opt=${cur%%=*}
			val=${cur#*=}
		elif [[ $cur == -[!-]?* ]]; then
			# -eLIST, -ip1234: a value attached to a short option
			for ((k = 1; k < ${#cur} - 1; k++)); do
				if [[ $_pstat_short_arg == *"${cur:k:1}"* ]]; then
					opt=-${cur:k:1}
					val=${cur:k+1}
					break
				fi
			done
		fi
		if [[ -z $opt && $prev == --* ]]; then
			opt=$prev
			val=$cur
		elif [[ -z $opt && $prev == -[!-]* ]]; then
			# a cluster such as -ie whose last letter takes a value
			for ((k = 1; k < ${#prev}; k++)); do
				[[ $_pstat_short_arg == *"${prev:k:1}"* ]] || continue
				((k + 1 == ${#prev})) && opt=-${prev:k:1} val=$cur
				break
			done
		fi
		[[ $_pstat_opts_arg == *" $opt "* ]] || opt=
		if [[ -n $opt ]]; then
			mapfile -t reply < <(_pstat_value "$opt" "$val")
			# the values come without the "--opt=" or "-e" before them
			if [[ $cur != "$val" ]]; then
				reply=("${reply[@]/#/${cur%"$val"}}")
			fi
			case $opt in
			-o | --output | --baseline | --compare-output)
				compopt -o filenames 2>/dev/null
				;;
			*) compopt -o nospace 2>/dev/null ;;
			esac
		elif [[ $cur == -* ]]; then
			mapfile -t reply < <(compgen -W \
				"$_pstat_opts_long $_pstat_opts_compare $_pstat_opts_short" \
				-- "$cur")
		elif ((cword == 1)); then
			mapfile -t reply < <(compgen -W 'list compare doctor bench serve help' \
				-- "$cur"
			compgen -c -- "$cur")
		else
			mapfile -t reply < <(compgen -c -- "$cur")
		fi
	fi

	# one pid left: insert the number, not the "(comm)" shown beside it
	if ((${#reply[@]} == 1)) && [[ ${reply[0]} == *" ("*")" ]]; then
		reply[0]=${reply[0]%% (*}
	fi
	# readline replaces only the text after the last word-break
	# character in the word (':' and '=' by default): drop what precedes
	local wb=${COMP_WORDBREAKS//[[:space:]]/} pre
	if [[ -n $wb ]]; then
		pre=${cur%[$wb]*}
		if [[ $pre != "$cur" ]]; then
			pre=${cur:0:${#pre}+1}
			reply=("${reply[@]/#"$pre"/}")
		fi
	fi
	COMPREPLY=("${reply[@]}")
	return 0
}

complete -F _pstat pstat
