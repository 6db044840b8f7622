#!/usr/bin/env python3
# The translations: po/POTFILES.in lists every file that marks strings
# (so that `meson compile tessera-pot` sees them all), LINGUAS names
# po/de.po, which is valid and complete, and the build compiled it.
# Usage: test-i18n.py SOURCE_ROOT BUILD_ROOT   (TAP output)

import os
import re
import subprocess
import sys
import tempfile

source_root, build_root = sys.argv[1], sys.argv[2]
po_dir = os.path.join(source_root, 'po')

# _( N_( C_( NC_( and the ngettext family, not some_name_(
MARKS = re.compile(r'(?<![A-Za-z0-9_])(_|N_|C_|NC_|ngettext|g_dngettext|g_dpgettext2)\s*\(')
SCANNED = ('app', 'widgets', 'importers', 'model')

results = []


def check(name, ok, diagnostics=''):
    results.append((name, ok, diagnostics))


def read_potfiles():
    with open(os.path.join(po_dir, 'POTFILES.in'), encoding='utf-8') as f:
        return [l.strip() for l in f if l.strip() and not l.startswith('#')]


def marked_sources():
    found = []
    for top in SCANNED:
        for folder, _dirs, names in os.walk(os.path.join(source_root, top)):
            for name in names:
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                if name.endswith(('.c', '.h')) and MARKS.search(text):
                    found.append(os.path.relpath(path, source_root))
                elif name.endswith('.ui') and 'translatable="yes"' in text:
                    found.append(os.path.relpath(path, source_root))
    return sorted(found)


potfiles = read_potfiles()

missing = [p for p in marked_sources() if p not in potfiles]
check('every source file under %s that marks strings is in po/POTFILES.in' % ', '.join(SCANNED),
      not missing, 'missing from po/POTFILES.in: ' + ', '.join(missing))

gone = [p for p in potfiles if not os.path.isfile(os.path.join(source_root, p))]
check('every file po/POTFILES.in lists exists', not gone, 'not found: ' + ', '.join(gone))

check('po/POTFILES.in is sorted, without duplicates', potfiles == sorted(set(potfiles)),
      'expected order: ' + ', '.join(sorted(set(potfiles))))

with open(os.path.join(po_dir, 'LINGUAS'), encoding='utf-8') as f:
    linguas = f.read().split()
check('po/LINGUAS names German', 'de' in linguas, 'LINGUAS: %s' % linguas)

for lang in linguas:
    po = os.path.join(po_dir, lang + '.po')
    run = subprocess.run(['msgfmt', '--check', '--statistics', '-o', os.devnull, po],
                         capture_output=True, text=True)
    stats = run.stderr.strip()
    check('po/%s.po is valid and has no fuzzy or untranslated message' % lang,
          run.returncode == 0 and 'fuzzy' not in stats and 'untranslated' not in stats, stats)

    mo = os.path.join(build_root, 'po', lang, 'LC_MESSAGES', 'tessera.mo')
    check('the build compiled po/%s.po' % lang, os.path.isfile(mo), mo + ' is missing')

# Strings added since de.po was written show as a skip, not a failure:
# whoever adds a string need not speak German.
with tempfile.TemporaryDirectory() as tmp:
    pot = os.path.join(tmp, 'tessera.pot')
    xgettext = subprocess.run(
        ['xgettext', '--from-code=UTF-8', '--add-comments', '--keyword=_', '--keyword=N_',
         '--keyword=C_:1c,2', '--keyword=NC_:1c,2', '--keyword=g_dngettext:2,3',
         '--keyword=g_dpgettext2:2c,3', '--directory=' + source_root,
         '--files-from=' + os.path.join(po_dir, 'POTFILES.in'), '--output=' + pot],
        capture_output=True, text=True)
    if xgettext.returncode != 0:
        check('xgettext reads every file of po/POTFILES.in', False, xgettext.stderr)
    else:
        check('xgettext reads every file of po/POTFILES.in', True)
        for lang in linguas:
            po = os.path.join(po_dir, lang + '.po')
            cmp = subprocess.run(['msgcmp', po, pot], capture_output=True, text=True)
            new = [l for l in cmp.stderr.splitlines() if 'this message' in l]
            name = 'po/%s.po translates every string of the sources' % lang
            if cmp.returncode == 0:
                check(name, True)
            else:
                results.append((name, 'skip', '%d new strings to translate (msgmerge po/%s.po)'
                                % (max(len(new), 1), lang)))

print('1..%d' % len(results))
failed = 0
for i, (name, ok, diagnostics) in enumerate(results, 1):
    if ok == 'skip':
        print('ok %d - %s # SKIP %s' % (i, name, diagnostics))
    elif ok:
        print('ok %d - %s' % (i, name))
    else:
        failed += 1
        print('not ok %d - %s' % (i, name))
        for line in diagnostics.splitlines():
            print('# ' + line)
sys.exit(1 if failed else 0)
