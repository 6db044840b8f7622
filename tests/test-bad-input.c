/* test-bad-input.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sqlite3.h>
#include <string.h>

#include "fuzz/tes-fuzz.h"
#include "tes-cache.h"
#include "tes-importer-registry.h"
#include "tes-report-loader.h"
#include "tes-test-util.h"

/* What the fuzzers (tests/fuzz, docs/reliability.md) found, each kept as a
 * small file in tests/data/bad/: a vendor file that must now import (or
 * fail naming the file and the line or byte), or an SQL change to a cache
 * after which opening and querying it must fail naming the cache and the
 * damaged row. Every report is asked what the fuzzers ask of it
 * (tes_fuzz_query_report). In the ASan and UBSan builds these cases also
 * show that the crash, leak or undefined behaviour is gone. */

static TesReport *
import_bad_file (const char *name,
                 const char *importer_name)
{
  g_autofree char *relative = g_build_filename ("bad", name, NULL);
  g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, relative);
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  return tes_test_import (path, importer);
}

static void
assert_queries_answer (TesReport *report)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tes_fuzz_query_report (report, &error));
  g_assert_no_error (error);
}

/* chrome-json: a thread with instants and no slices handed its empty
 * slice array to the writer as pointer arithmetic on NULL. */
static void
test_chrome_instants_only (void)
{
  g_autoptr(TesReport) report = import_bad_file ("chrome-instants-only.json", "chrome-json");
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_slices, ==, 0);
  g_assert_cmpint (counts.n_instants, ==, 3);
  assert_queries_answer (report);
}

/* A slice from 9e18 ns lasting 9e18 ns: its end overflowed gint64 in the
 * writer and in every reader, and one from -9e18 ns made the run's span
 * overflow; times are now clamped to ±TES_TIME_LIMIT. */
static void
test_chrome_slice_end_overflow (void)
{
  g_autoptr(TesReport) report = import_bad_file ("chrome-slice-end-overflow.json", "chrome-json");
  const TesTrack *track = tes_test_find_track (report, "Process 1", "Thread 1");
  g_autoptr(GArray) slices = tes_test_get_slices (report, track->id);
  const TesSlice *last;
  gint64 t_min, t_max;

  g_assert_cmpuint (slices->len, ==, 2);
  for (guint i = 0; i < slices->len; i++)
    g_assert_true (g_array_index (slices, TesSlice, i).flags & TES_SLICE_FLAG_CLAMPED);
  last = &g_array_index (slices, TesSlice, 1);
  g_assert_cmpint (last->start + last->dur, ==, TES_TIME_LIMIT);
  g_assert_true (tes_report_get_span (report, 0, &t_min, &t_max));
  g_assert_cmpint (t_min, ==, -TES_TIME_LIMIT);
  g_assert_cmpint (t_max, ==, TES_TIME_LIMIT);
  assert_queries_answer (report);
}

/* poplar-report: a "Maximum (…):" line with no value inside a histogram
 * was split into a label twice, and the first one leaked. */
static void
test_poplar_maximum_without_value (void)
{
  g_autoptr(TesReport) report = import_bad_file ("poplar-maximum-without-value.txt", "poplar-report");

  tes_test_assert_info (report, "memory.by_tile.bins", "1");
  tes_test_assert_info (report, "memory.by_tile.tiles", "30");
  assert_queries_answer (report);
}

typedef struct
{
  const char *sql;       /* in tests/data/bad/ */
  const char *damage;    /* what follows "Cache PATH is damaged: "; NULL: it opens and answers */
} DamagedCache;

static const DamagedCache damaged_caches[] = {
  { "cache-slice-end-overflow.sql", "slice 1 of track 8" },
  { "cache-chunk-negative-max-dur.sql", "a slice chunk of track 3" },
  { "cache-clock-no-rate.sql", "clock 1" },
  { "cache-string-id-gap.sql", "string 18" },
  /* a regex search now skips the chunk's argument texts */
  { "cache-args-offsets.sql", NULL },
};

static void
apply_sql (const char *cache,
           const char *sql_name)
{
  g_autofree char *sql_path = tes_test_data_path ("bad");
  g_autofree char *path = g_build_filename (sql_path, sql_name, NULL);
  g_autofree char *sql = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_file_get_contents (path, &sql, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql_name, sqlite3_errmsg (db));
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);
}

/* A cache of phases_array.json, damaged by each SQL file in turn, opened
 * the way the window opens a shared cache. */
static void
test_damaged_caches (void)
{
  g_autofree char *source = tes_test_data_path ("chrome/phases_array.json");
  TesImporter *chrome = tes_importer_registry_lookup ("chrome-json");

  for (guint i = 0; i < G_N_ELEMENTS (damaged_caches); i++)
    {
      const DamagedCache *c = &damaged_caches[i];
      g_autofree char *name = g_strconcat (c->sql, ".json", NULL);
      g_autofree char *copy = tes_test_copy_to_tmp (source, name);
      g_autofree char *cache = tes_cache_path_for_source (copy);
      g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
      g_autoptr(TesReport) report = NULL;
      g_autoptr(GError) error = NULL;

      report = tes_test_import (copy, chrome);
      assert_queries_answer (report);
      g_clear_object (&report);
      apply_sql (cache, c->sql);

      tes_report_loader_add_file (loader, cache);
      if ((report = tes_report_loader_load (loader, NULL, &error)))
        tes_fuzz_query_report (report, &error);

      if (c->damage == NULL)
        {
          g_assert_no_error (error);
        }
      else
        {
          g_autofree char *expected = g_strdup_printf ("Cache %s is damaged: %s", cache, c->damage);

          if (error == NULL)
            g_error ("%s: no error, expected '%s'", c->sql, expected);
          g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
          tes_test_assert_contains (error->message, expected);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/chrome-instants-only", test_chrome_instants_only);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/chrome-slice-end-overflow", test_chrome_slice_end_overflow);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/poplar-maximum-without-value", test_poplar_maximum_without_value);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/damaged-caches", test_damaged_caches);

  return g_test_run ();
}
