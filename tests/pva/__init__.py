# tests/pva: a stand-in for Graphcore's libpva Python module
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""A stand-in `pva` for testing tessera-pop-export without the Poplar SDK.

It implements the part of libpva's Python API that tessera-pop-export calls,
with the names of libpva's documentation and Graphcore's own scripts (see
docs/formats/poplar.md, "tessera-pop-export"), over the data of
tests/gen-poplar-tiles.py: `openReport(path)` reads the truth.json that
generator writes (the test copies it to profile.pop), not a real profile.pop,
whose format is not public. It is NOT libpva and reads nothing libpva reads.

Where the generator has no data for a figure, this module derives it by a
rule of its own, stated where it is computed (always-live bytes, liveness
per step, tile balance, Lightweight Profiling blocks); tests/test-pop-export.py
computes the same figures from truth.json independently. Structure beyond the
documented names is kept minimal: plain objects with the documented
attributes.
"""
import json

__all__ = ["openReport", "Report", "Program"]

# The generator's data types, as the stand-in's tile.memory.category
# attributes. libpva's category names are taken where Graphcore's scripts use
# them (vertexCode, controlCode, constant, stack, vertexInstanceState,
# vertexFieldData, internalExchangeCode, hostExchangeCode); "variable" is the
# stand-in's own name for the generator's Variables.
CATEGORY_OF_DATA_TYPE = {
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
# Not always live, by the stand-in's rule: the variables (the generator does
# not say which bytes are always live). Every other category is always live.
NOT_ALWAYS_LIVE = ("variable",)


class _Obj:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class Program:
    class Type:
        """libpva's pva.Program.Type, as an enum whose members have .name."""


class _Type(_Obj):
    pass


def _program_type(name):
    t = getattr(Program.Type, name, None)
    if t is None:
        t = _Type(name=name)
        setattr(Program.Type, name, t)
    return t


class _MemoryUsage(_Obj):
    pass


def _tile(t):
    cats = _Obj()
    for data_type, value in t["data_types"].items():
        setattr(cats, CATEGORY_OF_DATA_TYPE[data_type], _Obj(total=value))
    not_always = sum(getattr(cats, c).total for c in NOT_ALWAYS_LIVE)
    memory = _Obj(total=_MemoryUsage(includingGaps=t["including_gaps"], excludingGaps=t["total"]),
                  category=cats,
                  alwaysLiveBytes=t["total"] - not_always,
                  notAlwaysLiveBytes=not_always)
    return _Obj(memory=memory)


def _liveness_bytes(truth, step):
    """Not-always-live bytes of liveness step `step`, by the stand-in's rule:
    the variables of every tile, scaled by (step mod 5 + 1) / 5, rounded down."""
    variables = sum(t["data_types"]["Variables"] for t in truth["tiles"])
    return variables * (step % 5 + 1) // 5


def _tile_balance(cycles):
    """Per cent of the step's tile-cycles used: sum / (max x tiles); the
    active balance counts only tiles with cycles. The stand-in's rule."""
    longest = max(cycles)
    active = [c for c in cycles if c]
    if not longest:
        return 0.0, 0.0
    return (100.0 * sum(cycles) / (longest * len(cycles)),
            100.0 * sum(active) / (longest * len(active)))


class _Block(_Obj):
    pass


class _Execution:
    def __init__(self, truth):
        self._truth = truth
        per_step = {}
        for s in truth["steps"]:
            per_step.setdefault(s["step"], []).append(s)
        steps = []
        for number in sorted(per_step):
            rows = sorted(per_step[number], key=lambda r: r["ipu"])
            ipus = []
            cycles_by_tile = []
            for r in rows:
                balance, active_balance = _tile_balance(r["cycles"])
                ipus.append(_Obj(
                    cycles=r["dur"],
                    activeCycles=_Obj(cyclesFrom=_Obj(min=r["start"], max=r["start"]),
                                      cyclesTo=_Obj(min=r["start"], max=r["start"] + r["dur"])),
                    tileBalance=balance,
                    activeTileBalance=active_balance))
                cycles_by_tile += r["cycles"]
            steps.append(_Obj(program=_Obj(name=rows[0]["program"], type=_program_type(rows[0]["name"])),
                              ipus=ipus,
                              cyclesByTile=cycles_by_tile))
        mhz = truth["clock_mhz"]
        start = min(r["start"] for r in truth["runs"])
        end = max(r["end"] for r in truth["runs"])
        run = _Obj(steps=steps, microseconds=_Obj(start=start / mhz, end=end / mhz))
        self.runs = [run]
        self.steps = steps

    def blocks(self, tile):
        """Lightweight Profiling blocks of a tile. The stand-in's rule: the
        first tile of each IPU (libpva's default profiler.blocks.tile, the
        selected tile) has one block per BSP step the IPU was busy in, named
        after its program, from the step's start to its end on that IPU,
        a StreamCopy step's being a StreamCopy block (isStreamCopy), the
        others common; after every fifth step, a buffer flush (isBlockFlush)
        from that step's end to the IPU's next step (when there is a gap),
        named after the step's program. The second tile of each IPU took
        part in the StreamCopy steps: a StreamCopy block for each."""
        per_ipu = self._truth["tiles_per_ipu"]
        ipu = tile // per_ipu
        mine = [s for s in self._truth["steps"] if s["ipu"] == ipu]
        if tile % per_ipu == 1:
            return [_block(s["program"], tile, s["start"], s["start"] + s["dur"], "isStreamCopy")
                    for s in mine if s["name"] == "StreamCopy"]
        if tile % per_ipu != 0:
            return []
        blocks = []
        for n, s in enumerate(mine):
            blocks.append(_block(s["program"], tile, s["start"], s["start"] + s["dur"],
                                 "isStreamCopy" if s["name"] == "StreamCopy" else "isCommon"))
            end = s["start"] + s["dur"]
            if n % 5 == 4 and n + 1 < len(mine) and mine[n + 1]["start"] > end:
                blocks.append(_block(s["program"], tile, end, mine[n + 1]["start"], "isBlockFlush"))
        return blocks


def _block(program, tile, cycles_from, cycles_to, kind):
    flags = {k: k == kind for k in ("isCommon", "isStreamCopy", "isOverflow", "isBlockFlush")}
    return _Block(program=_Obj(name=program), tile=tile, cyclesFrom=cycles_from, cyclesTo=cycles_to,
                  **flags)


class Report:
    def __init__(self, truth):
        n_tiles = len(truth["tiles"])
        per_ipu = truth["tiles_per_ipu"]
        tiles = [_tile(t) for t in truth["tiles"]]
        target = _Obj(numIPUs=truth["ipus"], tilesPerIpu=per_ipu, numTiles=n_tiles,
                      bytesPerTile=truth["tile_memory_bytes"],
                      bytesPerIPU=truth["tile_memory_bytes"] * per_ipu,
                      totalMemory=truth["tile_memory_bytes"] * n_tiles,
                      clockFrequency=truth["clock_mhz"] * 1_000_000,
                      numReplicas=1, ipusPerReplica=truth["ipus"],
                      type=_Obj(name="Ipu"))
        ipus = [_Obj(tiles=tiles[i * per_ipu:(i + 1) * per_ipu]) for i in range(truth["ipus"])]
        liveness = [_Obj(program=_Obj(name=s["program"]),
                         notAlwaysLiveMemory=_Obj(bytes=_liveness_bytes(truth, n)))
                    for n, s in enumerate(s for s in truth["steps"] if s["ipu"] == 0)]
        self.compilation = _Obj(target=target, tiles=tiles, ipus=ipus,
                                graph=_Obj(numComputeSets=truth["graph"]["compute_sets"]),
                                livenessProgramSteps=liveness)
        self.execution = _Execution(truth)
        self.poplarVersion = _Obj(major=0, minor=0, point=0, string="0.0.0 (tests/pva stand-in)",
                                  packageHash="")
        self.version = _Obj(major=1, minor=0, point=0, isUnstableFormat=False)


def openReport(filename, debugInfoFilename=None):
    """Open the generator's truth.json as a report (libpva: openReport)."""
    try:
        with open(filename, encoding="utf-8") as f:
            truth = json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError("%s: not a report the stand-in pva can read (%s)" % (filename, e))
    if not isinstance(truth, dict) or "tiles" not in truth:
        raise RuntimeError("%s: not a report the stand-in pva can read (no tiles)" % filename)
    return Report(truth)
