/* tes-test-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-test-util.h"

#include "tes-cache.h"

#include <string.h>
#include <sys/wait.h>

#include <gio/gio.h>

/* A file under tests/data. */
char *
tes_test_data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", name, NULL);
}

gboolean
tes_test_is_conformance (void)
{
  return g_strcmp0 (g_getenv ("TES_TEST_SUITE"), "conformance") == 0;
}

/* One binary serves both suites: a case is registered only in the suite
 * whose data it reads, so neither run is padded with skips. */
void
tes_test_add (TesTestData  data,
              const char  *path,
              GTestFunc    func)
{
  if ((data == TES_TEST_SHARED_DATA) == tes_test_is_conformance ())
    g_test_add_func (path, func);
}

/* A file under ../shared/fixtures: only conformance cases read these. */
char *
tes_test_shared_path (const char *relative)
{
  const char *dir = g_getenv ("TES_SHARED_DIR");

  if (dir == NULL)
    dir = TES_SHARED_DIR;

  return g_build_filename (dir, relative, NULL);
}

/* With G_TEST_OPTION_ISOLATE_DIRS each test case gets a fresh
 * $XDG_CACHE_HOME etc.; we keep scratch files under it too. */
char *
tes_test_tmp_path (const char *name)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "..", "tes-test-tmp", NULL);
  g_autofree char *canon = g_canonicalize_filename (dir, NULL);

  g_assert_no_errno (g_mkdir_with_parents (canon, 0755));

  return g_build_filename (canon, name, NULL);
}

void
tes_test_write_file (const char *path,
                     const char *contents,
                     gssize      len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
}

char *
tes_test_copy_to_tmp (const char *src,
                      const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  char *dest = tes_test_tmp_path (name);
  gsize len;

  g_file_get_contents (src, &contents, &len, &error);
  g_assert_no_error (error);
  tes_test_write_file (dest, contents, len);

  return dest;
}

/* A copy of a fixture, in the case's scratch folder under its own name:
 * importing writes the cache beside the file, and neither tests/data nor
 * ../shared is ours to write into. A missing file fails the case. */
char *
tes_test_copy_fixture (TesTestData  data,
                       const char  *relative)
{
  g_autofree char *src = NULL;
  g_autofree char *base = g_path_get_basename (relative);

  if (data == TES_TEST_SHARED_DATA)
    src = tes_test_shared_path (relative);
  else
    src = tes_test_data_path (relative);

  return tes_test_copy_to_tmp (src, base);
}

gboolean
tes_test_run (const char * const  *argv,
              char               **out,
              char               **err,
              int                 *exit_status)
{
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                out, err, &wait_status, &error);
  g_assert_no_error (error);

  g_assert_true (WIFEXITED (wait_status));
  *exit_status = WEXITSTATUS (wait_status);

  return *exit_status == 0;
}

void
tes_cli_result_clear (TesCliResult *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

/* Runs tessera-cli with the NULL-terminated arguments; r keeps what it
 * printed and its exit status. */
void
tes_test_run_cli (TesCliResult *r,
                  ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("TESSERA_CLI");
  const char *arg;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer)cli);
  va_start (args, r);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  tes_cli_result_clear (r);
  tes_test_run ((const char * const *)argv->pdata, &r->out, &r->err, &r->status);
}

void
tes_test_assert_contains (const char *haystack,
                          const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    g_error ("'%s' does not contain '%s'", haystack ? haystack : "(null)", needle);
}

/* The report's info value for key is exactly expected (NULL: absent). */
void
tes_test_assert_info (TesReport  *report,
                      const char *key,
                      const char *expected)
{
  g_autofree char *got = tes_report_lookup_info (report, key);

  if (g_strcmp0 (got, expected) != 0)
    g_error ("info %s is '%s', expected '%s'", key, got ? got : "(none)", expected ? expected : "(none)");
}

static void
assert_same_lanes (TesReport *a,
                   TesReport *b,
                   gint64     track_id,
                   gint64     t0,
                   gint64     t1)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) la = tes_report_get_lane (a, track_id, t0, t1, 1000, &error);
  g_autoptr(GArray) lb = NULL;

  g_assert_no_error (error);
  lb = tes_report_get_lane (b, track_id, t0, t1, 1000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (la->len, ==, lb->len);
  for (guint i = 0; i < la->len; i++)
    {
      const TesLaneBucket *x = &g_array_index (la, TesLaneBucket, i);
      const TesLaneBucket *y = &g_array_index (lb, TesLaneBucket, i);

      g_assert_cmpint (x->busy, ==, y->busy);
      g_assert_cmpint (x->dominant_time, ==, y->dominant_time);
      g_assert_cmpuint (x->count, ==, y->count);
      g_assert_cmpuint (x->dominant, ==, y->dominant);
      g_assert_cmpuint (x->max_depth, ==, y->max_depth);
    }
}

void
tes_test_assert_same_slices (TesReport *a,
                             TesReport *b,
                             guint      args_step)
{
  g_assert_cmpuint (tes_report_get_n_tracks (a), ==, tes_report_get_n_tracks (b));

  for (gint64 id = 1; id <= (gint64)tes_report_get_n_tracks (a); id++)
    {
      const TesTrack *ta = tes_report_get_track (a, id);
      const TesTrack *tb = tes_report_get_track (b, id);
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) sa = NULL;
      g_autoptr(GArray) sb = NULL;

      g_assert_cmpint (ta->n_slices, ==, tb->n_slices);
      g_assert_cmpuint (ta->max_depth, ==, tb->max_depth);
      g_assert_cmpint (ta->has_extent, ==, tb->has_extent);
      g_assert_cmpint (ta->t_min, ==, tb->t_min);
      g_assert_cmpint (ta->t_max, ==, tb->t_max);
      if (ta->n_slices == 0)
        continue;

      sa = tes_report_get_slices (a, id, G_MININT64, G_MAXINT64, &error);
      g_assert_no_error (error);
      sb = tes_report_get_slices (b, id, G_MININT64, G_MAXINT64, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (sa->len, ==, (guint)ta->n_slices);
      g_assert_cmpuint (sa->len, ==, sb->len);
      for (guint i = 0; i < sa->len; i++)
        {
          const TesSlice *x = &g_array_index (sa, TesSlice, i);
          const TesSlice *y = &g_array_index (sb, TesSlice, i);

          g_assert_cmpint (x->start, ==, y->start);
          g_assert_cmpint (x->dur, ==, y->dur);
          g_assert_cmpint (x->self_dur, ==, y->self_dur);
          g_assert_cmpuint (x->name, ==, y->name);
          g_assert_cmpuint (x->category, ==, y->category);
          g_assert_cmpint (x->parent, ==, y->parent);
          g_assert_cmpuint (x->index, ==, y->index);
          g_assert_cmpuint (x->depth, ==, y->depth);
          g_assert_cmpuint (x->flags, ==, y->flags);

          if (i % args_step == 0)
            {
              g_autofree char *xa = tes_report_get_slice_args (a, id, i, &error);
              g_autofree char *ya = NULL;

              g_assert_no_error (error);
              ya = tes_report_get_slice_args (b, id, i, &error);
              g_assert_no_error (error);
              g_assert_cmpstr (xa, ==, ya);
            }
        }

      /* zoomed out (the summaries) and into a thousandth */
      assert_same_lanes (a, b, id, ta->t_min, ta->t_max + 1);
      assert_same_lanes (a, b, id, ta->t_min + (ta->t_max - ta->t_min) / 2,
                         ta->t_min + (ta->t_max - ta->t_min) / 2 + (ta->t_max - ta->t_min) / 1000 + 1);
    }
}

void
tes_test_assert_info_rows (TesReport         *report,
                           const TesTestInfo *rows,
                           guint              n_rows)
{
  for (guint i = 0; i < n_rows; i++)
    tes_test_assert_info (report, rows[i].key, rows[i].value);
}

/* `tessera-cli info path` names the report's importer, gives its slice
 * count and prints every info row of the report. */
void
tes_test_assert_cli_info (TesReport  *report,
                          const char *path)
{
  g_autoptr(GPtrArray) info = tes_report_get_info (report);
  g_autofree char *importer = g_strdup_printf ("Importer:       %s (version %u)\n",
                                               tes_report_get_importer_name (report),
                                               tes_report_get_importer_version (report));
  g_autofree char *slices = NULL;
  g_auto(TesCliResult) r = { 0 };
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  slices = g_strdup_printf ("Slices:         %" G_GINT64_FORMAT "\n", counts.n_slices);
  tes_test_run_cli (&r, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  tes_test_assert_contains (r.out, importer);
  tes_test_assert_contains (r.out, slices);
  for (guint i = 0; i < info->len; i++)
    {
      const TesInfoEntry *entry = g_ptr_array_index (info, i);
      g_autofree char *line = g_strdup_printf ("Info:           %s = %s\n", entry->key, entry->value);

      tes_test_assert_contains (r.out, line);
    }
}

TesReport *
tes_test_import (const char  *path,
                 TesImporter *importer)
{
  return tes_test_import_files (&path, &importer, 1, 0);
}

/* The files of one run as one report, each with its importer. */
TesReport *
tes_test_import_files (const char * const  *paths,
                       TesImporter * const *importers,
                       guint                n_files,
                       TesReportOpenFlags   flags)
{
  g_autoptr(GError) error = NULL;
  TesReport *report;

  for (guint i = 0; i < n_files; i++)
    g_assert_nonnull (importers[i]);
  report = tes_report_import_files (paths, importers, n_files, flags, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);

  return report;
}

/* Writes contents (len bytes, or a string when len is -1) to a scratch
 * file called name and imports it: the import must fail with code, its
 * message must hold the path followed by message (so that it names the
 * file and the place), and no cache may be left behind. */
void
tes_test_assert_import_fails (TesImporter *importer,
                              const char  *name,
                              const char  *contents,
                              gssize       len,
                              int          code,
                              const char  *message)
{
  g_autofree char *path = tes_test_tmp_path (name);
  g_autofree char *cache = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;

  g_assert_nonnull (importer);
  tes_test_write_file (path, contents, len);
  cache = tes_cache_path_for_source (path);

  report = tes_report_import (path, importer, 0, NULL, NULL, &error);
  if (report != NULL)
    g_error ("case %s: imported, expected an error", name);
  if (!g_error_matches (error, TES_IMPORT_ERROR, code))
    g_error ("case %s: expected import error %d, got '%s' (%s %d)", name, code, error->message,
             g_quark_to_string (error->domain), error->code);
  expected = g_strconcat (path, message, NULL);
  if (strstr (error->message, expected) == NULL)
    g_error ("case %s: '%s' does not contain '%s'", name, error->message, expected);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
}

void
tes_test_assert_bad_inputs (TesImporter       *importer,
                            const TesBadInput *cases,
                            guint              n_cases)
{
  for (guint i = 0; i < n_cases; i++)
    tes_test_assert_import_fails (importer, cases[i].name, cases[i].contents, cases[i].len,
                                  cases[i].code, cases[i].message);
}

/* The track called name whose parent is called parent (NULL: a top-level
 * track); the first one in id order. */
const TesTrack *
tes_test_find_track (TesReport  *report,
                     const char *parent,
                     const char *name)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      const TesTrack *up;

      if (track == NULL || g_strcmp0 (track->name, name) != 0)
        continue;
      up = track->parent_id ? tes_report_get_track (report, track->parent_id) : NULL;
      if (g_strcmp0 (up ? up->name : NULL, parent) == 0)
        return track;
    }

  g_error ("no track '%s' under '%s'", name, parent ? parent : "(top)");
  return NULL;
}

/* Every slice of the track, in time order. */
GArray *
tes_test_get_slices (TesReport *report,
                     gint64     track_id)
{
  g_autoptr(GError) error = NULL;
  GArray *slices = tes_report_get_slices (report, track_id, G_MININT64, G_MAXINT64, &error);

  g_assert_no_error (error);
  g_assert_nonnull (slices);
  return slices;
}

const TesSummaryRow *
tes_test_find_summary_row (GPtrArray  *rows,
                           const char *label)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const TesSummaryRow *row = g_ptr_array_index (rows, i);

      if (g_strcmp0 (row->label, label) == 0)
        return row;
    }

  g_error ("no summary row '%s'", label);
  return NULL;
}

/* A Chrome trace with known slices, for the trace's tests. Device A: core
 * 0 holds "conv" [1000, 1100) µs (args {"tiles":1216}) with a nested
 * "dma" [1010, 1060), then "add" [1200, 1500); core 1 holds 1000 slices
 * of 100 ns every 200 ns from 2000 µs. Device B: core 0 holds "sync"
 * [1500, 2000) µs. Returns its path. */
char *
tes_test_write_trace (const char *name)
{
  char *path = tes_test_tmp_path (name);
  g_autoptr(GString) json = g_string_new ("[");

  g_string_append (json,
                   "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"Device A\"}},"
                   "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"Device B\"}},"
                   "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"core 0\"}},"
                   "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"core 1\"}},"
                   "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":2,\"tid\":1,\"args\":{\"name\":\"core 0\"}},"
                   "{\"name\":\"conv\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":1000,\"dur\":100,\"pid\":1,\"tid\":1,\"args\":{\"tiles\":1216}},"
                   "{\"name\":\"dma\",\"cat\":\"dma\",\"ph\":\"X\",\"ts\":1010,\"dur\":50,\"pid\":1,\"tid\":1},"
                   "{\"name\":\"add\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":1200,\"dur\":300,\"pid\":1,\"tid\":1},"
                   "{\"name\":\"sync\",\"cat\":\"sync\",\"ph\":\"X\",\"ts\":1500,\"dur\":500,\"pid\":2,\"tid\":1}");
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (json, ",{\"name\":\"tiny\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":%u.%u,\"dur\":0.1,\"pid\":1,\"tid\":2}",
                            2000 + i / 5, (i % 5) * 2);
  g_string_append (json, "]");
  tes_test_write_file (path, json->str, json->len);

  return path;
}
