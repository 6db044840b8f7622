#!/usr/bin/env python3
# tensorflow_expected.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Expected figures of the Chrome importer's TensorFlow flavours, computed
without it.

Reads each trace with Python's json module and applies the rules
docs/formats/frameworks.md states, written again from the document, not
from the C code:

  * TF2 profiler (trace viewer JSON): a process named "/host:..." holds
    the host's threads; one named "/device:GPU:N" is the device "GPU N",
    its threads named "Stream #..." its streams, "Steps" its steps,
    "TensorFlow Ops" and "XLA Ops" its derived op lanes; a host event
    named "<name>:<Type>" (Type a letter or _ then letters, digits, _; no
    "::" anywhere) is a call of op <name>; a kernel names its op by its
    args "tf_op" (else "level 0") written the same way;
  * TF1 timeline: a process "<path> Compute" whose path ends in a device
    ("/device:GPU:0", "/gpu:0", "/cpu:0") holds the executor's ops (args
    "name" the op, "op" its type); "<device>/stream:N Compute" is stream
    "stream N" of that device and its events are kernels named by args
    "name"; "stream:all" and "memcpy" repeat the streams;
  * an op's CPU time is the sum of its calls' dur, its self time each
    call's dur minus what the slices directly inside it on its thread
    cover; its device time the sum of its kernels' dur, or, when no
    kernel names an op, of its events on the TensorFlow Ops lane (their
    long_name); an op's row total is its device time when it has
    device events, else its CPU self time; XLA ops (XLA Ops lane, type the name
    without its ".N") are rows only when no TF op has device time;
  * a device's busy time is the union of its streams' events;
  * runs: the events of the first device's Steps lane ("Step N" when the
    name is a number); without one, TF2 host events whose args have
    step_num and _r 1 ("Step <step_num>"), by start;
  * per step: the same rows from the ops' calls, kernels and lane events
    of the step, in the order they first ran in it: an event whose
    group_id (TF2) is the step's (its Steps event's, or its marker's), or,
    when either has none, one that starts inside the step's [start, end).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kineto_expected import load, ms, ns, union  # noqa: E402

OP_TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
DEVICE = re.compile(r"(?:device:)?([A-Za-z_]+):(\d+)\Z")


def split_op(text):
    if not isinstance(text, str) or "::" in text or ":" not in text:
        return None
    name, typ = text.rsplit(":", 1)
    if not name or not OP_TYPE.match(typ):
        return None
    return name, typ


def tf1_lane(process):
    """(kind, device, name) of a TF1 process, kind None when no lane."""
    if not isinstance(process, str) or not process.endswith(" Compute"):
        return None, None, None
    parts = process[:-len(" Compute")].split("/")
    for i in range(len(parts) - 1, 0, -1):
        m = DEVICE.match(parts[i])
        if m and m.group(1) != "stream":
            label = "%s %s" % (m.group(1).upper(), m.group(2))
            rest = parts[i + 1:]
            if not rest:
                return "host", label, None
            if label.startswith("CPU "):
                return None, None, None
            if rest == ["stream:all"]:
                return "view", label, "stream:all"
            if rest == ["memcpy"]:
                return "view", label, "memcpy"
            if len(rest) == 1 and re.match(r"stream:\d+\Z", rest[0]):
                return "stream", label, "stream " + rest[0][len("stream:"):]
            return "view", label, "/".join(rest)
    return None, None, None


def tf2_device(process):
    if not isinstance(process, str) or not process.startswith("/device:"):
        return None
    m = re.match(r"([A-Za-z_]+):(\d+)", process[len("/device:"):])
    return "%s %s" % (m.group(1).upper(), m.group(2)) if m else None


def flavour(procs):
    for name in procs.values():
        if isinstance(name, str) and (name.startswith("/host:") or (
                tf2_device(name) and not name.endswith((" Compute", " Tensors")))):
            return "TensorFlow Profiler"
    for name in procs.values():
        if tf1_lane(name)[0] is not None:
            return "TensorFlow Timeline (TF1)"
    return None


def expected(path):
    events, _ = load(path)
    procs, threads, order = {}, {}, []
    for e in events:
        if isinstance(e, dict) and e.get("ph") == "M":
            if e.get("name") == "process_name":
                procs[e["pid"]] = e["args"]["name"]
            elif e.get("name") == "thread_name":
                threads[(e["pid"], e["tid"])] = e["args"]["name"]
    for e in events:
        if isinstance(e, dict) and e.get("pid") is not None and e["pid"] not in order:
            order.append(e["pid"])
    fl = flavour(procs)
    tf1 = fl == "TensorFlow Timeline (TF1)"

    def lane(pid, tid):
        process = procs.get(pid)
        if tf1:
            return tf1_lane(process)
        dev = tf2_device(process)
        if dev is not None:
            t = threads.get((pid, tid))
            kind = ("stream" if t and t.startswith("Stream #") else "steps" if t == "Steps"
                    else "tf_ops" if t == "TensorFlow Ops" else "xla_ops" if t == "XLA Ops" else "view")
            return kind, dev, t
        if isinstance(process, str) and process.startswith("/host:"):
            return "host", None, None
        return None, None, None

    # X events per thread, in start order, ties longest first
    by_thread = {}
    for i, e in enumerate(events):
        if isinstance(e, dict) and e.get("ph") == "X":
            s, d = ns(e["ts"]), ns(e.get("dur", 0)) or 0
            by_thread.setdefault((e["pid"], e["tid"]), []).append((s, -d, i, e))

    ops, xla, spans, streams, steps_device, runs, host_steps = {}, {}, {}, {}, None, [], []
    groups = []       # each run's group_id
    events = []       # what each op did once: [kind, op, start, dur, self or kernel name, group_id]

    def group_of(e):
        g = (e.get("args") or {}).get("group_id")
        if tf1 or isinstance(g, bool) or g is None:
            return None
        m = re.match(r"\d+", str(g))
        return int(m.group(0)) if m else None
    stream_spans = {}

    def op(table, name, typ, start):
        o = table.get(name)
        if o is None:
            o = table[name] = {"name": name, "type": typ, "first": start, "calls": 0, "cpu_total": 0,
                               "cpu_self": 0, "kernels": 0, "kernel_ns": 0, "lane": 0, "lane_ns": 0,
                               "by_name": {}}
        o["first"] = min(o["first"], start)
        if o["type"] is None:
            o["type"] = typ
        return o

    def op_of(e, kernel, start):
        args = e.get("args") or {}
        if tf1:
            if not isinstance(args.get("name"), str):
                return None
            return op(ops, args["name"], args.get("op") if isinstance(args.get("op"), str) else None, start)
        nt = split_op((args.get("tf_op", args.get("level 0")) if kernel else e.get("name")))
        return op(ops, nt[0], nt[1], start) if nt else None

    # the first device (in the order the processes come) with a Steps lane
    for pid in order:
        for (p, t), evs in sorted(by_thread.items()):
            if p == pid and steps_device is None and lane(p, t)[0] == "steps":
                steps_device = lane(p, t)[1]

    for (pid, tid), evs in sorted(by_thread.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1])):
        kind, dev, name = lane(pid, tid)
        evs.sort(key=lambda x: x[:3])
        if kind == "stream":
            streams.setdefault(dev, set()).add(name)
        if kind == "host":
            # self time: the direct children's coverage, as a stack
            stack = []
            for s, negd, _, e in evs:
                d = -negd
                while stack and stack[-1][0] <= s:
                    end, child, o, dur, ev = stack.pop()
                    if o is not None:
                        o["cpu_self"] += max(dur - child, 0)
                        ev[4] = max(dur - child, 0)
                if stack:
                    stack[-1][1] += min(s + d, stack[-1][0]) - s
                a = e.get("args") or {}
                if not tf1 and "step_num" in a and str(a.get("_r")) == "1":
                    host_steps.append([s, s + d, "Step %s" % a["step_num"], group_of(e)])
                o = op_of(e, False, s)
                ev = None
                if o is not None:
                    o["calls"] += 1
                    o["cpu_total"] += d
                    ev = ["call", o, s, d, d, group_of(e)]
                    events.append(ev)
                stack.append([s + d, 0, o, d, ev])
            while stack:
                end, child, o, dur, ev = stack.pop()
                if o is not None:
                    o["cpu_self"] += max(dur - child, 0)
                    ev[4] = max(dur - child, 0)
        for s, negd, _, e in evs:
            d = -negd
            if kind == "stream":
                spans.setdefault(dev, []).append((s, s + d))
                stream_spans.setdefault((dev, name), []).append((s, s + d))
                o = op_of(e, True, s)
                if o is not None:
                    o["kernels"] += 1
                    o["kernel_ns"] += d
                    k = o["by_name"].setdefault(e.get("name", ""), [0, 0])
                    k[0] += 1
                    k[1] += d
                    events.append(["kernel", o, s, d, e.get("name", ""), group_of(e)])
            elif kind == "tf_ops":
                nt = split_op((e.get("args") or {}).get("long_name") or e.get("name"))
                if nt:
                    o = op(ops, nt[0], nt[1], s)
                    o["lane"] += 1
                    o["lane_ns"] += d
                    events.append(["lane", o, s, d, None, group_of(e)])
            elif kind == "xla_ops":
                n = e.get("name")
                base, dot, num = n.rpartition(".")
                o = op(xla, n, base if dot and base and num.isdigit() else n, s)
                o["lane"] += 1
                o["lane_ns"] += d
                o["xla"] = True
                events.append(["lane", o, s, d, None, group_of(e)])
            elif kind == "steps" and dev == steps_device:
                n = e.get("name")
                runs.append(["Step %s" % n if n.isdigit() else n or "Step", s, s + d])
                groups.append(group_of(e))

    if not runs:
        marks = sorted(host_steps, key=lambda r: (r[0], r[1]))
        runs = [[name, s, e] for s, e, name, g in marks]
        groups = [g for s, e, name, g in marks]
    kernels_named = any(o["kernels"] for o in ops.values())
    lane_time = not kernels_named and any(o["lane"] for o in ops.values())
    device_time = kernels_named or lane_time

    def details(o, dev, n_dev, by_kernels):
        """Summary's Details cell: CPU time, device time, the three
        heaviest kernels (longest first, then by name; names cut at 60)."""
        text = ""
        if o["calls"]:
            text = "CPU %s (self %s)" % (ms(o["cpu_total"]), ms(o["cpu_self"]))
        if n_dev:
            unit = ("kernel" if n_dev == 1 else "kernels") if by_kernels else ("event" if n_dev == 1 else "events")
            text += "%sdevice %s (%d %s)" % (", " if text else "", ms(dev), n_dev, unit)
        if by_kernels:
            kernels = sorted(o["by_name"].items(), key=lambda kv: (-kv[1][1], kv[0].encode()))
            for i, (name, (count, total)) in enumerate(kernels[:3]):
                text += "; kernels: " if i == 0 else ", "
                text += (name[:59] + "\u2026") if len(name) > 60 else name
                text += " \u00d7%d %s" % (count, ms(total))
            if len(kernels) > 3:
                text += ", %d more" % (len(kernels) - 3)
        return text

    def rows(table, by_kernels):
        out = []
        for o in sorted(table.values(), key=lambda o: (o["first"], o["name"].encode())):
            dev = o["kernel_ns"] if by_kernels else o["lane_ns"]
            n_dev = o["kernels"] if by_kernels else o["lane"]
            out.append({"name": o["name"], "type": o["type"] or o["name"],
                        "count": o["calls"] if o["calls"] else n_dev,
                        "total": dev if n_dev else o["cpu_self"],
                        "cpu_total_ns": o["cpu_total"], "cpu_self_ns": o["cpu_self"],
                        "device_ns": dev, "device_events": n_dev,
                        "kernels": o["by_name"] if by_kernels else {},
                        "details": details(o, dev, n_dev, by_kernels)})
        return out

    operators = rows(ops, kernels_named)
    if not device_time and xla:
        operators += rows(xla, False)
        how = "XLA ops: device time (the XLA Ops lane); TF ops: CPU self time"
    elif kernels_named:
        how = "device time (the kernels each op launched), else CPU self time"
    elif lane_time:
        how = "device time (the TensorFlow Ops lane), else CPU self time"
    else:
        how = "CPU self time (no kernel names its op)"

    # per step: each op's events that start inside the step, summed again
    step_operators = {}
    for (step, lo, hi), group in zip(runs, groups):
        tables = ({}, {})
        for kind, o, s, d, extra, g in events:
            if (g != group) if g is not None and group is not None else not lo <= s < hi:
                continue
            table = tables[1] if o.get("xla") else tables[0]
            c = op(table, o["name"], o["type"], s)
            if kind == "call":
                c["calls"] += 1
                c["cpu_total"] += d
                c["cpu_self"] += extra
            elif kind == "kernel":
                c["kernels"] += 1
                c["kernel_ns"] += d
                k = c["by_name"].setdefault(extra, [0, 0])
                k[0] += 1
                k[1] += d
            else:
                c["lane"] += 1
                c["lane_ns"] += d
        step_operators[step] = rows(tables[0], kernels_named) + (rows(tables[1], False) if not device_time else [])

    devices = {}
    for dev in streams:
        busy = sum(e - s for s, e in union(spans.get(dev, [])))
        devices[dev] = {"busy": busy, "streams": sorted(streams[dev]),
                        "stream_busy": {n: sum(e - s for s, e in union(stream_spans[(dev, n)]))
                                        for n in streams[dev]}}
    # TF1's executor processes are named after their device
    executors = set()
    if tf1:
        for (p, t) in by_thread:
            kind, label, _ = tf1_lane(procs.get(p))
            if kind == "host":
                name = procs[p]
                executors.add("%s ops" % label if name.startswith("/job:localhost/") else
                              "%s %s ops" % (name[:name.find("/device:") if "/device:" in name else name.rfind("/")],
                                             label))
    return {"executors": sorted(executors), "flavour": fl, "operators": operators, "operator_time": how, "runs": runs, "devices": devices,
            "step_operators": step_operators,
            "device_tracks": sorted({lane(p, t)[1] for (p, t) in by_thread if lane(p, t)[1] and lane(p, t)[0] != "host"})}


if __name__ == "__main__":
    import json
    json.dump({os.path.basename(p): expected(p) for p in sys.argv[1:]}, sys.stdout, indent=1)
    sys.stdout.write("\n")
