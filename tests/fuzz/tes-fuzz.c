/* tes-fuzz.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-cache.h"
#include "tes-fuzz.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

/* Enough of a report to meet every query's code; more only costs time. */
#define MAX_TRACKS   32
#define MAX_RUNS     8
#define N_BUCKETS    64

static char *fuzz_dir;

static void
remove_fuzz_dir (void)
{
  g_autoptr(GDir) dir = g_dir_open (fuzz_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (fuzz_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fuzz_dir);
}

/* A folder of our own for the input and its cache (a cache beside its
 * source, or else in $XDG_CACHE_HOME, which points there too). Criticals
 * are bugs: a precondition some input could break. */
void
tes_fuzz_init (void)
{
  g_autoptr(GError) error = NULL;

  if (fuzz_dir != NULL)
    return;

  if (!(fuzz_dir = g_dir_make_tmp ("tes-fuzz-XXXXXX", &error)))
    g_error ("%s", error->message);
  g_setenv ("XDG_CACHE_HOME", fuzz_dir, TRUE);
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  atexit (remove_fuzz_dir);
}

char *
tes_fuzz_write_input (const char   *name,
                      const guint8 *data,
                      gsize         size)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (fuzz_dir, name, NULL);

  if (!g_file_set_contents (path, (const char *)data, size, &error))
    g_error ("%s", error->message);

  return path;
}

/* The input, its cache, and what a failed import may leave beside it. */
void
tes_fuzz_remove_input (const char *path)
{
  g_autofree char *cache = tes_cache_path_for_source (path);

  g_unlink (path);
  if (cache != NULL)
    g_unlink (cache);
}

/* A failed open must say which file, as the window shows it. */
void
tes_fuzz_assert_names_file (const GError *error,
                            const char   *path)
{
  if (error == NULL)
    g_error ("%s: failed without an error", path);
  if (strstr (error->message, path) == NULL)
    g_error ("error does not name %s: %s", path, error->message);
}

/* Errors of TES_REPORT_ERROR are answers (no such data, no such slice);
 * any other ends the walk. Either way *local is left NULL for the next. */
static gboolean
keep_going (GError **local,
            GError **error)
{
  if (*local != NULL && (*local)->domain != TES_REPORT_ERROR)
    {
      g_propagate_error (error, g_steal_pointer (local));
      return FALSE;
    }

  g_clear_error (local);
  return TRUE;
}

static gboolean
query_track (TesReport       *report,
             const TesTrack  *track,
             GError         **error)
{
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GArray) lane = NULL;
  g_autoptr(GArray) counter = NULL;
  g_autoptr(GArray) durations = NULL;
  g_autofree char *args = NULL;
  GError *local = NULL;

  slices = tes_report_get_slices (report, track->id, G_MININT64, G_MAXINT64, &local);
  if (!keep_going (&local, error))
    return FALSE;

  if (slices != NULL && slices->len > 0)
    {
      const TesSlice *last = &g_array_index (slices, TesSlice, slices->len - 1);

      args = tes_report_get_slice_args (report, track->id, last->index, &local);
      if (!keep_going (&local, error))
        return FALSE;
      durations = tes_report_get_durations (report, last->name, NULL, &local);
      if (!keep_going (&local, error))
        return FALSE;
    }

  if (!track->has_extent || track->t_max <= track->t_min)
    return TRUE;

  lane = tes_report_get_lane (report, track->id, track->t_min, track->t_max, N_BUCKETS, &local);
  if (!keep_going (&local, error))
    return FALSE;
  if (track->kind == TES_TRACK_COUNTER)
    counter = tes_report_get_counter (report, track->id, track->t_min, track->t_max,
                                      N_BUCKETS, &local);

  return keep_going (&local, error);
}

static gboolean
query_summaries (TesReport  *report,
                 GError    **error)
{
  for (TesSummaryMode mode = TES_SUMMARY_TOTAL; mode <= TES_SUMMARY_EACH; mode++)
    for (TesGroupBy by = TES_GROUP_BY_NAME; by <= TES_GROUP_BY_CATEGORY; by++)
      {
        g_autoptr(GPtrArray) rows = NULL;
        GError *local = NULL;

        rows = tes_report_summarize (report, mode, by, &local);
        if (!keep_going (&local, error))
          return FALSE;
      }

  return TRUE;
}

static gboolean
query_tiles_and_runs (TesReport  *report,
                      GError    **error)
{
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GArray) runs = NULL;
  GError *local = NULL;

  tiles = tes_report_get_tiles (report, &local);
  if (!keep_going (&local, error))
    return FALSE;
  if (tiles != NULL && tiles->len > 0)
    {
      g_autoptr(GArray) memory = NULL;

      memory = tes_report_get_tile_memory (report, g_array_index (tiles, TesTile, 0).id, &local);
      if (!keep_going (&local, error))
        return FALSE;
    }

  runs = tes_report_get_runs (report, &local);
  if (!keep_going (&local, error))
    return FALSE;
  for (guint i = 0; runs != NULL && i < MIN (runs->len, MAX_RUNS); i++)
    {
      g_autoptr(GPtrArray) steps = NULL;

      steps = tes_report_get_bsp_steps (report, g_array_index (runs, TesRun, i).id, &local);
      if (!keep_going (&local, error))
        return FALSE;
    }

  return TRUE;
}

/* What the window and tessera-cli ask of a report, asked once; FALSE with
 * the first error that is not an answer (a damaged cache's). For the
 * fuzzers errors are fine, crashes, hangs and leaks are what they are
 * after; test-bad-input wants the errors. */
gboolean
tes_fuzz_query_report (TesReport  *report,
                       GError    **error)
{
  g_autoptr(GPtrArray) info = NULL;
  g_autoptr(GArray) aggregates = NULL;
  g_autoptr(GArray) flows = NULL;
  g_autoptr(GArray) matches = NULL;
  GError *local = NULL;
  TesReportCounts counts;
  gint64 t_min, t_max;
  guint n_tracks;

  tes_report_get_counts (report, &counts);
  info = tes_report_get_info (report);
  for (guint i = 0; i < tes_report_get_n_sources (report); i++)
    tes_report_get_source (report, i);

  n_tracks = MIN (tes_report_get_n_tracks (report), MAX_TRACKS);
  for (guint id = 1; id <= n_tracks; id++)
    if (!query_track (report, tes_report_get_track (report, id), error))
      return FALSE;

  if (tes_report_get_span (report, 0, &t_min, &t_max) && t_max > t_min)
    {
      /* no track ids: every track */
      aggregates = tes_report_aggregate_slices (report, NULL, 0, 0, t_min, t_max,
                                                TES_GROUP_BY_NAME, NULL, &local);
      if (!keep_going (&local, error))
        return FALSE;
      flows = tes_report_get_flows (report, t_min, t_max, &local);
      if (!keep_going (&local, error))
        return FALSE;
    }

  /* the substring scan and the regex one read argument texts apart; a
   * regex that matches nothing reads all of each; a pattern of letters
   * reads the chunks' search summaries and their trigram filters */
  matches = tes_report_search (report, "e", FALSE, NULL, &local);
  if (!keep_going (&local, error))
    return FALSE;
  g_clear_pointer (&matches, g_array_unref);
  matches = tes_report_search (report, "Name", FALSE, NULL, &local);
  if (!keep_going (&local, error))
    return FALSE;
  g_clear_pointer (&matches, g_array_unref);
  matches = tes_report_search (report, "q{3}", TRUE, NULL, &local);
  if (!keep_going (&local, error))
    return FALSE;

  return query_summaries (report, error) && query_tiles_and_runs (report, error);
}
