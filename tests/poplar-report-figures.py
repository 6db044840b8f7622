#!/usr/bin/env python3
# Every figure a Poplar text report prints, read with regular expressions
# of our own (nothing shared with the importer), for test-poplar-report to
# compare with what Tessera stored. Keys follow docs/formats/poplar.md.
# Usage: poplar-report-figures.py REPORT.txt   (JSON on stdout)
#
# {"info": [[key, value, printed], ...]   value: the number without its
#                                          separators, printed: as printed
#  "histograms": [{"ipu": -1 | N, "bins": [[from_kb, to_kb, tiles], ...]}],
#  "runs": [[name, total_cycles]],
#  "operators": [[vertex type, instances, cycles]],
#  "steps": [{"ipu": N, "steps": [[step, cycles, text], ...]}]}

import json
import re
import sys

NUM = r'\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?'
TARGET = {'Number of IPUs': 'ipus', 'Tiles per IPU': 'tiles_per_ipu', 'Total Tiles': 'total_tiles',
          'Memory Per-Tile': 'memory_per_tile', 'Total Memory': 'total_memory',
          'Clock Speed (approx)': 'clock', 'Number of Replicas': 'replicas',
          'IPUs per Replica': 'ipus_per_replica', 'Tiles per Replica': 'tiles_per_replica',
          'Memory per Replica': 'memory_per_replica'}
GRAPH = {'Number of vertices': 'vertices', 'Number of edges': 'edges',
         'Number of variables': 'variables', 'Number of compute sets': 'compute_sets'}


def plain(text):
    return text.replace(',', '')


def slug(label):
    return re.sub(r'[^a-z0-9]+', '_', label.lower()).strip('_')


info, histograms, runs, operators, steps = [], [], [], [], []
section = None
memory = None        # key prefix of the memory block: memory, memory.ipu.N
listname = None      # region, data_type.not_overlapped, vertex_code.type, ...
vertex = None        # vertex_data / vertex_code while in their lists
histogram = None
hist_prefix = None
n_hist = 0
step_ipu = 0
run = None
exec_prefix = None

for line in open(sys.argv[1], encoding='utf-8'):
    raw = line.rstrip('\n')
    text = raw.strip()
    top = raw[:1] not in (' ', '\t')
    if not text:
        continue
    if top and text in ('Target:', 'Graph:', 'Memory Usage:', 'Execution:', 'Execution Steps:'):
        section = text[:-1]
        if section == 'Memory Usage':
            memory, listname, vertex = 'memory', None, None
        if section == 'Execution':
            runs.append([None, None])
            run = runs[-1]
            exec_prefix = 'execution'
        if section == 'Execution Steps':
            step_ipu = 0
        continue
    if top and text not in ('Programs executed:',) and not re.match(r'^<anonymous>\.$|^\w+\.$', text):
        section = None
        continue

    if section in ('Target', 'Graph'):
        m = re.match(r'^(.+?):\s+(.+)$', text)
        table = TARGET if section == 'Target' else GRAPH
        key = '%s.%s' % (section.lower(), table.get(m.group(1), slug(m.group(1))))
        value = m.group(2)
        n = re.match(r'^(%s)(.*)$' % NUM, value)
        info.append([key, plain(n.group(1)) + n.group(2), value])

    elif section == 'Memory Usage':
        m_ipu = re.match(r'^IPU (\d+):$', text)
        if text == 'Total for all IPUs:' or m_ipu:
            memory = 'memory' if m_ipu is None else 'memory.ipu.%s' % m_ipu.group(1)
            listname, vertex, histogram = None, None, None
            continue
        if text == 'By Tile (Excluding Gaps):':
            n_hist += 1
            hist_prefix = memory + '.by_tile' if memory != 'memory' else \
                ('memory.by_tile' if n_hist == 1 else 'memory.by_tile.%d' % n_hist)
            histogram = {'ipu': -1 if memory == 'memory' else int(memory.split('.')[-1]), 'bins': []}
            histograms.append(histogram)
            continue
        if histogram is not None:
            b = re.match(r'^(%s)\s+-\s+(%s)\s+\**\s*(%s)$' % (NUM, NUM, NUM), text)
            mx = re.match(r'^Maximum \((Including|Excluding) Gaps\):\s+((%s) \(.*\) on tile .*)$' % NUM, text)
            oom = re.match(r'^((%s)) tile\(s\) out of memory$' % NUM, text)
            if b:
                histogram['bins'].append([int(plain(b.group(1))), int(plain(b.group(2))), int(plain(b.group(3)))])
            elif mx:
                info.append(['%s.maximum_%s_gaps' % (hist_prefix, mx.group(1).lower()), plain(mx.group(3)), mx.group(2)])
            elif oom:
                info.append([hist_prefix + '.tiles_out_of_memory', plain(oom.group(1)), oom.group(1)])
            continue
        if text in ('Not Overlapped', 'Overlapped'):
            listname = 'data_type.' + slug(text)
            continue
        head = re.match(r'^Vertex (Data|Code) \(((%s) ?B)\):$' % NUM, text)
        if head:
            vertex = 'vertex_' + head.group(1).lower()
            info.append(['%s.%s' % (memory, vertex), plain(head.group(3)), head.group(2)])
            listname = vertex
            continue
        m = re.match(r'^(.+?):\s*$', text)
        if m:
            label = m.group(1)
            listname = {'By Memory Region': 'region', 'By Data Type': 'data_type',
                        'By Category': (vertex or '') + '.category', 'By Type': (vertex or '') + '.type',
                        'Excluding Gaps': '', 'Total': ''}.get(label, slug(label)).strip('.') or None
            if label not in ('By Category', 'By Type'):
                vertex = None
            continue
        m = re.match(r'^(.+?):\s+((%s) B)$' % NUM, text) or re.match(r'^(.+?)\s{2,}((%s) B)$' % NUM, text)
        label, printed, value = m.group(1), m.group(2), plain(m.group(3))
        if label in ('Including Gaps', 'Excluding Gaps'):
            key = '%s.%s' % (memory, slug(label))
        elif label == 'Total' and listname == 'region':
            key = memory + '.excluding_gaps'
        elif label == 'Total After Overlapping':
            key = memory + '.data_type.total_after_overlapping'
        elif label == 'Total':
            key = '%s.%s.total' % (memory, listname)
        elif listname == 'vertex_code.type':
            lang = re.match(r'^(.+) \((.+)\)$', label)
            info.append(['%s.%s.%s.language' % (memory, listname, label), lang.group(2), lang.group(2)])
            key = '%s.%s.%s' % (memory, listname, label)
        else:
            key = '%s.%s.%s' % (memory, listname, label)
        info.append([key, value, printed])

    elif section == 'Execution':
        m_ipu = re.match(r'^IPU (\d+):$', text)
        if m_ipu:
            exec_prefix = 'execution.ipu.' + m_ipu.group(1)
            continue
        if text == 'Programs executed:' or text == 'Cycles by vertex type:':
            continue
        prog = re.match(r'^(\S+)\.$', text)
        if prog:
            run[0] = prog.group(1) if run[0] is None else run[0] + ', ' + prog.group(1)
            continue
        vt = re.match(r'^(.+?)\s+\((\d+) instances?\):\s+(%s)$' % NUM, text)
        if vt:
            operators.append([vt.group(1), int(vt.group(2)), int(plain(vt.group(3)))])
            continue
        tc = re.match(r'^Total cycles:\s+((%s) \(approx (%s) microseconds\))$' % (NUM, NUM), text)
        if tc:
            run[1] = int(plain(tc.group(2)))
            info.append(['execution.total_cycles', plain(tc.group(2)), tc.group(1)])
            info.append(['execution.total_cycles.approx_us', plain(tc.group(3)), plain(tc.group(3))])
            continue
        ta = re.match(r'^(Tile average .+?):\s+((%s) \((%s)%% of total\))$' % (NUM, NUM), text)
        key = '%s.%s' % (exec_prefix, slug(ta.group(1)))
        info.append([key, plain(ta.group(3)), ta.group(2)])
        info.append([key + '.share', ta.group(4), ta.group(4)])

    elif section == 'Execution Steps':
        m_ipu = re.match(r'^IPU (\d+):$', text)
        if m_ipu:
            step_ipu = int(m_ipu.group(1))
            steps.append({'ipu': step_ipu, 'steps': []})
            continue
        row = re.match(r'^(\d+)\s+(%s)\s+(.+)$' % NUM, text)
        if row:
            steps[-1]['steps'].append([int(row.group(1)), int(plain(row.group(2))), row.group(3)])

json.dump({'info': info, 'histograms': histograms, 'runs': runs, 'operators': operators, 'steps': steps},
          sys.stdout, indent=1)
