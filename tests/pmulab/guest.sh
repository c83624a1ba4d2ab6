# The lab's scenarios, run by the guest (busybox sh, -smp 1, -icount
# shift=0) in its results directory. Each `sc NAME CMD...` runs CMD and
# leaves NAME.out (stdout), NAME.err (stderr) and NAME.rc (exit status)
# for tests/95-pmulab.bats to assert on, on the host.
#
# To add a scenario: one `sc` line here (pstat writes its report to
# stderr, -j and -x to stdout with -o -), and a @test in
# tests/95-pmulab.bats that reads "$PMU/NAME.out" or "$PMU/NAME.err".
# Keep the guest's work short: every scenario is in every make check.
#
# The programs (tests/pmulab/loop.S) retire exactly this many user-mode
# instructions: loop1m 2000005, loop2m 4000005, loop10m 20000005,
# loop50m 100000005, sysloop10k 40005 (and 10000 system calls); region:
# see loop.S.
sc() {
	n=$1
	shift
	"$@" >"$n.out" 2>"$n.err"
	echo $? >"$n.rc"
}

I10=instructions:u
for i in 2 3 4 5 6 7 8 9 10; do I10=$I10,instructions:u; done
I8=instructions:u
for i in 2 3 4 5 6 7 8; do I8=$I8,instructions:u; done
R6='r08,r08,r08,r08,r08,r08'

sc uname uname -r
sc facts sh -c 'dmesg | grep -i -e pmu -e perfevents; cat /proc/cpuinfo'

# exact counts: the table, CSV, JSON, -r, -I, a --control region
sc table pstat -e instructions:u -- loop1m
sc csv pstat -x, -o - -e instructions:u -- loop1m
sc json pstat -j -o - -e instructions:u,cycles:u -- loop1m
sc sys pstat -x, -o - -e instructions:u -- sysloop10k
sc repeat pstat -j -o - -r 5 -e instructions:u -- loop1m
sc interval pstat -x, -o - -I 10 -e instructions:u -- loop10m
mkfifo ctl ack
sc region sh -c 'exec 3<>ctl 4<>ack; pstat -x, -o - -D -1 --control fd:3,4 -e instructions:u -- region'
rm -f ctl ack
sc bench pstat bench -S none -r 3 -e instructions:u -j -o - loop1m loop2m
sc bench-table pstat bench -S none -r 3 -e instructions:u loop1m loop2m
sc run-a pstat -j -o a.json -e instructions:u,cycles:u -r 3 -- loop1m
sc run-b pstat -j -o b.json -e instructions:u,cycles:u -r 3 -- loop1m
sc compare pstat compare --format json a.json b.json

# the attrs pstat encodes and perf opens, event form by modifier
# (a sysfs form takes its modifiers after the slash, the others after a colon)
FORMS='cycles instructions r8 armv8_pmuv3/inst_retired/ armv8_pmuv3/event=0x8/ armv8_pmuv3/inst_retired,long/ L1-dcache-loads L1-icache-load-misses branch-misses'
for m in '' u k h G H uk uh kh ukh uG kH GH ukG; do
	evs=
	for f in $FORMS; do
		case $f in
		*/) e=$f$m ;;
		*) e=$f${m:+:$m} ;;
		esac
		evs=$evs${evs:+,}$e
	done
	sc "attrs-pstat-$m" pstat --dry-run -j -e "$evs"
	sc "attrs-perf-$m" perf stat -vv -e "$evs" true
done
G='{cycles,instructions}:u,{cycles:k,instructions:u},{r8,armv8_pmuv3/inst_retired/}:k'
sc attrs-pstat-groups pstat --dry-run -j -e "$G"
sc attrs-perf-groups perf stat -vv -e "$G" true
sc verbose pstat -v -e 'armv8_pmuv3/inst_retired,long/u' -- loop1m

# multiplexing: ten counters on six
sc mux pstat -e "$I10" -- loop10m
sc mux-csv pstat -x, -o - -e "$I10" -- loop10m
sc mux-json pstat -j -o - -e "$I10" -- loop10m
sc mux-i pstat -x, -o - -I 20 -e "$I8" -- loop50m
sc mux-i5 pstat -x, -o - -I 5 -e "$I8" -- loop10m
sc mux-i5-table pstat -I 5 -e "$I8" -- loop10m

# groups: what the PMU holds and what it cannot
sc group-fit pstat -x, -o - -e "{$R6,cycles}" -- loop1m
sc group-7 pstat -x, -o - -e "{$R6,r08}" -- loop1m
sc group-7-j pstat -j -o - -e "{$R6,r08}" -- loop1m
sc group-7-table pstat -e "{$R6,r08}" -- loop1m
sc group-w pstat -x, -o - -e "{$R6,r08}:W" -- loop10m
sc group-3 pstat -x, -o - -e '{instructions:u,cycles:u},{instructions:u,r08:u,r08:u},{r08:u,r08:u,r08:u}' -- loop10m

# CPUs, topology, serve
sc cpus-a pstat -x, -o - -a -A -I 200 -e cycles -- sleep 1
sc cpus-c pstat -x, -o - -C 0 -e cycles,instructions -- sleep 0.2
sc per-core pstat -x, -o - -a --per-core -e cycles -- sleep 0.2
sc per-socket pstat -x, -o - -a --per-socket -e cycles -- sleep 0.2
pstat serve --listen 127.0.0.1:9456 -e instructions,cycles >serve.log 2>&1 &
sp=$!
sleep 2
sc serve wget -q -O - http://127.0.0.1:9456/metrics
kill $sp

# metrics, top-down, the default and detailed sets, doctor
sc ipc pstat -M ipc -- loop1m
sc ipc-j pstat -j -o - -M ipc -- loop1m
sc summary pstat -M Summary -- loop1m
sc topdown pstat --topdown -- loop1m
sc detailed pstat -d -- loop1m
sc default pstat -- loop1m
sc doctor pstat doctor
sc doctor-j pstat doctor -j

# perf on the same commands
sc perf-table perf stat -e instructions:u -- loop1m
sc perf-csv perf stat -x, -e instructions:u -- loop1m
sc perf-repeat perf stat -x, -r 5 -e instructions:u -- loop1m
sc perf-interval perf stat -x, -I 10 -e instructions:u -- loop10m
sc perf-mux perf stat -e "$I10" -- loop10m
sc perf-mux-csv perf stat -x, -e "$I10" -- loop10m
sc perf-mux-i perf stat -x, -I 20 -e "$I8" -- loop50m
sc perf-mux-i5 perf stat -x, -I 5 -e "$I8" -- loop10m
sc perf-group-fit perf stat -x, -e "{$R6,cycles}" -- loop1m
sc perf-group-7 perf stat -x, -e "{$R6,r08}" -- loop1m
sc perf-group-w perf stat -x, -e "{$R6,r08}:W" -- loop10m
sc perf-group-3 perf stat -x, -e '{instructions:u,cycles:u},{instructions:u,r08:u,r08:u},{r08:u,r08:u,r08:u}' -- loop10m
sc perf-cpus-a perf stat -x, -a -A -I 200 -e cycles -- sleep 1
sc perf-ipc perf stat -M ipc -- loop1m
sc perf-topdown perf stat --topdown -- loop1m
sc perf-detailed perf stat -d -- loop1m

# make bench's lab row: user-mode instructions of each tool's own run
for i in 1 2 3; do
	sc "cost-pstat-$i" pstat -x, -o - -e instructions:u -- pstat -e task-clock -o /dev/null true
	sc "cost-perf-$i" pstat -x, -o - -e instructions:u -- perf stat -e task-clock -o /dev/null true
	sc "cost-floor-$i" pstat -x, -o - -e instructions:u -- floor true
done
