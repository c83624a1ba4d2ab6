#!/usr/bin/env bats
# pstat serve against hostile clients: its stated limits (connections in
# total and per client address, the time a request may take to arrive,
# the descriptors it keeps free), each at the limit and one past it;
# HTTP that used to get no answer; --listen's ports; memory under clients
# that never read. Clients come from 127.0.0.0/8 addresses only (every
# one of them is this machine's loopback), with bounded loops.

load test_helper
load serve_helper

teardown() {
	serve_teardown
}

# The python3 side of these tests: connections from several loopback
# addresses. conn(addr_index) connects from 127.0.0.<addr_index>.
PYLIB='
import socket, sys, time
port = int(sys.argv[1])
def conn(a=1):
    s = socket.socket()
    s.bind(("127.0.0.%d" % a, 0))
    s.connect(("127.0.0.1", port))
    return s
def answer(s, t=5):
    """The status line of what s is answered, or "closed"."""
    s.settimeout(t)
    data = b""
    try:
        while b"\r\n" not in data:
            d = s.recv(4096)
            if not d:
                break
            data += d
    except (ConnectionResetError, socket.timeout) as e:
        if isinstance(e, socket.timeout):
            return "timeout"
    return data.split(b"\r\n")[0].decode() if data else "closed"
GET = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
'

# big_serve MS: serve --per-thread -I MS of a process of 1500 threads
# ($wpid), 4 events: an exposition of about 1.6 MB.
big_serve() {
	local t
	t=$(prog threads)
	"$t" 1500 1 600000 >"$BATS_TEST_TMPDIR/ready" &
	wpid=$!
	for _ in $(seq 100); do
		grep -q ready "$BATS_TEST_TMPDIR/ready" && break
		sleep 0.1
	done
	serve_bg -p "$wpid" --per-thread -I "$1" \
		-e task-clock,context-switches,page-faults,cpu-migrations
}

@test "serve: --listen takes ports 0 to 65535 only, and :PORT for every address" {
	need_serve
	for p in 65536 65537 99999 -1 +80 0x50 ' 80' 1e3; do
		run "$PSTAT" serve --listen "127.0.0.1:$p" -e task-clock --timeout 100
		assert_failure 125
		assert_line "pstat: invalid --listen '127.0.0.1:$p': the port is a number from 0 to 65535"
	done
	run "$PSTAT" serve --listen 127.0.0.1: -e task-clock
	assert_failure 125
	assert_line "pstat: invalid --listen '127.0.0.1:': give ADDR:PORT or :PORT"
	# the loopback default and an address of it: no warning
	run "$PSTAT" serve --listen 127.0.0.1:0 -e task-clock --timeout 200
	assert_success
	refute_output --partial warning
	# every address: said, with a warning, and answered on loopback
	"$PSTAT" serve --listen :0 -e task-clock -I 100 2>"$BATS_TEST_TMPDIR/e" &
	spid=$!
	for _ in $(seq 50); do
		grep -q '^pstat: serving' "$BATS_TEST_TMPDIR/e" && break
		sleep 0.1
	done
	run cat "$BATS_TEST_TMPDIR/e"
	assert_line --index 0 "pstat: warning: listening on every address (:0): whoever can reach this machine can read its counters"
	assert_line --index 1 --regexp '^pstat: serving http://(\[::\]|0\.0\.0\.0):[0-9]+/metrics$'
	port=$(sed -n 's|^pstat: serving http://.*:\([0-9]*\)/metrics$|\1|p' "$BATS_TEST_TMPDIR/e")
	for _ in $(seq 50); do
		curl -sf -o /dev/null "http://127.0.0.1:$port/metrics" && break
		sleep 0.1
	done
	curl -sf "http://127.0.0.1:$port/metrics" | grep -q '^pstat_build_info'
	if grep -q '\[::\]' "$BATS_TEST_TMPDIR/e"; then
		curl -sf "http://[::1]:$port/metrics" | grep -q '^pstat_build_info'
	fi
	stop_serve
	[ "$st" = 0 ]
	run "$PSTAT" serve --listen 0.0.0.0:0 -e task-clock --timeout 200
	assert_success
	assert_line --regexp '^pstat: warning: listening on every address \(0\.0\.0\.0:0\)'
}

@test "serve: GET with a body, chunked or Expect: 100-continue is answered; /metrics%00.html is not /metrics" {
	need_serve
	serve_bg -e task-clock
	run curl -s -m 5 -o /dev/null -w '%{http_code}' -X GET -d 'x=1' "$url/metrics"
	assert_output 200
	run curl -s -m 5 -o /dev/null -w '%{http_code}' -X GET \
		-H 'Transfer-Encoding: chunked' -d 'x=1' "$url/metrics"
	assert_output 200
	run curl -s -m 5 -o /dev/null -w '%{http_code}' -X GET \
		-H 'Expect: 100-continue' -d "$(head -c 2000 /dev/zero | tr '\0' x)" "$url/metrics"
	assert_output 200
	# the connection stays usable after a body: two requests, one connection
	run curl -sv -m 5 -o /dev/null -o /dev/null -X GET -d 'x=1' "$url/metrics" "$url/metrics"
	assert_success
	assert_output --partial 'Re-using existing connection'
	run curl -s -m 5 -o /dev/null -w '%{http_code}' "$url/metrics%00.html"
	assert_output 404
	run curl -s -m 5 -o /dev/null -w '%{http_code}' "$url/metrics%00"
	assert_output 404
	# other escapes are decoded, as RFC 3986 has it
	run curl -s -m 5 -o /dev/null -w '%{http_code}' "$url/%6detrics"
	assert_output 200
	stop_serve
	[ "$st" = 0 ]
	run "$PT" unescape '/metrics%00.html'
	assert_output '/metrics%00.html'
	run "$PT" unescape '/a%2Fb%41%4'
	assert_output '/a/bA%4'
}

@test "serve: content coding, rule by rule" {
	for h in gzip 'x-gzip' 'GZip' 'deflate, gzip;q=0.5' '*' 'br, *;q=0.1'; do
		run "$PT" accept-encoding "$h"
		assert_output gzip
	done
	for h in '' identity 'gzip;q=0' '*;q=0' 'gzip;q=0, *' deflate; do
		run "$PT" accept-encoding "$h"
		assert_output identity
	done
}

@test "serve: 64 connections from one address are answered, the 65th is closed" {
	need_serve
	serve_bg -e task-clock
	run timeout 60 "$OM_PYTHON" -c "$PYLIB"'
held = [conn(1) for _ in range(63)]
last = conn(1)                       # the 64th: at the limit
last.sendall(GET)
print("64th", answer(last))
extra = conn(1)                      # the 65th: past it
extra.sendall(GET)
print("65th", answer(extra, 3))
other = conn(2)                      # another address is not held up
other.sendall(GET)
print("other", answer(other))
' "$port"
	echo "$output"
	assert_success
	assert_line '64th HTTP/1.1 200 OK'
	assert_line '65th closed'
	assert_line 'other HTTP/1.1 200 OK'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: 512 connections in all are answered, the 513th is closed" {
	need_serve
	serve_bg -e task-clock
	run timeout 60 "$OM_PYTHON" -c "$PYLIB"'
held = [conn(2 + i // 60) for i in range(511)]  # 60 an address
last = conn(20)                                 # the 512th: at the limit
last.sendall(GET)
print("512th", answer(last))
extra = conn(21)                                # the 513th: past it
extra.sendall(GET)
print("513th", answer(extra, 3))
for s in held:
    s.close()
time.sleep(0.3)
again = conn(21)
again.sendall(GET)
print("after", answer(again))
' "$port"
	echo "$output"
	assert_success
	assert_line '512th HTTP/1.1 200 OK'
	assert_line '513th closed'
	assert_line 'after HTTP/1.1 200 OK'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: a request has 10 s to arrive in full, however slowly it trickles" {
	need_serve
	serve_bg -e task-clock
	# one line a second: 8 lines arrive in time, 14 do not
	run timeout 60 "$OM_PYTHON" -c "$PYLIB"'
import select, threading
res = {}
def trickle(name, lines):
    s = conn(1)
    t0 = time.monotonic()
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    for i in range(lines):
        # a second between lines, watching for the server to close
        if select.select([s], [], [], 1)[0]:
            res[name] = (answer(s, 1), time.monotonic() - t0)
            return
        try:
            s.sendall(b"X-Slow-%d: y\r\n" % i)
        except OSError:
            res[name] = ("closed", time.monotonic() - t0)
            return
    s.sendall(b"\r\n")
    res[name] = (answer(s), time.monotonic() - t0)
ts = [threading.Thread(target=trickle, args=a) for a in (("in-time", 8), ("late", 14))]
for t in ts: t.start()
# meanwhile, scrapes from the same address are answered
time.sleep(2)
s = conn(1)
s.sendall(GET)
print("scrape", answer(s))
for t in ts: t.join()
for k in sorted(res):
    print(k, res[k][0], "%.1f" % res[k][1])
' "$port"
	echo "$output"
	assert_success
	assert_line 'scrape HTTP/1.1 200 OK'
	assert_line --regexp '^in-time HTTP/1\.1 200 OK '
	assert_line --regexp '^late closed (9\.[5-9]|1[01]\.[0-9])$'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: near the descriptor limit, a connection is closed at once, not left to stall" {
	need_serve
	# 128 descriptors: 96 connections at most (32 kept for the counters)
	(ulimit -n 128 && exec "$PSTAT" serve --listen 127.0.0.1:0 -e task-clock \
		-I 100 2>"$BATS_TEST_TMPDIR/serve.err") &
	spid=$!
	for _ in $(seq 50); do
		port=$(sed -n 's|^pstat: serving http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' \
			"$BATS_TEST_TMPDIR/serve.err")
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ]
	for _ in $(seq 50); do
		curl -sf -o /dev/null "http://127.0.0.1:$port/metrics" && break
		sleep 0.1
	done
	run timeout 60 "$OM_PYTHON" -c "$PYLIB"'
held = []
for i in range(150):
    held.append(conn(2 + i // 50))
time.sleep(0.5)
# every descriptor serve may spend is spent: a new client is closed at
# once, rather than left waiting 10 s for one to free
t0 = time.monotonic()
s = conn(9)
s.sendall(GET)
print("full", answer(s, 8), "%.1f" % (time.monotonic() - t0))
for h in held:
    h.close()
time.sleep(0.5)
t0 = time.monotonic()
s = conn(9)
s.sendall(GET)
print("after", answer(s, 8), "%.1f" % (time.monotonic() - t0))
' "$port"
	echo "$output"
	assert_success
	assert_line --regexp '^full closed (0|1)\.[0-9]$'
	assert_line --regexp '^after HTTP/1\.1 200 OK (0|1)\.[0-9]$'
	kill -0 "$spid"
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: 500 clients that never read share one rendering: RSS bounded, and down after they leave" {
	need_serve
	need_om_parser
	[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 4096 ] ||
		skip "the hard descriptor limit ($(ulimit -Hn)) is below 4096"
	big_serve 1000
	size=$(curl -sf "$url/metrics" | wc -c)
	[ "$size" -gt 1000000 ]
	run timeout 120 "$OM_PYTHON" -c "$PYLIB"'
import os
pid = sys.argv[2]
def rss():
    for line in open("/proc/%s/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
before = rss()
held = []
for i in range(500):
    # a small window, so that the kernel does not take the answers
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("127.0.0.%d" % (2 + i // 60), 0))
    s.connect(("127.0.0.1", port))
    s.sendall(GET * 3)                     # three, pipelined; never read
    held.append(s)
time.sleep(3)
during = rss()
for s in held:
    s.close()
time.sleep(2)
print("rss_mb before %d during %d after %d" % (before, during, rss()))
' "$port" "$spid"
	echo "$output"
	assert_success
	read -r before during after < <(sed -n 's/^rss_mb before \([0-9]*\) during \([0-9]*\) after \([0-9]*\)$/\1 \2 \3/p' <<<"$output")
	[ -n "$after" ]
	# copied per response, 500 stuck responses of $size bytes were
	# 775 MB more; shared, 500 connections cost their buffers (not under
	# AddressSanitizer, whose quarantine keeps what is freed)
	if ! ldd "$ROOT/pstat" | grep -q 'libasan'; then
		[ "$during" -le $((before + 100)) ] ||
			fail "RSS $before MB, then $during MB under 500 clients"
		[ "$after" -le $((before + 100)) ]
	fi
	# and it still answers, whole
	curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
	run om_check text "$BATS_TEST_TMPDIR/m"
	assert_success
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: clients that never read hold 4 old renderings at most: the others' connections are closed" {
	need_serve
	command -v ss >/dev/null || skip "ss is not installed (Debian: iproute2)"
	# a rendering every 100 ms, and a non-reading client with three
	# requests every 10 ms for 3 s: 30 renderings pinned, unless the old
	# ones are let go
	big_serve 100
	run timeout 60 "$OM_PYTHON" -c "$PYLIB"'
import subprocess
held = []
for i in range(300):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("127.0.0.%d" % (2 + i // 60), 0))
    s.connect(("127.0.0.1", port))
    s.sendall(GET * 3)
    held.append(s)
    time.sleep(0.01)
time.sleep(1)
out = subprocess.run(["ss", "-tnH", "state", "established", "sport", "= :%d" % port],
                     capture_output=True, text=True).stdout
print("open", out.count("\n"))
' "$port"
	echo "$output"
	assert_success
	open=$(sed -n 's/^open //p' <<<"$output")
	# 30 intervals' clients came; those of the last 5 renderings or so
	# (about 50) may still be there
	[ "$open" -le 120 ] || fail "$open of 300 connections still open"
	curl -sf -o /dev/null "$url/metrics"
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: set-user-ID, it does not bind a privileged port for a user who could not" {
	need_perf_events
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed"
	local dir
	dir=$(mktemp -d /tmp/pstat-74.XXXXXX)
	chmod 755 "$dir"
	cp "$ROOT/pstat" "$dir/pstat"
	chmod 4755 "$dir/pstat"
	start=$(cat /proc/sys/net/ipv4/ip_unprivileged_port_start 2>/dev/null || echo 1024)
	[ "$start" -gt 81 ] || { rm -rf "$dir"; skip "ip_unprivileged_port_start is $start: port 81 is anyone's"; }
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$dir/pstat" serve --listen 127.0.0.1:81 -e task-clock --timeout 100
	assert_failure 125
	assert_line "pstat: cannot listen on 127.0.0.1:81: port 81 is privileged, and the user who ran pstat may not bind it"
	# an unprivileged port is theirs to take
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$dir/pstat" serve --listen 127.0.0.1:0 -e task-clock --timeout 100
	assert_success
	# root, who could, may
	run "$dir/pstat" serve --listen 127.0.0.1:81 -e task-clock --timeout 100
	rm -rf "$dir"
	[ "$status" = 0 ] || [[ $output == *"Address already in use"* ]] || fail "$output"
}
