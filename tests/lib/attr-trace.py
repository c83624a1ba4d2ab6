#!/usr/bin/env python3
"""Compare the perf_event_attr records `perf stat` and pstat really pass to
perf_event_open(2), as strace decodes them, for one event list.

  attr-trace.py --show PSTAT EVENT-LIST
      Prints, for each counter pstat opens (first attempts), a line
      "TYPE CONFIG leader|member disabled=D enable_on_exec=E".
  attr-trace.py PSTAT EVENT-LIST [PSTAT-EVENT-LIST]
      Runs `perf stat -e EVENT-LIST true` and `PSTAT -e PSTAT-EVENT-LIST
      true` (the same list unless given) under strace, and compares, call
      by call, the fields below. Prints the differences and exits 1, or
      exits 0 when they agree; 77 when perf opened nothing (it refused the
      list).

Only the first attempt of each counter is compared: both tools open an
event again with other bits after EINVAL. pstat's guard counter (a
disabled dummy event) is left out. Whether a call joins a group is
compared as "leader" (group_fd -1) or not; the fds themselves differ."""
import os
import re
import subprocess
import sys
import tempfile

FIELDS = ("type", "config", "config1", "config2", "bp_type", "bp_addr",
          "bp_len", "read_format", "disabled", "inherit", "pinned",
          "exclusive", "exclude_user", "exclude_kernel", "exclude_hv",
          "exclude_idle", "enable_on_exec", "precise_ip", "exclude_host",
          "exclude_guest")

CALL = re.compile(r"perf_event_open\(\{(.*)\}, (-?\d+), (-?\d+), (-?\d+), "
                  r"[^)]*\)\s*=\s*(-?\d+)")


def parse_struct(text):
    """The name=value pairs of strace's decoded struct (values as text,
    comments dropped)."""
    text = re.sub(r"/\*.*?\*/", "", text)
    out = {}
    for part in text.split(", "):
        key, eq, val = part.partition("=")
        if eq:
            out[key.strip()] = val.strip()
    return out


def calls(argv):
    """The perf_event_open calls of argv: (attr dict, leader, result)."""
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as tmp:
        subprocess.run(["strace", "-f", "-qq", "-v", "-s", "0",
                        "-e", "trace=perf_event_open", "-o", tmp.name]
                       + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
        lines = tmp.read().splitlines()
    out = []
    for line in lines:
        m = CALL.search(line)
        if not m:
            continue
        attr = parse_struct(m.group(1))
        if (attr.get("type") == "PERF_TYPE_SOFTWARE" and
                attr.get("config") == "PERF_COUNT_SW_DUMMY"):
            continue
        rec = {f: attr.get(f, "0") for f in FIELDS}
        rec["leader"] = m.group(4) == "-1"
        out.append((rec, int(m.group(5))))
    return out


def firsts(cs):
    """Each counter's first attempt: a call after one that failed with
    EINVAL for the same type and config is a retry."""
    out, prev_failed = [], None
    for rec, res in cs:
        key = (rec["type"], rec["config"])
        if prev_failed == key:
            prev_failed = key if res < 0 else None
            continue
        out.append(rec)
        prev_failed = key if res < 0 else None
    return out


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--show":
        for rec in firsts(calls([sys.argv[2], "-e", sys.argv[3], "true"])):
            print(f"{rec['type']} {rec['config']} "
                  f"{'leader' if rec['leader'] else 'member'} "
                  f"disabled={rec['disabled']} "
                  f"enable_on_exec={rec['enable_on_exec']}")
        return 0
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    pstat, ev = sys.argv[1], sys.argv[2]
    pev = sys.argv[3] if len(sys.argv) == 4 else ev
    theirs = firsts(calls(["perf", "stat", "-e", ev, "true"]))
    if not theirs:
        print(f"perf opened nothing for {ev}")
        return 77
    ours = firsts(calls([pstat, "-e", pev, "true"]))
    if len(ours) != len(theirs):
        print(f"{ev}: perf opened {len(theirs)} counters, pstat "
              f"{len(ours)}")
        return 1
    bad = 0
    for i, (t, o) in enumerate(zip(theirs, ours)):
        diff = {k: (t[k], o[k]) for k in t if t[k] != o[k]}
        if diff:
            bad = 1
            print(f"{ev}: counter {i}: (perf, pstat) {diff}")
    return bad


sys.exit(main())
