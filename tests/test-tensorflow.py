#!/usr/bin/env python3
# test-tensorflow.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Chrome importer's TensorFlow flavours (TF2 profiler trace viewer
JSON, TF1 client.timeline) against tests/tensorflow_expected.py, on every
trace in tests/data/tensorflow/.

Each trace is imported by tessera-cli into a scratch folder; the cache is
then read with Python's sqlite3 (operators, runs, tracks, info) and
`tessera-cli tiles --csv` and `summary --csv` are run, and every figure
is compared with the one tensorflow_expected.py computes from the JSON.

Usage: test-tensorflow.py SOURCE_ROOT TESSERA_CLI   (TAP output)
"""
import csv
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
data = os.path.join(root, "tests", "data", "tensorflow")
sys.path.insert(0, os.path.join(root, "tests"))
from cli_tap import Tap, ms_text  # noqa: E402
import tensorflow_expected  # noqa: E402

tap = Tap(cli)
ok = tap.ok
run = tap.run


files = sorted(f for f in os.listdir(data) if f.endswith((".json", ".json.gz")))
ok(len(files) >= 5, "%d TensorFlow traces" % len(files))
with tempfile.TemporaryDirectory() as tmp:
    for name in files:
        path = os.path.join(tmp, name)
        shutil.copy(os.path.join(data, name), path)
        exp = tensorflow_expected.expected(path)
        run("info", "--reimport", path)
        db = sqlite3.connect(path + ".tessera")
        strings = dict(db.execute("SELECT id, value FROM strings"))
        info = dict(db.execute("SELECT key, value FROM info"))

        ok(info.get("flavour") == exp["flavour"], "%s: flavour %s" % (name, info.get("flavour")))
        ok(info.get("TensorFlow.operator_time") == exp["operator_time"],
           "%s: operator time is %s" % (name, exp["operator_time"]))

        # operators: one row per op, in the order they first ran
        def op_rows(where, *params):
            out = []
            for i, op_name, typ, count, total, args in db.execute(
                    "SELECT op_index, name, type, count, total, args FROM operators WHERE %s ORDER BY op_index" % where,
                    params):
                a = json.loads(args)
                out.append({"name": strings[op_name], "type": strings[typ], "count": count, "total": total,
                            "cpu_total_ns": a["cpu_total_ns"], "cpu_self_ns": a["cpu_self_ns"],
                            "device_ns": a["device_ns"], "device_events": a["device_events"],
                            "kernels": {k["name"]: [k["count"], k["device_ns"]] for k in a["kernels"]},
                            "details": a["details"]})
            return out
        rows = op_rows("run_id IS NULL")
        ok(len(rows) == len(exp["operators"]), "%s: %d operators (expected %d)" % (
            name, len(rows), len(exp["operators"])))
        bad = [(r, e) for r, e in zip(rows, exp["operators"]) if r != e]
        ok(not bad, "%s: name, type, calls, CPU total and self, device time, kernels and details of every operator%s" % (
            name, "" if not bad else ": %s, expected %s" % bad[0]))
        ok(not any(r["name"].startswith(("__inference", "ExecutorState", "EagerExecute")) for r in rows),
           "%s: no step function, runtime frame or profiler span among the operators" % name)

        runs = [list(r) for r in db.execute("SELECT name, start, \"end\" FROM runs ORDER BY id")]
        ok(runs == exp["runs"], "%s: runs %s" % (name, [r[0] for r in runs]))

        # per step: its own rows, from the events that start in it
        for step_name, _, _ in exp["runs"][:3]:
            got = op_rows("run_id = (SELECT id FROM runs WHERE name = ?)", step_name)
            want = exp["step_operators"][step_name]
            bad = [(r, e) for r, e in zip(got, want) if r != e]
            ok(len(got) == len(want) and not bad, "%s: %d operators of %s with their figures%s" % (
                name, len(got), step_name, "" if not bad else ": %s, expected %s" % bad[0]))
            if want:
                each = [(r["label"], int(r["total"])) for r in csv.DictReader(io.StringIO(
                    run("summary", "--mode", "each", "--run", step_name, "--csv", path)))]
                ok(each == [(o["name"], o["total"]) for o in want],
                   "%s: summary --run %s lists the step's ops, in order" % (name, step_name))

        # devices as the trace names them, their streams as units
        tracks = list(db.execute("SELECT id, parent_id, kind, name FROM tracks"))
        devices = sorted(t[3] for t in tracks if t[2] == 0)
        ok(devices == exp["device_tracks"], "%s: devices %s" % (name, devices))
        processes = {t[3] for t in tracks if t[2] == 2}
        ok(set(exp["executors"]) <= processes and not any(p.endswith(" Compute") for p in processes),
           "%s: TF1 executor processes named after their device: %s" % (name, sorted(processes)))
        for label, d in sorted(exp["devices"].items()):
            got = info.get("%s.busy" % label)
            ok(got is not None and got == ms_text(d["busy"]),
               "%s: %s busy = %s (expected %d ns, the union of its streams' work)" % (name, label, got, d["busy"]))
            ok(info.get("%s.streams" % label) == str(len(d["streams"])), "%s: %s streams" % (name, label))

        units = {}
        tiles = subprocess.run([cli, "tiles", "--csv", path], capture_output=True, text=True)
        if not exp["devices"]:
            ok(tiles.returncode == 1 and "no parallel units" in tiles.stderr,
               "%s: tiles says a trace without a stream has no units" % name)
        else:
            windows = set()
            devices = {}
            for r in csv.DictReader(io.StringIO(tiles.stdout)):
                if r["unit"] == "":   # the device as a whole
                    devices[r["device"]] = int(r["busy_ns"])
                else:
                    units.setdefault(r["device"], {})[r["unit"]] = int(r["busy_ns"])
                windows.add(int(r["busy_ns"]) + int(r["idle_ns"]))
            ok(units == {k: d["stream_busy"] for k, d in exp["devices"].items()},
               "%s: tiles lists every stream as a unit of its device, busy the union of its work: %s" % (
                   name, units))
            ok(devices == {k: d["busy"] for k, d in exp["devices"].items()},
               "%s: tiles lists every device, busy the union of its streams' work: %s" % (name, devices))
            ok(len(windows) == 1, "%s: busy + idle is one window" % name)

        # summary --mode each: every op by its name; total: summed by type
        each = [(r["label"], int(r["total"]))
                for r in csv.DictReader(io.StringIO(run("summary", "--mode", "each", "--csv", path)))]
        ok(each == [(o["name"], o["total"]) for o in exp["operators"]],
           "%s: summary --mode each lists the ops by their names, in order" % name)
        by_type = {}
        for o in exp["operators"]:
            by_type[o["type"]] = by_type.get(o["type"], 0) + o["total"]
        total = {r["name"]: int(r["total"]) for r in csv.DictReader(io.StringIO(run("summary", "--csv", path)))}
        ok(total == by_type, "%s: summary sums the ops by type" % name)

        # compare sets TensorFlow's steps side by side, each step's ns as json reads it
        if exp["runs"]:
            steps = {r["name"]: (int(float(r["a"])), int(float(r["b"])))
                     for r in csv.DictReader(io.StringIO(run("compare", "--summary", "--csv", path, path)))
                     if r["record"] == "step"}
            ok(steps == {nm: (e - s, e - s) for nm, s, e in exp["runs"]},
               "%s: compare pairs the steps: %s" % (name, steps))
        db.close()

# compare --fail-if-slower names the op and the step: a copy of a TF2
# trace whose heaviest op got its kernels of its last step twice as long
with tempfile.TemporaryDirectory() as tmp:
    a_path = os.path.join(tmp, "a.trace.json")
    b_path = os.path.join(tmp, "b.trace.json")
    with gzip.open(os.path.join(data, "written_tf2_gpu.trace.json.gz"), "rt", encoding="utf-8") as f:
        doc = json.load(f)
    with open(a_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    exp = tensorflow_expected.expected(a_path)
    step = exp["runs"][-1][0]
    op = max(exp["step_operators"][step], key=lambda o: o["total"])["name"]
    group = step.split()[-1]
    for e in doc["traceEvents"]:
        a = e.get("args") or {}
        if a.get("tf_op", "").split(":")[0] == op and str(a.get("group_id")) == group:
            e["dur"] = e["dur"] * 2
    with open(b_path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    before = {o["name"]: o["total"] for o in exp["step_operators"][step]}[op]
    after = {o["name"]: o["total"] for o in tensorflow_expected.expected(b_path)["step_operators"][step]}[op]
    slower = subprocess.run([cli, "compare", "--fail-if-slower", "5", a_path, b_path], capture_output=True, text=True)
    line = "tessera-cli: %s in step %s got slower by %.1f %%" % (op, step, 100.0 * (after - before) / before)
    ok(slower.returncode == 1 and line in slower.stderr.splitlines(),
       "compare --fail-if-slower names %s in %s (exit %d): %s" % (op, step, slower.returncode,
                                                                  [l for l in slower.stderr.splitlines() if op in l]))
    ok(not any("in step %s " % r[0] in slower.stderr for r in exp["runs"][:-1]),
       "compare --fail-if-slower names no other step")
    same = subprocess.run([cli, "compare", "--fail-if-slower", "5", a_path, a_path], capture_output=True, text=True)
    ok(same.returncode == 0, "compare --fail-if-slower passes the unchanged trace (exit %d)" % same.returncode)

sys.exit(tap.finish())
