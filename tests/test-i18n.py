#!/usr/bin/env python3
# The translations: po/POTFILES.in lists every file that marks strings
# (so that `meson compile tessera-pot` sees them all), the importers'
# errors and progress are marked, LINGUAS names po/de.po, which is valid
# and complete, and the build compiled it.
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


# Calls whose text reaches the user: an importer's errors and progress.
USER_TEXT = re.compile(r'(?<![A-Za-z0-9_])(tes_import_fail_at_line|tes_import_fail_nothing|tes_import_fail|'
                       r'tes_line_reader_fail_row|g_set_error_literal|g_set_error|g_prefix_error|'
                       r'tes_progress_update)\s*\(')
FORMAT_SPEC = re.compile(r'%[-+ #0-9.*$]*(?:hh|h|ll|l|z|j|t|L)?[a-zA-Z%]')


def unmarked_user_text(path):
    """(line, text) of each call above whose text is a bare literal with words."""
    with open(path, encoding='utf-8', errors='replace') as f:
        src = f.read()
    found = []
    for m in USER_TEXT.finditer(src):
        depth, i, arg_start = 1, m.end(), m.end()
        while i < len(src) and depth > 0:
            c = src[i]
            if c == '"':
                j = i + 1
                while src[j] != '"':
                    j += 2 if src[j] == '\\' else 1
                if depth == 1 and src[arg_start:i].strip() == '':
                    words = SPEC_FREE(src[i + 1:j])
                    if re.search(r'[A-Za-z]{2,}', words):
                        found.append((src.count('\n', 0, i) + 1, src[i:j + 1]))
                    break
                i = j + 1
                continue
            if c in '([{':
                depth += 1
            elif c in ')]}':
                depth -= 1
            elif c == ',' and depth == 1:
                arg_start = i + 1
            i += 1
    return found


def SPEC_FREE(text):
    return FORMAT_SPEC.sub('', text)


# A msgid is its literals up to the first macro: "%" G_GINT64_FORMAT cuts it
# short (untranslatable, and the rest of the text never reaches gettext).
CUT_MSGID = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|NC_|ngettext|g_dngettext|g_dpgettext2)\s*\('
                       r'(?:\s*[A-Z_]+\s*,)?(?:\s*"(?:[^"\\]|\\.)*"\s*,)?'
                       r'(?:\s*"(?:[^"\\]|\\.)*")+\s*(G_G[A-Z0-9]*_FORMAT)')


def cut_msgids():
    found = []
    for top in SCANNED:
        for folder, _dirs, names in os.walk(os.path.join(source_root, top)):
            for name in sorted(names):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    src = f.read()
                for m in CUT_MSGID.finditer(src):
                    found.append('%s:%d: %s' % (os.path.relpath(path, source_root),
                                                src.count('\n', 0, m.start()) + 1, m.group(1)))
    return found


potfiles = read_potfiles()

cut = cut_msgids()
check('no translatable text is cut short by a GLib format macro', not cut,
      'use PRId64/PRIu64 (<inttypes.h>), which xgettext reads, or format the number apart:\n' +
      '\n'.join(cut))

unmarked = []
for folder, _dirs, names in os.walk(os.path.join(source_root, 'importers')):
    for name in sorted(names):
        if name.endswith('.c'):
            path = os.path.join(folder, name)
            unmarked += ['%s:%d: %s' % (os.path.relpath(path, source_root), line, text)
                         for line, text in unmarked_user_text(path)]
check('every error and progress text of the importers is marked for translation', not unmarked,
      'not marked (wrap in _(); for 64-bit numbers use PRId64, which xgettext reads):\n' + '\n'.join(unmarked))

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
