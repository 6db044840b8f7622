/* tes-report-tiles.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-report-private.h"

#include <string.h>

static gboolean
read_tile_row (TesReport     *self,
               sqlite3_stmt  *stmt,
               gpointer       out,
               GError       **error)
{
  TesTile tile = {
    .id = sqlite3_column_int64 (stmt, 0),
    .ipu = sqlite3_column_int (stmt, 1),
    .tile = sqlite3_column_int (stmt, 2),
    .memory_limit = sqlite3_column_int64 (stmt, 3),
    .track_id = sqlite3_column_int64 (stmt, 4),
    .total_bytes = sqlite3_column_int64 (stmt, 5),
  };

  g_array_append_val ((GArray *)out, tile);
  return TRUE;
}

/* Every tile, by IPU and tile number, with the bytes its memory rows add
 * up to (one query: the tile views draw all tiles at once). */
GArray *
tes_report_get_tiles (TesReport  *self,
                      GError    **error)
{
  g_autoptr(GArray) tiles = g_array_new (FALSE, TRUE, sizeof (TesTile));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT t.id, t.ipu, t.tile, coalesce (t.memory_limit, 0), coalesce (t.track_id, 0), "
                             "       coalesce ((SELECT sum (bytes) FROM tile_memory m WHERE m.tile_id = t.id), 0) "
                             "FROM tiles t ORDER BY t.ipu, t.tile",
                             0, read_tile_row, tiles, error))
    return NULL;

  return g_steal_pointer (&tiles);
}

static void
run_clear (gpointer data)
{
  TesRun *run = data;

  g_clear_pointer (&run->name, g_free);
}

static gboolean
read_run_row (TesReport     *self,
              sqlite3_stmt  *stmt,
              gpointer       out,
              GError       **error)
{
  TesRun run = {
    .id = sqlite3_column_int64 (stmt, 0),
    .name = tes_report_column_dup (stmt, 1),
    .clock_id = sqlite3_column_int64 (stmt, 2),
    .start = sqlite3_column_int64 (stmt, 3),
    .end = sqlite3_column_int64 (stmt, 4),
  };

  g_array_append_val ((GArray *)out, run);
  return TRUE;
}

GArray *
tes_report_get_runs (TesReport  *self,
                     GError    **error)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, TRUE, sizeof (TesRun));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  g_array_set_clear_func (runs, run_clear);

  if (!tes_report_read_rows (self, "SELECT id, name, coalesce (clock_id, 0), start, end FROM runs ORDER BY id",
                             0, read_run_row, runs, error))
    return NULL;

  return g_steal_pointer (&runs);
}

static void
bsp_step_free (gpointer data)
{
  TesBspStep *step = data;

  g_free (step->tile_cycles);
  g_free (step->tile_states);
  g_free (step);
}

static gboolean
read_bsp_step_row (TesReport     *self,
                   sqlite3_stmt  *stmt,
                   gpointer       out,
                   GError       **error)
{
  TesBspStep *step = g_new0 (TesBspStep, 1);
  guint n = (guint)sqlite3_column_int (stmt, 6);

  step->run_id = sqlite3_column_int64 (stmt, 0);
  step->step = sqlite3_column_int64 (stmt, 1);
  step->clock_id = sqlite3_column_int64 (stmt, 2);
  step->start = sqlite3_column_int64 (stmt, 3);
  step->dur = sqlite3_column_int64 (stmt, 4);
  step->name = (guint32)sqlite3_column_int64 (stmt, 5);
  step->tile_cycles = g_new0 (guint32, MAX (n, 1));
  step->tile_states = g_new0 (guint8, MAX (n, 1));
  g_ptr_array_add (out, step);

  if ((gsize)sqlite3_column_bytes (stmt, 7) != n * sizeof (guint32) ||
      (gsize)sqlite3_column_bytes (stmt, 8) != n)
    {
      g_set_error (error, TES_CACHE_ERROR, TES_CACHE_ERROR_SCHEMA,
                   "Cache %s: BSP step %" G_GINT64_FORMAT " has a wrong size",
                   self->cache_path, step->step);
      return FALSE;
    }

  step->n_tiles = n;
  if (n > 0)
    {
      memcpy (step->tile_cycles, sqlite3_column_blob (stmt, 7), n * sizeof (guint32));
      memcpy (step->tile_states, sqlite3_column_blob (stmt, 8), n);
    }

  return TRUE;
}

/* The BSP steps of a run (run_id > 0) or of all runs, in step order: what
 * the BSP heatmap draws, tile by step. */
GPtrArray *
tes_report_get_bsp_steps (TesReport  *self,
                          gint64      run_id,
                          GError    **error)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (bsp_step_free);

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT coalesce (run_id, 0), step, coalesce (clock_id, 0), start, dur, name, n_tiles, "
                             "       tile_cycles, tile_states FROM bsp_steps "
                             "WHERE ?1 <= 0 OR run_id = ?1 ORDER BY run_id, step",
                             run_id, read_bsp_step_row, steps, error))
    return NULL;

  return g_steal_pointer (&steps);
}
