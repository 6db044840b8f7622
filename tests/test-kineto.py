#!/usr/bin/env python3
# test-kineto.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Chrome importer's PyTorch profiler (Kineto) and ONNX Runtime flavours against
tests/kineto_expected.py, on every trace in tests/data/kineto/ and on one
bench/gen-chrome-trace.py --shape kineto writes (60,000 X events, 20 MB:
cut into pieces parsed by several threads and spilled, as a large trace).

Each trace is imported by tessera-cli into a scratch folder; the cache is
then read with Python's sqlite3 (operators, runs, tracks, info) and
`tessera-cli tiles --csv` and `summary --csv` are run, and every figure
is compared with the one kineto_expected.py computes from the JSON. The
args of every X event are read back from the cache's slice chunks with
tests/cache_chunks.py (the schema as docs/cache-schema.md writes it) and
compared with the JSON's, numbers as written.

Usage: test-kineto.py SOURCE_ROOT TESSERA_CLI   (TAP output)
"""
import collections
import csv
import decimal
import gzip
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

root, cli = sys.argv[1], sys.argv[2]
data = os.path.join(root, "tests", "data", "kineto")
sys.path.insert(0, os.path.join(root, "tests"))
from cli_tap import Tap, ms_text  # noqa: E402
import cache_chunks  # noqa: E402
import kineto_expected  # noqa: E402

tap = Tap(cli)
ok = tap.ok
run = tap.run

# numbers kept as their text: 1.50 and 1.5 are not the same args
KEEP_NUMBERS = {"parse_float": lambda t: ("number", t), "parse_int": lambda t: ("number", t)}


def exact_json(value):
    """A parsed value (numbers as their text) as one comparable string."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def args_of_events(path):
    """(name, duration in ns, args) of each X event with args, counted."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, **KEEP_NUMBERS)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    out = collections.Counter()
    for e in events:
        if e.get("ph") == "X" and isinstance(e.get("args"), dict) and e["args"]:
            # an X event without dur is an instant's length: 0
            dur = round(decimal.Decimal(e["dur"][1]) * 1000) if "dur" in e else 0
            out[(e["name"], dur, exact_json(e["args"]))] += 1
    return out


files = sorted(f for f in os.listdir(data) if f.endswith((".json", ".json.gz")))
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, os.path.join(root, "bench", "gen-chrome-trace.py"), "--shape", "kineto",
                    "--events", "60000", "--seed", "5", "--out", os.path.join(tmp, "generated-kineto.json")],
                   check=True, capture_output=True)
    for name in files + ["generated-kineto.json"]:
        path = os.path.join(tmp, name)
        if name in files:
            shutil.copy(os.path.join(data, name), path)
        exp = kineto_expected.expected(path)
        run("info", "--reimport", path)
        db = sqlite3.connect(path + ".tessera")
        strings = dict(db.execute("SELECT id, value FROM strings"))
        info = dict(db.execute("SELECT key, value FROM info"))

        ok(info.get("flavour") == "PyTorch Profiler (Kineto)", "%s: flavour %s" % (name, info.get("flavour")))
        if name == "generated-kineto.json":
            pieces = info.get("parse_pieces", "1 of 1").split(" of ")
            ok(int(pieces[0]) > 1, "%s: parsed in %s pieces" % (name, info.get("parse_pieces")))

        # operators: one row per name, with its figures and kernels
        rows = {}
        for op_name, typ, count, total, args in db.execute(
                "SELECT name, type, count, total, args FROM operators WHERE run_id IS NULL ORDER BY op_index"):
            a = json.loads(args)
            rows[strings[op_name]] = {
                "count": count, "total": total, "cpu_total_ns": a["cpu_total_ns"],
                "cpu_self_ns": a["cpu_self_ns"], "device_self_ns": a["device_self_ns"],
                "device_total_ns": a["device_total_ns"],
                "kernels": {k["name"]: [k["count"], k["device_ns"]] for k in a["kernels"]},
                "details": a["details"],
            }
        ok(set(rows) == set(exp["operators"]),
           "%s: %d operators by name (missing %s, extra %s)" % (
               name, len(rows), sorted(set(exp["operators"]) - set(rows))[:3],
               sorted(set(rows) - set(exp["operators"]))[:3]))
        bad = [k for k in rows if k in exp["operators"] and rows[k] != exp["operators"][k]]
        ok(not bad, "%s: count, CPU total and self, device self and total, kernels, details of every operator%s" % (
            name, "" if not bad else ": %s is %s, expected %s" % (bad[0], rows[bad[0]], exp["operators"][bad[0]])))
        # what info and the Summary count: the whole trace's operators, not
        # its steps' rows again
        shown = [line for line in run("info", path).splitlines() if line.startswith("Operators:")]
        ok(shown == ["Operators:      %d" % len(exp["operators"])],
           "%s: info counts %d operators: %s" % (name, len(exp["operators"]), shown))
        ok(not any(k.startswith("ProfilerStep#") or k.startswith("PyTorch Profiler") for k in rows),
           "%s: no step and no profiler span among the operators" % name)
        want = ("device self time (the kernels each op launched itself)" if exp["linked"]
                else "CPU self time (no kernel is linked to an op)")
        ok(info.get("PyTorch.operator_time") == want, "%s: operator time is %s" % (name, want))

        # runs: one per ProfilerStep#N
        runs = [list(r) for r in db.execute("SELECT name, start, \"end\" FROM runs ORDER BY id")]
        ok(sorted(runs) == sorted(exp["runs"]), "%s: runs %s" % (name, [r[0] for r in runs]))

        # devices, named after their label and model, and their figures
        tracks = list(db.execute("SELECT id, parent_id, kind, name FROM tracks"))
        device_names = sorted(t[3] for t in tracks if t[2] == 0)
        ok(device_names == sorted(d["name"] for d in exp["devices"].values()),
           "%s: devices %s" % (name, device_names))
        for label, d in sorted(exp["devices"].items()):
            for key in ("busy", "idle", "idle_host_wait", "idle_kernel_wait", "idle_other",
                        "compute", "memcpy", "memset", "communication"):
                got = info.get("%s.%s" % (label, key))
                ok(got is not None and got == ms_text(d[key]),
                   "%s: %s %s = %s (expected %d ns)" % (name, label, key, got, d[key]))
            ok(info.get("%s.comm_overlap" % label) == d.get("comm_overlap"),
               "%s: %s communication overlap %s" % (name, label, d.get("comm_overlap")))
            ok(info.get("%s.model" % label) == d.get("model"), "%s: %s model" % (name, label))
            ok(info.get("%s.streams" % label) == str(d["streams"]), "%s: %s streams" % (name, label))
        for key, s in sorted(exp["streams"].items()):
            for fig in ("busy", "idle", "idle_host_wait", "idle_kernel_wait", "idle_other"):
                got = info.get("%s.%s" % (key, fig))
                ok(got is not None and got == ms_text(s[fig]),
                   "%s: %s %s = %s (expected %d ns)" % (name, key, fig, got, s[fig]))

        # tessera-cli tiles: a unit per stream, busy = the union of its work,
        # and a line per device (no unit), busy = the union of all its streams'
        units = {}
        devices = {}
        lines = run("tiles", "--csv", path).splitlines()
        label_of = {d["name"]: label for label, d in exp["devices"].items()}
        for r in csv.DictReader(io.StringIO("\n".join(lines))):
            if r["unit"] == "":
                devices[label_of.get(r["device"], r["device"])] = (int(r["busy_ns"]), int(r["idle_ns"]))
            else:
                units[(r["device"], r["unit"])] = (int(r["busy_ns"]), int(r["idle_ns"]))
        got = {"%s %s" % (label_of.get(dev, dev), unit): busy for (dev, unit), (busy, idle) in units.items()}
        ok(got == {k: s["busy"] for k, s in exp["streams"].items()},
           "%s: tiles lists every stream with its busy time" % name)
        got = {label: busy for label, (busy, idle) in devices.items()}
        ok(got == {k: d["busy"] for k, d in exp["devices"].items()},
           "%s: tiles lists every device with its busy time, the union of its streams: %s" % (name, got))
        ok(len({busy + idle for busy, idle in list(units.values()) + list(devices.values())}) <= 1,
           "%s: busy + idle is one window" % name)

        # summary (per type, the type being the op): each op's time and calls
        summary = {r["name"]: (int(r["total"]), int(r["count"]))
                   for r in csv.DictReader(io.StringIO(run("summary", "--csv", path)))}
        ok(summary == {k: (o["total"], o["count"]) for k, o in exp["operators"].items()},
           "%s: summary gives every operator its time and calls" % name)

        # per step: each ProfilerStep#N's own operator rows (its run's),
        # which summary --run and --step give
        steps = {}
        for run_name, op_name, count, total in db.execute(
                "SELECT r.name, o.name, o.count, o.total FROM operators o JOIN runs r ON r.id = o.run_id"):
            steps.setdefault(run_name, {})[strings[op_name]] = {"count": count, "total": total}
        want = {k: v for k, v in exp["step_operators"].items() if v}
        ok(steps == want, "%s: operator rows of each of %d steps (%s)" % (
            name, len(want), ", ".join("%s: %d" % (k, len(v)) for k, v in sorted(want.items())[:3])))
        for step in sorted(want)[:3]:
            got = {r["name"]: (int(r["total"]), int(r["count"]))
                   for r in csv.DictReader(io.StringIO(run("summary", "--run", step, "--csv", path)))}
            ok(got == {k: (o["total"], o["count"]) for k, o in want[step].items()},
               "%s: summary --run %s gives the step's operators, time and calls" % (name, step))
            number = step[len("ProfilerStep#"):]
            ok(run("summary", "--step", number, "--csv", path) == run("summary", "--run", step, "--csv", path),
               "%s: summary --step %s is --run %s" % (name, number, step))

        # compare's total is each device's wall time, the union of its
        # streams' work, over the trace and over each step
        devices = {r["name"]: (float(r["a"]), float(r["b"]))
                   for r in csv.DictReader(io.StringIO(run("compare", "--summary", "--csv", path, path)))
                   if r["record"] == "device"}
        ok(devices == {d["name"]: (d["busy"], d["busy"]) for d in exp["devices"].values()},
           "%s: compare's total is each device's wall time: %s" % (
               name, {k: int(v[0]) for k, v in devices.items()}))
        for step in [r[0] for r in exp["runs"]][:2]:
            devices = {r["name"]: int(float(r["a"]))
                       for r in csv.DictReader(io.StringIO(run("compare", "--run", step, "--summary", "--csv", path, path)))
                       if r["record"] == "device"}
            ok(devices == {d["name"]: d["step_wall"][step] for d in exp["devices"].values()},
               "%s: each device's wall time in %s: %s" % (name, step, devices))

        # every X event's args, as the cache's chunks hold them (schema 11's
        # distinct skeletons and packed digits, read by cache_chunks.py), against the
        # JSON event by event: (name, duration, args) with number texts kept
        # as written, so that a digit moved, lost or added shows
        want = args_of_events(path)
        got = collections.Counter()
        for column, n, blob in db.execute("SELECT data, n, args FROM slice_chunks"):
            for rec, text in zip(cache_chunks.records(column, n), cache_chunks.args(blob, n)):
                if text:
                    got[(strings.get(rec[3]), rec[1], exact_json(json.loads(text, **KEEP_NUMBERS)))] += 1
        missing, extra = want - got, got - want
        ok(not missing and not extra and got,
           "%s: the args of all %d X events with args, as written%s" % (
               name, sum(want.values()),
               "" if not missing and not extra else ": %d missing (%s), %d not in the JSON (%s)" % (
                   sum(missing.values()), next(iter(missing), None), sum(extra.values()), next(iter(extra), None))))
        db.close()

# compare --fail-if-slower gates a model's regression by operator: B is
# the hand-written trace with aten::relu's kernels twice as long
with tempfile.TemporaryDirectory() as tmp:
    a_path = os.path.join(tmp, "a.json")
    b_path = os.path.join(tmp, "b.json")
    shutil.copy(os.path.join(data, "written_old_names.json"), a_path)
    with open(a_path, encoding="utf-8") as f:
        doc = json.load(f)
    relu = {e["args"]["External id"] for e in doc["traceEvents"] if e.get("name") == "aten::relu"}
    for e in doc["traceEvents"]:
        if e.get("cat") == "Kernel" and e.get("args", {}).get("External id") in relu:
            e["dur"] *= 2
    with open(b_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    same = subprocess.run([cli, "compare", "--fail-if-slower", "5", a_path, a_path], capture_output=True, text=True)
    ok(same.returncode == 0, "compare --fail-if-slower passes a trace against itself (exit %d)" % same.returncode)
    slower = subprocess.run([cli, "compare", "--fail-if-slower", "5", a_path, b_path], capture_output=True, text=True)
    ok(slower.returncode == 1 and "aten::relu" in slower.stdout + slower.stderr,
       "compare --fail-if-slower fails on aten::relu's slower kernels (exit %d)" % slower.returncode)

# a step or run the trace lacks is a usage error that lists its runs
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "written_old_names.json")
    shutil.copy(os.path.join(data, "written_old_names.json"), path)
    steps = [r[0] for r in kineto_expected.expected(path)["runs"]]
    for args in (["--step", "99"], ["--run", "ProfilerStep#99"]):
        missing = subprocess.run([cli, "summary"] + args + [path], capture_output=True, text=True)
        ok(missing.returncode == 2 and ("its runs: %s" % ", ".join(steps)) in missing.stderr,
           "summary %s: exit %d, %s" % (" ".join(args), missing.returncode, missing.stderr.splitlines()[:1]))
    for args in (["--step", "x"], ["--step", "7", "--run", steps[0]]):
        bad = subprocess.run([cli, "summary"] + args + [path], capture_output=True, text=True)
        ok(bad.returncode == 2, "summary %s is a usage error (exit %d)" % (" ".join(args), bad.returncode))
    # render draws the Summary of the step asked for: each step's picture
    # differs from the other's and from the whole trace's
    pictures = {}
    for args in ([], ["--step", "7"], ["--step", "8"]):
        out = os.path.join(tmp, "summary%s.png" % "".join(args))
        drawn = subprocess.run([cli, "render"] + args + ["--width", "600", "--height", "400", "-o", out, path],
                               capture_output=True, text=True)
        with open(out, "rb") as f:
            pictures[" ".join(args)] = (drawn.returncode, f.read())
    ok(all(rc == 0 for rc, _ in pictures.values()) and len({png for _, png in pictures.values()}) == 3,
       "render --step 7, --step 8 and the whole trace draw three different Summaries")
    missing = subprocess.run([cli, "render", "--step", "99", "-o", os.path.join(tmp, "x.svg"), path],
                             capture_output=True, text=True)
    ok(missing.returncode == 2, "render --step 99: exit %d" % missing.returncode)
    missing = subprocess.run([cli, "compare", "--step", "99", path, path], capture_output=True, text=True)
    ok(missing.returncode == 2 and "ProfilerStep#99" in missing.stderr,
       "compare --step 99: exit %d" % missing.returncode)

# a damaged trace: an op without a name (the profiler names every one; the
# fuzzer made one) stays a slice and makes no operator row, where it had
# made the cache writer refuse a row without a name
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "nameless_op.json")
    with open(os.path.join(data, "written_old_names.json")) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    op = next(e for e in events if e.get("cat") in ("cpu_op", "Operator") and e.get("ph") == "X")
    del op["name"]
    with open(path, "w") as f:
        json.dump(doc, f)
    done = subprocess.run([cli, "info", "--reimport", path], capture_output=True, text=True)
    db = sqlite3.connect(path + ".tessera")
    nameless = db.execute("SELECT count(*) FROM operators o JOIN strings s ON s.id = o.name "
                          "WHERE s.value = ''").fetchone()[0]
    named = db.execute("SELECT count(*) FROM operators").fetchone()[0]
    db.close()
    ok(done.returncode == 0 and "CRITICAL" not in done.stderr and named > 0 and nameless == 0,
       "an op without a name: imported (exit %d), %d operator rows, none nameless%s"
       % (done.returncode, named, "; " + done.stderr.strip()[:200] if done.stderr.strip() else ""))

# the wall time is not the streams' summed work: nccl_data's GPU 0 runs
# two streams at once
exp = kineto_expected.expected(os.path.join(data, "nccl_data.json.gz"))
ok(any(d["busy"] < d["stream_sum"] for d in exp["devices"].values()),
   "nccl_data.json.gz: a device's wall time is less than its streams' summed work (%s)" % (
       ["%s %d < %d" % (d["name"], d["busy"], d["stream_sum"]) for d in exp["devices"].values()]))


# compare --fail-if-slower gates by operator and by step: in a copy of a
# real trace (HTA's nccl_data, whose kernels are linked to their ops), one
# operator of the last step gets its kernels twice as long; the gate names
# that operator and that step, and no other step
with tempfile.TemporaryDirectory() as tmp:
    a_path = os.path.join(tmp, "a.json")
    b_path = os.path.join(tmp, "b.json")
    same_path = os.path.join(tmp, "same.json")
    with gzip.open(os.path.join(data, "nccl_data.json.gz"), "rt", encoding="utf-8") as f:
        doc = json.load(f)
    for d in (a_path, same_path):
        with open(d, "w", encoding="utf-8") as f:
            json.dump(doc, f)
    events = doc["traceEvents"]
    exp = kineto_expected.expected(a_path)
    ok(exp["linked"] and len(exp["runs"]) > 1, "nccl_data links kernels to ops and has %d steps" % len(exp["runs"]))
    step, lo, hi = exp["runs"][-1]
    others = [r[0] for r in exp["runs"][:-1]]
    ops = exp["step_operators"][step]
    step_total = sum(o["total"] for o in ops.values())
    # the heaviest op of the step that is no step-long wrapper: under a
    # quarter of the step's operator time
    op = max((k for k, o in ops.items() if 0.01 * step_total <= o["total"] <= 0.25 * step_total),
             key=lambda k: ops[k]["total"])
    calls = {e["args"]["External id"] for e in events
             if e.get("name") == op and e.get("cat") in kineto_expected.OP_CATS
             and lo <= kineto_expected.ns(e["ts"]) < hi and isinstance(e.get("args"), dict)}
    for e in kineto_expected.linked_kernels(doc, calls):
        e["dur"] = e["dur"] * 2
    with open(b_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    b_exp = kineto_expected.expected(b_path)
    pct = 100.0 * (b_exp["step_operators"][step][op]["total"] - ops[op]["total"]) / ops[op]["total"]

    same = subprocess.run([cli, "compare", "--fail-if-slower", "5", a_path, same_path], capture_output=True, text=True)
    ok(same.returncode == 0 and same.stderr == "",
       "compare --fail-if-slower passes an unchanged copy of nccl_data (exit %d: %s)" % (same.returncode, same.stderr))
    slower = subprocess.run([cli, "compare", "--fail-if-slower", "5", a_path, b_path], capture_output=True, text=True)
    line = "tessera-cli: %s in step %s got slower by %.1f %%" % (op, step, pct)
    ok(slower.returncode == 1 and line in slower.stderr.splitlines(),
       "compare --fail-if-slower names %s in %s, %.1f %% slower (exit %d)" % (op, step, pct, slower.returncode))
    # and the step's device wall time, the union of its streams' work in
    # the step, by as much as Python's union says
    lines = []
    for label, d in exp["devices"].items():
        a_wall, b_wall = d["step_wall"][step], b_exp["devices"][label]["step_wall"][step]
        if a_wall > 0 and 100.0 * (b_wall - a_wall) / a_wall > 5:
            lines.append("tessera-cli: %s's wall time in step %s got slower by %.1f %%" % (
                d["name"], step, 100.0 * (b_wall - a_wall) / a_wall))
    ok(lines and all(line in slower.stderr.splitlines() for line in lines),
       "compare --fail-if-slower names each device slower in the step: %s" % lines)
    ok(not any(("in step %s " % o) in slower.stderr for o in others),
       "compare --fail-if-slower names no other step (%s)" % [l for l in slower.stderr.splitlines() if "in step" in l])
    by_step = subprocess.run([cli, "compare", "--run", step, "--csv", a_path, b_path], capture_output=True, text=True)
    rows = {r["a_name"]: (float(r["a_ns"]), float(r["b_ns"])) for r in csv.DictReader(io.StringIO(by_step.stdout))}
    ok(rows.get(op) == (ops[op]["total"], b_exp["step_operators"][step][op]["total"]),
       "compare --run %s sets %s's time in the step side by side: %s" % (step, op, rows.get(op)))

# ONNX Runtime's profile: a row per node, a run per model_run
ort = os.path.join(root, "tests", "data", "onnxruntime")
with tempfile.TemporaryDirectory() as tmp:
    for name in sorted(f for f in os.listdir(ort) if f.endswith(".json")):
        path = os.path.join(tmp, name)
        shutil.copy(os.path.join(ort, name), path)
        exp = kineto_expected.expected_onnxruntime(path)
        run("info", "--reimport", path)
        db = sqlite3.connect(path + ".tessera")
        strings = dict(db.execute("SELECT id, value FROM strings"))
        info = dict(db.execute("SELECT key, value FROM info"))
        ok(info.get("flavour") == "ONNX Runtime profile", "%s: flavour %s" % (name, info.get("flavour")))
        rows = [[i, strings[nm], strings[ty], c, t, json.loads(a)["provider"]] for i, nm, ty, c, t, a in db.execute(
            "SELECT op_index, name, type, count, total, args FROM operators WHERE run_id IS NULL ORDER BY op_index")]
        ok(rows == exp["operators"], "%s: %d nodes with their type, runs and kernel time%s" % (
            name, len(rows), "" if rows == exp["operators"] else ": %s, expected %s" % (rows, exp["operators"])))
        runs = [list(r) for r in db.execute("SELECT name, start, \"end\" FROM runs ORDER BY id")]
        ok(runs == exp["runs"], "%s: runs %s" % (name, [r[0] for r in runs]))
        for run_name, _, _ in exp["runs"]:
            got = [[i, strings[nm], strings[ty], c, t, json.loads(a)["provider"]] for i, nm, ty, c, t, a in db.execute(
                "SELECT o.op_index, o.name, o.type, o.count, o.total, o.args FROM operators o "
                "JOIN runs r ON r.id = o.run_id WHERE r.name = ? ORDER BY o.op_index", (run_name,))]
            ok(got == exp["run_operators"][run_name], "%s: %d nodes of %s with their kernel time" % (
                name, len(got), run_name))
            each = [(r["label"], int(r["total"])) for r in csv.DictReader(io.StringIO(
                run("summary", "--mode", "each", "--run", run_name, "--csv", path)))]
            ok(each == [(o[1], o[4]) for o in exp["run_operators"][run_name]],
               "%s: summary --run %s lists the run's nodes in order" % (name, run_name))
        each = [(r["label"], int(r["total"])) for r in csv.DictReader(io.StringIO(run("summary", "--mode", "each", "--csv", path)))]
        ok(each == [(o[1], o[4]) for o in exp["operators"]],
           "%s: summary --mode each lists the nodes by their names, in order" % name)
        by_type = {}
        for o in exp["operators"]:
            by_type[o[2]] = by_type.get(o[2], 0) + o[4]
        total = {r["name"]: int(r["total"]) for r in csv.DictReader(io.StringIO(run("summary", "--csv", path)))}
        ok(total == by_type, "%s: summary --mode total sums the nodes by op type" % name)
        db.close()

        # compare gates per model_run: the heaviest node of the last run
        # made twice as long is named with its run, no other run is
        run_name, lo, hi = exp["runs"][-1]
        node = max(exp["run_operators"][run_name], key=lambda o: o[4])[1]
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for e in doc:
            if e.get("name") == node + "_kernel_time" and lo <= kineto_expected.ns(e["ts"]) < hi:
                e["dur"] = e["dur"] * 2
        slow_path = os.path.join(tmp, "slower_" + name)
        with open(slow_path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        before = {o[1]: o[4] for o in exp["run_operators"][run_name]}[node]
        after = {o[1]: o[4] for o in kineto_expected.expected_onnxruntime(slow_path)["run_operators"][run_name]}[node]
        slower = subprocess.run([cli, "compare", "--fail-if-slower", "5", path, slow_path], capture_output=True, text=True)
        line = "tessera-cli: %s in step %s got slower by %.1f %%" % (node, run_name, 100.0 * (after - before) / before)
        ok(slower.returncode == 1 and line in slower.stderr.splitlines()
           and not any("in step %s " % r[0] in slower.stderr for r in exp["runs"][:-1]),
           "%s: compare --fail-if-slower names %s in %s only (exit %d)" % (name, node, run_name, slower.returncode))

sys.exit(tap.finish())
