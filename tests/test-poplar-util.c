/* test-poplar-util.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-importer-registry.h"
#include "test-poplar-util.h"

/* Fixtures are imported from a copy: the cache is written beside it. */
TesReport *
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
sqlite3 *
open_cache (TesReport *report)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (tes_report_get_cache_path (report), &db,
                                    SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  return db;
}

gint64
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
gint64
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

gint64
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

/* The tile's data-type rows are exactly these, and add up to total. */
void
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

/* `tessera-cli info` on a copy of the fixture prints each of lines. */
void
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

void
generated_clear (Generated *g)
{
  g_clear_pointer (&g->dir, g_free);
  g_clear_object (&g->parser);
}

void
generate (Generated   *g,
          TesTestData  data)
{
  generate_seeded (g, data, 7);
}

/* Our generator's run for @seed (each seed its own truth and folder); the
 * conformance suite's shared generator takes none. */
void
generate_seeded (Generated   *g,
                 TesTestData  data,
                 guint        seed)
{
  g_autofree char *own = g_test_build_filename (G_TEST_DIST, "gen-poplar-tiles.py", NULL);
  g_autofree char *shared = tes_test_shared_path ("bench/gen_poplar_tiles.py");
  const char *python = g_getenv ("PYTHON3");
  g_autofree char *truth = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *seed_text = g_strdup_printf ("%u", seed);
  g_autofree char *dir_name = g_strdup_printf ("gen-poplar-%u", seed);
  JsonArray *tiles;
  int status;

  g->data = data;
  g->dir = tes_test_tmp_path (dir_name);
  g_assert_nonnull (python);

  if (data == TES_TEST_OWN_DATA)
    {
      /* two IPUs, so tiles meet across files by (IPU, tile), not index */
      const char *argv[] = { python, own, "--seed", seed_text, "--ipus", "2", "--tiles", "24",
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

char *
generated_path (Generated  *g,
                const char *name)
{
  return g_build_filename (g->dir, name, NULL);
}

JsonArray *
truth_tiles (Generated *g)
{
  return json_object_get_array_member (g->truth, "tiles");
}

/* Every tile's sections from the listing add up to the truth's total, its
 * limit is the report's; for our generator, each section too. */
void
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

