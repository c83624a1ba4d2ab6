# SPDX-License-Identifier: MIT
"""What gen-tables.py's Intel and Arm parts share: paths, reading the
vendors' files, C literals, the formula tokenizer."""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
INTEL = os.path.join(HERE, "intel")


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
