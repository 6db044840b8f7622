/* test-chrome-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report.h"

G_BEGIN_DECLS

/* What the Chrome JSON test programs (test-chrome-*.c) share: the
 * importer, an import that always parses afresh, a report's figures as
 * tests/chrome_expected.py names them, and lookups that fail the test
 * when the report lacks what is asked for. */

/* Every figure the conformance test compares, as tests/chrome_expected.py
 * computes it from the JSON with Python's json module. */
#define CHROME_N_FIGURES 9
extern const char * const chrome_figures[CHROME_N_FIGURES];

TesImporter    *chrome        (void);
TesReport      *import        (const char    *path,
                               GError       **error);
gint64          report_figure (TesReport     *report,
                               const char    *figure);
const TesTrack *find_track    (TesReport     *report,
                               TesTrackKind   kind,
                               const char    *name,
                               gint64         parent);
GArray         *all_slices    (TesReport     *report,
                               gint64         track_id);

G_END_DECLS
