/* tes-report-tiles.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-report"

#include "config.h"

#include "tes-bsp-pyramid.h"
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
    .has_memory = sqlite3_column_int (stmt, 6) != 0,
  };

  g_array_append_val ((GArray *)out, tile);
  return TRUE;
}

/* Every tile, by IPU and tile number, with the bytes its memory rows add
 * up to (one query: the tile views draw all tiles at once). A size -A
 * listing's sections (".text", …) and a report's data types are two views
 * of the same bytes: a tile with both counts its sections. */
GArray *
tes_report_get_tiles (TesReport  *self,
                      GError    **error)
{
  g_autoptr(GArray) tiles = g_array_new (FALSE, TRUE, sizeof (TesTile));

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT t.id, t.ipu, t.tile, coalesce (t.memory_limit, 0), coalesce (t.track_id, 0), "
                             "       coalesce ((SELECT sum (m.bytes) FROM tile_memory m JOIN strings s ON s.id = m.category "
                             "                  WHERE m.tile_id = t.id AND substr (s.value, 1, 1) = '.'), "
                             "                 (SELECT sum (bytes) FROM tile_memory m WHERE m.tile_id = t.id), 0), "
                             "       EXISTS (SELECT 1 FROM tile_memory m WHERE m.tile_id = t.id) "
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
    .ipu = sqlite3_column_int (stmt, 5),
  };

  if (run.ipu < -1 || run.ipu >= TES_MAX_IPUS)
    {
      g_free (run.name);
      return tes_report_set_damaged (error, self, "run %" G_GINT64_FORMAT, run.id);
    }

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

  if (!tes_report_read_rows (self, "SELECT id, name, coalesce (clock_id, 0), start, end, coalesce (ipu, -1) FROM runs ORDER BY id",
                             0, read_run_row, runs, error))
    return NULL;

  return g_steal_pointer (&runs);
}

void
tes_bsp_step_free (TesBspStep *step)
{
  if (step == NULL)
    return;

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
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_step_free);

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows (self,
                             "SELECT coalesce (run_id, 0), step, coalesce (clock_id, 0), start, dur, name, n_tiles, "
                             "       tile_cycles, tile_states FROM bsp_steps "
                             "WHERE ?1 <= 0 OR run_id = ?1 ORDER BY run_id, step",
                             run_id, read_bsp_step_row, steps, error))
    return NULL;

  return g_steal_pointer (&steps);
}

/* One step of a run (NULL, no error, when the run has no such step). */
TesBspStep *
tes_report_get_bsp_step (TesReport  *self,
                         gint64      run_id,
                         gint64      step,
                         GError    **error)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_step_free);
  const gint64 params[2] = { run_id, step };

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!tes_report_read_rows_with (self,
                                  "SELECT coalesce (run_id, 0), step, coalesce (clock_id, 0), start, dur, name, n_tiles, "
                                  "       tile_cycles, tile_states FROM bsp_steps WHERE run_id = ?1 AND step = ?2",
                                  params, G_N_ELEMENTS (params), read_bsp_step_row, steps, error) ||
      steps->len == 0)
    return NULL;

  return g_ptr_array_steal_index (steps, 0);
}

/* The BSP step that a tile's lane is in at @ns (on the report's time
 * base): the step of its IPU's run that spans it. NULL, without an error,
 * when the lane is no tile's or no step spans the time. */
TesBspStep *
tes_report_get_bsp_step_at (TesReport  *self,
                            gint64      tile_track_id,
                            gint64      ns,
                            GError    **error)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func ((GDestroyNotify)tes_bsp_step_free);
  g_autoptr(GArray) tiles = NULL;
  g_autoptr(GArray) runs = NULL;
  gint ipu = -1;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (self->counts.n_bsp_steps == 0)
    return NULL;
  if (!(tiles = tes_report_get_tiles (self, error)) || !(runs = tes_report_get_runs (self, error)))
    return NULL;

  for (guint t = 0; t < tiles->len && ipu < 0; t++)
    if (g_array_index (tiles, TesTile, t).track_id == tile_track_id)
      ipu = g_array_index (tiles, TesTile, t).ipu;

  for (guint r = 0; ipu >= 0 && r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      gint64 params[2] = { run->id, 0 };

      if (run->ipu != ipu)
        continue;
      params[1] = tes_report_convert_time (self, 0, run->clock_id, ns);
      if (!tes_report_read_rows_with (self,
                                      "SELECT coalesce (run_id, 0), step, coalesce (clock_id, 0), start, dur, name, "
                                      "       n_tiles, tile_cycles, tile_states FROM bsp_steps "
                                      "WHERE run_id = ?1 AND start <= ?2 AND start + dur > ?2 ORDER BY step LIMIT 1",
                                      params, G_N_ELEMENTS (params), read_bsp_step_row, steps, error))
        return NULL;
      break;
    }

  return steps->len > 0 ? g_ptr_array_steal_index (steps, 0) : NULL;
}

/* The step's figures as PopVision's Details tab gives them. The step
 * lasts as long as its longest tile; its tile balance is how much of the
 * tiles' time it fills (the mean over the longest): 100 % when every tile
 * works the whole step, low when one tile works and the rest wait. */
void
tes_bsp_step_get_stats (const TesBspStep *step,
                        TesBspStepStats  *stats)
{
  g_return_if_fail (step != NULL && stats != NULL);

  memset (stats, 0, sizeof *stats);
  stats->n_tiles = step->n_tiles;
  stats->min_cycles = step->n_tiles > 0 ? G_MAXINT64 : 0;
  for (guint t = 0; t < step->n_tiles; t++)
    {
      gint64 c = step->tile_cycles[t];

      stats->all_cycles += c;
      stats->active_tiles += c > 0;
      stats->min_cycles = MIN (stats->min_cycles, c);
      stats->max_cycles = MAX (stats->max_cycles, c);
    }
  stats->cycles = MAX (step->dur, stats->max_cycles);
  if (step->n_tiles > 0)
    stats->mean_cycles = (double)stats->all_cycles / step->n_tiles;
  if (stats->max_cycles > 0)
    {
      stats->tile_balance = 100.0 * stats->all_cycles / ((double)step->n_tiles * stats->max_cycles);
      stats->active_tile_balance = 100.0 * stats->all_cycles / ((double)stats->active_tiles * stats->max_cycles);
    }
}

static void
bsp_ipu_free (TesBspIpu *ipu)
{
  g_clear_pointer (&ipu->pyramid, tes_bsp_pyramid_free);
  g_clear_pointer (&ipu->steps, g_ptr_array_unref);
  g_clear_pointer (&ipu->spans, g_array_unref);
  g_free (ipu);
}

/**
 * tes_report_get_bsp_ipus:
 * @with_pyramid: also index the steps (tes_bsp_pyramid_new()), for a
 *   view that reads many ranges; without, one range is counted step by step
 *
 * Every IPU's BSP steps (the runs that hold an IPU's steps), in run
 * order, their times on the report's time base. Slow on big runs with the
 * pyramid: a window calls it off the main loop.
 *
 * Returns: (transfer full): TesBspIpu
 */
GPtrArray *
tes_report_get_bsp_ipus (TesReport  *self,
                         gboolean    with_pyramid,
                         GError    **error)
{
  g_autoptr(GPtrArray) ipus = g_ptr_array_new_with_free_func ((GDestroyNotify)bsp_ipu_free);
  g_autoptr(GArray) runs = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (self->counts.n_bsp_steps == 0)
    return g_steal_pointer (&ipus);
  if (!(runs = tes_report_get_runs (self, error)))
    return NULL;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      TesBspIpu *ipu;
      int number;

      if ((number = run->ipu) < 0)
        continue;

      ipu = g_new0 (TesBspIpu, 1);
      ipu->ipu = number;
      ipu->spans = g_array_new (FALSE, FALSE, sizeof (TesBspSpan));
      g_ptr_array_add (ipus, ipu);
      if (!(ipu->steps = tes_report_get_bsp_steps (self, run->id, error)))
        return NULL;

      for (guint s = 0; s < ipu->steps->len; s++)
        {
          const TesBspStep *step = g_ptr_array_index (ipu->steps, s);
          TesBspSpan span = {
            .start = tes_report_convert_time (self, step->clock_id, 0, step->start),
            .end = tes_report_convert_time (self, step->clock_id, 0, step->start + step->dur),
            .dur_cycles = step->dur,
            .n_tiles = step->n_tiles,
            .tile_cycles = step->tile_cycles,
            .tile_states = step->tile_states,
          };

          ipu->n_tiles = MAX (ipu->n_tiles, step->n_tiles);
          g_array_append_val (ipu->spans, span);
        }
      if (with_pyramid)
        ipu->pyramid = tes_bsp_pyramid_new ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len,
                                            ipu->n_tiles);
    }

  return g_steal_pointer (&ipus);
}

/**
 * tes_bsp_ipus_get_tile_activity:
 * @ipus: as tes_report_get_bsp_ipus() gives them
 *
 * Per tile, its cycles in each state summed over the BSP steps that start
 * in [@start_ns, @end_ns), so adjacent ranges share no step: from the
 * pyramid's sums when the IPUs have one (a long range costs the tiles,
 * not the steps), else step by step, the same figures either way. Runs of
 * one IPU number add up; every tile of their steps gets a row, by IPU and
 * tile, even with no step in the range.
 *
 * Returns: (transfer full): TesTileActivity by IPU, then tile
 */
/* (an IPU number no run holds leaves its slot empty) */
static void
activity_array_free (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

GArray *
tes_bsp_ipus_get_tile_activity (GPtrArray *ipus,
                                gint64     start_ns,
                                gint64     end_ns)
{
  GArray *activity = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
  g_autoptr(GPtrArray) by_ipu = g_ptr_array_new_with_free_func (activity_array_free);

  for (guint i = 0; i < ipus->len; i++)
    {
      const TesBspIpu *ipu = g_ptr_array_index (ipus, i);
      GArray *tiles;

      if (ipu->ipu < 0 || ipu->ipu >= TES_MAX_IPUS)
        continue;
      if ((guint)ipu->ipu >= by_ipu->len)
        g_ptr_array_set_size (by_ipu, ipu->ipu + 1);
      if (!(tiles = g_ptr_array_index (by_ipu, ipu->ipu)))
        g_ptr_array_index (by_ipu, ipu->ipu) = tiles = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
      for (guint t = tiles->len; t < ipu->n_tiles; t++)
        {
          TesTileActivity fresh = { .ipu = ipu->ipu, .tile = (gint)t };

          g_array_append_val (tiles, fresh);
        }
      if (ipu->n_tiles == 0)
        continue;
      if (ipu->pyramid != NULL)
        tes_bsp_pyramid_add_activity (ipu->pyramid, start_ns, end_ns, (TesTileActivity *)(gpointer)tiles->data);
      else
        tes_bsp_spans_add_activity ((const TesBspSpan *)(gpointer)ipu->spans->data, ipu->spans->len, start_ns,
                                    end_ns, (TesTileActivity *)(gpointer)tiles->data);
    }

  for (guint i = 0; i < by_ipu->len; i++)
    {
      GArray *tiles = g_ptr_array_index (by_ipu, i);

      if (tiles != NULL)
        g_array_append_vals (activity, tiles->data, tiles->len);
    }

  return activity;
}

/* Per tile, its cycles in each state summed over the BSP steps that start
 * in [start_ns, end_ns) (ns on the report's time base): what
 * tes_bsp_ipus_get_tile_activity() counts, read step by step. */
GArray *
tes_report_get_tile_activity (TesReport  *self,
                              gint64      start_ns,
                              gint64      end_ns,
                              GError    **error)
{
  g_autoptr(GPtrArray) ipus = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!(ipus = tes_report_get_bsp_ipus (self, FALSE, error)))
    return NULL;

  return tes_bsp_ipus_get_tile_activity (ipus, start_ns, end_ns);
}

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int
compare_units (gconstpointer a,
               gconstpointer b)
{
  const TesTileActivity *x = a, *y = b;

  if (x->ipu != y->ipu)
    return x->ipu < y->ipu ? -1 : 1;

  return x->tile < y->tile ? -1 : x->tile > y->tile;
}

static gboolean
track_is_below (TesReport      *self,
                const TesTrack *track,
                gint64          ancestor_id)
{
  for (gint64 id = track->id; id != 0; id = tes_report_get_track (self, id)->parent_id)
    if (id == ancestor_id)
      return TRUE;

  return FALSE;
}

/* A row's busy time: the union of @spans (pairs of ns, sorted here), its
 * busy stretches and, as idle, the rest of the range (@range_ns). */
static void
set_union (TesTileActivity *row,
           GArray          *spans,
           gint64           range_ns)
{
  gint64 busy = 0, reach = G_MININT64;

  g_array_sort (spans, compare_intervals);
  for (guint i = 0; i < spans->len; i++)
    {
      const gint64 *span = &g_array_index (spans, gint64, 2 * i);

      if (span[0] >= reach)
        row->n_steps++;
      if (span[1] > reach)
        {
          busy += span[1] - MAX (span[0], reach);
          reach = span[1];
        }
    }
  row->cycles[TES_TILE_STATE_COMPUTE] = busy;
  row->cycles[TES_TILE_STATE_IDLE] = range_ns - busy;
}

/* The units' rows; @devices (or NULL) gets the devices' track ids in their
 * order and @device_spans (or NULL) each device's units' spans. */
static GArray *
unit_activity (TesReport  *self,
               gint64      start_ns,
               gint64      end_ns,
               GArray     *devices,
               GPtrArray  *device_spans,
               GError    **error)
{
  g_autoptr(GArray) activity = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
  g_autoptr(GArray) own_devices = devices == NULL ? g_array_new (FALSE, FALSE, sizeof (gint64)) : NULL;
  TesReportCounts counts;

  if (devices == NULL)
    devices = own_devices;

  tes_report_get_counts (self, &counts);
  for (gint64 id = 1; id <= counts.n_tracks && end_ns > start_ns; id++)
    {
      const TesTrack *unit = tes_report_get_track (self, id);
      g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, 2 * sizeof (gint64));
      TesTileActivity row = { .track_id = id };
      guint device;

      if (unit == NULL || unit->kind != TES_TRACK_CORE)
        continue;

      for (device = 0; device < devices->len && g_array_index (devices, gint64, device) != unit->parent_id; device++);
      if (device == devices->len)
        g_array_append_val (devices, unit->parent_id);
      row.ipu = (gint)device;
      for (guint i = 0; i < activity->len; i++)
        row.tile += g_array_index (activity, TesTileActivity, i).ipu == row.ipu;

      /* the slices of the unit and of every track below it */
      for (gint64 other = id; other <= counts.n_tracks; other++)
        {
          const TesTrack *track = tes_report_get_track (self, other);
          g_autoptr(GArray) slices = NULL;

          if (track->n_slices == 0 || !track_is_below (self, track, id))
            continue;
          if (!(slices = tes_report_get_slices (self, other, tes_report_convert_time (self, 0, track->clock_id, start_ns),
                                                tes_report_convert_time (self, 0, track->clock_id, end_ns), error)))
            return NULL;
          for (guint i = 0; i < slices->len; i++)
            {
              const TesSlice *slice = &g_array_index (slices, TesSlice, i);
              gint64 span[2] = {
                MAX (tes_report_convert_time (self, track->clock_id, 0, slice->start), start_ns),
                MIN (tes_report_convert_time (self, track->clock_id, 0, slice->start + slice->dur), end_ns),
              };

              /* every depth: a slice that starts inside another (a
               * Torq engine's rows) may end after it */
              if (span[1] > span[0])
                g_array_append_vals (spans, span, 1);
            }
        }

      if (device_spans != NULL)
        {
          if (device >= device_spans->len)
            g_ptr_array_add (device_spans, g_array_new (FALSE, FALSE, 2 * sizeof (gint64)));
          g_array_append_vals (g_ptr_array_index (device_spans, device), spans->data, spans->len);
        }
      set_union (&row, spans, end_ns - start_ns);
      g_array_append_val (activity, row);
    }

  /* by device, then unit */
  g_array_sort (activity, compare_units);

  return g_steal_pointer (&activity);
}

/**
 * tes_report_get_unit_activity:
 *
 * Per parallel unit of a device that is not a Poplar IPU (a qaic core:
 * a core track, its HVX, HMX and DMA threads below it), the time in
 * [start_ns, end_ns) in which any of its tracks runs a slice (as
 * "compute", in ns) and the rest of the range (idle). Devices (a unit's
 * parent track) and units are numbered in track order from 0, as ipu and
 * tile; track_id names the unit's track. n_steps counts its busy stretches.
 */
GArray *
tes_report_get_unit_activity (TesReport  *self,
                              gint64      start_ns,
                              gint64      end_ns,
                              GError    **error)
{
  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  return unit_activity (self, start_ns, end_ns, NULL, NULL, error);
}

/**
 * tes_report_get_device_activity:
 *
 * Per device of tes_report_get_unit_activity() (a GPU and its streams), as
 * one row numbered as its units' ipu (tile 0): busy is the union of all
 * its units' work in [start_ns, end_ns), so time in which two streams
 * overlap counts once, and idle the rest of the range. track_id names the
 * device's track (the units' parent). @units (or NULL) gets what
 * tes_report_get_unit_activity() gives, read in the same pass.
 */
GArray *
tes_report_get_device_activity (TesReport  *self,
                                gint64      start_ns,
                                gint64      end_ns,
                                GArray    **units_out,
                                GError    **error)
{
  g_autoptr(GArray) activity = g_array_new (FALSE, TRUE, sizeof (TesTileActivity));
  g_autoptr(GArray) devices = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) device_spans = g_ptr_array_new_with_free_func ((GDestroyNotify)g_array_unref);
  g_autoptr(GArray) units = NULL;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (!(units = unit_activity (self, start_ns, end_ns, devices, device_spans, error)))
    return NULL;
  for (guint d = 0; d < device_spans->len; d++)
    {
      TesTileActivity row = { .ipu = (gint)d, .track_id = g_array_index (devices, gint64, d) };

      set_union (&row, g_ptr_array_index (device_spans, d), end_ns - start_ns);
      g_array_append_val (activity, row);
    }
  if (units_out != NULL)
    *units_out = g_steal_pointer (&units);

  return g_steal_pointer (&activity);
}

/**
 * tes_report_get_balance_activity:
 * @ipus: (nullable): tes_report_get_bsp_ipus()'s, when already loaded
 * @devices: (out) (optional): for a vendor's units, each device's row
 *   (tes_report_get_device_activity()); NULL for a Poplar run's tiles
 *
 * What Tile Balance and `tessera-cli tiles` count over [@start_ns,
 * @end_ns), one function for both: a Poplar run's tiles over the BSP
 * steps that start in the range, else every vendor's parallel units (and
 * in @devices their devices' union), by IPU (device) then tile (unit).
 *
 * Returns: (transfer full): TesTileActivity, empty when the report has
 *   neither
 */
GArray *
tes_report_get_balance_activity (TesReport  *self,
                                 GPtrArray  *ipus,
                                 gint64      start_ns,
                                 gint64      end_ns,
                                 GArray    **devices,
                                 GError    **error)
{
  g_autoptr(GArray) units = NULL;
  GArray *device_rows;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  if (devices != NULL)
    *devices = NULL;
  if (self->counts.n_bsp_steps > 0 && ipus != NULL)
    return tes_bsp_ipus_get_tile_activity (ipus, start_ns, end_ns);
  if (self->counts.n_bsp_steps > 0)
    return tes_report_get_tile_activity (self, start_ns, end_ns, error);

  if (!(device_rows = tes_report_get_device_activity (self, start_ns, end_ns, &units, error)))
    return NULL;
  if (devices != NULL)
    *devices = device_rows;
  else
    g_array_unref (device_rows);

  return g_steal_pointer (&units);
}

/**
 * tes_report_dup_unit_device_name:
 *
 * The name of the device a parallel unit (a core track) belongs to, its
 * parent track, as Tile Balance and `tessera-cli tiles` group units by:
 * when that device is itself inside a group (the "Rank N" of one of a
 * job's traces), the top group's name comes first, "Rank 1 · GPU 1", so
 * that the ranks' devices stay apart however they are named.
 *
 * Returns: (transfer full): the name, "" when the unit has no device
 */
char *
tes_report_dup_unit_device_name (TesReport *self,
                                 gint64     unit_track_id)
{
  const TesTrack *unit, *device, *top;

  g_return_val_if_fail (TES_IS_REPORT (self), NULL);

  unit = unit_track_id != 0 ? tes_report_get_track (self, unit_track_id) : NULL;
  device = unit != NULL && unit->parent_id != 0 ? tes_report_get_track (self, unit->parent_id) : NULL;
  if (device == NULL)
    return g_strdup ("");

  for (top = device; top->parent_id != 0; top = tes_report_get_track (self, top->parent_id));
  if (top == device)
    return g_strdup (device->name != NULL ? device->name : "");

  return g_strdup_printf ("%s · %s", top->name != NULL ? top->name : "", device->name != NULL ? device->name : "");
}
