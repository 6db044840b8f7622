#!/usr/bin/env python3
# test-ranks.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""The ranks of one job (docs/formats/frameworks.md, *The ranks of one job*):
several PyTorch profiler traces opened as one report, checked against what
Python's json reads from the same files (kineto_expected.py's rules for
times, runs and streams; the rank and alignment rules of that page written
again below).

Data: HTA's real rank pair sampled_rank-0/-1 (distributedInfo ranks 0 and 1
of 128), opened as a folder and as files in reverse order; a pair whose ranks
come from a file name and from file order; traces whose ranks disagree (one
rank twice, two world sizes) and folders with no trace, which must fail
naming the file or folder; compare of two traces step by step, and
--fail-if-slower on a trace whose one step was made longer.

Usage: test-ranks.py SOURCE_ROOT TESSERA_CLI   (TAP output)
"""
import csv
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from decimal import Decimal

root, cli = sys.argv[1], sys.argv[2]
data = os.path.join(root, "tests", "data", "kineto")
sys.path.insert(0, os.path.join(root, "tests"))
from cli_tap import Tap, ms_text  # noqa: E402
import kineto_expected  # noqa: E402

tap = Tap(cli)
ok = tap.ok
run = tap.run


def cli_fails(*args):
    return subprocess.run([cli] + list(args), capture_output=True, text=True)


def distributed_rank(path):
    _, doc = kineto_expected.load(path)
    info = doc.get("distributedInfo") if isinstance(doc, dict) else None
    return info.get("rank") if isinstance(info, dict) else None


def name_rank(path):
    found = re.findall(r"rank[-_]?(\d+)", os.path.basename(path).lower())
    return int(found[-1]) if found else None


def expected_job(paths):
    """rank -> {path, exp, offset} by the page's rules: distributedInfo.rank,
    else the file name, else the lowest free rank in file order; offsets put
    each first ProfilerStep# on the lowest rank's."""
    ranks = {}
    given = [(p, distributed_rank(p)) for p in paths]
    given = [(p, r if r is not None else name_rank(p)) for p, r in given]
    taken = {r for _, r in given if r is not None}
    for p, r in given:
        if r is None:
            r = min(set(range(len(paths) + len(taken))) - taken)
            taken.add(r)
        ranks[r] = {"path": p, "exp": kineto_expected.expected(p)}
    firsts = {r: min(s for _, s, _ in v["exp"]["runs"]) for r, v in ranks.items() if v["exp"]["runs"]}
    ref = firsts[min(firsts)] if firsts else None
    for r, v in ranks.items():
        v["offset"] = ref - firsts[r] if r in firsts else None
    return ranks


def check_job(label, cache, ranks, open_args):
    db = sqlite3.connect(cache)
    info = {k: v for s, k, v in db.execute("SELECT source_id, key, value FROM info") if s is None}
    tracks = {t[0]: t for t in db.execute("SELECT id, parent_id, source_id, clock_id, name FROM tracks")}
    clocks = {c[0]: c[1] for c in db.execute("SELECT id, offset_ns FROM clocks")}
    sources = {s[0]: s[1] for s in db.execute("SELECT id, path FROM sources")}
    rank_of_source = {}

    # a group per rank at the top, every track of a file under its rank's
    tops = {t[0]: t for t in tracks.values() if t[1] is None}
    ok(sorted(t[4] for t in tops.values()) == sorted("Rank %d" % r for r in ranks),
       "%s: top-level groups %s" % (label, sorted(t[4] for t in tops.values())))
    for t in tops.values():
        rank_of_source[t[2]] = int(t[4].split()[1])
    ok(all(os.path.samefile(sources[s], ranks[r]["path"]) for s, r in rank_of_source.items()),
       "%s: each rank's group holds its file's tracks" % label)

    def top_of(tid):
        while tracks[tid][1] is not None:
            tid = tracks[tid][1]
        return tid

    ok(all(tracks[top_of(t[0])][2] == t[2] for t in tracks.values()),
       "%s: every track sits under its own file's rank" % label)

    # one time base: the clock offsets align the first steps
    for s, r in rank_of_source.items():
        clock = next(t[3] for t in tracks.values() if t[2] == s)
        want = ranks[r]["offset"]
        ok(clocks[clock] == (want if want is not None else 0),
           "%s: rank %d clock offset %s ns (expected %s)" % (label, r, clocks[clock], want))
        got = info.get("Rank %d.offset" % r)
        if want is None:
            ok(got == "not aligned: no ProfilerStep#", "%s: rank %d info offset %s" % (label, r, got))
        else:
            ok(got is not None and got == ms_text(want), "%s: rank %d info offset %s" % (label, r, got))
        ok(info.get("Rank %d.file" % r) == os.path.basename(ranks[r]["path"]), "%s: rank %d file" % (label, r))

    # runs per rank and step
    runs = sorted(list(x) for x in db.execute("SELECT name, start, \"end\" FROM runs"))
    want_runs = sorted(["Rank %d %s" % (r, name), start, end]
                       for r, v in ranks.items() for name, start, end in v["exp"]["runs"])
    ok(runs == want_runs, "%s: runs %s" % (label, [x[0] for x in runs]))

    # steps side by side, the slowest rank named
    names = []
    slowest_in = {r: 0 for r in ranks}
    for r in sorted(ranks):
        for name, _, _ in ranks[r]["exp"]["runs"]:
            if name not in names:
                names.append(name)
    for name in names:
        parts, slowest = [], None
        for r in sorted(ranks):
            spans = [e - s for nm, s, e in ranks[r]["exp"]["runs"] if nm == name]
            if spans:
                parts.append("rank %d %s" % (r, ms_text(spans[0])))
                if slowest is None or spans[0] > slowest[1]:
                    slowest = (r, spans[0])
            else:
                parts.append("rank %d none" % r)
        slowest_in[slowest[0]] += 1
        want = ", ".join(parts) + ("; slowest rank %d" % slowest[0] if len(ranks) > 1 else "")
        ok(info.get("steps.%s" % name) == want, "%s: steps.%s = %s" % (label, name, info.get("steps.%s" % name)))
    ok(info.get("ranks") == str(len(ranks)), "%s: %s ranks" % (label, info.get("ranks")))
    most = max(sorted(ranks), key=lambda r: (slowest_in[r], -r))
    want = "rank %d (slowest in %d of %d steps)" % (most, slowest_in[most], len(names))
    ok(info.get("steps.slowest_rank") == want, "%s: steps.slowest_rank = %s" % (label, info.get("steps.slowest_rank")))

    # tessera-cli info prints the same facts
    text = run("info", *open_args)
    ok(all(("steps.%s = " % name) in text for name in names), "%s: info lists the steps" % label)

    # Tile Balance per rank: each rank's streams, under "Rank N · GPU …"
    # and each rank's GPU as a whole (no unit), busy the union of its streams'
    units = {}
    for row in csv.DictReader(io.StringIO(run("tiles", "--csv", *open_args))):
        units[(row["device"], row["unit"])] = int(row["busy_ns"])
    want_units = {}
    for r, v in ranks.items():
        for key, s in v["exp"]["streams"].items():
            label_, stream = key.rsplit(" stream ", 1)
            dev = v["exp"]["devices"][label_]["name"]
            want_units[("Rank %d · %s" % (r, dev), "stream " + stream)] = s["busy"]
            want_units[("Rank %d · %s" % (r, dev), "")] = v["exp"]["devices"][label_]["busy"]
    ok(units == want_units, "%s: tiles lists each rank's streams with their busy time (%d units)" % (label, len(units)))
    db.close()


with tempfile.TemporaryDirectory() as tmp:
    # HTA's real pair, as a folder (with a file no importer reads beside it)
    job = os.path.join(tmp, "job")
    os.mkdir(job)
    pair = [os.path.join(job, "sampled_rank-%d.json.gz" % r) for r in (0, 1)]
    for p in pair:
        shutil.copy(os.path.join(data, os.path.basename(p)), p)
    with open(os.path.join(job, "README.txt"), "w") as f:
        f.write("not a trace\n")
    ranks = expected_job(pair)
    ok(sorted(ranks) == [0, 1], "HTA pair: ranks 0 and 1 from distributedInfo")
    out = run("info", "--reimport", job)
    ok(out.count("Source:") == 2, "a folder opens as its two traces, the README left out")
    cache = re.search(r"^Cache: +(.*?) \(", out, re.M).group(1)
    check_job("HTA pair (folder)", cache, ranks, [job])
    ok(ranks[1]["offset"] != 0, "the pair's first steps differ (%d ns), so alignment is tested" % ranks[1]["offset"])

    # one rank's step: summary --run "Rank R ProfilerStep#N" gives that
    # rank's operators of the step; the bare step name, the first rank's
    for r in (0, 1):
        step = ranks[r]["exp"]["runs"][-1][0]
        got = {row["name"]: (int(row["total"]), int(row["count"])) for row in csv.DictReader(io.StringIO(
            run("summary", "--run", "Rank %d %s" % (r, step), "--csv", job)))}
        want = {k: (o["total"], o["count"]) for k, o in ranks[r]["exp"]["step_operators"][step].items()}
        ok(got == want, "HTA pair: summary --run 'Rank %d %s' gives rank %d's operators of the step" % (r, step, r))
        devices = {row["name"]: int(float(row["a"])) for row in csv.DictReader(io.StringIO(
            run("compare", "--run", "Rank %d %s" % (r, step), "--summary", "--csv", job, job)))
            if row["record"] == "device"}
        want = {"Rank %d · %s" % (r, d["name"]): d["step_wall"][step] for d in ranks[r]["exp"]["devices"].values()}
        ok(devices == want, "HTA pair: compare --run 'Rank %d %s' gives that rank's devices' wall time in the step: %s" % (
            r, step, devices))
    ok(run("summary", "--step", step[len("ProfilerStep#"):], "--csv", job) ==
       run("summary", "--run", "Rank 0 %s" % step, "--csv", job),
       "HTA pair: summary --step gives the lowest rank's step")
    ok(run("summary", "--step", step[len("ProfilerStep#"):], "--csv", *reversed(pair)) ==
       run("summary", "--run", "Rank 0 %s" % step, "--csv", job),
       "HTA pair, files reversed: summary --step still gives rank 0's step")

    # the same as files, in reverse order: ranks still from distributedInfo
    rev = list(reversed(pair))
    out = run("info", "--reimport", *rev)
    check_job("HTA pair (files reversed)", re.search(r"^Cache: +(.*?) \(", out, re.M).group(1), ranks, rev)

    # ranks from the file name and from file order; a rank without steps
    # is not aligned
    mixed = os.path.join(tmp, "mixed")
    os.mkdir(mixed)
    named = os.path.join(mixed, "a_rank_3.json.gz")
    plain = os.path.join(mixed, "b.json")
    shutil.copy(os.path.join(data, "mi250_minitoy_train_ROCm6_2_kineto.json.gz"), named)
    with open(os.path.join(data, "written_old_names.json")) as f:
        doc = json.load(f)
    del doc["distributedInfo"]
    with open(plain, "w") as f:
        json.dump(doc, f)
    nosteps = os.path.join(mixed, "c.json.gz")    # AlexNet: distributedInfo rank 0, no steps
    shutil.copy(os.path.join(data, "benchmark_result_2869224_1695835535_trace.json.gz"), nosteps)
    ranks = expected_job([named, plain, nosteps])
    ok(sorted(ranks) == [0, 1, 3] and ranks[1]["path"] == plain and ranks[0]["offset"] is None,
       "mixed: rank 3 from the name, 0 from distributedInfo (no steps), 1 from file order")
    out = run("info", "--reimport", mixed)
    check_job("mixed", re.search(r"^Cache: +(.*?) \(", out, re.M).group(1), ranks, [mixed])
    out = run("info", mixed)
    ok("Rank 3.rank_from = file name" in out and "Rank 1.rank_from = file order" in out
       and "Rank 0.rank_from = distributedInfo.rank" in out,
       "mixed: info says where each rank came from")

    # bad input: one rank twice, two world sizes, folders with no trace
    dup = [os.path.join(tmp, "a.json.gz"), os.path.join(tmp, "b.json.gz")]
    for p in dup:
        shutil.copy(pair[0], p)
    r = cli_fails("info", *dup)
    ok(r.returncode != 0 and "b.json.gz" in r.stderr and "a.json.gz" in r.stderr and "rank 0" in r.stderr,
       "two traces of rank 0 fail naming both: %s" % r.stderr.strip())
    ok(not any(f.endswith(".tessera") for f in os.listdir(tmp)), "and leave no cache")
    other = os.path.join(tmp, "other_job.json")
    shutil.copy(os.path.join(data, "written_old_names.json"), other)   # rank 0 of 2
    r = cli_fails("info", pair[1], other)
    ok(r.returncode != 0 and "world_size" in r.stderr and "other_job.json" in r.stderr,
       "world sizes 128 and 2 fail: %s" % r.stderr.strip())
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    r = cli_fails("info", empty)
    ok(r.returncode != 0 and "empty" in r.stderr and "no trace in the folder" in r.stderr,
       "an empty folder fails naming it: %s" % r.stderr.strip())
    with open(os.path.join(empty, "notes.txt"), "w") as f:
        f.write("hello\n")
    r = cli_fails("info", empty)
    ok(r.returncode != 0 and "no trace in the folder" in r.stderr, "a folder of no trace fails: %s" % r.stderr.strip())

    # compare step by step: rank 0 against rank 1, each step's ns as Python reads it
    a_exp = {nm: e - s for nm, s, e in kineto_expected.expected(pair[0])["runs"]}
    b_exp = {nm: e - s for nm, s, e in kineto_expected.expected(pair[1])["runs"]}
    rows = {row["name"]: (int(Decimal(row["a"])), int(Decimal(row["b"])))
            for row in csv.DictReader(io.StringIO(run("compare", "--summary", "--csv", pair[0], pair[1])))
            if row["record"] == "step"}
    ok(rows == {nm: (a_exp[nm], b_exp[nm]) for nm in a_exp}, "compare pairs the steps: %s" % rows)

    # --fail-if-slower by step: one step of the hand-written trace twice as long
    a_path = os.path.join(tmp, "steps_a.json")
    b_path = os.path.join(tmp, "steps_b.json")
    shutil.copy(os.path.join(data, "written_old_names.json"), a_path)
    with open(a_path) as f:
        doc = json.load(f)
    for e in doc["traceEvents"]:
        if e.get("name") == "ProfilerStep#8":
            e["dur"] *= 2
    with open(b_path, "w") as f:
        json.dump(doc, f)
    same = cli_fails("compare", "--fail-if-slower", "5", a_path, a_path)
    ok(same.returncode == 0, "compare --fail-if-slower passes a trace against itself (exit %d)" % same.returncode)
    slower = cli_fails("compare", "--fail-if-slower", "5", a_path, b_path)
    ok(slower.returncode == 1 and "step ProfilerStep#8 got slower by 100.0 %" in slower.stderr
       and "ProfilerStep#7" not in slower.stderr,
       "compare --fail-if-slower fails on the slower step alone: %s" % slower.stderr.strip())

sys.exit(tap.finish())
