/* test-cache-reopen.c: a cache is reused without reading its source while
 * the source's stat identity is the one recorded, and only then
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tes-cache-private.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"

#define FIXTURE "yolov8s_op_time_each.txt"

/* The file's last change is older than the next stat by more than the
 * racily-clean window, so that its stat identity may be trusted. */
static void
wait_past_window (void)
{
  g_usleep (TES_CACHE_RACY_WINDOW_NS / 1000 + 50000);
}

static TesImporter *
importer_for (const char *path)
{
  g_autoptr(GError) error = NULL;
  TesImporter *importer = tes_importer_registry_choose (path, NULL, &error);

  g_assert_no_error (error);
  return importer;
}

/* Opens path as tessera-cli does: from its cache when it can be reused. */
static TesReport *
open_report (const char *path,
             gboolean    expect_reused)
{
  g_autoptr(GError) error = NULL;
  TesReport *report = tes_report_import (path, importer_for (path), 0, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  g_assert_cmpint (tes_report_get_cache_reused (report), ==, expect_reused);
  return report;
}

/* A copy of the fixture at dir/name, dir made first. */
static char *
write_copy (const char *dir,
            const char *name)
{
  g_autofree char *fixture = tes_test_data_path (FIXTURE);
  g_autofree char *contents = NULL;
  char *path = g_build_filename (dir, name, NULL);
  gsize len;

  g_assert_no_errno (g_mkdir_with_parents (dir, 0755));
  g_assert_true (g_file_get_contents (fixture, &contents, &len, NULL));
  tes_test_write_file (path, contents, len);
  return path;
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
  tes_test_write_file (to, contents, len);
}

static char *
fingerprint_now (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *fingerprint = tes_cache_fingerprint_file (path, NULL, &error);

  g_assert_no_error (error);
  return fingerprint;
}

/* The stat identity the cache records for its only source. */
static TesSourceStamp *
recorded_stamp (const char *cache)
{
  TesSourceStamp *recorded = g_new0 (TesSourceStamp, 1);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT size, mtime_ns, ctime_ns, dev, ino, stat_at_ns, fingerprint, "
                                           "path FROM sources", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  recorded->size = sqlite3_column_int64 (stmt, 0);
  recorded->mtime_ns = sqlite3_column_int64 (stmt, 1);
  recorded->ctime_ns = sqlite3_column_int64 (stmt, 2);
  recorded->dev = (guint64)sqlite3_column_int64 (stmt, 3);
  recorded->ino = (guint64)sqlite3_column_int64 (stmt, 4);
  recorded->stat_at_ns = sqlite3_column_int64 (stmt, 5);
  recorded->fingerprint = g_strdup ((const char *)sqlite3_column_text (stmt, 6));
  recorded->path = g_strdup ((const char *)sqlite3_column_text (stmt, 7));
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return recorded;
}

static gint64
ns_of (const struct timespec *ts)
{
  return (gint64)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static void
assert_recorded_is_file (const char *cache,
                         const char *path)
{
  g_autoptr(TesSourceStamp) recorded = recorded_stamp (cache);
  GStatBuf st;

  g_assert_no_errno (g_stat (path, &st));
  g_assert_cmpstr (recorded->path, ==, path);
  g_assert_cmpint (recorded->size, ==, st.st_size);
  g_assert_cmpint (recorded->mtime_ns, ==, ns_of (&st.st_mtim));
  g_assert_cmpint (recorded->ctime_ns, ==, ns_of (&st.st_ctim));
  g_assert_cmpuint (recorded->dev, ==, (guint64)st.st_dev);
  g_assert_cmpuint (recorded->ino, ==, (guint64)st.st_ino);
}

/* Imported once (one read, its parse aside), then reopened without a
 * single read of the source: its recorded stat identity vouches for the
 * recorded fingerprint, which is the file's. */
static void
test_reopen_without_reading (void)
{
  g_autofree char *dir = tes_test_tmp_path ("plain");
  g_autofree char *src = write_copy (dir, FIXTURE);
  g_autofree char *fingerprint = NULL;
  g_autoptr(TesReport) first = NULL;
  g_autoptr(TesReport) second = NULL;
  guint reads;

  wait_past_window ();
  reads = tes_cache_get_fingerprint_reads ();
  first = open_report (src, FALSE);
  g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
  assert_recorded_is_file (tes_report_get_cache_path (first), src);

  for (guint i = 0; i < 3; i++)
    {
      g_clear_object (&second);
      second = open_report (src, TRUE);
      g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
    }

  fingerprint = fingerprint_now (src);
  g_assert_cmpstr (tes_report_get_source (second, 0)->fingerprint, ==, fingerprint);
  g_assert_true (tes_report_get_source (second, 0)->present);
  g_assert_cmpstr (tes_report_get_source (second, 0)->path, ==, src);
}

/* A same-size edit whose mtime is then set back (touch -m -d, or a tool
 * that restores timestamps): size, inode and mtime are the recorded ones,
 * but the ctime moved, which no user can set back; the file is read, and
 * imported again. cache --list's check says stale as well. */
static void
test_restored_mtime (void)
{
  g_autofree char *dir = tes_test_tmp_path ("restored");
  g_autofree char *src = write_copy (dir, FIXTURE);
  g_autofree char *fingerprint = NULL;
  g_autofree char *cache = NULL;
  g_autoptr(TesReport) first = NULL;
  g_autoptr(TesReport) second = NULL;
  g_autoptr(GError) error = NULL;
  struct timespec times[2];
  GStatBuf before, after;
  guint reads;
  int fd;

  wait_past_window ();
  first = open_report (src, FALSE);
  cache = g_strdup (tes_report_get_cache_path (first));
  g_assert_no_errno (g_stat (src, &before));

  /* "0 CONV_2D 7.880%" becomes "0 CONV_2D 6.880%", in place */
  fd = g_open (src, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (pwrite (fd, "6", 1, 10), ==, 1);
  g_assert_no_errno (close (fd));
  times[0] = before.st_atim;
  times[1] = before.st_mtim;
  g_assert_no_errno (utimensat (AT_FDCWD, src, times, 0));

  g_assert_no_errno (g_stat (src, &after));
  g_assert_cmpint (after.st_size, ==, before.st_size);
  g_assert_cmpuint (after.st_ino, ==, before.st_ino);
  g_assert_cmpint (ns_of (&after.st_mtim), ==, ns_of (&before.st_mtim));
  g_assert_cmpint (ns_of (&after.st_ctim), !=, ns_of (&before.st_ctim));

  g_assert_cmpint (tes_cache_get_state (cache, NULL, &error), ==, TES_CACHE_STATE_STALE);
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE);
  g_clear_error (&error);

  reads = tes_cache_get_fingerprint_reads ();
  second = open_report (src, FALSE);
  /* read once to find it changed, not again for the import */
  g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
  fingerprint = fingerprint_now (src);
  g_assert_cmpstr (tes_report_get_source (second, 0)->fingerprint, ==, fingerprint);
  g_assert_cmpstr (tes_report_get_source (first, 0)->fingerprint, !=, fingerprint);
}

/* A copy (another inode) is read once and reuses the cache written for
 * the same bytes, which then records the copy's identity and path: the
 * next open reads nothing. A folder moved with its cache keeps its inodes and is
 * not read at all. The cache stays intact through the refresh. */
static void
test_copy_reuses (void)
{
  g_autofree char *dir_a = tes_test_tmp_path ("copy-a");
  g_autofree char *dir_b = tes_test_tmp_path ("copy-b");
  g_autofree char *dir_c = tes_test_tmp_path ("copy-c");
  g_autofree char *src = write_copy (dir_a, FIXTURE);
  g_autofree char *copy = g_build_filename (dir_b, FIXTURE, NULL);
  g_autofree char *copy_cache = g_strconcat (copy, ".tessera", NULL);
  g_autofree char *moved = g_build_filename (dir_c, FIXTURE, NULL);
  g_autofree char *moved_cache = g_strconcat (moved, ".tessera", NULL);
  g_autoptr(TesReport) first = NULL;
  g_autoptr(GError) error = NULL;
  guint reads;

  wait_past_window ();
  first = open_report (src, FALSE);

  g_assert_no_errno (g_mkdir_with_parents (dir_b, 0755));
  copy_file (src, copy);
  copy_file (tes_report_get_cache_path (first), copy_cache);
  wait_past_window ();

  reads = tes_cache_get_fingerprint_reads ();
  {
    g_autoptr(TesReport) report = open_report (copy, TRUE);

    g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
    g_assert_cmpstr (tes_report_get_cache_path (report), ==, copy_cache);
    g_assert_cmpstr (tes_report_get_source (report, 0)->path, ==, copy);
  }
  assert_recorded_is_file (copy_cache, copy);
  g_assert_true (tes_cache_verify (copy_cache, &error));
  g_assert_no_error (error);
  {
    g_autoptr(TesReport) report = open_report (copy, TRUE);

    g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
  }

  g_assert_no_errno (g_rename (dir_b, dir_c));
  {
    g_autoptr(TesReport) report = open_report (moved, TRUE);

    g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
    g_assert_cmpstr (tes_report_get_cache_path (report), ==, moved_cache);
    g_assert_cmpstr (tes_report_get_source (report, 0)->path, ==, moved);
  }
}

/* A cache that may not be written (no write bit) is reused all the same
 * after reading the copy, and left byte for byte as it was: the copy is
 * read on every open. */
static void
test_read_only_cache (void)
{
  g_autofree char *dir_a = tes_test_tmp_path ("ro-a");
  g_autofree char *dir_b = tes_test_tmp_path ("ro-b");
  g_autofree char *src = write_copy (dir_a, FIXTURE);
  g_autofree char *copy = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *bytes = NULL;
  g_autoptr(TesReport) first = NULL;
  TesImporter *importer;
  const char *name;
  guint version;
  guint reads;
  gsize len;

  wait_past_window ();
  first = open_report (src, FALSE);
  copy = write_copy (dir_b, FIXTURE);
  cache = g_strconcat (copy, ".tessera", NULL);
  copy_file (tes_report_get_cache_path (first), cache);
  g_assert_no_errno (g_chmod (cache, 0444));
  g_assert_true (g_file_get_contents (cache, &bytes, &len, NULL));
  wait_past_window ();

  importer = importer_for (copy);
  name = tes_importer_get_name (importer);
  version = tes_importer_get_version (importer);
  reads = tes_cache_get_fingerprint_reads ();
  for (guint i = 1; i <= 2; i++)
    {
      g_autoptr(TesSourceStamp) stamp = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *now = NULL;
      gsize now_len;

      stamp = tes_source_stamp_stat (copy, &error);
      g_assert_no_error (error);
      g_assert_null (stamp->fingerprint);
      g_assert_true (tes_cache_is_reusable (cache, &stamp, &name, &version, 1, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + i);

      g_assert_true (g_file_get_contents (cache, &now, &now_len, NULL));
      g_assert_cmpmem (now, now_len, bytes, len);
    }
  g_assert_no_errno (g_chmod (cache, 0644));
}

/* Sets the file's mtime to now + seconds (its ctime becomes now). */
static void
set_mtime_from_now (const char *path,
                    gint64      seconds)
{
  struct timespec times[2];

  clock_gettime (CLOCK_REALTIME, &times[1]);
  times[1].tv_sec += seconds;
  times[0].tv_sec = 0;
  times[0].tv_nsec = UTIME_OMIT;
  g_assert_no_errno (utimensat (AT_FDCWD, path, times, 0));
}

/* A file whose mtime is not older than the moment it was recorded (here
 * an hour ahead of it, as on a share whose clock runs ahead) may have
 * changed since under the same timestamps: it is read on every open and
 * its identity is not recorded. Once its last change is old enough, it is
 * read once more and recorded anew, and reading stops. A file written
 * just before its import is racily clean as well, and read exactly when
 * the record says so. */
static void
test_racily_clean (void)
{
  g_autofree char *dir = tes_test_tmp_path ("racy");
  g_autofree char *src = write_copy (dir, FIXTURE);
  g_autofree char *fresh = NULL;
  g_autofree char *cache = NULL;
  guint reads;
  gboolean racy;

  set_mtime_from_now (src, 3600);
  reads = tes_cache_get_fingerprint_reads ();
  {
    g_autoptr(TesReport) report = open_report (src, FALSE);

    cache = g_strdup (tes_report_get_cache_path (report));
  }
  for (guint i = 2; i <= 3; i++)
    {
      g_autoptr(TesReport) report = open_report (src, TRUE);

      g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + i);
    }

  /* in the past now, and its ctime (set with it) too, by more than the
   * window */
  set_mtime_from_now (src, -10);
  wait_past_window ();
  {
    g_autoptr(TesReport) report = open_report (src, TRUE);

    g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 4);
  }
  assert_recorded_is_file (cache, src);
  {
    g_autoptr(TesReport) report = open_report (src, TRUE);

    g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 4);
  }

  /* written and imported at once */
  fresh = write_copy (dir, "fresh.txt");
  {
    g_autoptr(TesReport) report = open_report (fresh, FALSE);
    g_autoptr(TesSourceStamp) recorded = recorded_stamp (tes_report_get_cache_path (report));

    racy = MAX (recorded->mtime_ns, recorded->ctime_ns) >= recorded->stat_at_ns - TES_CACHE_RACY_WINDOW_NS;
  }
  reads = tes_cache_get_fingerprint_reads ();
  {
    g_autoptr(TesReport) report = open_report (fresh, TRUE);

    g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + (racy ? 1 : 0));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/cache-reopen/without-reading", test_reopen_without_reading);
  g_test_add_func ("/tes/cache-reopen/restored-mtime", test_restored_mtime);
  g_test_add_func ("/tes/cache-reopen/copy-reuses", test_copy_reuses);
  g_test_add_func ("/tes/cache-reopen/read-only-cache", test_read_only_cache);
  g_test_add_func ("/tes/cache-reopen/racily-clean", test_racily_clean);

  return g_test_run ();
}
