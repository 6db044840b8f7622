#!/usr/bin/env python3
# gen-poplar-tiles.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write one Graphcore Poplar run as three files, all from one truth.

  gen-poplar-tiles.py --seed 7 --ipus 2 --tiles 24 --steps 16 --outdir DIR

The layouts are the ones docs/formats/poplar.md describes:

  DIR/compile_report.txt  the text compile report: Target, Graph, Memory Usage
                          (regions, data types, vertex data), the By Tile
                          (Excluding Gaps) histogram with its Maximum lines and
                          tiles out of memory, and a 'Tile # N memory usage:'
                          block for each of the heaviest tiles;
  DIR/archive_size.txt    `size -A archive.a`: one member ipu<I>_tile<T>.elf per
                          tile, its sections adding up to the tile's total;
  DIR/execution.json      a tile execution trace: a process "IPU i" per IPU, a
                          thread "Tile t" per tile, one X event per busy tile
                          and BSP step (args cycles, step, program), a host
                          process, otherData.clock_mhz;
  DIR/truth.json          what the three were written from (also printed on
                          standard output), for tests/test-poplar-*.c to compare
                          the importers' per-tile figures, BSP steps and runs
                          with, tile by tile.

Everything is decided by --seed: the same arguments write the same bytes.
"""
import argparse
import json
import os
import random

# Poplar's data types (the report's By Data Type rows), and where this
# generator puts each in the tile's ELF: the mapping is ours, since none is
# documented; it only has to keep the two views of a tile's bytes equal.
DATA_TYPES = [
    ("Variables", ".data"),
    ("Constants", ".rodata"),
    ("Stack", ".bss"),
    ("Vertex Instances", ".data.vertex"),
    ("Vertex Field Data", ".data.vertex"),
    ("Control Code", ".text"),
    ("Vertex Code", ".text.vertex"),
    ("Internal Exchange Code", ".text.exchange"),
    ("Host Exchange Code", ".text.exchange"),
]
VERTEX_TYPES = [
    "poplin::ConvPartial1x1Out<half,float,true,false>",
    "popops::ScaledAddSupervisor<half,half,true>",
    "popops::Reduce<popops::ReduceAdd,float,float,false,0>",
]
# The BSP phases a step can be, with the tile state each stands for.
PHASES = [
    ("OnTileExecute", "compute"),
    ("DoExchange", "exchange"),
    ("OnTileExecute", "compute"),
    ("Sync", "sync"),
    ("StreamCopy", "exchange"),
    ("OnTileExecute", "compute"),
    ("GlobalExchange", "exchange"),
]
# Where each phase's program sits in the model: Poplar names programs by
# their debug context, a slash-separated call path ("layer1/conv/Conv2D"),
# which PopVision's Group Executions groups by. A run of PHASES is a layer.
SCOPES = ["conv", "conv", "conv", "sync", "io", "dense", "dense"]
CLOCKS_MHZ = [1330, 1600, 1850]
HOT_TILES = 2          # tiles given far more Variables than fit
DETAILED_TILES = 4     # Tile # N blocks, heaviest first
MAX_BINS = 40


def thousands(n):
    return "{:,}".format(n)


def make_tiles(rnd, ipus, tiles_per_ipu, limit, hot_tiles=HOT_TILES):
    n = ipus * tiles_per_ipu
    hot = set(rnd.sample(range(n), min(hot_tiles, n)))
    tiles = []
    for index in range(n):
        types = {
            "Variables": rnd.randint(600_000, 700_000) if index in hot else rnd.randint(40_000, 160_000),
            "Constants": rnd.randint(0, 6_000),
            "Stack": 2_048,
            "Vertex Instances": rnd.randint(1_000, 12_000),
            "Vertex Field Data": rnd.randint(0, 5_000),
            "Control Code": rnd.randint(10_000, 30_000),
            "Vertex Code": rnd.randint(5_000, 25_000),
            "Internal Exchange Code": rnd.randint(2_000, 40_000),
            "Host Exchange Code": rnd.choice([0, rnd.randint(100, 2_000)]),
        }
        total = sum(types.values())
        sections = {}
        for name, section in DATA_TYPES:
            sections[section] = sections.get(section, 0) + types[name]
        # vertex data = the vertex instances, split by category and type
        edges = types["Vertex Instances"] // 4
        cut = sorted(rnd.randint(0, types["Vertex Instances"]) for _ in range(len(VERTEX_TYPES) - 1))
        bounds = [0] + cut + [types["Vertex Instances"]]
        tiles.append({
            "ipu": index // tiles_per_ipu,
            "tile": index % tiles_per_ipu,
            "index": index,
            "total": total,
            "including_gaps": total + rnd.randint(0, 4_096),
            "overflowed": max(0, total - limit),
            "data_types": types,
            "sections": sections,
            "vertex_categories": {"Internal vertex state": types["Vertex Instances"] - edges,
                                  "Edge pointers": edges},
            "vertex_types": {v: bounds[i + 1] - bounds[i] for i, v in enumerate(VERTEX_TYPES)},
        })
    return tiles


def make_histogram(tiles):
    """Bins of a power-of-two width in KB; the printed ones hold tiles or
    border a bin that does (Poplar leaves long empty runs out)."""
    kbs = [t["total"] // 1024 for t in tiles]
    width = 1
    while (max(kbs) // width) - (min(kbs) // width) + 1 > MAX_BINS:
        width *= 2
    start = (min(kbs) // width) * width
    counts = [0] * ((max(kbs) - start) // width + 1)
    for kb in kbs:
        counts[(kb - start) // width] += 1
    shown = [i for i, c in enumerate(counts)
             if c or (i > 0 and counts[i - 1]) or (i + 1 < len(counts) and counts[i + 1])]
    return {"width_kb": width, "start_kb": start, "counts": counts, "shown": shown}


def make_steps(rnd, ipus, tiles_per_ipu, n_steps, clean=False, busy=(), idle=(), heavy=None):
    """Per BSP step, on every IPU, the cycles of each tile (0: idle). All
    tiles of a step start together; the next step starts after the slowest
    IPU plus a sync gap. clean: every tile works 90-100 % of every step and
    exchanges and syncs are short (a run without a finding); the tiles in
    busy (per IPU) compute twice the step's base in every compute step, those
    in idle never work (the planted hot and idle tiles of test-insights).
    heavy maps a state ("sync", "exchange") to the IPUs on which every tile
    spends twenty times the step's base in each step of that state (an IPU
    that waits or exchanges far more than it computes)."""
    heavy = heavy or {}
    steps = []
    cycle = 0
    for s in range(n_steps):
        name, state = PHASES[s % len(PHASES)]
        busy_share = 1.0 if clean else rnd.uniform(0.3, 0.9) if state == "compute" else 1.0
        base = rnd.randint(300, 6_000)
        if clean and state != "compute":
            base = max(30, base // 10)
        low = base * 9 // 10 if clean else base // 2
        longest_all = 0
        for ipu in range(ipus):
            cycles = [rnd.randint(low, base) if rnd.random() < busy_share else 0
                      for _ in range(tiles_per_ipu)]
            for tile in idle:
                cycles[tile] = 0
            for tile in busy:
                if state == "compute":
                    cycles[tile] = 2 * base
            if ipu in heavy.get(state, ()):
                cycles = [20 * base] * tiles_per_ipu
            if not any(cycles):
                cycles[rnd.randrange(tiles_per_ipu)] = base
            longest = max(cycles)
            longest_all = max(longest_all, longest)
            program = "layer%d/%s/step%d" % (s // len(PHASES), SCOPES[s % len(SCOPES)], s)
            steps.append({"ipu": ipu, "step": s, "name": name, "state": state,
                          "program": program, "start": cycle, "dur": longest,
                          "cycles": cycles})
        cycle += longest_all + rnd.randint(10, 40)
    return steps


def make_runs(steps, ipus):
    runs = []
    for ipu in range(ipus):
        mine = [s for s in steps if s["ipu"] == ipu]
        runs.append({"name": "IPU %d" % ipu, "ipu": ipu,
                     "start": min(s["start"] for s in mine),
                     "end": max(s["start"] + s["dur"] for s in mine)})
    return runs


def memory_block(lines, types, vertex_categories, vertex_types, regions, including,
                 total_heading=False):
    """The Memory Usage lines shared by the whole graph and each tile."""
    if total_heading:
        lines.append("  Total:")
    lines.append("    Including Gaps:         %12s B" % thousands(including))
    lines.append("    Excluding Gaps:")
    if regions:
        lines.append("      By Memory Region:")
        for name, value in regions:
            lines.append("        %-20s %12s B" % (name + ":", thousands(value)))
    lines.append("      By Data Type:")
    for name, _ in DATA_TYPES:
        lines.append("          %-36s%12s B" % (name + ":", thousands(types[name])))
    lines.append("        Vertex Data (%sB):" % thousands(sum(vertex_types.values())))
    lines.append("          By Category:")
    for name, value in vertex_categories.items():
        lines.append("            %-28s%10s B" % (name + ":", thousands(value)))
    lines.append("          By Type:")
    for name, value in vertex_types.items():
        lines.append("            %-70s%10s B" % (name, thousands(value)))


def summed(tiles, key):
    out = {}
    for t in tiles:
        for name, value in t[key].items():
            out[name] = out.get(name, 0) + value
    return out


def write_report(path, truth):
    tiles = truth["tiles"]
    n = len(tiles)
    limit = truth["tile_memory_bytes"]
    hist = truth["histogram"]
    graph = truth["graph"]
    lines = [
        "Target:",
        "  Number of IPUs:         %s" % thousands(truth["ipus"]),
        "  Tiles per IPU:          %s" % thousands(truth["tiles_per_ipu"]),
        "  Total Tiles:            %s" % thousands(n),
        "  Memory Per-Tile:        %.1f kB" % (limit / 1024),
        "  Total Memory:           %.1f MB" % (limit * n / 1024 / 1024),
        "  Clock Speed (approx):   {:,.1f} MHz".format(truth["clock_mhz"]),
        "",
        "Graph:",
        "  Number of vertices:       %10s" % thousands(graph["vertices"]),
        "  Number of edges:          %10s" % thousands(graph["edges"]),
        "  Number of variables:      %10s" % thousands(graph["variables"]),
        "  Number of compute sets:   %10s" % thousands(graph["compute_sets"]),
        "",
        "Memory Usage:",
    ]
    memory_block(lines, truth["data_types"], summed(tiles, "vertex_categories"),
                 summed(tiles, "vertex_types"), list(truth["regions"].items()),
                 truth["including_gaps"], total_heading=True)
    lines += ["", "  By Tile (Excluding Gaps):",
              "    Range (KB) Histogram (Excluding Gaps)               Count (tiles)"]
    peak = max(hist["counts"])
    for i in hist["shown"]:
        low = hist["start_kb"] + i * hist["width_kb"]
        count = hist["counts"][i]
        bar = "*" * (max(1, 40 * count // peak) if count else 0)
        lines.append("    %6d - %4d %-40s %6s" % (low, low + hist["width_kb"], bar, thousands(count)))
    top_in = tiles[truth["max_including_gaps_tile"]]
    top_ex = tiles[truth["top_tiles"][0]]
    lines += [
        "",
        "    Maximum (Including Gaps): %s (%.1f K) on tile %d" % (
            thousands(top_in["including_gaps"]), top_in["including_gaps"] / 1024, top_in["index"]),
        "    Maximum (Excluding Gaps): %s (%.1f K) on tile %d" % (
            thousands(top_ex["total"]), top_ex["total"] / 1024, top_ex["index"]),
        "    %d tile(s) out of memory" % truth["out_of_memory"],
        "",
    ]
    for index in truth["top_tiles"]:
        t = tiles[index]
        lines.append("Tile # %d memory usage:" % index)
        lines.append("Memory Usage:")
        memory_block(lines, t["data_types"], t["vertex_categories"], t["vertex_types"],
                     [("Non-interleaved", t["total"] - t["overflowed"]), ("Overflowed", t["overflowed"])],
                     t["including_gaps"])
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_listing(path, truth):
    with open(path, "w") as f:
        for t in truth["tiles"]:
            f.write("ipu%d_tile%d.elf   (ex archive.a):\n" % (t["ipu"], t["tile"]))
            f.write("%-20s%10s%10s\n" % ("section", "size", "addr"))
            addr = 0
            for section, size in t["sections"].items():
                f.write("%-20s%10d%10d\n" % (section, size, addr))
                addr += size
            f.write("%-20s%10d\n\n\n" % ("Total", t["total"]))


def write_trace(path, truth, rnd):
    mhz = truth["clock_mhz"]

    def us(cycles):
        # µs to four decimals, as the tool prints them: within a cycle
        return round(cycles / mhz, 4)

    events = []
    host = truth["ipus"] + 100
    for ipu in range(truth["ipus"]):
        events.append({"ph": "M", "name": "process_name", "pid": ipu, "args": {"name": "IPU %d" % ipu}})
        for tile in range(truth["tiles_per_ipu"]):
            events.append({"ph": "M", "name": "thread_name", "pid": ipu, "tid": tile,
                           "args": {"name": "Tile %d" % tile}})
    events.append({"ph": "M", "name": "process_name", "pid": host, "args": {"name": "Host"}})
    events.append({"ph": "M", "name": "thread_name", "pid": host, "tid": 0, "args": {"name": "Engine::run"}})
    for step in truth["steps"]:
        busy = [(tile, c) for tile, c in enumerate(step["cycles"]) if c]
        rnd.shuffle(busy)      # the importer must not rely on the order
        for tile, cycles in busy:
            events.append({"ph": "X", "name": step["name"], "cat": "bsp", "pid": step["ipu"], "tid": tile,
                           "ts": us(step["start"]), "dur": us(cycles),
                           "args": {"cycles": cycles, "step": step["step"], "program": step["program"]}})
    for run in truth["runs"]:
        events.append({"ph": "X", "name": run["name"], "cat": "host", "pid": host, "tid": 0,
                       "ts": us(run["start"]), "dur": us(run["end"] - run["start"])})
    with open(path, "w") as f:
        f.write('{"otherData":{"clock_mhz":%d,"generator":"tests/gen-poplar-tiles.py"},"traceEvents":[\n' % mhz)
        f.write(",\n".join(json.dumps(e, separators=(",", ":")) for e in events))
        f.write("\n]}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ipus", type=int, default=1)
    ap.add_argument("--tiles", type=int, default=16, help="tiles per IPU")
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--hot-tiles", type=int, default=HOT_TILES,
                    help="tiles given more Variables than fit (out of memory)")
    ap.add_argument("--busy-tiles", type=int, nargs="*", default=[], metavar="TILE",
                    help="tiles (on every IPU) that compute twice the step's base in every compute step")
    ap.add_argument("--idle-tiles", type=int, nargs="*", default=[], metavar="TILE",
                    help="tiles (on every IPU) that never work")
    ap.add_argument("--heavy-sync", type=int, nargs="*", default=[], metavar="IPU",
                    help="IPUs whose tiles all sync for twenty times the step's base in every sync step")
    ap.add_argument("--heavy-exchange", type=int, nargs="*", default=[], metavar="IPU",
                    help="IPUs whose tiles all exchange for twenty times the step's base in every exchange step")
    ap.add_argument("--clean", action="store_true",
                    help="every tile busy for 90-100 %% of every step, short exchanges and syncs")
    a = ap.parse_args()
    if a.ipus < 1 or a.tiles < 1 or a.steps < 1:
        ap.error("--ipus, --tiles and --steps must be at least 1")

    rnd = random.Random(a.seed)
    limit = 624 * 1024
    tiles = make_tiles(rnd, a.ipus, a.tiles, limit, a.hot_tiles)
    totals = [t["total"] for t in tiles]
    by_weight = sorted(range(len(tiles)), key=lambda i: (-totals[i], i))
    interleaved = sum(totals) // 5
    overflowed = sum(t["overflowed"] for t in tiles)
    steps = make_steps(rnd, a.ipus, a.tiles, a.steps, a.clean, a.busy_tiles, a.idle_tiles,
                       {"sync": a.heavy_sync, "exchange": a.heavy_exchange})
    truth = {
        "seed": a.seed,
        "ipus": a.ipus,
        "tiles_per_ipu": a.tiles,
        "clock_mhz": rnd.choice(CLOCKS_MHZ),
        "tile_memory_bytes": limit,
        "graph": {"vertices": len(tiles) * rnd.randint(20, 60), "edges": len(tiles) * rnd.randint(60, 120),
                  "variables": len(tiles) * rnd.randint(5, 15), "compute_sets": a.steps},
        "including_gaps": sum(t["including_gaps"] for t in tiles),
        "regions": {"Non-interleaved": sum(totals) - interleaved - overflowed,
                    "Interleaved": interleaved, "Overflowed": overflowed},
        "data_types": summed(tiles, "data_types"),
        "histogram": make_histogram(tiles),
        "out_of_memory": sum(1 for v in totals if v > limit),
        "top_tiles": by_weight[:DETAILED_TILES],
        "max_including_gaps_tile": max(range(len(tiles)), key=lambda i: (tiles[i]["including_gaps"], -i)),
        "tiles": tiles,
        "steps": steps,
        "runs": make_runs(steps, a.ipus),
    }

    os.makedirs(a.outdir, exist_ok=True)
    write_report(os.path.join(a.outdir, "compile_report.txt"), truth)
    write_listing(os.path.join(a.outdir, "archive_size.txt"), truth)
    write_trace(os.path.join(a.outdir, "execution.json"), truth, rnd)
    text = json.dumps(truth, indent=1, sort_keys=True)
    with open(os.path.join(a.outdir, "truth.json"), "w") as f:
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
