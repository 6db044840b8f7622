/* test-report.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include <glib/gstdio.h>

#include "tes-cache-writer.h"
#include "tes-report-loader.h"
#include "tes-test-util.h"

/* A minimal importer for these tests: each line "track start dur name"
 * becomes a slice; "fail" makes the import fail at that line. It counts
 * its runs so tests can tell a reused cache from a new import. */
#define TEST_TYPE_IMPORTER (test_importer_get_type ())
G_DECLARE_FINAL_TYPE (TestImporter, test_importer, TEST, IMPORTER, TesImporter)

struct _TestImporter
{
  TesImporter parent_instance;
};

G_DEFINE_FINAL_TYPE (TestImporter, test_importer, TES_TYPE_IMPORTER)

static guint n_imports;

static guint
test_importer_sniff (TesImporter  *importer,
                     const guint8 *head,
                     gsize         len,
                     const char   *basename)
{
  return 1;
}

/* text's lines (cut in place, pointers into it): g_strsplit () of a big
 * text is quadratic under ASan, whose strstr () measures the rest of the
 * text at each line */
static GPtrArray *
lines_of (char *text)
{
  GPtrArray *lines = g_ptr_array_new ();

  for (char *line = text, *end; line != NULL; line = end)
    {
      end = strchr (line, '\n');
      if (end != NULL)
        *end++ = '\0';
      g_ptr_array_add (lines, line);
    }
  return lines;
}

static gboolean
test_importer_import (TesImporter       *importer,
                      TesImportContext  *context,
                      GError           **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  gint64 clock, tracks[4] = { 0 };

  n_imports++;

  if (!g_file_get_contents (context->path, &text, NULL, error))
    return FALSE;

  clock = tes_cache_writer_add_clock (context->writer, "ns", TES_TIME_UNIT_NS, 1000000000);
  lines = lines_of (text);
  for (guint i = 0; i < lines->len; i++)
    {
      const char *line = g_ptr_array_index (lines, i);
      g_auto(GStrv) f = g_strsplit (line, " ", 4);
      guint t;

      if (g_str_equal (line, "fail"))
        {
          g_set_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID,
                       "%s:%u: told to fail", context->path, i + 1);
          return FALSE;
        }
      if (g_strv_length (f) != 4)
        continue;

      t = (guint)g_ascii_strtoull (f[0], NULL, 10) % 4;
      if (tracks[t] == 0)
        tracks[t] = tes_cache_writer_add_track (context->writer, 0, context->source_id, clock,
                                                TES_TRACK_THREAD, f[0], t, NULL);
      tes_cache_writer_add_slice (context->writer, tracks[t],
                                  g_ascii_strtoll (f[1], NULL, 10),
                                  g_ascii_strtoll (f[2], NULL, 10),
                                  tes_cache_writer_intern (context->writer, f[3]),
                                  tes_cache_writer_intern (context->writer, "cat"),
                                  0, NULL, 0);
      if (context->progress)
        tes_progress_update (context->progress, (double)i / 100, NULL);
    }

  return TRUE;
}

static void
test_importer_class_init (TestImporterClass *klass)
{
  TesImporterClass *importer_class = TES_IMPORTER_CLASS (klass);

  importer_class->name = "test-lines";
  importer_class->title = "Test lines";
  importer_class->version = 1;
  importer_class->sniff = test_importer_sniff;
  importer_class->import = test_importer_import;
}

static void
test_importer_init (TestImporter *self)
{
}

static void
test_reuse_and_rebuild (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autofree char *src = tes_test_tmp_path ("reuse.txt");
  g_autoptr(TesReport) first = NULL;
  g_autoptr(TesReport) second = NULL;
  g_autoptr(TesReport) third = NULL;
  g_autoptr(TesReport) fourth = NULL;
  g_autoptr(GError) error = NULL;
  TesReportCounts counts;

  n_imports = 0;
  tes_test_write_file (src, "0 0 10 a\n0 20 10 b\n", -1);

  first = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tes_report_get_cache_reused (first));
  g_assert_cmpuint (n_imports, ==, 1);
  tes_report_get_counts (first, &counts);
  g_assert_cmpint (counts.n_slices, ==, 2);

  second = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tes_report_get_cache_reused (second));
  g_assert_cmpuint (n_imports, ==, 1);
  g_assert_cmpstr (tes_report_get_cache_path (first), ==, tes_report_get_cache_path (second));

  /* same size, other bytes: the fingerprint catches it */
  tes_test_write_file (src, "0 0 10 a\n0 20 10 c\n", -1);
  third = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tes_report_get_cache_reused (third));
  g_assert_cmpuint (n_imports, ==, 2);
  {
    g_autoptr(GArray) slices = tes_report_get_slices (third, 1, G_MININT64, G_MAXINT64, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (tes_report_get_string (third, g_array_index (slices, TesSlice, 1).name), ==, "c");
  }

  /* the same bytes under another name reuse the cache written for them
   * (here: the cache file travels with its folder) and show the new path */
  {
    g_autofree char *moved = tes_test_tmp_path ("reuse-moved.txt");
    g_autofree char *moved_cache = g_strconcat (moved, ".tessera", NULL);
    g_autoptr(TesReport) report = NULL;
    g_autofree char *text = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (src, &text, &len, NULL));
    tes_test_write_file (moved, text, len);
    g_assert_no_errno (rename (tes_report_get_cache_path (third), moved_cache));

    report = tes_report_import (moved, importer, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (tes_report_get_cache_reused (report));
    g_assert_cmpuint (n_imports, ==, 2);
    g_assert_cmpstr (tes_report_get_source (report, 0)->path, ==, moved);
    g_assert_no_errno (rename (moved_cache, tes_report_get_cache_path (third)));
  }

  /* explicit reimport */
  fourth = tes_report_import (src, importer, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tes_report_get_cache_reused (fourth));
  g_assert_cmpuint (n_imports, ==, 3);
}

/* A failing import leaves the previous cache as it was and no new one:
 * the next open of the fixed file imports again. */
static void
test_failed_import (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autofree char *src = tes_test_tmp_path ("failing.txt");
  g_autofree char *cache = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;

  n_imports = 0;
  tes_test_write_file (src, "0 0 10 a\nfail\n", -1);
  cache = tes_cache_path_for_source (src);

  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID);
  g_assert_true (strstr (error->message, "failing.txt:2:") != NULL);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  tes_test_write_file (src, "0 0 10 a\n", -1);
  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tes_report_get_cache_reused (report));
  g_assert_cmpuint (n_imports, ==, 2);
}

/* Several files, one report and one cache: reused whatever the order,
 * rebuilt when any member changes. */
static void
test_open_files (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autofree char *a = tes_test_tmp_path ("group-a.txt");
  g_autofree char *b = tes_test_tmp_path ("group-b.txt");
  g_autofree char *single = NULL;
  g_autoptr(GError) error = NULL;
  TesImporter *importers[2] = { importer, importer };
  const char *ab[2] = { a, b };
  const char *ba[2] = { b, a };
  TesReportCounts counts;

  n_imports = 0;
  tes_test_write_file (a, "0 0 10 a\n", -1);
  tes_test_write_file (b, "1 5 10 b\n1 30 5 c\n", -1);
  single = tes_cache_path_for_source (a);

  {
    g_autoptr(TesReport) report = tes_report_import_files (ab, importers, 2, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_false (tes_report_get_cache_reused (report));
    g_assert_cmpuint (n_imports, ==, 2);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_sources, ==, 2);
    g_assert_cmpint (counts.n_slices, ==, 3);
    g_assert_cmpint (counts.n_tracks, ==, 2);
    g_assert_cmpuint (tes_report_get_n_sources (report), ==, 2);
    g_assert_true (g_str_has_suffix (tes_report_get_source (report, 1)->path, "group-b.txt"));
    g_assert_cmpstr (tes_report_get_paths (report)[1], ==, b);
    g_assert_cmpstr (tes_report_get_cache_path (report), !=, single);
    g_assert_false (g_file_test (single, G_FILE_TEST_EXISTS));
  }

  {
    g_autoptr(TesReport) report = tes_report_import_files (ba, importers, 2, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (tes_report_get_cache_reused (report));
    g_assert_cmpuint (n_imports, ==, 2);
  }

  /* one file alone is another report */
  {
    g_autoptr(TesReport) report = tes_report_import (a, importer, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_false (tes_report_get_cache_reused (report));
    g_assert_cmpstr (tes_report_get_cache_path (report), ==, single);
  }

  tes_test_write_file (b, "1 5 10 b\n", -1);
  {
    g_autoptr(TesReport) report = tes_report_import_files (ab, importers, 2, 0, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_false (tes_report_get_cache_reused (report));
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_slices, ==, 2);
  }

  /* the same file twice is refused */
  {
    const char *aa[2] = { a, a };
    g_assert_null (tes_report_import_files (aa, importers, 2, 0, NULL, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
}

static void
test_missing_source (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (tes_report_import ("/nonexistent/report.txt", importer, 0, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (strstr (error->message, "/nonexistent/report.txt") != NULL);
}

/* Random nested slices over several chunks; every query must agree with a
 * brute-force answer over the same data. */
typedef struct
{
  gint64  start;
  gint64  dur;
  guint   name;
} RefSlice;

static char *
write_random_source (guint   n,
                     GArray *ref)
{
  GString *text = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (42);
  gint64 t = 0;
  char *path = tes_test_tmp_path ("random.txt");

  for (guint i = 0; i < n; i++)
    {
      RefSlice s;

      /* top-level slices with a nested child every third one */
      s.start = t;
      s.dur = g_rand_int_range (rand, 10, 1000);
      s.name = g_rand_int_range (rand, 0, 7);
      g_array_append_val (ref, s);
      g_string_append_printf (text, "0 %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " op%u\n", s.start, s.dur, s.name);
      if (i % 3 == 0 && s.dur > 4)
        {
          RefSlice c = { s.start + 1, s.dur / 2, (s.name + 1) % 7 };
          g_array_append_val (ref, c);
          g_string_append_printf (text, "0 %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " op%u\n", c.start, c.dur, c.name);
        }
      t += s.dur + g_rand_int_range (rand, 0, 50);
    }

  tes_test_write_file (path, text->str, text->len);
  g_string_free (text, TRUE);
  g_rand_free (rand);

  return path;
}

static void
test_window_queries (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefSlice));
  g_autofree char *src = write_random_source (30000, ref);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const TesTrack *track;
  GRand *rand = g_rand_new_with_seed (7);

  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  track = tes_report_get_track (report, 1);
  g_assert_cmpint (track->n_slices, ==, ref->len);
  g_assert_cmpint (track->n_slices, >, 2 * 16384);   /* several chunks */
  g_assert_cmpuint (track->max_depth, ==, 1);

  for (guint q = 0; q < 50; q++)
    {
      gint64 t0 = g_rand_int_range (rand, 0, (gint32)track->t_max);
      gint64 t1 = t0 + g_rand_int_range (rand, 0, q < 25 ? 5000 : 500000);
      g_autoptr(GArray) got = NULL;
      g_autoptr(GArray) agg = NULL;
      guint expected = 0;
      gint64 expected_total[7] = { 0 };
      gint64 expected_sum[7] = { 0 };
      gint64 expected_min[7], expected_max[7];
      guint64 expected_count[7] = { 0 };

      /* the whole span, and a window holding whole chunks and cutting one:
       * their sums (slice_chunks.sums) stand in for the chunks inside */
      if (q == 0)
        t0 = track->t_min, t1 = track->t_max;
      else if (q == 1)
        t0 = track->t_max / 3, t1 = track->t_max;
      for (guint k = 0; k < 7; k++)
        expected_min[k] = G_MAXINT64, expected_max[k] = G_MININT64;
      got = tes_report_get_slices (report, 1, t0, t1, &error);

      g_assert_no_error (error);

      for (guint i = 0; i < ref->len; i++)
        {
          const RefSlice *s = &g_array_index (ref, RefSlice, i);

          if (s->start <= t1 && s->start + s->dur >= t0)
            {
              expected++;
              expected_count[s->name]++;
              expected_total[s->name] += MAX (0, MIN (s->start + s->dur, t1) - MAX (s->start, t0));
              expected_sum[s->name] += s->dur;
              expected_min[s->name] = MIN (expected_min[s->name], s->dur);
              expected_max[s->name] = MAX (expected_max[s->name], s->dur);
            }
        }
      g_assert_cmpuint (got->len, ==, expected);

      for (guint i = 1; i < got->len; i++)
        g_assert_cmpint (g_array_index (got, TesSlice, i - 1).start, <=, g_array_index (got, TesSlice, i).start);

      agg = tes_report_aggregate_slices (report, NULL, 0, 1, t0, t1, TES_GROUP_BY_NAME, NULL, &error);
      g_assert_no_error (error);
      for (guint i = 0; i < agg->len; i++)
        {
          const TesAggregate *a = &g_array_index (agg, TesAggregate, i);
          const char *name = tes_report_get_string (report, a->key);
          guint k = (guint)(name[2] - '0');

          g_assert_cmpint (a->count, ==, expected_count[k]);
          g_assert_cmpint (a->total, ==, expected_total[k]);
          g_assert_cmpint (a->sum, ==, expected_sum[k]);
          g_assert_cmpint (a->min, ==, expected_min[k]);
          g_assert_cmpint (a->max, ==, expected_max[k]);
          g_assert_cmpint (a->self, <=, a->total);
        }
    }

  g_rand_free (rand);
}

/* Over the whole span, self time of all slices sums to the busy time of
 * the top-level ones, and the lane's per-pixel busy time to the same. */
static void
test_self_time_and_lane (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefSlice));
  g_autofree char *src = write_random_source (2000, ref);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) agg = NULL;
  g_autoptr(GArray) lane = NULL;
  g_autoptr(GArray) all = NULL;
  const TesTrack *track;
  gint64 self_sum = 0, busy = 0, lane_busy = 0;
  gint64 min_dur = G_MAXINT64, max_dur = G_MININT64, dur_sum = 0;
  guint64 lane_count = 0;

  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  track = tes_report_get_track (report, 1);

  all = tes_report_get_slices (report, 1, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < all->len; i++)
    {
      gint64 dur = g_array_index (all, TesSlice, i).dur;

      if (g_array_index (all, TesSlice, i).depth == 0)
        busy += dur;
      min_dur = MIN (min_dur, dur);
      max_dur = MAX (max_dur, dur);
      dur_sum += dur;
    }

  agg = tes_report_aggregate_slices (report, NULL, 0, 1, G_MININT64, G_MAXINT64, TES_GROUP_BY_CATEGORY, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (agg->len, ==, 1);
  self_sum = g_array_index (agg, TesAggregate, 0).self;
  g_assert_cmpint (self_sum, ==, busy);
  g_assert_cmpint (g_array_index (agg, TesAggregate, 0).count, ==, ref->len);
  /* whole durations: the shortest, the longest, their sum for the mean */
  g_assert_cmpint (g_array_index (agg, TesAggregate, 0).min, ==, min_dur);
  g_assert_cmpint (g_array_index (agg, TesAggregate, 0).max, ==, max_dur);
  g_assert_cmpint (g_array_index (agg, TesAggregate, 0).sum, ==, dur_sum);

  lane = tes_report_get_lane (report, 1, track->t_min, track->t_max, 1200, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lane->len, ==, 1200);
  for (guint i = 0; i < lane->len; i++)
    {
      const TesLaneBucket *b = &g_array_index (lane, TesLaneBucket, i);
      gint64 lo, hi;

      tes_lane_bucket_bounds (track->t_min, track->t_max, 1200, i, &lo, &hi);
      g_assert_cmpint (b->busy, <=, hi - lo);
      g_assert_cmpint (b->max_depth, <=, 1);
      lane_busy += b->busy;
      lane_count += b->count;
    }
  g_assert_cmpint (lane_busy, ==, busy);
  g_assert_cmpuint (lane_count, >=, ref->len);
}

static GArray *
lane_by_hand (GArray *slices,
              gint64  t0,
              gint64  t1,
              guint   n)
{
  GArray *lane = g_array_new (FALSE, TRUE, sizeof (TesLaneBucket));

  g_array_set_size (lane, n);
  for (guint i = 0; i < slices->len; i++)
    {
      const TesSlice *s = &g_array_index (slices, TesSlice, i);
      tes_lane_add_slice ((TesLaneBucket *)(gpointer)lane->data, n, t0, t1, s->start, s->dur, s->name, s->depth);
    }

  return lane;
}

/* A large track answers zoomed-out lanes from its summary pyramid: the
 * busy time per column matches the exact answer to within one summary
 * bucket, and in total exactly; zoomed in, the answer is exact. */
static void
test_lane_summary (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefSlice));
  g_autofree char *src = write_random_source (30000, ref);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  const TesTrack *track;
  gint64 span;

  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  track = tes_report_get_track (report, 1);
  span = track->t_max - track->t_min;
  all = tes_report_get_slices (report, 1, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);

  {
    sqlite3 *db = NULL;
    sqlite3_stmt *stmt = NULL;

    g_assert_cmpint (sqlite3_open_v2 (tes_report_get_cache_path (report), &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*), min(n), max(n) FROM slice_lod WHERE track_id = 1",
                                         -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpint (sqlite3_column_int (stmt, 0), >=, 3);
    g_assert_cmpint (sqlite3_column_int (stmt, 1), <=, 64);
    g_assert_cmpint (sqlite3_column_int (stmt, 2), <=, 65536);
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }

  for (guint zoom = 1; zoom <= 4096; zoom *= 8)
    {
      gint64 t0 = track->t_min + span / 3;
      gint64 t1 = t0 + span / zoom;
      g_autoptr(GArray) lane = tes_report_get_lane (report, 1, t0, t1, 1200, &error);
      g_autoptr(GArray) exact = lane_by_hand (all, t0, t1, 1200);
      gint64 sum = 0, exact_sum = 0;
      gint64 column = (t1 - t0) / 1200;

      g_assert_no_error (error);
      for (guint i = 0; i < 1200; i++)
        {
          const TesLaneBucket *a = &g_array_index (lane, TesLaneBucket, i);
          const TesLaneBucket *b = &g_array_index (exact, TesLaneBucket, i);

          /* summary buckets are at most a column wide, so a column's busy
           * time can be off by at most its two edge buckets */
          g_assert_cmpint (ABS (a->busy - b->busy), <=, 2 * column);
          g_assert_cmpint (a->busy, <=, column + 2);
          sum += a->busy;
          exact_sum += b->busy;
        }
      /* only the two buckets cut by the window edges are prorated */
      g_assert_cmpint (ABS (sum - exact_sum), <=, 2 * column);
      if (zoom >= 512)
        g_assert_cmpmem (lane->data, 1200 * sizeof (TesLaneBucket), exact->data, 1200 * sizeof (TesLaneBucket));
    }

  /* the whole span: only the last summary bucket, cut by t_max, is
   * prorated */
  {
    g_autoptr(GArray) lane = tes_report_get_lane (report, 1, track->t_min, track->t_max, 1000, &error);
    g_autoptr(GArray) exact = lane_by_hand (all, track->t_min, track->t_max, 1000);
    gint64 sum = 0, exact_sum = 0;

    g_assert_no_error (error);
    for (guint i = 0; i < 1000; i++)
      {
        sum += g_array_index (lane, TesLaneBucket, i).busy;
        exact_sum += g_array_index (exact, TesLaneBucket, i).busy;
      }
    g_assert_cmpint (ABS (sum - exact_sum), <=, (track->t_max - track->t_min) / 1000);
    g_assert_cmpint (sum, >, exact_sum * 99 / 100);
  }
}

/* A report keeps the lane summary levels it read: the same window read
 * again, or after other levels were read, gives the same columns as a
 * report opening the cache afresh, and those match the slices counted by
 * hand. A level whose buckets no longer match their checksum is an error
 * naming the cache, every time it is asked for, never kept (a cache this
 * big, over 4 MB, has its levels checked on first read, not at open). */
static void
test_lane_summary_kept (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefSlice));
  g_autofree char *src = write_random_source (400000, ref);
  g_autofree char *damaged = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) first = NULL;
  const TesTrack *track;
  gint64 t0, t1;

  /* a second track, the same slices: the first lane read at a width reads
   * both tracks' levels for it in one scan */
  {
    g_autofree char *text = NULL;
    g_autoptr(GPtrArray) lines = NULL;
    GString *both = g_string_new (NULL);

    g_assert_true (g_file_get_contents (src, &text, NULL, NULL));
    g_string_append (both, text);
    lines = lines_of (text);
    for (guint i = 0; i < lines->len; i++)
      if (g_str_has_prefix (g_ptr_array_index (lines, i), "0 "))
        g_string_append_printf (both, "1%s\n", (const char *)g_ptr_array_index (lines, i) + 1);
    tes_test_write_file (src, both->str, both->len);
    g_string_free (both, TRUE);
  }

  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  track = tes_report_get_track (report, 1);
  t0 = track->t_min;
  t1 = track->t_max;
  all = tes_report_get_slices (report, 1, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);

  first = tes_report_get_lane (report, 1, t0, t1, 700, &error);
  g_assert_no_error (error);
  for (guint zoom = 1; zoom <= 64; zoom *= 4)
    {
      gint64 a = t0 + (t1 - t0) / 5, b = a + (t1 - t0) / zoom / 2;
      g_autoptr(GArray) lane = tes_report_get_lane (report, 1, a, b, 300, &error);
      g_autoptr(TesReport) fresh = tes_report_open_cache (tes_report_get_cache_path (report), &error);
      g_autoptr(GArray) again = NULL;
      g_autoptr(GArray) exact = lane_by_hand (all, a, b, 300);
      gint64 sum = 0, exact_sum = 0;

      g_assert_no_error (error);
      again = tes_report_get_lane (fresh, 1, a, b, 300, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (lane->data, 300 * sizeof (TesLaneBucket), again->data, 300 * sizeof (TesLaneBucket));
      for (guint i = 0; i < 300; i++)
        {
          sum += g_array_index (lane, TesLaneBucket, i).busy;
          exact_sum += g_array_index (exact, TesLaneBucket, i).busy;
        }
      g_assert_cmpint (ABS (sum - exact_sum), <=, 2 * ((b - a) / 300 + 1));
    }
  {
    g_autoptr(GArray) lane = tes_report_get_lane (report, 1, t0, t1, 700, &error);

    g_assert_no_error (error);
    g_assert_cmpmem (lane->data, 700 * sizeof (TesLaneBucket), first->data, 700 * sizeof (TesLaneBucket));
  }

  /* a copy of the cache whose finest summary level of track 1 is zeroed
   * (the small levels are checked at open; this one on first read) */
  {
    g_autofree char *dir = g_path_get_dirname (tes_report_get_cache_path (report));
    g_autofree char *contents = NULL;
    sqlite3_stmt *stmt = NULL;
    sqlite3 *db = NULL;
    gsize len = 0;

    damaged = g_build_filename (dir, "lod-damaged.tessera", NULL);
    g_assert_true (g_file_get_contents (tes_report_get_cache_path (report), &contents, &len, NULL));
    g_assert_true (g_file_set_contents (damaged, contents, len, NULL));
    g_assert_cmpint (sqlite3_open (damaged, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "UPDATE slice_lod SET data = zeroblob (length (data)) "
                                   "WHERE track_id = 1 AND level = 0", NULL, NULL, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_changes (db), ==, 1);
    g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT shift FROM slice_lod WHERE track_id = 1 AND level = 0",
                                         -1, &stmt, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    /* columns one level-0 bucket wide: read from that level */
    t1 = t0 + ((gint64)700 << sqlite3_column_int (stmt, 0));
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }
  g_clear_object (&report);
  report = tes_report_open_cache (damaged, &error);
  g_assert_no_error (error);
  /* track 2 first: its level is read beside track 1's, which is not kept */
  {
    g_autoptr(GArray) lane = tes_report_get_lane (report, 2, t0, t1, 700, &error);
    g_autoptr(GArray) exact = lane_by_hand (all, t0, t1, 700);
    gint64 sum = 0, exact_sum = 0;

    g_assert_no_error (error);
    for (guint i = 0; i < 700; i++)
      {
        sum += g_array_index (lane, TesLaneBucket, i).busy;
        exact_sum += g_array_index (exact, TesLaneBucket, i).busy;
      }
    g_assert_cmpint (ABS (sum - exact_sum), <=, 2 * ((t1 - t0) / 700 + 1));
  }
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr(GArray) lane = tes_report_get_lane (report, 1, t0, t1, 700, &error);

      g_assert_null (lane);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, damaged));
      g_assert_nonnull (strstr (error->message, "lane summary of track 1"));
      g_clear_error (&error);
    }
  g_clear_object (&report);
  g_unlink (damaged);
}

typedef struct
{
  GMainLoop  *loop;
  TesReport  *report;
  GError     *error;
  guint       n_notifies;
} AsyncState;

static void
open_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  AsyncState *state = user_data;

  state->report = tes_report_loader_load_finish (TES_REPORT_LOADER (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
progress_notified (GObject    *object,
                   GParamSpec *pspec,
                   gpointer    user_data)
{
  AsyncState *state = user_data;

  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  state->n_notifies++;
}

static void
test_open_async (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefSlice));
  g_autofree char *src = write_random_source (300, ref);
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(TesReportLoader) reloader = tes_report_loader_new ();
  TesProgress *progress = tes_report_loader_get_progress (loader);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncState state = { 0 };

  state.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (progress, "notify::fraction", G_CALLBACK (progress_notified), &state);

  tes_report_loader_add_file_with_importer (loader, src, importer);
  tes_report_loader_load_async (loader, NULL, open_done, &state);
  g_main_loop_run (state.loop);
  g_assert_no_error (state.error);
  g_assert_nonnull (state.report);
  g_assert_false (tes_report_get_cache_reused (state.report));
  /* let the last coalesced notification arrive */
  while (g_main_context_iteration (NULL, FALSE));
  g_assert_cmpuint (state.n_notifies, >, 0);
  g_assert_cmpfloat (tes_progress_get_fraction (progress), ==, 1.0);
  g_clear_object (&state.report);

  /* cancelled before it starts: a cancelled error, no report */
  g_cancellable_cancel (cancellable);
  tes_report_loader_add_file_with_importer (reloader, src, importer);
  tes_report_loader_set_flags (reloader, TES_REPORT_OPEN_REIMPORT);
  tes_report_loader_load_async (reloader, cancellable, open_done, &state);
  g_main_loop_run (state.loop);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (state.report);
  g_clear_error (&state.error);

  g_main_loop_unref (state.loop);
}

typedef struct
{
  GMainLoop *loop;
  GArray    *result;
} AggState;

static void
aggregate_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  AggState *state = user_data;
  g_autoptr(GError) error = NULL;

  state->result = tes_report_aggregate_slices_finish (TES_REPORT (object), result, &error);
  g_assert_no_error (error);
  g_main_loop_quit (state->loop);
}

static void
test_aggregate_async (void)
{
  g_autoptr(TesImporter) importer = g_object_new (TEST_TYPE_IMPORTER, NULL);
  g_autoptr(GArray) ref = g_array_new (FALSE, FALSE, sizeof (RefSlice));
  g_autofree char *src = write_random_source (500, ref);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sync = NULL;
  AggState state = { 0 };
  gint64 track = 1;

  report = tes_report_import (src, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);
  sync = tes_report_aggregate_slices (report, &track, 1, 1, 1000, 90000, TES_GROUP_BY_NAME, NULL, &error);
  g_assert_no_error (error);

  state.loop = g_main_loop_new (NULL, FALSE);
  tes_report_aggregate_slices_async (report, &track, 1, 1, 1000, 90000, TES_GROUP_BY_NAME, NULL,
                                     aggregate_done, &state);
  g_main_loop_run (state.loop);
  g_assert_nonnull (state.result);
  g_assert_cmpmem (state.result->data, state.result->len * sizeof (TesAggregate),
                   sync->data, sync->len * sizeof (TesAggregate));
  g_array_unref (state.result);
  g_main_loop_unref (state.loop);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/report/reuse-and-rebuild", test_reuse_and_rebuild);
  g_test_add_func ("/tes/report/failed-import", test_failed_import);
  g_test_add_func ("/tes/report/open-files", test_open_files);
  g_test_add_func ("/tes/report/missing-source", test_missing_source);
  g_test_add_func ("/tes/report/window-queries", test_window_queries);
  g_test_add_func ("/tes/report/self-time-and-lane", test_self_time_and_lane);
  g_test_add_func ("/tes/report/lane-summary", test_lane_summary);
  g_test_add_func ("/tes/report/lane-summary-kept", test_lane_summary_kept);
  g_test_add_func ("/tes/report/open-async", test_open_async);
  g_test_add_func ("/tes/report/aggregate-async", test_aggregate_async);

  return g_test_run ();
}
