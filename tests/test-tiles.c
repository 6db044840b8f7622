/* test-tiles.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tes-bsp-layout.h"
#include "tes-bsp-pyramid.h"
#include "tes-cache-writer.h"
#include "tes-importer-registry.h"
#include "tes-test-pixels.h"
#include "tes-test-util.h"
#include "tes-tiles-layout.h"
#include "tes-tiles-render.h"
#include "tes-workspace.h"
#include "test-poplar-util.h"

/* Tile Balance without a display: the figures the window's layout shows
 * are those `tessera-cli tiles` prints (one function computes both), and
 * a run's IPU is the number stored with it, not parsed from its name. */

/* tessera-cli tiles --csv FILE: its rows after the header, each split at
 * the commas (no field of these files' has one). */
static GPtrArray *
cli_rows (const char *path,
          const char *header)
{
  g_auto(TesCliResult) cli = { 0 };
  g_auto(GStrv) lines = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify)g_strfreev);

  tes_test_run_cli (&cli, "tiles", "--csv", path, NULL);
  g_assert_cmpint (cli.status, ==, 0);
  lines = g_strsplit (cli.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, header);
  for (guint i = 1; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (rows, g_strsplit (lines[i], ",", -1));

  return rows;
}

static TesReport *
import (const char *path,
        const char *importer)
{
  g_autoptr(GError) error = NULL;
  TesReport *report = tes_report_import (path, tes_importer_registry_lookup (importer), 0, NULL, NULL, &error);

  g_assert_no_error (error);
  return report;
}

/* The window's balances over the whole run (as the section first shows
 * it, tes_tile_balances_new()), with the pyramid or without. */
static GPtrArray *
window_balances (TesReport *report,
                 gboolean   with_pyramid)
{
  g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
  g_autoptr(GPtrArray) ipus = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *balances;
  gint64 t0, t1;

  g_assert_true (tes_workspace_get_span (workspace, &t0, &t1));
  if (with_pyramid)
    {
      ipus = tes_report_get_bsp_ipus (report, TRUE, &error);
      g_assert_no_error (error);
    }
  balances = tes_tile_balances_new (report, ipus, t0, t1, &error);
  g_assert_no_error (error);

  return balances;
}

/* A generated Poplar run: every tile's cycles by state in the window's
 * layout (from the pyramid's sums and step by step) are the ones
 * `tessera-cli tiles` prints, and each tile's busy cycles are the truth's
 * (summed here from truth.json). */
static void
test_tiles_window_and_cli (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GHashTable) by_tile = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gint64 *truth_busy = NULL;
  JsonArray *steps;
  guint tiles_per_ipu, checked = 0;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  report = import (execution, "chrome-json");
  rows = cli_rows (execution, "ipu,tile,compute,exchange,sync,idle");

  tiles_per_ipu = (guint)json_object_get_int_member (g.truth, "tiles_per_ipu");
  truth_busy = g_new0 (gint64, (gsize)g.n_ipus * tiles_per_ipu);
  steps = json_object_get_array_member (g.truth, "steps");
  for (guint s = 0; s < json_array_get_length (steps); s++)
    {
      JsonObject *step = json_array_get_object_element (steps, s);
      JsonArray *cycles = json_object_get_array_member (step, "cycles");
      gint64 ipu = json_object_get_int_member (step, "ipu");

      for (guint t = 0; t < json_array_get_length (cycles); t++)
        truth_busy[ipu * tiles_per_ipu + t] += json_array_get_int_element (cycles, t);
    }

  g_assert_cmpuint (rows->len, ==, g.n_ipus * tiles_per_ipu);
  for (guint r = 0; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);

      g_assert_cmpuint (g_strv_length (row), ==, 6);
      g_hash_table_insert (by_tile, g_strdup_printf ("%s:%s", row[0], row[1]), row);
    }

  for (int pyramid = 0; pyramid < 2; pyramid++)
    {
      g_autoptr(GPtrArray) balances = window_balances (report, pyramid);

      g_assert_cmpuint (balances->len, ==, g.n_ipus);
      for (guint b = 0; b < balances->len; b++)
        {
          const TesTileBalance *balance = g_ptr_array_index (balances, b);

          g_assert_cmpuint (balance->tiles->len, ==, tiles_per_ipu);
          for (guint t = 0; t < balance->tiles->len; t++)
            {
              const TesTileActivity *tile = &g_array_index (balance->tiles, TesTileActivity, t);
              g_autofree char *key = g_strdup_printf ("%d:%d", tile->ipu, tile->tile);
              char **row = g_hash_table_lookup (by_tile, key);

              g_assert_nonnull (row);
              g_assert_cmpint (tile->cycles[TES_TILE_STATE_COMPUTE], ==, g_ascii_strtoll (row[2], NULL, 10));
              g_assert_cmpint (tile->cycles[TES_TILE_STATE_EXCHANGE], ==, g_ascii_strtoll (row[3], NULL, 10));
              g_assert_cmpint (tile->cycles[TES_TILE_STATE_SYNC], ==, g_ascii_strtoll (row[4], NULL, 10));
              g_assert_cmpint (tile->cycles[TES_TILE_STATE_IDLE], ==, g_ascii_strtoll (row[5], NULL, 10));
              g_assert_cmpint (tes_tile_activity_busy (tile), ==, truth_busy[tile->ipu * tiles_per_ipu + tile->tile]);
              checked++;
            }
        }
    }
  g_assert_cmpuint (checked, ==, 2 * g.n_ipus * tiles_per_ipu);
}

/* Vendors' parallel units (a qaic trace's cores, a Torq timeline's
 * engines): the window's units and devices are the rows `tessera-cli
 * tiles` prints, and each unit's busy and idle time make up the whole run
 * in both (the window's range is the CLI's, not a ns longer). */
static void
test_tiles_units_window_and_cli (void)
{
  static const struct { const char *file; const char *importer; guint n_units; } cases[] = {
    { "qaic/opstats_trace_mini.json", "chrome-json", 2 },
    { "torq/timeline_v2.csv", "torq-timeline", 6 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = tes_test_copy_fixture (TES_TEST_OWN_DATA, cases[c].file);
      g_autoptr(TesReport) report = import (path, cases[c].importer);
      g_autoptr(GPtrArray) rows = cli_rows (path, "device,unit,busy_ns,idle_ns");
      g_autoptr(GPtrArray) balances = window_balances (report, FALSE);
      g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
      guint r = 0, n_units = 0;
      gint64 t0, t1;

      g_test_message ("%s", cases[c].file);
      g_assert_true (tes_workspace_get_span (workspace, &t0, &t1));
      for (guint b = 0; b < balances->len; b++)
        {
          const TesTileBalance *balance = g_ptr_array_index (balances, b);
          char **device = g_ptr_array_index (rows, r++);

          /* the device first, its busy time the union of its units' */
          g_assert_true (balance->has_union);
          g_assert_cmpstr (device[1], ==, "");
          g_assert_cmpint (balance->union_cycles[TES_TILE_STATE_COMPUTE], ==, g_ascii_strtoll (device[2], NULL, 10));
          g_assert_cmpint (balance->union_cycles[TES_TILE_STATE_IDLE], ==, g_ascii_strtoll (device[3], NULL, 10));
          for (guint t = 0; t < balance->tiles->len; t++)
            {
              const TesTileActivity *unit = &g_array_index (balance->tiles, TesTileActivity, t);
              char **row = g_ptr_array_index (rows, r++);

              g_assert_cmpstr (row[1], ==, tes_report_get_track (report, unit->track_id)->name);
              g_assert_cmpint (tes_tile_activity_busy (unit), ==, g_ascii_strtoll (row[2], NULL, 10));
              g_assert_cmpint (unit->cycles[TES_TILE_STATE_IDLE], ==, g_ascii_strtoll (row[3], NULL, 10));
              g_assert_cmpint (tes_tile_activity_busy (unit) + unit->cycles[TES_TILE_STATE_IDLE], ==, t1 - t0);
              n_units++;
            }
        }
      g_assert_cmpuint (r, ==, rows->len);
      g_assert_cmpuint (n_units, ==, cases[c].n_units);
    }
}

/* One unit for a list's busy times, named in its heading: cycles for
 * tiles and where the view counts cycles, else the largest of ns, µs and
 * ms that keeps three to five digits; whole numbers, grouped. */
static void
test_tiles_list_unit (void)
{
  static const struct { gint64 most; TesTimeUnit unit; const char *text; } cases[] = {
    { 950, TES_TIME_UNIT_NS, "950" },
    { 99999, TES_TIME_UNIT_NS, "99,999" },
    { 149042, TES_TIME_UNIT_US, "149" },
    { 52341000, TES_TIME_UNIT_US, "52,341" },
    { 100000000, TES_TIME_UNIT_MS, "100" },
    { 7654321000, TES_TIME_UNIT_MS, "7,654" },
  };
  TesTileActivity tile = { .tile = 3 };
  TesTileBalance balance = { 0 };
  g_autofree char *cycles = NULL;

  balance.least = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
  balance.most = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));

  /* a Poplar tile: cycles, whatever the view's unit */
  tile.cycles[TES_TILE_STATE_COMPUTE] = 1234567;
  g_array_append_val (balance.least, tile);
  g_assert_cmpint (tes_tile_balance_unit (&balance, TES_TIME_UNIT_US), ==, TES_TIME_UNIT_CYCLES);
  cycles = tes_tile_format_busy (&tile, TES_TIME_UNIT_CYCLES, 0);
  g_assert_cmpstr (cycles, ==, "1,234,567");

  /* a vendor's unit (ns): by the busiest listed */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TesTileActivity unit = { .track_id = 7 }, other = { .track_id = 8 };
      g_autofree char *text = NULL;

      g_array_set_size (balance.least, 0);
      g_array_set_size (balance.most, 0);
      unit.cycles[TES_TILE_STATE_COMPUTE] = cases[i].most;
      other.cycles[TES_TILE_STATE_COMPUTE] = cases[i].most / 3;
      g_array_append_val (balance.least, other);
      g_array_append_val (balance.most, unit);
      g_assert_cmpint (tes_tile_balance_unit (&balance, TES_TIME_UNIT_US), ==, cases[i].unit);
      text = tes_tile_format_busy (&unit, cases[i].unit, 0);
      g_assert_cmpstr (text, ==, cases[i].text);
      /* a view in cycles (a Torq timeline's clock): cycles */
      g_assert_cmpint (tes_tile_balance_unit (&balance, TES_TIME_UNIT_CYCLES), ==, TES_TIME_UNIT_CYCLES);
    }
  {
    TesTileActivity unit = { .track_id = 7 };
    g_autofree char *text = NULL;

    unit.cycles[TES_TILE_STATE_COMPUTE] = 2000;   /* 2 µs at 1.33 GHz */
    text = tes_tile_format_busy (&unit, TES_TIME_UNIT_CYCLES, 1.33);
    g_assert_cmpstr (text, ==, "2,660");
  }

  g_array_unref (balance.least);
  g_array_unref (balance.most);
}

/* A run's IPU is the number stored with it: a run whose name a job's
 * rank prefixes ("Rank 1 IPU 3") still holds IPU 3's steps, and a run
 * merely named "IPU 0" (no number stored) holds none; a tile's lane
 * carries its IPU and tile. (Parsing "IPU %d" found no IPU in the first
 * and took the second for one.) */
static void
test_tiles_ipu_is_data (void)
{
  g_autofree char *src = tes_test_tmp_path ("ipus.src");
  g_autofree char *cache = tes_test_tmp_path ("ipus.tessera");
  static const guint32 cycles[4] = { 100, 40, 0, 70 };
  static const guint8 states[4] = { TES_TILE_STATE_COMPUTE, TES_TILE_STATE_EXCHANGE, TES_TILE_STATE_IDLE,
                                    TES_TILE_STATE_SYNC };
  g_autoptr(TesCacheWriter) writer = NULL;
  g_autoptr(TesSourceStamp) stamp = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GError) error = NULL;
  gint64 source, clock, ranked, named, ipu_track, tile_track, lane;
  const TesTrack *track;

  tes_test_write_file (src, "bytes", -1);
  stamp = tes_source_stamp_new (src, NULL, &error);
  g_assert_no_error (error);
  writer = tes_cache_writer_new (cache, &error);
  g_assert_no_error (error);
  source = tes_cache_writer_add_source (writer, stamp, "test", 1, "Test format");
  clock = tes_cache_writer_add_clock (writer, "IPU cycles", TES_TIME_UNIT_CYCLES, 1000000000);
  ipu_track = tes_cache_writer_add_track (writer, 0, source, clock, TES_TRACK_IPU, "Rank 1 IPU 3", 0, NULL);
  tes_cache_writer_set_track_tile (writer, ipu_track, 3, -1);
  tile_track = tes_cache_writer_add_track (writer, ipu_track, source, clock, TES_TRACK_TILE, "Tile 2", 0, NULL);
  tes_cache_writer_add_tile (writer, 3, 2, 0, tile_track);
  lane = tes_cache_writer_add_track (writer, 0, source, clock, TES_TRACK_TILE, "IPU 9 tile 9", 1, NULL);
  tes_cache_writer_set_track_tile (writer, lane, 1, 17);
  ranked = tes_cache_writer_add_run (writer, "Rank 1 IPU 3", clock, 0, 300);
  tes_cache_writer_set_run_ipu (writer, ranked, 3);
  named = tes_cache_writer_add_run (writer, "IPU 0", clock, 0, 300);
  tes_cache_writer_add_bsp_step (writer, ranked, 0, clock, 0, 100, "step 0", 4, cycles, states);
  tes_cache_writer_add_bsp_step (writer, ranked, 1, clock, 100, 200, "step 1", 4, cycles, states);
  tes_cache_writer_add_bsp_step (writer, named, 0, clock, 0, 100, "step 0", 4, cycles, states);
  tes_cache_writer_commit (writer, NULL, &error);
  g_assert_no_error (error);
  report = tes_report_open_cache (cache, &error);
  g_assert_no_error (error);

  runs = tes_report_get_runs (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (runs->len, ==, 2);
  g_assert_cmpint (g_array_index (runs, TesRun, 0).ipu, ==, 3);
  g_assert_cmpint (g_array_index (runs, TesRun, 1).ipu, ==, -1);

  track = tes_report_get_track (report, ipu_track);
  g_assert_cmpint (track->ipu, ==, 3);
  g_assert_cmpint (track->tile, ==, -1);
  track = tes_report_get_track (report, tile_track);
  g_assert_cmpint (track->ipu, ==, 3);
  g_assert_cmpint (track->tile, ==, 2);
  track = tes_report_get_track (report, lane);
  g_assert_cmpint (track->ipu, ==, 1);
  g_assert_cmpint (track->tile, ==, 17);

  /* IPU 3's four tiles over its two steps, nothing of the run named "IPU 0" */
  activity = tes_report_get_tile_activity (report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (activity->len, ==, 4);
  for (guint t = 0; t < activity->len; t++)
    {
      const TesTileActivity *row = &g_array_index (activity, TesTileActivity, t);
      guint state = states[t];

      g_assert_cmpint (row->ipu, ==, 3);
      g_assert_cmpint (row->tile, ==, (gint)t);
      g_assert_cmpuint (row->n_steps, ==, 2);
      if (state != TES_TILE_STATE_IDLE)
        g_assert_cmpint (row->cycles[state], ==, 2 * cycles[t]);
      /* the rest of the two steps, 100 and 200 cycles, idle */
      g_assert_cmpint (row->cycles[TES_TILE_STATE_IDLE], ==, 300 - (state != TES_TILE_STATE_IDLE ? 2 * cycles[t] : 0));
    }
}

/* An imported Poplar run: its runs and lanes carry the IPU numbers, as
 * truth.json and the tiles table give them. */
static void
test_tiles_ipu_imported (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GError) error = NULL;
  guint n_ipu_runs = 0;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  report = import (execution, "chrome-json");
  runs = tes_report_get_runs (report, &error);
  g_assert_no_error (error);
  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      g_autofree char *name = g_strdup_printf ("IPU %d", run->ipu);

      if (run->ipu < 0)
        continue;
      g_assert_cmpint (run->ipu, ==, (gint)n_ipu_runs);
      g_assert_cmpstr (run->name, ==, name);
      n_ipu_runs++;
    }
  g_assert_cmpuint (n_ipu_runs, ==, g.n_ipus);

  tiles = tes_report_get_tiles (report, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tiles->len, ==, g.n_ipus * json_object_get_int_member (g.truth, "tiles_per_ipu"));
  for (guint t = 0; t < tiles->len; t++)
    {
      const TesTile *tile = &g_array_index (tiles, TesTile, t);
      const TesTrack *track = tes_report_get_track (report, tile->track_id);

      g_assert_nonnull (track);
      g_assert_cmpint (track->ipu, ==, tile->ipu);
      g_assert_cmpint (track->tile, ==, tile->tile);
    }
}

/* A process "IPU 5000", beyond the IPUs a cache stores with a lane, is
 * no IPU: its lanes are plain threads, and the cache opens (a lane stored
 * with IPU 5000 made the cache read as damaged). Written for this test. */
static void
test_tiles_ipu_beyond (void)
{
  static const char trace[] =
    "{\"otherData\":{\"clock_mhz\":1000},\"traceEvents\":[\n"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{\"name\":\"IPU 5000\"}},\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"Tile 0\"}},\n"
    "{\"ph\":\"X\",\"name\":\"OnTileExecute\",\"pid\":0,\"tid\":0,\"ts\":0,\"dur\":1,\"args\":{\"cycles\":1000,\"step\":0}},\n"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"IPU 1\"}},\n"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"Tile 0\"}},\n"
    "{\"ph\":\"X\",\"name\":\"OnTileExecute\",\"pid\":1,\"tid\":0,\"ts\":0,\"dur\":1,\"args\":{\"cycles\":1000,\"step\":0}}\n"
    "]}\n";
  g_autofree char *path = tes_test_tmp_path ("ipu-5000.json");
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GArray) activity = NULL;
  g_autoptr(GError) error = NULL;

  tes_test_write_file (path, trace, -1);
  report = import (path, "chrome-json");
  activity = tes_report_get_tile_activity (report, G_MININT64 / 2, G_MAXINT64 / 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (activity->len, ==, 1);
  g_assert_cmpint (g_array_index (activity, TesTileActivity, 0).ipu, ==, 1);
  g_assert_cmpint (g_array_index (activity, TesTileActivity, 0).cycles[TES_TILE_STATE_COMPUTE], ==, 1000);
}


/* What the workspace's IPU, tile and step select, without a display: each
 * of the truth's steps is the cell of its IPU and number in the BSP
 * heatmap; every tile of an IPU is its balance's bar, in the column the
 * chart draws it in, and a click on that column selects a tile drawn
 * there; a listed tile is found where the lists put it. */
static void
test_tiles_selection (void)
{
  g_auto(Generated) g = { 0 };
  g_autofree char *execution = NULL;
  g_autoptr(TesReport) report = NULL;
  g_autoptr(GPtrArray) ipus = NULL;
  g_autoptr(GPtrArray) balances = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *steps;
  guint tiles_per_ipu, n_listed = 0;

  generate (&g, TES_TEST_OWN_DATA);
  execution = generated_path (&g, "execution.json");
  report = import (execution, "chrome-json");
  ipus = tes_report_get_bsp_ipus (report, TRUE, &error);
  g_assert_no_error (error);
  balances = window_balances (report, TRUE);
  tiles_per_ipu = (guint)json_object_get_int_member (g.truth, "tiles_per_ipu");

  /* BSP: every step of the truth, by IPU and number */
  steps = json_object_get_array_member (g.truth, "steps");
  g_assert_cmpuint (json_array_get_length (steps), >, 0);
  for (guint s = 0; s < json_array_get_length (steps); s++)
    {
      JsonObject *step = json_array_get_object_element (steps, s);
      int ipu = (int)json_object_get_int_member (step, "ipu");
      gint64 number = json_object_get_int_member (step, "step");
      int i = tes_bsp_find_ipu (ipus, ipu), at;
      const TesBspIpu *bsp;

      g_assert_cmpint (i, >=, 0);
      bsp = g_ptr_array_index (ipus, i);
      g_assert_cmpint (bsp->ipu, ==, ipu);
      at = tes_bsp_find_step (bsp, number);
      g_assert_cmpint (at, >=, 0);
      g_assert_cmpint (((const TesBspStep *)g_ptr_array_index (bsp->steps, at))->step, ==, number);
    }
  g_assert_cmpint (tes_bsp_find_ipu (ipus, g.n_ipus), ==, -1);
  g_assert_cmpint (tes_bsp_find_step (g_ptr_array_index (ipus, 0), -1), ==, -1);
  g_assert_cmpint (tes_bsp_find_step (g_ptr_array_index (ipus, 0), G_MAXINT64), ==, -1);

  /* Tile Balance: every tile's bar, at a width with a column per tile and
   * at one with several tiles to a column */
  g_assert_cmpuint (balances->len, ==, g.n_ipus);
  for (guint b = 0; b < balances->len; b++)
    {
      const TesTileBalance *balance = g_ptr_array_index (balances, b);
      const double widths[] = { tiles_per_ipu * 4.0, MAX (tiles_per_ipu / 3, 1) };

      for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
        {
          g_autoptr(TesTileChart) chart = tes_tile_chart_new (balance, 10, 0, widths[w], 50);

          for (guint t = 0; t < tiles_per_ipu; t++)
            {
              int index, found = tes_tile_balances_find (balances, balance->ipu, (int)t, &index);
              int c, drawn;
              const TesTileColumn *column;

              g_assert_cmpint (found, ==, (int)b);
              g_assert_cmpint (g_array_index (balance->tiles, TesTileActivity, index).tile, ==, (int)t);
              g_assert_cmpint (g_array_index (balance->tiles, TesTileActivity, index).ipu, ==, balance->ipu);
              c = tes_tile_chart_column_of (chart, (guint)index);
              g_assert_cmpint (c, >=, 0);
              column = &g_array_index (chart->columns, TesTileColumn, c);
              g_assert_cmpuint (column->first, <=, (guint)index);
              g_assert_cmpuint ((guint)index, <, column->last);
              /* a click on the column selects the tile it draws */
              drawn = tes_tile_chart_tile_at (chart, column->x + column->width / 2);
              g_assert_cmpint (drawn, ==, (int)column->least);
              g_assert_cmpint (tes_tile_chart_column_of (chart, (guint)drawn), ==, c);
            }
          g_assert_cmpint (tes_tile_chart_column_of (chart, tiles_per_ipu), ==, -1);
          g_assert_cmpint (tes_tile_chart_tile_at (chart, 5), ==, -1);
          g_assert_cmpint (tes_tile_chart_tile_at (chart, 10 + widths[w] + 2), ==, -1);
        }

      /* the lists: each line found where the lists count it (least, then
       * most, IPU after IPU), unless the same tile is listed before */
      {
        GArray *lists[] = { balance->least, balance->most };

        for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
          for (guint i = 0; i < lists[l]->len; i++, n_listed++)
            {
              const TesTileActivity *tile = &g_array_index (lists[l], TesTileActivity, i);
              int listed = tes_tile_balances_listed (balances, tile->ipu, tile->tile);

              g_assert_cmpint (listed, <=, (int)n_listed);
              if (l == 0)
                g_assert_cmpint (listed, ==, (int)n_listed);
            }
      }
    }

  /* drawn: the last IPU's tile 5 outlined in its chart (the only one
   * of the charts to differ), its chart's place given */
  {
    g_autoptr(TesWorkspace) workspace = tes_workspace_new (report);
    g_autoptr(GArray) plain_charts = g_array_new (FALSE, FALSE, sizeof (TesTileChartRect));
    g_autoptr(GArray) marked_charts = g_array_new (FALSE, FALSE, sizeof (TesTileChartRect));
    int ipu = ((const TesTileBalance *)g_ptr_array_index (balances, balances->len - 1))->ipu;
    cairo_surface_t *plain = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1000, 2000);
    cairo_surface_t *marked = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1000, 2000);
    const TesTileChartRect *rect;
    double height;

    for (guint s = 0; s < 2; s++)
      {
        cairo_t *cr = cairo_create (s == 0 ? plain : marked);

        cairo_set_source_rgb (cr, 1, 1, 1);
        cairo_paint (cr);
        height = tes_tiles_render_balances (cr, workspace, balances, 1000, -1, s == 0 ? -1 : ipu, s == 0 ? -1 : 5,
                                            FALSE, s == 0 ? plain_charts : marked_charts);
        cairo_destroy (cr);
        cairo_surface_flush (s == 0 ? plain : marked);
      }
    g_assert_cmpfloat (height, <, 2000);
    g_assert_cmpuint (marked_charts->len, ==, balances->len);
    g_assert_cmpuint (plain_charts->len, ==, balances->len);
    rect = &g_array_index (marked_charts, TesTileChartRect, balances->len - 1);
    g_assert_cmpuint (rect->balance, ==, balances->len - 1);
    g_assert_cmpfloat (rect->y, ==, g_array_index (plain_charts, TesTileChartRect, balances->len - 1).y);
    g_assert_cmpuint (tes_test_count_differing (plain, marked, 0, 0, 1000, (int)rect->y - 4), ==, 0);
    /* its two sides, the plot's height each, in ink */
    g_assert_cmpuint (tes_test_count_pixels (marked, (int)rect->y - 4, (int)(rect->y + rect->height + 4),
                                             TES_TEST_PIXEL_EQUAL, 0x241f31),
                      >=, tes_test_count_pixels (plain, (int)rect->y - 4, (int)(rect->y + rect->height + 4),
                                                 TES_TEST_PIXEL_EQUAL, 0x241f31) + 2 * (guint)rect->height);
    cairo_surface_destroy (plain);
    cairo_surface_destroy (marked);
  }

  {
    int index;

    g_assert_cmpint (tes_tile_balances_find (balances, 0, (int)tiles_per_ipu, &index), ==, -1);
    g_assert_cmpint (index, ==, -1);
    g_assert_cmpint (tes_tile_balances_find (balances, g.n_ipus, 0, &index), ==, -1);
    g_assert_cmpint (tes_tile_balances_listed (balances, 0, -1), ==, -1);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/window-and-cli", test_tiles_window_and_cli);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/selection", test_tiles_selection);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/units-window-and-cli", test_tiles_units_window_and_cli);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/list-unit", test_tiles_list_unit);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/ipu-is-data", test_tiles_ipu_is_data);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/ipu-imported", test_tiles_ipu_imported);
  tes_test_add (TES_TEST_OWN_DATA, "/tes/tiles/ipu-beyond", test_tiles_ipu_beyond);

  return g_test_run ();
}
