# SPDX-License-Identifier: MIT
"""gen-tables.py's Intel part: perfmon's metrics, core and uncore
events, E-core TMA and mapfile (see gen-tables.py)."""

import csv
import os
import re

from gen_common import *  # noqa: F401,F403

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
