#!/usr/bin/env bats
# Runs last: every JSON document the suite's pstat -j runs wrote (kept by
# tests/lib/pstat-json-keep) is valid against schema/pstat.schema.json.

load test_helper
load json_helper

@test "every JSON document written by the test suite matches the schema" {
	need_jsonschema
	shopt -s nullglob
	docs=("$PSTAT_JSON_KEEP"/doc.??????)
	# run alone, this file has nothing to check: make some
	if [ "${#docs[@]}" -lt 5 ]; then
		need_perf_events
		"$PSTAT" -j -e task-clock,cycles true 2>/dev/null
		"$PSTAT" -j -r 3 -e task-clock,page-faults true 2>/dev/null
		"$PSTAT" -j -I 20 --interval-count 2 -e cs sleep 1 2>/dev/null
		"$PSTAT" -j -a -A -e cs --timeout 50 2>/dev/null
		"$PSTAT" -j -e task-clock -- sh -c 'kill $$' 2>/dev/null || true
		docs=("$PSTAT_JSON_KEEP"/doc.??????)
	fi
	echo "validating ${#docs[@]} documents" >&3
	[ "${#docs[@]}" -ge 5 ]
	run validate_json_files "$ROOT/schema/pstat.schema.json" "${docs[@]}"
	if [ "$status" != 0 ]; then
		# name the pstat command line that wrote each bad document
		for f in $(grep -o "$PSTAT_JSON_KEEP/doc\.[A-Za-z0-9]*" <<<"$output" | sort -u); do
			echo "$f: written by: pstat $(cat "$f.cmd" 2>/dev/null)"
			head -c 300 "$f"; echo
		done
		echo "$output"
		return 1
	fi
}
