#!/usr/bin/env python3
# gen-compare-runs.py: two runs to compare, B with regressions planted
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two runs whose comparison has findings, for the tests of the two-run
insights (test-insights.py, test-compare-findings):

  gen-compare-runs.py kineto TRACE.json[.gz] A.json B.json
      A: the PyTorch profiler trace as it is (tests/data/kineto's real
      nccl_data.json.gz); B: a copy in which one operator's kernels, copies
      and sets last twice as long (every call of it) and the last step
      (ProfilerStep#N) lasts 30 % longer. Prints {"operator", "step"} as JSON.

  gen-compare-runs.py poplar A_DIR B_DIR
      B_DIR: a copy of gen-poplar-tiles.py's run in A_DIR whose listing
      gives tile 3 of IPU 0 600,000 more bytes of .data (past its limit).
"""

import gzip
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kineto_expected  # noqa: E402

GROWN_BYTES = 600_000
STEP_FACTOR = 1.3


def kineto(src, a_path, b_path):
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    with open(a_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    exp = kineto_expected.expected(a_path)
    step, _, _ = exp["runs"][-1]
    ops = exp["step_operators"][step]
    step_total = sum(o["total"] for o in ops.values())
    # the heaviest op of the step that is no step-long wrapper
    op = max((k for k, o in ops.items() if 0.01 * step_total <= o["total"] <= 0.25 * step_total),
             key=lambda k: ops[k]["total"])
    calls = {e["args"]["External id"] for e in doc["traceEvents"]
             if e.get("name") == op and e.get("cat") in kineto_expected.OP_CATS
             and isinstance(e.get("args"), dict) and "External id" in e["args"]}
    for e in kineto_expected.linked_kernels(doc, calls):
        e["dur"] = e["dur"] * 2
    for e in doc["traceEvents"]:
        if e.get("name") == step and e.get("ph") == "X" and e.get("cat") == "user_annotation":
            e["dur"] = e["dur"] * STEP_FACTOR
    with open(b_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    print(json.dumps({"operator": op, "step": step}))


def poplar(a_dir, b_dir):
    shutil.copytree(a_dir, b_dir)
    listing = os.path.join(b_dir, "archive_size.txt")
    with open(listing) as f:
        text = f.read()
    member = "ipu0_tile3.elf   (ex archive.a):\n"
    head, rest = text.split(member, 1)
    block, tail = rest.split("\n\n\n", 1)
    grown = []
    for line in block.split("\n"):
        parts = line.split()
        if parts and parts[0] == ".data":
            line = "%-20s%10d%10s" % (".data", int(parts[1]) + GROWN_BYTES, parts[2])
        elif parts and parts[0] == "Total":
            line = "%-20s%10d" % ("Total", int(parts[1]) + GROWN_BYTES)
        grown.append(line)
    with open(listing, "w") as f:
        f.write(head + member + "\n".join(grown) + "\n\n\n" + tail)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "kineto":
        kineto(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "poplar":
        poplar(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
