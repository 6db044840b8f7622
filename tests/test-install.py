#!/usr/bin/env python3
# `meson install --destdir` puts everything where the desktop looks:
# the programs, desktop file, metainfo, icons, settings schema,
# translations, man pages, MIME XML and the demo report. The installed
# programs run from there.
# Usage: test-install.py BUILD_ROOT PREFIX DATADIR BINDIR LOCALEDIR MANDIR LIBEXECDIR GUI(true|false)
#        (TAP output)

import os
import subprocess
import sys
import tempfile

build_root, prefix, datadir, bindir, localedir, mandir, libexecdir, gui = sys.argv[1:9]
gui = gui == 'true'
app_id = 'org.tessera.Tessera'


def under(*parts):
    return os.path.join(prefix, *parts)


expected = [
    (under(bindir, 'tessera-cli'), 'the command line'),
    (under(mandir, 'man1', 'tessera-cli.1'), 'the command line\'s man page'),
    (under(bindir, 'tessera-pop-export'), 'the profile.pop exporter'),
    (under(mandir, 'man1', 'tessera-pop-export.1'), 'the exporter\'s man page'),
    (under(datadir, 'glib-2.0', 'schemas', app_id + '.gschema.xml'), 'the settings schema'),
    (under(localedir, 'de', 'LC_MESSAGES', 'tessera.mo'), 'the German translation'),
]
if gui:
    expected += [
        (under(bindir, 'tessera'), 'the application'),
        (under(libexecdir, 'tessera', 'tessera-cli-render'), 'what tessera-cli render runs'),
        (under(mandir, 'man1', 'tessera.1'), 'the application\'s man page'),
        (under(datadir, 'applications', app_id + '.desktop'), 'the desktop file'),
        (under(datadir, 'metainfo', app_id + '.metainfo.xml'), 'the metainfo'),
        (under(datadir, 'icons', 'hicolor', 'scalable', 'apps', app_id + '.svg'), 'the icon'),
        (under(datadir, 'icons', 'hicolor', 'symbolic', 'apps', app_id + '-symbolic.svg'), 'the symbolic icon'),
        (under(datadir, 'mime', 'packages', app_id + '.xml'), 'the MIME types'),
        (under(datadir, 'tessera', 'demo', 'yolov8s_op_time_each.txt'), 'the demo report'),
    ]

results = []
with tempfile.TemporaryDirectory() as destdir:
    # --no-rebuild: meson test built everything, and may hold the build lock
    install = subprocess.run(['meson', 'install', '-C', build_root, '--no-rebuild', '--quiet',
                              '--destdir', destdir],
                             capture_output=True, text=True)
    results.append(('meson install --destdir succeeds', install.returncode == 0,
                    install.stdout + install.stderr))

    def installed(path):
        return os.path.join(destdir, os.path.relpath(path, '/'))

    for path, what in expected:
        results.append(('installs %s as %s' % (what, path), os.path.isfile(installed(path)), ''))

    for name in ('tessera-cli', 'tessera-pop-export') + (('tessera',) if gui else ()):
        env = dict(os.environ)
        env.pop('DISPLAY', None)
        run = subprocess.run([installed(under(bindir, name)), '--version'],
                             capture_output=True, text=True, env=env)
        results.append(('the installed %s runs' % name, run.returncode == 0 and name in run.stdout,
                        run.stdout + run.stderr))

    # tessera-cli render runs it from its installed path, which is under
    # the prefix, not the destdir: run it directly
    if gui:
        render = installed(under(libexecdir, 'tessera', 'tessera-cli-render'))
        run = subprocess.run([render, 'render', '--help'], capture_output=True, text=True)
        results.append(('the installed tessera-cli-render runs', run.returncode == 0 and '--view' in run.stdout,
                        run.stdout + run.stderr))

print('1..%d' % len(results))
failed = 0
for i, (name, ok, diagnostics) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok:
        failed += 1
        for line in diagnostics.splitlines():
            print('# ' + line)
sys.exit(1 if failed else 0)
