# SPDX-License-Identifier: MIT
"""gen-tables.py's Arm part: telemetry-solution's per-core metrics and
top-down tree, ARM-software/data's events (see gen-tables.py)."""

import json
import os
import re

from gen_common import *  # noqa: F401,F403

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
