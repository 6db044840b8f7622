/* tes-trace-frame.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
  g_clear_pointer (&frame->terminals, g_array_unref);
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

/* Box arrays of frames freed, emptied, for the frames built next: a
 * frame's boxes are megabytes at 10M slices (26,000 boxes at the whole
 * run), and allocated afresh each frame, as they grew they pushed the
 * heap past its top, and gave it back as the frame was freed: with huge
 * pages, 2 MB cleared by the kernel every frame. Any thread builds and
 * frees frames, hence one store for all. */
#define SPARE_BOXES_BYTES (16 << 20)
#define SPARE_BOXES_MAX   64

static GMutex spare_lock;
static GArray *spare_boxes[SPARE_BOXES_MAX];
static gsize spare_sizes[SPARE_BOXES_MAX];   /* bytes each held when given */
static guint n_spare;
static gsize spare_bytes;

/* An empty array for a lane's boxes: the largest spare one (lanes are
 * built top to bottom, and the largest first takes the largest), else
 * a new one. */
static GArray *
boxes_take (void)
{
  GArray *boxes = NULL;
  guint largest = 0;

  g_mutex_lock (&spare_lock);
  for (guint i = 1; i < n_spare; i++)
    if (spare_sizes[i] > spare_sizes[largest])
      largest = i;
  if (n_spare > 0)
    {
      boxes = spare_boxes[largest];
      spare_bytes -= spare_sizes[largest];
      n_spare--;
      spare_boxes[largest] = spare_boxes[n_spare];
      spare_sizes[largest] = spare_sizes[n_spare];
    }
  g_mutex_unlock (&spare_lock);

  return boxes != NULL ? boxes : g_array_new (FALSE, TRUE, sizeof (TesTraceBox));
}

/* A frame's lane boxes, freed: kept (their memory with them) while the
 * store has room. The frame owns its arrays: nothing else holds them. */
static void
boxes_give (gpointer data)
{
  GArray *boxes = data;
  gsize size;

  if (boxes == NULL)
    return;
  size = (gsize)boxes->len * sizeof (TesTraceBox);

  g_mutex_lock (&spare_lock);
  if (n_spare < SPARE_BOXES_MAX && spare_bytes + size <= SPARE_BOXES_BYTES)
    {
      g_array_set_size (boxes, 0);
      spare_boxes[n_spare] = g_steal_pointer (&boxes);
      spare_sizes[n_spare++] = size;
      spare_bytes += size;
    }
  g_mutex_unlock (&spare_lock);

  if (boxes != NULL)
    g_array_unref (boxes);
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

/* The times of the pixel columns' edges: edge i is where column i
 * starts, edge n where the last ends. A frame's boxes from the lane
 * summaries start and end on them, tens of thousands of times. */
static const gint64 *
column_edges (gint64              **edges,
              const TesTraceScale  *scale,
              guint                 n_columns)
{
  double px = scale->width / n_columns;

  if (*edges == NULL)
    {
      *edges = g_new (gint64, n_columns + 1);
      for (guint i = 0; i <= n_columns; i++)
        (*edges)[i] = tes_trace_scale_time (scale, scale->x0 + i * px);
    }

  return *edges;
}

/* A box of columns is whole: its time, to the edge it ends on. */
static void
close_box (GArray       *boxes,
           int           open,
           const gint64 *edges,
           guint         end)
{
  TesTraceBox *box;

  if (open < 0)
    return;
  box = &g_array_index (boxes, TesTraceBox, open);
  box->dur = edges[end] - box->start;
}

/* Zoomed far out: one box per run of pixel columns with the same dominant
 * name, from the lane summary (or @combined, an I/O lane's), on every row
 * the slices there reach. A
 * column whose dominant step is of a kind left out (Show External Syncs…)
 * is left empty: what else lies under it is too small to be seen there,
 * and this keeps the cost a column's, not a slice's. */
static gboolean
boxes_from_summary (TesReport             *report,
                    const TesTrack        *track,
                    const TesTraceScale   *scale,
                    const gint64          *edges,
                    TesTraceMode           mode,
                    const TesTraceMatches *matches,
                    const guint8          *hidden_names,
                    guint                  levels,
                    GArray                *combined,
                    gint64                 t0,
                    gint64                 t1,
                    GArray                *boxes,
                    GError               **error)
{
  guint n_buckets = MAX (1, (guint)ceil (scale->width));
  g_autoptr(GArray) lane = combined != NULL ? g_array_ref (combined) : NULL;
  double px = scale->width / n_buckets;
  guint rows = mode == TES_TRACE_FLAME ? track->max_depth + 1 : 1;
  guint n_strings = tes_report_get_n_strings (report);
  TesTraceGroupOpen groups[TES_TRACE_MAX_GROUP_LEVELS];
  const TesLaneBucket *buckets;

  for (guint l = 0; l < G_N_ELEMENTS (groups); l++)
    groups[l].box = -1;

  if (lane == NULL && !(lane = tes_report_get_lane (report, track->id, t0, t1, n_buckets, error)))
    return FALSE;
  buckets = (const TesLaneBucket *)(gpointer)lane->data;

  for (guint row = 0; row < rows; row++)
    {
      int open = -1;
      guint open_end = 0;   /* the edge the open box ends on */

      for (guint i = 0; i < n_buckets; i++)
        {
          const TesLaneBucket *bucket = &buckets[i];

          if (bucket->count == 0 || (mode == TES_TRACE_FLAME && bucket->max_depth < row) ||
              (hidden_names != NULL && bucket->dominant < n_strings && hidden_names[bucket->dominant]))
            {
              close_box (boxes, open, edges, open_end);
              open = -1;
              if (row == 0)
                tes_trace_group_step (boxes, groups, levels, NULL, NULL);
              continue;
            }

          /* the groups follow the columns' dominant steps */
          if (row == 0 && levels > 0)
            {
              TesTraceBox column = { .x0 = scale->x0 + i * px, .x1 = scale->x0 + (i + 1) * px,
                                     .n_slices = bucket->count };

              column.start = edges[i];
              column.dur = edges[i + 1] - column.start;
              tes_trace_group_step (boxes, groups, levels,
                                    tes_report_get_string (report, bucket->dominant), &column);
            }

          if (open >= 0)
            {
              TesTraceBox *box = &g_array_index (boxes, TesTraceBox, open);

              if (box->name == bucket->dominant)
                {
                  box->x1 = scale->x0 + (i + 1) * px;
                  box->n_slices += bucket->count;
                  open_end = i + 1;
                  /* without a search, its time is set once it is whole */
                  if (matches != NULL)
                    {
                      box->dur = edges[i + 1] - box->start;
                      box->matched |= tes_trace_matches_any_between (matches, track->id,
                                                                     tes_trace_scale_time (scale, box->x1 - px),
                                                                     box->start + box->dur);
                    }
                  continue;
                }
              close_box (boxes, open, edges, open_end);
            }

          {
            TesTraceBox box = {
              .x0 = scale->x0 + i * px,
              .x1 = scale->x0 + (i + 1) * px,
              .name = bucket->dominant,
              .n_slices = bucket->count,
              .row = (guint16)(row + levels),
            };

            /* a bucket is a pixel column: its times are the column's */
            box.start = edges[i];
            box.dur = edges[i + 1] - box.start;
            box.matched = matches != NULL &&
                          tes_trace_matches_any_between (matches, track->id, box.start, box.start + box.dur);
            open = (int)boxes->len;
            open_end = i + 1;
            g_array_append_val (boxes, box);
          }
        }
      close_box (boxes, open, edges, open_end);
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

      if ((ipu = run->ipu) < 0)
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

/* Whether the track counts Lightweight Profiling's cycles: the Poplar
 * export importer gives its blocks a clock of their own, named so. */
static gboolean
is_lwp_track (TesReport      *report,
              const TesTrack *track)
{
  const TesClock *clock = track->clock_id ? tes_report_get_clock (report, track->clock_id) : NULL;

  return clock != NULL && clock->name != NULL && strstr (clock->name, "(Lightweight Profiling)") != NULL;
}

/* Where the report's first Lightweight Profiling block starts, in ns. */
gboolean
tes_trace_lwp_start (TesReport *report,
                     gint64    *start)
{
  gboolean found = FALSE;

  for (gint64 id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      gint64 t;

      if (!track->has_extent || track->n_slices == 0 || !is_lwp_track (report, track))
        continue;
      t = tes_report_convert_time (report, track->clock_id, 0, track->t_min);
      if (!found || t < *start)
        *start = t;
      found = TRUE;
    }

  return found;
}

/* Show Terminals: per process (a track at the top of the tree), where the
 * last slice of it or of any track below it ends. */
static GArray *
terminals (TesReport *report)
{
  gint64 n = tes_report_get_n_tracks (report);
  g_autofree gint64 *end = g_new0 (gint64, n + 1);
  g_autofree gboolean *has = g_new0 (gboolean, n + 1);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (TesTraceTerminal));

  for (gint64 id = 1; id <= n; id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      gint64 root = id, t;

      if (!track->has_extent || track->n_slices == 0 || track->kind == TES_TRACK_COUNTER)
        continue;
      for (guint hops = 0; hops < 64; hops++)
        {
          const TesTrack *up = tes_report_get_track (report, root);

          if (up->parent_id <= 0 || up->parent_id > n)
            break;
          root = up->parent_id;
        }
      t = tes_report_convert_time (report, track->clock_id, 0, track->t_max);
      if (!has[root] || t > end[root])
        end[root] = t;
      has[root] = TRUE;
    }

  for (gint64 id = 1; id <= n; id++)
    if (has[id])
      g_array_append_val (found, ((TesTraceTerminal) { id, end[id] }));

  return found;
}

void
tes_trace_io_events_free (TesTraceIoEvents *io)
{
  if (io == NULL)
    return;

  g_hash_table_unref (io->lane_of);
  g_hash_table_unref (io->members);
  g_hash_table_unref (io->aggregated);
  g_hash_table_unref (io->ipu);
  g_free (io);
}

/* Aggregate StreamCopy Blocks: the Lightweight Profiling lanes (a tile's,
 * its IPU stored with the track) whose blocks are all
 * StreamCopy blocks are tiles that were not selected but took part in a
 * StreamCopy; per IPU with such tiles, an I/O lane. Reads every block of
 * the LWP lanes once: a view keeps the result per report. NULL when there
 * is nothing to aggregate. */
TesTraceIoEvents *
tes_trace_io_events (TesReport  *report,
                     GError    **error)
{
  TesTraceIoEvents *io = g_new0 (TesTraceIoEvents, 1);
  g_autoptr(GHashTable) first_of_ipu = g_hash_table_new (NULL, NULL);   /* IPU + 1 -> I/O lane id */
  g_autoptr(GArray) tiles = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) tile_ipus = g_array_new (FALSE, FALSE, sizeof (guint));

  io->lane_of = g_hash_table_new (NULL, NULL);
  io->members = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_array_unref);
  io->aggregated = g_hash_table_new (NULL, NULL);
  io->ipu = g_hash_table_new (NULL, NULL);

  for (gint64 id = 1; id <= tes_report_get_n_tracks (report); id++)
    {
      const TesTrack *track = tes_report_get_track (report, id);
      g_autoptr(GArray) slices = NULL;
      gboolean all_copies = TRUE;
      guint ipu;

      if (track->kind != TES_TRACK_TILE || track->n_slices == 0 || !is_lwp_track (report, track) ||
          track->ipu < 0)
        continue;
      ipu = (guint)track->ipu;
      g_array_append_val (tiles, id);
      g_array_append_val (tile_ipus, ipu);

      if (!(slices = tes_report_get_slices (report, id, G_MININT64, G_MAXINT64, error)))
        {
          tes_trace_io_events_free (io);
          return NULL;
        }
      for (guint i = 0; i < slices->len && all_copies; i++)
        all_copies = g_strcmp0 (tes_report_get_string (report, g_array_index (slices, TesSlice, i).category),
                                "stream-copy") == 0;
      if (all_copies)
        {
          gpointer lane = g_hash_table_lookup (first_of_ipu, GUINT_TO_POINTER (ipu + 1));
          GArray *members;

          if (lane == NULL)
            {
              lane = GSIZE_TO_POINTER (id);
              g_hash_table_insert (first_of_ipu, GUINT_TO_POINTER (ipu + 1), lane);
              g_hash_table_insert (io->members, lane, g_array_new (FALSE, FALSE, sizeof (gint64)));
              g_hash_table_insert (io->ipu, lane, GUINT_TO_POINTER (ipu + 1));
            }
          members = g_hash_table_lookup (io->members, lane);
          g_array_append_val (members, id);
          g_hash_table_add (io->aggregated, GSIZE_TO_POINTER (id));
        }
    }

  /* every LWP lane of such an IPU knows its I/O lane, which goes above the first */
  for (guint i = 0; i < tiles->len; i++)
    {
      gpointer lane = g_hash_table_lookup (first_of_ipu, GUINT_TO_POINTER (g_array_index (tile_ipus, guint, i) + 1));

      if (lane != NULL)
        g_hash_table_insert (io->lane_of, GSIZE_TO_POINTER (g_array_index (tiles, gint64, i)), lane);
    }

  if (g_hash_table_size (io->members) == 0)
    {
      tes_trace_io_events_free (io);
      return NULL;
    }

  return io;
}

static int
compare_slice_start (gconstpointer a,
                     gconstpointer b)
{
  const TesSlice *sa = a, *sb = b;

  return (sa->start > sb->start) - (sa->start < sb->start);
}

/* An I/O lane's boxes: its tiles' StreamCopy blocks on one row, slice by
 * slice when few are in view, else from their lane summaries combined
 * column by column (a column's dominant block the one covering most of it
 * on any tile), so the cost stays a column's. */
static gboolean
io_boxes (TesReport             *report,
          const TesTraceLane    *lane,
          const TesTraceIoEvents *io,
          const TesTraceScale   *scale,
          gint64               **edges,
          const TesTraceMerge   *merge,
          gint64                 t0,
          gint64                 t1,
          GArray                *boxes,
          guint64               *n_read,
          GError               **error)
{
  GArray *members = g_hash_table_lookup (io->members, GSIZE_TO_POINTER (lane->track_id));
  const TesTrack *track = tes_report_get_track (report, lane->track_id);
  TesTraceMerge flat = *merge;
  double visible = 0;

  flat.mode = TES_TRACE_FLAT;
  for (guint m = 0; members != NULL && m < members->len; m++)
    visible += estimate_visible (tes_report_get_track (report, g_array_index (members, gint64, m)), t0, t1);

  if (visible > TES_TRACE_SLICES_PER_PIXEL * scale->width)
    {
      guint n_buckets = MAX (1, (guint)ceil (scale->width));
      g_autoptr(GArray) combined = g_array_new (FALSE, TRUE, sizeof (TesLaneBucket));

      g_array_set_size (combined, n_buckets);
      for (guint m = 0; m < members->len; m++)
        {
          g_autoptr(GArray) one = tes_report_get_lane (report, g_array_index (members, gint64, m), t0, t1,
                                                       n_buckets, error);

          if (one == NULL)
            return FALSE;
          for (guint i = 0; i < n_buckets; i++)
            {
              TesLaneBucket *to = &g_array_index (combined, TesLaneBucket, i);
              const TesLaneBucket *from = &g_array_index (one, TesLaneBucket, i);

              if (from->count > 0 && (to->count == 0 || from->dominant_time > to->dominant_time))
                {
                  to->dominant = from->dominant;
                  to->dominant_time = from->dominant_time;
                }
              to->count += from->count;
              to->busy = MAX (to->busy, from->busy);
            }
        }
      return boxes_from_summary (report, track, scale, column_edges (edges, scale, n_buckets), TES_TRACE_FLAT,
                                 merge->matches, merge->hidden_names, merge->group_levels, combined, t0, t1,
                                 boxes, error);
    }

  {
    g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (TesSlice));

    for (guint m = 0; members != NULL && m < members->len; m++)
      {
        g_autoptr(GArray) slices = tes_report_get_slices (report, g_array_index (members, gint64, m), t0, t1, error);

        if (slices == NULL)
          return FALSE;
        for (guint i = 0; i < slices->len; i++)
          if (g_array_index (slices, TesSlice, i).depth == 0)
            g_array_append_val (all, g_array_index (slices, TesSlice, i));
      }
    g_array_sort (all, compare_slice_start);
    *n_read += all->len;
    tes_trace_merge_slices (scale, (const TesSlice *)(gpointer)all->data, all->len, report, track, &flat, boxes);
  }

  return TRUE;
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
  g_autofree gint64 *edges = NULL;
  g_autofree guint8 *sync_names = request->group_syncs ? tes_trace_sync_names (report) : NULL;
  g_autofree guint8 *own_hidden = request->hidden_names == NULL ? tes_trace_hidden_names (report, request->hide) : NULL;
  const guint8 *hidden_names = request->hidden_names != NULL ? request->hidden_names : own_hidden;
  guint levels = request->lanes != NULL ? MIN (request->lanes->group_levels, TES_TRACE_MAX_GROUP_LEVELS) : 0;
  TesTraceMerge merge = { mode, request->matches, sync_names, tes_report_get_n_strings (report), hidden_names,
                          levels };

  g_return_val_if_fail (TES_IS_REPORT (report), NULL);
  g_return_val_if_fail (request != NULL, NULL);

  frame->scale = *scale;
  frame->mode = mode;
  frame->scroll_y = scroll_y;
  frame->view_height = view_height;
  frame->searching = matches != NULL;
  frame->group_syncs = request->group_syncs;
  frame->tile_balance = request->tile_balance;
  frame->hide = request->hide;
  frame->group_levels = levels;
  frame->io_events = request->lanes != NULL && request->lanes->io_events != NULL;
  frame->relative_cycles = request->relative_cycles;
  tes_report_get_span (report, 0, &frame->origin, &frame->end);
  /* Show Relative Cycles: the ruler counts from the first block */
  frame->ruler_origin = frame->origin;
  if (request->relative_cycles)
    tes_trace_lwp_start (report, &frame->ruler_origin);
  if (request->show_terminals)
    frame->terminals = terminals (report);
  frame->lanes = tes_trace_layout_lanes (report, mode, request->lanes, &frame->total_height);

  if (request->overview != NULL && request->overview->len == n_columns)
    frame->overview = g_array_ref (request->overview);
  else if (!(frame->overview = tes_trace_overview (report, n_columns, error)))
    return NULL;
  frame->boxes = g_ptr_array_new_full (frame->lanes->len, boxes_give);
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
      boxes = boxes_take ();

      if (lane->io_ipu >= 0)
        {
          if (!io_boxes (report, lane, request->lanes->io_events, scale, &edges, &merge, t0, t1, boxes,
                         &frame->n_slices_read, error))
            return NULL;
        }
      else if (estimate_visible (track, t0, t1) > TES_TRACE_SLICES_PER_PIXEL * scale->width)
        {
          if (!boxes_from_summary (report, track, scale, column_edges (&edges, scale, n_columns), mode,
                                   matches, hidden_names, levels, NULL, t0, t1, boxes, error))
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
