#!/usr/bin/env python3
# valgrind memcheck over opening every fixture: `tessera-cli info
# --reimport` on each file of tests/data (the bad-input corpus included)
# and, when present, ../shared/fixtures. A file passes when memcheck finds
# no invalid access and nothing definitely lost, whether the import
# succeeds or fails naming the file (exit 1). TAP, one line per file.
#
#   valgrind-fixtures.py TESSERA_CLI DIR… [--jobs N]
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

VALGRIND_STATUS = 99   # tessera-cli exits 1 for bad input, 2 for misuse
SKIP_SUFFIXES = ('.md', '.py', '.sql', '.tessera', 'cases.txt')

args = sys.argv[1:]
jobs = 2
if '--jobs' in args:
    i = args.index('--jobs')
    jobs = int(args[i + 1])
    del args[i:i + 2]
cli, dirs = args[0], [d for d in args[1:] if os.path.isdir(d)]

files = []
for top in dirs:
    for root, _, names in os.walk(top):
        for name in sorted(names):
            if not name.endswith(SKIP_SUFFIXES):
                files.append((top, os.path.join(root, name)))
files.sort()

if shutil.which('valgrind') is None:
    print('1..0 # SKIP valgrind is not installed (scripts/install-deps installs it)')
    sys.exit(0)


def check(item):
    top, path = item
    rel = os.path.relpath(path, os.path.dirname(os.path.normpath(top)))
    with tempfile.TemporaryDirectory() as tmp:
        # a copy, so that the cache is written beside it, not into the tree
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copyfile(path, copy)
        log = os.path.join(tmp, 'valgrind.log')
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, 'cache'),
                   G_SLICE='always-malloc', G_DEBUG='gc-friendly')
        # --undef-value-errors=no: PCRE2's JIT code (GRegex) branches on
        # uninitialised bytes by design, and memcheck cannot tell
        cmd = ['valgrind', '--leak-check=full', '--errors-for-leak-kinds=definite',
               '--show-leak-kinds=definite', '--undef-value-errors=no',
               '--error-exitcode=%d' % VALGRIND_STATUS, '--log-file=' + log,
               cli, 'info', '--reimport', copy]
        run = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        report = run.stderr
        if os.path.exists(log):
            with open(log) as f:
                report += f.read()
    # memcheck's own verdict is the exit status; the summary line is
    # checked too, in case a leak is reported without one
    ok = (run.returncode in (0, 1) and 'ERROR SUMMARY: 0 errors' in report and
          'definitely lost:' not in report.replace('definitely lost: 0 bytes', ''))
    return rel, ok, run.returncode, report


with ThreadPoolExecutor(max_workers=jobs) as pool:
    results = list(pool.map(check, files))

print('1..%d' % len(results))
failed = 0
for n, (rel, ok, status, report) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, rel))
    if not ok:
        failed += 1
        print('# tessera-cli exited %d' % status)
        for line in report.splitlines():
            print('# ' + line)
sys.exit(1 if failed else 0)
