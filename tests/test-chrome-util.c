/* test-chrome-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-importer-registry.h"
#include "tes-report-loader.h"
#include "test-chrome-util.h"

TesImporter *
chrome (void)
{
  TesImporter *importer = tes_importer_registry_lookup ("chrome-json");

  g_assert_nonnull (importer);
  return importer;
}

TesReport *
import (const char  *path,
        GError     **error)
{
  return tes_report_import (path, chrome (), TES_REPORT_OPEN_REIMPORT, NULL, NULL, error);
}

static gint64
info_count (TesReport  *report,
            const char *key)
{
  g_autofree char *value = tes_report_lookup_info (report, key);

  return value ? g_ascii_strtoll (value, NULL, 10) : 0;
}

const char * const chrome_figures[CHROME_N_FIGURES] = {
  "slices", "max_depth", "flows", "counters", "counter_values",
  "instants", "unclosed", "e_without_b", "operators",
};

/* One of the figures chrome_expected.py computes (chrome_figures), as
 * the report gives it. */
gint64
report_figure (TesReport  *report,
               const char *figure)
{
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);

  if (g_str_equal (figure, "slices"))
    return counts.n_slices;
  if (g_str_equal (figure, "flows"))
    return counts.n_flows;
  if (g_str_equal (figure, "counters"))
    return counts.n_counter_tracks;
  if (g_str_equal (figure, "counter_values"))
    return counts.n_counter_values;
  if (g_str_equal (figure, "instants"))
    return counts.n_instants;
  if (g_str_equal (figure, "operators"))
    return counts.n_operators;
  if (g_str_equal (figure, "e_without_b"))
    return info_count (report, "warning.e_without_b");

  if (g_str_equal (figure, "max_depth") || g_str_equal (figure, "unclosed"))
    {
      gint64 depth = 0;
      gint64 unclosed = 0;

      for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
        {
          const TesTrack *track = tes_report_get_track (report, id);
          g_autoptr(GError) error = NULL;
          g_autoptr(GArray) slices = NULL;

          depth = MAX (depth, (gint64)track->max_depth);
          slices = tes_report_get_slices (report, id, G_MININT64, G_MAXINT64, &error);
          g_assert_no_error (error);
          g_assert_cmpuint (slices->len, ==, track->n_slices);
          for (guint i = 0; i < slices->len; i++)
            unclosed += (g_array_index (slices, TesSlice, i).flags & TES_SLICE_FLAG_UNCLOSED) != 0;
        }

      return g_str_equal (figure, "max_depth") ? depth : unclosed;
    }

  g_assert_not_reached ();
}

const TesTrack *
find_track (TesReport    *report,
            TesTrackKind  kind,
            const char   *name,
            gint64        parent)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      if (track->kind == kind && g_str_equal (track->name, name) && (parent < 0 || track->parent_id == parent))
        return track;
    }

  g_error ("no %s track named %s", tes_track_kind_to_string (kind), name);
}

GArray *
all_slices (TesReport *report,
            gint64     track_id)
{
  g_autoptr(GError) error = NULL;
  GArray *slices = tes_report_get_slices (report, track_id, G_MININT64, G_MAXINT64, &error);

  g_assert_no_error (error);
  return slices;
}
