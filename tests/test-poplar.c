/* test-poplar.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "tes-cache.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"

/* ---- helpers ------------------------------------------------------------- */

/* Fixtures are imported from a copy: the cache is written beside it. */
static TesReport *
open_copy (TesTestData   data,
           const char   *relative,
           const char   *importer_name,
           GError      **error)
{
  g_autofree char *copy = tes_test_copy_fixture (data, relative);
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  g_assert_nonnull (importer);
  return tes_report_import (copy, importer, 0, NULL, NULL, error);
}

/* The cache is plain SQLite: the tests also read its per-tile tables
 * directly, apart from TesReport. */
static sqlite3 *
open_cache (TesReport *report)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (tes_report_get_cache_path (report), &db,
                                    SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  return db;
}

static gint64
query_int (sqlite3    *db,
           const char *sql,
           ...)
{
  g_autofree char *text = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 v = G_MININT64;
  va_list args;

  va_start (args, sql);
  text = g_strdup_vprintf (sql, args);
  va_end (args);

  if (sqlite3_prepare_v2 (db, text, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", text, sqlite3_errmsg (db));
  if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_type (stmt, 0) != SQLITE_NULL)
    v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  return v;
}

/* Bytes of one tile, over the categories whose names match the LIKE
 * pattern ('.%': ELF sections from size -A; else Poplar data types). */
static gint64
tile_bytes (sqlite3    *db,
            int         ipu,
            int         tile,
            gboolean    sections)
{
  return query_int (db,
                    "SELECT sum (m.bytes) FROM tiles t JOIN tile_memory m ON m.tile_id = t.id "
                    "JOIN strings s ON s.id = m.category "
                    "WHERE t.ipu = %d AND t.tile = %d AND s.value %s LIKE '.%%'",
                    ipu, tile, sections ? "" : "NOT");
}

static gint64
tile_category (sqlite3    *db,
               int         ipu,
               int         tile,
               const char *category)
{
  g_auto(GStrv) parts = g_strsplit (category, "'", -1);
  g_autofree char *escaped = g_strjoinv ("''", parts);
  g_autofree char *quoted = g_strdup_printf ("'%s'", escaped);

  return query_int (db,
                    "SELECT m.bytes FROM tiles t JOIN tile_memory m ON m.tile_id = t.id "
                    "JOIN strings s ON s.id = m.category "
                    "WHERE t.ipu = %d AND t.tile = %d AND s.value = %s",
                    ipu, tile, quoted);
}

/* Info values and tile_memory rows expected of one tile or of the whole
 * graph, as printed in a hand-written report. */
typedef struct
{
  const char *key;
  const char *value;
} InfoRow;

typedef struct
{
  const char *category;
  gint64      bytes;
} MemoryRow;

static void
assert_info_rows (TesReport     *report,
                  const InfoRow *rows,
                  gsize          n_rows)
{
  for (gsize i = 0; i < n_rows; i++)
    tes_test_assert_info (report, rows[i].key, rows[i].value);
}

/* The tile's data-type rows are exactly these, and add up to total. */
static void
assert_tile_memory (sqlite3         *db,
                    int              ipu,
                    int              tile,
                    const MemoryRow *rows,
                    gsize            n_rows,
                    gint64           total)
{
  gint64 sum = 0;

  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles t JOIN tile_memory m ON m.tile_id = t.id "
                                  "WHERE t.ipu = %d AND t.tile = %d", ipu, tile), ==, n_rows);
  for (gsize i = 0; i < n_rows; i++)
    {
      g_assert_cmpint (tile_category (db, ipu, tile, rows[i].category), ==, rows[i].bytes);
      sum += rows[i].bytes;
    }
  g_assert_cmpint (sum, ==, total);
  g_assert_cmpint (tile_bytes (db, ipu, tile, rows[0].category[0] == '.'), ==, total);
}

/* A compile report without Execution: its tiles, its info, one cycles
 * clock at the Target's frequency. */
static TesReport *
open_compile_report (TesTestData    data,
                     const char    *relative,
                     gint64         n_tiles,
                     gint64         mhz,
                     const InfoRow *info,
                     gsize          n_info)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy (data, relative, "poplar-report", &error);
  const TesClock *clock;
  TesReportCounts counts;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, n_tiles);
  g_assert_cmpint (counts.n_operators, ==, 0);
  g_assert_cmpint (counts.n_runs, ==, 0);
  assert_info_rows (report, info, n_info);
  g_assert_cmpuint (tes_report_get_n_clocks (report), ==, 1);
  clock = tes_report_get_clock (report, 1);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, mhz * 1000000);

  return g_steal_pointer (&report);
}

/* `tessera-cli info` on a copy of the fixture prints each of lines. */
static void
assert_cli_info (TesTestData         data,
                 const char         *relative,
                 const char * const *lines)
{
  g_autofree char *copy = tes_test_copy_fixture (data, relative);
  g_auto(TesCliResult) cli = { 0 };

  tes_test_run_cli (&cli, "info", copy, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  for (guint i = 0; lines[i] != NULL; i++)
    tes_test_assert_contains (cli.out, lines[i]);
}

/* One query of the cache and the number it must give. */
typedef struct
{
  const char *sql;
  gint64      value;
} SqlRow;

/* A report file and what importing it must give; lists end at a NULL
 * key or query. */
typedef struct
{
  const char    *file;
  gint64         n_tiles;            /* -1: not checked */
  gint64         n_runs;             /* -1: not checked */
  gint64         ticks_per_second;   /* 0: not checked */
  const InfoRow *info;
  const SqlRow  *sql;
  /* a Tile # block: one data type, and the sum of all of them */
  const char    *tile0_category;     /* NULL: no block */
  gint64         tile0_bytes;
  gint64         tile0_total;
} ReportCase;

static void
check_report_cases (TesTestData       data,
                    const ReportCase *cases,
                    gsize             n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      const ReportCase *c = &cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = open_copy (data, c->file, "poplar-report", &error);
      TesReportCounts counts;
      sqlite3 *db;

      g_assert_no_error (error);
      g_test_message ("%s", c->file);
      tes_report_get_counts (report, &counts);
      if (c->n_tiles >= 0)
        g_assert_cmpint (counts.n_tiles, ==, c->n_tiles);
      if (c->n_runs >= 0)
        g_assert_cmpint (counts.n_runs, ==, c->n_runs);
      if (c->ticks_per_second > 0)
        g_assert_cmpint (tes_report_get_clock (report, 1)->ticks_per_second, ==, c->ticks_per_second);
      for (guint k = 0; c->info[k].key != NULL; k++)
        tes_test_assert_info (report, c->info[k].key, c->info[k].value);

      db = open_cache (report);
      for (guint k = 0; c->sql != NULL && c->sql[k].sql != NULL; k++)
        g_assert_cmpint (query_int (db, "%s", c->sql[k].sql), ==, c->sql[k].value);
      if (c->tile0_category != NULL)
        {
          g_assert_cmpint (tile_category (db, 0, 0, c->tile0_category), ==, c->tile0_bytes);
          g_assert_cmpint (tile_bytes (db, 0, 0, FALSE), ==, c->tile0_total);
        }
      sqlite3_close (db);
    }
}

/* A generator's three files and its truth, in a fresh folder: ours
 * (tests/gen-poplar-tiles.py) or, for the conformance suite, the shared
 * one; both write truth.json with the keys the checks below share. */
typedef struct
{
  TesTestData  data;
  char        *dir;
  JsonParser  *parser;
  JsonObject  *truth;
  guint        n_ipus;
  guint        host_tracks;   /* tracks besides the IPUs' and tiles' */
} Generated;

static void
generated_clear (Generated *g)
{
  g_clear_pointer (&g->dir, g_free);
  g_clear_object (&g->parser);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Generated, generated_clear)

static void
generate (Generated   *g,
          TesTestData  data)
{
  g_autofree char *own = g_test_build_filename (G_TEST_DIST, "gen-poplar-tiles.py", NULL);
  g_autofree char *shared = tes_test_shared_path ("bench/gen_poplar_tiles.py");
  const char *python = g_getenv ("PYTHON3");
  g_autofree char *truth = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *tiles;
  int status;

  g->data = data;
  g->dir = tes_test_tmp_path ("gen-poplar");
  g_assert_nonnull (python);

  if (data == TES_TEST_OWN_DATA)
    {
      /* two IPUs, so tiles meet across files by (IPU, tile), not index */
      const char *argv[] = { python, own, "--seed", "7", "--ipus", "2", "--tiles", "24",
                             "--steps", "16", "--outdir", g->dir, NULL };

      if (!tes_test_run (argv, &out, &err, &status))
        g_error ("gen-poplar-tiles.py failed (%d): %s", status, err);
      g->host_tracks = 2;
    }
  else
    {
      const char *argv[] = { python, shared, "--ipus", "1", "--tiles", "64",
                             "--steps", "20", "--outdir", g->dir, NULL };

      if (!tes_test_run (argv, &out, &err, &status))
        g_error ("%s failed (%d): %s", shared, status, err);
      g->host_tracks = 0;
    }

  truth = g_build_filename (g->dir, "truth.json", NULL);
  g->parser = json_parser_new ();
  json_parser_load_from_file (g->parser, truth, &error);
  g_assert_no_error (error);
  g->truth = json_node_get_object (json_parser_get_root (g->parser));

  tiles = json_object_get_array_member (g->truth, "tiles");
  g_assert_cmpuint (json_array_get_length (tiles), >, 0);
  for (guint i = 0; i < json_array_get_length (tiles); i++)
    g->n_ipus = MAX (g->n_ipus, 1 + (guint)json_object_get_int_member (json_array_get_object_element (tiles, i), "ipu"));
}

static char *
generated_path (Generated  *g,
                const char *name)
{
  return g_build_filename (g->dir, name, NULL);
}

static JsonArray *
truth_tiles (Generated *g)
{
  return json_object_get_array_member (g->truth, "tiles");
}

static char *
int_text (gint64 v)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, v);
}

/* ---- compile report: ../shared/fixtures (conformance) --------------------- */

static void
test_report_adder (void)
{
  static const InfoRow info[] = {
    /* Target: a cycles clock at the printed frequency */
    { "target.ipus", "1" },
    { "target.tiles_per_ipu", "1216" },
    { "target.total_tiles", "1216" },
    { "target.memory_per_tile", "256.0 kB" },
    { "target.total_memory", "304.0 MB" },
    { "target.clock", "1600.0 MHz" },
    { "graph.vertices", "1219" },
    { "graph.edges", "1223" },
    { "graph.variables", "30562" },
    { "graph.compute_sets", "4" },
    { "memory.including_gaps", "23878396" },
    { "memory.region.Non-interleaved", "5355604" },
    { "memory.region.Overflowed", "0" },
    { "memory.data_type.Variables", "39108" },
    { "memory.data_type.Host Exchange Packet Headers", "10512" },
    { "memory.data_type.Stack", "3852288" },
    { "memory.data_type.Control Code", "851272" },
    { "memory.data_type.Instrumentation Results", "4876" },
    { "memory.data_type.Shared Data Storage", "0" },
    { "memory.vertex_data", "14640" },
    { "memory.vertex_data.category.Internal vertex state", "9736" },
    { "memory.vertex_data.category.Edge pointers", "4904" },
    { "memory.vertex_data.type.poprand::SetSeedSupervisor", "34048" },
    { "memory.vertex_data.type.popops::BinaryOp1DSupervisor<popops::expr::BinaryOpType::ADD,float>", "16" },
    /* the histogram, as printed (less the header's indentation) */
    { "memory.by_tile.header", "Range (KB) Histogram (Excluding Gaps)               Count (tiles)" },
    { "memory.by_tile.bin.001", "     4 - 5 ****************************************  1,215" },
    { "memory.by_tile.bin.002", "     5 - 6 *                                             1" },
    { "memory.by_tile.bins", "2" },
    { "memory.by_tile.tiles", "1216" },
    { "memory.by_tile.maximum_including_gaps", "49184" },
    { "memory.by_tile.maximum_including_gaps.k", "48.0" },
    { "memory.by_tile.maximum_including_gaps.tile", "0" },
    { "memory.by_tile.maximum_excluding_gaps", "5780" },
    { "memory.by_tile.tiles_out_of_memory", "0" },
  };
  static const char * const cli[] = {
    "Importer:       poplar-report (version 1)",
    "Tiles:          1216",
    "Info:           target.clock = 1600.0 MHz",
    "Info:           memory.data_type.Stack = 3852288",
    "Info:           memory.by_tile.bin.001 =      4 - 5 ****************************************  1,215",
    "Info:           memory.by_tile.tiles_out_of_memory = 0",
    NULL
  };
  g_autoptr(TesReport) report = open_compile_report (TES_TEST_SHARED_DATA, "fixtures/poplar/compile_report_adder.txt",
                                                     1216, 1600, info, G_N_ELEMENTS (info));
  sqlite3 *db;

  /* every tile of the target, with its memory */
  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit = 262144"), ==, 1216);
  g_assert_cmpint (query_int (db, "SELECT max (tile) FROM tiles WHERE ipu = 0"), ==, 1215);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, 0);
  sqlite3_close (db);

  assert_cli_info (TES_TEST_SHARED_DATA, "fixtures/poplar/compile_report_adder.txt", cli);
}

static void
test_report_imbalance (void)
{
  static const InfoRow info[] = {
    { "memory.by_tile.bins", "14" },
    { "memory.by_tile.tiles", "1216" },
    { "memory.by_tile.bin.002", "   8 -  16 ****************************************  1,192" },
    { "memory.by_tile.bin.014", " 808 - 816 *                                             1" },
    { "memory.by_tile.tiles_out_of_memory", "2" },
    { "memory.by_tile.maximum_excluding_gaps", "834339" },
    { "memory.by_tile.maximum_excluding_gaps.tile", "0" },
    /* Tile # 0: data types in the tile table, the rest in info */
    { "tile.0.memory.including_gaps", "834416" },
    { "tile.0.memory.region.Overflowed", "580387" },
    { "tile.0.memory.vertex_data", "22353" },
    { "tile.0.memory.vertex_data.category.Edge pointers", "10798" },
    { "tile.0.memory.vertex_data.type.poplin::ConvPartial1x1Out<float,float,true,false>", "6648" },
  };
  static const MemoryRow tile0[] = {
    { "Variables", 807658 }, { "Constants", 0 }, { "Host Exchange Packet Headers", 1160 },
    { "Global Exchange Packet Headers", 0 }, { "Stack", 3168 }, { "Vertex Instances", 12074 },
    { "Copy Descriptors", 1385 }, { "VectorList Descriptors", 960 }, { "Vertex Field Data", 7934 },
    { "Control Table", 0 }, { "Control Code", 0 },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy (TES_TEST_SHARED_DATA, "fixtures/poplar/compile_report_imbalance_excerpt.txt",
                                           "poplar-report", &error);
  TesReportCounts counts;
  sqlite3 *db;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 1216);
  assert_info_rows (report, info, G_N_ELEMENTS (info));

  /* its data types add up to the printed maximum excluding gaps */
  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, G_N_ELEMENTS (tile0));
  assert_tile_memory (db, 0, 0, tile0, G_N_ELEMENTS (tile0), 834339);
  g_assert_cmpint (query_int (db, "SELECT memory_limit FROM tiles WHERE ipu = 0 AND tile = 0"), ==, 262144);
  sqlite3_close (db);
}

/* The public excerpts in ../shared/fixtures/real/poplar (see its
 * PROVENANCE.md): SDK 3.x Target lines inside a log, newer SDK Execution
 * sections, the TensorFlow doc's two histograms (one elided) and Tile # 0,
 * and bare cycle lines labelled by the line above them. */
static const ReportCase shared_excerpts[] = {
  { "fixtures/real/poplar/graphcore-examples-k8s-doc__Target_Graph_Poplar3.3_excerpt.txt", 1472, -1, 1850000000,
    (const InfoRow[]) {
      { "target.memory_per_tile", "624.0 kB" },
      { "target.clock", "1850.0 MHz" },
      { "target.replicas", "1" },
      { "target.ipus_per_replica", "1" },
      { "target.tiles_per_replica", "1472" },
      { "target.memory_per_replica", "897.0 MB" },
      { "graph.vertices", "5466" },
      { "graph.compute_sets", "20" },
      { "warning.1", "7 lines outside the report's sections were skipped (first on line 1)" },
      { "elided_lines", "2" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT count(*) FROM tiles WHERE memory_limit = 638976", 1472 },
      { NULL, 0 } },
    NULL, 0, 0 },
  { "fixtures/real/poplar/graphcore-examples__tut6_README__Execution_section_excerpt.txt", 0, 2, 1330000000,
    (const InfoRow[]) {
      { "execution.program.1", "<anonymous>" },
      { "execution.total_cycles", "6681766" },
      { "execution.total_cycles.approx_us", "5023.9" },
      { "execution.tile_average_compute_cycles_including_idle_threads", "3801.8" },
      { "execution.tile_average_compute_cycles_including_idle_threads.share", "0.1" },
      { "execution.tile_average_compute_cycles_excluding_idle_threads", "3717.6" },
      { "execution.tile_average_host_exchange_cycles", "6663550.8" },
      { "execution.tile_average_host_exchange_cycles.share", "99.7" },
      { "execution.tile_average_sync_cycles", "1134.8" },
      { "execution.2.total_cycles", "25444984" },
      { "execution.2.tile_average_compute_cycles_including_idle_threads", "28300.3" },
      { "execution.2.tile_average_sync_cycles.share", "0.5" },
      /* no Target: the clock comes from cycles / microseconds */
      { "clock.derived_mhz", "1330" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT \"end\" FROM runs WHERE id = 1", 6681766 },
      { "SELECT \"end\" FROM runs WHERE id = 2", 25444984 },
      { "SELECT count(*) FROM runs WHERE name = '<anonymous>' AND start = 0", 2 },
      { NULL, 0 } },
    NULL, 0, 0 },
  { "fixtures/real/poplar/graphcore-tensorflow_docs_logging.rst__report_excerpts.txt", -1, -1, 0,
    (const InfoRow[]) {
      { "memory.including_gaps", "23878396" },
      { "memory.data_type.Vertex Code", "170788" },
      { "memory.by_tile.bins", "2" },
      { "memory.by_tile.2.bin.005", "  32 -  40                                               0" },
      { "memory.by_tile.2.bin.006", "..." },
      { "memory.by_tile.2.bin.007", " 488 - 496                                               0" },
      { "memory.by_tile.2.bin.012", "..." },
      { "memory.by_tile.2.bins", "14" },
      { "memory.by_tile.2.tiles", "1216" },
      { "memory.by_tile.2.tiles_out_of_memory", "2" },
      { "tile.0.memory.vertex_data.type.popops::Reduce<popops::ReduceAdd,float,float,false,0>", "2542" },
      { "elided_lines", "15" },
      { NULL, NULL } },
    NULL,
    "Variables", 807658, 834339 },
  { "fixtures/real/poplar/lbm-graphcore__gaussian-blur-scaling__exchange-vs-compute.txt", -1, 3, 0,
    (const InfoRow[]) {
      { "execution.label", "float" },
      { "execution.total_cycles", "126351372" },
      { "execution.tile_average_sync_cycles.share", "69.2" },
      { "execution.2.label", "float2" },
      { "execution.2.tile_average_compute_cycles_including_idle_threads", "15322789.5" },
      { "execution.3.total_cycles", "46188492" },
      { "execution.3.tile_average_host_exchange_cycles.share", "7.3" },
      { "clock.derived_mhz", "1600" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT \"end\" FROM runs WHERE name = 'float'", 126351372 },
      { "SELECT \"end\" FROM runs WHERE name = 'float2'", 106179150 },
      { "SELECT \"end\" FROM runs WHERE name = 'Execution 3'", 46188492 },
      { NULL, 0 } },
    NULL, 0, 0 },
};

static void
test_report_real_excerpts (void)
{
  check_report_cases (TES_TEST_SHARED_DATA, shared_excerpts, G_N_ELEMENTS (shared_excerpts));
}

/* ---- size -A listing: ../shared/fixtures (conformance) -------------------- */

static void
test_size_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy (TES_TEST_SHARED_DATA, "fixtures/poplar/size_A_archive_4tiles.txt", "poplar-size-listing", &error);
  static const gint64 totals[] = { 957, 4311, 7671, 11034 };
  static const char * const cli[] = {
    "Importer:       poplar-size-listing (version 1)",
    "Tiles:          4",
    "Info:           archive.total_bytes = 23973",
    NULL
  };
  TesReportCounts counts;
  sqlite3 *db;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 4);
  tes_test_assert_info (report, "archive.name", "archive.a");
  tes_test_assert_info (report, "archive.members", "4");
  tes_test_assert_info (report, "archive.total_bytes", "23973");

  db = open_cache (report);
  for (guint t = 0; t < G_N_ELEMENTS (totals); t++)
    g_assert_cmpint (tile_bytes (db, 0, (int)t, TRUE), ==, totals[t]);
  g_assert_cmpint (tile_category (db, 0, 0, ".text"), ==, 21);
  g_assert_cmpint (tile_category (db, 0, 0, ".data"), ==, 640);
  g_assert_cmpint (tile_category (db, 0, 3, ".data"), ==, 8320);
  g_assert_cmpint (tile_category (db, 0, 3, ".note.GNU-stack"), ==, 0);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, 4 * 7);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit IS NULL"), ==, 4);
  sqlite3_close (db);

  assert_cli_info (TES_TEST_SHARED_DATA, "fixtures/poplar/size_A_archive_4tiles.txt", cli);
}

/* ---- compile report: our own files --------------------------------------- */

/* tests/data/poplar/compile_report_small.txt: every figure below is read
 * off the file (written by hand for these tests); the by-tile totals are
 * 3,000 3,500 5,120 6,000 7,000 9,000 12,500 18,000 B for tiles 0-7. */
static void
test_report_small (void)
{
  static const InfoRow info[] = {
    { "target.ipus", "1" },
    { "target.tiles_per_ipu", "8" },
    { "target.total_tiles", "8" },
    { "target.memory_per_tile", "16.0 kB" },
    { "target.total_memory", "128.0 kB" },
    { "target.clock", "1330.0 MHz" },
    { "graph.vertices", "1234" },
    { "graph.edges", "2345" },
    { "graph.variables", "12000" },
    { "graph.compute_sets", "7" },
    { "memory.including_gaps", "70000" },
    { "memory.region.Non-interleaved", "48000" },
    { "memory.region.Interleaved", "14496" },
    { "memory.region.Overflowed", "1624" },
    { "memory.data_type.Variables", "30000" },
    { "memory.data_type.Constants", "2120" },
    { "memory.data_type.Stack", "4096" },
    { "memory.data_type.Vertex Instances", "3904" },
    { "memory.data_type.Control Code", "12000" },
    { "memory.data_type.Host Exchange Code", "0" },
    { "memory.vertex_data", "3904" },
    { "memory.vertex_data.category.Internal vertex state", "2904" },
    { "memory.vertex_data.category.Edge pointers", "1000" },
    { "memory.vertex_data.type.popops::ScaledAddSupervisor<float,float,true>", "1904" },
    { "memory.vertex_data.type.poplin::ConvPartial1x1Out<float,float,true,false>", "2000" },
    /* the histogram as printed, less the header's indentation */
    { "memory.by_tile.header", "Range (KB) Histogram (Excluding Gaps)               Count (tiles)" },
    { "memory.by_tile.bin.001", "     0 -  4 ***************************                  2" },
    { "memory.by_tile.bin.002", "     4 -  8 ****************************************     3" },
    { "memory.by_tile.bin.005", "    16 - 20 *************                                1" },
    { "memory.by_tile.bin.006", NULL },
    { "memory.by_tile.bins", "5" },
    { "memory.by_tile.tiles", "8" },
    { "memory.by_tile.maximum_including_gaps", "18432" },
    { "memory.by_tile.maximum_including_gaps.k", "18.0" },
    { "memory.by_tile.maximum_including_gaps.tile", "7" },
    { "memory.by_tile.maximum_excluding_gaps", "18000" },
    { "memory.by_tile.maximum_excluding_gaps.k", "17.6" },
    { "memory.by_tile.maximum_excluding_gaps.tile", "7" },
    { "memory.by_tile.tiles_out_of_memory", "1" },
    /* the Tile # blocks: what is not a data type stays info */
    { "tile.7.memory.including_gaps", "18432" },
    { "tile.7.memory.region.Non-interleaved", "8000" },
    { "tile.7.memory.region.Overflowed", "1616" },
    { "tile.7.memory.vertex_data", "1488" },
    { "tile.7.memory.vertex_data.category.Edge pointers", "400" },
    { "tile.7.memory.vertex_data.type.poplin::ConvPartial1x1Out<float,float,true,false>", "800" },
    { "tile.6.memory.including_gaps", "12800" },
    { "tile.6.memory.region.Overflowed", "0" },
    { "tile.6.memory.vertex_data.type.popops::Reduce<popops::ReduceAdd,float,float,false,0>", "688" },
    { "tile.5.memory.including_gaps", NULL },
  };
  static const char * const cli[] = {
    "Importer:       poplar-report (version 1)",
    "Tiles:          8",
    "Info:           target.clock = 1330.0 MHz",
    "Info:           memory.data_type.Stack = 4096",
    "Info:           memory.by_tile.bin.002 =      4 -  8 ****************************************     3",
    "Info:           memory.by_tile.tiles_out_of_memory = 1",
    NULL
  };
  static const MemoryRow tile7[] = {
    { "Variables", 9000 }, { "Constants", 500 }, { "Stack", 512 }, { "Vertex Instances", 1488 },
    { "Control Code", 3000 }, { "Vertex Code", 2000 }, { "Internal Exchange Code", 1500 },
    { "Host Exchange Code", 0 },
  };
  static const MemoryRow tile6[] = {
    { "Variables", 6000 }, { "Constants", 300 }, { "Stack", 512 }, { "Vertex Instances", 688 },
    { "Control Code", 2500 }, { "Vertex Code", 1500 }, { "Internal Exchange Code", 1000 },
    { "Host Exchange Code", 0 },
  };
  g_autoptr(TesReport) report = open_compile_report (TES_TEST_OWN_DATA, "poplar/compile_report_small.txt",
                                                     8, 1330, info, G_N_ELEMENTS (info));
  sqlite3 *db;

  /* every tile of the target with its limit (16.0 kB = 16 384 B); the
   * detailed tiles' data types add up to their totals, tile 7's to the
   * printed maximum */
  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE ipu = 0 AND memory_limit = 16384"), ==, 8);
  g_assert_cmpint (query_int (db, "SELECT max (tile) FROM tiles"), ==, 7);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, G_N_ELEMENTS (tile7) + G_N_ELEMENTS (tile6));
  assert_tile_memory (db, 0, 7, tile7, G_N_ELEMENTS (tile7), 18000);
  assert_tile_memory (db, 0, 6, tile6, G_N_ELEMENTS (tile6), 12500);
  sqlite3_close (db);

  assert_cli_info (TES_TEST_OWN_DATA, "poplar/compile_report_small.txt", cli);
}

/* The other layouts, each in a small file of our own: SDK 3.x Target
 * lines inside a log, the newer Execution sections, two histograms with
 * rows left out, and bare cycle lines labelled by the line above. */
static const ReportCase own_layouts[] = {
  /* 2 IPUs of 1 472 tiles, 624.0 kB each; 3 log lines, 2 elision lines */
  { "poplar/log_target_sdk3.txt", 2 * 1472, -1, 1850000000,
    (const InfoRow[]) {
      { "target.ipus", "2" },
      { "target.total_tiles", "2944" },
      { "target.memory_per_tile", "624.0 kB" },
      { "target.total_memory", "1794.0 MB" },
      { "target.clock", "1850.0 MHz" },
      { "target.replicas", "2" },
      { "target.ipus_per_replica", "1" },
      { "target.tiles_per_replica", "1472" },
      { "target.memory_per_replica", "897.0 MB" },
      { "graph.vertices", "2048" },
      { "graph.compute_sets", "12" },
      { "graph.number_of_control_programs", "9" },
      { "warning.1", "3 lines outside the report's sections were skipped (first on line 1)" },
      { "elided_lines", "2" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT count(*) FROM tiles WHERE memory_limit = 638976", 2 * 1472 },
      { "SELECT count(*) FROM tiles WHERE ipu = 1 AND tile = 1471", 1 },
      { NULL, 0 } },
    NULL, 0, 0 },
  /* no Target: 2 660 000 cycles in 2 000 µs make the clock */
  { "poplar/execution_programs.txt", 0, 2, 1330000000,
    (const InfoRow[]) {
      { "execution.program.1", "<anonymous>" },
      { "execution.total_cycles", "2660000" },
      { "execution.total_cycles.approx_us", "2000.0" },
      { "execution.tile_average_compute_cycles_including_idle_threads", "1330.0" },
      { "execution.tile_average_compute_cycles_including_idle_threads.share", "0.1" },
      { "execution.tile_average_compute_cycles_excluding_idle_threads", "1200.5" },
      { "execution.tile_average_host_exchange_cycles", "2600000.0" },
      { "execution.tile_average_host_exchange_cycles.share", "97.7" },
      { "execution.2.program.1", "train_step" },
      { "execution.2.program.2", "eval_step" },
      { "execution.2.total_cycles", "13300000" },
      { "execution.2.tile_average_compute_cycles_including_idle_threads.share", "50.0" },
      { "execution.2.tile_average_sync_cycles", "665000.0" },
      { "clock.derived_mhz", "1330" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT \"end\" FROM runs WHERE id = 1", 2660000 },
      { "SELECT \"end\" FROM runs WHERE id = 2", 13300000 },
      { "SELECT count(*) FROM runs WHERE name = '<anonymous>' AND start = 0", 1 },
      { NULL, 0 } },
    NULL, 0, 0 },
  /* a run of elision lines is one row "...", not a bin; without a
   * Target, Tile # 0 is IPU 0 tile 0 */
  { "poplar/histograms_elided.txt", -1, -1, 0,
    (const InfoRow[]) {
      { "memory.including_gaps", "40960" },
      { "memory.by_tile.bins", "2" },
      { "memory.by_tile.tiles", "32" },
      { "memory.by_tile.maximum_excluding_gaps.tile", "5" },
      { "memory.by_tile.tiles_out_of_memory", "0" },
      { "memory.by_tile.2.bin.003", "  16 -  24                                               0" },
      { "memory.by_tile.2.bin.004", "..." },
      { "memory.by_tile.2.bin.005", " 112 - 120                                               0" },
      { "memory.by_tile.2.bin.007", "..." },
      { "memory.by_tile.2.bin.009", " 256 - 264 *                                             1" },
      { "memory.by_tile.2.bins", "7" },
      { "memory.by_tile.2.tiles", "32" },
      { "memory.by_tile.2.maximum_excluding_gaps", "262500" },
      { "memory.by_tile.2.tiles_out_of_memory", "1" },
      { "tile.0.memory.including_gaps", "263000" },
      { "tile.0.memory.vertex_data.type.popops::Reduce<popops::ReduceAdd,float,float,false,0>", "9332" },
      { "elided_lines", "5" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT count(*) FROM tile_memory", 3 },
      { NULL, 0 } },
    "Variables", 250000, 250000 + 3168 + 9332 },
  { "poplar/bare_cycles.txt", -1, 3, 1600000000,
    (const InfoRow[]) {
      { "execution.label", "fp32 run" },
      { "execution.total_cycles", "3200000" },
      { "execution.tile_average_sync_cycles.share", "50.0" },
      { "execution.2.label", "fp16 run" },
      { "execution.2.tile_average_host_exchange_cycles", "160000.0" },
      { "execution.3.label", NULL },
      { "execution.3.total_cycles", "800000" },
      { "clock.derived_mhz", "1600" },
      { NULL, NULL } },
    (const SqlRow[]) {
      { "SELECT \"end\" FROM runs WHERE name = 'fp32 run'", 3200000 },
      { "SELECT \"end\" FROM runs WHERE name = 'fp16 run'", 1600000 },
      { "SELECT \"end\" FROM runs WHERE name = 'Execution 3'", 800000 },
      { NULL, 0 } },
    NULL, 0, 0 },
};

static void
test_report_layouts (void)
{
  check_report_cases (TES_TEST_OWN_DATA, own_layouts, G_N_ELEMENTS (own_layouts));
}

/* The older Execution layout (Poplar 1.x tutorials), with cycles by vertex
 * type, written here as the tutorial prints it. */
static const char old_execution[] =
  "Target:\n"
  "  Number of IPUs:         1\n"
  "  Tiles per IPU:          1,216\n"
  "  Clock Speed (approx):   1,600.0 MHz\n"
  "\n"
  "Execution:\n"
  "\n"
  "  Total cycles:                                  8,190,756 (approx 5,119.2 microseconds)\n"
  "  Total compute cycles (including idle threads): 5,513,152 Estimated (must enable debug.instrumentCompute)\n"
  "  Total compute cycles (excluding idle threads): 5,334,536\n"
  "  Total IPU exchange cycles:                     963,855\n"
  "  Total global exchange cycles:                  Must enable debug.instrumentExternalExchange\n"
  "  Total host exchange cycles:                    9,952,701,003\n"
  "  Total shared structure copy cycles:            0\n"
  "  Total sync cycles:                             781,286\n"
  "\n"
  "  Cycles by vertex type:\n"
  "      DotProductVertex            (50000 instances):    5,250,000\n"
  "      ReduceVertex                (10000 instances):       80,000\n"
  "      poplar_rt::ShortMemcpy         (63 instances):        4,536\n";

static void
test_report_vertex_cycles (void)
{
  g_autofree char *path = tes_test_tmp_path ("old_execution.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_auto(TesCliResult) cli = { 0 };
  const TesSummaryRow *row;
  TesReportCounts counts;

  tes_test_write_file (path, old_execution, -1);
  g_assert_cmpstr (tes_importer_get_name (tes_importer_registry_choose (path, NULL, &error)), ==, "poplar-report");
  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_operators, ==, 3);
  g_assert_cmpint (counts.n_runs, ==, 1);
  tes_test_assert_info (report, "execution.total_cycles", "8190756");
  tes_test_assert_info (report, "execution.total_compute_cycles_including_idle_threads", "5513152");
  tes_test_assert_info (report, "execution.total_compute_cycles_including_idle_threads.note",
               "Estimated (must enable debug.instrumentCompute)");
  tes_test_assert_info (report, "execution.total_global_exchange_cycles", "Must enable debug.instrumentExternalExchange");
  tes_test_assert_info (report, "execution.total_host_exchange_cycles", "9952701003");

  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 3);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->label, ==, "DotProductVertex");
  g_assert_cmpint (row->total, ==, 5250000);
  g_assert_cmpint (row->count, ==, 50000);
  g_assert_cmpfloat_with_epsilon (row->share, 100.0 * 5250000 / 5334536, 1e-9);
  row = g_ptr_array_index (rows, 2);
  g_assert_cmpstr (row->label, ==, "poplar_rt::ShortMemcpy");
  g_assert_cmpint (row->total, ==, 4536);
  g_assert_cmpint (row->count, ==, 63);

  tes_test_run_cli (&cli, "summary", path, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, "DotProductVertex 98.415%\n");
  tes_test_assert_contains (cli.out, "ReduceVertex 1.500%\n");
  tes_test_assert_contains (cli.out, "poplar_rt::ShortMemcpy 0.085%\n");
}

/* Percentages printed beside the cycles are kept as printed. */
static void
test_report_vertex_shares (void)
{
  g_autofree char *path = tes_test_tmp_path ("shares.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  tes_test_write_file (path,
                       "Execution:\n"
                       "  Total cycles: 1,000 (approx 0.6 microseconds)\n"
                       "  Tile average sync cycles: 10.0 (1.0% of total)\n"
                       "  Cycles by vertex type:\n"
                       "    A   (2 instances):   600 (60.1%)\n"
                       "    B   (1 instance):    300 29.9%\n", -1);
  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpfloat (((TesSummaryRow *)g_ptr_array_index (rows, 0))->share, ==, 60.1);
  g_assert_cmpfloat (((TesSummaryRow *)g_ptr_array_index (rows, 1))->share, ==, 29.9);
  g_assert_cmpint (((TesSummaryRow *)g_ptr_array_index (rows, 1))->count, ==, 1);
}

/* ---- size -A listing: our own files --------------------------------------- */

static void
test_size_small (void)
{
  static const MemoryRow tile00[] = {
    { ".text", 120 }, { ".data", 640 }, { ".bss", 256 }, { ".rodata", 64 }, { ".comment", 40 },
    { ".note.GNU-stack", 0 },
  };
  static const MemoryRow tile10[] = {
    { ".text", 80 }, { ".data", 4096 }, { ".bss", 512 }, { ".rodata", 128 }, { ".comment", 40 },
    { ".note.GNU-stack", 0 },
  };
  /* size -A -x: the same layout in hex */
  static const MemoryRow hex3[] = { { ".text", 0x10 }, { ".data", 0x1f0 }, { ".bss", 0 } };
  static const char * const cli[] = {
    "Importer:       poplar-size-listing (version 1)",
    "Tiles:          3",
    "Info:           archive.total_bytes = 7472",
    NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy (TES_TEST_OWN_DATA, "poplar/archive_size_small.txt",
                                           "poplar-size-listing", &error);
  g_autoptr(TesReport) hex = NULL;
  TesReportCounts counts;
  sqlite3 *db;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 3);
  tes_test_assert_info (report, "archive.name", "archive.a");
  tes_test_assert_info (report, "archive.members", "3");
  tes_test_assert_info (report, "archive.total_bytes", "7472");

  db = open_cache (report);
  assert_tile_memory (db, 0, 0, tile00, G_N_ELEMENTS (tile00), 1120);
  assert_tile_memory (db, 1, 0, tile10, G_N_ELEMENTS (tile10), 4856);
  g_assert_cmpint (tile_bytes (db, 0, 1, TRUE), ==, 1496);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, 3 * 6);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit IS NULL"), ==, 3);
  sqlite3_close (db);

  hex = open_copy (TES_TEST_OWN_DATA, "poplar/archive_size_hex.txt", "poplar-size-listing", &error);
  g_assert_no_error (error);
  tes_test_assert_info (hex, "archive.name", "tiles.a");
  tes_test_assert_info (hex, "archive.members", "2");
  tes_test_assert_info (hex, "archive.total_bytes", "864");
  db = open_cache (hex);
  g_assert_cmpint (tile_bytes (db, 0, 0, TRUE), ==, 0x160);
  assert_tile_memory (db, 0, 3, hex3, G_N_ELEMENTS (hex3), 0x200);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles"), ==, 2);
  sqlite3_close (db);

  assert_cli_info (TES_TEST_OWN_DATA, "poplar/archive_size_small.txt", cli);
}

/* ---- compile report and listing from a generator ------------------------- */

/* info "prefix.<member>" is each member's number, for a JSON object of
 * numbers from the truth. */
static void
assert_info_numbers (TesReport  *report,
                     const char *prefix,
                     JsonObject *values)
{
  g_autoptr(GList) members = json_object_get_members (values);

  g_assert_nonnull (members);
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *key = g_strdup_printf ("%s.%s", prefix, (const char *)l->data);
      g_autofree char *value = int_text (json_object_get_int_member (values, l->data));

      tes_test_assert_info (report, key, value);
    }
}

/* What only our generator's truth records: Graph, the whole graph's
 * memory, and every figure of the Tile # blocks. */
static void
assert_report_details (TesReport *report,
                       Generated *g,
                       sqlite3   *db)
{
  JsonArray *tiles = truth_tiles (g);
  JsonArray *top = json_object_get_array_member (g->truth, "top_tiles");
  JsonObject *max_in = json_array_get_object_element (tiles, json_object_get_int_member (g->truth, "max_including_gaps_tile"));
  g_autofree char *including = int_text (json_object_get_int_member (g->truth, "including_gaps"));
  g_autofree char *max_in_bytes = int_text (json_object_get_int_member (max_in, "including_gaps"));
  g_autofree char *max_in_tile = int_text (json_object_get_int_member (max_in, "index"));

  assert_info_numbers (report, "graph", json_object_get_object_member (g->truth, "graph"));
  assert_info_numbers (report, "memory.region", json_object_get_object_member (g->truth, "regions"));
  assert_info_numbers (report, "memory.data_type", json_object_get_object_member (g->truth, "data_types"));
  tes_test_assert_info (report, "memory.including_gaps", including);
  tes_test_assert_info (report, "memory.by_tile.maximum_including_gaps", max_in_bytes);
  tes_test_assert_info (report, "memory.by_tile.maximum_including_gaps.tile", max_in_tile);

  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      gint64 index = json_array_get_int_element (top, i);
      JsonObject *t = json_array_get_object_element (tiles, index);
      JsonObject *types = json_object_get_object_member (t, "data_types");
      g_autoptr(GList) names = json_object_get_members (types);
      g_autofree char *prefix = g_strdup_printf ("tile.%" G_GINT64_FORMAT ".memory", index);
      g_autofree char *key = g_strconcat (prefix, ".including_gaps", NULL);
      g_autofree char *value = int_text (json_object_get_int_member (t, "including_gaps"));
      g_autofree char *vertex_types = g_strconcat (prefix, ".vertex_data.type", NULL);
      g_autofree char *overflowed_key = g_strconcat (prefix, ".region.Overflowed", NULL);
      g_autofree char *overflowed = int_text (json_object_get_int_member (t, "overflowed"));
      int ipu = (int)json_object_get_int_member (t, "ipu");
      int tile = (int)json_object_get_int_member (t, "tile");

      tes_test_assert_info (report, key, value);
      tes_test_assert_info (report, overflowed_key, overflowed);
      assert_info_numbers (report, vertex_types, json_object_get_object_member (t, "vertex_types"));
      for (GList *l = names; l != NULL; l = l->next)
        g_assert_cmpint (tile_category (db, ipu, tile, l->data), ==, json_object_get_int_member (types, l->data));
    }
}

static void
check_report_generated (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autofree char *path = NULL;
  g_autofree char *n_tiles = NULL;
  JsonArray *tiles, *top, *counts_json;
  JsonObject *hist;
  gint64 width, start;
  guint shown = 0;
  TesReportCounts counts;
  sqlite3 *db;

  generate (&g, data);
  path = generated_path (&g, "compile_report.txt");
  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  tiles = truth_tiles (&g);
  top = json_object_get_array_member (g.truth, "top_tiles");
  hist = json_object_get_object_member (g.truth, "histogram");
  counts_json = json_object_get_array_member (hist, "counts");
  width = json_object_get_int_member (hist, "width_kb");
  start = json_object_get_int_member (hist, "start_kb");

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, json_array_get_length (tiles));
  g_assert_cmpint (tes_report_get_clock (report, 1)->ticks_per_second, ==,
                   (gint64)(json_object_get_double_member (g.truth, "clock_mhz") * 1e6));

  /* every printed bin has the truth's count for its range */
  for (guint i = 1; ; i++)
    {
      g_autofree char *key = g_strdup_printf ("memory.by_tile.bin.%03u", i);
      g_autofree char *value = tes_report_lookup_info (report, key);
      gint64 lo, hi, count;
      char bar[64] = "";

      if (value == NULL)
        break;
      if (sscanf (value, "%" G_GINT64_FORMAT " - %" G_GINT64_FORMAT " %63[*] %" G_GINT64_FORMAT,
                  &lo, &hi, bar, &count) != 4 &&
          sscanf (value, "%" G_GINT64_FORMAT " - %" G_GINT64_FORMAT " %" G_GINT64_FORMAT,
                  &lo, &hi, &count) != 3)
        g_error ("bin %s: '%s'", key, value);
      g_assert_cmpint (hi - lo, ==, width);
      g_assert_cmpint (count, ==, json_array_get_int_element (counts_json, (lo - start) / width));
      shown++;
    }
  g_assert_cmpuint (shown, >=, 5);
  {
    g_autofree char *n = g_strdup_printf ("%u", shown);

    tes_test_assert_info (report, "memory.by_tile.bins", n);
  }
  n_tiles = g_strdup_printf ("%u", json_array_get_length (tiles));
  tes_test_assert_info (report, "memory.by_tile.tiles", n_tiles);

  {
    JsonObject *max = json_array_get_object_element (tiles, json_array_get_int_element (top, 0));
    g_autofree char *oom = int_text (json_object_get_int_member (g.truth, "out_of_memory"));
    g_autofree char *max_tile = int_text (json_array_get_int_element (top, 0));
    g_autofree char *max_bytes = int_text (json_object_get_int_member (max, "total"));

    tes_test_assert_info (report, "memory.by_tile.tiles_out_of_memory", oom);
    tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps.tile", max_tile);
    tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps", max_bytes);
  }

  /* the Tile # blocks: data types add up to each tile's total */
  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(DISTINCT tile_id) FROM tile_memory"), ==, json_array_get_length (top));
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit = %" G_GINT64_FORMAT,
                              json_object_get_int_member (g.truth, "tile_memory_bytes")), ==, json_array_get_length (tiles));
  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      JsonObject *tile = json_array_get_object_element (tiles, json_array_get_int_element (top, i));

      g_assert_cmpint (tile_bytes (db, (int)json_object_get_int_member (tile, "ipu"),
                                   (int)json_object_get_int_member (tile, "tile"), FALSE), ==,
                       json_object_get_int_member (tile, "total"));
    }
  if (data == TES_TEST_OWN_DATA)
    assert_report_details (report, &g, db);
  sqlite3_close (db);
}

static void
test_report_generated (void)
{
  check_report_generated (TES_TEST_OWN_DATA);
}

static void
test_report_generated_shared (void)
{
  check_report_generated (TES_TEST_SHARED_DATA);
}

/* Every tile's sections from the listing add up to the truth's total, its
 * limit is the report's; for our generator, each section too. */
static void
assert_listing_tiles (Generated *g,
                      sqlite3   *db)
{
  JsonArray *tiles = truth_tiles (g);
  gint64 limit = json_object_get_int_member (g->truth, "tile_memory_bytes");

  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *t = json_array_get_object_element (tiles, i);
      int ipu = (int)json_object_get_int_member (t, "ipu");
      int tile = (int)json_object_get_int_member (t, "tile");

      g_assert_cmpint (tile_bytes (db, ipu, tile, TRUE), ==, json_object_get_int_member (t, "total"));
      g_assert_cmpint (query_int (db, "SELECT memory_limit FROM tiles WHERE ipu = %d AND tile = %d",
                                  ipu, tile), ==, limit);
      if (g->data == TES_TEST_OWN_DATA)
        {
          JsonObject *sections = json_object_get_object_member (t, "sections");
          g_autoptr(GList) names = json_object_get_members (sections);

          for (GList *l = names; l != NULL; l = l->next)
            g_assert_cmpint (tile_category (db, ipu, tile, l->data), ==, json_object_get_int_member (sections, l->data));
        }
    }
}

/* The report and the listing of one run fill one per-tile table, in
 * either order: limits from the report, sections for every tile from the
 * listing, data types for the heaviest tiles from the report. */
static void
check_report_with_listing (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  TesImporter *importers[2];
  const char *paths[2];
  g_autofree char *report_path = NULL;
  g_autofree char *listing_path = NULL;
  g_autofree char *n_tiles = NULL;
  g_autofree char *tiles_per_ipu = NULL;
  g_autofree char *members_line = NULL;
  g_autofree char *tiles_line = NULL;
  JsonArray *tiles, *top;

  generate (&g, data);
  report_path = generated_path (&g, "compile_report.txt");
  listing_path = generated_path (&g, "archive_size.txt");
  tiles = truth_tiles (&g);
  top = json_object_get_array_member (g.truth, "top_tiles");
  n_tiles = g_strdup_printf ("%u", json_array_get_length (tiles));
  tiles_per_ipu = g_strdup_printf ("%u", json_array_get_length (tiles) / g.n_ipus);

  for (guint order = 0; order < 2; order++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;
      TesReportCounts counts;
      sqlite3 *db;

      paths[order] = report_path;
      importers[order] = tes_importer_registry_lookup ("poplar-report");
      paths[1 - order] = listing_path;
      importers[1 - order] = tes_importer_registry_lookup ("poplar-size-listing");

      report = tes_report_import_files (paths, importers, 2, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
      g_assert_no_error (error);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_sources, ==, 2);
      g_assert_cmpint (counts.n_tiles, ==, json_array_get_length (tiles));
      tes_test_assert_info (report, "archive.members", n_tiles);
      tes_test_assert_info (report, "target.tiles_per_ipu", tiles_per_ipu);

      db = open_cache (report);
      assert_listing_tiles (&g, db);
      for (guint i = 0; i < json_array_get_length (top); i++)
        {
          JsonObject *t = json_array_get_object_element (tiles, json_array_get_int_element (top, i));

          g_assert_cmpint (tile_bytes (db, (int)json_object_get_int_member (t, "ipu"),
                                       (int)json_object_get_int_member (t, "tile"), FALSE), ==,
                           json_object_get_int_member (t, "total"));
        }
      sqlite3_close (db);
    }

  /* tessera-cli info FILE1 FILE2 */
  members_line = g_strdup_printf ("Info:           archive.members = %s", n_tiles);
  tiles_line = g_strdup_printf ("Tiles:          %s", n_tiles);
  tes_test_run_cli (&cli, "info", report_path, listing_path, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, tiles_line);
  tes_test_assert_contains (cli.out, members_line);
  tes_test_assert_contains (cli.out, "Info:           target.memory_per_tile = 624.0 kB");
}

static void
test_report_with_listing (void)
{
  check_report_with_listing (TES_TEST_OWN_DATA);
}

static void
test_report_with_listing_shared (void)
{
  check_report_with_listing (TES_TEST_SHARED_DATA);
}
/* ---- bad input ------------------------------------------------------------ */

typedef struct
{
  const char *importer;
  const char *name;
  const char *contents;
  gssize      len;
  int         code;
  const char *message;   /* substring, after the file name */
} BadCase;

static void
test_bad_input (void)
{
  static const BadCase cases[] = {
    { "poplar-report", "empty.txt", "", 0, TES_IMPORT_ERROR_EMPTY, ": empty file" },
    { "poplar-report", "blank.txt", "\n  \n", -1, TES_IMPORT_ERROR_EMPTY, ": empty file" },
    { "poplar-report", "prose.txt", "hello\nworld\n", -1, TES_IMPORT_ERROR_INVALID, ": no Poplar report sections" },
    { "poplar-report", "nonnumeric.txt", "Target:\n  Number of IPUs:         1\n  Tiles per IPU:          abc\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: 'Tiles per IPU' expects a whole number, got 'abc'" },
    { "poplar-report", "badunit.txt", "Target:\n  Memory Per-Tile:        256.0 furlongs\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: 'Memory Per-Tile' expects a size" },
    { "poplar-report", "truncated.txt", "Target:\n  Tiles per IPU: 1,216\n\nMemory Usage:\n    Including Gaps:         23,878,3", -1,
      TES_IMPORT_ERROR_INVALID, ":5: expected a size in bytes ('<number> B') for 'Including Gaps'" },
    { "poplar-report", "truncated_exec.txt", "Execution:\n  Total cycles: 6,681,766 (approx 5,023", -1,
      TES_IMPORT_ERROR_INVALID, ":2: unbalanced parentheses" },
    { "poplar-report", "total_text.txt", "Execution:\n  Total cycles: lots\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: 'Total cycles' expects a whole number of cycles" },
    { "poplar-report", "columns.txt",
      "Memory Usage:\n  By Tile (Excluding Gaps):\n    Range (KB) Histogram (Excluding Gaps)    Count (tiles)\n     4 - 5 ****\n", -1,
      TES_IMPORT_ERROR_INVALID, ":4: expected a histogram row '<from> - <to> <bar> <count>'" },
    { "poplar-report", "vertex.txt", "Execution:\n  Cycles by vertex type:\n    Foo (12 instances):  1,2\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: expected '<vertex type> (<N> instances): <cycles>'" },
    { "poplar-report", "memory_row.txt", "Memory Usage:\n    By Data Type:\n      Variables  lots\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: expected '<label>: <bytes> B'" },
    { "poplar-report", "target_row.txt", "Target:\n  Number of IPUs 1\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: expected '<label>: <value>' in the Target section" },
    { "poplar-report", "duplicate.txt", "Graph:\n  Number of vertices: 1\n  Number of vertices: 2\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: 'graph.vertices' is printed twice in one section (first on line 2)" },
    { "poplar-report", "tile_twice.txt", "Tile # 3 memory usage:\n  Including Gaps: 1 B\nTile # 3 memory usage:\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: memory usage of tile 3 is printed twice (first on line 1)" },
    { "poplar-report", "beyond.txt", "Target:\n  Number of IPUs: 1\n  Tiles per IPU: 4\n\nTile # 9 memory usage:\n", -1,
      TES_IMPORT_ERROR_INVALID, ":5: tile 9 is beyond the 4 tiles of the target" },
    { "poplar-report", "huge.txt", "Target:\n  Number of IPUs: 100000\n  Tiles per IPU: 1472\n", -1,
      TES_IMPORT_ERROR_INVALID, ": a target of 100000 IPUs with 1472 tiles each is beyond what Tessera accepts" },
    { "poplar-report", "utf8.txt", "Target:\n  Number of IPUs: \xff\n", -1, TES_IMPORT_ERROR_INVALID, ":2: invalid UTF-8 (byte 8)" },
    { "poplar-report", "binary.txt", "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12, TES_IMPORT_ERROR_INVALID, ":1: binary data" },

    { "poplar-size-listing", "empty.txt", "", 0, TES_IMPORT_ERROR_EMPTY, ": no archive members" },
    { "poplar-size-listing", "truncated.txt", "tile0.elf   (ex archive.a):\nsection   size   addr\n.text  21  0\n", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":3: the file ends inside member 'tile0.elf' (line 1), before its Total line" },
    { "poplar-size-listing", "cut_row.txt", "tile0.elf   (ex archive.a):\nsection   size   addr\n.text  21\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: expected '<section> <size> <addr>' (3 columns), got 2 columns" },
    { "poplar-size-listing", "nonnumeric.txt", "tile0.elf   (ex archive.a):\nsection   size   addr\n.text  abc  0\n", -1,
      TES_IMPORT_ERROR_INVALID, ":3: size and addr must be numbers" },
    { "poplar-size-listing", "total.txt", "tile0.elf   (ex archive.a):\nsection   size   addr\n.text  21  0\n.data  2  0\nTotal  99\n", -1,
      TES_IMPORT_ERROR_INVALID, ":5: Total 99 of member 'tile0.elf' is not the sum of its 2 sections (23)" },
    { "poplar-size-listing", "blank_in_member.txt", "tile0.elf   (ex archive.a):\nsection   size   addr\n.text  21  0\n\nTotal 21\n", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":4: member 'tile0.elf' (line 1) ends without its Total line" },
    { "poplar-size-listing", "notile.txt", "foo.o   (ex archive.a):\nsection   size   addr\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: archive member 'foo.o' names no tile" },
    { "poplar-size-listing", "twice.txt",
      "tile0.elf   (ex archive.a):\nsection size addr\nTotal 0\n\nipu0_tile0.elf   (ex archive.a):\nsection size addr\nTotal 0\n", -1,
      TES_IMPORT_ERROR_INVALID, ":5: member 'ipu0_tile0.elf' is IPU 0 tile 0, already listed on line 1" },
    { "poplar-size-listing", "header.txt", "tile0.elf   (ex archive.a):\nsection size\n", -1,
      TES_IMPORT_ERROR_INVALID, ":2: expected the header 'section size addr'" },
    { "poplar-size-listing", "garbage.txt", "hello world\n", -1,
      TES_IMPORT_ERROR_INVALID, ":1: expected an archive member line" },
    { "poplar-size-listing", "binary.txt", "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12, TES_IMPORT_ERROR_INVALID, ":1: binary data" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s", cases[i].importer, cases[i].name);
      g_autofree char *path = tes_test_tmp_path (name);
      g_autofree char *cache = NULL;
      g_autofree char *expected = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;

      tes_test_write_file (path, cases[i].contents, cases[i].len);
      cache = tes_cache_path_for_source (path);

      report = tes_report_import (path, tes_importer_registry_lookup (cases[i].importer), 0, NULL, NULL, &error);
      g_assert_null (report);
      if (!g_error_matches (error, TES_IMPORT_ERROR, cases[i].code))
        g_error ("case %s: %s (code %d, expected %d)", name, error->message, error->code, cases[i].code);
      expected = g_strconcat (path, cases[i].message, NULL);
      if (strstr (error->message, expected) == NULL)
        g_error ("case %s: '%s' does not contain '%s'", name, error->message, expected);
      g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
    }
}

/* Recoveries: an unknown section is skipped and recorded; a report with
 * only some sections opens; text around the report is skipped. */
static void
test_recoveries (void)
{
  g_autofree char *path = tes_test_tmp_path ("partial.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  TesReportCounts counts;

  tes_test_write_file (path,
                       "Compiling...\n"
                       "Graph:\n"
                       "  Number of vertices:            1,219\n"
                       "  Number of control programs:      17\n"
                       "\n"
                       "Optimisation:\n"
                       "  Foo: 1\n"
                       "  Bar: 2\n"
                       "\n"
                       "Memory Usage:\n"
                       "  Total:\n"
                       "    Including Gaps:         100 B\n"
                       "    Excluding Gaps:\n"
                       "      By Compute Set:\n"
                       "        cs1:        60 B\n"
                       "      .\n"
                       "Done.\n", -1);
  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 0);
  tes_test_assert_info (report, "graph.vertices", "1219");
  tes_test_assert_info (report, "graph.number_of_control_programs", "17");
  tes_test_assert_info (report, "memory.including_gaps", "100");
  tes_test_assert_info (report, "memory.by_compute_set.cs1", "60");
  tes_test_assert_info (report, "warning.1", "line 6: unknown section 'Optimisation:' skipped (2 lines under it)");
  tes_test_assert_info (report, "warning.2", "2 lines outside the report's sections were skipped (first on line 1)");
  tes_test_assert_info (report, "elided_lines", "1");
}

/* ---- profile.pop ---------------------------------------------------------- */

static void
make_sqlite (const char *path,
             const char *sql)
{
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

static void
test_pop (void)
{
  g_autofree char *pop = tes_test_tmp_path ("profile.pop");
  g_autofree char *renamed = tes_test_tmp_path ("profile.sqlite");
  g_autofree char *other = tes_test_tmp_path ("people.db");
  g_autofree char *broken = tes_test_tmp_path ("broken.pop");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_auto(TesCliResult) cli = { 0 };
  TesImporter *importer;
  gsize len;

  make_sqlite (pop,
               "CREATE TABLE ipu_tiles (ipu INTEGER, tile INTEGER);"
               "CREATE TABLE compute_sets (id INTEGER, name TEXT);"
               "CREATE TABLE vertex_types (id INTEGER, name TEXT);"
               "CREATE TABLE program_steps (id INTEGER, cycles INTEGER);"
               "INSERT INTO compute_sets VALUES (1, 'cs');");

  importer = tes_importer_registry_choose (pop, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "poplar-pop");

  report = tes_report_import (pop, importer, 0, NULL, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNSUPPORTED);
  tes_test_assert_contains (error->message, pop);
  tes_test_assert_contains (error->message, "this version of Tessera cannot read the profile.pop schema");
  tes_test_assert_contains (error->message, "Its 4 tables: compute_sets, ipu_tiles, program_steps, vertex_types.");
  {
    g_autofree char *cache = tes_cache_path_for_source (pop);

    g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  }
  g_clear_error (&error);

  /* the content decides, the name only helps */
  g_assert_true (g_file_get_contents (pop, &contents, &len, NULL));
  tes_test_write_file (renamed, contents, len);
  importer = tes_importer_registry_choose (renamed, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "poplar-pop");

  make_sqlite (other, "CREATE TABLE people (name TEXT, age INTEGER);");
  g_assert_null (tes_importer_registry_choose (other, NULL, &error));
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);

  /* damaged: an SQLite header and nothing readable after it */
  {
    g_autofree char *junk = g_malloc0 (4096);

    memcpy (junk, "SQLite format 3", 16);
    memset (junk + 16, 0xee, 4096 - 16);
    tes_test_write_file (broken, junk, 4096);
  }
  report = tes_report_import (broken, tes_importer_registry_lookup ("poplar-pop"), 0, NULL, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID);
  tes_test_assert_contains (error->message, "not a readable SQLite database");
  g_clear_error (&error);

  /* what tessera-cli says */
  tes_test_run_cli (&cli, "info", pop, NULL);
  g_assert_cmpint (cli.status, ==, 1);
  tes_test_assert_contains (cli.err, "cannot read the profile.pop schema");
  tes_test_assert_contains (cli.err, "compute_sets, ipu_tiles, program_steps, vertex_types");
}

/* ---- tile execution trace (Chrome JSON, one thread per tile) -------------- */

typedef struct
{
  const char *name;
  double      ts;       /* µs */
  gint64      cycles;
} TraceEvent;

static gint
compare_events (gconstpointer a,
                gconstpointer b)
{
  const TraceEvent *ea = a;
  const TraceEvent *eb = b;

  return (ea->ts > eb->ts) - (ea->ts < eb->ts);
}

/* The trace's X events per "ipu/tile", read with json-glib, apart from the
 * importer's streaming parser. */
static GHashTable *
read_tile_events (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GHashTable *by_tile = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
  JsonArray *events;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      g_autofree char *key = NULL;
      TraceEvent te;
      GArray *list;

      /* a tile's events are the X events that count cycles */
      if (!g_str_equal (json_object_get_string_member (ev, "ph"), "X") ||
          !json_object_has_member (ev, "args") ||
          !json_object_has_member (json_object_get_object_member (ev, "args"), "cycles"))
        continue;

      key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                             json_object_get_int_member (ev, "pid"), json_object_get_int_member (ev, "tid"));
      te.name = g_intern_string (json_object_get_string_member (ev, "name"));
      te.ts = json_object_get_double_member (ev, "ts");
      te.cycles = json_object_get_int_member (json_object_get_object_member (ev, "args"), "cycles");

      if (!(list = g_hash_table_lookup (by_tile, key)))
        {
          list = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
          g_hash_table_insert (by_tile, g_steal_pointer (&key), list);
        }
      g_array_append_val (list, te);
    }

  return by_tile;
}

static void
assert_tile_lanes (TesReport  *report,
                   JsonObject *truth,
                   GHashTable *events)
{
  JsonArray *tiles = json_object_get_array_member (truth, "tiles");
  double mhz = json_object_get_double_member (truth, "clock_mhz");
  gint64 compute_total = 0;
  sqlite3 *db = open_cache (report);

  for (guint i = 0; i < json_array_get_length (tiles); i++)
    {
      JsonObject *t = json_array_get_object_element (tiles, i);
      int ipu = (int)json_object_get_int_member (t, "ipu");
      int tile = (int)json_object_get_int_member (t, "tile");
      g_autofree char *key = g_strdup_printf ("%d/%d", ipu, tile);
      g_autofree char *tile_name = g_strdup_printf ("Tile %d", tile);
      g_autofree char *ipu_name = g_strdup_printf ("IPU %d", ipu);
      GArray *expected = g_hash_table_lookup (events, key);
      g_autoptr(GArray) slices = NULL;
      g_autoptr(GError) error = NULL;
      const TesTrack *track, *parent;
      const TesClock *clock;
      gint64 track_id;

      track_id = query_int (db, "SELECT track_id FROM tiles WHERE ipu = %d AND tile = %d", ipu, tile);
      g_assert_cmpint (track_id, >, 0);
      track = tes_report_get_track (report, track_id);
      g_assert_nonnull (track);
      g_assert_cmpint (track->kind, ==, TES_TRACK_TILE);
      g_assert_cmpstr (track->name, ==, tile_name);
      parent = tes_report_get_track (report, track->parent_id);
      g_assert_cmpint (parent->kind, ==, TES_TRACK_IPU);
      g_assert_cmpstr (parent->name, ==, ipu_name);
      clock = tes_report_get_clock (report, track->clock_id);
      g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
      g_assert_cmpint (clock->ticks_per_second, ==, (gint64)(mhz * 1e6));

      slices = tes_report_get_slices (report, track_id, G_MININT64, G_MAXINT64, &error);
      g_assert_no_error (error);
      g_assert_nonnull (expected);
      g_assert_cmpuint (slices->len, ==, expected->len);
      g_array_sort (expected, compare_events);

      /* durations are the tool's cycles exactly; starts within a cycle of
       * ts × MHz (ts is printed in µs to 4 decimals) */
      for (guint k = 0; k < slices->len; k++)
        {
          const TesSlice *sl = &g_array_index (slices, TesSlice, k);
          const TraceEvent *te = &g_array_index (expected, TraceEvent, k);
          gint64 start = (gint64)llround (te->ts * mhz);

          g_assert_cmpstr (tes_report_get_string (report, sl->name), ==, te->name);
          g_assert_cmpint (sl->dur, ==, te->cycles);
          g_assert_cmpint (ABS (sl->start - start), <=, 1);
          if (g_str_equal (te->name, "OnTileExecute"))
            compute_total += sl->dur;
        }
    }

  g_assert_cmpint (compute_total, >, 0);
  sqlite3_close (db);
}

/* BSP steps as PopVision's BSP view needs them, checked against the trace
 * read with json-glib (the shared generator's truth has no steps): for
 * each step, every tile's cycles (0 when it has no event: idle). */
static void
assert_bsp_trace (TesReport  *report,
                  const char *trace,
                  guint       n_tiles)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  JsonArray *events;
  gint64 busy = 0;

  json_parser_load_from_file (parser, trace, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      JsonObject *args;
      gint64 step, *cycles;

      if (!g_str_equal (json_object_get_string_member (ev, "ph"), "X"))
        continue;
      args = json_object_get_object_member (ev, "args");
      step = json_object_get_int_member (args, "step");
      if (!(cycles = g_hash_table_lookup (expected, &step)))
        {
          cycles = g_new0 (gint64, n_tiles);
          g_hash_table_insert (expected, g_memdup2 (&step, sizeof step), cycles);
        }
      cycles[json_object_get_int_member (ev, "tid")] += json_object_get_int_member (args, "cycles");
    }

  runs = tes_report_get_runs (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 1);
  g_assert_cmpstr (g_array_index (runs, TesRun, 0).name, ==, "IPU 0");

  steps = tes_report_get_bsp_steps (report, g_array_index (runs, TesRun, 0).id, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (steps->len, ==, g_hash_table_size (expected));

  for (guint i = 0; i < steps->len; i++)
    {
      const TesBspStep *step = g_ptr_array_index (steps, i);
      const gint64 *cycles = g_hash_table_lookup (expected, &step->step);
      g_autofree char *program = g_strdup_printf ("step%" G_GINT64_FORMAT, step->step);
      gint64 longest = 0;

      g_assert_cmpint (step->step, ==, i);
      g_assert_nonnull (cycles);
      g_assert_cmpuint (step->n_tiles, ==, n_tiles);
      g_assert_cmpstr (tes_report_get_string (report, step->name), ==, program);
      for (guint t = 0; t < n_tiles; t++)
        {
          g_assert_cmpint (step->tile_cycles[t], ==, cycles[t]);
          if (cycles[t] == 0)
            g_assert_cmpint (step->tile_states[t], ==, TES_TILE_STATE_IDLE);
          else
            g_assert_cmpint (step->tile_states[t], !=, TES_TILE_STATE_IDLE);
          longest = MAX (longest, cycles[t]);
          busy += cycles[t];
        }
      /* all tiles of a step start together: the step lasts its longest tile */
      g_assert_cmpint (step->dur, ==, longest);
    }

  g_assert_cmpint (busy, >, 0);
}

static TesTileState
state_of (const char *name)
{
  static const struct { const char *name; TesTileState state; } states[] = {
    { "compute", TES_TILE_STATE_COMPUTE },
    { "exchange", TES_TILE_STATE_EXCHANGE },
    { "sync", TES_TILE_STATE_SYNC },
  };

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    if (g_str_equal (states[i].name, name))
      return states[i].state;

  g_error ("the truth names an unknown tile state '%s'", name);
}

/* Runs and BSP steps against our generator's truth: one run per IPU, and
 * per step every tile's cycles and state (idle without an event). Starts
 * are within a cycle (ts is printed in µs to four decimals); durations and
 * cycles are exact. */
static void
assert_bsp_truth (TesReport *report,
                  Generated *g)
{
  JsonArray *truth_runs = json_object_get_array_member (g->truth, "runs");
  JsonArray *truth_steps = json_object_get_array_member (g->truth, "steps");
  guint tiles_per_ipu = (guint)json_object_get_int_member (g->truth, "tiles_per_ipu");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) runs = tes_report_get_runs (report, &error);
  guint n_steps = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, json_array_get_length (truth_runs));
  g_assert_cmpuint (runs->len, ==, g->n_ipus);

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      JsonObject *want = json_array_get_object_element (truth_runs, r);
      gint64 ipu = json_object_get_int_member (want, "ipu");
      g_autoptr(GPtrArray) steps = NULL;
      guint k = 0;

      g_assert_cmpstr (run->name, ==, json_object_get_string_member (want, "name"));
      g_assert_cmpint (ABS (run->start - json_object_get_int_member (want, "start")), <=, 1);
      g_assert_cmpint (ABS (run->end - json_object_get_int_member (want, "end")), <=, 1);

      steps = tes_report_get_bsp_steps (report, run->id, &error);
      g_assert_no_error (error);

      for (guint i = 0; i < json_array_get_length (truth_steps); i++)
        {
          JsonObject *ts = json_array_get_object_element (truth_steps, i);
          JsonArray *cycles = json_object_get_array_member (ts, "cycles");
          TesTileState busy = state_of (json_object_get_string_member (ts, "state"));
          const TesBspStep *step;

          if (json_object_get_int_member (ts, "ipu") != ipu)
            continue;

          g_assert_cmpuint (k, <, steps->len);
          step = g_ptr_array_index (steps, k++);
          g_assert_cmpint (step->step, ==, json_object_get_int_member (ts, "step"));
          g_assert_cmpstr (tes_report_get_string (report, step->name), ==, json_object_get_string_member (ts, "program"));
          g_assert_cmpint (ABS (step->start - json_object_get_int_member (ts, "start")), <=, 1);
          g_assert_cmpint (step->dur, ==, json_object_get_int_member (ts, "dur"));
          g_assert_cmpuint (step->n_tiles, ==, tiles_per_ipu);
          for (guint t = 0; t < tiles_per_ipu; t++)
            {
              gint64 c = json_array_get_int_element (cycles, t);

              g_assert_cmpint (step->tile_cycles[t], ==, c);
              g_assert_cmpint (step->tile_states[t], ==, c == 0 ? TES_TILE_STATE_IDLE : busy);
            }
        }
      g_assert_cmpuint (k, ==, steps->len);
      n_steps += k;
    }

  g_assert_cmpuint (n_steps, ==, json_array_get_length (truth_steps));
}

/* Our generator's host process stays a plain process and thread, in the
 * same cycles clock: one span per run. */
static void
assert_host_lane (TesReport *report,
                  Generated *g)
{
  for (guint id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);

      if (g_str_equal (track->name, "Engine::run"))
        {
          g_assert_cmpint (track->kind, ==, TES_TRACK_THREAD);
          g_assert_cmpint (tes_report_get_track (report, track->parent_id)->kind, ==, TES_TRACK_PROCESS);
          g_assert_cmpstr (tes_report_get_track (report, track->parent_id)->name, ==, "Host");
          g_assert_cmpint (track->n_slices, ==, g->n_ipus);
          return;
        }
    }

  g_error ("no host thread 'Engine::run' among the tracks");
}

static void
check_chrome_tiles (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GHashTable) events = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *mhz = NULL;
  g_autofree char *tiles_line = NULL;
  TesReportCounts counts;
  guint n_tiles;

  generate (&g, data);
  n_tiles = json_array_get_length (truth_tiles (&g));
  trace = generated_path (&g, "execution.json");
  events = read_tile_events (trace);
  g_assert_cmpuint (g_hash_table_size (events), ==, n_tiles);

  report = tes_report_import (trace, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, n_tiles);
  g_assert_cmpint (counts.n_tracks, ==, g.n_ipus + n_tiles + g.host_tracks);
  tes_test_assert_info (report, "flavour", "Graphcore Poplar tile execution trace");
  mhz = g_strdup_printf ("%.0f", json_object_get_double_member (g.truth, "clock_mhz"));
  tes_test_assert_info (report, "clock_mhz", mhz);
  assert_tile_lanes (report, g.truth, events);
  if (data == TES_TEST_OWN_DATA)
    {
      assert_bsp_truth (report, &g);
      assert_host_lane (report, &g);
    }
  else
    assert_bsp_trace (report, trace, n_tiles);

  tiles_line = g_strdup_printf ("Tiles:          %u", n_tiles);
  tes_test_run_cli (&cli, "info", trace, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, "Importer:       chrome-json (version 3)");
  tes_test_assert_contains (cli.out, tiles_line);
  tes_test_assert_contains (cli.out, "(clock IPU cycles)");
}

static void
test_chrome_tiles (void)
{
  check_chrome_tiles (TES_TEST_OWN_DATA);
}

static void
test_chrome_tiles_shared (void)
{
  check_chrome_tiles (TES_TEST_SHARED_DATA);
}

/* A report, its archive listing and its execution trace as one report:
 * every tile has its limit, its sections and its lane, in any order. */
static void
check_three_files (TesTestData data)
{
  g_auto(Generated) g = { 0 };
  g_auto(TesCliResult) cli = { 0 };
  g_autoptr(GHashTable) events = NULL;
  g_autofree char *tiles_line = NULL;
  g_autofree char *tracks_line = NULL;
  g_autofree char *members_line = NULL;
  char *files[3] = { NULL, NULL, NULL };
  static const char *const names[3] = { "execution.json", "compile_report.txt", "archive_size.txt" };
  static const char *const importer_names[3] = { "chrome-json", "poplar-report", "poplar-size-listing" };
  guint n_tiles;

  generate (&g, data);
  n_tiles = json_array_get_length (truth_tiles (&g));
  for (guint i = 0; i < 3; i++)
    files[i] = generated_path (&g, names[i]);
  events = read_tile_events (files[0]);

  for (guint rot = 0; rot < 3; rot++)
    {
      const char *paths[3];
      TesImporter *importers[3];
      g_autoptr(GError) error = NULL;
      g_autoptr(TesReport) report = NULL;
      TesReportCounts counts;
      sqlite3 *db;

      for (guint i = 0; i < 3; i++)
        {
          paths[i] = files[(i + rot) % 3];
          importers[i] = tes_importer_registry_lookup (importer_names[(i + rot) % 3]);
        }

      report = tes_report_import_files (paths, importers, 3, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
      g_assert_no_error (error);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_sources, ==, 3);
      g_assert_cmpint (counts.n_tiles, ==, n_tiles);
      assert_tile_lanes (report, g.truth, events);

      db = open_cache (report);
      assert_listing_tiles (&g, db);
      sqlite3_close (db);
    }

  tiles_line = g_strdup_printf ("Tiles:          %u", n_tiles);
  tracks_line = g_strdup_printf ("Tracks:         %u", g.n_ipus + n_tiles + g.host_tracks);
  members_line = g_strdup_printf ("Info:           archive.members = %u", n_tiles);
  tes_test_run_cli (&cli, "info", files[1], files[2], files[0], NULL);
  g_assert_cmpint (cli.status, ==, 0);
  tes_test_assert_contains (cli.out, tiles_line);
  tes_test_assert_contains (cli.out, tracks_line);
  tes_test_assert_contains (cli.out, "Info:           flavour = Graphcore Poplar tile execution trace");
  tes_test_assert_contains (cli.out, members_line);

  for (guint i = 0; i < 3; i++)
    g_free (files[i]);
}

static void
test_three_files (void)
{
  check_three_files (TES_TEST_OWN_DATA);
}

static void
test_three_files_shared (void)
{
  check_three_files (TES_TEST_SHARED_DATA);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/small", test_report_small);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/layouts", test_report_layouts);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/vertex-cycles", test_report_vertex_cycles);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/vertex-shares", test_report_vertex_shares);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/generated", test_report_generated);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/size/small", test_size_small);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/size/with-report", test_report_with_listing);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/recoveries", test_recoveries);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/pop", test_pop);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/chrome/tiles", test_chrome_tiles);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/chrome/three-files", test_three_files);

  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/adder", test_report_adder);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/imbalance", test_report_imbalance);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/real-excerpts", test_report_real_excerpts);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/generated", test_report_generated_shared);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/size/fixture", test_size_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/size/with-report", test_report_with_listing_shared);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/chrome/tiles", test_chrome_tiles_shared);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/chrome/three-files", test_three_files_shared);

  return g_test_run ();
}
