/* test-counters.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sqlite3.h>

#include <glib/gstdio.h>

#include "tes-cache.h"
#include "tes-importer-registry.h"
#include "tes-lane.h"
#include "tes-report.h"
#include "tes-share-chart-layout.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "tes-trace-layout.h"
#include "tes-trace-render.h"
#include "tes-workspace.h"

/* A counter's columns from its summary levels (zoomed out) against the
 * same columns worked out here from its samples, one by one. The trace is
 * written here: 24,000 samples (more than a cache checks at open) of a Chrome "C" series at uneven times. */

#define N_SAMPLES 24000

typedef struct
{
  gint64 ts;
  double value;
} Sample;

typedef struct
{
  TesReport      *report;
  const TesTrack *track;
  GArray         *samples;   /* Sample, in the track's ticks */
  char           *path;
} Fixture;

static void
fixture_open (Fixture *f)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n"
                                          "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"NPU\"}},\n"
                                          "{\"ph\":\"X\",\"name\":\"run\",\"pid\":0,\"tid\":1,\"ts\":0,\"dur\":1}");
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  g_autoptr(GError) error = NULL;
  gint64 ns = 1000;

  f->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  for (guint i = 0; i < N_SAMPLES; i++)
    {
      /* bursts and gaps: some columns get many samples, some none */
      Sample s = { ns, (double)g_rand_int_range (rand, -5000, 100000) };

      ns += i % 500 < 400 ? g_rand_int_range (rand, 1, 3000) : g_rand_int_range (rand, 50000, 400000);
      g_string_append_printf (json, ",\n{\"ph\":\"C\",\"name\":\"mem\",\"pid\":0,\"ts\":%" G_GINT64_FORMAT ".%03d,"
                              "\"args\":{\"bytes\":%.0f}}",
                              s.ts / 1000, (int)(s.ts % 1000), s.value);
      g_array_append_val (f->samples, s);
    }
  g_string_append (json, "]}\n");
  f->path = tes_test_tmp_path ("counter.json");
  tes_test_write_file (f->path, json->str, (gssize)json->len);

  f->report = tes_report_import (f->path, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  f->track = tes_test_find_track (f->report, "NPU", "mem.bytes");
  g_assert_cmpint (f->track->kind, ==, TES_TRACK_COUNTER);
  for (guint i = 0; i < f->samples->len; i++)
    {
      Sample *s = &g_array_index (f->samples, Sample, i);

      s->ts = tes_report_convert_time (f->report, 0, f->track->clock_id, s->ts);
    }
}

static void
fixture_close (Fixture *f)
{
  g_clear_object (&f->report);
  g_clear_pointer (&f->samples, g_array_unref);
  g_clear_pointer (&f->path, g_free);
}

static void
add (TesCounterBucket *b,
     double            v)
{
  b->min = b->has_value ? MIN (b->min, v) : v;
  b->max = b->has_value ? MAX (b->max, v) : v;
  b->last = v;
  b->has_value = TRUE;
}

/* Each column from the samples: those in it, the value in force at its
 * start, or the value carried through it, up to the track's end. */
static GArray *
by_hand (const Fixture *f,
         gint64         t0,
         gint64         t1,
         guint          n)
{
  GArray *columns = g_array_sized_new (FALSE, TRUE, sizeof (TesCounterBucket), n);
  guint next = 0;
  gboolean have = FALSE;
  double value = 0;

  g_array_set_size (columns, n);
  for (guint c = 0; c < n; c++)
    {
      /* a sample is in column (ts - t0) * n / (t1 - t0), rounded down */
      gint64 lo = t0 + (gint64)(((__int128)(t1 - t0) * c + n - 1) / n);
      gint64 hi = t0 + (gint64)(((__int128)(t1 - t0) * (c + 1) + n - 1) / n);
      gint64 start = t0 + (gint64)((__int128)(t1 - t0) * c / n);
      TesCounterBucket *b = &g_array_index (columns, TesCounterBucket, c);
      gboolean any = FALSE;

      for (; next < f->samples->len && g_array_index (f->samples, Sample, next).ts < lo; next++)
        {
          value = g_array_index (f->samples, Sample, next).value;
          have = TRUE;
        }
      for (; next < f->samples->len && g_array_index (f->samples, Sample, next).ts < hi; next++)
        {
          if (!any && have)
            add (b, value);
          any = TRUE;
          value = g_array_index (f->samples, Sample, next).value;
          have = TRUE;
          add (b, value);
        }
      if (!any && have && start <= f->track->t_max)
        add (b, value);
    }

  return columns;
}

static void
assert_same (GArray *got,
             GArray *exact)
{
  g_assert_cmpuint (got->len, ==, exact->len);
  for (guint c = 0; c < got->len; c++)
    {
      const TesCounterBucket *a = &g_array_index (got, TesCounterBucket, c);
      const TesCounterBucket *b = &g_array_index (exact, TesCounterBucket, c);

      g_assert_cmpint (a->has_value, ==, b->has_value);
      if (!a->has_value)
        continue;
      g_assert_cmpfloat (a->min, ==, b->min);
      g_assert_cmpfloat (a->max, ==, b->max);
      g_assert_cmpfloat (a->last, ==, b->last);
    }
}

/* A summary bucket across two columns counts in one of them: each column
 * within the range of it and its neighbours, the window's lowest, highest
 * and last values the samples' own. */
static void
assert_close (GArray *got,
              GArray *exact)
{
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE, exact_lo = G_MAXDOUBLE, exact_hi = -G_MAXDOUBLE;
  double last = 0, exact_last = 0;
  guint moved = 0;

  g_assert_cmpuint (got->len, ==, exact->len);
  for (guint c = 0; c < got->len; c++)
    {
      const TesCounterBucket *a = &g_array_index (got, TesCounterBucket, c);
      const TesCounterBucket *b = &g_array_index (exact, TesCounterBucket, c);
      double near_lo = G_MAXDOUBLE, near_hi = -G_MAXDOUBLE;

      g_assert_cmpint (a->has_value, ==, b->has_value);
      if (!a->has_value)
        continue;
      for (guint d = MAX (c, 1) - 1; d <= MIN (c + 1, got->len - 1); d++)
        if (g_array_index (exact, TesCounterBucket, d).has_value)
          {
            near_lo = MIN (near_lo, g_array_index (exact, TesCounterBucket, d).min);
            near_hi = MAX (near_hi, g_array_index (exact, TesCounterBucket, d).max);
          }
      g_assert_cmpfloat (a->min, >=, near_lo);
      g_assert_cmpfloat (a->max, <=, near_hi);
      moved += a->min != b->min || a->max != b->max;
      lo = MIN (lo, a->min);
      hi = MAX (hi, a->max);
      exact_lo = MIN (exact_lo, b->min);
      exact_hi = MAX (exact_hi, b->max);
      last = a->last;
      exact_last = b->last;
    }
  g_assert_cmpfloat (lo, ==, exact_lo);
  g_assert_cmpfloat (hi, ==, exact_hi);
  g_assert_cmpfloat (last, ==, exact_last);
  /* a few columns at most: buckets are a quarter of a column */
  g_assert_cmpuint (moved, <=, got->len / 4);
}

static GArray *
get (const Fixture *f,
     TesReport     *report,
     gint64         t0,
     gint64         t1,
     guint          n)
{
  g_autoptr(GError) error = NULL;
  GArray *columns = tes_report_get_counter (report, f->track->id, t0, t1, n, &error);

  g_assert_no_error (error);
  return columns;
}

/* Level 0's shift, from the cache. */
static guint
finest_shift (const Fixture *f)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint shift;

  g_assert_cmpint (sqlite3_open_v2 (tes_report_get_cache_path (f->report), &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT shift, count(*) OVER () FROM slice_lod WHERE track_id = ? AND level = 0",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_int64 (stmt, 1, f->track->id);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  shift = (guint)sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  return shift;
}

/* A copy of the cache with @sql run on it. */
static char *
damaged_copy (const Fixture *f,
              const char    *name,
              const char    *sql)
{
  g_autofree char *dir = g_path_get_dirname (tes_report_get_cache_path (f->report));
  g_autofree char *contents = NULL;
  char *path = g_build_filename (dir, name, NULL);
  sqlite3 *db = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (tes_report_get_cache_path (f->report), &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), >=, 1);
  sqlite3_close (db);

  return path;
}

static void
test_counter_summary (void)
{
  Fixture f = { 0 };
  g_autofree char *changed = NULL;
  g_autoptr(TesReport) other = NULL;
  g_autoptr(GError) error = NULL;
  gint64 base, span, t0, t1, column;
  guint shift;

  fixture_open (&f);
  base = g_array_index (f.samples, Sample, 0).ts;
  span = g_array_index (f.samples, Sample, N_SAMPLES - 1).ts - base + 1;
  shift = finest_shift (&f);

  /* columns four level-0 buckets wide from the first sample: each bucket
   * in one column, so the summary gives the samples' own figures */
  column = (gint64)4 << shift;
  {
    guint n = (guint)((span + column - 1) / column);
    g_autoptr(GArray) got = get (&f, f.report, base, base + n * column, n);
    g_autoptr(GArray) exact = by_hand (&f, base, base + n * column, n);

    g_assert_cmpuint (n, >, 100);
    assert_same (got, exact);
  }

  /* the whole run, and windows whose edges fall in bursts of samples:
   * some of a bucket's samples in, some out */
  {
#define TS(i) g_array_index (f.samples, Sample, (i)).ts
    const gint64 windows[][3] = {
      { base - span / 7, base + span + span / 9, 1000 },
      { TS (N_SAMPLES / 3 + 5), TS (N_SAMPLES / 2 + 7) + 1, 60 },
      { TS (N_SAMPLES / 2 + 100) - 1, TS (N_SAMPLES - 150) + 1, 200 },
    };
#undef TS

    for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
      {
        g_autoptr(GArray) got = get (&f, f.report, windows[w][0], windows[w][1], (guint)windows[w][2]);
        g_autoptr(GArray) exact = by_hand (&f, windows[w][0], windows[w][1], (guint)windows[w][2]);

        /* wide enough columns for the finest level at least */
        g_assert_cmpint ((windows[w][1] - windows[w][0]) / windows[w][2] / 4, >=, (gint64)1 << shift);
        assert_close (got, exact);
      }
  }

  /* asked for as a lane of slices, the counter has none (its summary is
   * not a lane's) */
  {
    g_autoptr(GArray) lane = tes_report_get_lane (f.report, f.track->id, base, base + span, 100, &error);

    g_assert_no_error (error);
    for (guint i = 0; i < lane->len; i++)
      g_assert_cmpint (g_array_index (lane, TesLaneBucket, i).busy, ==, 0);
  }

  /* zoomed in past the finest level: the samples themselves */
  t0 = base + span / 2;
  t1 = t0 + ((gint64)1 << shift) * 20;
  {
    g_autoptr(GArray) got = get (&f, f.report, t0, t1, 200);
    g_autoptr(GArray) exact = by_hand (&f, t0, t1, 200);

    assert_same (got, exact);
  }

  /* The whole run reads no sample: with one changed, it still draws, and
   * the first window that reads samples finds the table damaged. */
  changed = damaged_copy (&f, "counter-changed.tessera", "UPDATE counter_values SET value = value + 1 WHERE rowid = 5000");
  other = tes_report_open_cache (changed, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GArray) got = get (&f, other, base - span / 7, base + span + span / 9, 1000);
    g_autoptr(GArray) exact = by_hand (&f, base - span / 7, base + span + span / 9, 1000);

    assert_close (got, exact);
  }
  g_assert_null (tes_report_get_counter (other, f.track->id, t0, t1, 200, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, changed));
  g_clear_error (&error);
  g_clear_object (&other);
  g_unlink (changed);

  fixture_close (&f);
}

/* A summary level that does not match its checksum: a cache this small
 * has its summaries checked at open, which names the cache and the track
 * (the loader then imports again). */
static void
test_counter_summary_damaged (void)
{
  Fixture f = { 0 };
  g_autofree char *damaged = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *what = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;

  fixture_open (&f);
  sql = g_strdup_printf ("UPDATE slice_lod SET data = zeroblob (length (data)) WHERE track_id = %" G_GINT64_FORMAT
                         " AND level = 0", f.track->id);
  damaged = damaged_copy (&f, "counter-lod-damaged.tessera", sql);
  report = tes_report_open_cache (damaged, &error);
  g_assert_null (report);
  g_assert_nonnull (error);
  g_assert_true (error->domain == TES_CACHE_ERROR);
  g_assert_nonnull (strstr (error->message, damaged));
  what = g_strdup_printf ("the lane summary of track %" G_GINT64_FORMAT " does not match its checksum", f.track->id);
  g_assert_nonnull (strstr (error->message, what));

  g_unlink (damaged);
  fixture_close (&f);
}

/* The lane drawn: the series' colour through the lane, and its highest
 * value written on a backdrop of its own at the top right, where the
 * chart (busy up to its top there) would hide it. */
static void
test_counter_render (void)
{
  Fixture f = { 0 };
  g_autoptr(TesWorkspace) workspace = NULL;
  g_autoptr(GArray) lanes = NULL;
  g_autoptr(GError) error = NULL;
  guint32 rgb;
  cairo_surface_t *surface;
  cairo_t *cr;
  const TesTraceLane *lane = NULL;
  guint coloured = 0, light = 0, dark = 0;
  int top;

  fixture_open (&f);
  workspace = tes_workspace_new (f.report);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, 300);
  cr = cairo_create (surface);
  g_assert_true (tes_trace_render (workspace, TES_TRACE_FLAT, cr, 1200, 300, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  lanes = tes_trace_layout_lanes (f.report, TES_TRACE_FLAT, NULL, NULL);
  for (guint i = 0; i < lanes->len; i++)
    if (g_array_index (lanes, TesTraceLane, i).track_id == f.track->id)
      lane = &g_array_index (lanes, TesTraceLane, i);
  g_assert_nonnull (lane);
  g_assert_true (lane->is_counter);
  top = (int)(TES_TRACE_RULER_HEIGHT + lane->y);
  g_assert_cmpint (top + (int)lane->height, <=, 300);

  /* halfway down the lane, the chart's colour across the run */
  rgb = tes_share_chart_palette[tes_trace_color_index (f.track->name)];
  for (int x = (int)TES_TRACE_LABEL_WIDTH + 10; x < 1100; x++)
    coloured += tes_test_pixel (surface, x, top + (int)lane->height / 2) == rgb;
  g_assert_cmpuint (coloured, >, (1100 - TES_TRACE_LABEL_WIDTH - 10) * 9 / 10);

  /* the label's box: text on light, no chart colour */
  for (int y = top + 3; y < top + 14; y++)
    for (int x = 1200 - 40; x < 1200 - 6; x++)
      {
        guint32 px = tes_test_pixel (surface, x, y);

        g_assert_cmphex (px, !=, rgb);
        light += (px & 0xff) > 0xd0 && ((px >> 8) & 0xff) > 0xd0 && ((px >> 16) & 0xff) > 0xd0;
        dark += (px & 0xff) < 0xa0;
      }
  g_assert_cmpuint (light, >, 34 * 11 / 2);
  g_assert_cmpuint (dark, >, 10);

  cairo_surface_destroy (surface);
  fixture_close (&f);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/counters/summary", test_counter_summary);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/counters/summary-damaged", test_counter_summary_damaged);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/counters/render", test_counter_render);

  return g_test_run ();
}
