/* test-torq-util.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-report.h"
#include "tes-test-util.h"

G_BEGIN_DECLS

/* What the Torq test programs (test-torq-*.c) share: scratch copies of our
 * files (tests/data/torq) or of the shared fixtures (fixtures/torq), and
 * lookups that fail the test when the report lacks what is asked for. */

typedef struct
{
  const char *name;
  const char *category;
  gint64      start;
  gint64      dur;
} LaneSlice;

char           *copy_file    (TesTestData      data,
                              const char      *name);
TesReport      *open_file    (TesTestData      data,
                              const char      *name,
                              const char      *importer_name);
TesReport      *open_fixture (const char      *name,
                              const char      *importer_name);
GArray         *slices_of    (TesReport       *report,
                              const TesTrack  *track);
const TesSlice *slice_at     (GArray          *slices,
                              guint            i);
void            assert_slice (TesReport       *report,
                              const TesSlice  *slice,
                              const char      *name,
                              const char      *category,
                              gint64           start,
                              gint64           dur);
const TesTrack *assert_lane  (TesReport       *report,
                              const char      *parent,
                              const char      *lane,
                              const LaneSlice *expected,
                              guint            n_expected);
char           *args_of      (TesReport       *report,
                              const TesTrack  *track,
                              const TesSlice  *slice);
const TesClock *clock_of     (TesReport       *report,
                              const TesTrack  *track);

G_END_DECLS
