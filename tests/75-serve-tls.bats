#!/usr/bin/env bats
# pstat serve as a fleet deploys it: gzip when asked (read back by curl
# --compressed, the Python parsers and a real Prometheus), TLS and basic authentication
# from an exporter-toolkit web configuration file (checked with curl
# against a certificate made here, and scraped by a real Prometheus over
# TLS with a password). Servers on 127.0.0.1 only.

load test_helper
load serve_helper

teardown() {
	serve_teardown
}

# bcrypt ($2y$, cost 5) of "s3cret", and ($2b$) of "other pass"
HASH_ALICE='$2y$05$abcdefghijklmnopqrstuuLK7U1u6pVRmL7L1BBM2aS35PSZnDXlK'
HASH_BOB='$2b$05$abcdefghijklmnopqrstuuWz73V6mfERgbIWzmDMnfYC3t6ySa4oq'

# make_tls: a key and a self-signed certificate for 127.0.0.1 in
# $BATS_TEST_TMPDIR (cert.pem, key.pem), and web.yml naming them with
# two users.
make_tls() {
	command -v openssl >/dev/null || skip "openssl is not installed"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$BATS_TEST_TMPDIR/key.pem" -out "$BATS_TEST_TMPDIR/cert.pem" \
		-days 2 -subj /CN=localhost \
		-addext subjectAltName=IP:127.0.0.1,DNS:localhost 2>/dev/null
	cat >"$BATS_TEST_TMPDIR/web.yml" <<EOF
# relative paths: the configuration's directory
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  alice: $HASH_ALICE
  bob: '$HASH_BOB'
EOF
}

@test "serve: gzip when asked, the same exposition; identity otherwise" {
	need_serve
	need_om_parser
	# one rendering for the whole test, every body the same: the last
	# of a process that has exited
	sleep 0.5 &
	serve_bg -p $! -e task-clock,context-switches -I 100
	for _ in $(seq 50); do
		grep -q 'processes counted have exited' "$BATS_TEST_TMPDIR/serve.err" && break
		sleep 0.1
	done
	curl -sf -o "$BATS_TEST_TMPDIR/plain" -D "$BATS_TEST_TMPDIR/h0" "$url/metrics"
	refute grep -qi '^content-encoding' "$BATS_TEST_TMPDIR/h0"
	grep -qi '^vary: Accept, Accept-Encoding' "$BATS_TEST_TMPDIR/h0"
	curl -sf --compressed -o "$BATS_TEST_TMPDIR/dec" -D "$BATS_TEST_TMPDIR/h1" "$url/metrics"
	grep -qi '^content-encoding: gzip' "$BATS_TEST_TMPDIR/h1"
	cmp "$BATS_TEST_TMPDIR/plain" "$BATS_TEST_TMPDIR/dec"
	run om_check text "$BATS_TEST_TMPDIR/dec"
	assert_success
	# raw: a gzip member, smaller, that gunzip reads back
	curl -sf -H 'Accept-Encoding: gzip' -o "$BATS_TEST_TMPDIR/raw.gz" "$url/metrics"
	gunzip -t "$BATS_TEST_TMPDIR/raw.gz"
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/raw.gz")" -lt "$(stat -c %s "$BATS_TEST_TMPDIR/plain")" ]
	# OpenMetrics too, gzip'd
	curl -sf --compressed -H 'Accept: application/openmetrics-text' \
		-D "$BATS_TEST_TMPDIR/h2" -o "$BATS_TEST_TMPDIR/om" "$url/metrics"
	grep -qi '^content-encoding: gzip' "$BATS_TEST_TMPDIR/h2"
	run om_check openmetrics "$BATS_TEST_TMPDIR/om"
	assert_success
	# refused with q=0: identity
	curl -sf -H 'Accept-Encoding: gzip;q=0' -D "$BATS_TEST_TMPDIR/h3" \
		-o /dev/null "$url/metrics"
	refute grep -qi '^content-encoding' "$BATS_TEST_TMPDIR/h3"
	# HEAD: the gzip'd answer's headers
	run curl -sfI -H 'Accept-Encoding: gzip' "$url/metrics"
	assert_line --regexp '^Content-Encoding: gzip'
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: TLS and basic authentication from --web.config.file" {
	need_serve
	make_tls
	SERVE_CURL=(--cacert "$BATS_TEST_TMPDIR/cert.pem" -u alice:s3cret)
	serve_bg --web.config.file "$BATS_TEST_TMPDIR/web.yml" -e task-clock -I 100
	[[ $url == https://127.0.0.1:* ]]
	grep -q '^pstat: serving https://127.0.0.1:' "$BATS_TEST_TMPDIR/serve.err"
	refute grep -q warning "$BATS_TEST_TMPDIR/serve.err"
	c=(curl -s -m 10 --cacert "$BATS_TEST_TMPDIR/cert.pem" -o /dev/null -w '%{http_code}')
	# the right password: 200, verified against the certificate
	run "${c[@]}" -u alice:s3cret "$url/metrics"
	assert_output 200
	run "${c[@]}" -u 'bob:other pass' "$url/metrics"
	assert_output 200
	# and the body is the exposition
	run curl -sf --cacert "$BATS_TEST_TMPDIR/cert.pem" -u alice:s3cret "$url/metrics"
	assert_line --partial 'pstat_build_info{'
	# a wrong password, an unknown user, none: 401 with a challenge
	run "${c[@]}" -u alice:wrong "$url/metrics"
	assert_output 401
	run "${c[@]}" -u mallory:s3cret "$url/metrics"
	assert_output 401
	run "${c[@]}" -u alice: "$url/metrics"
	assert_output 401
	run curl -s -m 10 --cacert "$BATS_TEST_TMPDIR/cert.pem" -D - -o /dev/null "$url/"
	assert_line --regexp '^HTTP/1\.1 401 '
	assert_line --regexp '^WWW-Authenticate: Basic realm="pstat"'
	# the password still works after the wrong ones (remembered or not)
	run "${c[@]}" -u alice:s3cret "$url/metrics"
	assert_output 200
	# plain HTTP is not answered: TLS or nothing
	run curl -s -m 10 -u alice:s3cret -o /dev/null "http://127.0.0.1:$port/metrics"
	assert_failure
	# nor a client that does not trust the certificate
	run curl -s -m 10 -u alice:s3cret -o /dev/null "$url/metrics"
	assert_failure 60
	stop_serve
	[ "$st" = 0 ]
	# TLS alone: no password asked
	grep -v -e basic_auth -e alice -e bob "$BATS_TEST_TMPDIR/web.yml" >"$BATS_TEST_TMPDIR/tls.yml"
	SERVE_CURL=(--cacert "$BATS_TEST_TMPDIR/cert.pem")
	serve_bg --web.config.file "$BATS_TEST_TMPDIR/tls.yml" -e task-clock
	run "${c[@]}" "$url/metrics"
	assert_output 200
	stop_serve
	# passwords alone: over plain HTTP, with a warning
	printf 'basic_auth_users:\n  alice: %s\n' "$HASH_ALICE" >"$BATS_TEST_TMPDIR/auth.yml"
	SERVE_CURL=(-u alice:s3cret)
	serve_bg --web.config.file "$BATS_TEST_TMPDIR/auth.yml" -e task-clock
	grep -q '^pstat: warning: basic authentication without TLS' "$BATS_TEST_TMPDIR/serve.err"
	run curl -s -o /dev/null -w '%{http_code}' "$url/metrics"
	assert_output 401
	run curl -s -o /dev/null -w '%{http_code}' -u alice:s3cret "$url/metrics"
	assert_output 200
	stop_serve
	# and, with passwords, every address brings no warning of its own
	run "$PSTAT" serve --listen :0 --web.config.file "$BATS_TEST_TMPDIR/web.yml" \
		-e task-clock --timeout 200
	assert_success
	refute_output --partial 'every address'
}

@test "serve: a web configuration pstat cannot honour is refused, by name" {
	need_serve
	make_tls
	cd "$BATS_TEST_TMPDIR"
	bad() {
		printf '%b' "$1" >bad.yml
		run "$PSTAT" serve --listen 127.0.0.1:0 --web.config.file bad.yml \
			-e task-clock --timeout 100
		assert_failure 125
		assert_line --index 0 "pstat: invalid --web.config.file 'bad.yml': $2"
	}
	bad 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_auth_type: RequireAndVerifyClientCert\n' \
		"tls_server_config: 'client_auth_type' is not supported by pstat serve (only cert_file and key_file)"
	bad 'http_server_config:\n  http2: false\n' \
		"'http_server_config' is not supported by pstat serve (only tls_server_config and basic_auth_users)"
	bad 'tls_server_config:\n  cert_file: cert.pem\n' \
		'tls_server_config needs both cert_file and key_file'
	bad 'tls_server_config:\n  cert_file: nope.pem\n  key_file: key.pem\n' \
		"cert_file 'nope.pem': No such file or directory"
	bad 'basic_auth_users:\n  alice: s3cret\n' \
		"basic_auth_users: the password of 'alice' is not a bcrypt hash (\$2y\$...)"
	bad 'basic_auth_users: [alice]\n' 'basic_auth_users is not a mapping'
	bad 'tls_server_config: {cert_file: [a], key_file: b}\n' \
		'tls_server_config: cert_file is not a string'
	# given twice (the second list of users once overran the first's)
	bad "basic_auth_users:\n  alice: $HASH_ALICE\nbasic_auth_users:\n  bob: $HASH_BOB\n" \
		"'basic_auth_users' given twice"
	bad "basic_auth_users:\n  alice: $HASH_ALICE\n  alice: $HASH_BOB\n" \
		"basic_auth_users: 'alice' given twice"
	bad 'tls_server_config:\n  cert_file: cert.pem\n  cert_file: key.pem\n' \
		"tls_server_config: 'cert_file' given twice"
	bad '- a\n- b\n' 'not a mapping of settings'
	bad 'a: [\n' 'not YAML: did not find expected node content at line 2'
	run "$PSTAT" serve --web.config.file nonexistent.yml -e task-clock
	assert_failure 125
	assert_line "pstat: invalid --web.config.file 'nonexistent.yml': No such file or directory"
	# a key that is not the certificate's: libmicrohttpd refuses it
	openssl genpkey -algorithm ec -pkeyopt ec_paramgen_curve:P-256 \
		-out other.pem 2>/dev/null
	printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: other.pem\n' >bad.yml
	run "$PSTAT" serve --listen 127.0.0.1:0 --web.config.file bad.yml \
		-e task-clock --timeout 100
	assert_failure 125
	assert_line --partial 'pstat: cannot serve: libmicrohttpd could not start'
	# an empty file: neither TLS nor passwords, as for the exporters
	: >empty.yml
	run "$PSTAT" serve --listen 127.0.0.1:0 --web.config.file empty.yml \
		-e task-clock --timeout 100
	assert_success
	assert_line --regexp '^pstat: serving http://'
}

@test "serve: scraped by a real Prometheus over TLS with a password, gzip'd" {
	need_serve
	need_prometheus
	make_tls
	SERVE_CURL=(--cacert "$BATS_TEST_TMPDIR/cert.pem" -u alice:s3cret)
	serve_bg --web.config.file "$BATS_TEST_TMPDIR/web.yml" -e task-clock -I 100
	printf 's3cret' >"$BATS_TEST_TMPDIR/password"
	# Prometheus asks for gzip (Accept-Encoding: gzip) on every scrape
	cat >"$BATS_TEST_TMPDIR/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pstat
    scheme: https
    tls_config:
      ca_file: $BATS_TEST_TMPDIR/cert.pem
    basic_auth:
      username: alice
      password_file: $BATS_TEST_TMPDIR/password
    static_configs:
      - targets: ['127.0.0.1:$port']
  - job_name: wrong-password
    scheme: https
    tls_config:
      ca_file: $BATS_TEST_TMPDIR/cert.pem
    basic_auth:
      username: alice
      password: wrong
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
	prom_start "$BATS_TEST_TMPDIR/prometheus.yml"
	val= wrong=
	for _ in $(seq 120); do
		val=$(promq 'pstat_event_seconds_total{job="pstat",event="task-clock"}' |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null) || true
		wrong=$(promq 'up{job="wrong-password"}' |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null) || true
		[ -n "$val" ] && [ -n "$wrong" ] && break
		sleep 0.5
	done
	[ -n "$val" ] || { tail -n 20 "$BATS_TEST_TMPDIR/prometheus.log"; false; }
	awk -v v="$val" 'BEGIN { exit !(v + 0 > 0) }'
	run promq 'up{job="pstat"}'
	assert_output --partial '"value":['
	[ "$(promq 'up{job="pstat"}' | jq -r '.data.result[0].value[1]')" = 1 ]
	[ "$wrong" = 0 ]
	run curl -sf "$purl/api/v1/targets"
	assert_output --partial '401 Unauthorized'
	prom_stop
	stop_serve
	[ "$st" = 0 ]
}

@test "serve: a real Prometheus asks for gzip and reads it" {
	need_serve
	need_prometheus
	serve_bg -e task-clock,context-switches -I 100
	# a recording proxy between them (bounded: 600 requests at most):
	# what Prometheus asks for, and what it gets
	cat >"$BATS_TEST_TMPDIR/proxy.py" <<'EOF'
import http.server, sys, urllib.request
up, log = int(sys.argv[1]), sys.argv[2]
class P(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        h = {k: v for k, v in self.headers.items() if k.lower() != "host"}
        req = urllib.request.Request("http://127.0.0.1:%d%s" % (up, self.path),
                                     headers=h)
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
            self.send_response(r.status)
            for k, v in r.headers.items():
                if k.lower() not in ("content-length", "connection", "date"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            with open(log, "a") as f:
                f.write("asked %s got %s\n" % (self.headers.get("Accept-Encoding"),
                                              r.headers.get("Content-Encoding")))
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), P)
open(log + ".port", "w").write(str(s.server_address[1]))
s.timeout = 1
for _ in range(600):
    s.handle_request()
EOF
	"$OM_PYTHON" "$BATS_TEST_TMPDIR/proxy.py" "$port" "$BATS_TEST_TMPDIR/proxy" &
	wpid=$!
	for _ in $(seq 50); do
		[ -s "$BATS_TEST_TMPDIR/proxy.port" ] && break
		sleep 0.1
	done
	xport=$(cat "$BATS_TEST_TMPDIR/proxy.port")
	cat >"$BATS_TEST_TMPDIR/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pstat
    static_configs:
      - targets: ['127.0.0.1:$xport']
EOF
	prom_start "$BATS_TEST_TMPDIR/prometheus.yml"
	val=
	for _ in $(seq 120); do
		val=$(promq 'pstat_event_seconds_total{event="task-clock"}' |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null) || true
		[ -n "$val" ] && break
		sleep 0.5
	done
	[ -n "$val" ] || { tail -n 20 "$BATS_TEST_TMPDIR/prometheus.log"; false; }
	awk -v v="$val" 'BEGIN { exit !(v + 0 > 0) }'
	# every scrape asked for gzip and got it
	run cat "$BATS_TEST_TMPDIR/proxy"
	assert_line 'asked gzip got gzip'
	refute_line --regexp 'got None$'
	kill "$wpid"
	wait "$wpid" 2>/dev/null || true
	wpid=
	prom_stop
	stop_serve
	[ "$st" = 0 ]
}
