#!/usr/bin/env bats
# Intel's system metrics over uncore events (DRAM bandwidth, CHA read
# latencies, IO and UPI bandwidth): the formula is Intel's, each event
# encoded from Intel's uncore events JSON onto the kernel's uncore PMU of
# its unit, opened on every box on the CPUs of its cpumask and summed;
# left out, saying why, where the machine has no such PMU. The expected
# formulas and encodings are rebuilt here from Intel's JSON with jq.

bats_require_minimum_version 1.5.0
load test_helper

CPUS="$FIX/cpus"
INTEL="$ROOT/src/events/vendor/intel"

# The kernel's PMU of Intel's uncore Unit $1, and its threshold term.
unit_pmu() {
	case $1 in
	iMC | IMC) echo "uncore_imc thresh" ;;
	CHA) echo "uncore_cha thresh" ;;
	"UPI LL") echo "uncore_upi thresh" ;;
	ARB) echo "uncore_arb cmask" ;;
	IIO) echo "uncore_iio thresh" ;;
	*) return 1 ;;
	esac
}

# Intel's uncore event $2 (with its :c1 / :one_unit modifiers) of uncore
# JSON $1 as pstat's formulas name it: pmu@event=..,umask=..@, the umask
# Intel's UMaskExt:UMask.
uncore_token() {
	local name=${2%%:*} mods=${2#*:} unit code umask ext port fc pmu thr
	[ "$mods" != "$2" ] || mods=
	IFS=$'\t' read -r unit code umask ext port fc < <(jq -r --arg n "${name^^}" \
		'.Events[] | select((.EventName | ascii_upcase) == $n) |
		[.Unit, .EventCode, .UMask, (.UMaskExt // "0"),
		 (.PortMask // "0"), (.FCMask // "0")] | @tsv' "$1")
	read -r pmu thr < <(unit_pmu "$unit")
	# Meteor Lake's ARB takes the kernel's adl format: "threshold"
	[[ $1 != */MTL/* ]] || thr=threshold
	local t
	t=$(printf 'event=0x%x,umask=0x%x' $((code)) $((umask | ext << 8)))
	# an IIO event's ports and traffic classes
	if ((port || fc)); then
		t="$t,$(printf 'ch_mask=0x%x,fc_mask=0x%x' $((port)) $((fc)))"
	fi
	case $mods in
	one_unit) pmu=${pmu}_0 ;;
	c[0-9]*) t="$t,$thr=${mods#c}" ;;
	esac
	echo "$pmu@$t@"
}

# Intel's formula of metric $2 (MetricName) in metrics JSON $1, each
# uncore event replaced as uncore_token does from uncore JSON $3, blanks
# removed.
intel_formula() {
	local f tok
	f=$(jq -r --arg m "$2" '.Metrics[] | select(.MetricName == $m) |
		.BaseFormula' "$1")
	for tok in $(grep -o 'unc_[a-z0-9_.:]*' <<<"$f" | sort -u | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2); do
		f=${f//$tok/$(uncore_token "$3" "$tok")}
	done
	tr -d ' ' <<<"$f"
}

# pstat's formula of metric $1 on the tree PSTAT_SYSFS_ROOT, blanks removed.
pstat_formula() {
	"$ROOT/pstat" list -j metrics | jq -r --arg m "$1" \
		'.metrics[] | select(.name == $m) | .expr' | tr -d ' '
}

# A copy of tree $1 at $2 with the uncore PMUs "UNIT:COUNT"... ($3...):
# format as the kernel's snbep boxes (client ARB: cmask), cpumask CPU 0.
tree_with_uncore() {
	local src=$1 dst=$2 spec unit n i ptype=40 d
	shift 2
	cp -a "$src" "$dst"
	for spec; do
		unit=${spec%%:*} n=${spec#*:}
		for ((i = 0; i < n; i++)); do
			d="$dst/devices/uncore_$unit"
			[ "$unit" = arb ] || d="${d}_$i"
			mkdir -p "$d/format"
			echo $ptype >"$d/type"
			echo 0 >"$d/cpumask"
			echo config:0-7 >"$d/format/event"
			echo config:8-15,32-55 >"$d/format/umask"
			if [ "$unit" = arb ]; then
				echo config:24-28 >"$d/format/cmask"
			else
				echo config:24-31 >"$d/format/thresh"
			fi
			ln -s "../../../devices/${d##*/}" \
				"$dst/bus/event_source/devices/${d##*/}"
			ptype=$((ptype + 1))
		done
	done
}

@test "uncore: the system metrics are Intel's formulas, events from Intel's uncore JSON (SKX, CLX, ICX, SPR, EMR, GNR; TGL, ADL, MTL's ARB)" {
	local m n=0 t=$BATS_TEST_TMPDIR
	tree_with_uncore "$CPUS/intel-emeraldrapids" "$t/emr" imc:2 cha:2 upi:1
	# Cascade Lake (Skylake-SP's model, stepping 7) and Ice Lake-SP
	# (model 6Ah) on copies of the Skylake-SP and Sapphire Rapids trees
	cp -a "$CPUS/intel-skylake-sp" "$t/clx"
	sed -i 's/^stepping\t: 4$/stepping\t: 7/' "$t/clx/proc/cpuinfo"
	cp -a "$CPUS/intel-sapphirerapids" "$t/icx"
	sed -i 's/^model\t\t: 143$/model\t\t: 106/' "$t/icx/proc/cpuinfo"
	PSTAT_SYSFS_ROOT="$t/clx" run "$ROOT/pstat" list -j metrics
	jq_assert '.metrics[] | select(.name == "tma_info_system_dram_bw_use") | .source | test("CLX/")' <<<"$output"
	PSTAT_SYSFS_ROOT="$t/icx" run "$ROOT/pstat" list -j metrics
	jq_assert '.metrics[] | select(.name == "tma_info_system_dram_bw_use") | .source | test("ICX/")' <<<"$output"
	while read -r tree plat metrics uncore names; do
		export PSTAT_SYSFS_ROOT=$tree
		for m in ${names//,/ }; do
			local want got sfx=
			# a hybrid's P-core copy, its references too
			[[ $metrics != *_core.json ]] || sfx=.cpu_core
			want=$(intel_formula "$INTEL/$plat/metrics/$metrics" "$m" "$INTEL/$plat/events/$uncore")
			[ -z "$sfx" ] || want=$(sed -E "s/(tma_[a-z0-9_]+)/\1$sfx/g" <<<"$want")
			got=$(pstat_formula "tma_${m,,}$sfx")
			[ -n "$got" ] || { echo "$plat: no tma_${m,,}"; return 1; }
			[ "$got" = "$want" ] ||
				{ echo "$plat $m: '$got' != '$want'"; return 1; }
			n=$((n + 1))
		done
	done <<EOF
$CPUS/intel-sapphirerapids SPR sapphirerapids_metrics.json sapphirerapids_uncore.json Info_System_DRAM_BW_Use,Info_System_MEM_Read_Latency,Info_System_MEM_Parallel_Reads,Info_System_IO_Read_BW,Info_System_IO_Write_BW,Info_System_UPI_Data_Transmit_BW,Info_System_Socket_CLKS
$CPUS/intel-graniterapids GNR graniterapids_metrics.json graniterapids_uncore.json Info_System_DRAM_BW_Use,Info_System_MEM_Parallel_Reads,Info_System_IO_Read_BW,Info_System_IO_Write_BW,Info_System_UPI_Data_Transmit_BW,Info_System_Socket_CLKS
$CPUS/intel-skylake-sp SKX skylakex_metrics.json skylakex_uncore.json Info_System_DRAM_BW_Use,Info_System_Socket_CLKS,Info_System_Uncore_Frequency,Info_System_IO_Read_BW,Info_System_IO_Write_BW
$t/clx CLX cascadelakex_metrics.json cascadelakex_uncore.json Info_System_DRAM_BW_Use,Info_System_Socket_CLKS,Info_System_IO_Read_BW,Info_System_IO_Write_BW
$t/icx ICX icelakex_metrics.json icelakex_uncore.json Info_System_DRAM_BW_Use,Info_System_MEM_Read_Latency,Info_System_MEM_Parallel_Reads,Info_System_IO_Read_BW,Info_System_IO_Write_BW,Info_System_Socket_CLKS
$t/emr EMR emeraldrapids_metrics.json emeraldrapids_uncore.json Info_System_DRAM_BW_Use,Info_System_MEM_Parallel_Reads,Info_System_IO_Write_BW,Info_System_UPI_Data_Transmit_BW
$CPUS/intel-alderlake ADL alderlake_metrics_goldencove_core.json alderlake_uncore.json Info_System_DRAM_BW_Use
$CPUS/intel-meteorlake MTL meteorlake_metrics_redwoodcove_core.json meteorlake_uncore.json Info_System_MEM_Parallel_Reads
$CPUS/intel-tigerlake TGL tigerlake_metrics.json tigerlake_uncore.json Info_System_DRAM_BW_Use
EOF
	[ "$n" -eq 35 ]
	# the DRAM read latency: Intel's formula divides by a box's
	# clockticks, which its tools count over one second; pstat divides
	# by them per second (perf takes the formula as written)
	for tree in sapphirerapids:SPR:sapphirerapids skylake-sp:SKX:skylakex; do
		IFS=: read -r tree plat f <<<"$tree"
		export PSTAT_SYSFS_ROOT="$CPUS/intel-$tree"
		want=$(intel_formula "$INTEL/$plat/metrics/${f}_metrics.json" Info_System_MEM_DRAM_Read_Latency "$INTEL/$plat/events/${f}_uncore.json")
		[[ $want =~ ^(.*)/(uncore_[a-z]+_0@[^@]*@)$ ]]
		want="${BASH_REMATCH[1]}/(${BASH_REMATCH[2]}/tma_info_system_time)"
		[ "$(pstat_formula tma_info_system_mem_dram_read_latency)" = "$want" ]
	done
	# the sources say which uncore file and version
	PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids" run "$ROOT/pstat" list -j metrics
	jq_assert '.metrics[] | select(.name == "tma_info_system_dram_bw_use") |
		.source | test("uncore: SPR/events/sapphirerapids_uncore.json 1\\.")' <<<"$output"
}

@test "uncore: --dry-run opens each event on every box of its unit, on the box's cpumask CPU, with Intel's encoding" {
	local ev code umask ext want
	export PSTAT_SYSFS_ROOT="$CPUS/intel-sapphirerapids"
	run --separate-stderr "$ROOT/pstat" --dry-run -j -M tma_info_system_dram_bw_use,tma_info_system_mem_parallel_reads true
	assert_success
	local dry=$output
	# two IMC events on each of the tree's 8 uncore_imc boxes, CHA's on 4
	jq_assert '[.events[] | select(.pmu | startswith("uncore_imc_"))] | length == 16' <<<"$dry"
	jq_assert '[.events[] | select(.pmu | startswith("uncore_cha_"))] | length == 8' <<<"$dry"
	jq_assert '[.events[] | select(.pmu | startswith("uncore_")) | .cpus == [0]] | all' <<<"$dry"
	jq_assert '[.events[] | select(.pmu | startswith("uncore_imc_")) | .pmu] | unique == ["uncore_imc_0","uncore_imc_1","uncore_imc_2","uncore_imc_3","uncore_imc_4","uncore_imc_5","uncore_imc_6","uncore_imc_7"]' <<<"$dry"
	# each config from Intel's JSON: the extended umask above bit 32
	for ev in UNC_M_CAS_COUNT.RD UNC_M_CAS_COUNT.WR UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD; do
		IFS=$'\t' read -r code umask ext < <(jq -r --arg n "$ev" \
			'.Events[] | select((.EventName | ascii_upcase) == $n) |
			[.EventCode, .UMask, .UMaskExt] | @tsv' \
			"$INTEL/SPR/events/sapphirerapids_uncore.json")
		want=$(printf '0x%x' $((code | (umask & 0xff) << 8 | ext << 32)))
		jq_assert --arg c "$want" '[.events[] | select(.attr.config == $c)] | length >= 4' <<<"$dry" ||
			{ echo "$ev: no event of config $want"; return 1; }
	done
	# :c1 is the box's threshold term (config:24-31)
	jq_assert '[.events[] | select(.attr.config == "0xc817fe01000136")] | length == 4' <<<"$dry"
	# Skylake-SP's IIO: the ports and traffic classes in ch_mask and
	# fc_mask (config:36-43, 44-46), each of the 6 boxes
	PSTAT_SYSFS_ROOT="$CPUS/intel-skylake-sp" run "$ROOT/pstat" --dry-run -j -M tma_info_system_io_read_bw true
	assert_success
	local port fc
	for ev in PART0 PART3; do
		IFS=$'\t' read -r code umask port fc < <(jq -r --arg n "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.$ev" \
			'.Events[] | select(.EventName == $n) |
			[.EventCode, .UMask, .PortMask, .FCMask] | @tsv' \
			"$INTEL/SKX/events/skylakex_uncore.json")
		want=$(printf '0x%x' $((code | umask << 8 | port << 36 | fc << 44)))
		jq_assert --arg c "$want" '[.events[] | select(.attr.config == $c) | .pmu] == ["uncore_iio_0","uncore_iio_1","uncore_iio_2","uncore_iio_3","uncore_iio_4","uncore_iio_5"]' <<<"$output"
	done
	# and the IMC's are the kernel's own cas_count_read / _write
	for ev in cas_count_read cas_count_write; do
		run "$ROOT/pstat" --dry-run -j -e "uncore_imc_0/$ev/" true
		want=$(jq -r '.events[0].attr.config' <<<"$output")
		jq_assert --arg c "$want" 'any(.events[]; .attr.config == $c and .pmu == "uncore_imc_0")' <<<"$dry"
	done
}

@test "uncore: values on synthetic counts (DRAM bandwidth, parallel reads, read latency, UPI), and the boxes summed" {
	local T="$CPUS/intel-sapphirerapids"
	# GB/s: 64 bytes a CAS, over the run's seconds
	run "$PT" metric-eval "$T -M tma_info_system_dram_bw_use duration=2 uncore_imc/event=0x5,umask=0xcf/=3000000 uncore_imc/event=0x5,umask=0xf0/=1000000"
	assert_success
	close_to "$(mval tma_info_system_dram_bw_use)" 0.128
	# outstanding reads / cycles with one outstanding
	run "$PT" metric-eval "$T -M tma_info_system_mem_parallel_reads uncore_cha/event=0x36,umask=0xc817fe01/=9000 uncore_cha/event=0x36,umask=0xc817fe01,thresh=1/=3000"
	assert_success
	close_to "$(mval tma_info_system_mem_parallel_reads)" 3
	# ns: occupancy / inserts in uncore clocks, over the socket's clock
	# rate (CHA 0's clockticks / seconds)
	run "$PT" metric-eval "$T -M tma_info_system_mem_read_latency duration=2 uncore_cha/event=0x36,umask=0xc817fe01/=600000 uncore_cha/event=0x35,umask=0xc817fe01/=2000 uncore_cha_0/event=0x1,umask=0x0/=4000000000"
	assert_success
	close_to "$(mval tma_info_system_mem_read_latency)" 150
	# ns: the same over the CHA's clock rate, Intel's DRAM latency
	run "$PT" metric-eval "$T -M tma_info_system_mem_dram_read_latency duration=2 uncore_cha/event=0x36,umask=0xc8178601/=600000 uncore_cha/event=0x35,umask=0xc8178601/=2000 uncore_cha_0/event=0x1,umask=0x0/=4000000000"
	assert_success
	close_to "$(mval tma_info_system_mem_dram_read_latency)" 150
	# Skylake-SP's over the IMC's read queue and DRAM clock
	run "$PT" metric-eval "$CPUS/intel-skylake-sp -M tma_info_system_mem_dram_read_latency duration=4 uncore_imc/event=0x80,umask=0x0/=500000 uncore_imc/event=0x10,umask=0x0/=10000 uncore_imc_0/event=0x0,umask=0x0/=4000000000"
	assert_success
	close_to "$(mval tma_info_system_mem_dram_read_latency)" 50
	# Skylake-SP's IO reads: 4 bytes a request, over the 4 parts
	run "$PT" metric-eval "$CPUS/intel-skylake-sp -M tma_info_system_io_read_bw duration=2 uncore_iio/event=0x83,umask=0x1,ch_mask=0x1,fc_mask=0x7/=1000000 uncore_iio/event=0x83,umask=0x1,ch_mask=0x2,fc_mask=0x7/=2000000 uncore_iio/event=0x83,umask=0x1,ch_mask=0x4,fc_mask=0x7/=3000000 uncore_iio/event=0x83,umask=0x1,ch_mask=0x8,fc_mask=0x7/=4000000"
	assert_success
	close_to "$(mval tma_info_system_io_read_bw)" 0.02
	# a client's arbiter: requests of 64 bytes, in GB/s
	run "$PT" metric-eval "$CPUS/intel-tigerlake -M tma_info_system_dram_bw_use duration=1 uncore_arb/event=0x81,umask=0x1/=1000000 uncore_arb/event=0x84,umask=0x1/=500000"
	assert_success
	close_to "$(mval tma_info_system_dram_bw_use)" 0.096
	# Meteor Lake's two ARB boxes: reads outstanding per busy cycle
	run "$PT" metric-eval "$CPUS/intel-meteorlake -M tma_info_system_mem_parallel_reads uncore_arb/event=0x85,umask=0x2/=5000 uncore_arb/event=0x85,umask=0x2,threshold=1/=2000"
	assert_success
	close_to "$(mval tma_info_system_mem_parallel_reads.cpu_core)" 2.5
	run "$PT" metric-eval "$T -M tma_info_system_upi_data_transmit_bw uncore_upi/event=0x2,umask=0xf/=9000000"
	assert_success
	close_to "$(mval tma_info_system_upi_data_transmit_bw)" 64
	# Granite Rapids: both schedulers' reads and writes
	run "$PT" metric-eval "$CPUS/intel-graniterapids -M tma_info_system_dram_bw_use duration=1 uncore_imc/event=0x5,umask=0xcf/=1000000 uncore_imc/event=0x6,umask=0xcf/=1000000 uncore_imc/event=0x5,umask=0xf0/=500000 uncore_imc/event=0x6,umask=0xf0/=500000"
	assert_success
	close_to "$(mval tma_info_system_dram_bw_use)" 0.192
	# a session over synthetic readings of every box: the metric reads
	# the event's count summed over the 8 uncore_imc boxes
	run "$PT" aggr "$T" socket task-clock 'x = uncore_imc@event=0x5,umask=0xcf@'
	assert_success
	local sum
	sum=$(awk '$3 == "uncore_imc/event=0x5,umask=0xcf/" { print $4 }' <<<"$output")
	[ "$sum" -gt 8000 ]
	[ "$(awk '$3 == "x" { print $4 }' <<<"$output")" = "$sum" ]
}

@test "uncore: -M tma_info_system_dram_bw_use is refused, with the PMU it lacks, where the machine has no uncore_imc" {
	# Emerald Rapids' tree has no uncore PMUs
	export PSTAT_SYSFS_ROOT="$CPUS/intel-emeraldrapids"
	run "$ROOT/pstat" --dry-run -M tma_info_system_dram_bw_use true
	assert_failure 125
	assert_output "pstat: -M tma_info_system_dram_bw_use: pstat does not compute tma_info_system_dram_bw_use, of the vendor's data: its uncore events count on the kernel's uncore_imc PMUs, which this machine does not have"
	# listed as left out, and the metrics over them too
	run "$ROOT/pstat" list metrics
	assert_success
	assert_line --regexp '^  tma_info_system_dram_bw_use +its uncore events count on the kernel.s uncore_imc PMUs, which this machine does not have$'
	run "$ROOT/pstat" list -j metrics
	jq_assert '.left_out | any(.name == "tma_info_system_socket_clks" and (.why | test("uncore_cha_0")))' <<<"$output"
	jq_assert '[.metrics[] | select(.name | test("dram_bw_use|socket_clks"))] | length == 0' <<<"$output"
	# a group with some left out warns, naming them
	run --separate-stderr "$ROOT/pstat" --dry-run -M MemoryBW true
	assert_success
	[[ $stderr == *"pstat: warning: -M MemoryBW: "*"tma_info_system_dram_bw_use (its uncore events count on the kernel's uncore_imc PMUs"* ]]
	# on a tree with the IMC but no CHA, only the CHA's
	cp -a "$CPUS/intel-graniterapids" "$BATS_TEST_TMPDIR/gnr"
	rm -r "$BATS_TEST_TMPDIR"/gnr/devices/uncore_cha_* \
		"$BATS_TEST_TMPDIR"/gnr/bus/event_source/devices/uncore_cha_*
	export PSTAT_SYSFS_ROOT="$BATS_TEST_TMPDIR/gnr"
	run "$ROOT/pstat" --dry-run -M tma_info_system_dram_bw_use true
	assert_success
	run "$ROOT/pstat" --dry-run -M tma_info_system_mem_parallel_reads true
	assert_failure 125
	assert_output --partial "uncore_cha PMUs, which this machine does not have"
}

@test "uncore: what cannot be counted right stays left out, with why (box filters)" {
	export PSTAT_SYSFS_ROOT="$CPUS/intel-skylake-sp"
	run "$ROOT/pstat" list -j metrics
	assert_success
	jq_assert '.left_out | any(.name == "tma_info_system_mem_read_latency" and (.why | test("needs the CHA filter 0x40433")))' <<<"$output"
	jq_assert '.left_out | any(.name == "tma_info_system_mem_parallel_reads" and (.why | test("needs the CHA filter 0x40433")))' <<<"$output"
	jq_assert '[.metrics[] | select(.name | test("mem_read_latency|mem_parallel_reads"))] | length == 0' <<<"$output"
	# Intel's filter value is a register setting the kernel's CHA
	# format spreads over filter_* terms: not Intel's encoding to guess
	jq_assert '.Events[] | select(.EventName == "UNC_CHA_TOR_INSERTS.IA_MISS_DRD") | .Filter == "Filter1" and .FILTER_VALUE == "0x40433"' <"$INTEL/SKX/events/skylakex_uncore.json"
	# the socket's uncore clock, where Intel names a unit the kernel
	# exports no counting PMU for (the clients' NCU)
	PSTAT_SYSFS_ROOT="$CPUS/intel-tigerlake" run "$ROOT/pstat" list -j metrics
	jq_assert '.left_out | any(.name == "tma_info_system_socket_clks" and (.why | test("unit NCU")))' <<<"$output"
	# a plain count opens no uncore PMU and reads no table
	run "$ROOT/pstat" --dry-run -e task-clock true
	assert_success
	refute_output --partial uncore
}
