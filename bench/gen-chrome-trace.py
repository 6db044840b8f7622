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

--shape kineto writes what the PyTorch profiler writes instead (Kineto's
layout: one key group a line, as torch.profiler's export_chrome_trace
does): a CPU process (labelled "CPU") whose main thread runs
ProfilerStep#N annotations holding nested aten:: ops, each leaf op calling
cudaLaunchKernel (or cudaMemcpyAsync / cudaMemsetAsync) with an "ac2g" flow
to its kernel, copy or set on one of --threads streams of --processes GPUs
(labelled "GPU N", with deviceProperties); one kernel in 20 is an NCCL
all-reduce on a stream of its own. --events counts the X events.

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


KINETO_OPS = [("aten::linear", ["aten::t", "aten::addmm"]),
              ("aten::conv2d", ["aten::convolution", "aten::_convolution", "aten::cudnn_convolution"]),
              ("aten::relu", ["aten::clamp_min"]),
              ("aten::add_", []), ("aten::mul", []),
              ("aten::copy_", []), ("aten::zero_", ["aten::fill_"]),
              ("aten::batch_norm", ["aten::_batch_norm_impl_index", "aten::cudnn_batch_norm"])]
KINETO_KERNELS = ["volta_sgemm_128x64_tn", "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>"
                  "(cudnnTensorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, "
                  "float, float, float*, float*, float*, float*, float, float)",
                  "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
                  "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, "
                  "at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}"
                  "::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
                  "at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, "
                  "c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() "
                  "const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)",
                  "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16"]


def write_kineto(a, f):
    """A PyTorch profiler trace of about a.events X events."""
    rnd = random.Random(a.seed)
    cpu_pid, main_tid = 4242, 4242
    devices = list(range(a.processes))
    streams = [7] + [20 + 4 * i for i in range(max(a.threads - 1, 0))]
    nccl_stream = streams[-1] + 4
    parts = ['{\n  "schemaVersion": 1,\n  "deviceProperties": [\n']
    parts.append(",\n".join(
        '    {\n      "id": %d, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85100068864,\n'
        '      "computeMajor": 8, "computeMinor": 0,\n      "maxThreadsPerBlock": 1024, "numSms": 108\n    }' % d
        for d in devices))
    parts.append('\n  ],\n  "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8},\n'
                 '  "record_shapes": 0,\n  "traceEvents": [\n')
    f.write("".join(parts))
    events = []

    def out(text):
        events.append(text)
        if len(events) >= 4096:
            flush()

    first = [True]

    def flush():
        if events:
            f.write(("" if first[0] else ",\n") + ",\n".join(events))
            first[0] = False
            events.clear()

    def meta(name, pid, tid, key, value):
        out('  {\n    "name": "%s", "ph": "M", "ts": 0, "pid": %d, "tid": %d,\n    "args": {\n      "%s": %s\n    }\n  }'
            % (name, pid, tid, key, value))

    def x(cat, name, pid, tid, ts, dur, args):
        out('  {\n    "ph": "X", "cat": "%s", "name": "%s", "pid": %d, "tid": %d,\n    "ts": %s, "dur": %s,\n'
            '    "args": {\n      %s\n    }\n  }' % (cat, name, pid, tid, us(ts), us(dur), args))

    meta("process_name", cpu_pid, 0, "name", '"python3"')
    meta("process_labels", cpu_pid, 0, "labels", '"CPU"')
    meta("thread_name", cpu_pid, main_tid, "name", '"thread %d (python3)"' % main_tid)
    for d in devices:
        meta("process_name", d, 0, "name", '"python3"')
        meta("process_labels", d, 0, "labels", '"GPU %d"' % d)
        for st in streams + [nccl_stream]:
            meta("thread_name", d, st, "name", '"stream %d "' % st)

    n_x = 0
    ext = 1
    corr = 1
    clock = 1_700_000_000_000_000 * 1000 // 1000   # ns
    gpu_free = {(d, st): 0 for d in devices for st in streams + [nccl_stream]}
    step = 1
    while n_x < a.events:
        # one ProfilerStep: about 200 ops
        step_start = clock
        body = []
        t = clock + 5_000
        for _ in range(200):
            top, children = KINETO_OPS[rnd.randrange(len(KINETO_OPS))]
            chain = [top] + children
            dur_leaf = rnd.randrange(8_000, 40_000)
            # nested: each op a few µs around the next
            spans = []
            start = t
            for depth, name in enumerate(chain):
                spans.append((name, start + 1_000 * depth))
            leaf_start = spans[-1][1]
            launch_ts = leaf_start + rnd.randrange(1_000, 3_000)
            leaf_end = launch_ts + rnd.randrange(4_000, 8_000) + dur_leaf // 4
            total_end = leaf_end + 1_000 * len(chain)
            for depth, (name, s0) in enumerate(spans):
                e0 = total_end - 1_000 * depth
                body.append(("cpu_op", name, s0, e0 - s0, '"External id": %d, "Record function id": 0, '
                             '"Sequence number": %d, "Fwd thread id": 0' % (ext + depth, ext + depth)))
            leaf_ext = ext + len(chain) - 1
            ext += len(chain)
            r = rnd.random()
            if r < 0.05:
                kind, runtime, kname, st = "kernel", "cudaLaunchKernel", \
                    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", nccl_stream
            elif r < 0.12:
                kind, runtime, kname, st = "gpu_memcpy", "cudaMemcpyAsync", "Memcpy DtoD (Device -> Device)", streams[0]
            elif r < 0.15:
                kind, runtime, kname, st = "gpu_memset", "cudaMemsetAsync", "Memset (Device)", streams[0]
            else:
                kind, runtime, kname, st = "kernel", "cudaLaunchKernel", \
                    KINETO_KERNELS[rnd.randrange(len(KINETO_KERNELS))], streams[rnd.randrange(len(streams))]
            body.append(("cuda_runtime", runtime, launch_ts, rnd.randrange(3_000, 6_000),
                         '"External id": %d, "cbid": 211, "correlation": %d' % (leaf_ext, corr)))
            d = devices[rnd.randrange(len(devices))]
            k_start = max(launch_ts + rnd.randrange(5_000, 20_000), gpu_free[(d, st)] + rnd.randrange(500, 3_000))
            k_dur = dur_leaf * (8 if st == nccl_stream else 1)
            gpu_free[(d, st)] = k_start + k_dur
            body.append(("gpu", kind, kname, d, st, k_start, k_dur, leaf_ext, corr, launch_ts))
            corr += 1
            t = total_end + rnd.randrange(2_000, 10_000)
        clock = t + 5_000
        x("user_annotation", "ProfilerStep#%d" % step, cpu_pid, main_tid, step_start, clock - step_start,
          '"External id": %d, "Record function id": 0' % ext)
        ext += 1
        n_x += 1
        for ev in body:
            if ev[0] == "gpu":
                _, kind, kname, d, st, k_start, k_dur, e_id, c_id, launch_ts = ev
                x(kind, kname, d, st, k_start, k_dur,
                  '"External id": %d, "queued": 0, "device": %d, "context": 1, "stream": %d, "correlation": %d, '
                  '"registers per thread": 128, "shared memory": 49152, "grid": [108, 1, 1], "block": [256, 1, 1]'
                  % (e_id, d, st, c_id))
                out('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n    "cat": "ac2g", "name": "ac2g"\n  }'
                    % (c_id, cpu_pid, main_tid, us(launch_ts)))
                out('  {\n    "ph": "f", "id": %d, "pid": %d, "tid": %d, "ts": %s,\n    "cat": "ac2g", "name": "ac2g", "bp": "e"\n  }'
                    % (c_id, d, st, us(k_start)))
            else:
                x(ev[0], ev[1], cpu_pid, main_tid, ev[2], ev[3], ev[4])
            n_x += 1
        step += 1
    out('  {\n    "ph": "X", "cat": "Trace", "ts": %s, "dur": %s,\n    "pid": "Spans", "tid": "PyTorch Profiler",\n'
        '    "name": "PyTorch Profiler (0)",\n    "args": {\n      "Op count": 0\n    }\n  }'
        % (us(1_700_000_000_000_000), us(clock - 1_700_000_000_000_000)))
    flush()
    f.write('\n  ],\n  "traceName": "gen-chrome-trace.py",\n  "displayTimeUnit": "ms",\n'
            '  "baseTimeNanoseconds": 1700000000000000000\n}\n')
    return n_x


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=100_000, help="spans to write (default 100000)")
    ap.add_argument("--processes", type=int, default=2, help="devices (default 2)")
    ap.add_argument("--threads", type=int, default=4, help="cores per device (default 4)")
    ap.add_argument("--depth", type=int, default=4, help="deepest nesting (default 4)")
    ap.add_argument("--be-share", type=float, default=0.1, help="share of spans written as B/E pairs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gzip", action="store_true", help="write gzip")
    ap.add_argument("--shape", choices=["accelerator", "kineto"], default="accelerator",
                    help="accelerator (default) or kineto: what the PyTorch profiler writes")
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
    if a.shape == "kineto":
        with opener(a.out, "wt", encoding="utf-8") as f:
            n = write_kineto(a, f)
        print("gen-chrome-trace.py: wrote %s: %d X events (kineto)" % (a.out, n), file=sys.stderr)
        return
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
