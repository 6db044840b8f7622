#!/usr/bin/env python3
# gen-poplar-profile.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write gen-poplar-tiles.py's run as Poplar SDK 1.x profiles.

  gen-poplar-profile.py --truth DIR/truth.json --outdir DIR

writes, from the truth that gen-poplar-tiles.py wrote (its tiles' bytes by
data type, its BSP steps with cycles per tile):

  DIR/graph.json       the graph profile (poplar::serializeToJSON of
                       Engine::getGraphProfile()): target, graph, vertexTypes,
                       computeSets, programs, memory (byTile, byCategory,
                       liveness);
  DIR/execution.json   the execution profile: profilerMode, simulation
                       (cycles, tileCycles, steps with cyclesByTile);
  DIR/profile.json     both, under graphProfile and executionProfile, as
                       poplibs' tools write them with --profile-json;
  DIR/profile.cbor     the same document in CBOR.

The keys are the ones Graphcore's "Poplar Profile Data" documents and
poplibs' tools/bench.py reads; the values are the truth's, with these
choices of ours (the truth has no liveness): a tile's data types become
Poplar's storage categories (Variables -> variable, ...); its always-live
bytes are its variables, constants and code; its not-always-live bytes at
a step are its stack and vertex state when it works in that step, else its
vertex field data; a step's program is the truth's (a call path ending in
"step<N>") of the phase's type.
"""
import argparse
import json
import os
import struct

CATEGORIES = {
    "Variables": "variable",
    "Constants": "constant",
    "Stack": "stack",
    "Vertex Instances": "vertexInstanceState",
    "Vertex Field Data": "vertexFieldData",
    "Control Code": "controlCode",
    "Vertex Code": "vertexCode",
    "Internal Exchange Code": "internalExchangeCode",
    "Host Exchange Code": "hostExchangeCode",
}
ALWAYS_LIVE = ["Variables", "Constants", "Control Code", "Vertex Code",
               "Internal Exchange Code", "Host Exchange Code"]


def cbor(value):
    """RFC 7049 encoding of what json.load gives (definite lengths)."""
    def head(major, n):
        if n < 24:
            return bytes([major << 5 | n])
        for code, fmt, top in ((24, ">B", 0xff), (25, ">H", 0xffff), (26, ">I", 0xffffffff),
                               (27, ">Q", 0xffffffffffffffff)):
            if n <= top:
                return bytes([major << 5 | code]) + struct.pack(fmt, n)
        raise ValueError(n)

    if value is None:
        return b"\xf6"
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, float):
        return b"\xfb" + struct.pack(">d", value)
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return head(3, len(raw)) + raw
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(v) for v in value)
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value))


def graph_profile(truth):
    tiles = truth["tiles"]
    n = len(tiles)
    steps = sorted({s["step"] for s in truth["steps"]})
    by_step = {}
    for s in truth["steps"]:
        by_step.setdefault(s["step"], []).append(s)
    names = {s["step"]: (s["name"], s["program"]) for s in truth["steps"]}

    def busy(step, index):
        tile = tiles[index]
        for s in by_step[step]:
            if s["ipu"] == tile["ipu"]:
                return s["cycles"][tile["tile"]] > 0
        return False

    nal_by_step = []
    for step in steps:
        row = []
        for i, t in enumerate(tiles):
            d = t["data_types"]
            row.append(d["Stack"] + d["Vertex Instances"] if busy(step, i) else d["Vertex Field Data"])
        nal_by_step.append(row)

    compute_sets = []
    programs = []
    for step in steps:
        kind, name = names[step]
        program = {"type": kind, "name": name}
        if kind == "OnTileExecute":
            program["computeSet"] = len(compute_sets)
            compute_sets.append("cs/" + name)
        programs.append(program)

    return {
        "target": {
            "type": "IPU",
            "numIPUs": truth["ipus"],
            "tilesPerIPU": truth["tiles_per_ipu"],
            "numTiles": n,
            "bytesPerTile": truth["tile_memory_bytes"],
            "bytesPerIPU": truth["tile_memory_bytes"] * truth["tiles_per_ipu"],
            "totalMemory": truth["tile_memory_bytes"] * n,
            "clockFrequency": truth["clock_mhz"] * 1000000.0,
        },
        "graph": {
            "numVertices": truth["graph"]["vertices"],
            "numEdges": truth["graph"]["edges"],
            "numVars": truth["graph"]["variables"],
            "numComputeSets": len(compute_sets),
        },
        "vertexTypes": {"names": list(tiles[0]["vertex_types"].keys())},
        "computeSets": {"names": compute_sets},
        "exchanges": {"codeBytesByTile": [t["data_types"]["Internal Exchange Code"] for t in tiles]},
        "programs": programs,
        "memory": {
            "byTile": {
                "total": [t["total"] for t in tiles],
                "totalIncludingGaps": [t["including_gaps"] for t in tiles],
            },
            "byCategory": {
                CATEGORIES[k]: {"total": [t["data_types"][k] for t in tiles]} for k in CATEGORIES
            },
            "liveness": {
                "alwaysLive": {
                    "bytesByTile": [sum(t["data_types"][k] for k in ALWAYS_LIVE) for t in tiles],
                },
                "notAlwaysLive": {
                    "maxBytesByTile": [max(row[i] for row in nal_by_step) for i in range(n)],
                    "bytes": [sum(row) for row in nal_by_step],
                    "bytesByTile": nal_by_step,
                },
            },
        },
    }


def execution_profile(truth):
    steps = sorted({s["step"] for s in truth["steps"]})
    by_step = {}
    for s in truth["steps"]:
        by_step.setdefault(s["step"], []).append(s)
    sim_steps = []
    compute = exchange = 0
    for step in steps:
        parts = sorted(by_step[step], key=lambda s: s["ipu"])
        cycles = []
        for p in parts:
            cycles.extend(p["cycles"])
        start = parts[0]["start"]
        sim_steps.append({"program": step, "cyclesFrom": start,
                          "cyclesTo": start + max(p["dur"] for p in parts),
                          "cyclesByTile": cycles})
        if parts[0]["state"] == "compute":
            compute += sum(cycles)
        elif parts[0]["state"] == "exchange":
            exchange += sum(cycles)
    return {
        "profilerMode": "IPU_MODEL",
        "simulation": {
            "cycles": max(r["end"] for r in truth["runs"]),
            "tileCycles": {"compute": compute, "doExchange": exchange},
            "steps": sim_steps,
        },
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--outdir", required=True)
    a = ap.parse_args()

    with open(a.truth) as f:
        truth = json.load(f)
    graph = graph_profile(truth)
    execution = execution_profile(truth)
    os.makedirs(a.outdir, exist_ok=True)
    for name, doc in (("graph.json", graph), ("execution.json", execution),
                      ("profile.json", {"graphProfile": graph, "executionProfile": execution})):
        with open(os.path.join(a.outdir, name), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    with open(os.path.join(a.outdir, "profile.cbor"), "wb") as f:
        f.write(cbor({"graphProfile": graph, "executionProfile": execution}))


if __name__ == "__main__":
    main()
