#!/usr/bin/env python3
# What the desktop sees of Tessera, beside the validators' checks
# (desktop-file-validate, appstreamcli validate): the desktop file's MIME
# types exist once our MIME XML joins the system's database, .tessera
# files are ours, the icons are there, the metainfo matches the project
# (release, screenshots, media types) and the settings have every key.
# Usage: test-data-files.py SOURCE_ROOT BUILD_ROOT VERSION   (TAP output)

import configparser
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

source_root, build_root, version = sys.argv[1:4]
data = os.path.join(source_root, 'data')
built = os.path.join(build_root, 'data')
app_id = 'org.tessera.Tessera'
MIME_NS = '{http://www.freedesktop.org/standards/shared-mime-info}'
XML_LANG = '{http://www.w3.org/XML/1998/namespace}lang'

results = []


def check(name, ok, diagnostics=''):
    results.append((name, bool(ok), diagnostics))


def system_mime_package():
    dirs = os.environ.get('TES_TEST_SYSTEM_DATA_DIRS') or os.environ.get('XDG_DATA_DIRS') or '/usr/local/share:/usr/share'
    for folder in dirs.split(':'):
        path = os.path.join(folder, 'mime', 'packages', 'freedesktop.org.xml')
        if os.path.isfile(path):
            return path
    return None


desktop = configparser.ConfigParser(interpolation=None, strict=False)
desktop.optionxform = str
desktop.read(os.path.join(built, app_id + '.desktop'), encoding='utf-8')
entry = desktop['Desktop Entry']
mime_types = [t for t in entry.get('MimeType', '').split(';') if t]

check('the desktop file names the icon by the application id', entry.get('Icon') == app_id,
      'Icon=%s' % entry.get('Icon'))
check('the desktop file is translated', 'Comment[de]' in entry, 'no Comment[de]')

# The system's database with ours added, as update-mime-database builds it
ours = ET.parse(os.path.join(built, app_id + '.xml')).getroot()
our_types = [t.get('type') for t in ours.iter(MIME_NS + 'mime-type')]
freedesktop = system_mime_package()
if freedesktop is None:
    check('the system has a shared MIME database', False, 'no mime/packages/freedesktop.org.xml')
else:
    with tempfile.TemporaryDirectory() as tmp:
        packages = os.path.join(tmp, 'mime', 'packages')
        os.makedirs(packages)
        shutil.copy(freedesktop, packages)
        shutil.copy(os.path.join(built, app_id + '.xml'), packages)
        # the scratch folder is where it looks, so it has no note to make
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_DATA_DIRS=tmp)
        run = subprocess.run(['update-mime-database', os.path.join(tmp, 'mime')],
                             capture_output=True, text=True, env=env)
        check('update-mime-database takes our MIME XML without a word',
              run.returncode == 0 and not run.stderr.strip(), run.stderr)

        def lines(name):
            with open(os.path.join(tmp, 'mime', name), encoding='utf-8') as f:
                return [l.rstrip('\n') for l in f if not l.startswith('#')]

        known = set(lines('types')) | {l.split(' ')[0] for l in lines('aliases')}
        unknown = [t for t in mime_types if t not in known]
        check('every MIME type of the desktop file exists', mime_types and not unknown,
              'unknown: %s' % unknown)

        globs = {l.split(':')[2]: l.split(':')[1] for l in lines('globs2')}
        for pattern, expected in (('*.tessera', 'application/x-tessera'),
                                  ('*.pftrace', 'application/x-perfetto-trace'),
                                  ('*.perfetto-trace', 'application/x-perfetto-trace')):
            check('%s files are %s' % (pattern, expected), globs.get(pattern) == expected,
                  '%s is %s' % (pattern, globs.get(pattern)))
        check('a .tessera cache is an SQLite file to the database',
              'application/x-tessera application/vnd.sqlite3' in lines('subclasses'))

    missing = [t for t in our_types if t not in mime_types]
    check('the desktop file lists the types our MIME XML defines', not missing, 'missing: %s' % missing)
    german = [c for c in ours.iter(MIME_NS + 'comment') if c.get(XML_LANG) == 'de']
    check('the MIME types are named in German too', len(german) == len(our_types))

for kind, name in (('scalable', app_id + '.svg'), ('symbolic', app_id + '-symbolic.svg')):
    path = os.path.join(data, 'icons', 'hicolor', kind, 'apps', name)
    try:
        svg = ET.parse(path).getroot()
        box = svg.get('viewBox', '').split()
        ok = svg.tag.endswith('svg') and len(box) == 4 and box[2] == box[3]
        check('the %s icon is a square SVG' % kind, ok, 'viewBox %s' % box)
    except (OSError, ET.ParseError) as e:
        check('the %s icon is a square SVG' % kind, False, str(e))


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    if head[:8] != b'\x89PNG\r\n\x1a\n':
        return None
    return struct.unpack('>II', head[16:24])


metainfo = ET.parse(os.path.join(built, app_id + '.metainfo.xml')).getroot()
releases = metainfo.findall('releases/release')
check('the newest release in the metainfo is the project version (%s)' % version,
      releases and releases[0].get('version') == version,
      'newest release: %s' % (releases[0].get('version') if releases else None))
check('every release has notes', releases and all(r.find('description') is not None for r in releases))
check('the metainfo launches the desktop file',
      metainfo.findtext('launchable') == app_id + '.desktop')

images = metainfo.findall('screenshots/screenshot/image')
check('the metainfo shows screenshots', len(images) >= 2, '%d screenshots' % len(images))
for image in images:
    name = image.text.split('/')[-1]
    path = os.path.join(source_root, 'docs', name)
    size = png_size(path) if os.path.isfile(path) else None
    expected = (int(image.get('width', 0)), int(image.get('height', 0)))
    check('screenshot %s is in docs/, %d × %d' % ((name,) + expected), size == expected,
          'docs/%s: %s' % (name, size))

provided = [m.text for m in metainfo.findall('provides/mediatype')]
check('the metainfo provides the types our MIME XML defines', sorted(provided) == sorted(our_types),
      'provides %s, defines %s' % (provided, our_types))
check('the metainfo is translated',
      any(e.get(XML_LANG) == 'de' for e in metainfo.iter('summary')))

schema = ET.parse(os.path.join(data, app_id + '.gschema.xml')).getroot()
keys = {k.get('name') for k in schema.iter('key')}
wanted = {'recent-reports', 'window-width', 'window-height', 'window-maximized', 'time-unit', 'theme'}
check('the settings have every key', wanted <= keys, 'missing: %s' % (wanted - keys))
check('the build compiled the settings', os.path.isfile(os.path.join(built, 'gschemas.compiled')))

print('1..%d' % len(results))
failed = 0
for i, (name, ok, diagnostics) in enumerate(results, 1):
    print('%s %d - %s' % ('ok' if ok else 'not ok', i, name))
    if not ok:
        failed += 1
        for line in diagnostics.splitlines():
            print('# ' + line)
sys.exit(1 if failed else 0)
