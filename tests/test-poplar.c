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

static TesReport *
open_copy (const char  *shared_rel,
           const char  *importer_name,
           GError     **error)
{
  g_autofree char *src = tes_test_shared_path (shared_rel);
  g_autofree char *base = g_path_get_basename (src);
  g_autofree char *copy = tes_test_copy_to_tmp (src, base);
  TesImporter *importer = tes_importer_registry_lookup (importer_name);

  g_assert_nonnull (importer);
  return tes_report_open (copy, importer, 0, NULL, NULL, error);
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

static char *
run_cli (int *status,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *err = NULL;
  const char *arg;
  char *out = NULL;
  va_list args;

  g_ptr_array_add (argv, (gpointer)g_getenv ("TESSERA_CLI"));
  g_assert_nonnull (argv->pdata[0]);
  va_start (args, status);
  while ((arg = va_arg (args, const char *)))
    g_ptr_array_add (argv, (gpointer)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  tes_test_run ((const char * const *)argv->pdata, &out, &err, status);
  if (*status != 0)
    {
      g_free (out);
      return g_steal_pointer (&err);
    }

  return out;
}

/* gen_poplar_tiles.py's three files and its truth, in a fresh folder. */
typedef struct
{
  char       *dir;
  JsonParser *parser;
  JsonObject *truth;
} Generated;

static void
generated_clear (Generated *g)
{
  g_clear_pointer (&g->dir, g_free);
  g_clear_object (&g->parser);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Generated, generated_clear)

static gboolean
generate (Generated *g)
{
  g_autofree char *script = tes_test_shared_path ("bench/gen_poplar_tiles.py");
  g_autofree char *truth = NULL;
  g_autoptr(GError) error = NULL;
  const char *python = g_getenv ("PYTHON3");
  g_autofree char *python_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (!g_file_test (script, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("gen_poplar_tiles.py not found");
      return FALSE;
    }

  python_path = g_find_program_in_path (python ? python : "python3");
  if (python_path == NULL)
    {
      g_test_skip ("python3 not found");
      return FALSE;
    }

  g->dir = tes_test_tmp_path ("gen-poplar");
  {
    const char *argv[] = { python_path, script, "--ipus", "1", "--tiles", "64",
                           "--steps", "20", "--outdir", g->dir, NULL };

    tes_test_run (argv, &out, &err, &status);
    if (status != 0)
      g_error ("gen_poplar_tiles.py failed: %s", err);
  }

  truth = g_build_filename (g->dir, "truth.json", NULL);
  g->parser = json_parser_new ();
  json_parser_load_from_file (g->parser, truth, &error);
  g_assert_no_error (error);
  g->truth = json_node_get_object (json_parser_get_root (g->parser));

  return TRUE;
}

static char *
generated_path (Generated  *g,
                const char *name)
{
  return g_build_filename (g->dir, name, NULL);
}

/* ---- compile report: fixtures -------------------------------------------- */

static void
test_report_adder (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy ("fixtures/poplar/compile_report_adder.txt", "poplar-report", &error);
  g_autofree char *out = NULL;
  const TesClock *clock;
  TesReportCounts counts;
  sqlite3 *db;
  int status;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 1216);
  g_assert_cmpint (counts.n_operators, ==, 0);
  g_assert_cmpint (counts.n_runs, ==, 0);

  /* Target: a cycles clock at the printed frequency */
  tes_test_assert_info (report, "target.ipus", "1");
  tes_test_assert_info (report, "target.tiles_per_ipu", "1216");
  tes_test_assert_info (report, "target.total_tiles", "1216");
  tes_test_assert_info (report, "target.memory_per_tile", "256.0 kB");
  tes_test_assert_info (report, "target.total_memory", "304.0 MB");
  tes_test_assert_info (report, "target.clock", "1600.0 MHz");
  g_assert_cmpuint (tes_report_get_n_clocks (report), ==, 1);
  clock = tes_report_get_clock (report, 1);
  g_assert_cmpint (clock->unit, ==, TES_TIME_UNIT_CYCLES);
  g_assert_cmpint (clock->ticks_per_second, ==, 1600000000);

  /* Graph */
  tes_test_assert_info (report, "graph.vertices", "1219");
  tes_test_assert_info (report, "graph.edges", "1223");
  tes_test_assert_info (report, "graph.variables", "30562");
  tes_test_assert_info (report, "graph.compute_sets", "4");

  /* Memory Usage */
  tes_test_assert_info (report, "memory.including_gaps", "23878396");
  tes_test_assert_info (report, "memory.region.Non-interleaved", "5355604");
  tes_test_assert_info (report, "memory.region.Overflowed", "0");
  tes_test_assert_info (report, "memory.data_type.Variables", "39108");
  tes_test_assert_info (report, "memory.data_type.Host Exchange Packet Headers", "10512");
  tes_test_assert_info (report, "memory.data_type.Stack", "3852288");
  tes_test_assert_info (report, "memory.data_type.Control Code", "851272");
  tes_test_assert_info (report, "memory.data_type.Instrumentation Results", "4876");
  tes_test_assert_info (report, "memory.data_type.Shared Data Storage", "0");
  tes_test_assert_info (report, "memory.vertex_data", "14640");
  tes_test_assert_info (report, "memory.vertex_data.category.Internal vertex state", "9736");
  tes_test_assert_info (report, "memory.vertex_data.category.Edge pointers", "4904");
  tes_test_assert_info (report, "memory.vertex_data.type.poprand::SetSeedSupervisor", "34048");
  tes_test_assert_info (report, "memory.vertex_data.type.popops::BinaryOp1DSupervisor<popops::expr::BinaryOpType::ADD,float>", "16");

  /* the histogram, as printed (less the header's indentation) */
  tes_test_assert_info (report, "memory.by_tile.header", "Range (KB) Histogram (Excluding Gaps)               Count (tiles)");
  tes_test_assert_info (report, "memory.by_tile.bin.001", "     4 - 5 ****************************************  1,215");
  tes_test_assert_info (report, "memory.by_tile.bin.002", "     5 - 6 *                                             1");
  tes_test_assert_info (report, "memory.by_tile.bins", "2");
  tes_test_assert_info (report, "memory.by_tile.tiles", "1216");
  tes_test_assert_info (report, "memory.by_tile.maximum_including_gaps", "49184");
  tes_test_assert_info (report, "memory.by_tile.maximum_including_gaps.k", "48.0");
  tes_test_assert_info (report, "memory.by_tile.maximum_including_gaps.tile", "0");
  tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps", "5780");
  tes_test_assert_info (report, "memory.by_tile.tiles_out_of_memory", "0");

  /* every tile of the target, with its memory */
  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit = 262144"), ==, 1216);
  g_assert_cmpint (query_int (db, "SELECT max (tile) FROM tiles WHERE ipu = 0"), ==, 1215);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, 0);
  sqlite3_close (db);

  /* and through the CLI */
  {
    g_autofree char *src = tes_test_shared_path ("fixtures/poplar/compile_report_adder.txt");
    g_autofree char *copy = tes_test_copy_to_tmp (src, "cli_adder.txt");

    out = run_cli (&status, "info", copy, NULL);
    g_assert_cmpint (status, ==, 0);
    tes_test_assert_contains (out, "Importer:       poplar-report (version 1)");
    tes_test_assert_contains (out, "Tiles:          1216");
    tes_test_assert_contains (out, "Info:           target.clock = 1600.0 MHz");
    tes_test_assert_contains (out, "Info:           memory.data_type.Stack = 3852288");
    tes_test_assert_contains (out, "Info:           memory.by_tile.bin.001 =      4 - 5 ****************************************  1,215");
    tes_test_assert_contains (out, "Info:           memory.by_tile.tiles_out_of_memory = 0");
  }
}

static void
test_report_imbalance (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy ("fixtures/poplar/compile_report_imbalance_excerpt.txt",
                                           "poplar-report", &error);
  static const struct { const char *name; gint64 bytes; } tile0[] = {
    { "Variables", 807658 }, { "Constants", 0 }, { "Host Exchange Packet Headers", 1160 },
    { "Global Exchange Packet Headers", 0 }, { "Stack", 3168 }, { "Vertex Instances", 12074 },
    { "Copy Descriptors", 1385 }, { "VectorList Descriptors", 960 }, { "Vertex Field Data", 7934 },
    { "Control Table", 0 }, { "Control Code", 0 },
  };
  TesReportCounts counts;
  sqlite3 *db;

  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 1216);

  tes_test_assert_info (report, "memory.by_tile.bins", "14");
  tes_test_assert_info (report, "memory.by_tile.tiles", "1216");
  tes_test_assert_info (report, "memory.by_tile.bin.002", "   8 -  16 ****************************************  1,192");
  tes_test_assert_info (report, "memory.by_tile.bin.014", " 808 - 816 *                                             1");
  tes_test_assert_info (report, "memory.by_tile.tiles_out_of_memory", "2");
  tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps", "834339");
  tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps.tile", "0");

  /* Tile # 0: data types in the tile table, the rest in info */
  tes_test_assert_info (report, "tile.0.memory.including_gaps", "834416");
  tes_test_assert_info (report, "tile.0.memory.region.Overflowed", "580387");
  tes_test_assert_info (report, "tile.0.memory.vertex_data", "22353");
  tes_test_assert_info (report, "tile.0.memory.vertex_data.category.Edge pointers", "10798");
  tes_test_assert_info (report, "tile.0.memory.vertex_data.type.poplin::ConvPartial1x1Out<float,float,true,false>", "6648");

  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tile_memory"), ==, G_N_ELEMENTS (tile0));
  for (guint i = 0; i < G_N_ELEMENTS (tile0); i++)
    g_assert_cmpint (tile_category (db, 0, 0, tile0[i].name), ==, tile0[i].bytes);
  /* its data types add up to the printed maximum excluding gaps */
  g_assert_cmpint (tile_bytes (db, 0, 0, FALSE), ==, 834339);
  g_assert_cmpint (query_int (db, "SELECT memory_limit FROM tiles WHERE ipu = 0 AND tile = 0"), ==, 262144);
  sqlite3_close (db);
}

static void
test_report_real_excerpts (void)
{
  g_autoptr(GError) error = NULL;

  /* SDK 3.x Target with replica lines, inside a log */
  {
    g_autoptr(TesReport) report = open_copy ("fixtures/real/poplar/graphcore-examples-k8s-doc__Target_Graph_Poplar3.3_excerpt.txt",
                                             "poplar-report", &error);
    TesReportCounts counts;
    sqlite3 *db;

    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_tiles, ==, 1472);
    tes_test_assert_info (report, "target.memory_per_tile", "624.0 kB");
    tes_test_assert_info (report, "target.clock", "1850.0 MHz");
    tes_test_assert_info (report, "target.replicas", "1");
    tes_test_assert_info (report, "target.ipus_per_replica", "1");
    tes_test_assert_info (report, "target.tiles_per_replica", "1472");
    tes_test_assert_info (report, "target.memory_per_replica", "897.0 MB");
    tes_test_assert_info (report, "graph.vertices", "5466");
    tes_test_assert_info (report, "graph.compute_sets", "20");
    tes_test_assert_info (report, "warning.1", "7 lines outside the report's sections were skipped (first on line 1)");
    tes_test_assert_info (report, "elided_lines", "2");
    g_assert_cmpint (tes_report_get_clock (report, 1)->ticks_per_second, ==, 1850000000);

    db = open_cache (report);
    g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit = 638976"), ==, 1472);
    sqlite3_close (db);
  }

  /* newer SDK Execution sections: programs executed, tile averages */
  {
    g_autoptr(TesReport) report = open_copy ("fixtures/real/poplar/graphcore-examples__tut6_README__Execution_section_excerpt.txt",
                                             "poplar-report", &error);
    TesReportCounts counts;
    sqlite3 *db;

    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_runs, ==, 2);
    g_assert_cmpint (counts.n_tiles, ==, 0);
    tes_test_assert_info (report, "execution.program.1", "<anonymous>");
    tes_test_assert_info (report, "execution.total_cycles", "6681766");
    tes_test_assert_info (report, "execution.total_cycles.approx_us", "5023.9");
    tes_test_assert_info (report, "execution.tile_average_compute_cycles_including_idle_threads", "3801.8");
    tes_test_assert_info (report, "execution.tile_average_compute_cycles_including_idle_threads.share", "0.1");
    tes_test_assert_info (report, "execution.tile_average_compute_cycles_excluding_idle_threads", "3717.6");
    tes_test_assert_info (report, "execution.tile_average_host_exchange_cycles", "6663550.8");
    tes_test_assert_info (report, "execution.tile_average_host_exchange_cycles.share", "99.7");
    tes_test_assert_info (report, "execution.tile_average_sync_cycles", "1134.8");
    tes_test_assert_info (report, "execution.2.total_cycles", "25444984");
    tes_test_assert_info (report, "execution.2.tile_average_compute_cycles_including_idle_threads", "28300.3");
    tes_test_assert_info (report, "execution.2.tile_average_sync_cycles.share", "0.5");
    /* no Target: the clock comes from cycles / microseconds */
    tes_test_assert_info (report, "clock.derived_mhz", "1330");
    g_assert_cmpint (tes_report_get_clock (report, 1)->ticks_per_second, ==, 1330000000);

    db = open_cache (report);
    g_assert_cmpint (query_int (db, "SELECT \"end\" FROM runs WHERE id = 1"), ==, 6681766);
    g_assert_cmpint (query_int (db, "SELECT \"end\" FROM runs WHERE id = 2"), ==, 25444984);
    g_assert_cmpint (query_int (db, "SELECT count(*) FROM runs WHERE name = '<anonymous>' AND start = 0"), ==, 2);
    sqlite3_close (db);
  }

  /* the TensorFlow doc's excerpts: two histograms, one elided, and Tile # 0 */
  {
    g_autoptr(TesReport) report = open_copy ("fixtures/real/poplar/graphcore-tensorflow_docs_logging.rst__report_excerpts.txt",
                                             "poplar-report", &error);
    sqlite3 *db;

    g_assert_no_error (error);
    tes_test_assert_info (report, "memory.including_gaps", "23878396");
    tes_test_assert_info (report, "memory.data_type.Vertex Code", "170788");
    tes_test_assert_info (report, "memory.by_tile.bins", "2");
    tes_test_assert_info (report, "memory.by_tile.2.bin.005", "  32 -  40                                               0");
    tes_test_assert_info (report, "memory.by_tile.2.bin.006", "...");
    tes_test_assert_info (report, "memory.by_tile.2.bin.007", " 488 - 496                                               0");
    tes_test_assert_info (report, "memory.by_tile.2.bin.012", "...");
    tes_test_assert_info (report, "memory.by_tile.2.bins", "14");
    tes_test_assert_info (report, "memory.by_tile.2.tiles", "1216");
    tes_test_assert_info (report, "memory.by_tile.2.tiles_out_of_memory", "2");
    tes_test_assert_info (report, "tile.0.memory.vertex_data.type.popops::Reduce<popops::ReduceAdd,float,float,false,0>", "2542");
    tes_test_assert_info (report, "elided_lines", "15");

    db = open_cache (report);
    g_assert_cmpint (tile_category (db, 0, 0, "Variables"), ==, 807658);
    g_assert_cmpint (tile_bytes (db, 0, 0, FALSE), ==, 834339);
    sqlite3_close (db);
  }

  /* bare cycle lines labelled by the line above them */
  {
    g_autoptr(TesReport) report = open_copy ("fixtures/real/poplar/lbm-graphcore__gaussian-blur-scaling__exchange-vs-compute.txt",
                                             "poplar-report", &error);
    TesReportCounts counts;
    sqlite3 *db;

    g_assert_no_error (error);
    tes_report_get_counts (report, &counts);
    g_assert_cmpint (counts.n_runs, ==, 3);
    tes_test_assert_info (report, "execution.label", "float");
    tes_test_assert_info (report, "execution.total_cycles", "126351372");
    tes_test_assert_info (report, "execution.tile_average_sync_cycles.share", "69.2");
    tes_test_assert_info (report, "execution.2.label", "float2");
    tes_test_assert_info (report, "execution.2.tile_average_compute_cycles_including_idle_threads", "15322789.5");
    tes_test_assert_info (report, "execution.3.total_cycles", "46188492");
    tes_test_assert_info (report, "execution.3.tile_average_host_exchange_cycles.share", "7.3");
    tes_test_assert_info (report, "clock.derived_mhz", "1600");

    db = open_cache (report);
    g_assert_cmpint (query_int (db, "SELECT \"end\" FROM runs WHERE name = 'float'"), ==, 126351372);
    g_assert_cmpint (query_int (db, "SELECT \"end\" FROM runs WHERE name = 'float2'"), ==, 106179150);
    g_assert_cmpint (query_int (db, "SELECT \"end\" FROM runs WHERE name = 'Execution 3'"), ==, 46188492);
    sqlite3_close (db);
  }
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
  g_autofree char *out = NULL;
  const TesSummaryRow *row;
  TesReportCounts counts;
  int status;

  tes_test_write_file (path, old_execution, -1);
  g_assert_cmpstr (tes_importer_get_name (tes_importer_registry_choose (path, NULL, &error)), ==, "poplar-report");
  report = tes_report_open (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
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

  out = run_cli (&status, "summary", path, NULL);
  g_assert_cmpint (status, ==, 0);
  tes_test_assert_contains (out, "DotProductVertex 98.415%\n");
  tes_test_assert_contains (out, "ReduceVertex 1.500%\n");
  tes_test_assert_contains (out, "poplar_rt::ShortMemcpy 0.085%\n");
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
  report = tes_report_open (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  rows = tes_report_summarize (report, TES_SUMMARY_TOTAL, TES_GROUP_BY_CATEGORY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpfloat (((TesSummaryRow *)g_ptr_array_index (rows, 0))->share, ==, 60.1);
  g_assert_cmpfloat (((TesSummaryRow *)g_ptr_array_index (rows, 1))->share, ==, 29.9);
  g_assert_cmpint (((TesSummaryRow *)g_ptr_array_index (rows, 1))->count, ==, 1);
}

/* ---- compile report: gen_poplar_tiles.py ---------------------------------- */

static void
test_report_generated (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autofree char *path = NULL;
  JsonArray *tiles, *top, *counts_json;
  JsonObject *hist;
  gint64 width, start;
  guint shown = 0;
  TesReportCounts counts;
  sqlite3 *db;

  if (!generate (&g))
    return;

  path = generated_path (&g, "compile_report.txt");
  report = tes_report_open (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  tiles = json_object_get_array_member (g.truth, "tiles");
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
  tes_test_assert_info (report, "memory.by_tile.tiles", "64");

  {
    g_autofree char *oom = g_strdup_printf ("%" G_GINT64_FORMAT,
                                            json_object_get_int_member (g.truth, "out_of_memory"));
    g_autofree char *max_tile = g_strdup_printf ("%" G_GINT64_FORMAT, json_array_get_int_element (top, 0));
    JsonObject *max = json_array_get_object_element (tiles, json_array_get_int_element (top, 0));
    g_autofree char *max_bytes = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (max, "total"));

    tes_test_assert_info (report, "memory.by_tile.tiles_out_of_memory", oom);
    tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps.tile", max_tile);
    tes_test_assert_info (report, "memory.by_tile.maximum_excluding_gaps", max_bytes);
  }

  /* the five Tile # blocks: data types add up to each tile's total */
  db = open_cache (report);
  g_assert_cmpint (query_int (db, "SELECT count(DISTINCT tile_id) FROM tile_memory"), ==, 5);
  g_assert_cmpint (query_int (db, "SELECT count(*) FROM tiles WHERE memory_limit = %" G_GINT64_FORMAT,
                              json_object_get_int_member (g.truth, "tile_memory_bytes")), ==, 64);
  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      gint64 t = json_array_get_int_element (top, i);
      JsonObject *tile = json_array_get_object_element (tiles, t);

      g_assert_cmpint (tile_bytes (db, 0, (int)t, FALSE), ==, json_object_get_int_member (tile, "total"));
    }
  sqlite3_close (db);
}

/* ---- size -A listing ------------------------------------------------------ */

static void
test_size_fixture (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = open_copy ("fixtures/poplar/size_A_archive_4tiles.txt", "poplar-size-listing", &error);
  static const gint64 totals[] = { 957, 4311, 7671, 11034 };
  g_autofree char *out = NULL;
  TesReportCounts counts;
  sqlite3 *db;
  int status;

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

  {
    g_autofree char *src = tes_test_shared_path ("fixtures/poplar/size_A_archive_4tiles.txt");
    g_autofree char *copy = tes_test_copy_to_tmp (src, "tiles_elf.txt");

    out = run_cli (&status, "info", copy, NULL);
    g_assert_cmpint (status, ==, 0);
    tes_test_assert_contains (out, "Importer:       poplar-size-listing (version 1)");
    tes_test_assert_contains (out, "Tiles:          4");
    tes_test_assert_contains (out, "Info:           archive.total_bytes = 23973");
  }
}

/* The report and the listing of one run fill one per-tile table, in
 * either order: limits from the report, sections for every tile from the
 * listing, data types for the heaviest tiles from the report. */
static void
test_report_with_listing (void)
{
  g_auto(Generated) g = { 0 };
  TesImporter *importers[2];
  const char *paths[2];
  g_autofree char *report_path = NULL;
  g_autofree char *listing_path = NULL;
  JsonArray *tiles, *top;
  gint64 limit;

  if (!generate (&g))
    return;

  report_path = generated_path (&g, "compile_report.txt");
  listing_path = generated_path (&g, "archive_size.txt");
  tiles = json_object_get_array_member (g.truth, "tiles");
  top = json_object_get_array_member (g.truth, "top_tiles");
  limit = json_object_get_int_member (g.truth, "tile_memory_bytes");

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

      report = tes_report_open_files (paths, importers, 2, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
      g_assert_no_error (error);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_sources, ==, 2);
      g_assert_cmpint (counts.n_tiles, ==, json_array_get_length (tiles));
      tes_test_assert_info (report, "archive.members", "64");
      tes_test_assert_info (report, "target.tiles_per_ipu", "64");

      db = open_cache (report);
      for (guint i = 0; i < json_array_get_length (tiles); i++)
        {
          JsonObject *t = json_array_get_object_element (tiles, i);
          int ipu = (int)json_object_get_int_member (t, "ipu");
          int tile = (int)json_object_get_int_member (t, "tile");

          g_assert_cmpint (tile_bytes (db, ipu, tile, TRUE), ==, json_object_get_int_member (t, "total"));
          g_assert_cmpint (query_int (db, "SELECT memory_limit FROM tiles WHERE ipu = %d AND tile = %d",
                                      ipu, tile), ==, limit);
        }
      for (guint i = 0; i < json_array_get_length (top); i++)
        {
          gint64 t = json_array_get_int_element (top, i);

          g_assert_cmpint (tile_bytes (db, 0, (int)t, FALSE), ==,
                           json_object_get_int_member (json_array_get_object_element (tiles, t), "total"));
        }
      sqlite3_close (db);
    }

  /* tessera-cli info FILE1 FILE2 */
  {
    g_autofree char *out = NULL;
    int status;

    out = run_cli (&status, "info", report_path, listing_path, NULL);
    g_assert_cmpint (status, ==, 0);
    tes_test_assert_contains (out, "Tiles:          64");
    tes_test_assert_contains (out, "Info:           archive.members = 64");
    tes_test_assert_contains (out, "Info:           target.memory_per_tile = 624.0 kB");
  }
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

      report = tes_report_open (path, tes_importer_registry_lookup (cases[i].importer), 0, NULL, NULL, &error);
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
  report = tes_report_open (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
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
  g_autofree char *out = NULL;
  TesImporter *importer;
  gsize len;
  int status;

  make_sqlite (pop,
               "CREATE TABLE ipu_tiles (ipu INTEGER, tile INTEGER);"
               "CREATE TABLE compute_sets (id INTEGER, name TEXT);"
               "CREATE TABLE vertex_types (id INTEGER, name TEXT);"
               "CREATE TABLE program_steps (id INTEGER, cycles INTEGER);"
               "INSERT INTO compute_sets VALUES (1, 'cs');");

  importer = tes_importer_registry_choose (pop, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tes_importer_get_name (importer), ==, "poplar-pop");

  report = tes_report_open (pop, importer, 0, NULL, NULL, &error);
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
  report = tes_report_open (broken, tes_importer_registry_lookup ("poplar-pop"), 0, NULL, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, TES_IMPORT_ERROR, TES_IMPORT_ERROR_INVALID);
  tes_test_assert_contains (error->message, "not a readable SQLite database");
  g_clear_error (&error);

  /* what tessera-cli says */
  out = run_cli (&status, "info", pop, NULL);
  g_assert_cmpint (status, ==, 1);
  tes_test_assert_contains (out, "cannot read the profile.pop schema");
  tes_test_assert_contains (out, "compute_sets, ipu_tiles, program_steps, vertex_types");
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

      if (!g_str_equal (json_object_get_string_member (ev, "ph"), "X"))
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
 * read with json-glib: for each step, every tile's cycles (0 when it has
 * no event: idle) and its state from the program's kind. */
static void
assert_bsp_steps (TesReport  *report,
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

static void
test_chrome_tiles (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GHashTable) events = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *out = NULL;
  TesReportCounts counts;
  int status;

  if (!generate (&g))
    return;

  trace = generated_path (&g, "execution.json");
  events = read_tile_events (trace);
  g_assert_cmpuint (g_hash_table_size (events), ==, 64);

  report = tes_report_open (trace, tes_importer_registry_lookup ("chrome-json"), 0, NULL, NULL, &error);
  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, 64);
  g_assert_cmpint (counts.n_tracks, ==, 65);
  tes_test_assert_info (report, "flavour", "Graphcore Poplar tile execution trace");
  tes_test_assert_info (report, "clock_mhz", "1850");
  assert_tile_lanes (report, g.truth, events);
  assert_bsp_steps (report, trace, 64);

  out = run_cli (&status, "info", trace, NULL);
  g_assert_cmpint (status, ==, 0);
  tes_test_assert_contains (out, "Importer:       chrome-json (version 3)");
  tes_test_assert_contains (out, "Tiles:          64");
  tes_test_assert_contains (out, "(clock IPU cycles)");
}

/* A report, its archive listing and its execution trace as one report:
 * every tile has its limit, its sections and its lane, in any order. */
static void
test_three_files (void)
{
  g_auto(Generated) g = { 0 };
  g_autoptr(GHashTable) events = NULL;
  char *files[3] = { NULL, NULL, NULL };
  static const char *const names[3] = { "execution.json", "compile_report.txt", "archive_size.txt" };
  static const char *const importer_names[3] = { "chrome-json", "poplar-report", "poplar-size-listing" };
  JsonArray *tiles;

  if (!generate (&g))
    return;

  for (guint i = 0; i < 3; i++)
    files[i] = generated_path (&g, names[i]);
  events = read_tile_events (files[0]);
  tiles = json_object_get_array_member (g.truth, "tiles");

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

      report = tes_report_open_files (paths, importers, 3, TES_REPORT_OPEN_REIMPORT, NULL, NULL, &error);
      g_assert_no_error (error);
      tes_report_get_counts (report, &counts);
      g_assert_cmpint (counts.n_sources, ==, 3);
      g_assert_cmpint (counts.n_tiles, ==, 64);
      assert_tile_lanes (report, g.truth, events);

      db = open_cache (report);
      for (guint i = 0; i < json_array_get_length (tiles); i++)
        {
          JsonObject *t = json_array_get_object_element (tiles, i);
          int tile = (int)json_object_get_int_member (t, "tile");

          g_assert_cmpint (tile_bytes (db, 0, tile, TRUE), ==, json_object_get_int_member (t, "total"));
          g_assert_cmpint (query_int (db, "SELECT memory_limit FROM tiles WHERE ipu = 0 AND tile = %d", tile), ==,
                           json_object_get_int_member (g.truth, "tile_memory_bytes"));
        }
      sqlite3_close (db);
    }

  {
    g_autofree char *out = NULL;
    int status;

    out = run_cli (&status, "info", files[1], files[2], files[0], NULL);
    g_assert_cmpint (status, ==, 0);
    tes_test_assert_contains (out, "Tiles:          64");
    tes_test_assert_contains (out, "Tracks:         65");
    tes_test_assert_contains (out, "Info:           flavour = Graphcore Poplar tile execution trace");
    tes_test_assert_contains (out, "Info:           archive.members = 64");
  }

  for (guint i = 0; i < 3; i++)
    g_free (files[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tes/poplar/report/adder", test_report_adder);
  g_test_add_func ("/tes/poplar/report/imbalance", test_report_imbalance);
  g_test_add_func ("/tes/poplar/report/real-excerpts", test_report_real_excerpts);
  g_test_add_func ("/tes/poplar/report/vertex-cycles", test_report_vertex_cycles);
  g_test_add_func ("/tes/poplar/report/vertex-shares", test_report_vertex_shares);
  g_test_add_func ("/tes/poplar/report/generated", test_report_generated);
  g_test_add_func ("/tes/poplar/size/fixture", test_size_fixture);
  g_test_add_func ("/tes/poplar/size/with-report", test_report_with_listing);
  g_test_add_func ("/tes/poplar/bad-input", test_bad_input);
  g_test_add_func ("/tes/poplar/recoveries", test_recoveries);
  g_test_add_func ("/tes/poplar/pop", test_pop);
  g_test_add_func ("/tes/poplar/chrome/tiles", test_chrome_tiles);
  g_test_add_func ("/tes/poplar/chrome/three-files", test_three_files);

  return g_test_run ();
}
