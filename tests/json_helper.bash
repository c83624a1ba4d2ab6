# JSON checks for bats files: `load json_helper` after `load test_helper`.
#
# validate_json FILE [SCHEMA]
#	Checks that FILE is one JSON document, or JSON Lines (one compact
#	document per line, as pstat -j -I writes), and that every document
#	is valid against SCHEMA (default: schema/pstat.schema.json). FILE
#	must be strict UTF-8 and may not contain NaN or Infinity. Prints
#	each violation as FILE:LINE: PATH: MESSAGE and fails.
#
# validate_json_files SCHEMA FILE...
#	The same for many files in one go (importing jsonschema is slow).
#
# need_jsonschema
#	Skips the test when python3-jsonschema is missing.
#
# Debian's python3-jsonschema is installed for /usr/bin/python3; a
# python3 found first on PATH (pyenv, a venv) may well lack it.

JSON_PYTHON=${JSON_PYTHON:-/usr/bin/python3}

need_jsonschema() {
	"$JSON_PYTHON" -c 'import jsonschema' 2>/dev/null ||
		skip "python3-jsonschema is not installed for $JSON_PYTHON"
}

validate_json() {
	validate_json_files "${2:-$ROOT/schema/pstat.schema.json}" "$1"
}

validate_json_files() {
	need_jsonschema
	"$JSON_PYTHON" - "$@" <<'EOF'
import json
import sys

from jsonschema import Draft202012Validator, FormatChecker

schema_path, paths = sys.argv[1], sys.argv[2:]


def no_constants(name):
    raise ValueError("%s is not JSON" % name)


def load(text):
    return json.loads(text, parse_constant=no_constants)


with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema, format_checker=FormatChecker())


def check(path):
    """Returns the number of violations in path; exits if it is not JSON."""
    try:
        with open(path, encoding="utf-8", errors="strict") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        sys.exit("%s: %s" % (path, e))
    docs = []
    try:
        docs.append((1, load(text)))
    except ValueError:
        # Not one document: then every line must be one (JSON Lines).
        lines = text[:-1] if text.endswith("\n") else text
        for n, line in enumerate(lines.split("\n"), 1):
            try:
                docs.append((n, load(line)))
            except ValueError as e:
                sys.exit("%s:%d: not JSON: %s" % (path, n, e))
    bad = 0
    for n, doc in docs:
        errors = validator.iter_errors(doc)
        for e in sorted(errors, key=lambda e: list(e.path)):
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            print("%s:%d: %s: %s" % (path, n, where, e.message),
                  file=sys.stderr)
            bad += 1
    return bad


if not paths:
    sys.exit("validate_json: no file")
bad = sum([check(p) for p in paths])
sys.exit(1 if bad else 0)
EOF
}
