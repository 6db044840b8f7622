#!/usr/bin/env python3
# tessera-pop-export: PopVision profile.pop -> Tessera's Poplar export file
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write what a PopVision profile.pop holds into a file Tessera opens.

profile.pop's format is not public: Graphcore reads it with libpva, the
PopVision Analysis Library of the Poplar SDK. Run this where the SDK is
(after `source enable.sh`, so that `import pva` works); open the file it
writes with Tessera anywhere. The file's format is documented in Tessera's
docs/formats/poplar.md ("tessera-poplar-export", JSON Lines); this program
uses only libpva's documented Python API and names Graphcore's own scripts
use.
"""
import argparse
import json
import os
import sys

PROGRAM = "tessera-pop-export"
VERSION = "@VERSION@"
FORMAT = "tessera-poplar-export"
FORMAT_VERSION = 1

# Exit statuses: 0 written, 1 the profile could not be read or exported,
# 2 usage (argparse's), 3 no libpva.
EXIT_FAILED = 1
EXIT_NO_PVA = 3


class ExportError(Exception):
    pass


def value(obj, name, default=None):
    """obj.name, called when libpva binds it as a method rather than a
    property (the Lightweight Profiling names are documented for C++ only)."""
    attr = getattr(obj, name, default)
    if callable(attr) and not isinstance(attr, type):
        attr = attr()
    return attr


def integer(x):
    return int(x) if x is not None else None


class Writer:
    """One JSON object per line, written as it is made: a big profile is
    never held whole."""

    def __init__(self, f):
        self.f = f
        self.counts = {}

    def record(self, kind, /, **fields):
        obj = {"record": kind}
        obj.update(fields)
        self.f.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False))
        self.f.write("\n")
        self.counts[kind] = self.counts.get(kind, 0) + 1


def write_header(out, report, source):
    target = report.compilation.target
    version = report.version
    # The IPUs whose tiles the report lists; with replicas libpva's numIPUs
    # and numTiles may count more (kept beside, as libpva gives them).
    ipus = len(report.compilation.ipus)
    header = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "generator": "%s %s" % (PROGRAM, VERSION),
        "source": os.path.basename(source),
        "poplar_version": report.poplarVersion.string,
        "report_version": "%d.%d.%d" % (version.major, version.minor, version.point),
        "target": {
            "type": getattr(getattr(target, "type", None), "name", None),
            "ipus": ipus,
            "tiles_per_ipu": int(target.tilesPerIpu),
            "tiles": ipus * int(target.tilesPerIpu),
            "num_ipus": int(target.numIPUs),
            "num_tiles": int(target.numTiles),
            "replicas": integer(getattr(target, "numReplicas", None)),
            "bytes_per_tile": int(target.bytesPerTile),
            "clock_hz": int(target.clockFrequency),
        },
        "graph": {"compute_sets": int(report.compilation.graph.numComputeSets)},
    }
    out.f.write(json.dumps(header, separators=(",", ":"), ensure_ascii=False) + "\n")
    return header["target"]


def category_totals(category):
    """Every category libpva lists for a tile (tile.memory.category.<name>),
    by its name: all attributes with a .total, so that categories of newer
    SDKs come along without this program knowing them."""
    totals = {}
    for name in sorted(dir(category)):
        if name.startswith("_"):
            continue
        try:
            total = getattr(getattr(category, name), "total", None)
        except Exception:  # a binding that cannot answer for this tile
            continue
        if isinstance(total, int) and not isinstance(total, bool):
            totals[name] = total
    return totals


def write_tiles(out, report, target):
    always = not_always = 0
    for ipu_index, ipu in enumerate(report.compilation.ipus):
        for tile_index, tile in enumerate(ipu.tiles):
            memory = tile.memory
            a = int(memory.alwaysLiveBytes)
            n = int(memory.notAlwaysLiveBytes)
            always += a
            not_always += n
            out.record("tile", ipu=ipu_index, tile=tile_index,
                       including_gaps=int(memory.total.includingGaps),
                       excluding_gaps=int(memory.total.excludingGaps),
                       always_live=a, not_always_live=n,
                       categories=category_totals(memory.category))
    out.record("memory", always_live=always, not_always_live=not_always)


def write_runs(out, report, target):
    per_ipu = target["tiles_per_ipu"]
    runs = list(report.execution.runs)
    for run_index, run in enumerate(runs):
        micro = getattr(run, "microseconds", None)
        out.record("run", run=run_index,
                   microseconds=[micro.start, micro.end] if micro is not None else None)
        for step_index, step in enumerate(run.steps):
            cycles = list(step.cyclesByTile)
            if len(cycles) < target["tiles"]:
                raise ExportError("run %d step %d: libpva gives the cycles of %d tiles, the report lists %d"
                                  % (run_index, step_index, len(cycles), target["tiles"]))
            ipus = []
            for ipu_index, ipu in enumerate(step.ipus):
                active = ipu.activeCycles
                ipus.append({
                    "ipu": ipu_index,
                    "from": int(active.cyclesFrom.max),
                    "to": int(active.cyclesTo.max),
                    "cycles": int(ipu.cycles),
                    "tile_balance": float(ipu.tileBalance),
                    "active_tile_balance": float(ipu.activeTileBalance),
                    "tile_cycles": [int(c) for c in cycles[ipu_index * per_ipu:(ipu_index + 1) * per_ipu]],
                })
            out.record("step", run=run_index, step=step_index,
                       type=step.program.type.name, name=step.program.name, ipus=ipus)


def write_liveness(out, report):
    for index, step in enumerate(report.compilation.livenessProgramSteps):
        out.record("liveness", step=index, name=step.program.name,
                   not_always_live=int(step.notAlwaysLiveMemory.bytes))


BLOCK_KINDS = (("isBlockFlush", "block-flush"), ("isOverflow", "overflow"),
               ("isStreamCopy", "stream-copy"), ("isCommon", "common"))


def write_blocks(out, report, target):
    """Lightweight Profiling blocks (libpva: execution.blocks(tile)); a
    profile without them, or a libpva without blocks, writes none."""
    blocks_of = getattr(report.execution, "blocks", None)
    if blocks_of is None:
        return
    per_ipu = target["tiles_per_ipu"]
    for tile in range(target["tiles"]):
        for block in blocks_of(tile):
            kind = next((k for attr, k in BLOCK_KINDS if value(block, attr, False)), "other")
            program = value(block, "program")
            out.record("block", ipu=tile // per_ipu, tile=tile % per_ipu,
                       name=getattr(program, "name", None) if program is not None else None,
                       kind=kind, **{"from": int(value(block, "cyclesFrom")),
                                     "to": int(value(block, "cyclesTo"))})


def export(pva, source, f, with_blocks=True):
    try:
        report = pva.openReport(source)
    except Exception as e:
        raise ExportError("%s: libpva cannot open it as a PopVision profile (%s)" % (source, e))
    out = Writer(f)
    target = write_header(out, report, source)
    write_tiles(out, report, target)
    write_runs(out, report, target)
    write_liveness(out, report)
    if with_blocks:
        write_blocks(out, report, target)
    # The last line says the file is whole: a copy cut short has none.
    out.record("end", counts=dict(sorted(out.counts.items())))


def default_output(source):
    base = os.path.basename(source)
    if base.endswith(".pop"):
        base = base[:-4]
    return os.path.join(os.path.dirname(source), base + ".tessera-pop.jsonl")


class HelpFormatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "Usage: ")


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog=PROGRAM, formatter_class=HelpFormatter,
        description="Export a PopVision profile.pop, read with the Poplar SDK's libpva "
                    "(import pva), to a file Tessera opens (tessera-poplar-export, JSON Lines).",
        epilog="Run it where the Poplar SDK is enabled (source enable.sh). Then: "
               "tessera-cli info PROFILE.tessera-pop.jsonl, or open that file in Tessera.")
    ap.add_argument("profile", metavar="PROFILE.pop", help="the profile.pop to export")
    ap.add_argument("-o", "--output", metavar="FILE",
                    help="where to write (default: PROFILE.tessera-pop.jsonl beside it; - for standard output)")
    ap.add_argument("--no-blocks", action="store_true",
                    help="leave out Lightweight Profiling blocks (asking every tile for them takes time)")
    ap.add_argument("--version", action="version", version="%s %s" % (PROGRAM, VERSION))
    a = ap.parse_args(argv)

    try:
        import pva
    except ImportError as e:
        print("%s: cannot import libpva's Python module 'pva' (%s).\n"
              "Run %s where the Poplar SDK is installed, after enabling it "
              "(source <poplar-sdk>/enable.sh), so that 'python3 -c \"import pva\"' works."
              % (PROGRAM, e, PROGRAM), file=sys.stderr)
        return EXIT_NO_PVA

    if not os.path.isfile(a.profile):
        print("%s: %s: no such file" % (PROGRAM, a.profile), file=sys.stderr)
        return EXIT_FAILED

    output = a.output or default_output(a.profile)
    try:
        if output == "-":
            export(pva, a.profile, sys.stdout, not a.no_blocks)
            return 0
        # Written beside the target and renamed when whole: no half file
        # is left under the name Tessera would open.
        tmp = output + ".part"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                export(pva, a.profile, f, not a.no_blocks)
            os.replace(tmp, output)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except ExportError as e:
        print("%s: %s" % (PROGRAM, e), file=sys.stderr)
        return EXIT_FAILED
    except OSError as e:
        print("%s: %s: %s" % (PROGRAM, e.filename or output, e.strerror), file=sys.stderr)
        return EXIT_FAILED
    except (AttributeError, TypeError, ValueError) as e:
        print("%s: %s: the report does not have what this program reads (%s: %s); "
              "was it written by a Poplar SDK this version knows?"
              % (PROGRAM, a.profile, type(e).__name__, e), file=sys.stderr)
        return EXIT_FAILED
    print("%s: wrote %s" % (PROGRAM, output), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
