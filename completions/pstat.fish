# fish completion for pstat
# SPDX-License-Identifier: MIT

# pstat's options that take a value, short and long: where they stand,
# the next word is theirs, not the command's.
set -g __fish_pstat_arg_opts --alpha --baseline --compare-format \
    --compare-output --control -C --cpu -D --delay -e --event --fail-on \
    -x --field-separator --for-each-cgroup -G --cgroup --format -I --interval --interval-count --interval-print \
    --log-fd -M --metrics --metric --metrics-file --td-level \
    -o --output -p --pid --post --pre -r --repeat --sim-cache --sim-simulate \
    --sim-toggle-collect --threshold -t --tid --timeout --warmup

# Where the cursor is: "options" (among pstat's options), "sub NAME"
# (after a subcommand), "command-name" (right after --) or "command"
# (in the arguments of the command pstat runs).
function __fish_pstat_state
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l skip 0
    set -l n 0
    for t in $tokens
        set n (math $n + 1)
        if test $skip = 1
            set skip 0
            continue
        end
        switch $t
            case --
                if test $n -lt (count $tokens)
                    echo command
                else
                    echo command-name
                end
                return
            case '--*=*'
            case '--*'
                contains -- $t $__fish_pstat_arg_opts; and set skip 1
            case '-?*'
                # a cluster whose first value-taking letter ends it
                string match -qr -- '^-[^CDeIoprtx]*[CDeIoprtx]$' $t
                and set skip 1
            case '*'
                if test $n = 1; and contains -- $t list compare doctor bench serve help
                    echo "sub $t"
                else
                    echo command
                end
                return
        end
    end
    echo options
end

function __fish_pstat_in_options
    test (__fish_pstat_state) = options
end

function __fish_pstat_first_word
    test (count (commandline -opc)) -eq 1
end

function __fish_pstat_sub
    test (__fish_pstat_state) = "sub $argv[1]"
end

function __fish_pstat_in_command
    test (__fish_pstat_state) = command
end

function __fish_pstat_at_command_name
    test (__fish_pstat_state) = command-name
end

# The current token without an "--opt=" or "-o" before its value.
function __fish_pstat_value
    set -l tok (commandline -ct)
    set -q tok[1]; or set tok ''
    string replace -r -- '^(--[a-z-]+=|-[A-Za-z]+(?=[^-]))' '' $tok
end

# Event names for the last element of an event list (after the last ','
# or '{'), keeping what comes before it. Tracepoints are listed only when
# a subsystem is named ("sched:<TAB>").
function __fish_pstat_events
    set -l tok (__fish_pstat_value)
    set -l frag (string replace -r -- '^.*[,{]' '' $tok)
    set -l prefix (string sub -l (math (string length -- $tok) - (string length -- $frag)) -- $tok)
    set -l names
    if string match -qr -- '^[^:]+:[^:]*$' $frag
        set names (pstat list --names (string split -m1 : -- $frag)[1]':*' 2>/dev/null)
    else
        set names (pstat list --names 2>/dev/null)
        # and the tracepoint subsystems the prefix may start ("sched:")
        set -l tps (pstat list --names $frag'*:*' 2>/dev/null | string match -v -- '*::*')
        set names $names (string replace -r -- ':.*' ':' $tps | sort -u)
    end
    printf '%s\n' $prefix$names
end

# pstat compare's arguments: run documents, and directories to find them.
function __fish_pstat_json_files
    set -l tok (commandline -ct)
    for f in $tok*.json $tok*/
        echo $f
    end
end

# The elements after the last ',' of a list, keeping the ones before.
function __fish_pstat_list_prefix
    set -l tok (__fish_pstat_value)
    string match -qr -- ',' $tok; or return
    string replace -r -- '[^,]*$' '' $tok
end

# Process ids with their command names, in a comma list. Kernel threads
# are left out: pstat -p refuses them, knowing them by PF_KTHREAD
# (0x00200000) in the flags of /proc/PID/stat, the ninth field.
function __fish_pstat_pids
    set -l prefix (__fish_pstat_list_prefix)
    for d in /proc/*
        set -l pid (string replace /proc/ '' -- $d)
        string match -qr -- '^[0-9]+$' $pid; or continue
        set -l stat (string replace -r -- '^.*\) ' '' (cat $d/stat 2>/dev/null))
        set -l f (string split ' ' -- $stat)
        set -q f[7]; or continue
        test (math "floor($f[7] / 2097152) % 2") = 0; or continue
        set -l comm (cat $d/comm 2>/dev/null)
        printf '%s%s\t%s\n' "$prefix" $pid "$comm"
    end
end

# Thread ids of every process with their command names, in a comma list.
function __fish_pstat_tids
    set -l prefix (__fish_pstat_list_prefix)
    for d in /proc/*/task/*
        set -l tid (string replace -r -- '.*/' '' $d)
        string match -qr -- '^[0-9]+$' $tid; or continue
        set -l comm (cat $d/comm 2>/dev/null); or continue
        printf '%s%s\t%s\n' "$prefix" $tid "$comm"
    end
end

# The online CPUs, in a comma list.
function __fish_pstat_cpus
    set -l prefix (__fish_pstat_list_prefix)
    set -l online (cat /sys/devices/system/cpu/online 2>/dev/null)
    for r in (string split , -- $online)
        set -l ends (string split - -- $r)
        for c in (seq $ends[1] $ends[-1])
            printf '%s%s\n' "$prefix" $c
        end
    end
end

# Cgroups as -G names them: paths below the mount of the hierarchy that
# counts perf events (cgroup v1's perf_event, else cgroup2).
function __fish_pstat_cgroups
    set -l prefix (__fish_pstat_list_prefix)
    set -l mnt (awk '{
        for (i = 7; $i != "-"; i++) ;
        if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)perf_event(,|$)/) v1 = $5
        else if ($(i + 1) == "cgroup2" && !v2) v2 = $5
    } END { print (v1 != "" ? v1 : v2) }' /proc/self/mountinfo 2>/dev/null)
    test -n "$mnt"; or return
    for d in (find $mnt -mindepth 1 -maxdepth 3 -type d 2>/dev/null)
        printf '%s%s\n' "$prefix" (string replace -- "$mnt/" '' $d)
    end
end

function __fish_pstat_fail_on
    set -l prefix (__fish_pstat_list_prefix)
    printf "$prefix%s\n" not-supported not-counted multiplexed
end

complete -c pstat -e

# Subcommands, as the first word.
complete -c pstat -f -n __fish_pstat_first_word -a list -d 'List the events that can be counted here'
complete -c pstat -f -n __fish_pstat_first_word -a compare -d 'Compare two pstat -j results'
complete -c pstat -f -n __fish_pstat_first_word -a doctor -d 'Tell why counting does or does not work here'
complete -c pstat -f -n __fish_pstat_first_word -a bench -d 'Run commands interleaved and compare them'
complete -c pstat -f -n __fish_pstat_first_word -a serve -d 'Answer Prometheus scrapes with running counts'
complete -c pstat -f -n __fish_pstat_first_word -a help -d 'Show the usage, or a subcommand\'s'

# pstat's options: the same set as `pstat --help` shows, which
# tests/90-docs.bats checks.
complete -c pstat -n __fish_pstat_in_options -s a -l all-cpus -d 'Count on every online CPU'
complete -c pstat -n __fish_pstat_in_options -l alpha -x -d 'Significance level of the comparison, with --baseline'
complete -c pstat -n __fish_pstat_in_options -l append -d 'Append to the -o file or the --log-fd descriptor'
complete -c pstat -n __fish_pstat_in_options -l baseline -r -k -a '(__fish_complete_suffix .json)' -d 'Then compare with this pstat -j result'
complete -c pstat -n __fish_pstat_in_options -s B -l big-num -d 'Group digits'
complete -c pstat -n __fish_pstat_in_options -s G -l cgroup -x -a '(__fish_pstat_cgroups)' -d 'Count the events before it only in these cgroups (with -a)'
complete -c pstat -n __fish_pstat_in_options -l compare-format -x -a 'table json markdown' -d 'Output of the comparison, with --baseline'
complete -c pstat -n __fish_pstat_in_options -l compare-output -r -F -d 'Write the comparison to FILE, with --baseline'
complete -c pstat -n __fish_pstat_in_options -l control -x -a 'fd: fifo:' -d 'Take enable/disable commands from fd:CTL[,ACK] or fifo:CTL[,ACK]'
complete -c pstat -n __fish_pstat_in_options -s C -l cpu -x -a '(__fish_pstat_cpus)' -d 'Count on these CPUs'
complete -c pstat -n __fish_pstat_in_options -s D -l delay -x -d 'Start counting MS after the command'
complete -c pstat -n __fish_pstat_in_options -s d -l detailed -d "Add perf's cache events (-dd adds TLB, -ddd prefetch)"
complete -c pstat -n __fish_pstat_in_options -l dry-run -d 'Print the encoded events, run nothing'
complete -c pstat -n __fish_pstat_in_options -s e -l event -x -a '(__fish_pstat_events)' -d 'Events to count'
complete -c pstat -n __fish_pstat_in_options -l fail-on -x -a '(__fish_pstat_fail_on)' -d 'Exit 5 when a counter ends in these states'
complete -c pstat -n __fish_pstat_in_options -s x -l field-separator -x -d 'CSV output with this separator'
complete -c pstat -n __fish_pstat_in_options -l for-each-cgroup -x -a '(__fish_pstat_cgroups)' -d 'Count every event once per cgroup (with -a)'
complete -c pstat -n __fish_pstat_in_options -l format -x -a 'table json markdown' -d 'Output of the comparison, with --baseline'
complete -c pstat -n __fish_pstat_in_options -s h -l help -d 'Show the usage'
complete -c pstat -n __fish_pstat_in_options -s I -l interval -x -d 'Print deltas every MS milliseconds'
complete -c pstat -n __fish_pstat_in_options -l interval-count -x -d 'Stop after N intervals'
complete -c pstat -n __fish_pstat_in_options -l interval-print -x -d "perf's long name of -I"
complete -c pstat -n __fish_pstat_in_options -s j -l json -a 'pstat perf' -d 'One JSON document (pstat/1); =perf: perf stat -j lines'
complete -c pstat -n __fish_pstat_in_options -l json-output -d "perf's long name of -j: perf stat -j lines"
complete -c pstat -n __fish_pstat_in_options -s M -l metrics -x -a '(pstat list --names metrics 2>/dev/null)' -d 'Built-in metrics or metric groups'
complete -c pstat -n __fish_pstat_in_options -l metric -x -d 'A metric of your own: NAME = EXPR'
complete -c pstat -n __fish_pstat_in_options -l metric-no-group -d 'Open the events of metrics ungrouped'
complete -c pstat -n __fish_pstat_in_options -l metric-only -d 'Print the metrics alone, one column each'
complete -c pstat -n __fish_pstat_in_options -l metrics-file -r -F -d 'Metrics of your own, one a line'
complete -c pstat -n __fish_pstat_in_options -s A -l no-aggr -d 'One row per CPU'
complete -c pstat -n __fish_pstat_in_options -l no-big-num -d 'No digit grouping'
complete -c pstat -n __fish_pstat_in_options -l no-csv-summary -d "With -I and -x: no 'summary' column"
complete -c pstat -n __fish_pstat_in_options -l no-merge -d 'One row per PMU instance, not their sum'
complete -c pstat -n __fish_pstat_in_options -s i -l no-inherit -d "Do not count the command's children"
complete -c pstat -n __fish_pstat_in_options -s n -l null -d 'No counters: elapsed, user and sys time'
complete -c pstat -n __fish_pstat_in_options -l openmetrics -d 'The OpenMetrics text exposition'
complete -c pstat -n __fish_pstat_in_options -s o -l output -r -F -d 'Write the results to FILE'
complete -c pstat -n __fish_pstat_in_options -l keep-on-exit -d 'Let the command run on should pstat be killed'
complete -c pstat -n __fish_pstat_in_options -l log-fd -x -d 'Write the results to descriptor FD'
complete -c pstat -n __fish_pstat_in_options -l per-cache -a 'L1 L2 L3 L4' -d 'With -a/-C: one row per cache'
complete -c pstat -n __fish_pstat_in_options -l per-cluster -d 'With -a/-C: one row per cluster'
complete -c pstat -n __fish_pstat_in_options -l per-core -d 'With -a/-C: one row per core'
complete -c pstat -n __fish_pstat_in_options -l per-die -d 'With -a/-C: one row per die'
complete -c pstat -n __fish_pstat_in_options -l per-node -d 'With -a/-C: one row per NUMA node'
complete -c pstat -n __fish_pstat_in_options -l per-socket -d 'With -a/-C: one row per socket'
complete -c pstat -n __fish_pstat_in_options -l per-thread -d 'One row per thread'
complete -c pstat -n __fish_pstat_in_options -s p -l pid -x -a '(__fish_pstat_pids)' -d 'Attach to processes'
complete -c pstat -n __fish_pstat_in_options -l post -x -d 'Run this shell command after each run'
complete -c pstat -n __fish_pstat_in_options -l pre -x -d 'Run this shell command before each run'
complete -c pstat -n __fish_pstat_in_options -l prometheus -d 'The Prometheus text format 0.0.4'
complete -c pstat -n __fish_pstat_in_options -l quiet -d 'Print no report, only the exit status'
complete -c pstat -n __fish_pstat_in_options -s r -l repeat -x -d 'Run the command N times'
complete -c pstat -n __fish_pstat_in_options -s S -l sync -d 'Sync before each run'
complete -c pstat -n __fish_pstat_in_options -l sim -d 'The default events with the hardware ones on sim'
complete -c pstat -n __fish_pstat_in_options -l sim-cache -x -a 'I1= D1= LL=' -d 'Simulated cache geometry: LEVEL=SIZE,ASSOC,LINE'
complete -c pstat -n __fish_pstat_in_options -l sim-simulate -x -a 'cache branch cache,branch none' -d 'What sim simulates'
complete -c pstat -n __fish_pstat_in_options -l sim-toggle-collect -x -d 'Count sim events only while FUNCTION runs'
complete -c pstat -n __fish_pstat_in_options -l summary -d 'The summary after the intervals (always printed)'
complete -c pstat -n __fish_pstat_in_options -s t -l tid -x -a '(__fish_pstat_tids)' -d 'Attach to threads'
complete -c pstat -n __fish_pstat_in_options -l threshold -x -d 'Allowed change per event, with --baseline'
complete -c pstat -n __fish_pstat_in_options -l td-level -x -a '1 2 3 4 5 6' -d 'Top-down levels 1 to N'
complete -c pstat -n __fish_pstat_in_options -l timeout -x -d 'Stop after MS milliseconds'
complete -c pstat -n __fish_pstat_in_options -l topdown -d 'Top-down analysis, level 1'
complete -c pstat -n __fish_pstat_in_options -s v -l verbose -d 'Say how events were resolved'
complete -c pstat -n __fish_pstat_in_options -s V -l version -d 'Print the version'
complete -c pstat -n __fish_pstat_in_options -l wait-close -d 'Wait for the counters teardown before exiting'
complete -c pstat -n __fish_pstat_in_options -l warmup -x -d 'Uncounted runs first'

# The command pstat runs, then that command's own completion.
complete -c pstat -n __fish_pstat_in_options -f -a '(__fish_complete_command)'
complete -c pstat -n __fish_pstat_at_command_name -f -a '(__fish_complete_command)'
complete -c pstat -n __fish_pstat_in_command -f -a '(__fish_complete_subcommand --control -G --cgroup --for-each-cgroup -C --cpu -D --delay -e --event --fail-on -x --field-separator -I --interval --interval-count --interval-print --log-fd -M --metrics --metric --metrics-file --td-level -o --output -p --pid -r --repeat --sim-cache --sim-simulate --sim-toggle-collect -t --tid --timeout --warmup --alpha --baseline --compare-format --compare-output --format --threshold)'

# pstat list [--tracepoints] [--names] [-j] [GLOB]
complete -c pstat -f -n '__fish_pstat_sub list' -a '(__fish_pstat_events)'
complete -c pstat -f -n '__fish_pstat_sub list' -l tracepoints -d 'List every tracepoint'
complete -c pstat -f -n '__fish_pstat_sub list' -l names -d 'One name per line'
complete -c pstat -f -n '__fish_pstat_sub list' -s j -l json -d 'One JSON document (pstat-list/1)'
complete -c pstat -f -n '__fish_pstat_sub list' -s h -l help -d 'Show the usage'

# pstat compare [--threshold SPEC]... [--alpha A] [--format FMT] [-o FILE] BASE.json NEW.json
complete -c pstat -n '__fish_pstat_sub compare' -l threshold -x -d 'Allowed change per event, e.g. cycles=3%,*=5%'
complete -c pstat -n '__fish_pstat_sub compare' -l alpha -x -d 'Significance level (default 0.05)'
complete -c pstat -n '__fish_pstat_sub compare' -l format -x -a 'table json markdown' -d 'Output format'
complete -c pstat -n '__fish_pstat_sub compare' -s o -l output -r -F -d 'Write the comparison to FILE'
complete -c pstat -n '__fish_pstat_sub compare' -s h -l help -d 'Show the usage'
complete -c pstat -n '__fish_pstat_sub compare' -k -x -a '(__fish_pstat_json_files)'

# pstat help [SUBCOMMAND]
complete -c pstat -f -n '__fish_pstat_sub help' -a 'list compare doctor bench serve'

# pstat doctor [-j]
complete -c pstat -f -n '__fish_pstat_sub doctor' -s j -l json -d 'One JSON document (pstat-doctor/1)'
complete -c pstat -f -n '__fish_pstat_sub doctor' -s h -l help -d 'Show the usage'

# pstat bench [options] [-e EVENTS]... [-n NAME]... COMMAND...
complete -c pstat -n '__fish_pstat_sub bench' -l alpha -x -d 'Significance level (default 0.05)'
complete -c pstat -n '__fish_pstat_sub bench' -s c -l cleanup -x -d 'Run CMD after the last round'
complete -c pstat -n '__fish_pstat_sub bench' -s n -l command-name -x -d 'Name the next command'
complete -c pstat -n '__fish_pstat_sub bench' -l conclude -x -d 'Run CMD after each run'
complete -c pstat -n '__fish_pstat_sub bench' -s e -l event -x -a '(pstat list --names 2>/dev/null)' -d 'Events to count'
complete -c pstat -n '__fish_pstat_sub bench' -l export-csv -r -F -d 'Write the results as CSV'
complete -c pstat -n '__fish_pstat_sub bench' -l export-json -r -F -d 'Write hyperfine'\''s JSON document'
complete -c pstat -n '__fish_pstat_sub bench' -l export-markdown -r -F -d 'Write a Markdown table'
complete -c pstat -n '__fish_pstat_sub bench' -l fail-on-regression -d 'Exit 3 when a command regressed'
complete -c pstat -n '__fish_pstat_sub bench' -s h -l help -d 'Show the usage'
complete -c pstat -n '__fish_pstat_sub bench' -s i -l ignore-failure -d 'Keep going over failed runs'
complete -c pstat -n '__fish_pstat_sub bench' -l input -r -F -a 'null' -d 'The commands'\'' input: null or FILE'
complete -c pstat -n '__fish_pstat_sub bench' -s j -l json -d 'One JSON document (pstat-bench/1)'
complete -c pstat -n '__fish_pstat_sub bench' -s L -l parameter-list -x -d 'Run once per value of VAR: -L VAR V1,V2'
complete -c pstat -n '__fish_pstat_sub bench' -s M -l max-runs -x -d 'At most N rounds'
complete -c pstat -n '__fish_pstat_sub bench' -s m -l min-runs -x -d 'At least N rounds'
complete -c pstat -n '__fish_pstat_sub bench' -s N -d 'Run the commands without a shell'
complete -c pstat -n '__fish_pstat_sub bench' -l order -x -a 'interleave shuffle' -d 'The order of each round'
complete -c pstat -n '__fish_pstat_sub bench' -s o -l report -r -F -d 'Write the report to FILE'
complete -c pstat -n '__fish_pstat_sub bench' -l output -r -F -a 'null pipe inherit' -d 'Where the commands'\'' output goes'
complete -c pstat -n '__fish_pstat_sub bench' -s P -l parameter-scan -x -d 'Run once per value of a range: -P VAR MIN MAX'
complete -c pstat -n '__fish_pstat_sub bench' -s D -l parameter-step-size -x -d 'The step of -P'
complete -c pstat -n '__fish_pstat_sub bench' -l per -x -d 'Divide the counters by the work of a run'
complete -c pstat -n '__fish_pstat_sub bench' -l per-unit -x -d 'The same, naming the unit: NAME=N'
complete -c pstat -n '__fish_pstat_sub bench' -l plot -r -F -d 'Draw the distributions as SVG'
complete -c pstat -n '__fish_pstat_sub bench' -s p -l prepare -x -d 'Run CMD before each run'
complete -c pstat -n '__fish_pstat_sub bench' -s r -l runs -x -d 'Exactly N rounds'
complete -c pstat -n '__fish_pstat_sub bench' -l seed -x -d 'The seed of the shuffle'
complete -c pstat -n '__fish_pstat_sub bench' -s s -l setup -x -d 'Run CMD before the first round'
complete -c pstat -n '__fish_pstat_sub bench' -s S -l shell -x -a 'sh bash none' -d 'The shell of the commands'
complete -c pstat -n '__fish_pstat_sub bench' -l show-output -d 'Let the output of the commands through'
complete -c pstat -n '__fish_pstat_sub bench' -l sort -x -a 'auto command mean-time' -d 'The order of the comparisons'
complete -c pstat -n '__fish_pstat_sub bench' -l style -x -a 'auto full basic nocolor color none' -d 'The terminal effects'
complete -c pstat -n '__fish_pstat_sub bench' -l threshold -x -d 'Allowed change per event, e.g. cycles=3%,*=5%'
complete -c pstat -n '__fish_pstat_sub bench' -s u -l time-unit -x -a 'microsecond millisecond second' -d 'The unit of times'
complete -c pstat -n '__fish_pstat_sub bench' -s w -l warmup -x -d 'Uncounted rounds first'

# pstat serve [--listen ADDR:PORT] [-e LIST]... [-a | -C LIST | -p PID] ...
complete -c pstat -f -n '__fish_pstat_sub serve' -s a -l all-cpus -d 'Count on every online CPU'
complete -c pstat -f -n '__fish_pstat_sub serve' -s C -l cpu -x -a '(__fish_pstat_cpus)' -d 'Count on these CPUs'
complete -c pstat -f -n '__fish_pstat_sub serve' -s e -l event -x -a '(__fish_pstat_events)' -d 'Events to count'
complete -c pstat -f -n '__fish_pstat_sub serve' -s G -l cgroup -x -d 'The events before it count only these cgroups'
complete -c pstat -f -n '__fish_pstat_sub serve' -l for-each-cgroup -x -d 'Every event once per cgroup'
complete -c pstat -f -n '__fish_pstat_sub serve' -s h -l help -d 'Show the usage'
complete -c pstat -f -n '__fish_pstat_sub serve' -s I -l interval -x -d 'Read the counters every MS milliseconds'
complete -c pstat -f -n '__fish_pstat_sub serve' -l listen -x -d 'Where to answer, ADDR:PORT or :PORT'
complete -c pstat -f -n '__fish_pstat_sub serve' -s M -l metrics -x -a '(pstat list --names metrics 2>/dev/null)' -d 'Built-in metrics or metric groups'
complete -c pstat -f -n '__fish_pstat_sub serve' -l metric -x -d 'A metric of your own, NAME = EXPR'
complete -c pstat -n '__fish_pstat_sub serve' -l metrics-file -r -F -d 'Metrics of your own, one a line'
complete -c pstat -f -n '__fish_pstat_sub serve' -s A -l no-aggr -d 'One series per CPU'
complete -c pstat -f -n '__fish_pstat_sub serve' -l per-thread -d 'One series per thread'
complete -c pstat -f -n '__fish_pstat_sub serve' -s p -l pid -x -a '(__fish_pstat_pids)' -d 'Count these processes'
complete -c pstat -f -n '__fish_pstat_sub serve' -l timeout -x -d 'Stop after MS milliseconds'
complete -c pstat -f -n '__fish_pstat_sub serve' -s v -l verbose -d 'Say how events were resolved'
complete -c pstat -n '__fish_pstat_sub serve' -l web.config.file -r -F -d 'TLS and basic authentication'
