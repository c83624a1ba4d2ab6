#!/usr/bin/env bats
# pstat serve: the Prometheus exporter. Its answers are read by the
# official parsers of python3-prometheus-client, it is scraped by a real
# Prometheus, loaded by 50 concurrent clients, and stopped by SIGTERM.
# Every server listens on 127.0.0.1 on a port the kernel picks.

load test_helper

load serve_helper

teardown() {
	serve_teardown
}

@test "serve: /metrics in the text format 0.0.4, or OpenMetrics when asked" {
	need_serve
	need_om_parser
	serve_bg -e task-clock,context-switches -I 100
	sleep 0.3
	curl -sf -D "$BATS_TEST_TMPDIR/h" -o "$BATS_TEST_TMPDIR/t" "$url/metrics"
	grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$BATS_TEST_TMPDIR/h"
	run om_check text "$BATS_TEST_TMPDIR/t"
	assert_success
	assert_line 'family pstat_event_seconds counter -'
	assert_line --regexp '^sample pstat_event_seconds_total\{event="task-clock",pmu="software"\} [0-9.e-]+$'
	# Prometheus's own Accept header
	curl -sf -D "$BATS_TEST_TMPDIR/h" -o "$BATS_TEST_TMPDIR/o" \
		-H 'Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' \
		"$url/metrics"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$BATS_TEST_TMPDIR/h"
	grep -qi '^vary: accept' "$BATS_TEST_TMPDIR/h"
	run om_check openmetrics "$BATS_TEST_TMPDIR/o"
	assert_success
	assert_line 'family pstat_event_seconds counter seconds'
	assert_line 'family pstat_build info -'
	# one that prefers the text format gets it
	curl -sf -D "$BATS_TEST_TMPDIR/h" -o /dev/null \
		-H 'Accept: application/openmetrics-text;q=0.3, text/plain' "$url/metrics"
	grep -qi '^content-type: text/plain; version=0.0.4' "$BATS_TEST_TMPDIR/h"
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: content negotiation, rule by rule" {
	for accept in 'application/openmetrics-text' \
		'application/openmetrics-text; version=1.0.0' \
		'text/plain;q=0.5, application/openmetrics-text;version=0.0.1' \
		'APPLICATION/OpenMetrics-Text ; q=0.9, */*;q=0.1'; do
		run "$PT" accept "$accept"
		assert_output openmetrics
	done
	for accept in '' 'text/plain' '*/*' 'text/plain;version=0.0.4' \
		'application/openmetrics-text;q=0' \
		'application/openmetrics-text;q=0.4, text/*;q=0.5' \
		'application/json'; do
		run "$PT" accept "$accept"
		assert_output text
	done
}

@test "serve: / links to /metrics; other paths 404, other methods 405" {
	need_serve
	serve_bg -e task-clock
	run curl -s "$url/"
	assert_output --partial '<a href="/metrics">/metrics</a>'
	run curl -s -o /dev/null -w '%{http_code}' "$url/nope"
	assert_output 404
	run curl -s -o /dev/null -w '%{http_code}' "$url/metrics/x"
	assert_output 404
	run curl -s -D - -o /dev/null -X POST -d x=1 "$url/metrics"
	assert_line --regexp '^HTTP/1\.1 405 '
	assert_line --regexp '^Allow: GET, HEAD'
	run curl -s -o /dev/null -w '%{http_code}' -X DELETE "$url/"
	assert_output 405
	# HEAD: the headers alone
	run curl -s -I "$url/metrics"
	assert_line --regexp '^HTTP/1\.1 200 '
	# a GET keeps the connection for the next scrape
	run curl -sv -o /dev/null -o /dev/null "$url/metrics" "$url/metrics"
	assert_success
	assert_output --partial 'Re-using existing connection'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: counts grow from scrape to scrape and never go back" {
	need_serve
	serve_bg -e task-clock,context-switches -I 50
	prev_tc=0 prev_en=0
	for i in $(seq 12); do
		curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
		tc=$(metric "$BATS_TEST_TMPDIR/m" 'pstat_event_seconds_total{event="task-clock",pmu="software"}')
		en=$(metric "$BATS_TEST_TMPDIR/m" 'pstat_enabled_seconds_total{event="task-clock",pmu="software"}')
		[ -n "$tc" ] || [ "$i" -le 2 ] || { cat "$BATS_TEST_TMPDIR/m"; return 1; }
		if [ -n "$tc" ]; then
			awk -v a="$prev_tc" -v b="$tc" 'BEGIN { exit !(b + 0 >= a + 0) }'
			awk -v a="$prev_en" -v b="$en" 'BEGIN { exit !(b + 0 >= a + 0) }'
			prev_tc=$tc prev_en=$en
		fi
		sleep 0.1
	done
	# and they did grow: -a counts the whole machine's time
	awk -v b="$prev_en" 'BEGIN { exit !(b + 0 > 0) }'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: an exact tracepoint count of a process, kept after it exits" {
	need_serve
	need_tracepoint
	w=$(prog writer)
	mkfifo "$BATS_TEST_TMPDIR/go"
	# the writer waits for the go, so that pstat counts all of it
	sh -c 'read x <"$1"; exec "$2" 321' _ "$BATS_TEST_TMPDIR/go" "$w" &
	wpid=$!
	serve_bg -p "$wpid" -e syscalls:sys_enter_write -I 50
	sleep 0.2
	echo go >"$BATS_TEST_TMPDIR/go"
	wait "$wpid"
	wpid=
	for _ in $(seq 50); do
		curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
		grep -q 'sys_enter_write.* 321$' "$BATS_TEST_TMPDIR/m" && break
		sleep 0.1
	done
	run metric "$BATS_TEST_TMPDIR/m" 'pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"}'
	assert_output 321
	# still serving after the process went, and saying so
	sleep 0.3
	kill -0 "$spid"
	grep -q 'processes counted have exited' "$BATS_TEST_TMPDIR/serve.err"
	curl -sf "$url/metrics" | grep -q 'sys_enter_write.* 321$'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: -G, as for a run: series labelled with their cgroup" {
	need_serve
	need_cpu_wide
	"$PSTAT" -a -e task-clock -G / --timeout 50 >/dev/null 2>&1 ||
		skip "cgroup events cannot be counted here"
	serve_bg -e task-clock -G / -e context-switches -I 50
	for _ in $(seq 50); do
		curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
		grep -q 'cgroup="/"' "$BATS_TEST_TMPDIR/m" && break
		sleep 0.1
	done
	grep -q '^pstat_event_seconds_total{event="task-clock",pmu="software",cgroup="/"} ' "$BATS_TEST_TMPDIR/m"
	grep -q '^pstat_events_total{event="context-switches",pmu="software"} ' "$BATS_TEST_TMPDIR/m"
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: SIGTERM and SIGINT stop it with 0, --timeout too" {
	need_serve
	serve_bg -e task-clock
	stop_serve
	[ "$st" = 0 ]
	serve_bg -e task-clock
	kill -INT "$spid"
	st=0
	wait "$spid" || st=$?
	spid=
	[ "$st" = 0 ]
	timed_run "$PSTAT" serve --listen 127.0.0.1:0 -e task-clock --timeout 300
	assert_success
	[ "$ms" -lt 10000 ]
	# the port is free again at once
	serve_bg -e task-clock
	p2=$port
	stop_serve
	run "$PSTAT" serve --listen "127.0.0.1:$p2" -e task-clock --timeout 100
	assert_success
}

@test "serve: where it cannot listen, or run" {
	need_serve
	serve_bg -e task-clock
	run "$PSTAT" serve --listen "127.0.0.1:$port" -e task-clock --timeout 100
	assert_failure 125
	assert_output --partial "pstat: cannot listen on 127.0.0.1:$port: Address already in use"
	stop_serve
	run "$PSTAT" serve --listen 9456 -e task-clock
	assert_failure 125
	assert_line "pstat: invalid --listen '9456': give ADDR:PORT or :PORT"
	run "$PSTAT" serve --listen 127.0.0.1:notaport -e task-clock
	assert_failure 125
	assert_output --partial "pstat: invalid --listen '127.0.0.1:notaport'"
	run "$PSTAT" serve -e task-clock -- true
	assert_failure 125
	assert_output --partial "'pstat serve' runs no command"
	run "$PSTAT" serve -j
	assert_failure 125
	assert_output --partial "unknown option '-j' for 'pstat serve'"
	# without libmicrohttpd
	PSTAT_LIBMICROHTTPD=/nonexistent/libmicrohttpd.so.12 \
		run "$PSTAT" serve --listen 127.0.0.1:0 -e task-clock
	assert_failure 125
	assert_line --regexp '^pstat: cannot serve: /nonexistent/libmicrohttpd.so.12: '
	assert_line 'pstat: hint: install libmicrohttpd (Debian: libmicrohttpd12)'
}

@test "serve: clients that hang up mid-request or mid-response do not stop it" {
	need_serve
	serve_bg -e task-clock -A -I 50
	"$OM_PYTHON" - "$port" <<'EOF'
import socket, struct, sys
port = int(sys.argv[1])
for i in range(200):
    s = socket.create_connection(("127.0.0.1", port))
    if i % 3 == 0:
        s.sendall(b"GET /metr")              # half a request
    elif i % 3 == 1:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        s.recv(10)                           # a little of the answer
    else:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    # a reset rather than a close
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
EOF
	run curl -sf "$url/metrics"
	assert_success
	assert_line --partial 'pstat_build_info{version="'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: 1000 scrapes from 50 clients, every answer whole, RSS flat" {
	need_serve
	need_om_parser
	serve_bg -e task-clock,context-switches,page-faults -A -I 20
	sleep 0.2
	rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$spid/status"; }
	run timeout 300 "$OM_PYTHON" - "$port" "$spid" <<'EOF'
import sys, threading, urllib.request
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
from prometheus_client.parser import text_string_to_metric_families as text

port, pid = int(sys.argv[1]), sys.argv[2]
url = "http://127.0.0.1:%d/metrics" % port
errors, done, lock = [], [0], threading.Lock()

def rss():
    for line in open("/proc/%s/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

def client(n, k):
    for i in range(n):
        want_om = (i + k) % 2 == 0
        req = urllib.request.Request(url, headers={"Accept":
            "application/openmetrics-text; version=1.0.0" if want_om
            else "text/plain; version=0.0.4"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                body = r.read()
                if r.status != 200 or len(body) != int(r.headers["Content-Length"]):
                    raise ValueError("status %d, %d of %s bytes" % (
                        r.status, len(body), r.headers["Content-Length"]))
                t = body.decode("utf-8")
                if want_om:
                    if not t.endswith("# EOF\n"):
                        raise ValueError("no # EOF")
                    list(om(t))
                else:
                    list(text(t))
        except Exception as e:
            with lock:
                errors.append(repr(e))
        with lock:
            done[0] += 1

def run(total):
    ts = [threading.Thread(target=client, args=(total // 50, k)) for k in range(50)]
    for t in ts: t.start()
    for t in ts: t.join()

run(200)                       # warm up: buffers, threads
before = rss()
run(1000)
after = rss()
print("scrapes %d errors %d rss_before %d rss_after %d" % (done[0], len(errors), before, after))
for e in errors[:5]:
    print("error", e)
EOF
	echo "$output"
	assert_success
	assert_line --regexp '^scrapes 1200 errors 0 '
	before=$(sed -n 's/.* rss_before \([0-9]*\) .*/\1/p' <<<"$output")
	after=$(sed -n 's/.* rss_after \([0-9]*\)$/\1/p' <<<"$output")
	# flat: 1000 scrapes leave at most 25% or 2 MiB more, whichever is
	# more (not under AddressSanitizer, whose quarantine keeps what is
	# freed: there LeakSanitizer checks the memory instead)
	if ! ldd "$ROOT/pstat" | grep -q 'libasan'; then
		awk -v b="$before" -v a="$after" \
			'BEGIN { slack = b / 4 > 2048 ? b / 4 : 2048; exit !(a <= b + slack) }'
	fi
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: scraped by a real Prometheus" {
	need_serve
	need_tracepoint
	need_prometheus
	w=$(prog writer)
	mkfifo "$BATS_TEST_TMPDIR/go"
	sh -c 'read x <"$1"; exec "$2" 4321' _ "$BATS_TEST_TMPDIR/go" "$w" &
	wpid=$!
	# the writer's writes, exactly
	serve_bg -p "$wpid" -e syscalls:sys_enter_write -I 100
	echo go >"$BATS_TEST_TMPDIR/go"
	wait "$wpid"
	wpid=
	spid1=$spid port1=$port
	# the machine's task-clock, for rate()
	serve_bg -a -e task-clock -I 100
	spid2=$spid port2=$port
	cat >"$BATS_TEST_TMPDIR/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pstat
    static_configs:
      - targets: ['127.0.0.1:$port1', '127.0.0.1:$port2']
EOF
	prom_start "$BATS_TEST_TMPDIR/prometheus.yml"
	# wait (60 s at most) for two scrapes, so that rate() has two points
	val= rate=
	for _ in $(seq 120); do
		val=$(promq 'pstat_events_total{event="syscalls:sys_enter_write"}' |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null) || true
		rate=$(promq 'rate(pstat_event_seconds_total{event="task-clock"}[10s])' |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null) || true
		[ -n "$val" ] && [ -n "$rate" ] && break
		sleep 0.5
	done
	[ -n "$val" ] || { tail -n 20 "$BATS_TEST_TMPDIR/prometheus.log"; false; }
	[ "$val" = 4321 ]
	awk -v r="$rate" 'BEGIN { exit !(r + 0 > 0) }'
	# the target is up, scraped as OpenMetrics (its metadata has the unit)
	run curl -sf "$purl/api/v1/targets"
	assert_output --partial '"health":"up"'
	refute_output --partial '"health":"down"'
	run curl -sf "$purl/api/v1/metadata?metric=pstat_event_seconds"
	assert_output --partial '"unit":"seconds"'
	prom_stop
	stop_serve
	[ "$st" = 0 ]
	spid=$spid1
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: -M and --metric, each metric a gauge of the last interval" {
	need_serve
	need_om_parser
	serve_bg -e task-clock -I 100 -M cpus_utilized \
		--metric 'tc_pct = task-clock / task-clock; scale = 100; unit = %' \
		--metric 'never = task-clock / (task-clock - task-clock)'
	for _ in $(seq 50); do
		curl -sf -o "$BATS_TEST_TMPDIR/t" "$url/metrics"
		grep -q '^pstat_metric_ratio{metric="tc_pct"' "$BATS_TEST_TMPDIR/t" && break
		sleep 0.1
	done
	run om_check text "$BATS_TEST_TMPDIR/t"
	assert_success
	assert_line 'family pstat_metric_ratio gauge -'
	assert_line 'sample pstat_metric_ratio{metric="tc_pct"} 1.0'
	assert_line --regexp '^sample pstat_metric_cpus\{metric="cpus_utilized"\} [0-9.e+-]+$'
	refute_line --partial 'metric="never"'
	curl -sf -H 'Accept: application/openmetrics-text' \
		-o "$BATS_TEST_TMPDIR/o" "$url/metrics"
	run om_check openmetrics "$BATS_TEST_TMPDIR/o"
	assert_success
	assert_line 'family pstat_metric_ratio gauge ratio'
	assert_line 'sample pstat_metric_ratio{metric="tc_pct"} 1.0'
	refute_line --partial 'metric="never"'
	stop_serve
	[ "$st" = 0 ]
	# a metric error is an error before serving
	run "$PSTAT" serve --listen 127.0.0.1:0 --metric 'x = task-clock +* 2'
	assert_failure 125
	assert_line --index 0 --partial "pstat: invalid --metric 'x = task-clock +* 2'"
}
