#!/usr/bin/env python3
# search_expected.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the trace search finds, computed without Tessera: every slice of a
Chrome trace whose name, category or argument text holds a pattern.

Reads the file with Python's json module and applies the rule the search
states (model/tes-report-search.c, docs/cache-schema.md): a plain pattern
matches a name, category or args text holding it as a substring without
regard to ASCII case (bytes.lower(): ASCII letters only); a pattern given as
re:PATTERN is a regular expression, caseless (ASCII), searched anywhere in
the text; an empty args text never matches. The args text is the compact
JSON the importer keeps (docs/chrome-importer.md): the trace must write its
args compact, as bench/gen-chrome-trace.py does (checked here, line by
line). X events are slices; a B and its E (per pid and tid, in file order)
are one, with B's name, category and args (the generator writes E bare).

Usage: search_expected.py TRACE PATTERN... -> JSON {pattern: [[start_ns,
name], ...] sorted}
"""
import json
import re
import sys
from decimal import Decimal


def ns(value):
    return int(Decimal(value) * 1000)


def main():
    path = sys.argv[1]
    patterns = sys.argv[2:]
    slices = []                      # (start_ns, name, cat, args text)
    open_b = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip().rstrip(",")
            if not line.startswith("{\"ph\""):
                continue
            ev = json.loads(line, parse_float=Decimal)
            ph = ev["ph"]
            if ph not in ("X", "B", "E"):
                continue
            args = ev.get("args")
            text = json.dumps(args, separators=(",", ":")) if args else ""
            if args and text not in line:
                raise SystemExit("args not compact in the trace: %s" % line)
            key = (ev.get("pid"), ev.get("tid"))
            if ph == "X":
                slices.append((ns(ev["ts"]), ev["name"], ev.get("cat", ""), text))
            elif ph == "B":
                open_b.setdefault(key, []).append((ns(ev["ts"]), ev["name"], ev.get("cat", ""), text))
            elif open_b.get(key):
                if ev.get("args"):
                    raise SystemExit("an E with args: not what this script reads")
                slices.append(open_b[key].pop())
    if any(open_b.values()):
        raise SystemExit("a B without its E: not what this script reads")

    out = {}
    for pattern in patterns:
        if pattern.startswith("re:"):
            rx = re.compile(pattern[3:].encode(), re.IGNORECASE | re.ASCII)
            hit = lambda t: bool(rx.search(t.encode()))            # noqa: E731
        else:
            folded = pattern.encode().lower()
            hit = lambda t: folded in t.encode().lower()            # noqa: E731
        found = [[start, name] for start, name, cat, text in slices
                 if hit(name) or hit(cat) or (text != "" and hit(text))]
        out[pattern] = sorted(found)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
