#!/usr/bin/env bats
# What a fleet runs around `pstat serve`: counters that did not count are
# series that say so, --per-thread series a query can add up by command;
# the systemd unit (systemd-analyze, and its sandbox as a user with
# CAP_PERFMON), the Prometheus rules (promtool) and the Grafana dashboard
# (each panel's query against a real Prometheus that scraped pstat) of
# contrib/. Every server listens on 127.0.0.1.

load test_helper
load serve_helper

teardown() {
	[ -z "${spid:-}" ] || kill -KILL "$spid" 2>/dev/null || true
	[ -z "${prom:-}" ] || kill -KILL "$prom" 2>/dev/null || true
	[ -z "${wpid:-}" ] || kill -KILL "$wpid" 2>/dev/null || true
	[ -z "${spid1:-}" ] || kill -KILL "$spid1" 2>/dev/null || true
	[ -z "${CG:-}" ] || [ -z "${g:-}" ] || rmdir "$CG/$g" 2>/dev/null || true
}

# threads_bg N WRITES DELAY_MS: tests/progs/threads in the background,
# its pid in $wpid, once its threads exist.
threads_bg() {
	"$(prog threads)" "$@" >"$BATS_TEST_TMPDIR/ready" &
	wpid=$!
	for _ in $(seq 50); do
		grep -q ready "$BATS_TEST_TMPDIR/ready" && return 0
		sleep 0.1
	done
	return 1
}

@test "fleet: an event the machine lacks is pstat_counted 0, not a missing series" {
	need_serve
	need_om_parser
	"$PSTAT" --openmetrics -e cycles true 2>/dev/null |
		grep -q '^pstat_events_total{event="cycles"' &&
		skip "this machine counts cycles"
	serve_bg -e task-clock,cycles,instructions -I 100
	curl -sf -H 'Accept: application/openmetrics-text' \
		-o "$BATS_TEST_TMPDIR/o" "$url/metrics"
	run om_check openmetrics "$BATS_TEST_TMPDIR/o"
	assert_success
	assert_line 'family pstat_counted gauge -'
	assert_line 'sample pstat_counted{event="cycles",pmu="cpu"} 0.0'
	assert_line 'sample pstat_counted{event="instructions",pmu="cpu"} 0.0'
	assert_line 'sample pstat_counted{event="task-clock",pmu="software"} 1.0'
	# no count that would pass for a real 0
	refute_line --regexp '^sample pstat_(events|enabled_seconds|running_seconds)_total\{event="cycles"'
	stop_serve
	[ "$st" = 0 ]
}

@test "fleet: -p --per-thread series carry comm and tid, to add up by command" {
	need_serve
	need_tracepoint
	threads_bg 3 100 1500
	serve_bg -p "$wpid" --per-thread -e syscalls:sys_enter_write -I 100
	wait "$wpid"
	wpid=
	sleep 0.4
	curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
	comm=$(sed -n 's/^pstat_events_total{.*comm="\([^"]*\)".*/\1/p' "$BATS_TEST_TMPDIR/m" | sort -u)
	[ "$comm" = prog-threads ] || { cat "$BATS_TEST_TMPDIR/m"; false; }
	# one series per thread, each its own tid, no "thread" label
	[ "$(grep -c '^pstat_events_total{' "$BATS_TEST_TMPDIR/m")" = 4 ]
	[ "$(grep -o 'tid="[0-9]*"' "$BATS_TEST_TMPDIR/m" | sort -u | wc -l)" = 4 ]
	run grep -c 'thread="' "$BATS_TEST_TMPDIR/m"
	assert_output 0
	# sum by (comm): 100 + 200 + 300 writes
	run awk '/^pstat_events_total\{.*comm="prog-threads"/ { s += $NF } END { print s }' "$BATS_TEST_TMPDIR/m"
	assert_output 600
	stop_serve
	[ "$st" = 0 ]
}

@test "fleet: an empty cgroup's counters are enabled no longer than the time that passed" {
	need_root
	need_serve
	need_cpu_wide
	# the hierarchy perf events count in: v1's perf_event, else cgroup2
	CG=$(awk '{ for (i = 7; $i != "-"; i++) ;
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)perf_event(,|$)/) v1 = $5
		else if ($(i + 1) == "cgroup2" && !v2) v2 = $5 }
		END { print (v1 != "" ? v1 : v2) }' /proc/self/mountinfo)
	[ -n "$CG" ] || skip "no cgroup hierarchy counts perf events here"
	g=pstat-fleet$$
	mkdir "$CG/$g" || skip "cannot make a cgroup under $CG"
	t0=$(date +%s%N)
	serve_bg -A -e task-clock -G "$g" -I 100
	sleep 0.5
	curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
	t1=$(date +%s%N)
	stop_serve
	# and -I's intervals, each CPU's at most its interval's (and the
	# slack of reading the CPUs one after another)
	"$PSTAT" -a -A -e task-clock -G "$g" -I 100 --interval-count 5 -j \
		-o "$BATS_TEST_TMPDIR/j"
	rmdir "$CG/$g"
	jq -s '[.[] | select(.type == "interval")] | length' "$BATS_TEST_TMPDIR/j" >"$BATS_TEST_TMPDIR/n"
	[ "$(cat "$BATS_TEST_TMPDIR/n")" -ge 4 ]
	jq_assert -s 'all(.[] | select(.type == "interval");
		(.interval.end_ns - .interval.start_ns) as $w
		| all(.counters[]; .time_enabled_ns <= $w * 1.125 + 1e7))' "$BATS_TEST_TMPDIR/j"
	grep "^pstat_enabled_seconds_total{.*cgroup=\"$g\"" "$BATS_TEST_TMPDIR/m" >"$BATS_TEST_TMPDIR/e"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/e")" -ge 1 ]
	# each CPU's time enabled at most the time serve ran
	awk -v lim="$(((t1 - t0) / 1000))" '{ if ($NF * 1e6 > lim) { print "too long: " $0; bad = 1 } }
		END { exit bad }' "$BATS_TEST_TMPDIR/e"
	grep -q "^pstat_counted{.*cgroup=\"$g\"} 0$" "$BATS_TEST_TMPDIR/m"
}

# unit_key KEY: the values of KEY= in the unit, one line each.
unit_key() {
	sed -n "s/^$1=//p" "$ROOT/contrib/systemd/pstat.service"
}

@test "fleet: systemd-analyze verify passes the unit, its sandboxing rated OK" {
	command -v systemd-analyze >/dev/null ||
		skip "systemd-analyze is not installed (Debian: systemd)"
	mkdir -p "$BATS_TEST_TMPDIR/unit" "$BATS_TEST_TMPDIR/man/man1"
	# the unit as installed, with this tree's binary and man page
	sed "s|^ExecStart=/usr/bin/pstat |ExecStart=$PSTAT |" \
		"$ROOT/contrib/systemd/pstat.service" >"$BATS_TEST_TMPDIR/unit/pstat.service"
	cp "$ROOT/man/pstat.1" "$BATS_TEST_TMPDIR/man/man1/"
	MANPATH="$BATS_TEST_TMPDIR/man" run systemd-analyze verify \
		"$BATS_TEST_TMPDIR/unit/pstat.service"
	assert_success
	# no warning either (an unknown key is only a warning)
	assert_output ''
	# what it does not catch: a bad unit fails
	printf '[Service]\nExecStart=%s serve\nNoSuchKey=1\n' "$PSTAT" \
		>"$BATS_TEST_TMPDIR/unit/bad.service"
	run systemd-analyze verify "$BATS_TEST_TMPDIR/unit/bad.service"
	assert_output --partial "Unknown key 'NoSuchKey'"
	# exposure 2.2 here; 3 is the threshold
	run systemd-analyze security --offline=true --threshold=30 \
		"$BATS_TEST_TMPDIR/unit/pstat.service"
	assert_success
	assert_output --regexp 'Overall exposure level for pstat.service: [0-2]\.[0-9] OK'
}

# make_sandbox: $sandbox, a script that runs pstat ARGS... in the unit's
# sandbox without systemd (it is not PID 1 here): a mount namespace with
# the system read-only, home and /tmp hidden, the binary copied where its
# user can run it; then setpriv for the dynamic user, the capabilities
# (ambient and bounding) and NoNewPrivileges, each read from the unit.
# With CAPS set, those capabilities instead of the unit's; with CREDS a
# directory, its files as the service's credentials, in /mnt/creds (what
# %d is), readable by the user alone. pstat ends up with the script's
# pid.
make_sandbox() {
	local caps
	caps=${CAPS:-$(unit_key AmbientCapabilities)}
	caps=$(tr ' ' '\n' <<<"$caps" | sed -n 's/^CAP_\(.*\)/+\L\1/p' | paste -sd,)
	[ "$(unit_key CapabilityBoundingSet)" = "$(unit_key AmbientCapabilities)" ]
	[ "$(unit_key NoNewPrivileges)" = yes ]
	[ "$(unit_key DynamicUser)" = yes ]
	[ "$(unit_key ProtectSystem)" = strict ]
	[ "$(unit_key ProtectHome)" = yes ]
	[ "$(unit_key PrivateTmp)" = yes ]
	sandbox="$BATS_TEST_TMPDIR/sandbox"
	cat >"$sandbox" <<EOF
#!/bin/sh
exec unshare --mount --propagation private sh -ec '
	mount -t tmpfs -o mode=755 tmpfs /mnt
	cp "$ROOT/pstat" /mnt/pstat
	if [ -n "${CREDS:-}" ]; then
		cp -r "${CREDS:-}" /mnt/creds
		chown -R 61234:61234 /mnt/creds
		chmod 0500 /mnt/creds
		chmod 0400 /mnt/creds/*
	fi
	mount -o remount,bind,ro /
	for d in /home /root /run/user /tmp /var/tmp; do
		[ ! -d "\$d" ] || mount -t tmpfs -o mode=755 tmpfs "\$d"
	done
	for d in /sys /sys/kernel/tracing /sys/fs/cgroup /proc/sys; do
		! mountpoint -q "\$d" || mount -o remount,bind,ro "\$d"
	done
	exec setpriv --reuid=61234 --regid=61234 --clear-groups \
		--inh-caps=-all,$caps --ambient-caps=$caps \
		--bounding-set=-all,$caps --no-new-privs /mnt/pstat "\$@"' _ "\$@"
EOF
	chmod +x "$sandbox"
}

@test "fleet: the unit's sandbox, a user with CAP_PERFMON, counts a tracepoint" {
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed (util-linux)"
	command -v unshare >/dev/null || skip "unshare is not installed (util-linux)"
	need_serve
	need_tracepoint
	unshare --mount true 2>/dev/null || skip "no mount namespaces here"
	args=$(unit_key Environment | sed -n 's/^"PSTAT_ARGS=\(.*\)"$/\1/p')
	[[ "$args" == *syscalls:sys_enter_write* ]]
	[ "$(unit_key ExecStart)" = '/usr/bin/pstat serve $PSTAT_ARGS $PSTAT_WEB_ARGS' ]
	# CAP_PERFMON alone: tracefs refuses the user, and says how to fix it
	CAPS=CAP_PERFMON make_sandbox
	run "$sandbox" serve $args --listen 127.0.0.1:0 --timeout 100
	assert_failure 125
	assert_line "pstat: tracepoint 'syscalls:sys_enter_write' is not readable: tracefs refuses this user (Permission denied)"
	assert_line --partial 'give this user CAP_DAC_READ_SEARCH'
	# the unit's capabilities: it counts, the tracepoint too
	w=$(prog writer)
	make_sandbox
	serve_bg -x "$sandbox" -- $args -I 100
	# pstat itself: the dynamic user, CAP_PERFMON alone once started
	grep -q '^Uid:[[:space:]]*61234[[:space:]]' "/proc/$spid/status"
	eff=$(awk '/^CapEff:/ { print $2 }' "/proc/$spid/status")
	prm=$(awk '/^CapPrm:/ { print $2 }' "/proc/$spid/status")
	amb=$(awk '/^CapAmb:/ { print $2 }' "/proc/$spid/status")
	# CAP_PERFMON is bit 38, CAP_DAC_READ_SEARCH bit 2
	[ "$eff" = 0000004000000000 ] && [ "$prm" = "$eff" ] && [ "$amb" = "$eff" ]
	"$w" 500
	for _ in $(seq 50); do
		curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
		v=$(metric "$BATS_TEST_TMPDIR/m" 'pstat_events_total{event="syscalls:sys_enter_write",pmu="tracepoint"}')
		[ -n "$v" ] && [ "$v" -ge 500 ] && break
		sleep 0.1
	done
	[ -n "$v" ] && [ "$v" -ge 500 ] || { cat "$BATS_TEST_TMPDIR/m"; false; }
	grep -q '^pstat_counted{event="syscalls:sys_enter_write",pmu="tracepoint"} 1$' "$BATS_TEST_TMPDIR/m"
	grep -q '^pstat_counted{event="task-clock",pmu="software"} 1$' "$BATS_TEST_TMPDIR/m"
	stop_serve
	[ "$st" = 0 ]
}

@test "fleet: promtool checks and tests the recording and alerting rules" {
	command -v promtool >/dev/null ||
		skip "promtool is not installed (Debian: prometheus)"
	run promtool check rules "$ROOT/contrib/prometheus/pstat.rules.yml"
	assert_success
	assert_output --partial 'SUCCESS: 9 rules found'
	run promtool test rules "$ROOT/tests/data/prometheus/pstat.rules.test.yml"
	assert_success
	assert_output --partial 'SUCCESS'
	# the test fails where the rules are wrong: a changed threshold
	mkdir -p "$BATS_TEST_TMPDIR/c/prometheus" "$BATS_TEST_TMPDIR/t/data/prometheus"
	sed 's/running_ratio:rate5m < 0.5/running_ratio:rate5m < 0.2/' \
		"$ROOT/contrib/prometheus/pstat.rules.yml" >"$BATS_TEST_TMPDIR/c/prometheus/pstat.rules.yml"
	cp "$ROOT/tests/data/prometheus/pstat.rules.test.yml" "$BATS_TEST_TMPDIR/t/data/prometheus/"
	mkdir -p "$BATS_TEST_TMPDIR/contrib"
	mv "$BATS_TEST_TMPDIR/c/prometheus" "$BATS_TEST_TMPDIR/contrib/"
	run promtool test rules "$BATS_TEST_TMPDIR/t/data/prometheus/pstat.rules.test.yml"
	assert_failure
	assert_output --partial 'alertname: PstatCounterMultiplexed'
}

# panel_queries: each panel's query of the dashboard, one a line, with
# its variables as Grafana would fill them for all hosts.
panel_queries() {
	jq -r '.panels[] | .targets[] | .expr' "$ROOT/contrib/grafana/pstat.json" |
		sed -e 's/\$instance/.+/g' -e 's/\$__rate_interval/15s/g'
}

@test "fleet: every panel of the Grafana dashboard has data from a real Prometheus that scraped pstat" {
	need_serve
	need_prometheus
	need_tracepoint
	need_cpu_wide
	command -v jq >/dev/null || skip "jq is not installed"
	# the dashboard is Grafana's JSON model: panels with Prometheus
	# targets, the instance variable from pstat_build_info
	jq_assert '.panels | length >= 8 and all(.[]; (.targets | length) >= 1)' \
		"$ROOT/contrib/grafana/pstat.json"
	jq_assert '.templating.list | any(.name == "instance" and (.query.query | test("pstat_build_info")))' \
		"$ROOT/contrib/grafana/pstat.json"
	# the unit's events, and a process's threads with --per-thread
	args=$(sed -n 's/^Environment="PSTAT_ARGS=\(.*\)"$/\1/p' "$ROOT/contrib/systemd/pstat.service")
	serve_bg $args -I 200
	spid1=$spid port1=$port
	threads_bg 3 1 60000
	serve_bg -p "$wpid" --per-thread -e task-clock -I 200
	cat >"$BATS_TEST_TMPDIR/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - $ROOT/contrib/prometheus/pstat.rules.yml
scrape_configs:
  - job_name: pstat
    static_configs:
      - targets: ['127.0.0.1:$port1', '127.0.0.1:$port']
EOF
	prom_start "$BATS_TEST_TMPDIR/prometheus.yml"
	# until the rules have data (60 s at most)
	for _ in $(seq 120); do
		promq 'pstat:running_ratio:rate5m{event="task-clock",comm!=""}' >"$BATS_TEST_TMPDIR/q" 2>/dev/null &&
			[ "$(jq '.data.result | length' "$BATS_TEST_TMPDIR/q")" -gt 0 ] &&
			promq 'instance:pstat_context_switches:rate1m' >"$BATS_TEST_TMPDIR/q" 2>/dev/null &&
			[ "$(jq '.data.result | length' "$BATS_TEST_TMPDIR/q")" -gt 0 ] && break
		sleep 0.5
	done
	# every rule loaded and healthy
	curl -sf "$purl/api/v1/rules" >"$BATS_TEST_TMPDIR/rules"
	jq_assert '[.data.groups[].rules[]] | length == 9 and all(.[]; .health == "ok")' "$BATS_TEST_TMPDIR/rules"
	cycles=$(promq 'pstat_counted{event="cycles"}' | jq -r '.data.result[0].value[1]')
	[ -n "$cycles" ]
	n=0
	while IFS= read -r q; do
		n=$((n + 1))
		promq "$q" >"$BATS_TEST_TMPDIR/q" || { echo "refused: $q"; false; }
		got=$(jq '.data.result | length' "$BATS_TEST_TMPDIR/q")
		if [[ "$q" == *instructions_per_cycle* ]] && [ "$cycles" = 0 ]; then
			# no PMU here: no IPC, and the dashboard's table says why
			[ "$got" = 0 ]
			echo "# $q: no data, as this machine does not count cycles" >&3
			continue
		fi
		[ "$got" -gt 0 ] || { echo "no data: $q"; cat "$BATS_TEST_TMPDIR/q"; false; }
	done < <(panel_queries)
	[ "$n" = "$(jq '[.panels[].targets[]] | length' "$ROOT/contrib/grafana/pstat.json")" ]
	# the per-thread panel adds up the command's threads
	promq 'sum by (comm) (rate(pstat_event_seconds_total{event="task-clock",comm!=""}[15s]))' >"$BATS_TEST_TMPDIR/q"
	jq_assert '.data.result | length == 1 and .[0].metric.comm == "prog-threads"' "$BATS_TEST_TMPDIR/q"
	# and the counters-not-counted alert is pending for cycles here
	if [ "$cycles" = 0 ]; then
		curl -sf "$purl/api/v1/alerts" >"$BATS_TEST_TMPDIR/alerts"
		jq_assert '.data.alerts | any(.labels.alertname == "PstatCounterNotCounted" and .labels.event == "cycles" and .state == "pending")' \
			"$BATS_TEST_TMPDIR/alerts"
	fi
	prom_stop
	stop_serve
	[ "$st" = 0 ]
	spid=$spid1
	stop_serve
	[ "$st" = 0 ]
}

@test "fleet: serve -a --per-thread labels each thread of the machine with comm and tid" {
	need_serve
	need_cpu_wide
	threads_bg 2 1 30000
	serve_bg -a --per-thread -e context-switches -I 100
	curl -sf -o "$BATS_TEST_TMPDIR/m" "$url/metrics"
	# the program's three threads, each its own series, one comm
	run grep -c '^pstat_events_total{event="context-switches",pmu="software",comm="prog-threads",tid="[0-9]*"} [0-9]*$' "$BATS_TEST_TMPDIR/m"
	assert_output 3
	grep -q "^pstat_events_total{[^}]*comm=\"prog-threads\",tid=\"$wpid\"} " "$BATS_TEST_TMPDIR/m"
	run grep -c 'thread="' "$BATS_TEST_TMPDIR/m"
	assert_output 0
	stop_serve
	[ "$st" = 0 ]
}

@test "fleet: the TLS drop-in, its credentials read by the dynamic user, basic auth" {
	command -v systemd-analyze >/dev/null ||
		skip "systemd-analyze is not installed (Debian: systemd)"
	command -v openssl >/dev/null || skip "openssl is not installed"
	need_root
	command -v setpriv >/dev/null || skip "setpriv is not installed (util-linux)"
	unshare --mount true 2>/dev/null || skip "no mount namespaces here"
	need_serve
	# the unit with the drop-in beside it, as /etc/systemd/system has them
	mkdir -p "$BATS_TEST_TMPDIR/unit/pstat.service.d" "$BATS_TEST_TMPDIR/man/man1"
	sed "s|^ExecStart=/usr/bin/pstat |ExecStart=$PSTAT |" \
		"$ROOT/contrib/systemd/pstat.service" >"$BATS_TEST_TMPDIR/unit/pstat.service"
	cp "$ROOT/contrib/systemd/tls.conf" "$BATS_TEST_TMPDIR/unit/pstat.service.d/"
	cp "$ROOT/man/pstat.1" "$BATS_TEST_TMPDIR/man/man1/"
	MANPATH="$BATS_TEST_TMPDIR/man" run systemd-analyze verify \
		"$BATS_TEST_TMPDIR/unit/pstat.service"
	assert_success
	assert_output ''
	# the credentials as LoadCredential= names them
	c="$BATS_TEST_TMPDIR/creds"
	mkdir "$c"
	for k in $(sed -n 's/^LoadCredential=\([^:]*\):.*/\1/p' "$ROOT/contrib/systemd/tls.conf"); do
		: >"$c/$k"
	done
	[ -e "$c/web.yml" ] && [ -e "$c/pstat.crt" ] && [ -e "$c/pstat.key" ]
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$c/pstat.key" -out "$c/pstat.crt" -days 2 -subj /CN=localhost \
		-addext subjectAltName=IP:127.0.0.1 2>/dev/null
	cp "$c/pstat.crt" "$BATS_TEST_TMPDIR/ca.crt"
	# bcrypt ($2y$, cost 5) of "s3cret"
	cat >"$c/web.yml" <<'EOF'
tls_server_config:
  cert_file: pstat.crt
  key_file: pstat.key
basic_auth_users:
  prometheus: $2y$05$abcdefghijklmnopqrstuuLK7U1u6pVRmL7L1BBM2aS35PSZnDXlK
EOF
	web=$(sed -n 's/^Environment=PSTAT_WEB_ARGS=//p' "$ROOT/contrib/systemd/tls.conf")
	web=${web//%d//mnt/creds}
	CREDS=$c make_sandbox
	SERVE_CURL=(--cacert "$BATS_TEST_TMPDIR/ca.crt" -u prometheus:s3cret)
	serve_bg -x "$sandbox" -- -e task-clock,context-switches $web -I 100
	[[ "$url" == https://* ]]
	run curl -s -o /dev/null -w '%{http_code}' --cacert "$BATS_TEST_TMPDIR/ca.crt" \
		-u prometheus:s3cret "$url/metrics"
	assert_output 200
	run curl -s -o /dev/null -w '%{http_code}' --cacert "$BATS_TEST_TMPDIR/ca.crt" \
		-u prometheus:wrong "$url/metrics"
	assert_output 401
	run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics"
	refute_output 200
	grep -q '^Uid:[[:space:]]*61234[[:space:]]' "/proc/$spid/status"
	stop_serve
	[ "$st" = 0 ]
}
