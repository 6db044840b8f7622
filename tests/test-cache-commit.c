/* test-cache-commit.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include <sqlite3.h>

#include "tes-cache-private.h"
#include "tes-cache-syncer.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"

#define EVERY (64 * 1024)

static void
write_text (const char *path,
                const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* A file written in blocks and noted as it goes is synced on the side
 * once per EVERY bytes (or fewer: a request during a sync waits for it),
 * and the last sync by finish(): every byte is there. */
static void
test_syncs_on_the_side (void)
{
  g_autofree char *path = NULL;
  g_autofree char *back = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesCacheSyncer) syncer = NULL;
  guint8 block[EVERY / 4];
  gsize len = 0;
  int fd, errsv = -1;

  fd = g_file_open_tmp ("tes-syncer-XXXXXX", &path, &error);
  g_assert_no_error (error);
  syncer = tes_cache_syncer_new (fd, EVERY);

  for (guint i = 0; i < 40; i++)
    {
      memset (block, 'a' + i % 26, sizeof block);
      g_assert_cmpint (write (fd, block, sizeof block), ==, sizeof block);
      tes_cache_syncer_note (syncer, sizeof block);
      /* every 8 blocks, wait for a sync that started after the last wait */
      if (i % 8 == 7)
        while (tes_cache_syncer_get_runs (syncer) < (i + 1) / 8)
          g_usleep (1000);
    }

  g_assert_true (tes_cache_syncer_finish (syncer, &errsv));
  g_assert_cmpint (errsv, ==, 0);
  /* ten requests, each sync taking those that came while it ran */
  g_assert_cmpuint (tes_cache_syncer_get_runs (syncer), >=, 5);
  g_assert_cmpuint (tes_cache_syncer_get_runs (syncer), <=, 10);

  g_assert_true (g_file_get_contents (path, &back, &len, NULL));
  g_assert_cmpuint (len, ==, 40 * sizeof block);
  g_assert_cmpint (back[len - 1], ==, 'a' + 39 % 26);

  close (fd);
  g_unlink (path);
}

/* Below EVERY nothing starts a thread; finish() still syncs. */
static void
test_small_file_no_thread (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesCacheSyncer) syncer = NULL;
  int fd, errsv = -1;

  fd = g_file_open_tmp ("tes-syncer-XXXXXX", &path, &error);
  g_assert_no_error (error);
  syncer = tes_cache_syncer_new (fd, EVERY);
  g_assert_cmpint (write (fd, "{}", 2), ==, 2);
  tes_cache_syncer_note (syncer, 2);

  g_assert_true (tes_cache_syncer_finish (syncer, &errsv));
  g_assert_cmpuint (tes_cache_syncer_get_runs (syncer), ==, 0);

  close (fd);
  g_unlink (path);
}

/* A sync that fails on the side is not lost: finish() reports its errno
 * (a pipe cannot be synced: EINVAL), so the cache is never renamed into
 * place as if it were safe. */
static void
test_failure_on_the_side_is_reported (void)
{
  g_autoptr(TesCacheSyncer) syncer = NULL;
  int fds[2];
  int errsv = 0;

  g_assert_cmpint (pipe (fds), ==, 0);
  syncer = tes_cache_syncer_new (fds[1], EVERY);
  tes_cache_syncer_note (syncer, EVERY);
  while (tes_cache_syncer_get_runs (syncer) == 0)
    g_usleep (1000);

  g_assert_false (tes_cache_syncer_finish (syncer, &errsv));
  g_assert_cmpint (errsv, ==, EINVAL);

  close (fds[0]);
  close (fds[1]);
}

/* Freed without finish() (an import cancelled or failed): the thread is
 * stopped and joined, nothing is left running. */
static void
test_free_without_finish (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  TesCacheSyncer *syncer;
  int fd;

  fd = g_file_open_tmp ("tes-syncer-XXXXXX", &path, &error);
  g_assert_no_error (error);
  syncer = tes_cache_syncer_new (fd, 1);
  for (guint i = 0; i < 100; i++)
    {
      g_assert_cmpint (write (fd, "x", 1), ==, 1);
      tes_cache_syncer_note (syncer, 1);
    }
  tes_cache_syncer_free (syncer);

  close (fd);
  g_unlink (path);
}

/* An old cache replaced: the new file takes its name at once, the old one
 * is removed on the side (nothing of it left once the removals are
 * waited for), and whoever still has it open reads it whole. */
static void
test_replace_old_cache (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tes-replace-XXXXXX", NULL);
  g_autofree char *cache = g_build_filename (dir, "t.json.tessera", NULL);
  g_autofree char *temp = g_strconcat (cache, ".tmp-1-new", NULL);
  g_autofree char *back = NULL;
  g_autoptr(GDir) d = NULL;
  char old_bytes[4] = { 0 };
  const char *name;
  int old_fd;

  write_text (cache, "old!");
  old_fd = open (cache, O_RDONLY);
  g_assert_cmpint (old_fd, >=, 0);
  write_text (temp, "new!");

  g_assert_cmpint (tes_cache_replace (temp, cache), ==, 0);
  g_assert_true (g_file_get_contents (cache, &back, NULL, NULL));
  g_assert_cmpstr (back, ==, "new!");
  g_assert_false (g_file_test (temp, G_FILE_TEST_EXISTS));

  tes_cache_wait_removals ();
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)))
    g_assert_cmpstr (name, ==, "t.json.tessera");
  g_assert_cmpint (pread (old_fd, old_bytes, 4, 0), ==, 4);
  g_assert_cmpint (memcmp (old_bytes, "old!", 4), ==, 0);
  close (old_fd);

  /* nothing to replace: a plain rename; a temp that is not there: -1 */
  g_unlink (cache);
  write_text (temp, "new!");
  g_assert_cmpint (tes_cache_replace (temp, cache), ==, 0);
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (tes_cache_replace (temp, cache), ==, -1);
  g_assert_cmpint (errno, ==, ENOENT);
  tes_cache_wait_removals ();
  g_clear_pointer (&d, g_dir_close);
  d = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (d)))
    g_assert_cmpstr (name, ==, "t.json.tessera");

  g_unlink (cache);
  g_rmdir (dir);
}

/* A new cache for path, written by its importer. */
static TesReport *
import_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  TesImporter *importer = tes_importer_registry_choose (path, NULL, &error);
  TesReport *report;

  g_assert_no_error (error);
  report = tes_report_import (path, importer, 0, NULL, NULL, &error);
  g_assert_no_error (error);

  return report;
}

/* The operators' checksum is worked out as their rows go in, not read
 * back at commit: on the real Kineto traces (one with operator rows per
 * step, their args listing kernels), a full verification reads every
 * table and finds it equal; an operator changed afterwards is found. */
static void
test_operators_checksum_as_inserted (void)
{
  const char *names[] = { "mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                          "benchmark_result_2869224_1695835535_trace.json.gz",
                          "sampled_rank-0.json.gz" };
  g_autofree char *tampered = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *rel = g_build_filename ("kineto", names[i], NULL);
      g_autofree char *src = tes_test_data_path (rel);
      g_autofree char *copy = tes_test_copy_to_tmp (src, names[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = import_file (copy);
      TesReportCounts counts;

      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_operators, >, 0);

      g_assert_true (tes_cache_verify (tes_report_get_cache_path (report), &error));
      g_assert_no_error (error);
      if (tampered == NULL)
        tampered = g_strdup (tes_report_get_cache_path (report));
    }

  {
    g_autoptr(GError) error = NULL;
    sqlite3 *db = NULL;

    g_assert_cmpint (sqlite3_open (tampered, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "UPDATE operators SET count = count + 1 WHERE id = 1", NULL, NULL, NULL),
                     ==, SQLITE_OK);
    sqlite3_close (db);
    g_assert_false (tes_cache_verify (tampered, &error));
    g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
  }
}

/* Instants and counter values too: their checksums are worked out as
 * they go in, and a trace with instants of every scope, with and without
 * args, and counter values of every sign (-0.0 comes back from SQLite as
 * 0.0) verifies in full; a changed value is found. */
static void
test_instants_counters_checksum_as_inserted (void)
{
  g_autofree char *path = tes_test_tmp_path ("marks.json");
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  const char *values[] = { "0", "-0.0", "1.5", "-3", "1e300", "7" };
  TesReportCounts counts;
  sqlite3 *db = NULL;

  for (guint i = 0; i < 600; i++)
    {
      g_string_append_printf (json, "%s{\"name\":\"op\",\"ph\":\"X\",\"ts\":%u,\"dur\":3,\"pid\":1,\"tid\":%u}",
                              i ? "," : "", 10 * i, i % 3);
      g_string_append_printf (json, ",{\"name\":\"mark\",\"ph\":\"i\",\"s\":\"%c\",\"ts\":%u,\"pid\":1,\"tid\":1%s}",
                              "gpt"[i % 3], 10 * i + 1, i % 2 ? ",\"args\":{\"step\":1}" : "");
      g_string_append_printf (json, ",{\"name\":\"mem\",\"ph\":\"C\",\"ts\":%u,\"pid\":1,\"args\":{\"bytes\":%s}}",
                              10 * i + 2, values[i % G_N_ELEMENTS (values)]);
    }
  g_string_append (json, "]");
  tes_test_write_file (path, json->str, json->len);

  report = import_file (path);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_instants, ==, 600);
  g_assert_cmpint (counts.n_counter_values, ==, 600);
  g_assert_true (tes_cache_verify (tes_report_get_cache_path (report), &error));
  g_assert_no_error (error);

  g_assert_cmpint (sqlite3_open (tes_report_get_cache_path (report), &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE counter_values SET value = 2 WHERE rowid = 3", NULL, NULL, NULL),
                   ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_false (tes_cache_verify (tes_report_get_cache_path (report), &error));
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/cache-commit/operators-checksum", test_operators_checksum_as_inserted);
  g_test_add_func ("/tes/cache-commit/instants-counters-checksum", test_instants_counters_checksum_as_inserted);
  g_test_add_func ("/tes/cache-commit/replace-old-cache", test_replace_old_cache);
  g_test_add_func ("/tes/cache-commit/syncs-on-the-side", test_syncs_on_the_side);
  g_test_add_func ("/tes/cache-commit/small-file-no-thread", test_small_file_no_thread);
  g_test_add_func ("/tes/cache-commit/failure-reported", test_failure_on_the_side_is_reported);
  g_test_add_func ("/tes/cache-commit/free-without-finish", test_free_without_finish);

  return g_test_run ();
}
