/* test-cache.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tes-cache-private.h"
#include "tes-cache-writer-private.h"
#include "tes-report.h"
#include "tes-source-hash.h"
#include "tes-test-util.h"

static gboolean
is_reusable (const char      *cache,
             TesSourceStamp  *stamp,
             const char      *importer,
             guint            version,
             GError         **error)
{
  return tes_cache_is_reusable (cache, &stamp, &importer, &version, 1, NULL, error);
}

/* Writes one of everything the schema holds, reads it back through
 * TesReport and plain SQL, and compares. */
static void
test_schema_roundtrip (void)
{
  g_autofree char *src = tes_test_tmp_path ("roundtrip.src");
  g_autofree char *cache = tes_test_tmp_path ("roundtrip.tessera");
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(TesSourceStamp) stamp = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GPtrArray) info = NULL;
  g_autofree char *args = NULL;
  TesOperatorRow op = TES_OPERATOR_ROW_INIT;
  TesReportCounts counts;
  const TesTrack *track;
  const TesClock *clock;
  gint64 source, ns_clock, cyc_clock, dev, thread, counter, run, tile;
  guint32 conv, matmul, cat;
  guint32 cycles[3] = { 100, 200, 300 };
  guint8 states[3] = { TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_SYNC };
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 t0, t1;

  tes_test_write_file (src, "source bytes", -1);
  stamp = tes_source_stamp_new (src, NULL, &error);
  g_assert_no_error (error);

  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (tes_cache_writer_get_temp_path (writer), G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));

  source = tes_cache_writer_add_source (writer, stamp, "test", 7, "Test format");
  ns_clock = tes_cache_writer_add_clock (writer, "host", TES_TIME_UNIT_NS, 1000000000);
  cyc_clock = tes_cache_writer_add_clock (writer, "ipu", TES_TIME_UNIT_CYCLES, 900000000);
  dev = tes_cache_writer_add_track (writer, 0, source, ns_clock, TES_TRACK_DEVICE, "Device 0", 0, "pid:1");
  thread = tes_cache_writer_add_track (writer, dev, source, ns_clock, TES_TRACK_THREAD, "core 0", 1, "tid:2");
  counter = tes_cache_writer_add_track (writer, dev, source, ns_clock, TES_TRACK_COUNTER, "mem.bytes", 2, NULL);
  g_assert_cmpint (dev, ==, 1);
  g_assert_cmpint (thread, ==, 2);

  conv = tes_cache_writer_intern (writer, "Conv2D");
  matmul = tes_cache_writer_intern (writer, "MatMul");
  cat = tes_cache_writer_intern (writer, "op");
  g_assert_cmpuint (tes_cache_writer_intern (writer, "Conv2D"), ==, conv);

  /* Inserted out of order: the cache sorts and nests them. */
  tes_cache_writer_add_slice (writer, thread, 150, 20, matmul, cat, 0, "{\"k\":2}", -1);
  tes_cache_writer_add_slice (writer, thread, 100, 100, conv, cat, 0, "{\"k\":1}", -1);
  tes_cache_writer_add_slice (writer, thread, 120, 10, matmul, cat, TES_SLICE_FLAG_UNCLOSED, NULL, 0);
  tes_cache_writer_add_slice (writer, thread, 300, -5, conv, cat, 0, NULL, 0);
  tes_cache_writer_add_instant (writer, thread, 50, conv, cat, TES_INSTANT_SCOPE_THREAD, "{\"i\":1}");
  tes_cache_writer_add_counter_value (writer, counter, 90, 1.5);
  tes_cache_writer_add_counter_value (writer, counter, 400, 2.5);
  tes_cache_writer_add_flow (writer, conv, cat, thread, 100, thread, 150);
  run = tes_cache_writer_add_run (writer, "run 1", cyc_clock, 0, 900);
  op.source_id = source;
  op.op_index = 3;
  op.name = "3 CONV_2D";
  op.type = "CONV_2D";
  op.share = 12.5;
  op.total = 1000;
  op.clock_id = cyc_clock;
  tes_cache_writer_add_operator (writer, &op);
  tile = tes_cache_writer_add_tile (writer, 0, 5, 638976, 0);
  g_assert_cmpint (tes_cache_writer_add_tile (writer, 0, 5, 0, thread), ==, tile);
  tes_cache_writer_add_tile_memory (writer, tile, "Vertex Code", 1000);
  tes_cache_writer_add_tile_memory (writer, tile, "Vertex Code", 24);
  tes_cache_writer_add_bsp_step (writer, run, 0, cyc_clock, 0, 600, "step 0", 3, cycles, states);
  tes_cache_writer_set_info (writer, source, "target", "IPU-M2000");

  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_REGULAR));

  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_sources, ==, 1);
  g_assert_cmpint (counts.n_clocks, ==, 2);
  g_assert_cmpint (counts.n_tracks, ==, 3);
  g_assert_cmpint (counts.n_slices, ==, 4);
  g_assert_cmpint (counts.n_instants, ==, 1);
  g_assert_cmpint (counts.n_counter_tracks, ==, 1);
  g_assert_cmpint (counts.n_counter_values, ==, 2);
  g_assert_cmpint (counts.n_flows, ==, 1);
  g_assert_cmpint (counts.n_runs, ==, 1);
  g_assert_cmpint (counts.n_operators, ==, 1);
  g_assert_cmpint (counts.n_tiles, ==, 1);
  g_assert_cmpint (counts.n_bsp_steps, ==, 1);
  g_assert_cmpint (counts.n_info, ==, 1);
  g_assert_cmpstr (tes_report_get_importer_name (report), ==, "test");
  g_assert_cmpuint (tes_report_get_importer_version (report), ==, 7);
  g_assert_cmpstr (tes_report_get_format (report), ==, "Test format");

  clock = tes_report_get_clock (report, cyc_clock);
  g_assert_cmpstr (clock->name, ==, "ipu");
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 900000000);
  /* 900 cycles at 900 MHz are exactly 1000 ns */
  g_assert_cmpint (tes_report_convert_time (report, cyc_clock, ns_clock, 900), ==, 1000);
  g_assert_cmpint (tes_report_convert_time (report, ns_clock, cyc_clock, 1000), ==, 900);
  g_assert_cmpint (tes_report_convert_time (report, cyc_clock, 0, 9), ==, 10);

  track = tes_report_get_track (report, thread);
  g_assert_cmpstr (track->name, ==, "core 0");
  g_assert_cmpint (track->parent_id, ==, dev);
  g_assert_cmpint (track->kind, ==, TES_TRACK_THREAD);
  g_assert_cmpint (track->n_slices, ==, 4);
  g_assert_cmpuint (track->max_depth, ==, 1);
  g_assert_true (track->has_extent);
  g_assert_cmpint (track->t_min, ==, 50);    /* the instant */
  g_assert_cmpint (track->t_max, ==, 300);
  track = tes_report_get_track (report, counter);
  g_assert_cmpint (track->t_min, ==, 90);
  g_assert_cmpint (track->t_max, ==, 400);
  g_assert_true (tes_report_get_span (report, ns_clock, &t0, &t1));
  g_assert_cmpint (t0, ==, 50);
  g_assert_cmpint (t1, ==, 400);
  /* no track runs on the cycles clock */
  g_assert_false (tes_report_get_span (report, cyc_clock, &t0, &t1));
  g_assert_true (tes_report_get_span (report, 0, &t0, &t1));
  g_assert_cmpint (t0, ==, 50);

  slices = tes_report_get_slices (report, thread, G_MININT64, G_MAXINT64, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (slices->len, ==, 4);
  {
    const TesSlice *s = (const TesSlice *)(gpointer)slices->data;

    /* Conv2D [100,200) encloses both MatMuls, which are siblings. */
    g_assert_cmpint (s[0].start, ==, 100);
    g_assert_cmpstr (tes_report_get_string (report, s[0].name), ==, "Conv2D");
    g_assert_cmpint (s[0].depth, ==, 0);
    g_assert_cmpint (s[0].parent, ==, -1);
    g_assert_cmpint (s[0].self_dur, ==, 100 - 10 - 20);
    g_assert_cmpint (s[1].start, ==, 120);
    g_assert_cmpint (s[1].depth, ==, 1);
    g_assert_cmpint (s[1].parent, ==, 0);
    g_assert_cmpint (s[1].flags, ==, TES_SLICE_FLAG_UNCLOSED);
    g_assert_cmpint (s[2].start, ==, 150);
    g_assert_cmpint (s[2].depth, ==, 1);
    g_assert_cmpint (s[2].parent, ==, 0);
    g_assert_cmpint (s[3].start, ==, 300);
    g_assert_cmpint (s[3].dur, ==, 0);
    g_assert_cmpint (s[3].flags, ==, TES_SLICE_FLAG_CLAMPED);
    g_assert_cmpuint (s[3].index, ==, 3);
  }

  args = tes_report_get_slice_args (report, thread, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args, ==, "{\"k\":1}");
  g_clear_pointer (&args, g_free);
  args = tes_report_get_slice_args (report, thread, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args, ==, "{\"k\":2}");
  g_clear_pointer (&args, g_free);
  args = tes_report_get_slice_args (report, thread, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (args, ==, "");
  g_clear_pointer (&args, g_free);
  args = tes_report_get_slice_args (report, thread, 4, &error);
  g_assert_error (error, TES_REPORT_ERROR, TES_REPORT_ERROR_NOT_FOUND);
  g_assert_null (args);
  g_clear_error (&error);

  info = tes_report_get_info (report);
  g_assert_cmpuint (info->len, ==, 1);
  g_assert_cmpstr (((TesInfoEntry *)g_ptr_array_index (info, 0))->key, ==, "target");
  g_assert_cmpstr (((TesInfoEntry *)g_ptr_array_index (info, 0))->value, ==, "IPU-M2000");

  {
    g_autoptr(GArray) tiles = tes_report_get_tiles (report, &error);
    g_autoptr(GArray) memory = tes_report_get_tile_memory (report, tile, &error);
    const TesTile *t;
    const TesTileMemory *m;

    g_assert_no_error (error);
    g_assert_cmpuint (tiles->len, ==, 1);
    t = &g_array_index (tiles, TesTile, 0);
    g_assert_cmpint (t->id, ==, tile);
    g_assert_cmpint (t->ipu, ==, 0);
    g_assert_cmpint (t->tile, ==, 5);
    g_assert_cmpint (t->memory_limit, ==, 638976);
    g_assert_cmpint (t->track_id, ==, thread);
    g_assert_cmpint (t->total_bytes, ==, 1024);
    g_assert_cmpuint (memory->len, ==, 1);
    m = &g_array_index (memory, TesTileMemory, 0);
    g_assert_cmpstr (tes_report_get_string (report, m->category), ==, "Vertex Code");
    g_assert_cmpint (m->bytes, ==, 1024);
  }

  {
    g_autoptr(GArray) runs = tes_report_get_runs (report, &error);
    g_autoptr(GPtrArray) steps = tes_report_get_bsp_steps (report, run, &error);
    const TesBspStep *step;

    g_assert_no_error (error);
    g_assert_cmpuint (runs->len, ==, 1);
    g_assert_cmpstr (g_array_index (runs, TesRun, 0).name, ==, "run 1");
    g_assert_cmpint (g_array_index (runs, TesRun, 0).clock_id, ==, cyc_clock);
    g_assert_cmpint (g_array_index (runs, TesRun, 0).end, ==, 900);
    g_assert_cmpuint (steps->len, ==, 1);
    step = g_ptr_array_index (steps, 0);
    g_assert_cmpint (step->run_id, ==, run);
    g_assert_cmpint (step->dur, ==, 600);
    g_assert_cmpstr (tes_report_get_string (report, step->name), ==, "step 0");
    g_assert_cmpuint (step->n_tiles, ==, 3);
    g_assert_cmpmem (step->tile_cycles, 3 * sizeof (guint32), cycles, sizeof cycles);
    g_assert_cmpmem (step->tile_states, 3, states, sizeof states);
  }

  /* The same through plain SQL, and the tables without an accessor yet. */
  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT t.ipu, t.tile, t.memory_limit, t.track_id, s.value, m.bytes "
                                       "FROM tiles t JOIN tile_memory m ON m.tile_id = t.id "
                                       "JOIN strings s ON s.id = m.category",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 1), ==, 5);
  g_assert_cmpint (sqlite3_column_int64 (stmt, 2), ==, 638976);
  g_assert_cmpint (sqlite3_column_int64 (stmt, 3), ==, thread);
  g_assert_cmpstr ((const char *)sqlite3_column_text (stmt, 4), ==, "Vertex Code");
  g_assert_cmpint (sqlite3_column_int64 (stmt, 5), ==, 1024);
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT n_tiles, tile_cycles, tile_states, dur FROM bsp_steps",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, 3);
  g_assert_cmpmem (sqlite3_column_blob (stmt, 1), sqlite3_column_bytes (stmt, 1), cycles, sizeof cycles);
  g_assert_cmpmem (sqlite3_column_blob (stmt, 2), sqlite3_column_bytes (stmt, 2), states, sizeof states);
  g_assert_cmpint (sqlite3_column_int64 (stmt, 3), ==, 600);
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, TES_CACHE_SCHEMA_VERSION);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  g_assert_finalize_object (g_steal_pointer (&report));
}

/* Importers of files opened together ask for their clocks and record
 * their warnings independently; the writer makes one clock of identical
 * requests and numbers warnings across the report. */
static void
test_shared_clocks_and_warnings (void)
{
  g_autofree char *cache = tes_test_tmp_path ("shared.tessera");
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) info = NULL;
  g_autoptr(GError) error = NULL;
  gint64 a, b, c, d;

  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  a = tes_cache_writer_add_clock (writer, "host", TES_TIME_UNIT_NS, 1000000000);
  b = tes_cache_writer_add_clock (writer, "host", TES_TIME_UNIT_NS, 1000000000);
  c = tes_cache_writer_add_clock (writer, "host", TES_TIME_UNIT_US, 1000000);
  d = tes_cache_writer_add_clock (writer, "ipu", TES_TIME_UNIT_CYCLES, 1330000000);
  g_assert_cmpint (a, ==, 1);
  g_assert_cmpint (b, ==, a);
  g_assert_cmpint (c, ==, 2);
  g_assert_cmpint (d, ==, 3);
  tes_cache_writer_add_warning (writer, 0, "first");
  tes_cache_writer_add_warning (writer, 0, "second");
  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);

  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tes_report_get_n_clocks (report), ==, 3);
  info = tes_report_get_info (report);
  g_assert_cmpuint (info->len, ==, 2);
  g_assert_cmpstr (((TesInfoEntry *)g_ptr_array_index (info, 1))->key, ==, "warning.2");
  g_assert_cmpstr (((TesInfoEntry *)g_ptr_array_index (info, 1))->value, ==, "second");
}

static void
test_path_for_source (void)
{
  g_autofree char *src = tes_test_tmp_path ("beside.txt");
  g_autofree char *ro_dir = tes_test_tmp_path ("read-only");
  g_autofree char *ro_src = g_build_filename (ro_dir, "report.txt", NULL);
  g_autofree char *cache = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *ro_cache = NULL;
  g_autofree char *cache_root = NULL;

  tes_test_write_file (src, "x", -1);
  cache = tes_cache_path_for_source (src);
  expected = g_strconcat (src, ".tessera", NULL);
  g_assert_cmpstr (cache, ==, expected);

  /* A folder without write bits gets no cache, even for root. */
  g_assert_no_errno (g_mkdir_with_parents (ro_dir, 0755));
  tes_test_write_file (ro_src, "x", -1);
  g_assert_no_errno (g_chmod (ro_dir, 0555));
  ro_cache = tes_cache_path_for_source (ro_src);
  cache_root = g_build_filename (g_get_user_cache_dir (), "tessera", NULL);
  g_assert_true (g_str_has_prefix (ro_cache, cache_root));
  g_assert_true (g_str_has_suffix (ro_cache, "-report.txt.tessera"));
  g_assert_no_errno (g_chmod (ro_dir, 0755));
}

static void
test_fingerprint (void)
{
  g_autofree char *a = tes_test_tmp_path ("fp-a");
  g_autofree char *b = tes_test_tmp_path ("fp-b");
  g_autoptr(GError) error = NULL;
  g_autofree char *fa = NULL;
  g_autofree char *fb = NULL;
  g_autofree char *fa2 = NULL;
  g_autofree char *big = g_malloc (100003);

  for (guint i = 0; i < 100003; i++)
    big[i] = (char)(i * 7 + (i >> 8));
  tes_test_write_file (a, big, 100003);
  big[50001] ^= 1;   /* one bit in the middle */
  tes_test_write_file (b, big, 100003);

  fa = tes_cache_fingerprint_file (a, NULL, &error);
  g_assert_no_error (error);
  fb = tes_cache_fingerprint_file (b, NULL, &error);
  g_assert_no_error (error);
  fa2 = tes_cache_fingerprint_file (a, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (strlen (fa), ==, 16);
  g_assert_cmpstr (fa, ==, fa2);
  g_assert_cmpstr (fa, !=, fb);
  /* every length tail path gives distinct results */
  for (gsize len = 0; len < 70; len++)
    {
      g_autofree char *x = tes_cache_fingerprint_bytes ((const guint8 *)big, len);
      g_autofree char *y = tes_cache_fingerprint_bytes ((const guint8 *)big, len + 1);
      g_assert_cmpstr (x, !=, y);
    }

  g_assert_null (tes_cache_fingerprint_file ("/nonexistent/tessera", NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* tests/source_fingerprint.py's fingerprint of the file at path */
static char *
python_fingerprint (const char *path)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "source_fingerprint.py", NULL);
  const char *argv[] = { g_getenv ("PYTHON3"), script, path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  g_assert_nonnull (argv[0]);
  if (!tes_test_run (argv, &out, &err, &status))
    g_error ("source_fingerprint.py failed (%d): %s", status, err);

  return g_strstrip (g_steal_pointer (&out));
}

/* The fingerprint of a file of three blocks and a bit is what its
 * definition gives, computed apart (tests/source_fingerprint.py), whether
 * the file is read whole or its blocks are handed over in any order by
 * readers that read them anyway, the rest read by the hash itself. */
static void
test_fingerprint_blocks (void)
{
  const gsize len = 3 * TES_SOURCE_HASH_BLOCK + 4099;
  g_autofree char *path = tes_test_tmp_path ("fp-blocks");
  g_autofree guint8 *data = g_malloc (len);
  g_autoptr(TesSourceHash) hash = tes_source_hash_new (len);
  g_autoptr(GError) error = NULL;
  g_autofree char *whole = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *pieced = NULL;
  g_autofree char *from_bytes = NULL;
  guint reads;
  guint32 x = 2463534242u;

  for (gsize i = 0; i < len; i++)
    {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      data[i] = (guint8)x;
    }
  tes_test_write_file (path, (const char *)data, (gssize)len);

  expected = python_fingerprint (path);
  whole = tes_cache_fingerprint_file (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (whole, ==, expected);
  from_bytes = tes_cache_fingerprint_bytes (data, len);
  g_assert_cmpstr (from_bytes, ==, expected);

  /* only a read that starts where a block does and holds all of it
   * counts; the last block is shorter */
  g_assert_false (tes_source_hash_add_block (hash, 17, data + 17, TES_SOURCE_HASH_BLOCK));
  g_assert_false (tes_source_hash_add_block (hash, TES_SOURCE_HASH_BLOCK, data + TES_SOURCE_HASH_BLOCK, 4096));
  g_assert_false (tes_source_hash_add_block (hash, 4 * TES_SOURCE_HASH_BLOCK, data, 1));
  g_assert_true (tes_source_hash_add_block (hash, 3 * TES_SOURCE_HASH_BLOCK, data + 3 * TES_SOURCE_HASH_BLOCK, 4099));
  g_assert_true (tes_source_hash_add_block (hash, 0, data, TES_SOURCE_HASH_BLOCK));
  /* a block handed over twice is hashed once, the first time */
  data[5] ^= 1;
  g_assert_true (tes_source_hash_add_block (hash, 0, data, TES_SOURCE_HASH_BLOCK));
  data[5] ^= 1;

  reads = tes_cache_get_fingerprint_reads ();
  g_assert_true (tes_source_hash_fill (hash, path, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tes_source_hash_get_n_filled (hash), ==, 2);
  g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);
  pieced = tes_source_hash_finish (hash);
  g_assert_cmpstr (pieced, ==, expected);

  /* nothing left to read: the file is not opened */
  g_assert_true (tes_source_hash_fill (hash, "/nonexistent/tessera", NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tes_cache_get_fingerprint_reads (), ==, reads + 1);

  /* one bit anywhere changes it */
  data[len - 1] ^= 1;
  g_clear_pointer (&from_bytes, g_free);
  from_bytes = tes_cache_fingerprint_bytes (data, len);
  g_assert_cmpstr (from_bytes, !=, expected);
}

/* A writer dropped before commit leaves nothing behind. */
static void
test_abandoned_writer (void)
{
  g_autofree char *cache = tes_test_tmp_path ("abandoned.tessera");
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *temp = NULL;

  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  temp = g_strdup (tes_cache_writer_get_temp_path (writer));
  tes_cache_writer_add_clock (writer, "c", TES_TIME_UNIT_NS, 1000000000);
  g_assert_true (g_file_test (temp, G_FILE_TEST_EXISTS));

  g_clear_object (&writer);
  g_assert_false (g_file_test (temp, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
}

/* A writer killed in the middle of an import (SIGKILL: no cleanup runs)
 * leaves its temp file but never a cache that is reused; the next writer
 * removes the orphan. */
static void
test_killed_import (void)
{
  g_autofree char *src = tes_test_tmp_path ("killed.src");
  g_autofree char *cache = tes_test_tmp_path ("killed.src.tessera");
  g_autofree char *dir = g_path_get_dirname (cache);
  g_autoptr(TesSourceStamp) stamp = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesCacheWriter) writer = NULL;
  int pipefd[2];
  pid_t pid;
  char c;
  int status;
  guint temps = 0;

  tes_test_write_file (src, "data", -1);
  stamp = tes_source_stamp_new (src, NULL, &error);
  g_assert_no_error (error);
  g_assert_no_errno (pipe (pipefd));

  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      TesCacheWriter *w = tes_cache_writer_new (cache, NULL);
      gint64 clock = tes_cache_writer_add_clock (w, "c", TES_TIME_UNIT_NS, 1000000000);
      gint64 track = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, "t", 0, NULL);

      tes_cache_writer_add_source (w, stamp, "test", 1, "x");
      for (int i = 0; i < 1000; i++)
        tes_cache_writer_add_slice (w, track, i, 1, 0, 0, 0, NULL, 0);
      if (write (pipefd[1], "r", 1) != 1)
        _exit (2);
      for (;;)
        pause ();
    }

  close (pipefd[1]);
  g_assert_cmpint (read (pipefd[0], &c, 1), ==, 1);
  close (pipefd[0]);
  kill (pid, SIGKILL);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));

  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    while ((name = g_dir_read_name (d)))
      temps += g_str_has_prefix (name, "killed.src.tessera.tmp-");
  }
  g_assert_cmpuint (temps, ==, 1);

  /* The next open sweeps the dead writer's temp file away, whether it
   * imports or not. */
  g_assert_false (is_reusable (cache, stamp, "test", 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  temps = 0;
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    g_autofree char *dead = g_strdup_printf ("killed.src.tessera.tmp-%d-", (int)pid);
    while ((name = g_dir_read_name (d)))
      temps += g_str_has_prefix (name, dead);
  }
  g_assert_cmpuint (temps, ==, 0);
}

/* A cache whose writer never marked it complete, or with another schema
 * version, is not reusable. */
static void
test_reject_incomplete (void)
{
  g_autofree char *src = tes_test_tmp_path ("inc.src");
  g_autofree char *cache = tes_test_tmp_path ("inc.src.tessera");
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(TesSourceStamp) stamp = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  tes_test_write_file (src, "data", -1);
  stamp = tes_source_stamp_new (src, NULL, &error);
  g_assert_no_error (error);

  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  tes_cache_writer_add_source (writer, stamp, "test", 1, "x");
  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (is_reusable (cache, stamp, "test", 1, &error));
  g_assert_no_error (error);

  /* another importer version: stale */
  g_assert_false (is_reusable (cache, stamp, "test", 2, &error));
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_STALE);
  g_clear_error (&error);

  g_assert_cmpint (sqlite3_open (cache, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 999", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_false (is_reusable (cache, stamp, "test", 1, &error));
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
  g_clear_error (&error);

  g_assert_cmpint (sqlite3_open (cache, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = " G_STRINGIFY (TES_CACHE_SCHEMA_VERSION) ";"
                                     "DELETE FROM meta WHERE key = 'complete'", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  g_assert_false (is_reusable (cache, stamp, "test", 1, &error));
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_INCOMPLETE);
  g_clear_error (&error);

  /* garbage where the cache should be */
  tes_test_write_file (cache, "this is not sqlite", -1);
  g_assert_false (is_reusable (cache, stamp, "test", 1, &error));
  g_assert_nonnull (error);
}

/* ---- slices stored as they fill ----------------------------------------- */

#define STREAM_CHUNK TES_CACHE_CHUNK_SLICES

/* A span and its nested children, in start order (the parent, maybe an
 * instant at its start, then the children after it). */
static void
add_tree (TesCacheWriter *w,
          gint64          track,
          GRand          *rnd,
          const guint32  *names,
          gint64          start,
          gint64          dur,
          guint           depth,
          guint          *n)
{
  g_autofree char *args = g_strdup_printf ("{\"n\":%u}", *n);
  gint64 t = start + 1;

  tes_cache_writer_add_slice (w, track, start, dur, names[*n % 5], names[5], (*n % 97 == 0) ? TES_SLICE_FLAG_UNCLOSED : 0,
                              (*n % 3 == 0) ? args : NULL, -1);
  (*n)++;
  if (depth >= 3 || dur < 40)
    return;
  if (g_rand_boolean (rnd))
    {
      tes_cache_writer_add_slice (w, track, start, 0, names[0], names[5], 0, NULL, 0);
      (*n)++;
    }
  while (t + 20 < start + dur && g_rand_int_range (rnd, 0, 4) > 0)
    {
      gint64 d = g_rand_int_range (rnd, 1, (gint32)MIN (start + dur - t, 1 << 20));

      add_tree (w, track, rnd, names, t, d, depth + 1, n);
      t += d + g_rand_int_range (rnd, 0, 3);
    }
}

/* A writer of cache for slices streamed as the tests below give them
 * (threshold: the writer's flush threshold), with a source, a clock and
 * the names op0..op4 and "cat" in names. */
static TesCacheWriter *
stream_writer_new (const char *cache,
                   guint       threshold,
                   gint64     *clock,
                   guint32    *names)
{
  g_autofree char *src = g_strconcat (cache, ".src", NULL);
  g_autoptr(TesSourceStamp) stamp = NULL;
  g_autoptr(GError) error = NULL;
  TesCacheWriter *w;

  tes_test_write_file (src, "stream", -1);
  stamp = tes_source_stamp_new (src, NULL, &error);
  g_assert_no_error (error);

  tes_cache_writer_set_default_flush_threshold (threshold);
  w = tes_cache_writer_new (cache, &error);
  tes_cache_writer_set_default_flush_threshold (TES_CACHE_WRITER_FLUSH_THRESHOLD);
  g_assert_no_error (error);

  tes_cache_writer_add_source (w, stamp, "test", 1, "x");
  *clock = tes_cache_writer_add_clock (w, "c", TES_TIME_UNIT_NS, 1000000000);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *op = g_strdup_printf ("op%u", i);

      names[i] = tes_cache_writer_intern (w, op);
    }
  names[5] = tes_cache_writer_intern (w, "cat");

  return w;
}

/* Tracks for every path through the writer: one under a root span
 * enclosing all of it (its self time changes long after its chunk is
 * stored), one that turns out of order after chunks were stored, one
 * closed by its importer, a small unsorted one. */
static char *
write_streamable (const char *name,
                  guint       threshold,
                  guint       n_per_track)
{
  char *cache = tes_test_tmp_path (name);
  g_autoptr(TesCacheWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rnd = g_rand_new_with_seed (7);
  guint32 names[6];
  gint64 clock, rooted, late, closed, small;
  gint64 t_late = 1000, t_closed = 0;
  guint n = 0;

  w = stream_writer_new (cache, threshold, &clock, names);
  rooted = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, "rooted", 0, NULL);
  late = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, "late", 1, NULL);
  closed = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, "closed", 2, NULL);
  small = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, "small", 3, NULL);

  /* the root, then trees inside it, interleaved with the other tracks */
  tes_cache_writer_add_slice (w, rooted, 0, G_GINT64_CONSTANT (1) << 50, names[4], names[5], 0, "{\"root\":1}", -1);
  for (gint64 t = 10; n < n_per_track; )
    {
      gint64 d = g_rand_int_range (rnd, 100, 1 << 22);
      guint before = n;

      add_tree (w, rooted, rnd, names, t, d, 1, &n);
      t += d + g_rand_int_range (rnd, 0, 1000);

      for (guint k = before; k < n; k++)
        {
          tes_cache_writer_add_slice (w, late, t_late, 7, names[1], names[5], 0, (k % 2) ? "{\"l\":1}" : NULL, -1);
          t_late += 10;
          tes_cache_writer_add_slice (w, closed, t_closed, 5, names[2], names[5], 0, NULL, 0);
          tes_cache_writer_add_slice (w, closed, t_closed + 1, 2, names[3], names[5], 0, "{\"c\":2}", -1);
          t_closed += 6;
        }
    }
  tes_cache_writer_close_track (w, closed);

  /* out of order once chunks of it may be stored: all of it is sorted again */
  tes_cache_writer_add_slice (w, late, 5, 1 << 20, names[0], names[5], 0, "{\"early\":1}", -1);
  for (guint i = 0; i < 100; i++, t_late += 10)
    tes_cache_writer_add_slice (w, late, t_late, 7, names[1], names[5], 0, NULL, 0);

  for (guint i = 0; i < 50; i++)
    tes_cache_writer_add_slice (w, small, (i * 37) % 50, 3, names[i % 5], names[5], 0, NULL, 0);

  tes_cache_writer_commit (w, NULL, &error);
  g_assert_no_error (error);

  return cache;
}

/* Checks a track's nesting against the definition: each slice inside its
 * parent, one deeper, its self time its duration less its children's. */
static void
assert_nesting (TesReport *report,
                gint64     track)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) slices = tes_report_get_slices (report, track, G_MININT64, G_MAXINT64, &error);
  g_autofree gint64 *covered = NULL;
  const TesSlice *s;

  g_assert_no_error (error);
  s = (const TesSlice *)(gpointer)slices->data;
  covered = g_new0 (gint64, slices->len);
  for (guint i = 0; i < slices->len; i++)
    {
      g_assert_cmpuint (s[i].index, ==, i);
      if (i > 0)
        g_assert_true (s[i - 1].start < s[i].start ||
                       (s[i - 1].start == s[i].start && s[i - 1].dur >= s[i].dur));
      if (s[i].parent < 0)
        {
          g_assert_cmpuint (s[i].depth, ==, 0);
          continue;
        }
      g_assert_cmpint (s[i].parent, <, (gint32)i);
      g_assert_cmpuint (s[i].depth, ==, s[s[i].parent].depth + 1u);
      g_assert_cmpint (s[i].start, >=, s[s[i].parent].start);
      g_assert_cmpint (s[i].start, <=, s[s[i].parent].start + s[s[i].parent].dur);
      covered[s[i].parent] += MIN (s[i].start + s[i].dur, s[s[i].parent].start + s[s[i].parent].dur) - s[i].start;
    }
  for (guint i = 0; i < slices->len; i++)
    g_assert_cmpint (s[i].self_dur, ==, s[i].dur - covered[i]);
}

/* Blobs of one table, row by row, in a fixed order. */
static void
assert_same_rows (const char *cache_a,
                  const char *cache_b,
                  const char *sql)
{
  sqlite3 *a = NULL, *b = NULL;
  sqlite3_stmt *sa = NULL, *sb = NULL;
  guint rows = 0;

  g_assert_cmpint (sqlite3_open_v2 (cache_a, &a, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_open_v2 (cache_b, &b, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (a, sql, -1, &sa, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (b, sql, -1, &sb, NULL), ==, SQLITE_OK);
  for (;;)
    {
      int ra = sqlite3_step (sa);

      g_assert_cmpint (ra, ==, sqlite3_step (sb));
      if (ra != SQLITE_ROW)
        break;
      rows++;
      for (int c = 0; c < sqlite3_column_count (sa); c++)
        g_assert_cmpmem (sqlite3_column_blob (sa, c), sqlite3_column_bytes (sa, c),
                         sqlite3_column_blob (sb, c), sqlite3_column_bytes (sb, c));
    }
  g_assert_cmpuint (rows, >, 0);
  sqlite3_finalize (sa);
  sqlite3_finalize (sb);
  sqlite3_close (a);
  sqlite3_close (b);
}

/* A writer that stores chunks as they fill writes the same bytes, and the
 * report answers the same, as one that holds every slice until commit. */
static void
test_streamed_same_answers (void)
{
  guint n = 3 * STREAM_CHUNK + 1234;
  g_autofree char *streamed = write_streamable ("streamed.tessera", 0, n);
  g_autofree char *held = write_streamable ("held.tessera", G_MAXUINT, n);
  g_autoptr(TesReport) a = NULL;
  g_autoptr(TesReport) b = NULL;
  g_autoptr(GError) error = NULL;

  a = tes_report_open_cache (streamed, &error);
  g_assert_no_error (error);
  b = tes_report_open_cache (held, &error);
  g_assert_no_error (error);

  g_assert_cmpint (tes_report_get_track (a, 1)->n_slices, >=, n);
  g_assert_cmpint (tes_report_get_track (a, 2)->n_slices, >, 2 * STREAM_CHUNK);
  g_assert_cmpint (tes_report_get_track (a, 3)->n_slices, >, 2 * STREAM_CHUNK);
  for (gint64 id = 1; id <= 4; id++)
    assert_nesting (a, id);
  tes_test_assert_same_slices (a, b, 13);

  assert_same_rows (streamed, held,
                    "SELECT track_id, first_index, n, t_min, t_max_start, t_max_end, max_depth, max_dur, data, args, search, sums, checksum "
                    "FROM slice_chunks ORDER BY track_id, first_index");
  assert_same_rows (streamed, held, "SELECT * FROM slice_lod ORDER BY track_id, level");
  assert_same_rows (streamed, held, "SELECT * FROM tracks ORDER BY id");
}

/* Chunks packed on the writer's packing thread and inserted later, and
 * lane summaries made there from the chunks a streamed track kept, are the
 * rows, rowids included, that packing each in place and reading the
 * chunks back write: streamed as they fill and held until commit. */
static void
test_pack_thread_same_rows (void)
{
  guint n = 3 * STREAM_CHUNK + 1234;

  for (guint held = 0; held < 2; held++)
    {
      guint threshold = held ? G_MAXUINT : 0;
      g_autofree char *threaded = write_streamable ("threaded.tessera", threshold, n);
      g_autofree char *in_place = NULL;

      tes_cache_writer_set_pack_thread (FALSE);
      in_place = write_streamable ("in-place.tessera", threshold, n);
      tes_cache_writer_set_pack_thread (TRUE);

      assert_same_rows (threaded, in_place, "SELECT * FROM slice_chunks ORDER BY id");
      assert_same_rows (threaded, in_place, "SELECT * FROM slice_lod ORDER BY track_id, level");
      assert_same_rows (threaded, in_place, "SELECT * FROM tracks ORDER BY id");
      assert_same_rows (threaded, in_place, "SELECT * FROM checksums WHERE name <> 'sources' ORDER BY name");
    }
}

/* Tracks whose slices come in turns, a tree to each in each turn, all of
 * them streamed and keeping their slices for their summaries at once;
 * then closed one by one. */
static char *
write_tracks_in_turns (const char *name,
                       guint       n_tracks,
                       guint       n_per_track)
{
  char *cache = tes_test_tmp_path (name);
  g_autoptr(TesCacheWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rnd = g_rand_new_with_seed (11);
  g_autofree gint64 *tracks = g_new (gint64, n_tracks);
  g_autofree gint64 *next = g_new (gint64, n_tracks);
  g_autofree guint *added = g_new0 (guint, n_tracks);
  guint32 names[6];
  gint64 clock;
  gboolean more = TRUE;

  /* streamed as they fill, whatever the writer holds */
  w = stream_writer_new (cache, 0, &clock, names);
  for (guint k = 0; k < n_tracks; k++)
    {
      g_autofree char *track_name = g_strdup_printf ("track %u", k);

      tracks[k] = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, track_name, k, NULL);
      /* each track's own times, so that their summaries differ */
      next[k] = 1000 * (k + 1);
    }

  while (more)
    {
      more = FALSE;
      for (guint k = 0; k < n_tracks; k++)
        {
          gint64 d = g_rand_int_range (rnd, 100, 1 << 20);

          if (added[k] >= n_per_track)
            continue;
          add_tree (w, tracks[k], rnd, names, next[k], d, 1, &added[k]);
          next[k] += d + g_rand_int_range (rnd, 0, 1000 * (k + 1));
          more = TRUE;
        }
    }
  for (guint k = 0; k < n_tracks; k++)
    tes_cache_writer_close_track (w, tracks[k]);
  g_assert_true (tes_cache_writer_commit (w, NULL, &error));
  g_assert_no_error (error);

  return cache;
}

/* The blocks that keep the slices of streamed tracks for their summaries
 * (tes-cache-writer-pack.c), cut from slabs of 16 and given back as each
 * track's summaries are made: with ten tracks of four chunks each, over
 * twenty blocks kept at once (two slabs), the summaries are the ones made
 * by reading every track's chunks back. */
static void
test_kept_blocks (void)
{
  guint n = 4 * STREAM_CHUNK - 321;
  g_autofree char *threaded = NULL;
  g_autofree char *in_place = NULL;

  threaded = write_tracks_in_turns ("kept-threaded.tessera", 10, n);
  tes_cache_writer_set_pack_thread (FALSE);
  in_place = write_tracks_in_turns ("kept-in-place.tessera", 10, n);
  tes_cache_writer_set_pack_thread (TRUE);

  assert_same_rows (threaded, in_place, "SELECT * FROM slice_lod ORDER BY track_id, level");
  assert_same_rows (threaded, in_place, "SELECT * FROM tracks ORDER BY id");
  assert_same_rows (threaded, in_place, "SELECT * FROM slice_chunks ORDER BY id");
}

/* An import that fails after chunks were stored leaves no cache, and the
 * cache an earlier import wrote stays as it was. */
static void
test_streamed_failure (void)
{
  g_autofree char *cache = tes_test_tmp_path ("failed.tessera");
  g_autoptr(TesCacheWriter) w = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *temp = NULL;
  g_autofree char *kept = NULL;
  GStatBuf st;
  gint64 clock, track;

  tes_test_write_file (cache, "an earlier cache", -1);

  tes_cache_writer_set_default_flush_threshold (0);
  w = tes_cache_writer_new (cache, &error);
  tes_cache_writer_set_default_flush_threshold (TES_CACHE_WRITER_FLUSH_THRESHOLD);
  g_assert_no_error (error);
  temp = g_strdup (tes_cache_writer_get_temp_path (w));
  clock = tes_cache_writer_add_clock (w, "c", TES_TIME_UNIT_NS, 1000000000);
  track = tes_cache_writer_add_track (w, 0, 0, clock, TES_TRACK_THREAD, "t", 0, NULL);
  for (gint64 i = 0; i < 3 * STREAM_CHUNK; i++)
    tes_cache_writer_add_slice (w, track, i * 10, 5, 0, 0, 0, "{\"a\":\"bcdefghijklmnopqrstuvwxyz\"}", -1);

  /* the chunks are in the temp file already (40 bytes a record) */
  g_assert_cmpint (g_stat (temp, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 2 * STREAM_CHUNK * 40);

  g_cancellable_cancel (cancellable);
  g_assert_false (tes_cache_writer_commit (w, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&w);

  g_assert_false (g_file_test (temp, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_get_contents (cache, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "an earlier cache");
}

/* Opens the file as the window does. */
static TesReport *
load_file (const char  *path,
           GError     **error)
{
  g_autoptr(TesReportLoader) loader = tes_report_loader_new ();

  tes_report_loader_add_file (loader, path);
  return tes_report_loader_load (loader, NULL, error);
}

static gint64
file_size (const char *path)
{
  GStatBuf st;

  g_assert_no_errno (g_stat (path, &st));
  return st.st_size;
}

/* The one number @sql selects from @db. */
static gint64
single_int (sqlite3    *db,
            const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  return value;
}

static void
exec_sql (const char *cache,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  sqlite3_close (db);
}

/* One byte of chunk 1's records flipped in the file itself, as a bad disk
 * sector would: found by its bytes (the chunk's packed data, as stored),
 * not through SQLite. */
static void
flip_chunk_byte (const char *cache)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree guint8 *head = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gsize len, head_len;
  char *at;

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT data FROM slice_chunks WHERE id = 1", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  head_len = (gsize)sqlite3_column_bytes (stmt, 0);
  g_assert_cmpuint (head_len, >=, 24);
  head = g_memdup2 (sqlite3_column_blob (stmt, 0), head_len);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  g_file_get_contents (cache, &contents, &len, &error);
  g_assert_no_error (error);
  at = memmem (contents, len, head, head_len);
  g_assert_nonnull (at);
  at[head_len - 8] ^= 0x10;   /* inside the last block's zstd frame */
  tes_test_write_file (cache, contents, len);
}

static void
truncate_cache (const char *cache)
{
  g_assert_no_errno (truncate (cache, file_size (cache) / 2));
}

static void
drop_table (const char *cache)
{
  exec_sql (cache, "DROP TABLE flows");
}

static void
alter_row (const char *cache)
{
  exec_sql (cache, "UPDATE strings SET value = 'tampered' WHERE id = 1");
}

static void
alter_chunk_row (const char *cache)
{
  exec_sql (cache, "UPDATE slice_chunks SET t_max_end = t_max_end + 1 WHERE id = 1");
}

/* A byte of an index's page flipped: the table is intact, a lookup
 * through the index is not. */
static void
corrupt_index (const char *cache)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 root, page_size;
  gsize len;

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT rootpage, page_size FROM sqlite_schema, pragma_page_size () "
                                           "WHERE name = 'slice_chunks_track'", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  root = sqlite3_column_int64 (stmt, 0);
  page_size = sqlite3_column_int64 (stmt, 1);
  sqlite3_finalize (stmt);
  sqlite3_close (db);

  g_file_get_contents (cache, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpint ((gint64)len, >=, root * page_size);
  contents[root * page_size - 1] ^= 0x01;   /* the last cell's last byte: a chunk's id */
  tes_test_write_file (cache, contents, len);
}

static const struct
{
  const char *name;
  void (*damage) (const char *cache);
} damages[] = {
  { "corrupt-index", corrupt_index },
  { "flipped-byte", flip_chunk_byte },
  { "truncated", truncate_cache },
  { "dropped-table", drop_table },
  { "altered-row", alter_row },
  { "altered-chunk-row", alter_chunk_row },
};

/* Each kind of damage is found before a number is shown: the cache opened
 * on its own fails with an error naming it (never SQLite's own words);
 * opened for its source it is rebuilt, with a message, to the same
 * report. */
static void
test_damage_detected (void)
{
  g_autofree char *fixture = tes_test_data_path ("chrome/phases_array.json");

  for (guint i = 0; i < G_N_ELEMENTS (damages); i++)
    {
      g_autofree char *name = g_strconcat (damages[i].name, ".json", NULL);
      g_autofree char *src = tes_test_copy_to_tmp (fixture, name);
      g_autofree char *cache = tes_cache_path_for_source (src);
      g_autofree char *expected = g_strdup_printf ("Cache %s is damaged: ", cache);
      g_autofree char *pattern = g_strdup_printf ("Rebuilding %s: *", cache);
      g_autoptr(TesReport) report = NULL;
      g_autoptr(GError) error = NULL;
      TesReportCounts before, after;

      report = load_file (src, &error);
      g_assert_no_error (error);
      g_assert_false (tes_report_get_cache_reused (report));
      tes_report_get_counts (report, &before);
      g_assert_cmpint (before.n_slices, >, 1);
      g_clear_object (&report);
      g_assert_true (tes_cache_verify (cache, &error));
      g_assert_no_error (error);

      damages[i].damage (cache);

      g_assert_false (tes_cache_verify (cache, &error));
      tes_test_assert_contains (error->message, expected);
      g_clear_error (&error);

      report = load_file (cache, &error);
      g_assert_null (report);
      g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
      tes_test_assert_contains (error->message, expected);
      g_assert_null (strstr (error->message, "SQL"));
      g_assert_null (strstr (error->message, "no such"));
      g_clear_error (&error);

      g_test_expect_message ("tes-report-loader", G_LOG_LEVEL_MESSAGE, pattern);
      report = load_file (src, &error);
      g_test_assert_expected_messages ();
      g_assert_no_error (error);
      g_assert_false (tes_report_get_cache_reused (report));
      tes_report_get_counts (report, &after);
      g_assert_cmpint (after.n_slices, ==, before.n_slices);
      g_assert_cmpint (after.n_instants, ==, before.n_instants);
      g_assert_cmpint (after.n_flows, ==, before.n_flows);
      g_assert_true (tes_cache_verify (cache, &error));
      g_assert_no_error (error);
    }
}

/* A cache too big to verify whole at open (chunks over 4 MiB) verifies
 * each chunk on its first read: the damaged one fails, naming it, the
 * others answer. Such a cache keeps its 64 KiB pages. */
/* Random text that does not compress (base64 of 48 random bytes): a cache
 * of many such args stays too big for its chunks to be verified at open. */
static void
append_noise (GString *out,
              GRand   *rand)
{
  guint32 words[12];
  g_autofree char *text = NULL;

  for (guint k = 0; k < G_N_ELEMENTS (words); k++)
    words[k] = g_rand_int (rand);
  text = g_base64_encode ((const guchar *)words, sizeof words);
  g_string_append (out, text);
}

static void
test_damage_found_on_read (void)
{
  g_autofree char *cache = tes_test_tmp_path ("big.tessera");
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GError) error = NULL;
  const gint64 n = 8 * TES_CACHE_CHUNK_SLICES;
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);
  sqlite3 *db = NULL;
  sqlite3_blob *blob = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 clock, track;
  guint8 byte;

  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  clock = tes_cache_writer_add_clock (writer, "c", TES_TIME_UNIT_NS, 1000000000);
  track = tes_cache_writer_add_track (writer, 0, 0, clock, TES_TRACK_THREAD, "t", 0, NULL);
  /* args that do not compress keep the cache too big to verify at open */
  for (gint64 i = 0; i < n; i++)
    {
      g_autoptr(GString) args = g_string_new ("{\"noise\":\"");

      append_noise (args, rand);
      g_string_append (args, "\"}");
      tes_cache_writer_add_slice (writer, track, 10 * i, 5, 0, 0, 0, args->str, (gssize)args->len);
    }
  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);

  /* chunk 3, slices 2×16384 …, a byte of its index */
  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "PRAGMA page_size", -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, 65536);
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_blob_open (db, "main", "slice_chunks", "data", 3, 1, &blob), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_blob_read (blob, &byte, 1, 8), ==, SQLITE_OK);
  byte ^= 1;
  g_assert_cmpint (sqlite3_blob_write (blob, &byte, 1, 8), ==, SQLITE_OK);
  sqlite3_blob_close (blob);
  sqlite3_close (db);

  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);

  slices = tes_report_get_slices (report, track, 0, 10 * TES_CACHE_CHUNK_SLICES - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (slices->len, ==, TES_CACHE_CHUNK_SLICES);
  g_clear_pointer (&slices, g_array_unref);

  slices = tes_report_get_slices (report, track, 0, 10 * n, &error);
  g_assert_null (slices);
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
  tes_test_assert_contains (error->message, "is damaged: slice chunk 3 of track 1 does not match its checksum");
  g_clear_error (&error);

  g_assert_false (tes_cache_verify (cache, &error));
  tes_test_assert_contains (error->message, "slice chunk 3 of track 1");
}

/* Crafted: rows changed and the checksums recomputed to match. The value
 * checks behind them still refuse counts that disagree with the tables. */
static void
test_crafted_counts (void)
{
  g_autofree char *fixture = tes_test_data_path ("chrome/phases_array.json");
  g_autofree char *src = tes_test_copy_to_tmp (fixture, "crafted.json");
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_clear_object (&report);

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE meta SET value = -3 WHERE key = 'n_flows'", NULL, NULL, NULL), ==, SQLITE_OK);
  tes_cache_reseal (db, &error);
  g_assert_no_error (error);
  sqlite3_close (db);

  report = load_file (cache, &error);
  g_assert_null (report);
  tes_test_assert_contains (error->message, "is damaged: its count n_flows does not match its table");
  g_clear_error (&error);

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE meta SET value = (SELECT sum (n) FROM flows) WHERE key = 'n_flows';"
                                     "UPDATE tracks SET n_slices = n_slices + 1 WHERE id = (SELECT max (track_id) FROM slice_chunks)",
                                     NULL, NULL, NULL), ==, SQLITE_OK);
  tes_cache_reseal (db, &error);
  g_assert_no_error (error);
  sqlite3_close (db);

  report = load_file (cache, &error);
  g_assert_null (report);
  tes_test_assert_contains (error->message, "is damaged: its tracks hold");
}

/* A tiny report's cache is small: no page per table and index of 64 KiB. */
static void
test_small_cache (void)
{
  g_autofree char *fixture = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autofree char *src = tes_test_copy_to_tmp (fixture, "small.txt");
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  TesReportCounts counts;

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_clear_object (&report);
  g_assert_cmpint (file_size (cache), <, 64 * 1024);

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_assert_true (tes_report_get_cache_reused (report));
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, >, 0);
}

static guint
count_temps (const char *dir,
             const char *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  /* an old cache this process replaced may still be going */
  tes_cache_wait_removals ();
  while ((name = g_dir_read_name (d)))
    n += g_str_has_prefix (name, prefix) && strstr (name, ".tmp-") != NULL;

  return n;
}

/* A trace big enough that `tessera-cli info` takes a while to import; with
 * noise, each slice's args also hold incompressible text. */
static char *
write_trace_of (const char *name,
                guint       n,
                gboolean    noise)
{
  g_autofree char *path = tes_test_tmp_path (name);
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(GRand) rand = g_rand_new_with_seed (27);

  for (guint i = 0; i < n; i++)
    {
      g_string_append_printf (json, "%s{\"name\":\"op%u\",\"cat\":\"op\",\"ph\":\"X\",\"ts\":%u,\"dur\":3,"
                              "\"pid\":1,\"tid\":%u,\"args\":{\"i\":%u",
                              i ? "," : "", i % 13, 4 * i, i % 4, i);
      if (noise)
        {
          g_string_append (json, ",\"noise\":\"");
          append_noise (json, rand);
          g_string_append (json, "\"");
        }
      g_string_append (json, "}}");
    }
  g_string_append (json, "]");
  tes_test_write_file (path, json->str, json->len);

  return g_steal_pointer (&path);
}

static char *
write_big_trace (const char *name,
                 guint       n)
{
  return write_trace_of (name, n, FALSE);
}

/* A trace whose counter has more values than the open verifies. */
static char *
write_counter_trace (const char *name,
                     guint       n)
{
  g_autofree char *path = tes_test_tmp_path (name);
  g_autoptr(GString) json = g_string_new ("[{\"name\":\"op\",\"ph\":\"X\",\"ts\":0,\"dur\":5,\"pid\":1,\"tid\":1}");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (json, ",{\"name\":\"mem\",\"ph\":\"C\",\"ts\":%u,\"pid\":1,\"args\":{\"bytes\":%u}}",
                            2 * i, i % 1000);
  g_string_append (json, "]");
  tes_test_write_file (path, json->str, json->len);

  return g_steal_pointer (&path);
}

#define KILLED_SLICES 100000
#define KILL_MOMENTS 10

/* `tessera-cli info` (and info --reimport) killed with SIGKILL at moments
 * spread over its import (a whole run is timed first): the next open never
 * reuses a partial cache, leaves no temp file behind, and gives the whole
 * report. */
static void
test_killed_cli (void)
{
  g_autofree char *src = write_big_trace ("killed-cli.json", KILLED_SLICES);
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autofree char *dir = g_path_get_dirname (cache);
  g_autofree char *base = g_path_get_basename (cache);
  const char *cli = g_getenv ("TESSERA_CLI");
  g_autoptr(GError) error = NULL;
  gint64 whole_us;

  g_assert_nonnull (cli);

  {
    const char *argv[] = { cli, "info", "--reimport", src, NULL };
    g_autoptr(GSubprocess) proc = NULL;

    whole_us = g_get_monotonic_time ();
    proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
    g_assert_no_error (error);
    g_subprocess_wait_check (proc, NULL, &error);
    g_assert_no_error (error);
    whole_us = g_get_monotonic_time () - whole_us;
    g_unlink (cache);
  }

  for (guint i = 0; i < KILL_MOMENTS; i++)
    {
      gboolean reimport = i % 2 == 1;
      const char *argv[] = { cli, "info", reimport ? "--reimport" : src, reimport ? src : NULL, NULL };
      g_autoptr(GSubprocess) proc = NULL;
      g_autoptr(TesReport) report = NULL;
      TesReportCounts counts;

      proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
      g_assert_no_error (error);
      g_usleep (whole_us * i / KILL_MOMENTS);
      g_subprocess_force_exit (proc);
      g_subprocess_wait (proc, NULL, &error);
      g_assert_no_error (error);

      /* whatever is there is complete and intact, or not there */
      if (g_file_test (cache, G_FILE_TEST_EXISTS))
        {
          g_assert_true (tes_cache_verify (cache, &error));
          g_assert_no_error (error);
        }

      report = load_file (src, &error);
      g_assert_no_error (error);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_slices, ==, KILLED_SLICES);
      g_assert_cmpuint (count_temps (dir, base), ==, 0);
    }
}

/* The last chunk's row: its id, track, first start and latest end. */
static void
last_chunk_row (sqlite3 *db,
                gint64  *id,
                gint64  *track,
                gint64  *t_min,
                gint64  *t_max)
{
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT id, track_id, t_min, t_max_end FROM slice_chunks ORDER BY id DESC LIMIT 1",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  *id = sqlite3_column_int64 (stmt, 0);
  *track = sqlite3_column_int64 (stmt, 1);
  *t_min = sqlite3_column_int64 (stmt, 2);
  *t_max = sqlite3_column_int64 (stmt, 3);
  sqlite3_finalize (stmt);
}

/* A query found the cache damaged: it said so (the message expected was
 * logged), and the cache is gone, for the next open to import again. */
static void
assert_found_damaged (GError    **error,
                      const char *what,
                      const char *cache)
{
  g_test_assert_expected_messages ();
  g_assert_nonnull (*error);
  tes_test_assert_contains ((*error)->message, what);
  tes_test_assert_contains ((*error)->message, "Reopen the report to import it again.");
  g_clear_error (error);
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
}

/* A source's cache too big to verify whole at open, found damaged on a
 * later read: the query fails saying so, and the cache goes, so that the
 * next open imports the source again; the same when the caller passed no
 * GError (@data NULL), as drawing code does. */
static void
test_damage_found_on_read_removes (gconstpointer data)
{
  gboolean want_error = data != NULL;
  g_autofree char *src = write_trace_of ("lazy.json", 120000, TRUE);
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autofree char *pattern = g_strdup_printf ("Removed %s, to be rebuilt on the next open: *", cache);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;
  sqlite3_blob *blob = NULL;
  gint64 id = 0, track = 0;
  gint64 t_min = 0, t_max = 0;
  guint8 byte;

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_clear_object (&report);

  /* the last chunk's first record: not read at open */
  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  last_chunk_row (db, &id, &track, &t_min, &t_max);
  g_assert_cmpint (sqlite3_blob_open (db, "main", "slice_chunks", "data", id, 1, &blob), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_blob_read (blob, &byte, 1, 20), ==, SQLITE_OK);
  byte ^= 4;
  g_assert_cmpint (sqlite3_blob_write (blob, &byte, 1, 20), ==, SQLITE_OK);
  sqlite3_blob_close (blob);
  sqlite3_close (db);

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_assert_true (tes_report_get_cache_reused (report));

  g_test_expect_message ("tes-report", G_LOG_LEVEL_MESSAGE, pattern);
  slices = tes_report_get_slices (report, track, t_min, t_max, want_error ? &error : NULL);
  g_assert_null (slices);
  if (want_error)
    assert_found_damaged (&error, "does not match its checksum", cache);
  else
    {
      g_test_assert_expected_messages ();
      g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
    }
  g_clear_object (&report);

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_assert_false (tes_report_get_cache_reused (report));
  slices = tes_report_get_slices (report, track, t_min, t_max, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (slices->len, >, 0);
}

/* An open reads the chunks' rows from their index, not the table (whose
 * rows each start a page of blobs): a table row that says otherwise than
 * its row in the index is found when its chunk is first read. Made here
 * by pointing the index at a copy of itself taken before the row changed
 * (the copy left out of the schema, so that the change does not reach it). */
static void
test_chunk_row_unlike_its_index (void)
{
  g_autofree char *src = write_trace_of ("row-index.json", 120000, TRUE);
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autofree char *pattern = g_strdup_printf ("Removed %s, to be rebuilt on the next open: *", cache);
  g_autofree char *sql = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) slices = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 id, track, t_min, t_max, root;

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_clear_object (&report);

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  last_chunk_row (db, &id, &track, &t_min, &t_max);
  g_assert_cmpint (sqlite3_exec (db, "CREATE INDEX copy_of_rows ON slice_chunks (id, track_id, first_index, n, t_min, "
                                 "t_max_start, t_max_end, max_depth, max_dur, data_len, args_len, search_len, sums_len)",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT rootpage FROM sqlite_schema WHERE name = 'copy_of_rows'",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  root = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA writable_schema = ON; DELETE FROM sqlite_schema WHERE name = 'copy_of_rows'",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  /* the row changes, and so does the index; then the index is the copy */
  sql = g_strdup_printf ("UPDATE slice_chunks SET n = n - 1 WHERE id = %" G_GINT64_FORMAT ";"
                         "PRAGMA writable_schema = ON;"
                         "UPDATE sqlite_schema SET rootpage = %" G_GINT64_FORMAT " WHERE name = 'slice_chunks_rows'",
                         id, root);
  exec_sql (cache, sql);

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_assert_true (tes_report_get_cache_reused (report));

  g_test_expect_message ("tes-report", G_LOG_LEVEL_MESSAGE, pattern);
  slices = tes_report_get_slices (report, track, t_min, t_max, &error);
  g_assert_null (slices);
  assert_found_damaged (&error, "does not match the index of the chunks", cache);
}

/* Two processes opening a report that has no cache yet both succeed, and
 * leave one intact cache. */
static void
test_concurrent_opens (void)
{
  g_autofree char *src = write_big_trace ("concurrent.json", 20000);
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autofree char *dir = g_path_get_dirname (cache);
  g_autofree char *base = g_path_get_basename (cache);
  const char *cli = g_getenv ("TESSERA_CLI");
  const char *argv[] = { cli, "info", src, NULL };
  GSubprocess *procs[2];
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 2; i++)
    {
      procs[i] = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE, &error);
      g_assert_no_error (error);
    }
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *out = NULL;

      g_subprocess_communicate_utf8 (procs[i], NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      if (!g_subprocess_get_successful (procs[i]))
        g_error ("process %u failed: %s", i, out);
      tes_test_assert_contains (out, "Slices:         20000");
      g_object_unref (procs[i]);
    }

  g_assert_true (tes_cache_verify (cache, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_temps (dir, base), ==, 0);
}

/* Where caches go when beside the source will not do. */
static void
test_cache_placement (void)
{
  g_autofree char *target_dir = tes_test_tmp_path ("target");
  g_autofree char *link_dir = tes_test_tmp_path ("links");
  g_autofree char *target = g_build_filename (target_dir, "report.txt", NULL);
  g_autofree char *link = g_build_filename (link_dir, "link.txt", NULL);
  g_autofree char *expected = g_strconcat (target, ".tessera", NULL);
  g_autofree char *blocked = tes_test_tmp_path ("blocked.txt");
  g_autofree char *blocked_cache = g_strconcat (blocked, ".tessera", NULL);
  g_autofree char *user_dir = tes_cache_get_user_dir ();
  g_autofree char *cache = NULL;
  g_autofree char *ro_dir = tes_test_tmp_path ("ro");
  g_autofree char *ro_src = g_build_filename (ro_dir, "small.txt", NULL);
  g_autofree char *fixture = tes_test_data_path ("yolov8s_op_time_total.txt");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_assert_no_errno (g_mkdir_with_parents (target_dir, 0755));
  g_assert_no_errno (g_mkdir_with_parents (link_dir, 0755));
  tes_test_write_file (target, "x", -1);
  g_unlink (link);
  g_assert_no_errno (symlink (target, link));

  /* a symbolic link's cache goes beside its target */
  cache = tes_cache_path_for_source (link);
  g_assert_cmpstr (cache, ==, expected);
  g_clear_pointer (&cache, g_free);

  /* never beside a device node */
  cache = tes_cache_path_for_source ("/dev/null");
  g_assert_true (g_str_has_prefix (cache, user_dir));
  g_clear_pointer (&cache, g_free);

  /* a folder where the cache would go */
  tes_test_write_file (blocked, "x", -1);
  g_assert_no_errno (g_mkdir_with_parents (blocked_cache, 0755));
  cache = tes_cache_path_for_source (blocked);
  g_assert_true (g_str_has_prefix (cache, user_dir));
  g_assert_true (g_str_has_suffix (cache, "-blocked.txt.tessera"));
  g_clear_pointer (&cache, g_free);

  /* the user cache folder is the user's alone */
  g_assert_no_errno (g_mkdir_with_parents (ro_dir, 0755));
  {
    g_autofree char *contents = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (fixture, &contents, &len, NULL));
    tes_test_write_file (ro_src, contents, len);
  }
  g_assert_no_errno (g_chmod (ro_dir, 0555));
  report = load_file (ro_src, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (tes_report_get_cache_path (report), user_dir));
  g_assert_no_errno (g_stat (user_dir, &st));
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_no_errno (g_chmod (ro_dir, 0755));
}

/* A big table (here 30,000 counter values, more than the open verifies)
 * damaged after the import: the first query that reads it finds it, fails
 * naming the table, and the cache goes. */
static void
test_damaged_table_found_on_read (void)
{
  g_autofree char *src = write_counter_trace ("lazy-counter.json", 30000);
  g_autofree char *cache = tes_cache_path_for_source (src);
  g_autofree char *pattern = g_strdup_printf ("Removed %s, to be rebuilt on the next open: *", cache);
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) values = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;
  gint64 track = 0;

  report = load_file (src, &error);
  g_assert_no_error (error);
  g_clear_object (&report);

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  track = single_int (db, "SELECT track_id FROM counter_values LIMIT 1");
  g_assert_cmpint (single_int (db, "SELECT count(*) FROM counter_values"), ==, 30000);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE counter_values SET value = value + 1 WHERE rowid = 12345",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);

  /* not read at open: the report opens from its cache */
  report = load_file (src, &error);
  g_assert_no_error (error);
  g_assert_true (tes_report_get_cache_reused (report));

  g_test_expect_message ("tes-report", G_LOG_LEVEL_MESSAGE, pattern);
  values = tes_report_get_counter (report, track, 0, 60000, 100, &error);
  g_assert_null (values);
  assert_found_damaged (&error, "table counter_values does not match its checksum", cache);
  g_clear_object (&report);

  /* imported again: the values are whole */
  report = load_file (src, &error);
  g_assert_no_error (error);
  g_assert_false (tes_report_get_cache_reused (report));
  values = tes_report_get_counter (report, track, 0, 60000, 100, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (values->len, ==, 100);
}

typedef struct
{
  gint64 id, name, category, from_track, from_ts, to_track, to_ts;
} ExpectedFlow;

static int
compare_expected_flows (gconstpointer a,
                        gconstpointer b)
{
  const ExpectedFlow *x = a, *y = b;

  if (x->from_ts != y->from_ts)
    return x->from_ts < y->from_ts ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Flows stored TES_CACHE_FLOW_BLOCK to a row come back as they went in:
 * more than two blocks of them, times jumping both ways and to the limits
 * of a time, arrows backwards, ids in file order; read back in start
 * order, and a window keeps those with an end in it. A block whose bytes
 * do not hold its flows is damage, named. */
static void
test_flows_packed (void)
{
  g_autofree char *src = tes_test_tmp_path ("flows.src");
  g_autofree char *cache = tes_test_tmp_path ("flows.tessera");
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(TesSourceStamp) stamp = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (ExpectedFlow));
  g_autoptr(GArray) flows = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (24);
  g_autofree char *damaged = g_strdup_printf ("is damaged: the flows from id %d", TES_CACHE_FLOW_BLOCK + 1);
  const guint n = 2 * TES_CACHE_FLOW_BLOCK + 123;
  gint64 source, clock, tracks[3];
  guint32 names[3];
  gint64 t = 0, t0 = 1000000, t1 = 2000000;
  guint in_window = 0;
  sqlite3 *db = NULL;

  tes_test_write_file (src, "source bytes", -1);
  stamp = tes_source_stamp_new (src, NULL, &error);
  g_assert_no_error (error);
  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  source = tes_cache_writer_add_source (writer, stamp, "test", 1, "Test format");
  clock = tes_cache_writer_add_clock (writer, "host", TES_TIME_UNIT_NS, 1000000000);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("thread %u", i);
      g_autofree char *key = g_strdup_printf ("tid:%u", i);

      tracks[i] = tes_cache_writer_add_track (writer, 0, source, clock, TES_TRACK_THREAD, name, i, key);
      names[i] = tes_cache_writer_intern (writer, name);
    }

  for (guint i = 0; i < n; i++)
    {
      ExpectedFlow f = { .id = i + 1 };

      switch (g_rand_int_range (rand, 0, 8))
        {
        case 0: t -= g_rand_int_range (rand, 0, 100000); break;
        case 1: t = i == 17 ? TES_TIME_LIMIT : i == 18 ? -TES_TIME_LIMIT : t; break;
        default: t += g_rand_int_range (rand, 0, 5000); break;
        }
      f.name = names[g_rand_int_range (rand, 0, 3)];
      f.category = names[g_rand_int_range (rand, 0, 3)];
      f.from_track = tracks[g_rand_int_range (rand, 0, 3)];
      f.to_track = tracks[g_rand_int_range (rand, 0, 3)];
      f.from_ts = t;
      f.to_ts = i == 19 ? TES_TIME_LIMIT : CLAMP (t + g_rand_int_range (rand, -1000, 200000), -TES_TIME_LIMIT, TES_TIME_LIMIT);
      tes_cache_writer_add_flow (writer, (guint32)f.name, (guint32)f.category, f.from_track, f.from_ts,
                                 f.to_track, f.to_ts);
      g_array_append_val (want, f);
      if ((f.from_ts >= t0 && f.from_ts <= t1) || (f.to_ts >= t0 && f.to_ts <= t1) || (f.from_ts < t0 && f.to_ts > t1))
        in_window++;
    }
  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);
  g_array_sort (want, compare_expected_flows);

  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);
  flows = tes_report_get_flows (report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (flows->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const TesFlow *got = &g_array_index (flows, TesFlow, i);
      const ExpectedFlow *w = &g_array_index (want, ExpectedFlow, i);

      g_assert_cmpint (got->id, ==, w->id);
      g_assert_cmpint (got->name, ==, w->name);
      g_assert_cmpint (got->category, ==, w->category);
      g_assert_cmpint (got->from_track, ==, w->from_track);
      g_assert_cmpint (got->from_ts, ==, w->from_ts);
      g_assert_cmpint (got->to_track, ==, w->to_track);
      g_assert_cmpint (got->to_ts, ==, w->to_ts);
    }
  g_clear_pointer (&flows, g_array_unref);
  flows = tes_report_get_flows (report, t0, t1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (in_window, >, 0);
  g_assert_cmpuint (flows->len, ==, in_window);
  g_clear_pointer (&flows, g_array_unref);
  g_clear_object (&report);

  g_assert_cmpint (sqlite3_open_v2 (cache, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (single_int (db, "SELECT count(*) FROM flows"), ==, 3);
  g_assert_cmpint (single_int (db, "SELECT max (id) FROM flows"), ==, 2 * TES_CACHE_FLOW_BLOCK + 1);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE flows SET data = substr (data, 1, length (data) - 1) WHERE id = "
                                     G_STRINGIFY (TES_CACHE_FLOW_BLOCK) " + 1",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  tes_cache_reseal (db, &error);
  g_assert_no_error (error);
  sqlite3_close (db);

  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);
  flows = tes_report_get_flows (report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_null (flows);
  g_assert_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA);
  tes_test_assert_contains (error->message, damaged);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/cache/schema-roundtrip", test_schema_roundtrip);
  g_test_add_func ("/tes/cache/shared-clocks-and-warnings", test_shared_clocks_and_warnings);
  g_test_add_func ("/tes/cache/path-for-source", test_path_for_source);
  g_test_add_func ("/tes/cache/fingerprint", test_fingerprint);
  g_test_add_func ("/tes/cache/fingerprint-blocks", test_fingerprint_blocks);
  g_test_add_func ("/tes/cache/abandoned-writer", test_abandoned_writer);
  g_test_add_func ("/tes/cache/killed-import", test_killed_import);
  g_test_add_func ("/tes/cache/reject-incomplete", test_reject_incomplete);
  g_test_add_func ("/tes/cache/damage-detected", test_damage_detected);
  g_test_add_func ("/tes/cache/damage-found-on-read", test_damage_found_on_read);
  g_test_add_func ("/tes/cache/crafted-counts", test_crafted_counts);
  g_test_add_func ("/tes/cache/small-cache", test_small_cache);
  g_test_add_func ("/tes/cache/killed-cli", test_killed_cli);
  g_test_add_data_func ("/tes/cache/damage-found-on-read-removes", "error", test_damage_found_on_read_removes);
  g_test_add_data_func ("/tes/cache/damage-found-on-read-removes-no-error", NULL, test_damage_found_on_read_removes);
  g_test_add_func ("/tes/cache/damaged-table-found-on-read", test_damaged_table_found_on_read);
  g_test_add_func ("/tes/cache/chunk-row-unlike-its-index", test_chunk_row_unlike_its_index);
  g_test_add_func ("/tes/cache/concurrent-opens", test_concurrent_opens);
  g_test_add_func ("/tes/cache/placement", test_cache_placement);
  g_test_add_func ("/tes/cache/streamed-same-answers", test_streamed_same_answers);
  g_test_add_func ("/tes/cache/pack-thread-same-rows", test_pack_thread_same_rows);
  g_test_add_func ("/tes/cache/kept-blocks", test_kept_blocks);
  g_test_add_func ("/tes/cache/streamed-failure", test_streamed_failure);
  g_test_add_func ("/tes/cache/flows-packed", test_flows_packed);

  return g_test_run ();
}
