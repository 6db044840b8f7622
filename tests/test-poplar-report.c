/* test-poplar-report.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "tes-cache.h"
#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-poplar-util.h"

/* The Graphcore Poplar compile report (poplar-report): the shared
 * fixtures and public excerpts (conformance), our own files in every
 * layout, bad input of the report and the size -A listing, recoveries.
 * test-poplar-tiles.c checks the per-tile tables against the listings and
 * a generator, test-poplar-trace.c the tile execution trace and
 * profile.pop. */

/* ---- helpers ------------------------------------------------------------- */

/* Info values expected of one tile or of the whole graph, as printed in a
 * hand-written report. */
typedef struct
{
  const char *key;
  const char *value;
} InfoRow;

static void
assert_info_rows (TesReport     *report,
                  const InfoRow *rows,
                  gsize          n_rows)
{
  for (gsize i = 0; i < n_rows; i++)
    tes_test_assert_info (report, rows[i].key, rows[i].value);
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
    "Importer:       poplar-report (version 5)",
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
    "Importer:       poplar-report (version 5)",
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
      TES_IMPORT_ERROR_TRUNCATED, ":5: the file is cut short inside its last line: expected a size in bytes ('<number> B') for 'Including Gaps'" },
    { "poplar-report", "truncated_exec.txt", "Execution:\n  Total cycles: 6,681,766 (approx 5,023", -1,
      TES_IMPORT_ERROR_TRUNCATED, ":2: the file is cut short inside its last line: unbalanced parentheses" },
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

/* A tile's block in the newer layout: its Not Overlapped data types and
 * the figure the Overlapped ones come to after overlapping are its rows,
 * and add up to the Not Overlapped total plus that figure, as printed. */
static void
test_tile_newer_layout (void)
{
  g_autofree char *path = tes_test_tmp_path ("tile-newer.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  static const MemoryRow rows[] = {
    { "Variables", 8000 },
    { "Stack", 4096 },
    { "Total After Overlapping", 3000 },
  };
  sqlite3 *db;

  tes_test_write_file (path,
                       "Target:\n"
                       "  Number of IPUs:         1\n"
                       "  Tiles per IPU:          8\n"
                       "\n"
                       "Tile # 7 memory usage:\n"
                       "Memory Usage:\n"
                       "    Including Gaps:            18,432 B\n"
                       "    Excluding Gaps:\n"
                       "      By Data Type:\n"
                       "        Not Overlapped\n"
                       "            Variables:             8,000 B\n"
                       "            Stack:                 4,096 B\n"
                       "          Total:                  12,096 B\n"
                       "        Overlapped\n"
                       "            Variables:             5,000 B\n"
                       "          Total:                   5,000 B\n"
                       "          Total After Overlapping: 3,000 B\n", -1);
  report = tes_report_import (path, tes_importer_registry_lookup ("poplar-report"), 0, NULL, NULL, &error);
  g_assert_no_error (error);

  db = open_cache (report);
  assert_tile_memory (db, 0, 7, rows, G_N_ELEMENTS (rows), 12096 + 3000);
  sqlite3_close (db);
  tes_test_assert_info (report, "tile.7.memory.data_type.not_overlapped.total", "12096");
  tes_test_assert_info (report, "tile.7.memory.data_type.overlapped.Variables", "5000");
  tes_test_assert_info (report, "tile.7.memory.data_type.overlapped.total.printed", "5,000 B");
}

/* ---- the layouts of SDK 1.x, 2.x and 3.x, figure by figure --------------- */

/* Every figure tests/poplar-report-figures.py reads in the file with its
 * own regular expressions, against what the importer stored: each info
 * value (the number) and, where the report printed it otherwise, its
 * printed text (key.printed, which tessera-cli info lists and the Summary
 * shows); each histogram bin; the run and its total; the operators; the
 * execution steps as the slices of a track per IPU. */
static void
check_layout (const char *relative,
              gint64      n_tiles)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "poplar-report-figures.py", NULL);
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", relative, NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *path = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) bins = NULL;
  g_autoptr(GArray) runs = NULL;
  const char *python = g_getenv ("PYTHON3");
  JsonObject *figures;
  JsonArray *info, *histograms, *expected_runs, *operators, *steps;
  TesReportCounts counts;
  guint n_bin = 0;
  int status;

  g_assert_nonnull (python);
  {
    const char *argv[] = { python, script, source, NULL };

    if (!tes_test_run (argv, &out, &err, &status))
      g_error ("poplar-report-figures.py failed (%d): %s", status, err);
  }
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  figures = json_node_get_object (json_parser_get_root (parser));
  info = json_object_get_array_member (figures, "info");
  histograms = json_object_get_array_member (figures, "histograms");
  expected_runs = json_object_get_array_member (figures, "runs");
  operators = json_object_get_array_member (figures, "operators");
  steps = json_object_get_array_member (figures, "steps");
  g_assert_cmpuint (json_array_get_length (info), >, 20);

  report = open_copy (TES_TEST_OWN_DATA, relative, "poplar-report", &error);
  g_assert_no_error (error);
  tes_report_get_counts (report, &counts);
  g_assert_cmpint (counts.n_tiles, ==, n_tiles);

  for (guint i = 0; i < json_array_get_length (info); i++)
    {
      JsonArray *row = json_array_get_array_element (info, i);
      const char *key = json_array_get_string_element (row, 0);
      const char *value = json_array_get_string_element (row, 1);
      const char *printed = json_array_get_string_element (row, 2);
      g_autofree char *printed_key = g_strconcat (key, ".printed", NULL);
      g_autofree char *stored = tes_report_lookup_info (report, printed_key);

      tes_test_assert_info (report, key, value);
      /* the printed text, where it differs from the number */
      g_assert_cmpstr (stored, ==, g_str_equal (printed, value) ? NULL : printed);
    }

  /* the histograms, in print order, each of all IPUs or of one */
  bins = tes_report_get_tile_histogram (report, &error);
  g_assert_no_error (error);
  for (guint h = 0; h < json_array_get_length (histograms); h++)
    {
      JsonObject *histogram = json_array_get_object_element (histograms, h);
      JsonArray *rows = json_object_get_array_member (histogram, "bins");

      for (guint i = 0; i < json_array_get_length (rows); i++, n_bin++)
        {
          JsonArray *row = json_array_get_array_element (rows, i);
          const TesTileHistogramBin *bin;

          g_assert_cmpuint (n_bin, <, bins->len);
          bin = &g_array_index (bins, TesTileHistogramBin, n_bin);
          g_assert_cmpuint (bin->histogram, ==, h + 1);
          g_assert_cmpint (bin->ipu, ==, json_object_get_int_member (histogram, "ipu"));
          g_assert_cmpint (bin->lower, ==, json_array_get_int_element (row, 0) * 1024);
          g_assert_cmpint (bin->upper, ==, json_array_get_int_element (row, 1) * 1024);
          g_assert_cmpint (bin->tiles, ==, json_array_get_int_element (row, 2));
        }
    }
  g_assert_cmpuint (n_bin, ==, bins->len);

  runs = tes_report_get_runs (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, json_array_get_length (expected_runs));
  for (guint i = 0; i < runs->len; i++)
    {
      JsonArray *row = json_array_get_array_element (expected_runs, i);
      const TesRun *run = &g_array_index (runs, TesRun, i);

      if (!json_array_get_null_element (row, 0))
        g_assert_cmpstr (run->name, ==, json_array_get_string_element (row, 0));
      g_assert_cmpint (run->start, ==, 0);
      g_assert_cmpint (run->end, ==, json_array_get_int_element (row, 1));
    }
  g_assert_cmpint (counts.n_operators, ==, json_array_get_length (operators));

  /* showExecutionSteps: a track per IPU, the steps end to end */
  g_assert_cmpuint (tes_report_get_n_tracks (report), ==, json_array_get_length (steps));
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonObject *ipu_steps = json_array_get_object_element (steps, i);
      JsonArray *rows = json_object_get_array_member (ipu_steps, "steps");
      g_autofree char *name = g_strdup_printf ("IPU %" G_GINT64_FORMAT, json_object_get_int_member (ipu_steps, "ipu"));
      g_autofree char *n_key = g_strdup_printf ("execution.ipu.%" G_GINT64_FORMAT ".steps",
                                                json_object_get_int_member (ipu_steps, "ipu"));
      g_autofree char *n_text = g_strdup_printf ("%u", json_array_get_length (rows));
      const TesTrack *track = NULL;
      g_autoptr(GArray) slices = NULL;
      gint64 start = 0;

      for (guint t = 1; t <= tes_report_get_n_tracks (report) && track == NULL; t++)
        if (g_str_equal (tes_report_get_track (report, t)->name, name))
          track = tes_report_get_track (report, t);
      g_assert_nonnull (track);
      g_assert_cmpint (track->kind, ==, TES_TRACK_IPU);
      tes_test_assert_info (report, n_key, n_text);

      slices = tes_report_get_slices (report, track->id, G_MININT64 / 2, G_MAXINT64 / 2, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (slices->len, ==, json_array_get_length (rows));
      for (guint j = 0; j < slices->len; j++)
        {
          JsonArray *row = json_array_get_array_element (rows, j);
          const TesSlice *slice = &g_array_index (slices, TesSlice, j);
          const char *text = json_array_get_string_element (row, 2);
          const char *colon = strstr (text, ": ");
          g_autofree char *type = colon != NULL ? g_strndup (text, colon - text) : g_strdup (text);

          g_assert_cmpint (slice->start, ==, start);
          g_assert_cmpint (slice->dur, ==, json_array_get_int_element (row, 1));
          g_assert_cmpstr (tes_report_get_string (report, slice->name), ==, text);
          g_assert_cmpstr (tes_report_get_string (report, slice->category), ==, type);
          start += slice->dur;
        }
    }

  /* tessera-cli info lists every one of them; tessera-cli memory each
   * histogram's Maximum lines as printed */
  path = tes_test_copy_fixture (TES_TEST_OWN_DATA, relative);
  tes_test_assert_cli_info (report, path);
  {
    g_auto(TesCliResult) cli = { 0 };

    tes_test_run_cli (&cli, "memory", path, NULL);
    g_assert_cmpint (cli.status, ==, 0);
    for (guint i = 0; i < json_array_get_length (info); i++)
      {
        JsonArray *row = json_array_get_array_element (info, i);
        const char *key = json_array_get_string_element (row, 0);
        const char *printed = json_array_get_string_element (row, 2);
        g_autofree char *line = NULL;

        if (g_str_has_suffix (key, ".maximum_including_gaps"))
          line = g_strdup_printf ("  Maximum (Including Gaps): %s\n", printed);
        else if (g_str_has_suffix (key, ".maximum_excluding_gaps"))
          line = g_strdup_printf ("  Maximum (Excluding Gaps): %s\n", printed);
        else if (g_str_has_suffix (key, ".tiles_out_of_memory"))
          line = g_strdup_printf ("  %s tile(s) out of memory\n", printed);
        if (line != NULL)
          tes_test_assert_contains (cli.out, line);
      }
  }
}

static void
test_layout_sdk1_tensorflow (void)
{
  check_layout ("poplar/trace_event_report_sdk1_tensorflow_log.txt", 1216);
}

static void
test_layout_sdk2_popart (void)
{
  check_layout ("poplar/summary_report_sdk2_popart_2ipus.txt", 2 * 1472);
}

static void
test_layout_sdk3_stdout (void)
{
  check_layout ("poplar/profile_summary_sdk3_stdout.txt", 1472);
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
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/bad-input", test_bad_input);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/recoveries", test_recoveries);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/tile-newer-layout", test_tile_newer_layout);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/layout/sdk1-tensorflow", test_layout_sdk1_tensorflow);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/layout/sdk2-popart", test_layout_sdk2_popart);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/layout/sdk3-stdout", test_layout_sdk3_stdout);

  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/adder", test_report_adder);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/imbalance", test_report_imbalance);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/real-excerpts", test_report_real_excerpts);

  return g_test_run ();
}
