/* test-bad-input.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <zlib.h>

#include "fuzz/tes-fuzz.h"
#include "tes-cache-private.h"
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
  /* args that do not decode: the search and a slice's args refuse them */
  { "cache-args-offsets.sql", "slice chunk 1 of track 8: args" },
  { "cache-chunk-empty-data.sql", "slice chunk 4 of track 3" },
};

/* SQL functions for the crafting files: tes_records (data, n) gives a
 * chunk's n records as plain 40-byte TesSliceRecords, tes_pack_records
 * (records, n) packs them as the writer stores them, so that a file can
 * change one field of one slice. */
static void
sql_records (sqlite3_context *ctx,
             int              argc,
             sqlite3_value  **argv)
{
  guint n = (guint)sqlite3_value_int64 (argv[1]);
  g_autofree TesSliceRecord *recs = g_new0 (TesSliceRecord, MAX (n, 1));
  g_autofree char *why = NULL;

  if (!tes_cache_chunk_unpack_data (sqlite3_value_blob (argv[0]), (gsize)sqlite3_value_bytes (argv[0]), n, recs, &why))
    sqlite3_result_error (ctx, why, -1);
  else
    sqlite3_result_blob (ctx, recs, (int)(n * sizeof (TesSliceRecord)), SQLITE_TRANSIENT);
}

static void
sql_pack_records (sqlite3_context *ctx,
                  int              argc,
                  sqlite3_value  **argv)
{
  guint n = (guint)sqlite3_value_int64 (argv[1]);
  g_autoptr(GByteArray) packed = g_byte_array_new ();
  g_autofree TesSliceRecord *recs = g_new0 (TesSliceRecord, MAX (n, 1));

  if ((gsize)sqlite3_value_bytes (argv[0]) != n * sizeof (TesSliceRecord))
    {
      sqlite3_result_error (ctx, "tes_pack_records: not n records", -1);
      return;
    }
  memcpy (recs, sqlite3_value_blob (argv[0]), n * sizeof (TesSliceRecord));
  tes_cache_chunk_pack_data (recs, n, packed);
  sqlite3_result_blob (ctx, packed->data, (int)packed->len, SQLITE_TRANSIENT);
}

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
  sqlite3_create_function (db, "tes_records", 2, SQLITE_UTF8, NULL, sql_records, NULL, NULL);
  sqlite3_create_function (db, "tes_pack_records", 2, SQLITE_UTF8, NULL, sql_pack_records, NULL, NULL);
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql_name, sqlite3_errmsg (db));
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  /* as a crafted cache would: its checksums match, the value checks
   * behind them must catch it */
  tes_cache_reseal (db, &error);
  g_assert_no_error (error);
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

/* ---- The bad-input corpus ---------------------------------------------
 *
 * tests/data/bad/cases.txt lists one case a line: the file (in
 * tests/data/bad/, or "gen:NAME" for one written at test time, too large
 * to keep), the importer ("-": chosen by sniffing, as the window does),
 * and what must happen: "error TEXT", the import fails with a message
 * that starts with the file's path and holds TEXT (the line, byte or
 * record, and what is wrong), or "warn TEXT", it imports and one of the
 * report's warning.* info rows holds TEXT. Each case runs in a
 * subprocess: it must end within CASE_TIMEOUT and its peak memory must stay
 * within CASE_MEMORY_MB of what the process held before the import. */

#define CASE_TIMEOUT_S 60
#define CASE_MEMORY_MB 256

typedef struct
{
  char *file;
  char *importer;   /* NULL: sniffed */
  gboolean warn;
  char *expected;
} BadCase;

static void
bad_case_free (gpointer data)
{
  BadCase *c = data;

  g_free (c->file);
  g_free (c->importer);
  g_free (c->expected);
  g_free (c);
}

static GPtrArray *
read_cases (void)
{
  g_autofree char *path = tes_test_data_path ("bad/cases.txt");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *cases = g_ptr_array_new_with_free_func (bad_case_free);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = NULL;
      BadCase *c;

      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;

      f = g_regex_split_simple ("\\s+", lines[i], 0, 0);
      if (g_strv_length (f) < 4 || !(g_str_equal (f[2], "error") || g_str_equal (f[2], "warn")))
        g_error ("cases.txt:%u: expected 'FILE IMPORTER error|warn TEXT', got '%s'", i + 1, lines[i]);

      c = g_new0 (BadCase, 1);
      c->file = g_strdup (f[0]);
      c->importer = g_str_equal (f[1], "-") ? NULL : g_strdup (f[1]);
      c->warn = g_str_equal (f[2], "warn");
      /* the rest of the line, spaces as written */
      c->expected = g_strdup (strstr (lines[i] + strlen (f[0]) + strlen (f[1]), f[2]) + strlen (f[2]));
      g_strchug (c->expected);
      g_ptr_array_add (cases, c);
    }

  return cases;
}

/* A gzip stream of prefix and then total bytes of fill, built from one
 * compressed MiB repeated: each block is compressed after a full flush,
 * so it stands alone and the copies decompress to the same MiB. About
 * 1 KB of file per MiB of text. */
static void
write_gzip_bomb (const char *path,
                 const char *prefix,
                 char        fill,
                 gsize       total)
{
  enum { BLOCK = 1 << 20 };
  static const guint8 header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3 };
  static const guint8 final_block[2] = { 0x03, 0x00 };   /* empty, fixed codes, last */
  g_autofree guint8 *in = g_malloc (BLOCK);
  g_autofree guint8 *out = NULL;
  gsize prefix_len = strlen (prefix);
  gsize n_blocks = total / BLOCK;
  uLong crc, block_crc;
  guint32 size;
  guint8 trailer[8];
  gsize out_len;
  z_stream z = { 0 };
  FILE *file;

  memset (in, fill, BLOCK);
  g_assert_cmpint (deflateInit2 (&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  out_len = deflateBound (&z, BLOCK) + 64;
  out = g_malloc (out_len);
  g_assert_nonnull ((file = fopen (path, "wb")));
  g_assert_cmpuint (fwrite (header, 1, sizeof header, file), ==, sizeof header);

  for (guint k = 0; k < 2; k++)
    {
      z.next_in = k == 0 ? (Bytef *)prefix : in;
      z.avail_in = k == 0 ? prefix_len : BLOCK;
      z.next_out = out;
      z.avail_out = out_len;
      g_assert_cmpint (deflate (&z, Z_FULL_FLUSH), ==, Z_OK);
      g_assert_cmpuint (z.avail_in, ==, 0);
      g_assert_cmpuint (z.avail_out, >, 0);
      for (gsize i = 0; i < (k == 0 ? 1 : n_blocks); i++)
        g_assert_cmpuint (fwrite (out, 1, out_len - z.avail_out, file), ==, out_len - z.avail_out);
    }
  deflateEnd (&z);
  g_assert_cmpuint (fwrite (final_block, 1, sizeof final_block, file), ==, sizeof final_block);

  crc = crc32 (0, (const Bytef *)prefix, prefix_len);
  block_crc = crc32 (0, in, BLOCK);
  for (gsize i = 0; i < n_blocks; i++)
    crc = crc32_combine (crc, block_crc, BLOCK);
  size = (guint32)(prefix_len + n_blocks * BLOCK);
  for (guint i = 0; i < 4; i++)
    {
      trailer[i] = (crc >> (8 * i)) & 0xff;
      trailer[4 + i] = (size >> (8 * i)) & 0xff;
    }
  g_assert_cmpuint (fwrite (trailer, 1, sizeof trailer, file), ==, sizeof trailer);
  g_assert_cmpint (fclose (file), ==, 0);
}

/* head, then n bytes of fill, then tail */
static void
write_long (const char *path,
            const char *head,
            char        fill,
            gsize       n,
            const char *tail)
{
  GString *s = g_string_sized_new (n + 4096);

  g_string_append (s, head);
  for (gsize i = 0; i < n; i++)
    g_string_append_c (s, fill);
  g_string_append (s, tail);
  tes_test_write_file (path, s->str, (gssize)s->len);
  g_string_free (s, TRUE);
}

/* The cases too large to keep in the tree. */
static void
generate_case (const char *name,
               const char *path)
{
  if (g_str_equal (name, "chrome-deep-nesting.json"))
    write_long (path, "", '[', 100000, "");
  else if (g_str_equal (name, "chrome-deep-objects.json"))
    {
      GString *s = g_string_new ("[");

      for (guint i = 0; i < 100000; i++)
        g_string_append (s, "{\"args\":");
      tes_test_write_file (path, s->str, (gssize)s->len);
      g_string_free (s, TRUE);
    }
  else if (g_str_equal (name, "chrome-gzip-bomb.json.gz"))
    /* one string of 1 GiB */
    write_gzip_bomb (path, "[{\"name\":\"", 'a', (gsize)1 << 30);
  else if (g_str_equal (name, "chrome-gzip-space-bomb.json.gz"))
    /* 1 GiB of blanks between two events */
    write_gzip_bomb (path, "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},", ' ', (gsize)1 << 30);
  else if (g_str_equal (name, "chrome-long-line.json"))
    write_long (path, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1,\"name\":\"", 'n', 64 << 20, "\"}]\n");
  else if (g_str_equal (name, "chrome-long-braces.json"))
    /* one string of '}', each of which ends a slice of the stream yajl is
     * given unless it is seen to lie in a string: lexed again and again */
    write_long (path, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},\n{\"name\":\"", '}', 64 << 20, "\"}]\n");
  else if (g_str_equal (name, "trt-profile-huge-name.json"))
    /* a layer name of 64 MiB, past the reader's 1 MiB for a string */
    write_long (path, "[\n  { \"count\" : 1 }\n, { \"name\" : \"", 'n', 64 << 20,
                "\", \"timeMs\" : 1, \"averageMs\" : 1, \"percentage\" : 100 }\n]\n");
  else if (g_str_equal (name, "op-time-long-line.txt"))
    write_long (path, "0 CONV_2D 50.000%\n1 ", 'A', 64 << 20, " 50.000%\n");
  else if (g_str_equal (name, "img-info-long-line.txt"))
    write_long (path, "Offline IMG Version: ", 'v', 64 << 20, "\n");
  else if (g_str_equal (name, "poplar-report-long-line.txt"))
    write_long (path, "Target:\n  Number of IPUs:         1\n  ", 'T', 64 << 20, ":  8\n");
  else if (g_str_equal (name, "poplar-profile-deep.json"))
    write_long (path, "{\"graphProfile\":", '[', 100000, "");
  else if (g_str_equal (name, "poplar-profile-deep.cbor"))
    /* a map with one key, then 100,000 arrays of one item each */
    write_long (path, "\xa1\x6cgraphProfile", '\x81', 100000, "");
  else if (g_str_equal (name, "torq-runtime-long-line.csv"))
    write_long (path, "dispatch_name,invocation_id,action_id,timestamp_us,event\nd,0,-1,5000000,", 'E', 64 << 20, "\n");
  else
    g_error ("cases.txt: no generator for gen:%s", name);
}

static gsize
peak_rss_kb (void)
{
  struct rusage usage;

  g_assert_no_errno (getrusage (RUSAGE_SELF, &usage));
  return (gsize)usage.ru_maxrss;
}

static gboolean
has_warning (TesReport  *report,
             const char *expected)
{
  g_autoptr(GPtrArray) info = tes_report_get_info (report);

  for (guint i = 0; i < info->len; i++)
    {
      const TesInfoEntry *item = g_ptr_array_index (info, i);

      if (g_str_has_prefix (item->key, "warning") && strstr (item->value, expected) != NULL)
        return TRUE;
    }

  return FALSE;
}

/* In the subprocess: import the case and check what happened. */
static void
run_bad_case (const BadCase *c)
{
  g_autofree char *path = NULL;
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  gsize rss_before;

  if (g_str_has_prefix (c->file, "gen:"))
    {
      path = tes_test_tmp_path (c->file + 4);
      generate_case (c->file + 4, path);
    }
  else
    {
      g_autofree char *relative = g_build_filename ("bad", c->file, NULL);

      path = tes_test_copy_fixture (TES_TEST_OWN_DATA, relative);
    }

  rss_before = peak_rss_kb ();
  tes_report_loader_add_file (loader, path);
  tes_report_loader_set_format (loader, c->importer);
  tes_report_loader_set_flags (loader, TES_REPORT_OPEN_REIMPORT);
  if ((report = tes_report_loader_load (loader, NULL, &error)))
    g_assert_true (tes_fuzz_query_report (report, &error));

  if (c->warn)
    {
      if (error != NULL)
        g_error ("%s: expected a warned import, got '%s'", c->file, error->message);
      if (!has_warning (report, c->expected))
        g_error ("%s: imported without a warning holding '%s'", c->file, c->expected);
    }
  else
    {
      if (error == NULL)
        g_error ("%s: imported, expected an error holding '%s'", c->file, c->expected);
      if (!g_str_has_prefix (error->message, path) || strstr (error->message, c->expected) == NULL)
        g_error ("%s: error '%s' does not start with the path and hold '%s'", c->file, error->message,
                 c->expected);
    }

  g_clear_object (&report);
  g_test_message ("%s: peak RSS grew by %" G_GSIZE_FORMAT " KB", c->file, peak_rss_kb () - rss_before);
  if (peak_rss_kb () - rss_before > CASE_MEMORY_MB * 1024)
    g_error ("%s: peak RSS grew by %" G_GSIZE_FORMAT " MB, more than %d MB", c->file,
             (peak_rss_kb () - rss_before) / 1024, CASE_MEMORY_MB);
  if (g_str_has_prefix (c->file, "gen:"))
    g_unlink (path);
}

static void
test_bad_case (gconstpointer data)
{
  if (g_test_subprocess ())
    {
      run_bad_case (data);
      return;
    }

  g_test_trap_subprocess (NULL, CASE_TIMEOUT_S * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The corpus covers every importer. */
static void
test_corpus_covers_importers (void)
{
  g_autoptr(GPtrArray) cases = read_cases ();
  GPtrArray *all = tes_importer_registry_get_all ();

  g_assert_cmpuint (cases->len, >=, 40);
  for (guint i = 0; i < all->len; i++)
    {
      const char *name = tes_importer_get_name (g_ptr_array_index (all, i));
      guint n = 0;

      for (guint j = 0; j < cases->len; j++)
        n += g_strcmp0 (((BadCase *)g_ptr_array_index (cases, j))->importer, name) == 0;
      if (n == 0)
        g_error ("tests/data/bad/cases.txt has no case for the %s importer", name);
    }
}

/* ---- Only regular files are read --------------------------------------
 *
 * A FIFO, a device, a socket and a folder are refused with a message that
 * names them before anything could block: through the loader (sniffing,
 * and with a format named), tes_report_import() and tessera-cli. Each in a
 * subprocess, so that a hang fails the test instead of stopping it. */

typedef struct
{
  const char *kind;
  const char *what;   /* as the message names it */
} SpecialFile;

static const SpecialFile special_files[] = {
  { "fifo", "a FIFO" },
  { "device", "a character device" },
  { "socket", "a socket" },
  { "folder", "a folder" },
};

static char *
make_special_file (const char *kind,
                   int        *sock)
{
  g_autofree char *path = NULL;

  *sock = -1;
  if (g_str_equal (kind, "device"))
    return g_strdup ("/dev/zero");

  path = tes_test_tmp_path (kind);
  if (g_str_equal (kind, "fifo"))
    g_assert_no_errno (mkfifo (path, 0600));
  else if (g_str_equal (kind, "folder"))
    g_assert_no_errno (g_mkdir (path, 0700));
  else
    {
      struct sockaddr_un addr = { .sun_family = AF_UNIX };

      g_assert_cmpuint (strlen (path), <, sizeof addr.sun_path);
      strcpy (addr.sun_path, path);
      g_assert_no_errno ((*sock = socket (AF_UNIX, SOCK_STREAM, 0)) >= 0 ? 0 : -1);
      g_assert_no_errno (bind (*sock, (struct sockaddr *)&addr, sizeof addr));
      g_assert_no_errno (listen (*sock, 1));
    }

  return g_steal_pointer (&path);
}

static void
assert_refused (const GError      *error,
                const char        *path,
                const SpecialFile *f,
                const char        *how)
{
  g_autofree char *expected = g_strdup_printf ("%s: not a regular file (%s)", path, f->what);

  if (error == NULL)
    g_error ("%s %s: no error", how, f->kind);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  tes_test_assert_contains (error->message, expected);
}

static void
check_special_file (const SpecialFile *f)
{
  TesImporter *chrome = tes_importer_registry_lookup ("chrome-json");
  int sock;
  g_autofree char *path = make_special_file (f->kind, &sock);
  g_autofree char *expected = g_strdup_printf ("%s: not a regular file (%s)", path, f->what);
  g_auto(TesCliResult) r = { 0 };
  /* a folder given to the loader (the window, the command line) stands
   * for the traces in it: an empty one has none */
  gboolean folder = g_str_equal (f->kind, "folder");

  if (folder)
    {
      g_free (expected);
      expected = g_strdup_printf ("%s: no trace in the folder (of its 0 files, no importer recognises any)", path);
    }

  for (guint with_format = 0; with_format < 2; with_format++)
    {
      g_autoptr(TesReportLoader) loader = tes_report_loader_new ();
      g_autoptr(TesReport) report = NULL;
      g_autoptr(GError) error = NULL;

      tes_report_loader_add_file (loader, path);
      tes_report_loader_set_format (loader, with_format ? "chrome-json" : NULL);
      report = tes_report_loader_load (loader, NULL, &error);
      g_assert_null (report);
      if (folder)
        {
          g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_EMPTY);
          g_assert_cmpstr (error->message, ==, expected);
        }
      else
        assert_refused (error, path, f, "the loader");
    }

  {
    g_autoptr(TesReport) report = NULL;
    g_autoptr(GError) error = NULL;

    report = tes_report_import (path, chrome, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
    g_assert_null (report);
    assert_refused (error, path, f, "tes_report_import");
  }

  tes_test_run_cli (&r, "info", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, expected);
  tes_test_run_cli (&r, "summary", "--format", "sigmastar-op-time", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  tes_test_assert_contains (r.err, expected);

  if (sock >= 0)
    close (sock);
}

static void
test_special_file (gconstpointer data)
{
  if (g_test_subprocess ())
    {
      check_special_file (data);
      return;
    }

  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) cases = NULL;
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/chrome-instants-only", test_chrome_instants_only);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/chrome-slice-end-overflow", test_chrome_slice_end_overflow);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/poplar-maximum-without-value", test_poplar_maximum_without_value);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/damaged-caches", test_damaged_caches);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/bad-input/corpus-covers-importers", test_corpus_covers_importers);

  /* one test per case and per kind of file, so that each has its subprocess */
  if (!tes_test_is_conformance ())
    {
      cases = read_cases ();
      for (guint i = 0; i < cases->len; i++)
        {
          const BadCase *c = g_ptr_array_index (cases, i);
          g_autofree char *name = g_strdup_printf ("/tes/bad-input/corpus/%s", c->file);

          g_test_add_data_func (name, c, test_bad_case);
        }
      for (guint i = 0; i < G_N_ELEMENTS (special_files); i++)
        {
          g_autofree char *name = g_strdup_printf ("/tes/bad-input/not-a-file/%s", special_files[i].kind);

          g_test_add_data_func (name, &special_files[i], test_special_file);
        }
    }

  return g_test_run ();
}
