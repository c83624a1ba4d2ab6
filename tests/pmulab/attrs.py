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
import json
import sys

FIELDS = ("type", "config", "config1", "config2", "exclude_user",
          "exclude_kernel", "exclude_hv", "exclude_host", "exclude_guest")


def perf_events(path):
    """The attrs perf opened, each once: after EINVAL perf opens the
    same event again with fewer exclusion bits (a kernel without
    exclude_guest), and those retries are not what it encoded."""
    events, cur, retry = [], None, False
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("perf_event_attr:"):
                cur = {k: 0 for k in FIELDS}
                cur["_retry"] = retry
                retry = False
                continue
            if line.startswith("sys_perf_event_open:") and cur is not None:
                cur["leader"] = " group_fd -1 " in line
                if not (cur.pop("_retry") and events and
                        sig(events[-1]) == sig(cur)):
                    events.append(cur)
                cur = None
                continue
            if line.startswith("sys_perf_event_open failed, error -22"):
                retry = True
                continue
            if cur is None or not line.startswith("  "):
                continue
            key, _, val = line.strip().rpartition(" ")
            key = key.strip()
            # (perf names the unions by both their members)
            if key.startswith("{ bp_addr"):
                key = "config1"
            elif key.startswith("{ bp_len"):
                key = "config2"
            if key in FIELDS:
                cur[key] = int(val, 0)
    return events


def sig(e):
    return (e["type"], e["config"], e["config1"], e["config2"])


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
