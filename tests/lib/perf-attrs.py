#!/usr/bin/env python3
"""Compare the attrs `perf stat -vv -e EVENT true` opens with what
`pstat --dry-run -j -e EVENT` encodes: type, config, config1, config2,
exclude_user, exclude_kernel, exclude_hv. Usage: perf-attrs.py PSTAT EVENT.
Prints the differences and exits 1, or exits 0 when they agree; exits 77
when perf printed no attr for the event (perf cannot encode it here)."""
import json
import subprocess
import sys

FIELDS = ("type", "config", "config1", "config2", "exclude_user",
          "exclude_kernel", "exclude_hv")


def perf_attrs(event):
    out = subprocess.run(["perf", "stat", "-vv", "-e", event, "true"],
                         capture_output=True, text=True).stderr
    blocks, cur = [], None
    for line in out.splitlines():
        if line.startswith("perf_event_attr:"):
            cur = {f: 0 for f in FIELDS}
            blocks.append(cur)
            continue
        if cur is None or not line.startswith("  "):
            if line.startswith("sys_perf_event_open"):
                cur = None
            continue
        key, _, val = line.strip().rpartition(" ")
        key = key.strip()
        if key.startswith("{ bp_addr"):
            key = "config1"
        elif key.startswith("{ bp_len"):
            key = "config2"
        if key in FIELDS:
            cur[key] = int(val, 0)
    # perf retries an event with other exclusion bits after a failure;
    # only the first attempt of each event is what it encoded.
    firsts, seen = [], set()
    for b in blocks:
        sig = (b["type"], b["config"], b["config1"], b["config2"])
        if sig not in seen:
            seen.add(sig)
            firsts.append(b)
    return firsts


def pstat_attrs(pstat, event):
    out = subprocess.run([pstat, "--dry-run", "-j", "-e", event],
                         capture_output=True, text=True, check=True).stderr
    res = []
    for ev in json.loads(out)["events"]:
        a = ev["attr"]
        d = {f: a[f] for f in FIELDS}
        for f in ("config", "config1", "config2"):
            d[f] = int(a[f], 16)
        if a["type"] == 5:  # breakpoints: bp_addr/bp_len alias config1/2
            d["config1"] = int(a["bp_addr"], 16)
            d["config2"] = a["bp_len"]
        for f in ("exclude_user", "exclude_kernel", "exclude_hv"):
            d[f] = int(d[f])
        res.append(d)
    return res


def main():
    pstat, event = sys.argv[1], sys.argv[2]
    theirs = perf_attrs(event)
    if not theirs:
        print(f"perf printed no attr for {event}")
        return 77
    ours = pstat_attrs(pstat, event)
    # perf stops opening a group whose leader is not supported: compare
    # what it did encode
    if len(theirs) < len(ours):
        ours = ours[:len(theirs)]
    if ours != theirs:
        print(f"{event}:\n  perf:  {theirs}\n  pstat: {ours}")
        return 1
    return 0


sys.exit(main())
