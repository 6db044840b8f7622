#!/usr/bin/env python3
# chrome_expected.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Expected figures of the Chrome Trace Event importer, computed without it.

Reads each file with Python's json module (the whole document in memory,
numbers as exact Decimals) and applies the rules docs/chrome-importer.md
states, written again from the document, not from the C code:

  * ts/dur are microseconds; nanoseconds = round half up (value * 1000);
  * X is a slice (missing dur = 0, negative dur = 0); B/E are matched per
    (pid, tid) as a stack in file order; an E without B is dropped; a B
    without E ends at the end of the trace (the largest ts or ts + dur of
    any timed event) and is unclosed;
  * i/I/R are instants; C gives one counter series per (pid, name, id,
    numeric arg); M names things;
  * b/e/n (one track per (pid unless id2.global, cat, id)), S/T/p/F
    (matched by (cat, name, id)) and s/t/f flows ((cat, name, id)) and
    bind_id flow_out -> flow_in are matched in (ts, file order);
  * a track's depth comes from sorting its slices by (start, -dur) and
    nesting each in the closest earlier one it starts inside (a zero-length
    slice at the same start is inside too);
  * SigmaStar layers (total_cycle + conv_cycle_percent in args) are in
    cycles at round(sum of total_cycle / sum of dur) MHz; qaic traces map
    QAicGraph_slice<N>_Core_<M> threads onto core tracks, widen "sync"
    slices to opSyncDurUs and pair P2P sends and receives into flows.

Usage: chrome_expected.py FILE... -> JSON {basename: {figure: value}}
"""
import gzip
import json
import os
import re
import sys
from decimal import Decimal, ROUND_HALF_UP

SAMPLE = 1000
NUMBER = re.compile(r"^[0-9eE+.\-]+$")


def ns(value):
    """Microseconds (number or numeric string) to integer nanoseconds."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        if not re.fullmatch(r"-?(0|[0-9]+)(\.[0-9]+)?([eE][+-]?[0-9]+)?", value):
            return None
        value = Decimal(value)
    if not isinstance(value, (int, Decimal)):
        return None
    v = (Decimal(value) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    if abs(v) > 2 ** 63 - 1:
        return None
    return int(v)


def number(value):
    """A counter value: a JSON number, or a string holding one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, Decimal)):
        return float(value)
    if isinstance(value, str) and value and NUMBER.match(value):
        try:
            f = float(value)
        except ValueError:
            return None
        if f == f and f not in (float("inf"), float("-inf")):
            return f
    return None


def key_of(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return ("n", value)
    if value is None:
        return ("n", 0)
    return ("s", str(value))


def id_text(ev):
    """The id an event matches on, with its id2/scope namespace."""
    if "id2" in ev and isinstance(ev["id2"], dict):
        id2 = ev["id2"]
        if "global" in id2:
            text, glob = "global:" + str(id2["global"]), True
        elif "local" in id2:
            text, glob = "local:" + str(id2["local"]), False
        else:
            text, glob = None, False
    elif "id" in ev and ev["id"] is not None:
        text, glob = str(ev["id"]), False
    else:
        text, glob = None, False
    if text is not None and isinstance(ev.get("scope"), str):
        text = ev["scope"] + "\x1f" + text
    return text, glob


def max_depth(slices):
    order = sorted(range(len(slices)), key=lambda i: (slices[i][0], -slices[i][1], i))
    stack = []
    deepest = 0
    for i in order:
        start, dur = slices[i]
        while stack:
            s, d = slices[stack[-1]]
            if start < s + d or (dur == 0 and start == s):
                break
            stack.pop()
        deepest = max(deepest, len(stack))
        stack.append(i)
    return deepest


def qaic_name(name):
    """(device, core or None, engine or None) or None."""
    if not isinstance(name, str) or not name.startswith("QAicGraph_"):
        return None
    rest = name[len("QAicGraph_"):]
    device = 0
    m = re.match(r"slice(\d+)_", rest)
    if m:
        device = int(m.group(1))
        rest = rest[m.end():]
    elif rest.startswith("slice"):
        return None
    m = re.match(r"Core_(\d+)(?:_(.+))?$", rest)
    if m:
        return (device, int(m.group(1)), m.group(2))
    if rest.startswith("Core_"):
        return None
    return (device, None, rest) if rest else None


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    doc = json.loads(data.decode("utf-8"), parse_float=Decimal)
    if isinstance(doc, list):
        return doc
    events = doc.get("traceEvents", [])
    return events if isinstance(events, list) else []


def expected(path):
    events = load(path)
    fig = dict(slices=0, max_depth=0, flows=0, counters=0, counter_values=0,
               instants=0, unclosed=0, e_without_b=0, operators=0)

    timed = []              # ns of every timed event, for the end of the trace
    threads = {}            # (pid, tid) -> {"slices": [...], "open": [...]}
    thread_names = {}
    asyncs, flows1, flows2 = [], [], []
    series = {}
    sampled = sigmastar = qaic_args = qaic_threads = 0

    def thread(ev):
        k = (key_of(ev.get("pid")), key_of(ev.get("tid")))
        return threads.setdefault(k, {"key": k, "slices": [], "open": []})

    for index, ev in enumerate(events):
        if not isinstance(ev, dict):
            continue
        ph = ev.get("ph")
        args = ev.get("args") if isinstance(ev.get("args"), dict) else {}
        if ph == "M":
            if ev.get("name") == "thread_name" and isinstance(args.get("name"), str):
                thread_names[thread(ev)["key"]] = args["name"]
                if args["name"].startswith("QAicGraph_"):
                    qaic_threads += 1
            continue
        if ph not in ("X", "B", "E", "i", "I", "R", "C", "b", "e", "n", "S", "T", "p", "F", "s", "t", "f"):
            continue
        ts = ns(ev.get("ts"))
        dur = ns(ev["dur"]) if "dur" in ev and ev["dur"] is not None else 0
        if ts is None or dur is None:
            continue
        timed.append(ts)

        if ph == "X":
            if dur > 0:
                timed.append(ts + dur)
            t = thread(ev)
            t["slices"].append(dict(start=ts, dur=max(dur, 0), name=ev.get("name"), args=args, unclosed=False))
            if sampled < SAMPLE:
                sampled += 1
                if "total_cycle" in args and "conv_cycle_percent" in args:
                    sigmastar += 1
                elif "opPCycle" in args or "opUCycle" in args or "opKind" in args:
                    qaic_args += 1
            if ev.get("flow_in") is True or ev.get("flow_out") is True:
                flows2.append((ts, index, ev, t))
        elif ph == "B":
            t = thread(ev)
            t["open"].append(dict(start=ts, name=ev.get("name"), args=args))
            if ev.get("flow_in") is True or ev.get("flow_out") is True:
                flows2.append((ts, index, ev, t))
        elif ph == "E":
            t = thread(ev)
            if not t["open"]:
                fig["e_without_b"] += 1
                continue
            b = t["open"].pop()
            merged = dict(b["args"])
            merged.update(args)
            t["slices"].append(dict(start=b["start"], dur=max(ts - b["start"], 0), name=b["name"],
                                    args=merged, unclosed=False))
        elif ph in ("i", "I", "R"):
            fig["instants"] += 1
        elif ph == "C":
            ident, _ = id_text(ev)
            for k, v in args.items():
                if number(v) is None:
                    continue
                s = (key_of(ev.get("pid")), ev.get("name"), ident, k)
                series[s] = series.get(s, 0) + 1
        elif ph in ("s", "t", "f"):
            ident, _ = id_text(ev)
            flows1.append((ts, index, ph, (ev.get("cat"), ev.get("name"), ident)))
        else:
            asyncs.append((ts, index, ph, ev))

    end = max(timed) if timed else 0
    for t in threads.values():
        for b in t["open"]:
            t["slices"].append(dict(start=b["start"], dur=max(end - b["start"], 0), name=b["name"],
                                    args=b["args"], unclosed=True))

    # async
    async_tracks = {}
    states = {}
    legacy_tracks = {}

    def close(open_, end_ts, unclosed):
        async_tracks[open_["track"]].append((open_["start"], max(end_ts - open_["start"], 0), unclosed))

    for ts, index, ph, ev in sorted(asyncs, key=lambda a: (a[0], a[1])):
        ident, glob = id_text(ev)
        pid = None if glob else key_of(ev.get("pid"))
        name, cat = ev.get("name"), ev.get("cat")
        if ph in ("b", "e", "n"):
            key = ("n", pid, cat, ident)
            if key not in states:
                if ph == "e":
                    continue
                states[key] = []
                async_tracks[key] = []
            stack = states[key]
            if ph == "n":
                fig["instants"] += 1
            elif ph == "b":
                stack.append(dict(start=ts, name=name, track=key))
            else:
                found = None
                for j in range(len(stack) - 1, -1, -1):
                    if not name or stack[j]["name"] == name:
                        found = j
                        break
                if found is None:
                    continue
                for j in range(len(stack) - 1, found, -1):
                    close(stack[j], ts, True)
                close(stack[found], ts, False)
                del stack[found:]
        else:
            key = ("l", cat, name, ident)
            stack = states.setdefault(key, [])
            if ph == "S":
                tkey = ("L", pid, cat, name, ident)
                async_tracks.setdefault(tkey, [])
                stack.append(dict(start=ts, name=name, track=tkey))
            elif not stack:
                continue
            elif ph == "F":
                close(stack.pop(), ts, False)
            else:
                fig["instants"] += 1
    for stack in states.values():
        for open_ in stack:
            close(open_, max(end, open_["start"]), True)

    # flows
    chains = {}
    for ts, index, ph, key in sorted(flows1, key=lambda f: (f[0], f[1])):
        if ph == "s":
            chains[key] = True
        elif key in chains:
            fig["flows"] += 1
            if ph == "f":
                del chains[key]
    pending = {}
    for ts, index, ev, t in sorted(flows2, key=lambda f: (f[0], f[1])):
        bind = str(ev["bind_id"]) if "bind_id" in ev else id_text(ev)[0]
        if bind is None:
            continue
        if ev.get("flow_in") is True:
            if bind in pending:
                fig["flows"] += 1
                del pending[bind]
        if ev.get("flow_out") is True:
            pending[bind] = True

    # flavour
    if sigmastar > 0 and sigmastar * 10 >= sampled * 9:
        flavour = "sigmastar"
    elif qaic_threads > 0 or (qaic_args > 0 and qaic_args * 2 >= sampled):
        flavour = "qaic"
    else:
        flavour = "generic"

    tracks = {}
    if flavour == "sigmastar":
        layers = [s for t in threads.values() for s in t["slices"]
                  if s["dur"] > 0 and number(s["args"].get("total_cycle")) and number(s["args"]["total_cycle"]) > 0]
        cycles = sum(int(s["args"]["total_cycle"]) for s in layers)
        dur_ns = sum(s["dur"] for s in layers)
        mhz = int((Decimal(cycles) * 1000 / Decimal(dur_ns)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        fig["mhz"] = mhz
        for k, t in threads.items():
            out, prev_end = [], None
            for s in sorted(t["slices"], key=lambda s: s["start"]):
                start = int((Decimal(s["start"]) * mhz / 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
                if prev_end is not None and start != prev_end and abs(start - prev_end) <= (mhz + 999) // 1000:
                    start = prev_end
                dur = int(s["args"].get("total_cycle", 0))
                prev_end = start + dur
                out.append((start, dur, s["unclosed"]))
                fig["operators"] += 1
            tracks[("t",) + k] = out
    elif flavour == "qaic":
        sends, recvs = {}, {}
        for k, t in threads.items():
            q = qaic_name(thread_names.get(k))
            track = ("t",) + k if q is None else (("core", q[0], q[1]) if q[2] is None and q[1] is not None else ("t",) + k)
            out = tracks.setdefault(track, [])
            for s in t["slices"]:
                dur = s["dur"]
                a = s["args"]
                if q is not None:
                    if dur == 0 and isinstance(s["name"], str) and s["name"].startswith("sync ") and "opSyncDurUs" in a:
                        d = ns(str(a["opSyncDurUs"]))
                        if d is not None and d > 0:
                            dur = d
                    if "opPCycle" in a:
                        fig["operators"] += 1
                    if "PortDescription" in a and "TransactionId" in a:
                        port, tx = str(a["PortDescription"]).strip(), str(a["TransactionId"]).strip()
                        if "->" in port:
                            src, dst = port.split("->", 1)
                            sends[(src, dst, tx)] = True
                        elif "<-" in port:
                            dst, src = port.split("<-", 1)
                            recvs[(src, dst, tx)] = True
                out.append((s["start"], dur, s["unclosed"]))
        fig["flows"] += sum(1 for k in sends if k in recvs)
    else:
        for k, t in threads.items():
            tracks[("t",) + k] = [(s["start"], s["dur"], s["unclosed"]) for s in t["slices"]]

    for k, slices in async_tracks.items():
        tracks[("a",) + k] = slices

    for slices in tracks.values():
        fig["slices"] += len(slices)
        fig["unclosed"] += sum(1 for s in slices if s[2])
        if slices:
            fig["max_depth"] = max(fig["max_depth"], max_depth([(s[0], s[1]) for s in slices]))

    fig["counters"] = len(series)
    fig["counter_values"] = sum(series.values())
    fig["flavour"] = flavour
    return fig


def main(argv):
    out = {}
    for path in argv[1:]:
        out[os.path.basename(path)] = expected(path)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
