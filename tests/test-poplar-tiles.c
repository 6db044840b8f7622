/* test-poplar-tiles.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "tes-importer-registry.h"
#include "tes-report.h"
#include "tes-test-util.h"
#include "test-poplar-util.h"

/* Graphcore Poplar memory per tile: the size -A archive listing
 * (poplar-size-listing), the compile report's Tile # blocks and
 * histograms against a generator's truth, and the report and the listing
 * of one run as one per-tile table. */

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

static char *
int_text (gint64 v)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, v);
}

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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/report/generated", test_report_generated);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/size/small", test_size_small);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/poplar/size/with-report", test_report_with_listing);

  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/report/generated", test_report_generated_shared);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/size/fixture", test_size_fixture);
  tes_test_add (TES_TEST_SHARED_DATA, "/tes/poplar/size/with-report", test_report_with_listing_shared);

  return g_test_run ();
}
