/* test-torq-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-importer-registry.h"
#include "test-torq-util.h"

#define SHARED_DIR "fixtures/torq/"
#define OWN_DIR "torq/"

/* A scratch copy of one of our files (tests/data/torq) or, for the
 * conformance suite, of a shared fixture. */
char *
copy_file (TesTestData  data,
           const char  *name)
{
  g_autofree char *rel = g_strconcat (data == TES_TEST_OWN_DATA ? OWN_DIR : SHARED_DIR, name, NULL);

  return tes_test_copy_fixture (data, rel);
}

TesReport *
open_file (TesTestData  data,
           const char  *name,
           const char  *importer_name)
{
  g_autofree char *path = copy_file (data, name);

  return tes_test_import (path, tes_importer_registry_lookup (importer_name));
}

TesReport *
open_fixture (const char *name,
              const char *importer_name)
{
  return open_file (TES_TEST_SHARED_DATA, name, importer_name);
}

GArray *
slices_of (TesReport      *report,
           const TesTrack *track)
{
  return tes_test_get_slices (report, track->id);
}

const TesSlice *
slice_at (GArray *slices,
          guint   i)
{
  g_assert_cmpuint (i, <, slices->len);
  return &g_array_index (slices, TesSlice, i);
}

void
assert_slice (TesReport      *report,
              const TesSlice *slice,
              const char     *name,
              const char     *category,
              gint64          start,
              gint64          dur)
{
  g_assert_cmpstr (tes_report_get_string (report, slice->name), ==, name);
  if (category != NULL)
    g_assert_cmpstr (tes_report_get_string (report, slice->category), ==, category);
  g_assert_cmpint (slice->start, ==, start);
  g_assert_cmpint (slice->dur, ==, dur);
}

/* Every slice of the lane, in time order, is the one expected. */
const TesTrack *
assert_lane (TesReport       *report,
             const char      *parent,
             const char      *lane,
             const LaneSlice *expected,
             guint            n_expected)
{
  const TesTrack *track = tes_test_find_track (report, parent, lane);
  g_autoptr(GArray) slices = slices_of (report, track);

  g_assert_cmpuint (slices->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    assert_slice (report, slice_at (slices, i), expected[i].name, expected[i].category,
                  expected[i].start, expected[i].dur);

  return track;
}

char *
args_of (TesReport      *report,
         const TesTrack *track,
         const TesSlice *slice)
{
  g_autoptr(GError) error = NULL;
  char *args = tes_report_get_slice_args (report, track->id, slice->index, &error);

  g_assert_no_error (error);
  g_assert_nonnull (args);
  return args;
}

const TesClock *
clock_of (TesReport      *report,
          const TesTrack *track)
{
  const TesClock *clock = tes_report_get_clock (report, track->clock_id);

  g_assert_nonnull (clock);
  return clock;
}
