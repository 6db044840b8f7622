#!/usr/bin/env python3
# test-poplar-profile.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""The poplar-profile importer against an independent reading.

  test-poplar-profile.py SOURCE_ROOT TESSERA_CLI

Every figure tessera-cli prints for a Poplar SDK 1.x profile (memory --tiles
--csv: each tile's bytes by category; tiles --csv: each tile's cycles by
state; info --json: counts and info) and the cache's liveness counters and
BSP steps are compared with what this script reads from the same files with
json (and, for CBOR, the small decoder below), and, for the profiles
tests/gen-poplar-profile.py writes, with gen-poplar-tiles.py's truth.json.
Bad input must fail naming the key path or byte, and leave no cache.
"""
import csv
import io
import json
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cache_chunks  # noqa: E402

SRC = sys.argv[1]
CLI = sys.argv[2]
FAILURES = []
CHECKS = [0]


def check(cond, what):
    CHECKS[0] += 1
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def cbor_load(data):
    """RFC 7049 items as json.load gives them (maps, arrays, text, numbers)."""
    pos = [0]

    def take(n):
        if pos[0] + n > len(data):
            raise ValueError("truncated at byte %d" % pos[0])
        chunk = data[pos[0]:pos[0] + n]
        pos[0] += n
        return chunk

    def length(info):
        if info < 24:
            return info
        size = {24: 1, 25: 2, 26: 4, 27: 8}[info]
        return int.from_bytes(take(size), "big")

    def item():
        first = take(1)[0]
        major, info = first >> 5, first & 31
        if major == 6:
            length(info)
            return item()
        if major == 7:
            if info == 20:
                return False
            if info == 21:
                return True
            if info in (22, 23):
                return None
            if info == 25:
                raw = int.from_bytes(take(2), "big")
                return struct.unpack(">e", raw.to_bytes(2, "big"))[0]
            if info == 26:
                return struct.unpack(">f", take(4))[0]
            if info == 27:
                return struct.unpack(">d", take(8))[0]
            raise ValueError("simple value %d" % info)
        if info == 31:
            if major in (2, 3):
                chunks = []
                while data[pos[0]] != 0xff:
                    chunks.append(item())
                pos[0] += 1
                return "".join(chunks)
            if major == 4:
                out = []
                while data[pos[0]] != 0xff:
                    out.append(item())
                pos[0] += 1
                return out
            if major == 5:
                out = {}
                while data[pos[0]] != 0xff:
                    k = item()
                    out[k] = item()
                pos[0] += 1
                return out
            raise ValueError("indefinite length of major type %d" % major)
        n = length(info)
        if major == 0:
            return n
        if major == 1:
            return -1 - n
        if major == 3:
            return take(n).decode("utf-8")
        if major == 4:
            return [item() for _ in range(n)]
        if major == 5:
            out = {}
            for _ in range(n):
                k = item()
                out[k] = item()
            return out
        raise ValueError("major type %d" % major)

    value = item()
    if pos[0] != len(data):
        raise ValueError("trailing data")
    return value


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    return json.loads(raw) if raw.lstrip()[:1] == b"{" else cbor_load(raw)


def merged(paths):
    """graph and execution profile of one or two documents."""
    graph, execution = {}, {}
    for p in paths:
        doc = load(p)
        if "graphProfile" in doc or "executionProfile" in doc:
            graph.update(doc.get("graphProfile", {}))
            execution.update(doc.get("executionProfile", {}))
        else:
            if any(k in doc for k in ("target", "memory", "graph", "vertexTypes", "computeSets")):
                graph.update(doc)
            if any(k in doc for k in ("simulation", "profilerMode")):
                execution.update(doc)
    return graph, execution


def expected(paths):
    """What the cache must hold, read from the documents directly."""
    graph, execution = merged(paths)
    target = graph.get("target", {})
    memory = graph.get("memory", {})
    by_tile = memory.get("byTile", {})
    cats = {k: (v["total"] if isinstance(v, dict) else v) for k, v in memory.get("byCategory", {}).items()}
    sim = execution.get("simulation", {})
    steps = sim.get("steps", [])
    lengths = [len(by_tile.get("total", [])), len(by_tile.get("totalIncludingGaps", []))]
    lengths += [len(v) for v in cats.values()] + [len(s.get("cyclesByTile", [])) for s in steps]
    n = target["numIPUs"] * target["tilesPerIPU"] if "numIPUs" in target and "tilesPerIPU" in target \
        else max(lengths + [0])
    tpi = target.get("tilesPerIPU", n) or 1
    programs = graph.get("programs") or execution.get("programs") or []

    tiles = {}
    for t in range(n):
        rows = {}
        for name, arr in cats.items():
            if t < len(arr) and arr[t] > 0:
                rows[name] = arr[t]
        claimed = sum(arr[t] for arr in cats.values() if t < len(arr))
        total = by_tile.get("total")
        if total and total[t] > claimed:
            rows["other"] = total[t] - claimed
        incl = by_tile.get("totalIncludingGaps")
        if incl and total and incl[t] > total[t]:
            rows["gaps"] = incl[t] - total[t]
        tiles[(t // tpi, t % tpi)] = rows

    def state_of(step):
        p = programs[step["program"]] if "program" in step and step["program"] < len(programs) else {}
        kind = step.get("type") or p.get("type") or step.get("name") or p.get("name") or ""
        if "Sync" in kind:
            return "sync"
        if "Exchange" in kind or "Copy" in kind:
            return "exchange"
        return "compute"

    states = {}
    bsp = []
    for i, s in enumerate(steps):
        st = state_of(s)
        cyc = s.get("cyclesByTile", [])
        for ipu in range((n + tpi - 1) // tpi):
            mine = cyc[ipu * tpi:(ipu + 1) * tpi]
            if not any(mine):
                continue
            bsp.append({"ipu": ipu, "step": i, "start": s["cyclesFrom"], "dur": max(mine),
                        "cycles": mine + [0] * (tpi - len(mine))})
            for t, c in enumerate(mine):
                row = states.setdefault((ipu, t), {"compute": 0, "exchange": 0, "sync": 0, "idle": 0})
                row[st if c > 0 else "idle"] += c
    live = memory.get("liveness", {})
    nal = live.get("notAlwaysLive", {})
    info = {}
    if "numIPUs" in target:
        info["target.ipus"] = target["numIPUs"]
    if "tilesPerIPU" in target:
        info["target.tiles_per_ipu"] = target["tilesPerIPU"]
    if "clockFrequency" in target:
        info["target.clock_hz"] = round(target["clockFrequency"])
    if "bytesPerTile" in target:
        info["target.bytes_per_tile"] = target["bytesPerTile"]
    for key, name in (("numVertices", "vertices"), ("numEdges", "edges"), ("numVars", "variables"),
                      ("numComputeSets", "compute_sets")):
        if key in graph.get("graph", {}):
            info["graph." + name] = graph["graph"][key]
    if "total" in by_tile:
        info["memory.excluding_gaps"] = sum(by_tile["total"])
    if "totalIncludingGaps" in by_tile:
        info["memory.including_gaps"] = sum(by_tile["totalIncludingGaps"])
    for name, arr in cats.items():
        info["memory.category." + name] = sum(arr)
    if "bytesByTile" in live.get("alwaysLive", {}):
        info["liveness.always_live"] = sum(live["alwaysLive"]["bytesByTile"])
        for t, v in enumerate(live["alwaysLive"]["bytesByTile"]):
            info["tile.%d.liveness.always_live" % t] = v
    if "maxBytesByTile" in nal:
        info["liveness.not_always_live_max"] = sum(nal["maxBytesByTile"])
        for t, v in enumerate(nal["maxBytesByTile"]):
            info["tile.%d.liveness.not_always_live_max" % t] = v
    live_steps = [sum(row) for row in nal["bytesByTile"]] if "bytesByTile" in nal else nal.get("bytes", [])
    if live_steps:
        info["liveness.not_always_live_peak"] = max(live_steps)
        info["liveness.not_always_live_peak_step"] = live_steps.index(max(live_steps))
    if "cycles" in sim:
        info["execution.total_cycles"] = sim["cycles"]
    for k, v in sim.get("tileCycles", {}).items():
        info["execution.tile_cycles." + k] = v

    # liveness counters: per IPU from bytesByTile, else one from bytes
    counters = {}
    per_step = nal.get("bytesByTile")
    totals = nal.get("bytes")
    n_live = len(per_step) if per_step else len(totals) if totals else 0
    timed = n_live > 0 and len(steps) >= n_live
    if per_step:
        for ipu in range((n + tpi - 1) // tpi):
            counters[ipu] = [(steps[s]["cyclesFrom"] if timed else s, sum(row[ipu * tpi:(ipu + 1) * tpi]))
                             for s, row in enumerate(per_step)]
    elif totals:
        counters[None] = [(steps[s]["cyclesFrom"] if timed else s, v) for s, v in enumerate(totals)]
    # Execution Trace: a slice per working tile and step; a step without
    # cycles per tile is one slice on each IPU's own track
    n_ipus = (n + tpi - 1) // tpi if n else 0
    slices = sum(sum(1 for c in s["cyclesByTile"][:n] if c > 0) if s.get("cyclesByTile") else n_ipus
                 for s in steps)
    names = []
    for st in steps:
        p = programs[st["program"]] if "program" in st and st["program"] < len(programs) else {}
        cs = graph.get("computeSets", {}).get("names", [])
        names.append(st.get("name") or p.get("name")
                     or (cs[p["computeSet"]] if "computeSet" in p and p["computeSet"] < len(cs) else None)
                     or st.get("type") or p.get("type") or "step")
    lanes = {}
    for t in range(n):
        row = [(st["cyclesFrom"], st["cyclesByTile"][t], names[i]) for i, st in enumerate(steps)
               if t < len(st.get("cyclesByTile", [])) and st["cyclesByTile"][t] > 0]
        if row:
            lanes[t] = row
    return {"n": n, "tpi": tpi, "tiles": tiles, "slices": slices, "lanes": lanes, "states": states, "bsp": bsp, "info": info,
            "counters": counters, "limit": target.get("bytesPerTile")}


def cli(*args, ok=True):
    r = subprocess.run([CLI] + list(args), capture_output=True, text=True)
    if ok and r.returncode != 0:
        raise SystemExit("tessera-cli %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def compare(label, paths, truth=None):
    exp = expected(paths)
    info = json.loads(cli("info", "--json", "--reimport", *paths).stdout)
    check(info["importer"] == "poplar-profile", "%s: importer %s" % (label, info["importer"]))
    for key, value in exp["info"].items():
        check(info["info"].get(key) == str(value),
              "%s: info %s = %s, expected %s" % (label, key, info["info"].get(key), value))
    check(info["counts"]["tiles"] == exp["n"], "%s: %s tiles, expected %d" % (label, info["counts"]["tiles"], exp["n"]))
    check(info["counts"]["slices"] == exp["slices"],
          "%s: %s slices, expected %d" % (label, info["counts"]["slices"], exp["slices"]))
    check(info["counts"]["bsp_steps"] == len(exp["bsp"]),
          "%s: %s BSP steps, expected %d" % (label, info["counts"]["bsp_steps"], len(exp["bsp"])))

    has_memory = any(exp["tiles"].values())
    rows = list(csv.reader(io.StringIO(cli("memory", "--tiles", "--csv", *paths).stdout))) if has_memory else [[]]
    header = rows[0]
    seen = set()
    for row in rows[1:]:
        if len(row) < 3 or not row[0].isdigit():
            continue
        key = (int(row[0]), int(row[1]))
        seen.add(key)
        want = exp["tiles"].get(key, {})
        got = {header[i]: int(v) for i, v in enumerate(row) if i >= 3 and v != ""}
        got = {k: v for k, v in got.items() if v != 0}
        check(got == want, "%s: tile %s bytes %s, expected %s" % (label, key, got, want))
        check(int(row[2]) == sum(want.values()), "%s: tile %s total %s, expected %d" % (label, key, row[2], sum(want.values())))
        if truth is not None:
            t = truth["tiles"][key[0] * truth["tiles_per_ipu"] + key[1]]
            check(int(row[2]) == t["including_gaps"],
                  "%s: tile %s total %s, truth %d" % (label, key, row[2], t["including_gaps"]))
    check(seen == {k for k, v in exp["tiles"].items() if v}, "%s: tiles listed %d, expected %d" % (label, len(seen), len(exp["tiles"])))

    if exp["bsp"]:
        rows = list(csv.DictReader(io.StringIO(cli("tiles", "--csv", *paths).stdout)))
        for row in rows:
            key = (int(row["ipu"]), int(row["tile"]))
            want = exp["states"].get(key, {"compute": 0, "exchange": 0, "sync": 0, "idle": 0})
            for state in ("compute", "exchange", "sync"):
                check(int(row[state]) == want[state],
                      "%s: tile %s %s %s, expected %d" % (label, key, state, row[state], want[state]))
        check(len(rows) == exp["n"], "%s: tiles rows %d, expected %d" % (label, len(rows), exp["n"]))

    db = sqlite3.connect("file:%s?mode=ro" % info["cache"]["path"], uri=True)
    got_bsp = []
    for name, step, start, dur, n_tiles, cycles in db.execute(
            "SELECT r.name, b.step, b.start, b.dur, b.n_tiles, b.tile_cycles FROM bsp_steps b "
            "JOIN runs r ON r.id = b.run_id ORDER BY r.name, b.step"):
        got_bsp.append({"ipu": int(name.split()[1]), "step": step, "start": start, "dur": dur,
                        "cycles": list(struct.unpack("<%dI" % n_tiles, cycles))})
    want_bsp = sorted(exp["bsp"], key=lambda s: (s["ipu"], s["step"]))
    check(got_bsp == want_bsp, "%s: BSP steps differ (%d vs %d)" % (label, len(got_bsp), len(want_bsp)))
    if truth is not None:
        tb = sorted(({"ipu": s["ipu"], "step": s["step"], "start": s["start"], "dur": s["dur"], "cycles": s["cycles"]}
                     for s in truth["steps"]), key=lambda s: (s["ipu"], s["step"]))
        check(got_bsp == tb, "%s: BSP steps differ from the truth" % label)
        runs = {n: (a, b) for n, a, b in db.execute("SELECT name, start, \"end\" FROM runs")}
        for run in truth["runs"]:
            check(runs.get(run["name"]) == (run["start"], run["end"]),
                  "%s: run %s %s, truth %s" % (label, run["name"], runs.get(run["name"]), (run["start"], run["end"])))
    # every tile lane's slices: (start, cycles, name) per step it works in
    strings = dict(db.execute("SELECT id, value FROM strings"))
    got_lanes = {}
    for track, native, in db.execute("SELECT id, native_id FROM tracks WHERE kind = 4"):
        rows = []
        for data, n, args, search, sums in db.execute("SELECT data, n, args, search, sums FROM slice_chunks "
                                                      "WHERE track_id = ? ORDER BY first_index", (track,)):
            wrong = cache_chunks.check_summaries(data, args, search, sums, n)
            check(wrong is None, "%s: a chunk's %s do not match its slices (track %d)" % (label, wrong, track))
            for start, dur, _self, name, _cat, _parent, _depth, _flags in cache_chunks.records(data, n):
                rows.append((start, dur, strings.get(name)))
        got_lanes[int(native)] = rows
    check(got_lanes == exp["lanes"], "%s: tile lanes differ (%d lanes, expected %d)" % (label, len(got_lanes), len(exp["lanes"])))
    for ipu, values in exp["counters"].items():
        if ipu is None:
            q = ("SELECT c.ts, c.value FROM counter_values c JOIN tracks t ON t.id = c.track_id "
                 "WHERE t.kind = 8 AND t.parent_id IS NULL OR t.parent_id = 0 ORDER BY c.ts")
            got = [(ts, int(v)) for ts, v in db.execute(q)]
        else:
            q = ("SELECT c.ts, c.value FROM counter_values c JOIN tracks t ON t.id = c.track_id "
                 "JOIN tracks p ON p.id = t.parent_id WHERE t.kind = 8 AND p.name = ? ORDER BY c.ts")
            got = [(ts, int(v)) for ts, v in db.execute(q, ("IPU %d" % ipu,))]
        check(got == values, "%s: liveness of IPU %s: %s, expected %s" % (label, ipu, got[:3], values[:3]))
    db.close()


def bad(label, tmp, name, content, needle):
    path = os.path.join(tmp, name)
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as f:
        f.write(content)
    r = cli("info", path, ok=False)
    check(r.returncode != 0, "%s: accepted" % label)
    check(needle in r.stderr and path in r.stderr, "%s: error %r lacks %r" % (label, r.stderr.strip(), needle))
    check(not os.path.exists(path + ".tessera"), "%s: left a cache" % label)
    os.unlink(path)


def main():
    tmp = tempfile.mkdtemp(prefix="tes-poplar-profile-")
    try:
        gen = os.path.join(tmp, "gen")
        subprocess.run([sys.executable, os.path.join(SRC, "tests", "gen-poplar-tiles.py"), "--seed", "5",
                        "--ipus", "2", "--tiles", "12", "--steps", "14", "--outdir", gen],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, os.path.join(SRC, "tests", "gen-poplar-profile.py"),
                        "--truth", os.path.join(gen, "truth.json"), "--outdir", gen], check=True)
        with open(os.path.join(gen, "truth.json")) as f:
            truth = json.load(f)
        g = lambda n: os.path.join(gen, n)
        compare("graph+execution", [g("graph.json"), g("execution.json")], truth)
        compare("execution+graph", [g("execution.json"), g("graph.json")], truth)
        compare("combined JSON", [g("profile.json")], truth)
        compare("combined CBOR", [g("profile.cbor")], truth)
        compare("graph only", [g("graph.json")])
        compare("execution only", [g("execution.json")])

        data = os.path.join(SRC, "tests", "data", "poplar")
        for name in sorted(os.listdir(data)):
            if name.startswith("profile-") and (name.endswith(".json") or name.endswith(".cbor")):
                work = os.path.join(tmp, name)
                shutil.copy(os.path.join(data, name), work)
                compare(name, [work])

        r = cli("info", g("graph.json"), g("profile.json"), ok=False)
        check(r.returncode != 0 and "holds a graph profile, and so does " + g("graph.json") in r.stderr,
              "two graph profiles: %r" % r.stderr.strip())

        with open(g("profile.json")) as f:
            doc = json.load(f)
        d = json.loads(json.dumps(doc))
        d["graphProfile"]["memory"]["byTile"]["total"][17] = "many"
        bad("string byte count", tmp, "b1.json", json.dumps(d), "graphProfile.memory.byTile.total[17]: expected a whole number")
        d = json.loads(json.dumps(doc))
        d["graphProfile"]["memory"]["byTile"]["total"].pop()
        bad("short byTile", tmp, "b2.json", json.dumps(d), "graphProfile.memory.byTile.total: 23 entries, but the target has 24 tiles")
        d = json.loads(json.dumps(doc))
        d["executionProfile"]["simulation"]["steps"][3]["cyclesTo"] = 0
        bad("step ends before it starts", tmp, "b3.json", json.dumps(d), "executionProfile.simulation.steps[3].cyclesTo")
        d = json.loads(json.dumps(doc))
        d["executionProfile"]["simulation"]["steps"][2]["cyclesByTile"][5] = -4
        bad("negative cycles", tmp, "b4.json", json.dumps(d), "executionProfile.simulation.steps[2].cyclesByTile[5]")
        d = json.loads(json.dumps(doc))
        d["graphProfile"]["target"]["numTiles"] = 25
        bad("numTiles", tmp, "b5.json", json.dumps(d), "graphProfile.target.numTiles")
        d = json.loads(json.dumps(doc))
        d["graphProfile"]["memory"]["byCategory"]["stack"] = {"bytes": []}
        bad("category without total", tmp, "b6.json", json.dumps(d), "graphProfile.memory.byCategory.stack")
        bad("JSON syntax", tmp, "b7.json", '{"graphProfile": {"target": {"numIPUs": 1,}}}', "not valid JSON")
        with open(g("profile.cbor"), "rb") as f:
            raw = f.read()
        bad("truncated CBOR", tmp, "b8.cbor", raw[:len(raw) // 2], "byte ")
        bad("CBOR byte string", tmp, "b9.cbor", b"\xa1\x6cgraphProfile\x41\x00", "byte 14: a byte string")
        bad("CBOR trailing", tmp, "b10.cbor", raw + b"\x00", "byte %d: data after the end" % len(raw))
    finally:
        shutil.rmtree(tmp)

    print("%d passed, %d failed" % (CHECKS[0] - len(FAILURES), len(FAILURES)))
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
