#!/usr/bin/env python3
# kineto_expected.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Expected figures of the Chrome importer's PyTorch profiler (Kineto)
flavour, computed without it.

Reads each trace with Python's json module and applies the rules
docs/formats/frameworks.md states, written again from the document, not
from the C code:

  * devices are the processes whose process_labels is not "CPU" (named
    "<label> (<deviceProperties name>)" when a deviceProperties entry has
    the pid as its id); each of their threads named "stream N" (any case;
    "stream <tid>" when it has no name) is a stream, the others are
    threads like the CPU's;
  * a device's work is its X events of category kernel/Kernel/
    mtia_ccp_events, gpu_memcpy/Memcpy, gpu_memset/Memset; kinds as
    Holistic Trace Analysis names them (communication: name starts with
    nccl or hccl or holds ncclKernel; memory by category, or a name
    starting with Memcpy/Memset/dma; else compute);
  * operators are the X events of category cpu_op/Operator on other
    processes, ProfilerStep#N excepted, summed by name: count, CPU total
    (dur), CPU self (dur minus what the slices nested directly in it on
    its thread cover), device self (its kernels: the kernel's External id,
    else its runtime call's, found by correlation) and device total (its
    own and its nested ops' kernels);
  * busy = the union of a stream's (or a device's) work; idle = the gaps
    between its first start and last end, a gap being the host's wait
    when the next work's runtime call started after the gap began, else a
    kernel wait under 30 us, else other;
  * communication overlap = the time the union of compute work covers of
    the union of communication work, in percent of the latter;
  * per step (each ProfilerStep#N run): the operators whose call starts
    inside the step's [start, end), summed by name as above, each with
    the kernels it launched wherever they ran (count, total);
  * a device's wall time over a range: the union of its work cut at the
    range's ends (over the whole trace, its busy time): never a sum over
    its streams.

Usage: kineto_expected.py FILE... -> JSON {basename: {figure: value}}
"""
import gzip
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP

OP_CATS = {"cpu_op", "Operator"}
RUNTIME_CATS = {"cuda_runtime", "Runtime", "cuda_driver", "mtia_runtime", "privateuse1_runtime"}
KERNEL_CATS = {"kernel", "Kernel", "mtia_ccp_events"}
MEMCPY_CATS = {"gpu_memcpy", "Memcpy"}
MEMSET_CATS = {"gpu_memset", "Memset"}
KERNEL_WAIT_NS = 30000


def ns(value):
    """Microseconds (number or numeric string) to integer nanoseconds."""
    if value is None or isinstance(value, bool):
        return None
    v = (Decimal(str(value)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return int(v)


def load(path):
    with open(path, "rb") as f:
        head = f.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    if isinstance(doc, dict):
        return doc.get("traceEvents", []), doc
    return doc, {}


def int_arg(args, key):
    v = args.get(key) if isinstance(args, dict) else None
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        return None
    return v


def work_kind(cat, name):
    if cat in MEMCPY_CATS:
        return "memcpy"
    if cat in MEMSET_CATS:
        return "memset"
    if name.startswith("nccl") or name.startswith("hccl") or "ncclKernel" in name:
        return "communication"
    if name.startswith(("Memcpy", "hipMemcpy", "dma")):
        return "memcpy"
    if name.startswith(("Memset", "hipMemset")):
        return "memset"
    return "compute"


def union(spans):
    spans = sorted(spans)
    merged = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return merged


def busy_idle(works, launch_ts):
    """works: (start, end, corr), any order."""
    busy = 0
    idle = {"idle_host_wait": 0, "idle_kernel_wait": 0, "idle_other": 0}
    reach = None
    for start, end, corr in sorted(works, key=lambda w: (w[0], w[1])):
        if reach is not None and start > reach:
            gap = start - reach
            launch = launch_ts.get(corr) if corr is not None else None
            if launch is not None and launch > reach:
                idle["idle_host_wait"] += gap
            elif gap < KERNEL_WAIT_NS:
                idle["idle_kernel_wait"] += gap
            else:
                idle["idle_other"] += gap
        if reach is None or end > reach:
            busy += end - (start if reach is None else max(start, reach))
            reach = end
    idle["idle"] = sum(idle.values())
    idle["busy"] = busy
    return idle


def wall(spans, lo, hi):
    """The union of spans cut at [lo, hi)."""
    return sum(e - s for s, e in union([(max(s, lo), min(e, hi)) for s, e in spans if min(e, hi) > max(s, lo)]))


def ms(value):
    us = (value + 500) // 1000
    return "%d.%03d ms" % (us // 1000, us % 1000)


def details(s):
    """Summary's Details cell: CPU and device time, the three heaviest
    kernels (longest first, then by name; names cut at 60 characters)."""
    text = "CPU %s (self %s)" % (ms(s["cpu_total_ns"]), ms(s["cpu_self_ns"]))
    if s["device_total_ns"] > 0:
        text += ", device %s (self %s)" % (ms(s["device_total_ns"]), ms(s["device_self_ns"]))
    kernels = sorted(s["kernels"].items(), key=lambda kv: (-kv[1][1], kv[0].encode()))
    for i, (name, (count, total)) in enumerate(kernels[:3]):
        text += "; kernels: " if i == 0 else ", "
        text += (name[:59] + "\u2026") if len(name) > 60 else name
        text += " \u00d7%d %s" % (count, ms(total))
    if len(kernels) > 3:
        text += ", %d more" % (len(kernels) - 3)
    return text


def expected(path):
    events, doc = load(path)
    labels, names, thread_names = {}, {}, {}
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "M":
            continue
        args = e.get("args") or {}
        if e.get("name") == "process_labels" and isinstance(args.get("labels"), str):
            labels[e.get("pid")] = args["labels"]
        elif e.get("name") == "thread_name" and isinstance(args.get("name"), str):
            thread_names[(e.get("pid"), e.get("tid"))] = args["name"]
    models = {}
    for d in doc.get("deviceProperties", []) if isinstance(doc.get("deviceProperties"), list) else []:
        if isinstance(d, dict) and isinstance(d.get("id"), int) and "name" in d:
            models[d["id"]] = d["name"]
    devices = {pid: lab for pid, lab in labels.items() if lab and lab != "CPU"}

    threads = {}      # (pid, tid) -> [(start, -dur, order, event)]
    launches = {}     # correlation -> (ts, External id)
    for order, e in enumerate(events):
        if not isinstance(e, dict) or e.get("ph") != "X" or e.get("ts") is None:
            continue
        start = ns(e["ts"])
        dur = max(ns(e.get("dur", 0)) or 0, 0)
        threads.setdefault((e.get("pid", 0), e.get("tid", 0)), []).append((start, -dur, order, e))

    out = {"devices": {}, "streams": {}, "operators": {}, "runs": []}
    ops = []          # dicts
    works = []        # (device pid, stream name, start, end, ext, corr, kind, name)
    for (pid, tid), slices in threads.items():
        slices.sort(key=lambda s: (s[0], s[1], s[2]))
        name = (thread_names.get((pid, tid)) or "stream %s" % tid).strip()
        if pid in devices and re.fullmatch(r"[sS][tT][rR][eE][aA][mM] [0-9]+", name):
            for start, negdur, _, e in slices:
                cat = e.get("cat")
                if cat in KERNEL_CATS | MEMCPY_CATS | MEMSET_CATS:
                    args = e.get("args") or {}
                    works.append((pid, name, start, start - negdur, int_arg(args, "External id"),
                                  int_arg(args, "correlation"), work_kind(cat, e.get("name", "")), e.get("name")))
            continue
        stack = []    # [end, child, op or None]
        for start, negdur, _, e in slices:
            dur = -negdur
            end = start + dur
            while stack and stack[-1][0] <= start:
                top = stack.pop()
                if top[2] is not None:
                    top[2]["self"] = max(top[2]["dur"] - top[1], 0)
            if stack:
                stack[-1][1] += min(end, stack[-1][0]) - start
            cat, name = e.get("cat"), e.get("name", "")
            args = e.get("args") or {}
            op = None
            if isinstance(name, str) and name.startswith("ProfilerStep#") and cat not in RUNTIME_CATS | KERNEL_CATS | MEMCPY_CATS | MEMSET_CATS:
                out["runs"].append([name, start, end])
            elif cat in OP_CATS:
                parent = next((s[2] for s in reversed(stack) if s[2] is not None), None)
                op = {"name": name, "start": start, "dur": dur, "self": dur, "ext": int_arg(args, "External id"),
                      "parent": parent, "dev_self": 0, "dev_total": 0}
                ops.append(op)
            elif cat in RUNTIME_CATS and int_arg(args, "correlation") is not None:
                launches[int_arg(args, "correlation")] = (start, int_arg(args, "External id"))
            stack.append([end, 0, op])
        while stack:
            top = stack.pop()
            if top[2] is not None:
                top[2]["self"] = max(top[2]["dur"] - top[1], 0)

    op_of_ext = {op["ext"]: op for op in ops if op["ext"] is not None}
    sums = {}
    for op in ops:
        s = sums.setdefault(op["name"], {"count": 0, "cpu_total_ns": 0, "cpu_self_ns": 0,
                                         "device_self_ns": 0, "device_total_ns": 0, "kernels": {}})
        s["count"] += 1
        s["cpu_total_ns"] += op["dur"]
        s["cpu_self_ns"] += op["self"]
    linked = False
    for pid, stream, start, end, ext, corr, kind, kname in works:
        op = op_of_ext.get(ext)
        if op is None and corr in launches:
            op = op_of_ext.get(launches[corr][1])
        if op is None:
            continue
        linked = True
        op["dev_self"] += end - start
        up = op
        while up is not None:
            up["dev_total"] += end - start
            up = up["parent"]
        k = sums[op["name"]]["kernels"].setdefault(kname, [0, 0])
        k[0] += 1
        k[1] += end - start
    for op in ops:
        sums[op["name"]]["device_self_ns"] += op["dev_self"]
        sums[op["name"]]["device_total_ns"] += op["dev_total"]
    # per step: the ops that started in it, their own kernels' time
    out["step_operators"] = {}
    for step, lo, hi in out["runs"]:
        mine = {}
        for op in ops:
            if lo <= op["start"] < hi:
                m = mine.setdefault(op["name"], {"count": 0, "total": 0})
                m["count"] += 1
                m["total"] += op["dev_self"] if linked else op["self"]
        out["step_operators"][step] = mine
    for name, s in sums.items():
        s["total"] = s["device_self_ns"] if linked else s["cpu_self_ns"]
        s["details"] = details(s)
        s["kernels"] = {k: v for k, v in s["kernels"].items()}
    out["operators"] = sums
    out["linked"] = linked

    launch_ts = {c: v[0] for c, v in launches.items()}
    for pid, label in devices.items():
        mine = [w for w in works if w[0] == pid]
        if not mine:
            continue
        d = busy_idle([(w[2], w[3], w[5]) for w in mine], launch_ts)
        for kind in ("compute", "memcpy", "memset", "communication"):
            d[kind] = sum(w[3] - w[2] for w in mine if w[6] == kind)
        comm = union([(w[2], w[3]) for w in mine if w[6] == "communication"])
        comp = union([(w[2], w[3]) for w in mine if w[6] == "compute"])
        comm_time = sum(e - s for s, e in comm)
        if comm_time:
            shared = sum(max(0, min(a[1], b[1]) - max(a[0], b[0])) for a in comm for b in comp)
            d["comm_overlap"] = "%.2f %%" % (100.0 * shared / comm_time)
        d["name"] = "%s (%s)" % (label, models[pid]) if pid in models else label
        if pid in models:
            d["model"] = models[pid]
        streams = sorted({w[1] for w in mine})
        d["streams"] = len(streams)
        d["step_wall"] = {step: wall([(w[2], w[3]) for w in mine], lo, hi) for step, lo, hi in out["runs"]}
        d["stream_sum"] = sum(w[3] - w[2] for w in mine)
        out["devices"][label] = d
        for stream in streams:
            out["streams"]["%s %s" % (label, stream)] = busy_idle(
                [(w[2], w[3], w[5]) for w in mine if w[1] == stream], launch_ts)
    return out


def expected_onnxruntime(path):
    """ONNX Runtime's profile: one operator per node (its "Node" events
    named <node>_kernel_time: count, summed dur in ns, op_name and
    provider of its first), ordered by the node's first start then name;
    a run per "Session" event named model_run, in start order; and per
    run the same rows from the node events that start inside it."""
    events, _ = load(path)
    nodes, runs, calls = {}, [], []
    xs = sorted(((ns(e["ts"]), -max(ns(e.get("dur", 0)) or 0, 0), i, e) for i, e in enumerate(events)
                 if isinstance(e, dict) and e.get("ph") == "X" and e.get("ts") is not None),
                key=lambda x: x[:3])
    for start, negdur, _, e in xs:
        name, cat, args = e.get("name", ""), e.get("cat"), e.get("args") or {}
        if cat == "Session" and name == "model_run":
            runs.append(["model_run %d" % (len(runs) + 1), start, start - negdur])
        elif cat == "Node" and name.endswith("_kernel_time") and len(name) > len("_kernel_time"):
            n = nodes.get(name)
            if n is None:
                op = args.get("op_name") if isinstance(args.get("op_name"), str) else None
                provider = args.get("provider") if isinstance(args.get("provider"), str) else None
                n = nodes[name] = {"node": name[:-len("_kernel_time")], "op_name": op, "provider": provider,
                                   "first": start, "count": 0, "total": 0}
            n["count"] += 1
            n["total"] += -negdur
            calls.append((n, start, -negdur))

    def rows(table):
        order = sorted(table.values(), key=lambda n: (n["first"], n["node"].encode()))
        return [[i, n["node"], n["op_name"] or n["node"], n["count"], n["total"], n["provider"]]
                for i, n in enumerate(order)]

    per_run = {}
    for name, lo, hi in runs:
        table = {}
        for n, start, dur in calls:
            if lo <= start < hi:
                c = table.setdefault(n["node"], dict(n, first=start, count=0, total=0))
                c["first"] = min(c["first"], start)
                c["count"] += 1
                c["total"] += dur
        per_run[name] = rows(table)
    return {"operators": rows(nodes), "runs": runs, "run_operators": per_run}


def linked_kernels(doc, ext_ids):
    """The kernels, copies and sets the ops with these External ids
    launched: by their own External id when it is an op's, else by their
    runtime call's (a kernel's External id may be its correlation)."""
    op_ext = {e["args"].get("External id") for e in doc["traceEvents"]
              if e.get("cat") in OP_CATS and isinstance(e.get("args"), dict)}
    launched = {e["args"]["correlation"] for e in doc["traceEvents"]
                if e.get("cat") in RUNTIME_CATS and isinstance(e.get("args"), dict)
                and e["args"].get("External id") in ext_ids and "correlation" in e["args"]}
    work = KERNEL_CATS | MEMCPY_CATS | MEMSET_CATS
    return [e for e in doc["traceEvents"] if e.get("cat") in work and isinstance(e.get("args"), dict)
            and (e["args"].get("External id") in ext_ids
                 or (e["args"].get("External id") not in op_ext and e["args"].get("correlation") in launched))]


def main():
    result = {os.path.basename(p): expected(p) for p in sys.argv[1:]}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

