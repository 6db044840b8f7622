#!/usr/bin/env python3
# The man pages: groff reads them without a warning, and they describe
# every command and option the programs' --help lists, so that they stay
# in step. Both programs answer --help and --version.
# Usage: test-manpages.py [--pop-export=TESSERA_POP_EXPORT] SOURCE_ROOT VERSION TESSERA_CLI [TESSERA]
#        (TAP output)

import os
import re
import subprocess
import sys

args = [a for a in sys.argv[1:] if not a.startswith('--pop-export=')]
pop_export = next((a.split('=', 1)[1] for a in sys.argv[1:] if a.startswith('--pop-export=')), None)
source_root, version, cli = args[0:3]
app = args[3] if len(args) > 3 else None
man_dir = os.path.join(source_root, 'data', 'man')

results = []


def check(name, ok, diagnostics=''):
    results.append((name, bool(ok), diagnostics))


def run(*argv):
    # no display needed for either: --help and --version return early
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def page_text(name):
    """The page as words: roff's escaped hyphens plain."""
    with open(os.path.join(man_dir, name), encoding='utf-8') as f:
        return f.read().replace('\\-', '-').replace('\\%', '')


def long_options(help_text):
    return sorted(set(re.findall(r'^\s+(?:-\w, )?(--[\w-]+)', help_text, re.M)))


for page in ('tessera.1', 'tessera-cli.1', 'tessera-pop-export.1'):
    lint = subprocess.run(['groff', '-man', '-ww', '-z', '-Tutf8', os.path.join(man_dir, page)],
                          capture_output=True, text=True)
    check('groff reads %s without a warning' % page, lint.returncode == 0 and not lint.stderr.strip(),
          lint.stderr)

programs = [('tessera-cli', cli)] + ([('tessera', app)] if app else [])
if pop_export:
    programs.append(('tessera-pop-export', pop_export))
for name, path in programs:
    out = run(path, '--version')
    check('%s --version prints "%s %s"' % (name, name, version),
          out.returncode == 0 and out.stdout.strip() == '%s %s' % (name, version),
          out.stdout + out.stderr)
    out = run(path, '--help')
    check('%s --help prints its usage' % name, out.returncode == 0 and 'Usage' in out.stdout,
          out.stdout + out.stderr)

cli_page = page_text('tessera-cli.1')
usage = run(cli, '--help').stdout
commands = re.findall(r'^  (\w+)\b', usage.split('Commands:')[1].split('\n\n')[0], re.M)
check('tessera-cli --help lists commands', len(commands) >= 4, usage)
for command in commands:
    check('tessera-cli.1 has a section on %s' % command, re.search(r'^\.SS %s$' % command, cli_page, re.M),
          'add ".SS %s" (and the SYNOPSIS line) to data/man/tessera-cli.1' % command)
    out = run(cli, command, '--help')
    if out.returncode != 0:
        continue  # takes no options (formats)
    missing = [o for o in long_options(out.stdout) if o not in cli_page]
    check('tessera-cli.1 describes every option of %s' % command, not missing,
          'describe in data/man/tessera-cli.1: %s' % ', '.join(missing))
# the views render draws: an unknown one's message lists them (before any
# file is opened)
out = run(cli, 'render', '--view', 'no-such-view', '--out', os.devnull + '.png', os.devnull)
views = re.search(r'views: (.*)', out.stderr)
missing = [v for v in views.group(1).split(', ') if v not in cli_page] if views else ['(no list)']
check('tessera-cli.1 names every view of render --view', not missing,
      'name in data/man/tessera-cli.1: %s' % ', '.join(missing))
# and so does the usage, after render's "VIEW:"
listed = re.search(r'VIEW: ((?:[\w-]+,?\s*)+)', usage)
listed = re.findall(r'[\w-]+', listed.group(1)) if listed else []
missing = [v for v in views.group(1).split(', ') if v not in listed] if views else ['(no list)']
check('tessera-cli --help names every view of render --view', not missing,
      'name in app/cli/tes-cli.c usage: %s' % ', '.join(missing))

missing = [o for o in re.findall(r'(--[\w-]+)', usage) if o not in cli_page]
check('tessera-cli.1 describes every option of tessera-cli --help', not missing,
      'describe in data/man/tessera-cli.1: %s' % ', '.join(missing))

if pop_export:
    out = run(pop_export, '--help')
    missing = [o for o in long_options(out.stdout) if o not in page_text('tessera-pop-export.1')]
    check('tessera-pop-export.1 describes every option of tessera-pop-export --help',
          out.returncode == 0 and not missing,
          'describe in data/man/tessera-pop-export.1: %s' % ', '.join(missing))

if app:
    out = run(app, '--help-all')
    missing = [o for o in long_options(out.stdout) if o not in page_text('tessera.1')]
    check('tessera.1 describes every option of tessera --help-all', out.returncode == 0 and not missing,
          'describe in data/man/tessera.1: %s' % ', '.join(missing))

print('1..%d' % len(results))
failed = 0
for i, (name, ok, diagnostics) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok:
        failed += 1
        for line in diagnostics.splitlines():
            print('# ' + line)
sys.exit(1 if failed else 0)
