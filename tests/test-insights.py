#!/usr/bin/env python3
# test-insights.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""tessera-cli insights --json against truths computed here, apart from
Tessera: Poplar runs from tests/gen-poplar-tiles.py with planted tiles over
the limit, hot and idle tiles (its truth.json), a printed histogram edited
to disagree; PyTorch profiler traces written here with planted idle gaps, a
slow step, a launch-bound and a long operator; two runs with a regression
and a tile newly out of memory; the real files of tests/data. A clean run
of each kind yields no finding.

Usage: test-insights.py SOURCE_ROOT TESSERA_CLI   (TAP output)
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_tap import Tap  # noqa: E402
from kineto_expected import expected as kineto_truth, load as load_trace, ns as ns_of  # noqa: E402

source_root, cli = sys.argv[1], sys.argv[2]
tap = Tap(cli)
tmp = tempfile.mkdtemp(prefix="tes-insights-")
GEN = os.path.join(source_root, "tests", "gen-poplar-tiles.py")

# the defaults docs/insights.md lists
IMBALANCE, STEP_BALANCE, STEP_MIN_SHARE, STEPS_LISTED = 1.5, 50, 1, 5
IDLE_TILE_SHARE, HOT_FACTOR, IDLE_GAP_NS = 90, 1.5, 100_000
OPERATOR_SHARE, LAUNCH_RATIO, LAUNCH_MIN_SHARE, SLOW_FACTOR = 10, 0.2, 1, 1.5
REGRESSION_PCT, MEMORY_CHANGE_PCT = 10, 5


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1)


def insights(*args):
    out = subprocess.run([cli, "insights", "--json", "--reimport"] + list(args),
                         capture_output=True, text=True)
    if out.returncode != 0:
        print("# exit %d: %s" % (out.returncode, out.stderr.strip()))
        return {"findings": [], "exit": out.returncode}
    doc = json.loads(out.stdout)
    doc["exit"] = 0
    return doc


def of(doc, kind):
    return [f for f in doc["findings"] if f["kind"] == kind]


def generate(name, *args):
    outdir = os.path.join(tmp, name)
    subprocess.run([sys.executable, GEN, "--outdir", outdir] + list(args), check=True, capture_output=True)
    with open(os.path.join(outdir, "truth.json")) as f:
        truth = json.load(f)
    return outdir, truth


def poplar_files(outdir):
    return [os.path.join(outdir, n) for n in ("compile_report.txt", "archive_size.txt", "execution.json")]


# ---- Independent truths: memory -----------------------------------------

def dominant(tile):
    return max(tile["data_types"].items(), key=lambda kv: kv[1])


def memory_truth(truth):
    tiles = truth["tiles"]
    limit = truth["tile_memory_bytes"]
    over = sorted((t for t in tiles if t["total"] > limit),
                  key=lambda t: (-(t["total"] - limit), t["ipu"], t["tile"]))
    mean = sum(t["total"] for t in tiles) / len(tiles)
    heaviest = max(tiles, key=lambda t: (t["total"], -t["ipu"], -t["tile"]))
    return over, mean, heaviest


def check_memory(doc, truth, what):
    over, mean, heaviest = memory_truth(truth)
    limit = truth["tile_memory_bytes"]
    found = of(doc, "tiles-over-limit")
    if over:
        ok = len(found) == 1
        if ok:
            ev = found[0]["evidence"]
            got = [(t["ipu"], t["tile"], t["bytes"], t["over_bytes"], t["category"], t["category_bytes"])
                   for t in ev["tiles"]]
            want = [(t["ipu"], t["tile"], t["total"], t["total"] - limit) + dominant(t) for t in over]
            ok = got == want and ev["over_bytes"] == sum(t["total"] - limit for t in over) and \
                found[0]["target"]["view"] == "memory-tiles" and \
                (found[0]["target"]["ipu"], found[0]["target"]["tile"]) == (over[0]["ipu"], over[0]["tile"]) and \
                found[0]["rank"] == 1
        tap.ok(ok, "%s: tiles-over-limit lists the truth's %d tiles over %d bytes, by how much, their dominant "
               "data type, first in rank, the worst selected" % (what, len(over), limit))
    else:
        tap.ok(found == [], "%s: no tile over the limit, no tiles-over-limit finding" % what)

    found = of(doc, "memory-imbalance")
    if heaviest["total"] >= IMBALANCE * mean:
        ok = len(found) == 1
        if ok:
            ev = found[0]["evidence"]
            top = sorted(truth["tiles"], key=lambda t: (-t["total"], t["ipu"], t["tile"]))[:5]
            # the report details its heaviest tiles' data types; the others
            # have the listing's sections only
            ok = ev["heaviest_bytes"] == heaviest["total"] and close(ev["mean_bytes"], mean) and \
                [(t["ipu"], t["tile"], t["bytes"], t["category"]) for t in ev["heaviest"]] == \
                [(t["ipu"], t["tile"], t["total"], dominant(t)[0] if t["index"] in truth["top_tiles"]
                  else max(t["sections"].items(), key=lambda kv: kv[1])[0]) for t in top]
        tap.ok(ok, "%s: memory-imbalance: heaviest %d bytes against the mean %.0f, the five heaviest with their "
               "dominant data type" % (what, heaviest["total"], mean))
    else:
        tap.ok(found == [], "%s: heaviest/mean %.2f < %.1f: no memory-imbalance" % (what, heaviest["total"] / mean, IMBALANCE))


# ---- Independent truths: BSP steps and tiles ------------------------------

def tile_truth(truth):
    """Per (ipu, tile): busy cycles and the IPU's steps' cycles."""
    busy, span = {}, {}
    for step in truth["steps"]:
        for tile, c in enumerate(step["cycles"]):
            busy[(step["ipu"], tile)] = busy.get((step["ipu"], tile), 0) + c
        span[step["ipu"]] = span.get(step["ipu"], 0) + step["dur"]
    return busy, span


def check_tiles(doc, truth, what, planted_hot=None, planted_idle=None):
    busy, span = tile_truth(truth)
    means = {}
    for (ipu, _tile), b in busy.items():
        means.setdefault(ipu, []).append(b)
    means = {ipu: sum(v) / len(v) for ipu, v in means.items()}
    hot = sorted(k for k, b in busy.items() if b >= HOT_FACTOR * means[k[0]])
    idle = sorted(k for k, b in busy.items() if 100.0 * (span[k[0]] - b) / span[k[0]] >= IDLE_TILE_SHARE)

    found = of(doc, "hot-tiles")
    got = sorted((t["ipu"], t["tile"]) for t in found[0]["evidence"]["hot_tiles"]) if found else []
    busy_ok = all(t["busy_cycles"] == busy[(t["ipu"], t["tile"])] for f in found for t in f["evidence"]["hot_tiles"])
    tap.ok(len(found) <= 1 and got == hot and busy_ok,
           "%s: hot-tiles %s as the steps' cycles give them (busy >= %.1f x the IPU's mean)" % (what, hot, HOT_FACTOR))
    if planted_hot is not None:
        tap.ok(hot == planted_hot, "%s: the planted hot tiles are the hot ones: %s" % (what, planted_hot))

    found = of(doc, "idle-tiles")
    got = sorted((t["ipu"], t["tile"]) for t in found[0]["evidence"]["idle_tiles"]) if found else []
    tap.ok(len(found) <= 1 and got == idle, "%s: idle-tiles %s (idle >= %d %% of the IPU's steps)" % (what, idle, IDLE_TILE_SHARE))
    if planted_idle is not None:
        tap.ok(idle == planted_idle, "%s: the planted idle tiles are the idle ones: %s" % (what, planted_idle))


def step_truth(truth):
    ipu_cycles = {}
    for s in truth["steps"]:
        ipu_cycles[s["ipu"]] = ipu_cycles.get(s["ipu"], 0) + s["dur"]
    costs = []
    for s in truth["steps"]:
        n, longest = len(s["cycles"]), max(s["cycles"])
        balance = 100.0 * sum(s["cycles"]) / (n * longest)
        if balance < STEP_BALANCE and 100.0 * s["dur"] / ipu_cycles[s["ipu"]] >= STEP_MIN_SHARE:
            costs.append((s["dur"] * (100 - balance) / 100, s["ipu"], s["step"], balance))
    costs.sort(key=lambda c: (-c[0], c[1], c[2]))
    return costs[:STEPS_LISTED]


def check_steps(doc, truth, what):
    want = step_truth(truth)
    found = of(doc, "step-balance")
    got = [(f["evidence"]["ipu"], f["evidence"]["step"]) for f in found]
    ok = got == [(c[1], c[2]) for c in want] and \
        all(close(f["cost"], c[0]) and close(f["evidence"]["tile_balance_percent"], c[3]) and
            f["target"]["view"] == "bsp" and f["target"]["step"] == c[2] and f["target"]["ipu"] == c[1]
            for f, c in zip(found, want))
    tap.ok(ok, "%s: step-balance: the %d costliest steps below %d %% balance, cycles x (1 - balance), each "
           "selecting its IPU and step in the BSP view" % (what, len(want), STEP_BALANCE))


def check_state_shares(doc, truth, what, thresholds):
    for kind, state in (("sync-share", "sync"), ("exchange-share", "exchange")):
        want = {}
        for ipu in range(truth["ipus"]):
            steps = [s for s in truth["steps"] if s["ipu"] == ipu]
            all_cycles = sum(len(s["cycles"]) * s["dur"] for s in steps)
            by_step = {s["step"]: sum(s["cycles"]) for s in steps if s["state"] == state}
            share = 100.0 * sum(by_step.values()) / all_cycles
            if share >= thresholds[state] and by_step:
                top = max(by_step, key=lambda k: (by_step[k], -k))
                want[ipu] = (share, top, sum(by_step.values()))
        found = {f["evidence"]["ipu"]: f for f in of(doc, kind)}
        ok = sorted(found) == sorted(want) and all(
            close(found[i]["evidence"]["share_percent"], w[0]) and found[i]["evidence"]["steps"][0]["step"] == w[1] and
            close(found[i]["evidence"]["tile_cycles"], w[2]) for i, w in want.items())
        tap.ok(ok, "%s: %s per IPU at >= %g %%: %s" % (what, kind, thresholds[state],
                                                       {i: round(w[0], 2) for i, w in want.items()}))


# ---- Poplar runs ----------------------------------------------------------

# the generator's own run: two tiles given more Variables than fit
outdir, truth = generate("planted", "--seed", "7", "--ipus", "2", "--tiles", "24", "--steps", "16")
doc = insights(*poplar_files(outdir))
tap.ok(doc["exit"] == 0 and doc["schema"] == 1, "planted run: exit 0, schema 1")
check_memory(doc, truth, "planted run")
check_steps(doc, truth, "planted run")
check_tiles(doc, truth, "planted run")
ranks = [f["rank"] for f in doc["findings"]]
shares = [f["share_percent"] for f in doc["findings"]]
tap.ok(ranks == list(range(1, len(ranks) + 1)) and shares == sorted(shares, reverse=True),
       "findings are ranked 1..N by their share, largest first")

doc = insights("--threshold", "sync_share=2", "--threshold", "exchange_share=5", *poplar_files(outdir))
tap.ok(doc["thresholds"]["sync_share"] == 2 and doc["thresholds"]["exchange_share"] == 5,
       "--threshold NAME=VALUE sets the thresholds the JSON lists")
check_state_shares(doc, truth, "planted run", {"sync": 2, "exchange": 5})

# an IPU that syncs far more than it computes, another that exchanges: found
# at the default thresholds, each on its own IPU
outdir, truth = generate("heavy", "--seed", "5", "--ipus", "3", "--tiles", "16", "--steps", "14",
                         "--heavy-sync", "1", "--heavy-exchange", "2")
doc = insights(*poplar_files(outdir))
defaults = {"sync": doc["thresholds"]["sync_share"], "exchange": doc["thresholds"]["exchange_share"]}
check_state_shares(doc, truth, "heavy run at the default thresholds", defaults)
tap.ok([f["evidence"]["ipu"] for f in of(doc, "sync-share")] == [1] and
       [f["evidence"]["ipu"] for f in of(doc, "exchange-share")] == [2],
       "heavy run: sync-share names IPU 1 only, exchange-share IPU 2 only, at %s" % defaults)

# hot and idle tiles planted into a clean run
busy_tiles, idle_tiles = [5, 17], [2, 11, 20]
outdir, truth = generate("tiles", "--seed", "3", "--ipus", "2", "--tiles", "24", "--steps", "21", "--clean",
                         "--hot-tiles", "0", "--busy-tiles", *map(str, busy_tiles), "--idle-tiles", *map(str, idle_tiles))
doc = insights(*poplar_files(outdir))
check_tiles(doc, truth, "planted hot and idle tiles",
            sorted((i, t) for i in range(2) for t in busy_tiles), sorted((i, t) for i in range(2) for t in idle_tiles))
check_steps(doc, truth, "planted hot and idle tiles")
found = of(doc, "hot-tiles")
tap.ok(len(found) == 1 and found[0]["target"]["view"] == "tile-balance" and found[0]["target"]["tile"] in busy_tiles,
       "hot-tiles selects the busiest tile in Tile Balance")

# a clean run: every kind's truth is empty, and so are the findings
outdir, truth = generate("clean", "--seed", "3", "--ipus", "2", "--tiles", "24", "--steps", "21", "--clean",
                         "--hot-tiles", "0")
over, mean, heaviest = memory_truth(truth)
tap.ok(not over and heaviest["total"] < IMBALANCE * mean and not step_truth(truth),
       "clean run: its truth has no tile over the limit, no imbalance, no unbalanced step")
doc = insights(*poplar_files(outdir))
tap.ok(doc["exit"] == 0 and doc["findings"] == [], "clean run: no finding of any kind")
check_tiles(doc, truth, "clean run")

# a printed histogram the listing disagrees with: one bin's count changed
shutil.copytree(os.path.join(tmp, "clean"), os.path.join(tmp, "edited"))
hist = truth["histogram"]
bin_index = next(i for i in hist["shown"] if hist["counts"][i] > 0)
low = hist["start_kb"] + bin_index * hist["width_kb"]
report = os.path.join(tmp, "edited", "compile_report.txt")
with open(report) as f:
    lines = f.read().split("\n")
prefix = "    %6d - %4d " % (low, low + hist["width_kb"])
row = next(i for i, l in enumerate(lines) if l.startswith(prefix))
printed = hist["counts"][bin_index] + 3
lines[row] = lines[row][:-6] + "%6d" % printed
with open(report, "w") as f:
    f.write("\n".join(lines))
doc = insights(report, os.path.join(tmp, "edited", "archive_size.txt"))
found = of(doc, "histogram-mismatch")
tap.ok(len(found) == 1 and [(b["lower_bytes"], b["upper_bytes"], b["printed"], b["binned"])
                            for b in found[0]["evidence"]["bins"]] ==
       [(low * 1024, (low + hist["width_kb"]) * 1024, printed, hist["counts"][bin_index])]
       and found[0]["target"]["view"] == "memory-histogram",
       "histogram-mismatch names the edited bin, %d KB: printed %d, the listing's tiles %d"
       % (low, printed, hist["counts"][bin_index]))

# two runs: B's listing gives a tile 600,000 more bytes of .data
a_dir = os.path.join(tmp, "clean")
b_dir = os.path.join(tmp, "grown")
subprocess.run([sys.executable, os.path.join(source_root, "tests", "gen-compare-runs.py"), "poplar", a_dir, b_dir],
               check=True)
listing = os.path.join(b_dir, "archive_size.txt")
a_files = [os.path.join(a_dir, "compile_report.txt"), os.path.join(a_dir, "archive_size.txt")]
b_files = [os.path.join(b_dir, "compile_report.txt"), listing]
doc = insights("--compare", ",".join(b_files), *a_files)
found = of(doc, "memory-change")
a_bytes = sum(t["total"] for t in truth["tiles"])
ok = len(found) == 1
if ok:
    ev = found[0]["evidence"]
    ok = ev["a_bytes"] == a_bytes and ev["b_bytes"] == a_bytes + 600_000 and \
        [(t["ipu"], t["tile"]) for t in ev["newly_out_of_memory"]] == [(0, 3)] and \
        found[0]["target"]["run"] == "b" and (found[0]["target"]["ipu"], found[0]["target"]["tile"]) == (0, 3)
tap.ok(ok, "memory-change: B holds 600,000 bytes more (of %d), tile 3 of IPU 0 newly over its limit, selected in B"
       % a_bytes)
doc = insights("--compare", ",".join(a_files), *a_files)
tap.ok(doc["exit"] == 0 and doc["findings"] == [], "a run compared with itself: no finding")


# ---- PyTorch profiler traces written here ---------------------------------

def kineto(steps, path):
    """A PyTorch profiler (Kineto) trace as torch.profiler writes it (the
    layout of docs/formats/frameworks.md): per step, ops on one CPU thread,
    each launching one kernel on a stream of GPU 0. steps: per step, a list
    of (op, cpu_us, kernel_us, stream, pause_us after it)."""
    ev = [{"name": "process_name", "ph": "M", "pid": 100, "tid": 0, "args": {"name": "python"}},
          {"name": "process_labels", "ph": "M", "pid": 100, "tid": 0, "args": {"labels": "CPU"}},
          {"name": "process_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "python"}},
          {"name": "process_labels", "ph": "M", "pid": 1, "tid": 0, "args": {"labels": "GPU 0"}},
          {"name": "thread_name", "ph": "M", "pid": 1, "tid": 7, "args": {"name": "stream 7 "}},
          {"name": "thread_name", "ph": "M", "pid": 1, "tid": 13, "args": {"name": "stream 13 "}}]
    t, ext = 1000, 1
    for i, ops in enumerate(steps):
        start = t
        t += 10
        for name, cpu, kern, stream, pause in ops:
            ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 100, "tid": 100, "ts": t, "dur": cpu,
                       "args": {"External id": ext}})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
                       "ts": t + 1, "dur": 2, "args": {"External id": ext, "correlation": ext}})
            ev.append({"ph": "X", "cat": "kernel", "name": "k_" + name, "pid": 1, "tid": stream, "ts": t + 4,
                       "dur": kern, "args": {"External id": ext, "correlation": ext, "stream": stream, "device": 0}})
            ext += 1
            t += max(cpu, kern + 4) + pause
        t += 10
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 100, "tid": 100,
                   "ts": start, "dur": t - start, "args": {"External id": ext}})
        ext += 1
    with open(path, "w") as f:
        json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Test GPU"}], "traceEvents": ev}, f)
    return ev


def trace_truth(ev):
    """What the trace says, read here: each stream's gaps, the steps, each
    op's host and device time, the span (ns)."""
    xs = [e for e in ev if e.get("ph") == "X"]
    span = (min(e["ts"] for e in xs) * 1000, max((e["ts"] + e["dur"]) * 1000 for e in xs))
    gaps = {}
    for stream in sorted({e["tid"] for e in xs if e["cat"] == "kernel"}):
        spans = sorted((e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000) for e in xs
                       if e["cat"] == "kernel" and e["tid"] == stream)
        reach, mine = None, []
        for s, e in spans:
            if reach is not None and s - reach >= IDLE_GAP_NS:
                mine.append((reach - span[0], s - reach))
            reach = e if reach is None else max(reach, e)
        if mine:
            gaps["stream %d" % stream] = mine
    steps = [(e["name"], e["dur"] * 1000, e["ts"] * 1000 - span[0]) for e in xs if e["cat"] == "user_annotation"]
    ext = {e["args"]["External id"]: e["name"] for e in xs if e["cat"] == "cpu_op"}
    ops = {}
    for e in xs:
        if e["cat"] == "cpu_op":
            ops.setdefault(e["name"], [0, 0])[0] += e["dur"] * 1000
        elif e["cat"] == "kernel":
            ops[ext[e["args"]["External id"]]][1] += e["dur"] * 1000
    return span, gaps, steps, ops


def check_trace(doc, ev, what):
    span, gaps, steps, ops = trace_truth(ev)
    found = {f["evidence"]["unit"]: f for f in of(doc, "idle-gaps")}
    ok = sorted(found) == sorted(gaps)
    for unit, mine in gaps.items():
        if not ok:
            break
        e = found[unit]["evidence"]
        largest = sorted(mine, key=lambda g: (-g[1], g[0]))[:5]
        ok = e["gaps"] == len(mine) and e["idle_ns"] == sum(g[1] for g in mine) and \
            [(g["start_ns"], g["dur_ns"]) for g in e["largest"]] == largest and \
            found[unit]["target"]["view"] == "trace" and found[unit]["target"]["lane"] == unit and \
            found[unit]["target"]["start_ns"] <= largest[0][0] and \
            found[unit]["target"]["end_ns"] >= largest[0][0] + largest[0][1]
    tap.ok(ok, "%s: idle-gaps per stream (>= 100 us): %s" % (what, {u: len(g) for u, g in gaps.items()}))

    durs = sorted(d for _, d, _ in steps)
    n = len(durs)
    median = durs[n // 2] if n % 2 else (durs[n // 2 - 1] + durs[n // 2]) / 2
    slow = sorted(name for name, d, _ in steps if d >= SLOW_FACTOR * median)
    found = of(doc, "slow-step")
    ok = sorted(f["evidence"]["step"] for f in found) == slow and \
        all(close(f["evidence"]["median_ns"], median) and f["target"]["view"] == "trace" and
            f["target"]["end_ns"] - f["target"]["start_ns"] == f["evidence"]["dur_ns"] for f in found)
    tap.ok(ok, "%s: slow-step %s against the median step's %d ns" % (what, slow, median))

    total_device = sum(d for _, d in ops.values())
    long_ops = sorted((n for n, (_, d) in ops.items() if 100.0 * d / total_device >= OPERATOR_SHARE))
    found = of(doc, "long-operator")
    ok = sorted(f["evidence"]["operator"] for f in found) == long_ops and \
        all(close(f["evidence"]["share_percent"], 100.0 * ops[f["evidence"]["operator"]][1] / total_device, 1e-4)
            and f["target"]["operator"] == f["evidence"]["operator"] for f in found)
    tap.ok(ok, "%s: long-operator %s (>= %d %% of the device time)" % (what, long_ops, OPERATOR_SHARE))

    width = span[1] - span[0]
    bound = sorted(n for n, (h, d) in ops.items()
                   if 0 < d < LAUNCH_RATIO * h and 100.0 * h / width >= LAUNCH_MIN_SHARE)
    found = of(doc, "launch-bound")
    ok = sorted(f["evidence"]["operator"] for f in found) == bound and \
        all(close(f["evidence"]["host_ns"], ops[f["evidence"]["operator"]][0]) and
            close(f["evidence"]["device_ns"], ops[f["evidence"]["operator"]][1]) for f in found)
    tap.ok(ok, "%s: launch-bound %s (device < %.1f x host)" % (what, bound, LAUNCH_RATIO))
    return gaps, slow, long_ops, bound


def base_ops(scale=1.0):
    return [("aten::op%d" % j, 94, int(88 * scale), 7, 5) for j in range(12)]


clean_steps = [base_ops() for _ in range(8)]
path = os.path.join(tmp, "clean.json")
ev = clean_ev = kineto(clean_steps, path)
doc = insights(path)
gaps, slow, long_ops, bound = check_trace(doc, ev, "clean trace")
tap.ok(not gaps and not slow and not long_ops and not bound and doc["findings"] == [],
       "clean trace: its truth has no gap, slow step, long or launch-bound operator, and no finding")

planted = [base_ops() for _ in range(8)]
planted[2][4] = ("aten::item", 400, 5, 7, 5)            # launch-bound, and a gap after its kernel
planted[5][6] = ("aten::op6", 94, 88, 7, 2500)           # a 2.5 ms pause: a gap and the slow step
planted[3] = [("aten::convolution", 150, 140, 7, 5)] * 8 + base_ops()[:4]   # the long operator
planted[6][0] = ("aten::op0", 94, 88, 13, 5)             # stream 13: two kernels far apart
planted[7][0] = ("aten::op0", 94, 88, 13, 5)
path = os.path.join(tmp, "planted.json")
ev = kineto(planted, path)
doc = insights(path)
gaps, slow, long_ops, bound = check_trace(doc, ev, "planted trace")
tap.ok(len(gaps.get("stream 7", [])) >= 2 and "stream 13" in gaps and slow == ["ProfilerStep#5"] and
       long_ops == ["aten::convolution"] and bound == ["aten::item"],
       "planted trace: the planted gaps, slow step, long and launch-bound operator are in its truth")

# two traces: op3's kernels three times as long in B, every step slower
b_steps = [[(n, c, k * 3 if n == "aten::op3" else k, s, p) for n, c, k, s, p in ops] for ops in clean_steps]
b_path = os.path.join(tmp, "slower.json")
b_ev = kineto(b_steps, b_path)
doc = insights("--compare", b_path, os.path.join(tmp, "clean.json"))
_, _, a_run_steps, a_ops = trace_truth(clean_ev)
_, _, b_run_steps, b_ops = trace_truth(b_ev)
a_total = sum(d for _, d in a_ops.values())
want = sorted(n for n in a_ops if 100.0 * (b_ops[n][1] - a_ops[n][1]) / a_ops[n][1] > REGRESSION_PCT and
              100.0 * a_ops[n][1] / a_total >= 1)
found = [f for f in of(doc, "regression") if f["evidence"]["operator"]]
tap.ok(sorted(f["evidence"]["operator"] for f in found) == want and
       all(close(f["evidence"]["a"], a_ops[f["evidence"]["operator"]][1]) and
           close(f["evidence"]["b"], b_ops[f["evidence"]["operator"]][1]) for f in found),
       "regression: %s, A's and B's device time as the traces give them" % want)
b_total = sum(d for _, d in b_ops.values())
found = [f for f in of(doc, "regression") if not f["evidence"]["operator"]]
tap.ok(100.0 * (b_total - a_total) / a_total > REGRESSION_PCT and len(found) == 1 and
       close(found[0]["evidence"]["a"], a_total) and close(found[0]["evidence"]["b"], b_total),
       "regression of the operators' total: %d ns in A, %d in B (%+.1f %%)"
       % (a_total, b_total, 100.0 * (b_total - a_total) / a_total))
slower = sorted(a[0] for a, b in zip(a_run_steps, b_run_steps) if 100.0 * (b[1] - a[1]) / a[1] > REGRESSION_PCT)
tap.ok(sorted(f["evidence"]["step"] for f in of(doc, "step-regression")) == slower,
       "step-regression: the steps slower by more than %d %%: %d of them" % (REGRESSION_PCT, len(slower)))
b_step_at = {name: (start, start + dur) for name, dur, start in b_run_steps}
tap.ok(all(f["target"]["run"] == "b" and f["target"]["view"] == "trace" and
           (f["target"]["start_ns"], f["target"]["end_ns"]) == b_step_at[f["evidence"]["step"]]
           for f in of(doc, "step-regression")),
       "step-regression: shown in B's trace over the step, as B's trace times it")
tap.ok(of(doc, "memory-change") == [], "two traces without tile memory: no memory-change")

# ---- Real files ------------------------------------------------------------

data = os.path.join(source_root, "tests", "data")

# a tessera-pop-export file (tests/pva's stand-in run): tiles and their limit
jsonl = os.path.join(tmp, "profile_small.tessera-pop.jsonl")
shutil.copy(os.path.join(data, "poplar", "profile_small.tessera-pop.jsonl"), jsonl)
with open(jsonl) as f:
    records = [json.loads(l) for l in f if l.strip()]
limit = records[0]["target"]["bytes_per_tile"]
tiles = [r for r in records if r.get("record") == "tile"]
over = sorted(((r["ipu"], r["tile"], r["including_gaps"] - limit) for r in tiles if r["including_gaps"] > limit),
              key=lambda t: (-t[2], t[0], t[1]))
always = sum(r["always_live"] for r in tiles)
total = sum(r["including_gaps"] for r in tiles)
doc = insights("--threshold", "always_live_share=10", jsonl)
found = of(doc, "tiles-over-limit")
tap.ok(len(found) == 1 and [(t["ipu"], t["tile"], t["over_bytes"]) for t in found[0]["evidence"]["tiles"]] == over,
       "profile_small: tiles-over-limit %s as the file's including_gaps and bytes_per_tile give them" % over)
found = of(doc, "always-live")
tap.ok(len(found) == 1 and found[0]["evidence"]["always_live_bytes"] == always and
       close(found[0]["evidence"]["share_percent"], 100.0 * always / total),
       "profile_small: always-live %d bytes, %.1f %% of %d (threshold 10 %%)" % (always, 100.0 * always / total, total))
doc = insights(jsonl)
tap.ok(of(doc, "always-live") == [] if 100.0 * always / total < 50 else True,
       "profile_small: %.1f %% always live is under the default 50 %%: no always-live finding" % (100.0 * always / total))

# real PyTorch profiler traces: each stream's gaps, read here (times as
# Decimal µs, so that 16-digit timestamps stay exact)
WORK = ("kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset", "mtia_ccp_events")
for name in sorted(os.listdir(os.path.join(data, "kineto"))):
    if not name.endswith((".json", ".json.gz")):
        continue
    path = os.path.join(tmp, name)
    shutil.copy(os.path.join(data, "kineto", name), path)
    events, _ = load_trace(path)
    work = [e for e in events if e.get("ph") == "X" and "dur" in e and e.get("cat") in WORK]
    doc = insights(path)
    units = {(f["evidence"]["unit"]): f["evidence"] for f in of(doc, "idle-gaps")}
    want = {}
    for key in {(str(e["pid"]), str(e["tid"])) for e in work}:
        spans = sorted((int(Decimal(e["ts"]) * 1000), int((Decimal(e["ts"]) + Decimal(e["dur"])) * 1000))
                       for e in work if (str(e["pid"]), str(e["tid"])) == key)
        reach, mine = None, []
        for s, e in spans:
            if reach is not None and s - reach >= IDLE_GAP_NS:
                mine.append(s - reach)
            reach = e if reach is None else max(reach, e)
        if mine:
            want[key] = (len(mine), sum(mine))
    got = sorted((e["gaps"], e["idle_ns"]) for e in units.values())
    tap.ok(doc["exit"] == 0 and got == sorted(want.values()),
           "%s: idle-gaps per stream as its kernels, copies and sets give them: %s" % (name, sorted(want.values())))
    # the sentence counts the gaps as every figure is written: grouped
    sentences = [f["sentence"] for f in of(doc, "idle-gaps")]
    counts = sorted(n for n, _ in want.values())
    tap.ok(all(any(" %s gap" % format(n, ",") in t for t in sentences) for n in counts),
           "%s: the sentences name %s gaps, grouped" % (name, [format(n, ",") for n in counts]))
    # launch-bound and slow steps against kineto_expected's operators (CPU
    # total, and the kernels each launched, through correlation and
    # External id) and steps, over the trace's span
    truth = kineto_truth(path)
    timed = [e for e in events if e.get("ph") in ("X", "i", "I") and e.get("ts") is not None]
    width = max(ns_of(e["ts"]) + max(ns_of(e.get("dur", 0)) or 0, 0) for e in timed) - \
        min(ns_of(e["ts"]) for e in timed)
    ops = truth["operators"]
    bound = sorted(n for n, s in ops.items() if 0 < s["device_total_ns"] < LAUNCH_RATIO * s["cpu_total_ns"] and
                   100.0 * s["cpu_total_ns"] / width >= LAUNCH_MIN_SHARE)
    found = of(doc, "launch-bound")
    tap.ok(sorted(f["evidence"]["operator"] for f in found) == bound and
           all(close(f["evidence"]["host_ns"], ops[f["evidence"]["operator"]]["cpu_total_ns"]) and
               close(f["evidence"]["device_ns"], ops[f["evidence"]["operator"]]["device_total_ns"]) for f in found),
           "%s: launch-bound %s, host and device time as the trace gives them" % (name, bound))
    durs = sorted(hi - lo for _, lo, hi in truth["runs"])
    n = len(durs)
    median = (durs[n // 2] if n % 2 else (durs[n // 2 - 1] + durs[n // 2]) / 2) if n else 0
    slow = sorted(s for s, lo, hi in truth["runs"] if n >= 3 and hi - lo >= SLOW_FACTOR * median)
    tap.ok(sorted(f["evidence"]["step"] for f in of(doc, "slow-step")) == slow,
           "%s: slow-step %s of its %d steps (median %d ns)" % (name, slow, n, median))
    if n >= 3:
        # real steps differ by a few percent: at 1.01 x the median the slowest stand out
        slow = sorted(s for s, lo, hi in truth["runs"] if hi - lo >= 1.01 * median)
        found = of(insights("--threshold", "slow_step_factor=1.01", path), "slow-step")
        tap.ok(slow and sorted(f["evidence"]["step"] for f in found) == slow and
               all(close(f["evidence"]["median_ns"], median) for f in found),
               "%s: slow-step at 1.01 x the median: %s" % (name, slow))

# a Synaptics Torq compile-time timeline (v1: id, start and end cycle at
# 100 MHz, location, op): each engine's gaps of 1 µs or more, read here
path = os.path.join(tmp, "timeline_v1.csv")
shutil.copy(os.path.join(data, "torq", "timeline_v1.csv"), path)
engines = {"DI": "DMA In", "DO": "DMA Out", "S": "Slices"}
spans = {}
with open(path) as f:
    for line in f:
        row = line.rstrip("\n").split(",")
        if len(row) < 3 or not row[1].isdigit():
            continue
        unit = engines[row[0].rstrip("0123456789")]
        spans.setdefault(unit, []).append((int(row[1]) * 10, int(row[2]) * 10))
want = {}
for unit, mine in spans.items():
    reach, gaps = None, []
    for s0, e0 in sorted(mine):
        if reach is not None and s0 - reach >= 1000:
            gaps.append(s0 - reach)
        reach = e0 if reach is None else max(reach, e0)
    if gaps:
        want[unit] = (len(gaps), sum(gaps))
doc = insights("--threshold", "idle_gap_us=1", path)
got = {f["evidence"]["unit"]: (f["evidence"]["gaps"], f["evidence"]["idle_ns"]) for f in of(doc, "idle-gaps")}
tap.ok(got == want and len(want) > 0, "Torq timeline_v1.csv: each engine's gaps of 1 us or more, as its rows give "
       "them: %s" % want)

# a SigmaStar performance timeline: the operators the vendor gives 10 % or
# more of the cycles (total_cycle_percent), the five largest
path = os.path.join(tmp, "performance_timeline_mini.json")
shutil.copy(os.path.join(data, "sigmastar", "performance_timeline_mini.json"), path)
with open(path) as f:
    layers = [e for e in json.load(f) if e.get("ph") == "X" and "total_cycle_percent" in e.get("args", {})]
want = sorted(((e["args"]["total_cycle_percent"], e["name"], e["args"]["total_cycle"]) for e in layers
               if e["args"]["total_cycle_percent"] >= OPERATOR_SHARE), key=lambda w: -w[0])[:5]
doc = insights(path)
got = [(f["evidence"]["share_percent"], f["evidence"]["operator"], f["evidence"]["total_cycles"])
       for f in of(doc, "long-operator")]
tap.ok(got == want and len(want) > 0, "SigmaStar timeline: long-operator %s as its layers' total_cycle_percent "
       "and total_cycle give them" % [w[1] for w in want])

for rel in (("qaic", "opstats_trace_mini.json"), ("poplar", "compile_report_small.txt"),
            ("poplar", "summary_report_sdk2_popart_2ipus.txt"), ("chrome", "sigmastar_array.json"),
            ("torq", "timeline_v2.csv"), ("torq", "runtime_v1.csv"),
            ("yolov8s_op_time_each.txt",)):
    path = os.path.join(tmp, rel[-1])
    shutil.copy(os.path.join(data, *rel), path)
    out = subprocess.run([cli, "insights", path], capture_output=True, text=True)
    tap.ok(out.returncode == 0 and out.stdout.strip() != "", "%s: text output, exit 0" % "/".join(rel))

out = subprocess.run([cli, "insights", "--threshold", "no_such=1", jsonl], capture_output=True, text=True)
tap.ok(out.returncode == 2 and "no_such" in out.stderr and "memory_imbalance" in out.stderr,
       "--threshold with an unknown name: exit 2, the names listed")
out = subprocess.run([cli, "insights", "--threshold", "sync_share=-1", jsonl], capture_output=True, text=True)
tap.ok(out.returncode == 2, "--threshold with a negative value: exit 2")

bad = os.path.join(tmp, "poplar-report-negative.txt")
shutil.copy(os.path.join(data, "bad", "poplar-report-negative.txt"), bad)
out = subprocess.run([cli, "insights", bad], capture_output=True, text=True)
tap.ok(out.returncode == 1 and "poplar-report-negative.txt:3:" in out.stderr and out.stdout == "",
       "a file that cannot be read: exit 1, the file and line named, nothing printed")
missing = os.path.join(tmp, "no-such-run.json")
out = subprocess.run([cli, "insights", "--compare", missing, jsonl], capture_output=True, text=True)
tap.ok(out.returncode == 1 and "no-such-run.json" in out.stderr and out.stdout == "",
       "--compare with a run that cannot be opened: exit 1, the file named")

shutil.rmtree(tmp, ignore_errors=True)
sys.exit(tap.finish())
