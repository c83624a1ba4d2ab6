#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn the vendors' published performance-monitoring data into pstat's
metric and event tables (vendor_tables.c, beside this script).

The data files beside this script are the vendors' own, unchanged:

  intel/   github.com/intel/perfmon (BSD-3-Clause, intel/LICENSE):
           mapfile.csv (CPUID family-model[-stepping] to platform files),
           <PLATFORM>/metrics/*_metrics.json (TMA per platform: every
           level, thresholds), <PLATFORM>/events/*_core.json (encodings),
           E-core_TMA_Metrics.csv (the E-cores of hybrid parts),
           <PLATFORM>/events/*_uncore.json (the uncore events of the
           system metrics: DRAM bandwidth, CHA latencies; the
           clients' ARB).
  arm/     Arm's telemetry-solution (Apache-2.0, arm/LICENSE): per
           Neoverse and Lumex C1 core, its metrics, metric groups and
           top-down decision tree (arm/README says what the extracts
           hold), chosen by MIDR; arm/data/, ARM-software/data's events.

The script is in three parts beside it: gen_intel.py (perfmon),
gen_arm.py (Arm) and gen_common.py (what both read with); this file
writes the tables.

Usage: gen-tables.py [OUTDIR]   (writes OUTDIR/vendor_tables.c; OUTDIR is
this script's directory when not given). `make
regen-metrics` runs it. To add a CPU: copy its files from perfmon into
intel/ keeping perfmon's paths, add its platform to PLATFORMS, rerun.

What pstat's formula language cannot say is left out, and the metrics
that refer to it with it: events with a per-core modifier (:percore, a
sum over a core's SMT siblings), MSR events, uncore events of a unit
the kernel has no PMU for here (NCU) or that need a box filter,
and retire
latencies where the platform has no retire latency file (a count cannot
measure them: with the file, Intel's measured mean stands in, as perf
does when counting). :sup and :user become perf's k and u modifiers,
UMaskExt the umask's high byte (the kernel's umask format is
config:8-15,40-47 where the core has it) and :eqN the eq term.
Uncore events are counted on the kernel's uncore PMUs (UNCORE_PMU),
summed over the boxes; pstat leaves a metric out where the machine
lacks the PMU (metric_uncore.c). A formula that divides by a box's
clockticks (:one_unit), which Intel's tools count over one second,
divides by them per second. The
generated file lists what was left out and why, and so does the table
vendor_skipped, with each metric's groups. Two slips of Intel's Emerald
Rapids file are read as meant: a name written with blanks inside, and
an HBM_Bound it names but does not define (the part has no HBM: 0).
"""


import os
import sys

# (the modules beside this script, never compiled into the tree)
sys.dont_write_bytecode = True

from gen_common import *  # noqa: F401,F403
from gen_intel import *  # noqa: F401,F403
from gen_arm import *  # noqa: F401,F403


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else HERE
    rows = mapfile()
    files = {}
    for r in rows:
        plat = r["Filename"].strip("/").split("/")[0]
        if plat not in PLATFORMS:
            continue
        files.setdefault((r["Family-model"], r["Core Role Name"] or ""), {})[
            r["EventType"]] = r["Filename"].strip("/")
    tables, evtables, cpus = {}, {}, []
    uncores = {}
    for (fm, role), f in sorted(files.items()):
        plat = (f.get("core") or f.get("hybridcore") or "").split("/")[0]
        evrel = f.get("core") or f.get("hybridcore")
        if not evrel:
            continue
        if evrel not in evtables:
            evtables[evrel] = Events(evrel)
        ev = evtables[evrel]
        mt = None
        if f.get("metrics"):
            key = (f["metrics"], role)
            if key not in tables:
                tables[key] = Platform(f["metrics"], ev, role, plat,
                                       f.get("retire latency"))
                # (a hybrid's uncore row names no core role)
                intel_uncore_attach(tables[key], f.get("uncore") or files.get(
                    (fm, ""), {}).get("uncore"), uncores)
            mt = key
        elif (plat, role) in ECORE_COLUMN:
            key = ("E-core_TMA_Metrics.csv:" + ECORE_COLUMN[(plat, role)],
                   role)
            if key not in tables:
                tables[key] = ECore(ECORE_COLUMN[(plat, role)], ev, role, plat)
            mt = key
        fam, model, mask = cpuid_key(fm)
        cpus.append((fam, model, mask, role, plat, mt, evrel))
    arm = []
    arm_events = {}
    for rel, impl, part, rmin, rmax, events in ARM_CORES:
        key = ("arm/" + rel, "")
        tables[key] = ArmCore(rel, events)
        if events and events not in arm_events:
            arm_events[events] = ArmEvents(events)
        arm.append((impl, part, rmin, rmax, key, events))

    # Every string in one array, referred to by offset: tables of plain
    # numbers need no relocation when the program is loaded, so a run
    # that names no metric never touches them.
    blob, offs, size = [], {}, [0]

    def off(text):
        if text not in offs:
            offs[text] = size[0]
            size[0] += len(text.encode()) + 1
            blob.append(text)
        return offs[text]

    o, body = [], []
    w = body.append
    rows, mtabs = [], []
    tindex = {}
    comments = []
    order = {"Topdown": 7, "Info": 8, "Bottleneck": 9}
    for key, t in sorted(tables.items()):
        # (a row of no level and no such group last, in its table's order)
        ents = sorted(t.entries(), key=lambda r: order.get(r[0], r[2] or 10))
        levels = max([e[2] for e in ents] + [0])
        tindex[key] = len(mtabs)
        mtabs.append((off(t.tag), off(t.source()), len(rows), len(ents),
                      levels))
        comments.append("/* %d: %s */" % (len(mtabs) - 1, t.source()))
        for n, why in t.skipped:
            comments.append("/*   left out: %s: %s */" % (
                n, why.replace("*/", "* /")))
        for ent in ents:
            rows.append((off(ent[1]), off(ent[0]),
                         off(ent[4] if len(ent) > 4 else "")))
    events, etabs, eindex = [], [], {}
    for rel, ev in sorted(evtables.items()):
        tab = ev.table()
        eindex[rel] = len(etabs)
        etabs.append((off("Intel perfmon %s %s (BSD-3-Clause)" % (
            rel, ev.version)), len(events), len(tab)))
        for n, t in tab:
            events.append((off(n), off(t)))
    for rel, ev in sorted(arm_events.items()):
        tab = ev.table()
        eindex["arm/" + rel] = len(etabs)
        etabs.append((off(ev.source), len(events), len(tab)))
        for n, t in tab:
            events.append((off(n), off(t)))
    w("const struct vendor_metric_row vendor_rows[] = {")
    for d, g, gs in rows:
        w("\t{ %d, %d, %d }," % (d, g, gs))
    w("};")
    w("")
    intel_left_out(tables, tindex, off, w)
    w("const struct vendor_metrics vendor_tables[] = {")
    for plat, src, first, n, levels in mtabs:
        w("\t{ %d, %d, %d, %d, %d }," % (plat, src, first, n, levels))
    w("};")
    w("const size_t vendor_ntables = ARRAY_SIZE(vendor_tables);")
    w("")
    w("const struct vendor_event vendor_event_rows[] = {")
    for n, t in events:
        w("\t{ %d, %d }," % (n, t))
    w("};")
    w("")
    w("const struct vendor_events vendor_event_tables[] = {")
    for src, first, n in etabs:
        w("\t{ %d, %d, %d }," % (src, first, n))
    w("};")
    w("")
    w("/* mapfile.csv: family, model, steppings, core role, platform, metrics, events */")
    w("const struct vendor_cpu vendor_intel_cpus[] = {")
    for fam, model, mask, role, plat, mt, evrel in cpus:
        w("\t{ 0x%x, 0x%02x, 0x%04x, %d, %d, %d, %d }," % (
            fam, model, mask, off(role), off(plat),
            tindex[mt] if mt else -1, eindex[evrel]))
    w("};")
    w("const size_t vendor_intel_ncpus = ARRAY_SIZE(vendor_intel_cpus);")
    w("")
    w("/* Arm: implementer, part, revisions (variant << 4 | revision), metrics, events */")
    w("const struct vendor_arm_cpu vendor_arm_cpus[] = {")
    for impl, part, rmin, rmax, key, ev in arm:
        w("\t{ 0x%x, 0x%x, 0x%02x, 0x%02x, %d, %d }," % (
            impl, part, rmin, rmax, tindex[key],
            eindex["arm/" + ev] if ev else -1))
    w("};")
    w("const size_t vendor_arm_ncpus = ARRAY_SIZE(vendor_arm_cpus);")
    o.append("/* SPDX-License-Identifier: BSD-3-Clause AND Apache-2.0 */")
    o.append("/*")
    o.append(" * GENERATED by src/events/vendor/gen-tables.py from Intel's perfmon data")
    o.append(" * (src/events/vendor/intel/, BSD-3-Clause: intel/LICENSE) and Arm's")
    o.append(" * telemetry-solution (src/events/vendor/arm/, Apache-2.0). Do not edit:")
    o.append(" * change the generator or the data and run `make regen-metrics`.")
    o.append(" */")
    o.append('#include "base/util.h"')
    o.append('#include "events/vendor.h"')
    o.append("")
    o.extend(comments)
    o.append("")
    o.append("const char vendor_strings[] =")
    for text in blob:
        o.append("\t%s \"\\0\"" % cstr(text))
    o.append("\t;")
    o.append("")
    o.extend(body)
    path = os.path.join(out_dir, "vendor_tables.c")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(o) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
