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

import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INTEL = os.path.join(HERE, "intel")

# The platforms whose files are committed: perfmon's directory names.
PLATFORMS = ["SKL", "SKX", "CLX", "HSW", "BDW", "ICL", "ICX", "TGL", "SPR", "EMR", "GNR", "ADL", "MTL", "ARL", "LNL", "SRF", "GRR"]

# The E-core TMA column for an (platform, core role) of a hybrid part.
ECORE_COLUMN = {
    ("ADL", "Atom"): "GRT",
    ("ADL", ""): "GRT",
    ("ARL", "Atom"): "ARL-SKT",
    ("ARL", "LowPower_Atom"): "CMT",
    ("LNL", "Atom"): "LNL-SKT",
    ("MTL", "Atom"): "CMT",
}

# The kernel's core PMU of each role (arch/x86/events/intel/core.c).
ROLE_PMU = {"": "$core", "Core": "$core", "Atom": "$atom",
            "LowPower_Atom": "$lowpower"}
ROLE_SUFFIX = {"": "", "Core": ".cpu_core", "Atom": ".cpu_atom",
               "LowPower_Atom": ".cpu_lowpower"}

# PERF_METRICS fields: the kernel's topdown-* events of the slots group.
PERF_METRICS = {
    "frontend_bound": "topdown-fe-bound",
    "bad_speculation": "topdown-bad-spec",
    "retiring": "topdown-retiring",
    "backend_bound": "topdown-be-bound",
    "heavy_operations": "topdown-heavy-ops",
    "branch_mispredicts": "topdown-br-mispredict",
    "fetch_latency": "topdown-fetch-lat",
    "memory_bound": "topdown-mem-bound",
}

# pstat's short names for TMA's first two levels.
SHORT = ["Frontend_Bound", "Bad_Speculation", "Backend_Bound", "Retiring",
         "Fetch_Latency", "Fetch_Bandwidth", "Branch_Mispredicts",
         "Machine_Clears", "Memory_Bound", "Core_Bound", "Light_Operations",
         "Heavy_Operations"]


# Arm cores: file, implementer, part, first and last revision
# (variant << 4 | revision) the file describes.
# The last is the core's events file of ARM-software/data (arm/data/).
ARM_CORES = [
    ("neoverse-n2-r0p0.json", 0x41, 0xD49, 0x00, 0x02, "neoverse-n2.json"),
    ("neoverse-n2-r0p3.json", 0x41, 0xD49, 0x03, 0xFF, "neoverse-n2.json"),
    ("neoverse-v1.json", 0x41, 0xD40, 0x00, 0xFF, "neoverse-v1.json"),
    ("neoverse-v2.json", 0x41, 0xD4F, 0x00, 0xFF, "neoverse-v2.json"),
    ("neoverse-n3.json", 0x41, 0xD8E, 0x00, 0xFF, "neoverse-n3.json"),
    ("neoverse-v3.json", 0x41, 0xD84, 0x00, 0xFF, "neoverse-v3.json"),
    # Lumex: ARM-software/data has no events file for them
    ("c1-ultra.json", 0x41, 0xD8C, 0x00, 0xFF, None),
    ("c1-premium.json", 0x41, 0xD90, 0x00, 0xFF, None),
    ("c1-pro.json", 0x41, 0xD8B, 0x00, 0xFF, None),
    ("c1-nano.json", 0x41, 0xD8A, 0x00, 0xFF, None),
]
ARM_HIGHER = {"retiring": "yes", "ipc": "yes"}

# perf's Default group on Arm (6.6 and later): the four level-1 metrics
# of its common arm64 table (pmu-events/arch/arm64/sbsa.json, tagged
# "Default;TopdownL1"), which each of perf's Neoverse tables takes with
# its own formula (ArchStdEvent). perf has no table for the Lumex C1
# cores, so no Default there.
ARM_DEFAULT = ("frontend_bound", "bad_speculation", "retiring",
               "backend_bound")
ARM_PERF_TABLES = ("neoverse-n2-r0p0.json", "neoverse-n2-r0p3.json",
                   "neoverse-v1.json", "neoverse-v2.json",
                   "neoverse-n3.json", "neoverse-v3.json")


def arm_default_groups(rel, name, level, names):
    """The groups field of an Arm row: where perf puts the metric in its
    Default group, every group of it and Default; else "" (the row's
    group says them all)."""
    if rel in ARM_PERF_TABLES and level == 1 and name in ARM_DEFAULT:
        return ";".join(names + ["Default"])
    return ""


# perf's Default group (its default output, no -e): TMA level 1 on the
# cores with slots (Ice Lake, Alder Lake and later; the E-cores' level 1
# too), level 2 as well on Sapphire Rapids and its successors
# (pmu-events' DefaultMetricgroupName). Skylake-class cores have none.
INTEL_NO_DEFAULT = ("SKL", "SKX", "CLX", "HSW", "BDW")
INTEL_DEFAULT_L2 = ("SPR", "EMR", "GNR")


def intel_default_levels(platform):
    """How many TMA levels perf's Default group holds on a platform."""
    if platform in INTEL_NO_DEFAULT:
        return 0
    return 2 if platform in INTEL_DEFAULT_L2 else 1


def intel_groups(metric_group, level, parent, default_levels):
    """A metric's groups as perf names them, ';'-separated: Intel's own
    (MetricGroup), and for a TMA node TopdownLn, tma_Ln_group, its
    parent's tma_<parent>_group, and Default where perf puts it."""
    out = [g.strip() for g in (metric_group or "").split(";") if g.strip()]
    if level:
        out += ["TopdownL%d" % level, "tma_L%d_group" % level]
        if parent:
            out.append("tma_%s_group" % parent.lower())
        if level <= default_levels:
            out.append("Default")
    seen = []
    for g in out:
        if g not in seen:
            seen.append(g)
    return ";".join(seen)


def intel_left_out(tables, tindex, off, w):
    """The metrics each Intel table left out, with their groups, so that
    -M GROUP can say which of the group's metrics it does not give."""
    w("/* Left out: table, name, groups, why */")
    w("const struct vendor_skipped vendor_skipped[] = {")
    for key, t in sorted(tables.items()):
        groups = getattr(t, "groups_of", None)
        if groups is None:
            continue
        for n, why in t.skipped:
            w("\t{ %d, %d, %d, %d }," % (
                tindex[key], off(t.mname(n)), off(groups.get(n, "")),
                off(why)))
    w("};")
    w("const size_t vendor_nskipped = ARRAY_SIZE(vendor_skipped);")
    w("")


class Skip(Exception):
    """A formula pstat cannot count: why."""


def first_sentence(text):
    """Up to the first full stop that ends a sentence ("e.g." does not)."""
    m = re.search(r"(?<!e\.g)(?<!i\.e)\.\s+[A-Z]", text)
    return text[:m.start()] if m else text


def read_json(rel):
    with open(os.path.join(INTEL, rel), encoding="utf-8") as f:
        return json.load(f)


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def num(s):
    s = (s or "0").split(",")[0].strip()
    return int(s, 16) if s.lower().startswith("0x") else int(s or "0")


class Events:
    """One core's events JSON: name -> pstat terms."""

    def __init__(self, rel):
        self.rel = rel
        doc = read_json(rel)
        self.version = doc["Header"].get("Version", "")
        self.ev = {}
        for e in doc["Events"]:
            self.ev[e["EventName"].upper()] = e

    def terms(self, name, mods=()):
        """The event's terms (event=..,umask=..), or Skip."""
        e = self.ev.get(name.upper())
        if e is None:
            raise Skip("event %s is not in %s" % (name, self.rel))
        code = num(e["EventCode"].split(",")[0])
        umask = num(e.get("UMask"))
        counter = e.get("Counter", "")
        # The fixed counters' pseudo-encodings (event 0, umask n) as the
        # kernel's fixed-counter constraints take them
        if counter.startswith("Fixed counter") and code == 0:
            if umask == 1:
                code, umask = 0xC0, 0
            elif umask == 2:
                code, umask = 0x3C, 0
        cmask, inv, edge = (num(e.get("CounterMask")), num(e.get("Invert")),
                            num(e.get("EdgeDetect")))
        anyt = num(e.get("AnyThread"))
        msr, msrval = (e.get("MSRIndex") or "0").lower(), num(e.get("MSRValue"))
        eq = num(e.get("Equal"))
        for m in mods:
            if m.startswith("u0x"):
                umask = int(m[1:], 16)
                continue
            if m.startswith("ocr_msr_val="):
                msrval = num(m.split("=", 1)[1])
                continue
            # counts cycles of exactly cmask, not at least (the kernel's
            # eq format term, Lion Cove and later)
            if re.fullmatch(r"eq\d+", m):
                eq = int(m[2:])
                continue
            if m.lower() == "percore":
                # perf sums such a count over the core's SMT siblings
                # only per CPU (-A); per thread or in total it is the
                # plain count, and Intel's ratios over it come out twice
                # their value with SMT on
                raise Skip("modifier :percore of %s (a sum over the SMT siblings of a core, made only per CPU)" % name)
            mm = re.fullmatch(r"([cei])(\d+)", m)
            if not mm:
                raise Skip("modifier :%s of %s" % (m, name))
            v = int(mm.group(2))
            if mm.group(1) == "c":
                cmask = v
            elif mm.group(1) == "e":
                edge = v
            else:
                inv = v
        # the extended umask (Lion Cove and later): the kernel's umask
        # format is then config:8-15,40-47, a 16-bit umask whose high
        # byte is UMaskExt
        umask |= num(e.get("UMaskExt")) << 8
        t = ["event=0x%x" % code, "umask=0x%x" % umask]
        if eq:
            t.append("eq=1")
        if cmask:
            t.append("cmask=%d" % cmask)
        if inv:
            t.append("inv=1")
        if edge:
            t.append("edge=1")
        if anyt:
            t.append("any=1")
        if msr.startswith("0x1a6"):
            t.append("offcore_rsp=0x%x" % msrval)
        elif msr == "0x3f6":
            t.append("ldlat=%d" % msrval)
        elif msr == "0x3f7":
            t.append("frontend=0x%x" % msrval)
        elif msr not in ("0", "0x00", "0x0"):
            raise Skip("event %s needs MSR %s" % (name, msr))
        return ",".join(t)

    def token(self, pmu, tok):
        """An event of a formula, "name:mod:...", as pstat's formula
        names it: pmu@terms@, with perf's k for :sup (kernel only) and u
        for :user (user only)."""
        parts = tok.split(":")
        mods = [m for m in parts[1:] if m.lower() not in ("sup", "user")]
        priv = [m.lower() for m in parts[1:] if m.lower() in ("sup", "user")]
        if len(priv) > 1:
            raise Skip("modifiers :%s of %s" % (":".join(priv), parts[0]))
        suffix = {"sup": "k", "user": "u"}.get(priv[0], "") if priv else ""
        return "%s@%s@%s" % (pmu, self.terms(parts[0], mods), suffix)

    def table(self):
        """Every event: (NAME, terms), by name."""
        out = []
        for name in sorted(self.ev):
            e = self.ev[name]
            if num(e.get("Deprecated")):
                continue
            try:
                out.append((name, self.terms(name)))
            except Skip:
                pass
        return out


TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:e\d+)?)"
                   r"|(?P<name>[A-Za-z_][A-Za-z0-9_.]*(?::[A-Za-z0-9_=]+)*)"
                   r"|(?P<op>[-+*/(),<>&|!=]=?))")


def tokens(text):
    pos, out = 0, []
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise Skip("cannot read %r" % text[pos:pos + 20])
        pos = m.end()
        out.append((m.lastgroup, m.group(m.lastgroup)))
    return out


# Intel's uncore "Unit" -> the kernel's uncore PMU name, each box a PMU
# of its own (uncore_imc_0, uncore_imc_1, ...; arch/x86/events/intel/
# uncore_snbep.c, uncore_snb.c), which perf's prefix match sums; the
# kernel's name of its threshold term ("thresh" on the server boxes,
# "cmask" on the client ARB).
UNCORE_PMU = {"iMC": ("uncore_imc", "thresh"), "IMC": ("uncore_imc", "thresh"),
              "CHA": ("uncore_cha", "thresh"), "UPI LL": ("uncore_upi", "thresh"),
              "ARB": ("uncore_arb", "cmask"), "IIO": ("uncore_iio", "thresh")}
# Where a platform's box has another format (Meteor Lake's ARB: the
# kernel's adl_uncore_format_group, "threshold")
UNCORE_THRESH = {("MTL", "ARB"): "threshold"}


class UncoreEvents:
    """One platform's uncore events JSON: name -> pmu@terms@."""

    def __init__(self, rel):
        self.rel = rel
        doc = read_json(rel)
        self.version = doc["Header"].get("Version", "")
        self.ev = {e["EventName"].upper(): e for e in doc["Events"]}

    def token(self, tok, plat=""):
        """An uncore event of a formula ("unc_m_cas_count.rd",
        "unc_cha_clockticks:one_unit", "...:c1") on its kernel PMU, or
        Skip."""
        parts = tok.split(":")
        e = self.ev.get(parts[0].upper())
        if e is None:
            raise Skip("uncore event %s is not in %s" % (parts[0], self.rel))
        unit = e.get("Unit", "")
        if unit not in UNCORE_PMU:
            raise Skip("uncore event %s of unit %s (no kernel PMU pstat maps it to)" % (parts[0], unit))
        pmu, thresh = UNCORE_PMU[unit]
        thresh = UNCORE_THRESH.get((plat, unit), thresh)
        # ("fc, chnl": an IIO event's ch_mask and fc_mask, below)
        if (e.get("Filter") or "na") not in ("na", "fc, chnl") or \
                num(e.get("FILTER_VALUE")):
            # the box filter register (Skylake-SP's CHA opcode filter)
            raise Skip("uncore event %s needs the %s filter %s" % (
                parts[0], unit, e.get("FILTER_VALUE")))
        code = num(e["EventCode"])
        # the kernel's umask format takes the extension above bit 8
        # (config:8-15,32-..): the 32-bit value Intel's UMaskExt:UMask
        umask = num(e.get("UMask")) | num(e.get("UMaskExt")) << 8
        t = ["event=0x%x" % code, "umask=0x%x" % umask]
        # an IIO event's ports and traffic classes: the kernel's ch_mask
        # and fc_mask terms (Skylake-SP's IIO boxes)
        if num(e.get("PortMask")) or num(e.get("FCMask")):
            if pmu != "uncore_iio":
                raise Skip("uncore event %s needs port and FC masks" % parts[0])
            t += ["ch_mask=0x%x" % num(e.get("PortMask")),
                  "fc_mask=0x%x" % num(e.get("FCMask"))]
        if num(e.get("CounterMask")):
            t.append("%s=%d" % (thresh, num(e.get("CounterMask"))))
        for m in parts[1:]:
            if m == "one_unit":
                # perf counts it on the first box only (one per socket)
                pmu += "_0"
            elif re.fullmatch(r"c\d+", m):
                t.append("%s=%d" % (thresh, int(m[1:])))
            else:
                raise Skip("modifier :%s of %s" % (m, parts[0]))
        return "%s@%s@" % (pmu, ",".join(t))


def intel_uncore_attach(platform, rel, cache):
    """Give platform its uncore events file (mapfile's "uncore" row),
    where it is committed."""
    platform.uncore = None
    if not rel or not os.path.exists(os.path.join(INTEL, rel)):
        return
    if rel not in cache:
        cache[rel] = UncoreEvents(rel)
    platform.uncore = cache[rel]


def intel_uncore_token(platform, tok, text):
    u = getattr(platform, "uncore", None)
    if u is None:
        raise Skip("uncore event %s: the platform's uncore events JSON is not committed" % tok.split(":")[0])
    if tok.endswith(":one_unit") and re.search(
            r"/\s*" + re.escape(tok) + r"\s*$", text):
        # Intel's DRAM read latencies divide cycles a request waited by
        # a box's clockticks, which its tools count over one second: a
        # rate. Over any other time (perf takes the formula as written)
        # that is off by the run's seconds; divided by the clockticks per
        # second, as Intel's MEM_Read_Latency does, it is nanoseconds.
        return "( %s / tma_info_system_time )" % u.token(tok, platform.tag)
    return u.token(tok, platform.tag)


def intel_uncore_source(platform):
    u = getattr(platform, "uncore", None)
    return "; uncore: %s %s" % (u.rel, u.version) if u else ""


class Platform:
    """One platform's metrics JSON, made into pstat definitions."""

    def __init__(self, rel, events, role, tag, latency=None):
        self.rel, self.events, self.role, self.tag = rel, events, role, tag
        doc = read_json(rel)
        self.header = doc["Header"]
        # Counting, not sampling, an event's retire latency is Intel's
        # measured mean for the platform (its retire latency file)
        self.latency_rel = latency
        self.latency = {}
        if latency:
            data = read_json(latency)["Data"]
            self.latency = {k.upper(): v["MEAN"] for k, v in data.items()}
        self.metrics = [m for m in doc["Metrics"] if m.get("Category") == "TMA"]
        self.skipped = []

    def mname(self, n):
        return "tma_" + n.lower() + ROLE_SUFFIX[self.role]

    def expr(self, text, known):
        # Skylake's core clocks with SMT on: the any-thread count needs
        # privileges and counts the sibling; Intel's own estimate from
        # the thread's clocks and the time it ran alone does not
        text = text.replace(
            "( cpu_clk_unhalted.thread_any / 2 ) if smt_on",
            "( cpu_clk_unhalted.thread / 2 * ( 1 + cpu_clk_unhalted.one_thread_active / cpu_clk_unhalted.ref_xclk ) ) if smt_on")
        # Emerald Rapids' file writes one name with blanks inside
        # ("tma_info_system  _smt_2t_utilization")
        text = re.sub(r"\b(tma_info_system)\s+(_smt_)", r"\1\2", text)
        out = []
        pmu = ROLE_PMU[self.role]
        for kind, tok in tokens(text):
            if kind != "name":
                out.append(tok)
                continue
            low = tok.lower()
            if low == "hbm_bound" and "tma_hbm_bound" not in known:
                # Emerald Rapids' bottlenecks name an HBM_Bound its file
                # does not define: the part has no HBM, so no memory
                # stall is HBM's (Sapphire Rapids' formulas have no term)
                out.append("0")
                continue
            if low in ("if", "else", "max", "min"):
                out.append(low)
            elif low == "smt_on":
                out.append("#smt_on")
            elif low == "num_cpus":
                out.append("#num_cpus")
            elif low == "duration_time":
                out.append("duration_time")
            elif low == "tsc":
                out.append("msr@tsc@")
            elif low.startswith("tma_"):
                if low not in known:
                    raise Skip("refers to %s, not in the file" % low)
                out.append(low + ROLE_SUFFIX[self.role])
            elif low.startswith("perf_metrics."):
                f = PERF_METRICS.get(low.split(".", 1)[1])
                if not f:
                    raise Skip(tok)
                out.append("%s@%s@" % (pmu, f))
            elif low == "topdown.slots:perf_metrics":
                out.append("%s@slots@" % pmu)
            elif low.endswith(":retire_latency"):
                ev = tok.split(":")[0].upper()
                if ev not in self.latency:
                    raise Skip("no retire latency of %s" % ev)
                out.append("%g" % self.latency[ev])
            elif low.startswith("unc_"):
                out.append(intel_uncore_token(self, tok, text))
            elif "." in low:
                out.append(self.events.token(pmu, tok))
            else:
                raise Skip("name %s" % tok)
        return " ".join(out)

    def threshold(self, m, legacy):
        t = m.get("Threshold") or {}
        text = (t.get("BaseFormula") or "").strip()
        if not text:
            return ""
        for lname in sorted(legacy, key=len, reverse=True):
            if lname in text:
                target, pct = legacy[lname]
                text = text.replace(lname, "(%s * 100)" % target if pct
                                    else target)
        if "metric_" in text:
            raise Skip("threshold names %r" % text)
        return text

    def entries(self):
        legacy = {}
        for m in self.metrics:
            legacy[m["LegacyName"]] = (
                self.mname(m["MetricName"]),
                m.get("UnitOfMeasure") == "percent")
        known = {"tma_" + m["MetricName"].lower() for m in self.metrics}
        done = {}
        for m in self.metrics:
            name = m["MetricName"]
            try:
                body = self.expr(m.get("BaseFormula", ""), known)
                thr = self.threshold(m, legacy)
                done[name] = (body, thr)
            except Skip as e:
                self.skipped.append((name, str(e)))
        # a metric over one left out is left out too
        while True:
            ok = {"tma_" + n.lower() + ROLE_SUFFIX[self.role] for n in done}
            bad = [n for n, (b, t) in done.items()
                   if any(r not in ok for r in re.findall(r"tma_[a-z0-9_.]+", b + " " + t))]
            if not bad:
                break
            for n in bad:
                self.skipped.append((n, "refers to a metric left out"))
                del done[n]
        rows, stack = [], []
        self.groups_of = {}
        for m in self.metrics:
            name = m["MetricName"]
            node = not name.startswith(("Info_", "Bottleneck_"))
            pct = m.get("UnitOfMeasure") == "percent"
            if node:
                while stack and stack[-1][0] >= m["Level"]:
                    stack.pop()
                stack.append((m["Level"], name))
            self.groups_of[name] = intel_groups(
                m.get("MetricGroup"), m["Level"] if node else 0,
                stack[-2][1] if node and len(stack) > 1 else None,
                intel_default_levels(self.tag))
            if name not in done:
                continue
            body, thr = done[name]
            if node:
                group = "TopdownL%d" % m["Level"]
            else:
                group = "Info" if name.startswith("Info_") else "Bottleneck"
            desc = first_sentence(m.get("BriefDescription") or "")
            desc = desc.replace(";", ",").replace("\n", " ").strip().rstrip(".")
            d = "%s = %s" % (self.mname(name), body)
            if pct:
                d += "; scale = 100; unit = %"
            if node:
                under_ret = stack[0][1] == "Retiring"
                d += "; higher = %s" % ("yes" if under_ret and name in (
                    "Retiring", "Light_Operations") else "no")
            if thr:
                d += "; threshold = " + thr
            if desc:
                d += "; desc = " + desc
            rows.append((group, d, m["Level"] if node else 0, name,
                         self.groups_of[name]))
        for s in SHORT:
            if s in done:
                rows.append(("Topdown", "%s%s = %s; scale = 100; unit = %%; desc = pstat's short name of %s" % (
                    s.lower(), ROLE_SUFFIX[self.role], self.mname(s),
                    self.mname(s)), 0, s))
        return rows

    def source(self):
        h = self.header
        lat = ""
        if self.latency_rel:
            lat = "; retire latencies (means): %s %s" % (
                self.latency_rel, read_json(self.latency_rel)["Platform"].get(
                    "TMA version", ""))
        return "Intel perfmon %s %s, TMA %s (BSD-3-Clause); encodings: %s %s%s%s" % (
            self.rel, h.get("Version", ""), h.get("TmaVersion", ""),
            self.events.rel, self.events.version, lat,
            intel_uncore_source(self))


class ECore:
    """One column of E-core_TMA_Metrics.csv, made into definitions."""

    def __init__(self, column, events, role, tag):
        self.column, self.events, self.role, self.tag = column, events, role, tag
        with open(os.path.join(INTEL, "E-core_TMA_Metrics.csv"),
                  encoding="utf-8-sig") as f:
            rows = list(csv.reader(f))
        self.version = rows[0][2]
        head = rows[2]
        col = head.index(column)
        self.rows = []
        self.aux = {}
        for r in rows[3:]:
            if len(r) <= col:
                continue
            if r[0] == "Aux":
                self.aux[r[1]] = r[col].strip()
            elif r[0] not in (".", ""):
                self.rows.append(r)
        self.col = col
        self.head = head
        self.skipped = []

    def mname(self, n):
        return "tma_" + n.lower().lstrip("%_") + ROLE_SUFFIX[self.role]

    def expand(self, text, depth=0):
        """#CLKS, #SLOTS, #Pipeline_Width spelled out."""
        if depth > 5:
            raise Skip("aux loop")
        def sub(m):
            key = m.group(0)
            v = self.aux.get(key)
            if v is None or v == "":
                raise Skip("%s unknown" % key)
            return "( " + self.expand(v, depth + 1) + " )"
        return re.sub(r"#[A-Za-z_]+", sub, text)

    def expr(self, text, known):
        text = self.expand(text)
        pmu = ROLE_PMU[self.role]
        out = []
        for kind, tok in tokens(text):
            if kind != "name":
                out.append(tok)
                continue
            if tok in known:
                out.append(known[tok])
            elif tok == "TSC":
                out.append("msr@tsc@")
            elif tok == "DurationTimeInMilliSeconds":
                out.append("( duration_time * 1000 )")
            elif "." in tok:
                out.append(self.events.token(pmu, tok))
            else:
                raise Skip("name %s" % tok)
        return " ".join(out)

    def entries(self):
        known, rows, parents = {}, [], {}
        lvl_name = {}
        i_thr = self.head.index("Threshold")
        i_desc = self.head.index("Metric Description")
        i_group = self.head.index("Metric Group")
        self.groups_of = {}
        for r in self.rows:
            node = r[0] in ("FE", "BAD", "BE", "RET")
            if node:
                level = next(i for i in (1, 2, 3) if r[i])
                name = r[level]
                lvl_name[level] = name
                parent = lvl_name.get(level - 1) if level > 1 else None
            else:
                level, name, parent = 0, r[1], None
            self.groups_of[name] = intel_groups(
                r[i_group], level, parent, 1)
            text = r[self.col].strip()
            if not text or text == "#NA":
                self.skipped.append((name, "#NA on %s" % self.column))
                continue
            try:
                body = self.expr(text, known)
            except Skip as e:
                self.skipped.append((name, str(e)))
                continue
            mn = self.mname(name)
            known[name] = mn
            d = "%s = %s" % (mn, body)
            if node:
                d += "; scale = 100; unit = %"
                d += "; higher = %s" % ("yes" if name == "Retiring" else "no")
                thr = r[i_thr].strip()
                m = re.fullmatch(r">\s*([0-9.]+)(\s*&\s*P)?", thr)
                if m:
                    d += "; threshold = %s > %s" % (mn, m.group(1))
                    if m.group(2) and parent in known:
                        # the parent's own condition (TMA's "& P")
                        pm = re.search(r"threshold = (.*?)(;|$)",
                                       parents[parent]).group(1)
                        d += " & " + pm
            desc = first_sentence(r[i_desc]).replace(";", ",").strip().rstrip(".")
            if desc:
                d += "; desc = " + desc
            if node:
                parents[name] = d
            group = "TopdownL%d" % level if node else "Info"
            rows.append((group, d, level, name, self.groups_of[name]))
        return rows

    def source(self):
        return "Intel perfmon E-core_TMA_Metrics.csv version %s, column %s (BSD-3-Clause); encodings: %s %s" % (
            self.version, self.column, self.events.rel, self.events.version)


class ArmEvents:
    """One core's events file of ARM-software/data: name -> code."""

    def __init__(self, rel):
        with open(os.path.join(HERE, "arm", "data", rel), encoding="utf-8") as f:
            doc = json.load(f)
        self.source = "ARM-software/data pmu/%s (Apache-2.0)" % rel
        self.codes = {e["name"]: e["code"] for e in doc["events"]}

    def table(self):
        return [(n, "event=0x%x" % c) for n, c in sorted(self.codes.items())]


class ArmCore:
    """One Arm core's extract of Arm's telemetry data: every metric it
    defines. Top-down levels come from the methodology's decision tree
    (its root nodes are level 1, the metrics their next_items name level
    2, and so on: TopdownL1..TopdownLn, perf's names); every metric is
    also in the metric groups Arm puts it in (MPKI, Miss_Ratio,
    Topdown_Frontend, ...), "Topdown_L1" spelled TopdownL1 as perf does."""

    def __init__(self, rel, events):
        self.rel = rel
        with open(os.path.join(HERE, "arm", rel), encoding="utf-8") as f:
            self.doc = json.load(f)
        data = {}
        if events:
            with open(os.path.join(HERE, "arm", "data", events),
                      encoding="utf-8") as f:
                data = {e["name"]: e["code"] for e in json.load(f)["events"]}
        # The codes of the extract's own events (Arm's telemetry data);
        # where ARM-software/data has the event too, the two agree
        self.codes = {}
        for name, e in self.doc["events"].items():
            code = int(e["code"], 16)
            if name in data and data[name] != code:
                raise SystemExit("%s: %s is 0x%x, ARM-software/data 0x%x" % (
                    rel, name, code, data[name]))
            self.codes[name] = code
        self.tag = self.doc["product_configuration"]["product_name"]
        self.skipped = []

    def levels(self):
        """Metric name -> its top-down level, from the decision tree."""
        tree = self.doc["methodologies"]["topdown_methodology"][
            "decision_tree"]
        nodes = {m["name"]: m for m in tree["metrics"]}
        level = {n: 1 for n in tree["root_nodes"]}
        todo = list(tree["root_nodes"])
        while todo:
            n = todo.pop(0)
            for c in nodes.get(n, {}).get("next_items", []):
                if c in self.doc["metrics"] and c not in level:
                    level[c] = level[n] + 1
                    todo.append(c)
        return level

    def entries(self):
        level = self.levels()
        groups = {}
        order = {}
        for i, (g, v) in enumerate(self.doc["groups"]["metrics"].items()):
            for n in v["metrics"]:
                order.setdefault(n, i)
                if g != "Topdown_L1":
                    groups.setdefault(n, []).append(g)
        rows = []
        for name, m in self.doc["metrics"].items():
            lv = level.get(name, 0)
            names = (["TopdownL%d" % lv] if lv else []) + groups.get(name, [])
            if not names:
                self.skipped.append((name, "in no metric group"))
                continue
            try:
                body = re.sub(r"[A-Z][A-Z0-9_]*", self.event, m["formula"])
            except Skip as e:
                self.skipped.append((name, str(e)))
                continue
            d = "%s = %s" % (name, body)
            unit = m["units"]
            d += "; unit = %s" % ("%" if unit.startswith("percent") else unit)
            higher = self.higher(name, lv, groups.get(name, []))
            if higher:
                d += "; higher = " + higher
            desc = first_sentence(m["description"].replace("\n", " "))
            d += "; desc = " + desc.replace(";", ",").rstrip(".")
            rows.append((";".join(names), d, lv, name,
                         arm_default_groups(self.rel, name, lv, names)))
        # the levels in order, then the others by their first group
        rows.sort(key=lambda r: (r[2] or 99, order.get(r[3], 0)))
        return rows

    @staticmethod
    def higher(name, level, groups):
        """Whether more is better, where it is clear: slots retiring and
        instructions a cycle yes; stalls, misses and walks no."""
        if name in ARM_HIGHER:
            return ARM_HIGHER[name]
        if level or set(groups) & {"MPKI", "Miss_Ratio", "Cycle_Accounting"}:
            return "no"
        return ""

    def event(self, m):
        """A common event by the kernel's alias (its name in lower case,
        listed where the core has it); another by its code on the core
        PMU, from Arm's data."""
        name = m.group(0)
        code = self.codes.get(name)
        if code is None:
            raise Skip("event %s is not in the core's events" % name)
        if code < 0x40 or 0x4000 <= code < 0x4040:
            return name.lower()
        return "$core@event=0x%x@" % code

    def source(self):
        x = self.doc["extracted_from"]
        return "Arm telemetry-solution %s at %s, data %s (Apache-2.0), extract src/events/vendor/arm/%s" % (
            x["path"], x["commit"][:12], self.doc["document"]["sha1"][:7],
            self.rel)


def mapfile():
    with open(os.path.join(INTEL, "mapfile.csv"), encoding="utf-8") as f:
        return list(csv.DictReader(f))


def cpuid_key(fm):
    """'GenuineIntel-6-55-[01234]' -> (family, model, stepping mask)."""
    parts = fm.split("-")
    fam, model = int(parts[1], 16), int(parts[2], 16)
    mask = 0xFFFF
    if len(parts) > 3:
        m = re.fullmatch(r"\[([0-9A-Fa-f]+)\]", parts[3])
        steps = m.group(1) if m else parts[3]
        mask = 0
        for ch in steps:
            mask |= 1 << int(ch, 16)
    return fam, model, mask


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
