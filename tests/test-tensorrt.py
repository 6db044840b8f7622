#!/usr/bin/env python3
# The TensorRT importers (tensorrt-profile, tensorrt-times) against an
# independent reading of the same files with Python's json: every layer's
# name, share, total and count in the cache, every inference's run, the
# Summary's per-type shares, and compare's per-inference times.
# Usage: test-tensorrt.py TESSERA_CLI DATA_DIR   (TAP output)

import csv
import decimal
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

cli, data = sys.argv[1:3]
src = os.path.join(data, 'tensorrt')
results = []


def check(name, ok, diagnostics=''):
    results.append((name, bool(ok), diagnostics))


def run(*args, expect=0):
    proc = subprocess.run([cli] + list(args), capture_output=True, text=True)
    if proc.returncode != expect:
        raise AssertionError('%s exited %d, not %d: %s' % (' '.join(args), proc.returncode, expect, proc.stderr))
    return proc.stdout


def printed(path):
    """The file as trtexec wrote it: numbers kept as their text."""
    with open(path, encoding='utf-8') as f:
        return json.load(f, parse_float=str, parse_int=str)


def ns(ms_text):
    """ms as printed to ns, rounded half up as the importer documents."""
    value = decimal.Decimal(ms_text) * 1000000
    return int(value.to_integral_value(rounding=decimal.ROUND_HALF_UP))


def cache_of(path):
    run('info', path)
    db = sqlite3.connect(path + '.tessera')
    strings = dict(db.execute('SELECT id, value FROM strings'))
    return db, strings


def check_profile(path):
    base = os.path.basename(path)
    records = printed(path)
    count = int(records[0]['count'])
    layers = records[1:]
    db, strings = cache_of(path)
    rows = db.execute('SELECT op_index, name, type, count, total, share, args, clock_id '
                      'FROM operators ORDER BY id').fetchall()
    check('%s: one operator per layer' % base, len(rows) == len(layers), '%d rows, %d layers' % (len(rows), len(layers)))
    bad = []
    for i, (layer, row) in enumerate(zip(layers, rows)):
        op_index, name, type_, row_count, total, share, args, clock = row
        want_args = {k: v for k, v in layer.items() if k != 'name'}
        got_args = json.loads(args, parse_float=str, parse_int=str)
        if (op_index != i or strings[name] != layer['name'] or row_count != count or
                total != ns(layer['timeMs']) or share != float(layer['percentage']) or got_args != want_args):
            bad.append((i, layer['name'][:60], row))
    check('%s: index, name, count, total (timeMs in ns), share and args as printed' % base, not bad, repr(bad[:3]))
    (ticks,) = db.execute('SELECT ticks_per_second FROM clocks WHERE id = ?', (rows[0][7],)).fetchone()
    check('%s: totals count ns' % base, ticks == 10**9, str(ticks))
    info = dict(db.execute('SELECT key, value FROM info'))
    check('%s: info holds the count and the number of layers' % base,
          info.get('profile.count') == str(count) and info.get('profile.layers') == str(len(layers)) and
          info.get('operators.runs') == str(count), repr(info))
    has_median = all('medianMs' in layer for layer in layers)
    check('%s: info says whether the profile has medians' % base,
          info.get('profile.median', '').startswith('yes' if has_median else 'no'), info.get('profile.median'))

    # The Summary by type: each type's share is the sum of its layers' printed shares
    types = {}
    for layer, row in zip(layers, rows):
        t = strings[row[2]]
        types[t] = types.get(t, 0.0) + float(layer['percentage'])
    out = run('summary', '--csv', path).splitlines()
    got = {}
    for line in out[1:]:
        label, _, _, _, share, total, n = line.split(',')
        got[label] = share
    want = {t: '%.3f' % s for t, s in types.items()}
    check('%s: summary per type adds up the printed shares' % base, got == want,
          'got %r, want %r' % (sorted(got.items())[:4], sorted(want.items())[:4]))
    db.close()
    return layers, count


def check_kinds(path, expected):
    db, strings = cache_of(path)
    kinds = {strings[n]: strings[t] for n, t in db.execute('SELECT name, type FROM operators')}
    wrong = {n: (kinds.get(n), t) for n, t in expected.items() if kinds.get(n) != t}
    check('%s: layer kinds told from the names' % os.path.basename(path), not wrong, repr(wrong))
    db.close()


def check_times(path, trt7=False):
    base = os.path.basename(path)
    records = printed(path)
    db, strings = cache_of(path)
    runs = db.execute('SELECT name, start, end FROM runs ORDER BY id').fetchall()
    h2d, d2h = ('startInMs', 'endInMs'), ('startOutMs', 'endOutMs')
    if not trt7:
        h2d, d2h = ('startH2dMs', 'endH2dMs'), ('startD2hMs', 'endD2hMs')
    want = [('Inference %d' % (i + 1),
             min(ns(r[h2d[0]]), ns(r['startComputeMs'])), max(ns(r[d2h[1]]), ns(r['endComputeMs'])))
            for i, r in enumerate(records)]
    check('%s: a run per inference, input copy to output copy' % base, runs == want,
          'got %r, want %r' % (runs[:2], want[:2]))
    phases = [('startEnqMs', 'endEnqMs'), h2d, ('startComputeMs', 'endComputeMs'), d2h]
    slices = sum(1 for r in records for a, b in phases if a in r and ns(r[b]) > ns(r[a]))
    (n_slices,) = db.execute('SELECT sum(n) FROM slice_chunks').fetchone()
    check('%s: a slice per phase that took time' % base, n_slices == slices, '%s != %d' % (n_slices, slices))
    info = dict(db.execute('SELECT key, value FROM info'))
    check('%s: info counts the inferences' % base, info.get('times.inferences') == str(len(records)), repr(info))
    db.close()

    # one inference's summary: the slices of every lane inside its range,
    # cut at its ends (another inference's enqueue may fall inside it)
    names = ('Enqueue', 'H2D', 'Compute', 'D2H')
    for name, lo, hi in want[:3]:
        expected = {}
        for r in records:
            for lane, (a, b) in zip(names, phases):
                if a in r and ns(r[b]) > ns(r[a]):
                    cut = min(ns(r[b]), hi) - max(ns(r[a]), lo)
                    if cut > 0:
                        expected[lane] = expected.get(lane, 0) + cut
        got = {row['name']: int(row['total']) for row in csv.DictReader(
            run('summary', '--run', name, '--by', 'name', '--csv', path).splitlines()) if int(row['total']) > 0}
        check('%s: summary --run "%s" gives the time of each phase inside the inference' % (base, name),
              got == expected, 'got %r, want %r' % (got, expected))


with tempfile.TemporaryDirectory() as tmp:
    for name in os.listdir(src):
        if name.endswith('.json'):
            shutil.copy(os.path.join(src, name), tmp)
    p = lambda name: os.path.join(tmp, name)

    profiles = {}
    for name in sorted(os.listdir(tmp)):
        if name.endswith('.profile.json'):
            profiles[name] = check_profile(p(name))

    check_kinds(p('resnet.qat.profile.json'), {
        'QuantizeLinear_2': 'QuantizeLinear',
        'conv1.weight + QuantizeLinear_7 + Conv_9': 'Conv',
        'MaxPool_12': 'MaxPool',
    })
    check_kinds(p('resnet.fp16.profile.json'), {
        'Reformatting CopyNode for Input Tensor 0 to Conv_0 + Relu_1': 'Reformat',
        'Conv_5 + Add_6 + Relu_7': 'Conv',
        'reshape_after_Gemm_48': 'Reshape',
    })
    check_kinds(p('mobilenet.qat.v010.profile.json'), {
        'Reformatting CopyNode for Output Tensor 0 to features.2.conv.2.weight + QuantizeLinear_90 + Conv_94': 'Reformat',
        'features.0.0.weight + QuantizeLinear_8 + Conv_12 + PWN(Clip_16)': 'Conv',
        'GlobalAveragePool_843': 'GlobalAveragePool',
        'copied_squeeze_after_(Unnamed Layer* 850) [ElementWise]': 'ElementWise',
        'classifier.1.weight + QuantizeLinear_860 + Gemm_864 + classifier.1.bias + (Unnamed Layer* 849) [Shuffle] + '
        'unsqueeze_node_after_classifier.1.bias + (Unnamed Layer* 849) [Shuffle]_(Unnamed Layer* 849) [Shuffle]_output + '
        '(Unnamed Layer* 850) [ElementWise]': 'Gemm',
    })

    check_kinds(p('yolo.dla.profile.json'), {
        'images to nvm': 'ToNvm',
        '{ForeignNode[Conv_0...Concat_198]}': 'ForeignNode',
        'head_3 from nvm': 'FromNvm',
        'head_3 copy finish': 'CopyFinish',
    })

    # A name of kilobytes, as Myelin's fused layers have, survives whole
    long_name = '{ForeignNode[' + ' + '.join('/blocks.%d/attn/MatMul_%d' % (i, i) for i in range(400)) + ']}'
    with open(p('long.profile.json'), 'w', encoding='utf-8') as f:
        f.write('[\n  { "count" : 3 }\n, { "name" : %s, "timeMs" : 2.5, "averageMs" : 0.833333, '
                '"medianMs" : 0.8, "percentage" : 100 }\n]\n' % json.dumps(long_name))
    db, strings = cache_of(p('long.profile.json'))
    (name, type_) = db.execute('SELECT name, type FROM operators').fetchone()
    check('a layer name of %d bytes survives whole' % len(long_name), strings[name] == long_name and
          strings[type_] == 'ForeignNode', strings[type_])
    db.close()

    # trtexec writes names unescaped (sampleReporting.cpp: << l.name <<): a quote or a backslash
    # that starts no JSON escape stays as written
    raw = 'Conv "a" C:\\models\\yolo + PWN(Relu_1)'
    with open(p('raw.profile.json'), 'w', encoding='utf-8') as f:
        f.write('[\n  { "count" : 1 }\n, { "name" : "%s", "timeMs" : 1, "averageMs" : 1, "percentage" : 100 }\n]\n'
                % raw)
    db, strings = cache_of(p('raw.profile.json'))
    (name,) = db.execute('SELECT name FROM operators').fetchone()
    check('an unescaped quote and backslash in a name stay as written', strings[name] == raw, strings[name])
    db.close()

    check_times(p('resnet.fp16.times.json'))

    # TensorRT 7's keys, as its samples/opensource/trtexec/tracer.py names them (written here)
    trt7 = [{'startInMs': 1.5 + i, 'endInMs': 1.625 + i, 'startComputeMs': 1.625 + i, 'endComputeMs': 2.25 + i,
             'startOutMs': 2.25 + i, 'endOutMs': 2.3125 + i, 'inMs': 0.125, 'computeMs': 0.625, 'outMs': 0.0625,
             'latencyMs': 0.8125, 'endToEndMs': 0.8125} for i in range(3)]
    with open(p('trt7.times.json'), 'w') as f:
        f.write('[\n  ' + '\n, '.join(json.dumps(r) for r in trt7) + '\n]\n')
    check_times(p('trt7.times.json'), trt7=True)

    # Profile and times opened together: operators from one, runs from the other
    out = run('info', p('resnet.fp16.profile.json'), p('resnet.fp16.times.json'))
    check('a profile and its times open as one report',
          'Operators:      36' in out and 'Runs:           23' in out, out)

    # compare: per inference (timeMs / count), layers paired by name
    for a, b in [('mobilenet.qat.v010.profile.json', 'mobilenet.qat.profile.json'),
                 ('resnet.fp32.profile.json', 'resnet.fp16.profile.json')]:
        la, ca = profiles[a]
        lb, cb = profiles[b]
        want_a = {l['name']: ns(l['timeMs']) / ca for l in la}
        want_b = {l['name']: ns(l['timeMs']) / cb for l in lb}
        out = run('compare', '--csv', p(a), p(b)).splitlines()
        bad = []
        paired = 0
        for line in out[1:]:
            # names hold commas: the CSV quotes them
            (a_name, _, b_name, _, a_ns, b_ns, _, _) = next(csv.reader([line]))
            if a_name and abs(float(a_ns) - want_a[a_name]) > 0.0005:
                bad.append((a_name, a_ns, want_a[a_name]))
            if b_name and abs(float(b_ns) - want_b[b_name]) > 0.0005:
                bad.append((b_name, b_ns, want_b[b_name]))
            if a_name and b_name:
                paired += 1
                if a_name != b_name:
                    bad.append(('paired', a_name, b_name))
        common = len(set(want_a) & set(want_b))
        check('compare %s %s: per-inference ns, same-named layers paired' % (a, b),
              not bad and paired == common, '%r; %d paired, %d in common' % (bad[:3], paired, common))

    # --fail-if-slower: FP32 after FP16 is slower, FP16 after FP32 is not
    proc = subprocess.run([cli, 'compare', '--fail-if-slower', '10', p('resnet.fp16.profile.json'),
                           p('resnet.fp32.profile.json')], capture_output=True, text=True)
    check('--fail-if-slower 10 fails FP16 -> FP32', proc.returncode == 1 and 'Conv_0 + Relu_1 got slower' in proc.stderr,
          '%d %s' % (proc.returncode, proc.stderr[:200]))
    proc = subprocess.run([cli, 'compare', '--fail-if-slower', '10', p('resnet.fp32.profile.json'),
                           p('resnet.fp16.profile.json')], capture_output=True, text=True)
    check('--fail-if-slower 10 passes FP32 -> FP16', proc.returncode == 0, '%d %s' % (proc.returncode, proc.stderr[:200]))

    out = run('formats')
    check('formats lists both importers', 'tensorrt-profile' in out and 'tensorrt-times' in out, out)

print('1..%d' % len(results))
for i, (name, ok, diagnostics) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok:
        for line in str(diagnostics).splitlines()[:20]:
            print('# ' + line)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
