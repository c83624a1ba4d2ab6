# Helpers for tests that run `pstat serve` and the tools that scrape it
# (Prometheus, promtool): every server listens on 127.0.0.1, on a port
# the kernel picks. Load after test_helper.

OM_PYTHON=${OM_PYTHON:-/usr/bin/python3}
# curl's options for serve_bg's readiness check (TLS, a password)
SERVE_CURL=()

need_om_parser() {
	"$OM_PYTHON" -c 'import prometheus_client.openmetrics.parser' \
		2>/dev/null ||
		skip "python3-prometheus-client is not installed for $OM_PYTHON"
}

# om_check FORMAT [FILE]: tests/lib/om-check.py, with the Python that has
# the client library.
om_check() {
	"$OM_PYTHON" "$ROOT/tests/lib/om-check.py" "$@"
}

need_serve() {
	need_perf_events
	command -v curl >/dev/null || skip "curl is not installed"
	# only a missing libmicrohttpd is the machine's; any other failure
	# to start is pstat's, and fails the test rather than hide in a skip
	"$ROOT/pstat" serve --listen 127.0.0.1:0 --timeout 1 -e task-clock \
		>/dev/null 2>"$BATS_TEST_TMPDIR/probe" && return 0
	grep -q 'install libmicrohttpd' "$BATS_TEST_TMPDIR/probe" &&
		skip "pstat serve cannot run here: $(head -n1 "$BATS_TEST_TMPDIR/probe")"
	fail "pstat serve does not start: $(cat "$BATS_TEST_TMPDIR/probe")"
}

need_prometheus() {
	command -v prometheus >/dev/null ||
		skip "prometheus is not installed (Debian: prometheus)"
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
	"$OM_PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# serve_bg [-x COMMAND... --] ARGS...: `pstat serve --listen 127.0.0.1:0
# ARGS` in the background; sets $spid, $port and $url (https with TLS)
# once /metrics has the first reading, asked by curl with the options of
# array SERVE_CURL. With -x, `COMMAND... serve ARGS --listen 127.0.0.1:0`
# instead: COMMAND runs pstat its own way (a sandbox), and the last
# --listen is the one that counts.
serve_bg() {
	local cmd=()
	if [ "${1:-}" = -x ]; then
		shift
		while [ "$1" != -- ]; do
			cmd+=("$1")
			shift
		done
		shift
		cmd+=(serve "$@" --listen 127.0.0.1:0)
	else
		cmd=("$PSTAT" serve --listen 127.0.0.1:0 "$@")
	fi
	"${cmd[@]}" 2>"$BATS_TEST_TMPDIR/serve.err" &
	spid=$!
	port=
	for _ in $(seq 100); do
		port=$(sed -n 's|^pstat: serving https\{0,1\}://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' \
			"$BATS_TEST_TMPDIR/serve.err" 2>/dev/null) || true
		[ -n "$port" ] && break
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$port" ] || { cat "$BATS_TEST_TMPDIR/serve.err"; return 1; }
	url="http://127.0.0.1:$port"
	grep -q '^pstat: serving https:' "$BATS_TEST_TMPDIR/serve.err" &&
		url="https://127.0.0.1:$port"
	for _ in $(seq 100); do
		curl -sf "${SERVE_CURL[@]}" -o /dev/null "$url/metrics" && return 0
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/serve.err"
	return 1
}

# stop_serve: SIGTERM, and its status in $st.
stop_serve() {
	kill -TERM "$spid"
	st=0
	wait "$spid" || st=$?
	spid=
}

# metric FILE NAME{labels}: the value of that sample in an exposition.
metric() {
	awk -v s="$2" 'index($0, s " ") == 1 { print $NF }' "$1"
}

# prom_start CONFIG: Prometheus on 127.0.0.1 with CONFIG; sets $prom
# (its pid) and $purl.
prom_start() {
	local pport
	pport=$(free_port)
	prometheus --config.file="$1" \
		--storage.tsdb.path="$BATS_TEST_TMPDIR/tsdb" \
		--web.listen-address="127.0.0.1:$pport" \
		>"$BATS_TEST_TMPDIR/prometheus.log" 2>&1 &
	prom=$!
	purl="http://127.0.0.1:$pport"
}

# prom_stop: SIGTERM to the Prometheus of prom_start, and wait for it.
prom_stop() {
	kill -TERM "$prom"
	wait "$prom" || true
	prom=
}

# promq QUERY: the instant query's JSON answer.
promq() {
	curl -sf --data-urlencode "query=$1" "$purl/api/v1/query"
}

# serve_teardown: kill what a test of serve left running ($spid, $prom,
# $wpid, $spid1).
serve_teardown() {
	[ -z "${spid:-}" ] || kill -KILL "$spid" 2>/dev/null || true
	[ -z "${prom:-}" ] || kill -KILL "$prom" 2>/dev/null || true
	[ -z "${wpid:-}" ] || kill -KILL "$wpid" 2>/dev/null || true
	[ -z "${spid1:-}" ] || kill -KILL "$spid1" 2>/dev/null || true
}
