#!/usr/bin/python3
# om-check.py FORMAT [FILE]: parse an exposition (stdin, or FILE) with
# the official Python client's parser for FORMAT, "openmetrics" or
# "text" (the Prometheus text format 0.0.4), and print what it read, one
# line each, sorted:
#   family NAME TYPE UNIT
#   sample NAME{k="v",...} VALUE
# FORMAT-stream: several expositions in a row, as -I prints them (each
# ends in "# EOF", or in the text format in its pstat_build_info line):
# each is parsed on its own, and each line printed after its number, from
# 1. Exits 1 with the parser's complaint when it refuses the text. With
# "openmetrics" it also checks what the parser lets pass: every family
# has TYPE and HELP (and UNIT, but for info), and every sample belongs to
# a family that had them.
import sys

from prometheus_client.openmetrics.parser import \
    text_string_to_metric_families as om_parse
from prometheus_client.parser import \
    text_string_to_metric_families as text_parse


def fail(msg):
    print("om-check: " + msg, file=sys.stderr)
    sys.exit(1)


def meta_lines(text):
    seen = {}
    for line in text.splitlines():
        if line.startswith("# ") and line != "# EOF":
            parts = line.split(" ", 3)
            seen.setdefault(parts[2], set()).add(parts[1])
    return seen


def check(fmt, text, prefix):
    parse = om_parse if fmt == "openmetrics" else text_parse
    out = []
    try:
        fams = list(parse(text))
    except Exception as e:  # the parsers raise ValueError and others
        fail("%s parser refused %s: %s" % (fmt, prefix or "it", e))
    meta = meta_lines(text)
    for f in fams:
        if fmt == "openmetrics":
            want = {"TYPE", "HELP"} | ({"UNIT"} if f.type != "info" else set())
            have = meta.get(f.name, set())
            if not want <= have:
                fail("family %s lacks %s" % (f.name, want - have))
        out.append("family %s %s %s" % (f.name, f.type, f.unit or "-"))
        for s in f.samples:
            labels = ",".join('%s="%s"' % (k, v.replace("\\", "\\\\")
                                           .replace("\n", "\\n")
                                           .replace('"', '\\"'))
                              for k, v in sorted(s.labels.items()))
            out.append("sample %s{%s} %r" % (s.name, labels, float(s.value)))
    for line in sorted(out):
        print(prefix + line)


def split(fmt, text):
    docs, cur = [], []
    for line in text.splitlines(keepends=True):
        cur.append(line)
        if (fmt == "openmetrics" and line == "# EOF\n") or \
                (fmt == "text" and line.startswith("pstat_build_info")):
            docs.append("".join(cur))
            cur = []
    if cur:
        fail("the last exposition is cut short")
    return docs


def main():
    fmt = sys.argv[1]
    data = open(sys.argv[2], "rb").read() if len(sys.argv) > 2 else \
        sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    if not text:
        fail("no exposition")
    if fmt.endswith("-stream"):
        fmt = fmt[:-len("-stream")]
        for i, doc in enumerate(split(fmt, text), 1):
            check(fmt, doc, "%d " % i)
    else:
        check(fmt, text, "")


main()
