#!/usr/bin/env python3
"""Compare, on the host, the attrs perf opened in the guest with those
pstat encoded there for the same event list.

  attrs.py PERF_STDERR PSTAT_JSON

PERF_STDERR is `perf stat -vv -e LIST true`'s stderr, PSTAT_JSON
`pstat --dry-run -j -e LIST`'s document. Prints each difference and
exits 1, exits 0 when every event agrees (and prints how many), exits 2
when either output holds no event (perf or pstat refused the list).

Compared per event, in order: type, config, config1, config2, the
exclude_* bits of the modifiers (u, k, h, G, H) and whether the event
leads its group (perf opens a group's leader with group_fd -1)."""
import importlib.util
import json
import os
import sys

FIELDS = ("type", "config", "config1", "config2", "exclude_user",
          "exclude_kernel", "exclude_hv", "exclude_host", "exclude_guest")


def perf_events(path):
    """The attrs perf opened, each once (tests/lib/perf-attrs.py's
    parser of perf's -vv output)."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "perf_attrs", os.path.join(here, "..", "lib", "perf-attrs.py"))
    perf_attrs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(perf_attrs)
    with open(path, errors="replace") as f:
        return perf_attrs.parse_vv(f.read(), FIELDS, leaders=True)


def pstat_events(path):
    with open(path) as f:
        doc = json.load(f)
    out = []
    for ev in doc["events"]:
        a = ev["attr"]
        d = {k: int(a[k], 16) if k.startswith("config") else int(a[k])
             for k in FIELDS}
        d["leader"] = bool(ev["leader"])
        d["name"] = ev["name"]
        out.append(d)
    return out


def main():
    try:
        theirs = perf_events(sys.argv[1])
        ours = pstat_events(sys.argv[2])
    except (OSError, ValueError, KeyError) as e:
        print(f"cannot read the outputs: {e}")
        return 2
    if not theirs or not ours:
        print(f"no events: perf {len(theirs)}, pstat {len(ours)}")
        return 2
    bad = 0
    if len(theirs) != len(ours):
        print(f"perf opened {len(theirs)} events, pstat encodes {len(ours)}")
        bad = 1
    for p, q in zip(theirs, ours):
        diff = [f"{k} perf {p[k]:#x} pstat {q[k]:#x}"
                for k in FIELDS + ("leader",) if p[k] != q[k]]
        if diff:
            print(f"{q['name']}: " + ", ".join(diff))
            bad = 1
    if not bad:
        print(f"{len(ours)} events agree")
    return bad


if __name__ == "__main__":
    sys.exit(main())
