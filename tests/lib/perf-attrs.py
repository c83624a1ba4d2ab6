#!/usr/bin/env python3
"""Compare the attrs `perf stat -vv -e EVENT true` opens with what
`pstat --dry-run -j -e EVENT` encodes: type, config, config1, config2,
exclude_user, exclude_kernel, exclude_hv.

  perf-attrs.py PSTAT EVENT
      One event list. Prints the differences and exits 1, or exits 0 when
      they agree; exits 77 when perf printed no attr for it (perf cannot
      encode it here).
  perf-attrs.py PSTAT --each FILE
      Every event of FILE (one a line), many to a perf run. A batch perf
      refuses to parse is split until the names it refuses are found:
      those are listed ("perf rejects"), not failures, since pstat may
      take more spellings than perf (case, for one). Exits 1 on any
      difference, else 0.

Events are compared in order, except the matches of a tracepoint glob:
perf opens them in tracefs directory order and pstat sorts them, so
those are compared as sets keyed by tracepoint name."""
import glob
import json
import os
import subprocess
import sys

FIELDS = ("type", "config", "config1", "config2", "exclude_user",
          "exclude_kernel", "exclude_hv")
PERF_TYPE_TRACEPOINT = 2
PERF_TYPE_BREAKPOINT = 5
# the errors after which perf opens the same event again, changed:
# EINVAL (missing features: cloexec, exclude_guest, precise_ip...)
RETRY_ERRORS = ("error -22",)


def perf_attrs(event):
    """The attr blocks perf opens for event, without its retries, or
    None when perf does not parse event."""
    res = subprocess.run(["perf", "stat", "-vv", "-e", event, "true"],
                         capture_output=True, text=True, errors="replace")
    out = res.stderr
    if "event syntax error" in out or "Run 'perf list'" in out:
        return None
    return parse_vv(out)


def parse_vv(out, fields=FIELDS, leaders=False):
    """The attr blocks of `perf stat -vv`'s stderr out, each of fields
    (0 when perf does not print one), without perf's retries; with
    leaders, each also says ("leader") whether perf opened it with
    group_fd -1, as a group's leader or an event on its own."""
    blocks, cur, failed = [], None, False
    for line in out.splitlines():
        if line.startswith("perf_event_attr:"):
            cur = {f: 0 for f in fields}
            cur["_retry_of_failed"] = failed
            blocks.append(cur)
            failed = False
            continue
        if line.startswith("sys_perf_event_open"):
            if leaders and cur is not None:
                cur["leader"] = " group_fd -1 " in line
            failed = any(e in line for e in RETRY_ERRORS)
            cur = None
            continue
        if cur is None or not line.startswith("  "):
            continue
        key, _, val = line.strip().rpartition(" ")
        key = key.strip()
        if key.startswith("{ bp_addr"):
            key = "config1"
        elif key.startswith("{ bp_len"):
            key = "config2"
        if key in fields:
            cur[key] = int(val, 0)
    # perf retries an event with other exclusion bits after EINVAL: only
    # the first attempt of each event is what it encoded. An event that
    # merely repeats the one before (cs:k,cs:u; or one that failed with
    # ENOENT) is no retry and is kept.
    firsts = []
    for b in blocks:
        retry = b.pop("_retry_of_failed")
        if retry and firsts and sig(firsts[-1]) == sig(b):
            continue
        firsts.append(b)
    return firsts


def sig(b):
    return (b["type"], b["config"], b["config1"], b["config2"])


def pstat_attrs(pstat, event):
    """pstat's attrs for event as (name, attr) pairs, or None when pstat
    refuses it (the message is printed)."""
    res = subprocess.run([pstat, "--dry-run", "-j", "-e", event],
                         capture_output=True, text=True, errors="replace")
    if res.returncode:
        print(f"pstat refuses {event!r}: {res.stderr.strip()}")
        return None
    out = []
    # (--dry-run -j writes its document to stdout)
    for ev in json.loads(res.stdout)["events"]:
        a = ev["attr"]
        d = {f: a[f] for f in FIELDS}
        for f in ("config", "config1", "config2"):
            d[f] = int(a[f], 16)
        if a["type"] == PERF_TYPE_BREAKPOINT:
            # bp_addr/bp_len alias config1/config2
            d["config1"] = int(a["bp_addr"], 16)
            d["config2"] = int(a["bp_len"], 16)
        for f in ("exclude_user", "exclude_kernel", "exclude_hv"):
            d[f] = int(d[f])
        out.append((ev["name"], d))
    return out


_tp_names = None


def tracepoint_name(tp_id):
    """The "sys:event" whose id is tp_id, from the tracefs perf uses."""
    global _tp_names
    if _tp_names is None:
        _tp_names = {}
        for root in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
            ids = glob.glob(os.path.join(root, "events", "*", "*", "id"))
            for path in ids:
                try:
                    with open(path) as f:
                        n = int(f.read())
                except (OSError, ValueError):
                    continue
                parts = path.split(os.sep)
                _tp_names.setdefault(n, f"{parts[-3]}:{parts[-2]}")
            if ids:
                break
    return _tp_names.get(tp_id, f"id {tp_id}")


def is_glob(event):
    return any(c in event for c in "*?[")


def compare(pstat, event, theirs):
    """Differences between perf's attrs and pstat's for event (a list
    of messages), or None when pstat refuses it."""
    pairs = pstat_attrs(pstat, event)
    if pairs is None:
        return None
    ours = [d for _, d in pairs]
    # perf stops opening a group whose leader is not supported: compare
    # what it did encode
    if len(theirs) < len(ours) and "{" in event:
        ours = ours[:len(theirs)]
    if is_glob(event):
        # tracepoint globs: sets keyed by name ("sys:ev", without the
        # modifiers pstat shows after it)
        mine = {":".join(n.split(":")[:2]): d for n, d in pairs}
        perfs = {}
        for b in theirs:
            key = (tracepoint_name(b["config"])
                   if b["type"] == PERF_TYPE_TRACEPOINT else repr(sig(b)))
            perfs[key] = b
        if mine != perfs:
            only_perf = sorted(set(perfs) - set(mine))
            only_pstat = sorted(set(mine) - set(perfs))
            differ = sorted(k for k in set(mine) & set(perfs)
                            if mine[k] != perfs[k])
            return [f"{event}: only perf {only_perf[:10]}, only pstat "
                    f"{only_pstat[:10]}, different {differ[:10]}"]
        return []
    if ours != theirs:
        return [f"{event}:\n  perf:  {theirs}\n  pstat: {ours}"]
    return []


def check_batch(pstat, events, rejected, problems):
    """Check events (a list) in one perf run, splitting it when perf
    refuses to parse it. Returns how many were compared."""
    theirs = perf_attrs(",".join(events))
    if theirs is None:
        if len(events) == 1:
            rejected.append(events[0])
            return 0
        half = len(events) // 2
        return (check_batch(pstat, events[:half], rejected, problems) +
                check_batch(pstat, events[half:], rejected, problems))
    pairs = pstat_attrs(pstat, ",".join(events))
    if pairs is None:
        problems.append(f"pstat refuses a batch perf takes: {events}")
        return 0
    ours = [d for _, d in pairs]
    if ours != theirs:
        # find which: one by one
        for ev in events:
            t = perf_attrs(ev)
            diff = compare(pstat, ev, t or [])
            if diff:
                problems.extend(diff)
    return len(events)


def main():
    pstat = sys.argv[1]
    if len(sys.argv) == 4 and sys.argv[2] == "--each":
        with open(sys.argv[3]) as f:
            events = [line.strip() for line in f if line.strip()]
        rejected, problems, checked = [], [], 0
        for i in range(0, len(events), 100):
            checked += check_batch(pstat, events[i:i + 100], rejected,
                                   problems)
        for p in problems:
            print(p)
        print(f"{checked} checked, perf rejects {len(rejected)}: "
              f"{' '.join(rejected[:20])}{' ...' if len(rejected) > 20 else ''}")
        return 1 if problems else 0
    event = sys.argv[2]
    theirs = perf_attrs(event)
    if not theirs:
        print(f"perf printed no attr for {event}")
        return 77
    diff = compare(pstat, event, theirs)
    if diff is None:
        return 1
    for d in diff:
        print(d)
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
