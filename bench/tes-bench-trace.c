/* tes-bench-trace.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Times the Execution Trace's frames, headless: the section's own code
 * (tes_trace_frame_build + tes_trace_render_frame) into an offscreen
 * 1920×1080 surface, on a cache tes-bench wrote (--keep). Each figure has
 * the same run's baseline: drawing every slice of the range as its own
 * rectangle, as a renderer that does not merge per pixel would.
 *
 *   tes-bench-trace --cache build/bench-data/tes-bench-1000000.tessera --slices 1000000
 */

#define G_LOG_DOMAIN "tes-bench-trace"

#include "config.h"

#include <cairo.h>
#include <sqlite3.h>
#include <stdio.h>

#include "tes-huge-pages.h"
#include "tes-malloc.h"
#include "tes-bench-util.h"
#include "tes-trace-render.h"

#define WIDTH  1920
#define HEIGHT 1080

/* --frames-only: Tessera's frames alone, no baseline and no search (for
 * profiling, and for runs alternated with another build's) */
static gboolean frames_only;
/* --frames, --zoom: how many frames per zoom, and one zoom alone */
static int n_frames = 15;
static char *only_zoom;
/* --png: each zoom's last frame written to PREFIX-<zoom>.png, to compare
 * two builds' pixels after frames that kept layouts and the miniature */
static char *png_prefix;

/* One frame as the section draws it: build, then paint. */
/* @overview: the run's miniature of an earlier frame, or NULL to compute
 * it (the first frame of a view); the frame's is kept there. */
static gboolean
draw_frame (TesWorkspace     *workspace,
            cairo_surface_t  *surface,
            GArray          **overview,
            GError          **error)
{
  TesReport *report = tes_workspace_get_report (workspace);
  g_autoptr(TesTraceFrame) frame = NULL;
  TesTraceScale scale;
  TesTraceStyle style;
  gint64 t0, t1;
  cairo_t *cr;

  tes_workspace_get_visible (workspace, &t0, &t1);
  tes_trace_scale_init (&scale, t0, t1, WIDTH);
  {
    TesTraceRequest request = {
      .scale = scale,
      .mode = TES_TRACE_FLAME,
      .view_height = HEIGHT - TES_TRACE_RULER_HEIGHT,
      /* as the view does: the run's miniature is computed once per width */
      .overview = *overview,
    };

    if (!(frame = tes_trace_frame_build (report, &request, NULL, error)))
      return FALSE;
    if (*overview == NULL)
      *overview = g_array_ref (frame->overview);
  }

  tes_trace_style_init (&style, workspace);
  cr = cairo_create (surface);
  tes_trace_render_frame (cr, report, frame, &style, WIDTH, HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  return TRUE;
}

/* The baseline: every slice of every lane in view, one rectangle each. */
static gboolean
draw_naive (TesWorkspace     *workspace,
            cairo_surface_t  *surface,
            guint64          *n_drawn,
            GError          **error)
{
  TesReport *report = tes_workspace_get_report (workspace);
  g_autoptr(GArray) lanes = tes_trace_layout_lanes (report, TES_TRACE_FLAME, NULL, NULL);
  TesTraceScale scale;
  gint64 t0, t1;
  cairo_t *cr = cairo_create (surface);

  tes_workspace_get_visible (workspace, &t0, &t1);
  tes_trace_scale_init (&scale, t0, t1, WIDTH);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  *n_drawn = 0;

  for (guint i = 0; i < lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (lanes, TesTraceLane, i);
      const TesTrack *track = tes_report_get_track (report, lane->track_id);
      g_autoptr(GArray) slices = NULL;

      if (!lane->has_slices || lane->y > HEIGHT)
        continue;

      slices = tes_report_get_slices (report, track->id,
                                      tes_report_convert_time (report, 0, track->clock_id, t0),
                                      tes_report_convert_time (report, 0, track->clock_id, t1), error);
      if (slices == NULL)
        {
          cairo_destroy (cr);
          return FALSE;
        }

      for (guint j = 0; j < slices->len; j++)
        {
          const TesSlice *slice = &g_array_index (slices, TesSlice, j);
          double x0 = tes_trace_scale_x (&scale, tes_report_convert_time (report, track->clock_id, 0, slice->start));
          double x1 = tes_trace_scale_x (&scale, tes_report_convert_time (report, track->clock_id, 0,
                                                                          slice->start + slice->dur));

          cairo_set_source_rgb (cr, (slice->name % 7) / 7.0, 0.5, 0.5);
          cairo_rectangle (cr, x0, TES_TRACE_RULER_HEIGHT + lane->y + slice->depth * TES_TRACE_ROW_HEIGHT,
                           MAX (x1 - x0, 1), TES_TRACE_ROW_HEIGHT - 2);
          cairo_fill (cr);
        }
      *n_drawn += slices->len;
    }

  cairo_destroy (cr);
  cairo_surface_flush (surface);

  return TRUE;
}

static gboolean
bench_zoom (TesWorkspace    *workspace,
            cairo_surface_t *surface,
            GArray         **overview,
            const char      *zoom,
            double           fraction,
            guint64          n,
            GError         **error)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) naive = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *note = NULL;
  gint64 span_t0, span_t1, width, mid;
  guint64 n_drawn = 0;

  tes_workspace_get_span (workspace, &span_t0, &span_t1);
  width = MAX ((gint64)((span_t1 - span_t0) * fraction), 1000);
  mid = span_t0 + (span_t1 - span_t0) / 2;

  n_frames = MAX (n_frames, 1);
  if (only_zoom != NULL && !g_str_has_prefix (zoom, only_zoom))
    return TRUE;

  /* 15 frames, the range moving a little each time, as while panning */
  for (guint i = 0; i < (guint)n_frames; i++)
    {
      gint64 t0 = mid - width / 2 + (gint64)(i % 15) * width / 100;
      gint64 start = g_get_monotonic_time ();
      double cpu_start = tes_bench_cpu_ms (), ms;

      tes_workspace_set_visible (workspace, t0, t0 + width);
      if (!draw_frame (workspace, surface, overview, error))
        return FALSE;
      ms = tes_bench_cpu_ms () - cpu_start;
      g_array_append_val (cpu, ms);
      tes_bench_add_since (frames, start);
    }

  if (png_prefix != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s-%.4s.png", png_prefix, zoom);

      if (cairo_surface_write_to_png (surface, path) != CAIRO_STATUS_SUCCESS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not write %s", path);
          return FALSE;
        }
    }

  for (guint i = 0; i < (frames_only ? 0 : 5); i++)
    {
      gint64 t0 = mid - width / 2 + (gint64)i * width / 100;
      gint64 start = g_get_monotonic_time ();
      double ms;

      tes_workspace_set_visible (workspace, t0, t0 + width);
      if (!draw_naive (workspace, surface, &n_drawn, error))
        return FALSE;
      ms = tes_bench_ms_since (start);
      g_array_append_val (naive, ms);
      /* one slow baseline says enough */
      if (ms > 5000)
        break;
    }

  note = g_strdup_printf ("zoom: %s (%.3g ms of %.3g ms shown); frames built and drawn (flame, %d×%d), "
                          "the range moving by 1 %% each, CPU time median %.3g ms, worst %.3g ms; "
                          "baseline draws the %" G_GUINT64_FORMAT " slices of the range one by one",
                          zoom, width / 1e6, (span_t1 - span_t0) / 1e6, WIDTH, HEIGHT,
                          tes_bench_median (cpu), tes_bench_worst (cpu), n_drawn);
  tes_bench_emit_runs ("trace frame", frames, "ms", naive, "every slice its own rectangle", n, note);

  return TRUE;
}

/* Searching every slice for an operator name (which the arguments also
 * hold), against SQL LIKE over the plain rows' name and args columns. */
static gboolean
bench_search (TesReport   *report,
              const char  *plain_path,
              guint64      n,
              GError     **error)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cpu_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) sql_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *note = NULL;
  guint found = 0;
  gint64 sql_found = -1;
  sqlite3 *db = NULL;

  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(GArray) matches = NULL;
      gint64 start = g_get_monotonic_time ();
      double cpu = tes_bench_cpu_ms ();
      double ms;

      if (!(matches = tes_report_search (report, "softmax", FALSE, NULL, error)))
        return FALSE;
      ms = tes_bench_ms_since (start);
      cpu = tes_bench_cpu_ms () - cpu;
      g_array_append_val (times, ms);
      g_array_append_val (cpu_times, cpu);
      found = matches->len;
    }

  if (plain_path != NULL && sqlite3_open_v2 (plain_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK)
    {
      for (guint i = 0; i < 5; i++)
        {
          sqlite3_stmt *stmt = NULL;
          gint64 start = g_get_monotonic_time ();
          double ms;

          if (sqlite3_prepare_v2 (db, "SELECT count(*) FROM plain WHERE name LIKE '%softmax%' OR args LIKE '%softmax%'",
                                  -1, &stmt, NULL) != SQLITE_OK)
            break;
          if (sqlite3_step (stmt) == SQLITE_ROW)
            sql_found = sqlite3_column_int64 (stmt, 0);
          sqlite3_finalize (stmt);
          ms = tes_bench_ms_since (start);
          g_array_append_val (sql_times, ms);
          if (ms > 5000)
            break;
        }
    }
  sqlite3_close (db);

  note = g_strdup_printf ("\"softmax\" in names, categories and argument texts, any case: %u slices%s; "
                          "CPU time median %.3g ms, every thread's", found,
                          sql_found < 0 ? ", no SQL baseline (no plain rows)"
                                        : sql_found == found ? ", as SQL finds" : ", SQL finds a DIFFERENT count",
                          tes_bench_median (cpu_times));
  tes_bench_emit_runs ("trace search", times, "ms", sql_times, "SQL LIKE on name and args", n, note);

  return TRUE;
}

static gboolean
run (const char  *cache_path,
     const char  *plain_path,
     guint64      n,
     GError     **error)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  g_autoptr(GArray) firsts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) naive_firsts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) first_cpu = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *first_note = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GArray) overview = NULL;
  gboolean ok = FALSE;
  guint64 n_drawn = 0;

  /* opening a cached report and showing the whole run */
  for (guint i = 0; i < 10; i++)
    {
      gboolean naive = i % 2 == 1;
      gint64 start;
      double cpu_start, ms;

      if (naive && frames_only)
        continue;

      /* the report before is closed first: it is the other side's (the
       * baseline's, which read every slice, mapped the whole cache and
       * takes ~6 ms to unmap it) */
      g_clear_object (&workspace);
      g_clear_object (&report);
      start = g_get_monotonic_time ();
      cpu_start = tes_bench_cpu_ms ();
      if (!(report = tes_report_open_cache (cache_path, error)))
        goto out;
      workspace = tes_workspace_new (report);
      g_clear_pointer (&overview, g_array_unref);
      if (naive ? !draw_naive (workspace, surface, &n_drawn, error) : !draw_frame (workspace, surface, &overview, error))
        goto out;
      ms = tes_bench_ms_since (start);
      g_array_append_val (naive ? naive_firsts : firsts, ms);
      if (!naive)
        {
          ms = tes_bench_cpu_ms () - cpu_start;
          g_array_append_val (first_cpu, ms);
        }
    }
  first_note = g_strdup_printf ("open the cache, lay out the lanes, build and draw the whole run (flame, 1920×1080), "
                                "alternating with the baseline; CPU time median %.3g ms, worst %.3g ms",
                                tes_bench_median (first_cpu), tes_bench_worst (first_cpu));
  tes_bench_emit_runs ("trace first frame", firsts, "ms", naive_firsts, "open + every slice its own rectangle", n,
                       first_note);

  if (!bench_zoom (workspace, surface, &overview, "whole run", 1.0, n, error) ||
      !bench_zoom (workspace, surface, &overview, "1000×", 1e-3, n, error) ||
      !bench_zoom (workspace, surface, &overview, "deepest (1 µs)", 0, n, error) ||
      (!frames_only && !bench_search (report, plain_path, n, error)))
    goto out;

  ok = TRUE;

out:
  cairo_surface_destroy (surface);
  return ok;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cache_path = NULL;
  g_autofree char *plain_path = NULL;
  gint64 n = 0;
  GOptionEntry entries[] = {
    { "cache", 'c', 0, G_OPTION_ARG_FILENAME, &cache_path, "A cache tes-bench --keep wrote", "PATH" },
    { "plain", 'p', 0, G_OPTION_ARG_FILENAME, &plain_path, "The plain rows tes-bench --keep wrote, for the search's baseline", "PATH" },
    { "slices", 'n', 0, G_OPTION_ARG_INT64, &n, "How many slices it holds (for the results)", "N" },
    { "frames-only", 0, 0, G_OPTION_ARG_NONE, &frames_only, "Time Tessera's frames alone: no baseline, no search", NULL },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames per zoom (15)", "N" },
    { "zoom", 0, 0, G_OPTION_ARG_STRING, &only_zoom, "Only the zoom whose name starts so (whole, 1000, deepest)", "NAME" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png_prefix, "Write each zoom's last frame to PREFIX-<zoom>.png", "PREFIX" },
    { NULL }
  };

  /* as the programs do, so that what it measures is what they run */
  tes_huge_pages_enable (argv);
  /* as the window does */
  tes_malloc_keep_freed ();
  context = g_option_context_new ("- time the Execution Trace's frames");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || cache_path == NULL)
    {
      g_printerr ("tes-bench-trace: %s\n", error ? error->message : "--cache is needed");
      return 2;
    }

  if (!run (cache_path, plain_path, (guint64)n, &error))
    {
      g_printerr ("tes-bench-trace: %s\n", error->message);
      return 1;
    }

  return 0;
}
