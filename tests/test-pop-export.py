#!/usr/bin/env python3
# tessera-pop-export against the stand-in pva (tests/pva): a run that
# tests/gen-poplar-tiles.py generates is exported, the file is checked
# against the generator's truth.json record by record, then opened with
# tessera-cli, whose figures (info, memory, tiles) must give the truth back.
# The exporter's and the importer's errors are checked too.
#
# Usage: test-pop-export.py SOURCE_ROOT BUILD_ROOT   (TAP output)

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

source_root, build_root = sys.argv[1:3]
exporter = os.path.join(build_root, 'tools', 'tessera-pop-export')
cli = os.path.join(build_root, 'app', 'cli', 'tessera-cli')
generator = os.path.join(source_root, 'tests', 'gen-poplar-tiles.py')
stand_in = os.path.join(source_root, 'tests')   # holds the package pva/

# The stand-in's names for the generator's data types (tests/pva says so).
CATEGORY = {
    'Variables': 'variable', 'Constants': 'constant', 'Stack': 'stack',
    'Vertex Instances': 'vertexInstanceState', 'Vertex Field Data': 'vertexFieldData',
    'Control Code': 'controlCode', 'Vertex Code': 'vertexCode',
    'Internal Exchange Code': 'internalExchangeCode', 'Host Exchange Code': 'hostExchangeCode',
}

results = []



def stand_in_blocks(truth):
    """The blocks tests/pva's rule gives, computed here from the truth:
    (ipu, tile, program, kind, from, to), in the exporter's order (tile by
    tile)."""
    out = []
    for ipu in range(truth['ipus']):
        mine = [s for s in truth['steps'] if s['ipu'] == ipu]
        first = []
        for n, s in enumerate(mine):
            kind = 'stream-copy' if s['name'] == 'StreamCopy' else 'common'
            first.append((ipu, 0, s['program'], kind, s['start'], s['start'] + s['dur']))
            if n % 5 == 4 and n + 1 < len(mine) and mine[n + 1]['start'] > s['start'] + s['dur']:
                first.append((ipu, 0, s['program'], 'block-flush', s['start'] + s['dur'], mine[n + 1]['start']))
        out += first
        if truth['tiles_per_ipu'] > 1:
            out += [(ipu, 1, s['program'], 'stream-copy', s['start'], s['start'] + s['dur'])
                    for s in mine if s['name'] == 'StreamCopy']
    return out

def check(name, ok, diagnostics=''):
    results.append((name, bool(ok), diagnostics))
    return ok


def run(argv, pythonpath=None):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')   # nothing written into tests/pva
    env.pop('PYTHONPATH', None)
    if pythonpath is not None:
        env['PYTHONPATH'] = pythonpath
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def state_of(name):
    """The state a step puts a tile in, as the tile trace's flavour has it."""
    if 'Sync' in name:
        return 'sync'
    if 'Exchange' in name or 'Copy' in name:
        return 'exchange'
    return 'compute'


def balance(cycles):
    longest = max(cycles)
    active = [c for c in cycles if c]
    return (100.0 * sum(cycles) / (longest * len(cycles)), 100.0 * sum(active) / (longest * len(active)))


def check_file(records, truth):
    """The export, record by record, against truth.json."""
    header = records[0]
    per_ipu = truth['tiles_per_ipu']
    n_tiles = truth['ipus'] * per_ipu
    check('the header names the format and its version',
          header.get('format') == 'tessera-poplar-export' and header.get('version') == 1, header)
    target = header.get('target', {})
    check('the header gives the target (IPUs, tiles, bytes per tile, clock)',
          target.get('ipus') == truth['ipus'] and target.get('tiles_per_ipu') == per_ipu and
          target.get('tiles') == n_tiles and target.get('num_ipus') == truth['ipus'] and
          target.get('num_tiles') == n_tiles and target.get('bytes_per_tile') == truth['tile_memory_bytes'] and
          target.get('clock_hz') == truth['clock_mhz'] * 1_000_000, target)
    check('the header gives the graph\'s compute sets',
          header.get('graph') == {'compute_sets': truth['graph']['compute_sets']}, header.get('graph'))

    kinds = [r.get('record') for r in records[1:]]
    tiles = [r for r in records if r.get('record') == 'tile']
    bad = []
    for r in tiles:
        t = truth['tiles'][r['ipu'] * per_ipu + r['tile']]
        variables = t['data_types']['Variables']
        if (r['including_gaps'] != t['including_gaps'] or r['excluding_gaps'] != t['total'] or
                r['categories'] != {CATEGORY[k]: v for k, v in t['data_types'].items()} or
                r['not_always_live'] != variables or r['always_live'] != t['total'] - variables):
            bad.append((r, t['index']))
    check('a tile record per tile, in order', [(r['ipu'], r['tile']) for r in tiles] ==
          [(t['ipu'], t['tile']) for t in truth['tiles']])
    check('every tile\'s bytes, categories, always-live and not-always-live bytes equal the truth',
          not bad, repr(bad[:2]))

    memory = [r for r in records if r.get('record') == 'memory']
    check('the memory record sums the tiles',
          len(memory) == 1 and memory[0]['always_live'] == sum(r['always_live'] for r in tiles) and
          memory[0]['not_always_live'] == sum(t['data_types']['Variables'] for t in truth['tiles']), memory)

    steps = [r for r in records if r.get('record') == 'step']
    n_steps = max(s['step'] for s in truth['steps']) + 1
    check('one run, %d steps' % n_steps,
          kinds.count('run') == 1 and len(steps) == n_steps, kinds.count('run'))
    bad = []
    for s in truth['steps']:
        r = steps[s['step']]
        ipu = r['ipus'][s['ipu']]
        b, ab = balance(s['cycles'])
        if (r['type'] != s['name'] or r['name'] != s['program'] or ipu['ipu'] != s['ipu'] or
                ipu['from'] != s['start'] or ipu['to'] != s['start'] + s['dur'] or ipu['cycles'] != s['dur'] or
                ipu['tile_cycles'] != s['cycles'] or abs(ipu['tile_balance'] - b) > 1e-9 or
                abs(ipu['active_tile_balance'] - ab) > 1e-9):
            bad.append((s['step'], s['ipu']))
    check('every step\'s type, name, cycles from/to per IPU, tile balance and every tile\'s cycles equal '
          'the truth', not bad, repr(bad[:4]))

    liveness = [r for r in records if r.get('record') == 'liveness']
    variables = sum(t['data_types']['Variables'] for t in truth['tiles'])
    check('liveness per step (the stand-in\'s rule)',
          [(r['step'], r['not_always_live']) for r in liveness] ==
          [(n, variables * (n % 5 + 1) // 5) for n in range(n_steps)], liveness[:3])

    blocks = [r for r in records if r.get('record') == 'block']
    want = stand_in_blocks(truth)
    check('Lightweight Profiling blocks of each IPU\'s first two tiles (the stand-in\'s rule): common, '
          'StreamCopy and buffer flushes',
          [(r['ipu'], r['tile'], r['name'], r['kind'], r['from'], r['to']) for r in blocks] == want and
          {r['kind'] for r in blocks} == {'common', 'stream-copy', 'block-flush'}, blocks[:2])

    end = records[-1]
    counted = {k: kinds.count(k) for k in set(kinds) if k != 'end'}
    check('the end record counts the records', end.get('record') == 'end' and end.get('counts') == counted,
          end)


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def check_views(path, truth):
    """What Tessera makes of the export, against truth.json."""
    per_ipu = truth['tiles_per_ipu']
    n_tiles = truth['ipus'] * per_ipu
    n_steps = max(s['step'] for s in truth['steps']) + 1

    out = run([cli, 'info', '--json', '--reimport', path])
    if not check('tessera-cli info opens the export', out.returncode == 0, out.stderr):
        return
    info = json.loads(out.stdout)
    counts = info['counts']
    check('the poplar-export importer read it', info['importer'] == 'poplar-export', info['importer'])
    check('a tiles row per tile, a run per IPU, a BSP step per step and IPU',
          counts['tiles'] == n_tiles and counts['runs'] == truth['ipus'] and
          counts['bsp_steps'] == truth['ipus'] * n_steps, counts)
    cycles = [s for s in info['spans'] if s['unit'] == 'cycles' and s['clock'] == 'Poplar IPU cycles']
    check('the clock is the target\'s, in cycles',
          cycles and cycles[0]['ticks_per_second'] == truth['clock_mhz'] * 1_000_000, info['spans'])
    i = info['info']
    variables = sum(t['data_types']['Variables'] for t in truth['tiles'])
    check('info: the target, and always-live bytes summed over the tiles',
          i.get('target.ipus') == str(truth['ipus']) and i.get('target.tiles_per_ipu') == str(per_ipu) and
          i.get('liveness.always_live') == str(sum(t['total'] for t in truth['tiles']) - variables) and
          i.get('execution.runs') == '1' and i.get('graph.compute_sets') == str(truth['graph']['compute_sets']) and
          i.get('target.libpva.num_tiles') == str(n_tiles),
          {k: v for k, v in i.items() if not k.startswith('tile.')})
    start = min(r['start'] for r in truth['runs']) / truth['clock_mhz']
    end = max(r['end'] for r in truth['runs']) / truth['clock_mhz']
    check('info: the run\'s microseconds, as the export printed them',
          i.get('execution.run.0.microseconds.end') == repr(end) and
          float(i.get('execution.run.0.microseconds.start', 'nan')) == start,
          (i.get('execution.run.0.microseconds.start'), i.get('execution.run.0.microseconds.end'), end))
    bad = [t['index'] for t in truth['tiles']
           if i.get('tile.%d.liveness.always_live' % t['index']) != str(t['total'] - t['data_types']['Variables'])]
    check('info: every tile\'s always-live bytes', not bad, bad[:5])
    tracks = counts['counter_tracks']
    check('tile balance: two counter tracks per IPU (and one of liveness), a value per step',
          tracks == 2 * truth['ipus'] + 1 and
          counts['counter_values'] == 2 * truth['ipus'] * n_steps + n_steps, counts)

    out = run([cli, 'summary', '--by', 'category', '--csv', path])
    rows = {r['label']: r for r in csv_rows(out.stdout)} if out.returncode == 0 else {}
    # the summary converts the blocks' clock to the report's first one
    # through nanoseconds: within a cycle per block
    bad = []
    for kind in ('common', 'stream-copy', 'block-flush'):
        blocks = [b for b in stand_in_blocks(truth) if b[3] == kind]
        row = rows.get(kind)
        if (row is None or int(row['count']) != len(blocks) or
                abs(int(row['total']) - sum(b[5] - b[4] for b in blocks)) > len(blocks)):
            bad.append((kind, row))
    check('Lightweight Profiling blocks: a slice each, of the block\'s cycles (summary by category)',
          not bad, out.stderr + repr(bad))

    out = run([cli, 'memory', '--tiles', '--csv', path])
    rows = csv_rows(out.stdout) if out.returncode == 0 else []
    bad = []
    for t in truth['tiles']:
        row = next((r for r in rows if int(r['ipu']) == t['ipu'] and int(r['tile']) == t['tile']), None)
        if row is None:
            bad.append((t['index'], 'missing'))
            continue
        cats = {k: int(v) for k, v in row.items() if k not in ('ipu', 'tile', 'total_bytes') and v not in ('', None)}
        want = {CATEGORY[k]: v for k, v in t['data_types'].items() if v}
        gaps = t['including_gaps'] - t['total']
        if gaps:
            want['gaps'] = gaps
        if {k: v for k, v in cats.items() if v} != want or int(row['total_bytes']) != t['including_gaps']:
            bad.append((t['index'], cats, want))
    check('tessera-cli memory --tiles: every tile\'s bytes by category, and gaps, equal the truth',
          out.returncode == 0 and len(rows) == n_tiles and not bad, out.stderr + repr(bad[:2]))

    out = run([cli, 'tiles', '--csv', path])
    rows = csv_rows(out.stdout) if out.returncode == 0 else []
    bad = []
    for t in truth['tiles']:
        want = {'compute': 0, 'exchange': 0, 'sync': 0, 'idle': 0}
        for s in truth['steps']:
            if s['ipu'] != t['ipu']:
                continue
            c = s['cycles'][t['tile']]
            if c:
                want[state_of(s['name'])] += c
            want['idle'] += s['dur'] - c
        row = next((r for r in rows if int(r['ipu']) == t['ipu'] and int(r['tile']) == t['tile']), None)
        got = {k: int(row[k]) for k in want} if row else None
        if got != want:
            bad.append((t['index'], got, want))
    check('tessera-cli tiles: every tile\'s compute, exchange, sync and idle cycles equal the truth\'s steps',
          out.returncode == 0 and len(rows) == n_tiles and not bad, out.stderr + repr(bad[:2]))


def check_errors(tmp, export_path):
    # no libpva: the message says where to run it
    out = run([exporter, os.path.join(tmp, 'profile.pop')], pythonpath=os.path.join(tmp, 'empty'))
    check('without pva: exit status 3, and the message says to enable the Poplar SDK',
          out.returncode == 3 and 'enable.sh' in out.stderr and 'Poplar SDK' in out.stderr, out.stderr)

    bad_pop = os.path.join(tmp, 'bad.pop')
    with open(bad_pop, 'w') as f:
        f.write('not a profile\n')
    out = run([exporter, bad_pop], pythonpath=stand_in)
    check('a file libpva cannot open: exit status 1, the path named, nothing written',
          out.returncode == 1 and bad_pop in out.stderr and
          not os.path.exists(os.path.join(tmp, 'bad.tessera-pop.jsonl')) and
          not os.path.exists(os.path.join(tmp, 'bad.tessera-pop.jsonl.part')), out.stderr)

    out = run([exporter, os.path.join(tmp, 'missing.pop')], pythonpath=stand_in)
    check('a missing file: exit status 1', out.returncode == 1 and 'missing.pop' in out.stderr, out.stderr)

    with open(export_path) as f:
        lines = f.read().splitlines(True)

    def import_error(name, text):
        path = os.path.join(tmp, name + '.tessera-pop.jsonl')
        with open(path, 'w') as f:
            f.write(text)
        out = run([cli, 'info', path])
        return out.returncode, out.stderr, os.path.exists(path + '.tessera')

    rc, err, cache = import_error('cut', ''.join(lines[:-1]))
    check('an export without its end record is an error, no cache left',
          rc == 1 and "without its 'end' record" in err and not cache, err)

    lost = next(i for i, line in enumerate(lines) if '"record":"block"' in line)
    rc, err, cache = import_error('lost', ''.join(lines[:lost] + lines[lost + 1:]))
    check('an export missing a line: the end record\'s counts say so',
          rc == 1 and "the 'end' record counts" in err and not cache, err)

    n = next(i for i, line in enumerate(lines) if '"record":"step"' in line)
    step = json.loads(lines[n])
    step['ipus'][1]['tile_cycles'][3] = 'x'
    rc, err, cache = import_error('value', ''.join(lines[:n] + [json.dumps(step) + '\n'] + lines[n + 1:]))
    check('a wrong value is named by line and key path',
          rc == 1 and ':%d:' % (n + 1) in err and "'step.ipus[1].tile_cycles[3]' expects a whole number" in err,
          err)

    newer = json.loads(lines[0])
    newer['version'] = 2
    rc, err, cache = import_error('newer', json.dumps(newer) + '\n' + ''.join(lines[1:]))
    check('a newer format version says so', rc == 1 and 'newer tessera-pop-export' in err, err)

    rc, err, cache = import_error('json', lines[0] + '{"record": "tile", \n' + ''.join(lines[1:]))
    check('a line that is not JSON', rc == 1 and ':2: not a JSON record' in err, err)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        gen = run([sys.executable, generator, '--seed', '5', '--ipus', '2', '--tiles', '12', '--steps', '15',
                   '--outdir', tmp])
        if not check('gen-poplar-tiles.py writes a run', gen.returncode == 0, gen.stderr):
            return
        with open(os.path.join(tmp, 'truth.json')) as f:
            truth = json.load(f)
        pop = os.path.join(tmp, 'profile.pop')
        shutil.copy(os.path.join(tmp, 'truth.json'), pop)
        os.mkdir(os.path.join(tmp, 'empty'))

        out = run([exporter, pop], pythonpath=stand_in)
        path = os.path.join(tmp, 'profile.tessera-pop.jsonl')
        if not check('tessera-pop-export writes PROFILE.tessera-pop.jsonl beside the profile',
                     out.returncode == 0 and os.path.isfile(path), out.stderr):
            return
        with open(path) as f:
            text = f.read()
        records = [json.loads(line) for line in text.splitlines()]
        check_file(records, truth)

        out = run([exporter, pop, '-o', '-'], pythonpath=stand_in)
        check('-o - writes the same to standard output', out.returncode == 0 and out.stdout == text)

        out = run([exporter, pop, '--no-blocks', '-o', '-'], pythonpath=stand_in)
        kept = [line for line in text.splitlines(True) if '"record":"block"' not in line and
                '"record":"end"' not in line]
        check('--no-blocks leaves the blocks out, and the end record counts none',
              out.returncode == 0 and out.stdout.splitlines(True)[:-1] == kept and
              'block' not in json.loads(out.stdout.splitlines()[-1])['counts'], out.stderr)

        check_views(path, truth)
        check_errors(tmp, path)


main()
print('1..%d' % len(results))
failed = 0
for i, (name, ok, diagnostics) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok:
        failed += 1
        for line in str(diagnostics).splitlines():
            print('# ' + line)
sys.exit(1 if failed else 0)
