/* tes-trace-frame.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>

#include "tes-lane.h"
#include "tes-trace-frame.h"

void
tes_trace_frame_free (TesTraceFrame *frame)
{
  if (frame == NULL)
    return;

  g_clear_pointer (&frame->lanes, g_array_unref);
  g_clear_pointer (&frame->boxes, g_ptr_array_unref);
  g_clear_pointer (&frame->overview, g_array_unref);
  g_clear_pointer (&frame->counters, g_ptr_array_unref);
  g_clear_pointer (&frame->flows, g_array_unref);
  g_clear_pointer (&frame->runs, g_array_unref);
  g_clear_pointer (&frame->lane_of_track, g_hash_table_unref);
  g_clear_pointer (&frame->balance, g_ptr_array_unref);
  g_free (frame);
}

static void
run_clear (gpointer data)
{
  g_clear_pointer (&((TesRun *)data)->name, g_free);
}

static void
boxes_unref (gpointer data)
{
  if (data != NULL)
    g_array_unref (data);
}

/* How many of the track's slices the range holds, were they spread evenly
 * over its extent: enough to choose between slices and summaries. */
static double
estimate_visible (const TesTrack *track,
                  gint64          t0,
                  gint64          t1)
{
  gint64 lo = MAX (t0, track->t_min);
  gint64 hi = MIN (t1, track->t_max);

  if (!track->has_extent || hi < lo)
    return 0;
  if (track->t_max <= track->t_min)
    return (double)track->n_slices;

  return (double)track->n_slices * (double)(hi - lo) / (double)(track->t_max - track->t_min);
}

/* Zoomed far out: one box per run of pixel columns with the same dominant
 * name, from the lane summary, on every row the slices there reach. */
static gboolean
boxes_from_summary (TesReport             *report,
                    const TesTrack        *track,
                    const TesTraceScale   *scale,
                    TesTraceMode           mode,
                    const TesTraceMatches *matches,
                    gint64                 t0,
                    gint64                 t1,
                    GArray                *boxes,
                    GError               **error)
{
  guint n_buckets = MAX (1, (guint)ceil (scale->width));
  g_autoptr(GArray) lane = NULL;
  double px = scale->width / n_buckets;
  guint rows = mode == TES_TRACE_FLAME ? track->max_depth + 1 : 1;

  if (!(lane = tes_report_get_lane (report, track->id, t0, t1, n_buckets, error)))
    return FALSE;

  for (guint row = 0; row < rows; row++)
    {
      int open = -1;

      for (guint i = 0; i < n_buckets; i++)
        {
          const TesLaneBucket *bucket = &g_array_index (lane, TesLaneBucket, i);

          if (bucket->count == 0 || (mode == TES_TRACE_FLAME && bucket->max_depth < row))
            {
              open = -1;
              continue;
            }

          if (open >= 0)
            {
              TesTraceBox *box = &g_array_index (boxes, TesTraceBox, open);

              if (box->name == bucket->dominant)
                {
                  box->x1 = scale->x0 + (i + 1) * px;
                  box->n_slices += bucket->count;
                  box->dur = tes_trace_scale_time (scale, box->x1) - box->start;
                  box->matched |= matches != NULL &&
                                  tes_trace_matches_any_between (matches, track->id,
                                                                 tes_trace_scale_time (scale, box->x1 - px),
                                                                 box->start + box->dur);
                  continue;
                }
            }

          {
            TesTraceBox box = {
              .x0 = scale->x0 + i * px,
              .x1 = scale->x0 + (i + 1) * px,
              .name = bucket->dominant,
              .n_slices = bucket->count,
              .row = (guint16)row,
            };

            /* a bucket is a pixel column: its times are the column's */
            box.start = tes_trace_scale_time (scale, box.x0);
            box.dur = tes_trace_scale_time (scale, box.x1) - box.start;
            box.matched = matches != NULL &&
                          tes_trace_matches_any_between (matches, track->id, box.start, box.start + box.dur);
            open = (int)boxes->len;
            g_array_append_val (boxes, box);
          }
        }
    }

  return TRUE;
}

/* The whole run in @n_columns pixel columns: in each, the share of the
 * lanes busy there (0 to 1), from the lane summaries. It depends on the
 * width alone, so a view computes it once per width. */
GArray *
tes_trace_overview (TesReport  *report,
                    guint       n_columns,
                    GError    **error)
{
  g_autoptr(GArray) overview = g_array_new (FALSE, TRUE, sizeof (double));
  guint n_lanes = 0;
  gint64 t0, t1;

  g_array_set_size (overview, MAX (n_columns, 1));
  if (!tes_report_get_span (report, 0, &t0, &t1) || t1 <= t0)
    return g_steal_pointer (&overview);

  for (gint64 id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      g_autoptr(GArray) lane = NULL;
      gint64 lo, hi;

      if (track->n_slices == 0 || track->kind == TES_TRACK_COUNTER || !track->has_extent)
        continue;

      lo = tes_report_convert_time (report, 0, track->clock_id, t0);
      hi = MAX (tes_report_convert_time (report, 0, track->clock_id, t1), lo + 1);
      if (!(lane = tes_report_get_lane (report, id, lo, hi, overview->len, error)))
        return NULL;

      for (guint i = 0; i < overview->len; i++)
        {
          gint64 b0, b1;

          tes_lane_bucket_bounds (lo, hi, overview->len, i, &b0, &b1);
          if (b1 > b0)
            g_array_index (overview, double, i) +=
              MIN (1.0, (double)g_array_index (lane, TesLaneBucket, i).busy / (double)(b1 - b0));
        }
      n_lanes++;
    }

  for (guint i = 0; n_lanes > 0 && i < overview->len; i++)
    g_array_index (overview, double, i) /= n_lanes;

  return g_steal_pointer (&overview);
}

static void
balance_free (gpointer data)
{
  TesTraceBalance *balance = data;

  g_array_unref (balance->steps);
  g_free (balance);
}

/* Every BSP step's share of active tiles, per IPU: the Poplar importer
 * writes one run per IPU, named "IPU n", whose steps list the IPU's tiles
 * in tile order; the tiles' lanes say which lane groups them. Read once
 * per report: a view keeps it. */
GPtrArray *
tes_trace_balance (TesReport  *report,
                   GError    **error)
{
  g_autoptr(GPtrArray) balances = g_ptr_array_new_with_free_func (balance_free);
  g_autoptr(GArray) runs = NULL;
  g_autoptr(GArray) tiles = NULL;
  TesReportCounts counts;

  tes_report_get_counts (report, &counts);
  if (counts.n_bsp_steps == 0)
    return g_steal_pointer (&balances);

  if (!(runs = tes_report_get_runs (report, error)) || !(tiles = tes_report_get_tiles (report, error)))
    return NULL;

  for (guint r = 0; r < runs->len; r++)
    {
      const TesRun *run = &g_array_index (runs, TesRun, r);
      g_autoptr(GPtrArray) steps = NULL;
      TesTraceBalance *balance;
      gint64 group = 0;
      int ipu;

      if ((ipu = tes_run_get_ipu (run)) < 0)
        continue;

      /* the lane above this IPU's tiles */
      for (guint t = 0; t < tiles->len && group == 0; t++)
        {
          const TesTile *tile = &g_array_index (tiles, TesTile, t);
          const TesTrack *track = tile->track_id ? tes_report_get_track (report, tile->track_id) : NULL;

          if (tile->ipu == ipu && track != NULL)
            group = track->parent_id;
        }
      if (group == 0)
        continue;

      if (!(steps = tes_report_get_bsp_steps (report, run->id, error)))
        return NULL;

      balance = g_new0 (TesTraceBalance, 1);
      balance->group_track = group;
      balance->steps = g_array_sized_new (FALSE, FALSE, sizeof (TesTraceStepBalance), steps->len);
      for (guint s = 0; s < steps->len; s++)
        {
          const TesBspStep *step = g_ptr_array_index (steps, s);
          TesTraceStepBalance share = {
            .start = tes_report_convert_time (report, step->clock_id, 0, step->start),
            .end = tes_report_convert_time (report, step->clock_id, 0, step->start + step->dur),
          };
          guint active = 0;

          for (guint t = 0; t < step->n_tiles; t++)
            active += step->tile_states[t] != TES_TILE_STATE_IDLE;
          share.active = step->n_tiles ? (double)active / step->n_tiles : 0;
          g_array_append_val (balance->steps, share);
        }
      g_ptr_array_add (balances, balance);
    }

  return g_steal_pointer (&balances);
}

/* The frame for the visible range in the request's scale: lanes laid
 * out, and boxes for the lanes that meet [scroll_y, scroll_y +
 * view_height). */
TesTraceFrame *
tes_trace_frame_build (TesReport             *report,
                       const TesTraceRequest *request,
                       GCancellable          *cancellable,
                       GError               **error)
{
  g_autoptr(TesTraceFrame) frame = g_new0 (TesTraceFrame, 1);
  const TesTraceScale *scale = &request->scale;
  const TesTraceMatches *matches = request->matches;
  TesTraceMode mode = request->mode;
  double scroll_y = request->scroll_y;
  double view_height = request->view_height;
  guint n_columns = MAX ((guint)ceil (scale->width), 1);
  g_autofree guint8 *sync_names = request->group_syncs ? tes_trace_sync_names (report) : NULL;
  TesTraceMerge merge = { mode, request->matches, sync_names, tes_report_get_n_strings (report) };

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);
  g_return_val_if_fail (request != NULL, NULL);

  frame->scale = *scale;
  frame->mode = mode;
  frame->scroll_y = scroll_y;
  frame->view_height = view_height;
  frame->searching = matches != NULL;
  frame->group_syncs = request->group_syncs;
  frame->tile_balance = request->tile_balance;
  tes_report_get_span (report, 0, &frame->origin, &frame->end);
  frame->lanes = tes_trace_layout_lanes (report, mode, request->lanes, &frame->total_height);

  if (request->overview != NULL && request->overview->len == n_columns)
    frame->overview = g_array_ref (request->overview);
  else if (!(frame->overview = tes_trace_overview (report, n_columns, error)))
    return NULL;
  frame->boxes = g_ptr_array_new_full (frame->lanes->len, boxes_unref);
  frame->counters = g_ptr_array_new_full (frame->lanes->len, boxes_unref);
  frame->lane_of_track = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < frame->lanes->len; i++)
    {
      const TesTraceLane *lane = &g_array_index (frame->lanes, TesTraceLane, i);
      const TesTrack *track = tes_report_get_track (report, lane->track_id);
      g_autoptr(GArray) boxes = NULL;
      gint64 t0, t1;

      g_hash_table_insert (frame->lane_of_track, (gpointer)&lane->track_id, GUINT_TO_POINTER (i + 1));

      if ((!lane->has_slices && !lane->is_counter) ||
          lane->y + lane->height <= scroll_y || lane->y >= scroll_y + view_height ||
          !track->has_extent)
        {
          g_ptr_array_add (frame->boxes, NULL);
          g_ptr_array_add (frame->counters, NULL);
          continue;
        }

      if (lane->is_counter)
        {
          GArray *values;

          t0 = tes_report_convert_time (report, 0, track->clock_id, scale->t0);
          t1 = MAX (tes_report_convert_time (report, 0, track->clock_id, scale->t1), t0 + 1);
          if (!(values = tes_report_get_counter (report, track->id, t0, t1, n_columns, error)))
            return NULL;
          g_ptr_array_add (frame->boxes, NULL);
          g_ptr_array_add (frame->counters, values);
          continue;
        }
      g_ptr_array_add (frame->counters, NULL);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      /* the visible range in the track's own ticks, a tick wider each side
       * so that rounding never drops a slice at the edge */
      t0 = tes_report_convert_time (report, 0, track->clock_id, scale->t0) - 1;
      t1 = tes_report_convert_time (report, 0, track->clock_id, scale->t1) + 1;
      boxes = g_array_new (FALSE, TRUE, sizeof (TesTraceBox));

      if (estimate_visible (track, t0, t1) > TES_TRACE_SLICES_PER_PIXEL * scale->width)
        {
          if (!boxes_from_summary (report, track, scale, mode, matches, t0, t1, boxes, error))
            return NULL;
        }
      else
        {
          g_autoptr(GArray) slices = NULL;

          if (!(slices = tes_report_get_slices (report, track->id, t0, t1, error)))
            return NULL;
          frame->n_slices_read += slices->len;
          tes_trace_merge_slices (scale, (const TesSlice *)(gpointer)slices->data, slices->len,
                                  report, track, &merge, boxes);
        }

      g_ptr_array_add (frame->boxes, g_steal_pointer (&boxes));
    }

  if (request->show_flows && !(frame->flows = tes_report_get_flows (report, scale->t0, scale->t1, error)))
    return NULL;

  if (request->tile_balance)
    {
      if (request->balance != NULL)
        frame->balance = g_ptr_array_ref (request->balance);
      else if (!(frame->balance = tes_trace_balance (report, error)))
        return NULL;
    }

  if (request->show_runs)
    {
      g_autoptr(GArray) runs = NULL;

      if (!(runs = tes_report_get_runs (report, error)))
        return NULL;
      frame->runs = g_array_new (FALSE, TRUE, sizeof (TesRun));
      for (guint i = 0; i < runs->len; i++)
        {
          const TesRun *run = &g_array_index (runs, TesRun, i);
          TesRun in_ns = {
            .id = run->id,
            .name = g_strdup (run->name),
            .start = tes_report_convert_time (report, run->clock_id, 0, run->start),
            .end = tes_report_convert_time (report, run->clock_id, 0, run->end),
          };

          if (in_ns.end >= scale->t0 && in_ns.start <= scale->t1)
            g_array_append_val (frame->runs, in_ns);
          else
            g_free (in_ns.name);
        }
      g_array_set_clear_func (frame->runs, run_clear);
    }

  return g_steal_pointer (&frame);
}

gboolean
tes_trace_frame_hit (const TesTraceFrame *frame,
                     double               x,
                     double               y,
                     int                 *lane,
                     int                 *box,
                     gboolean            *in_label)
{
  const TesTraceLane *hit;
  GArray *boxes;
  double lane_y;
  int row;

  *lane = -1;
  *box = -1;
  *in_label = x < TES_TRACE_LABEL_WIDTH;

  if (y < TES_TRACE_RULER_HEIGHT)
    return FALSE;

  lane_y = y - TES_TRACE_RULER_HEIGHT + frame->scroll_y;
  if ((*lane = tes_trace_lane_at (frame->lanes, lane_y)) < 0)
    return FALSE;

  hit = &g_array_index (frame->lanes, TesTraceLane, *lane);
  boxes = g_ptr_array_index (frame->boxes, *lane);
  if (*in_label || boxes == NULL)
    return TRUE;

  row = (int)floor ((lane_y - hit->y - 2) / TES_TRACE_ROW_HEIGHT);
  if (row >= 0 && (guint)row < hit->n_rows)
    *box = tes_trace_box_at (boxes, x, (guint)row);

  return TRUE;
}
