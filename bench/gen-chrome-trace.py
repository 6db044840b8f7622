#!/usr/bin/env python3
# gen-chrome-trace.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""Write a Chrome Trace Event file shaped like an accelerator profile, for
`make bench` (bench/run-bench).

  gen-chrome-trace.py --events 1000000 --out trace.json
  gen-chrome-trace.py --events 2000 --seed 3 --gzip --out small.json.gz

--events counts spans ("X" events, or "B"/"E" pairs for about one span in
ten). Each of --processes devices has --threads cores; the cores get unequal
shares (3, 2, 2, then 1 each), as bench/tes-bench.c's generated model does,
and spans nest up to --depth deep. The operator names and their categories
(op, dma, sync) are the ones tes-bench.c uses. On top come counters (about
one per 100 spans), instants (one per 200) and flow arrows between cores
(one per 300), and the metadata that names devices and cores.

The output is the same, byte for byte, for the same arguments and --seed.
"""
import argparse
import gzip
import random
import sys

OPS = ["Conv2D", "MatMul", "Softmax", "LayerNorm", "Add", "Mul", "Transpose",
       "Concat", "Gelu", "Reshape", "ReduceSum", "Embedding", "StreamCopy",
       "DoExchange", "Sync", "OnTileExecute", "DMA_IN", "DMA_OUT"]
CORE_WEIGHTS = [3, 2, 2]    # then 1 for every other core


def category(op):
    if op.startswith("DMA_") or op == "StreamCopy":
        return "dma"
    if op in ("Sync", "DoExchange"):
        return "sync"
    return "op"


def us(ns):
    """Integer ns as exact µs with three decimals."""
    return "%d.%03d" % divmod(ns, 1000)


class Lane:
    """One core's events, written as they happen so that every E follows
    its B and the file stays in time order per thread."""

    def __init__(self, out, rnd, pid, tid, n_threads, depth):
        self.out = out
        self.rnd = rnd
        self.pid = pid
        self.tid = tid
        self.n_threads = n_threads
        self.depth = depth
        self.where = '"pid":%d,"tid":%d' % (pid, tid)

    def span(self, start, dur, as_be):
        op = OPS[self.rnd.randrange(len(OPS))]
        args = '{"op":"%s","bytes":%d}' % (op, self.rnd.randrange(64, 1 << 24))
        if as_be:
            self.out('{"ph":"B","name":"%s","cat":"%s",%s,"ts":%s,"args":%s}'
                     % (op, category(op), self.where, us(start), args))
            return op
        self.out('{"ph":"X","name":"%s","cat":"%s",%s,"ts":%s,"dur":%s,"args":%s}'
                 % (op, category(op), self.where, us(start), us(dur), args))
        return None

    def end(self, name, ts):
        self.out('{"ph":"E","name":"%s",%s,"ts":%s}' % (name, self.where, us(ts)))

    def extras(self, index, ts, flow_id):
        if index % 101 == 0:
            self.out('{"ph":"C","name":"memory","pid":%d,"ts":%s,"args":{"used_bytes":%d}}'
                     % (self.pid, us(ts), self.rnd.randrange(1 << 20, 1 << 28)))
        if index % 199 == 0:
            self.out('{"ph":"i","name":"marker","s":"t",%s,"ts":%s}' % (self.where, us(ts)))
        if index % 307 == 0 and self.n_threads > 1:
            to = (self.tid + 1) % self.n_threads
            self.out('{"ph":"s","name":"dependency","cat":"flow","id":%d,%s,"ts":%s}'
                     % (flow_id, self.where, us(ts)))
            self.out('{"ph":"f","bp":"e","name":"dependency","cat":"flow","id":%d,"pid":%d,"tid":%d,"ts":%s}'
                     % (flow_id, self.pid, to, us(ts + 3000)))
            return 1
        return 0

    def run(self, n, flow_id, be_share):
        """n spans: each either opens (its children follow inside it) or
        is a leaf followed by its next sibling, after a small gap."""
        rnd = self.rnd
        clock = rnd.randrange(50_000)
        open_spans = []            # (end ns, name for its E or None)
        written = 0
        while written < n:
            while open_spans and open_spans[-1][0] - clock <= 2:
                end, name = open_spans.pop()
                clock = max(clock, end)
                if name is not None:
                    self.end(name, end)
            room = open_spans[-1][0] - clock if open_spans else rnd.randrange(20_000, 400_000)
            dur = max(1, int(room * rnd.uniform(0.05, 0.9)))
            opens = len(open_spans) + 1 < self.depth and rnd.random() < 0.45
            name = self.span(clock, dur, rnd.random() < be_share)
            if opens:
                open_spans.append((clock + dur, name))
            else:
                if name is not None:
                    self.end(name, clock + dur)
                clock += dur
            written += 1
            clock += rnd.randrange(1, 2000)
            flow_id += self.extras(written, clock, flow_id)
        while open_spans:
            end, name = open_spans.pop()
            if name is not None:
                self.end(name, end)
        return flow_id


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=100_000, help="spans to write (default 100000)")
    ap.add_argument("--processes", type=int, default=2, help="devices (default 2)")
    ap.add_argument("--threads", type=int, default=4, help="cores per device (default 4)")
    ap.add_argument("--depth", type=int, default=4, help="deepest nesting (default 4)")
    ap.add_argument("--be-share", type=float, default=0.1, help="share of spans written as B/E pairs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gzip", action="store_true", help="write gzip")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.events < 0 or a.processes < 1 or a.threads < 1 or a.depth < 1:
        ap.error("--events must be 0 or more; --processes, --threads and --depth at least 1")

    rnd = random.Random(a.seed)
    lanes = [(p, t) for p in range(a.processes) for t in range(a.threads)]
    weights = [CORE_WEIGHTS[i] if i < len(CORE_WEIGHTS) else 1 for i in range(len(lanes))]
    shares = [a.events * w // sum(weights) for w in weights]
    shares[-1] += a.events - sum(shares)

    opener = gzip.open if a.gzip else open
    with opener(a.out, "wt", encoding="utf-8") as f:
        first = True
        buffer = []

        def out(event):
            nonlocal first
            buffer.append(event if first else ",\n" + event)
            first = False
            if len(buffer) >= 4096:
                f.write("".join(buffer))
                buffer.clear()

        f.write('{"displayTimeUnit":"ns","otherData":{"generator":"bench/gen-chrome-trace.py","seed":%d,'
                '"events":%d},\n"traceEvents":[\n' % (a.seed, a.events))
        for p in range(a.processes):
            out('{"ph":"M","name":"process_name","pid":%d,"args":{"name":"Device %d"}}' % (p, p))
            out('{"ph":"M","name":"process_sort_index","pid":%d,"args":{"sort_index":%d}}' % (p, p))
            for t in range(a.threads):
                out('{"ph":"M","name":"thread_name","pid":%d,"tid":%d,"args":{"name":"core %d"}}' % (p, t, t))
        flow_id = 1
        for (p, t), n in zip(lanes, shares):
            flow_id = Lane(out, rnd, p, t, a.threads, a.depth).run(n, flow_id, a.be_share)
        f.write("".join(buffer))
        f.write("\n]}\n")
    print("gen-chrome-trace.py: wrote %s: %d spans" % (a.out, a.events), file=sys.stderr)


if __name__ == "__main__":
    main()
