/* tes-trace-nav.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "tes-trace-nav"

#include "config.h"

#include "tes-trace-nav.h"

/* Windows read around a slice grow fourfold until they find one: a step
 * costs a few small reads, however long the track. */
#define GROWTH 4

static gboolean
depth_matches (const TesSlice *slice,
               int             depth)
{
  return depth < 0 || slice->depth == depth;
}

static gint64
to_ticks (TesReport *report,
          gint64     track_id,
          gint64     ns)
{
  return tes_report_convert_time (report, 0, tes_report_get_track (report, track_id)->clock_id, ns);
}

/* The slice @index of the track, which starts at @start_ns. */
gboolean
tes_trace_nav_get (TesReport *report,
                   gint64     track_id,
                   guint32    index,
                   gint64     start_ns,
                   TesSlice  *slice)
{
  g_autoptr(GArray) slices = NULL;
  gint64 ticks;

  g_return_val_if_fail (TES_IS_REPORT (report), FALSE);

  if (tes_report_get_track (report, track_id) == NULL)
    return FALSE;

  /* a tick either side: ns and ticks need not convert exactly */
  ticks = to_ticks (report, track_id, start_ns);
  if (!(slices = tes_report_get_slices (report, track_id, ticks - 1, ticks + 1, NULL)))
    return FALSE;

  for (guint i = 0; i < slices->len; i++)
    if (g_array_index (slices, TesSlice, i).index == index)
      {
        *slice = g_array_index (slices, TesSlice, i);
        return TRUE;
      }

  return FALSE;
}

/* The track's slice after (@direction > 0) or before @from in start
 * order, at @depth. */
gboolean
tes_trace_nav_step (TesReport      *report,
                    gint64          track_id,
                    const TesSlice *from,
                    int             direction,
                    int             depth,
                    TesSlice       *found)
{
  const TesTrack *track;
  gint64 width;

  g_return_val_if_fail (TES_IS_REPORT (report), FALSE);

  if ((track = tes_report_get_track (report, track_id)) == NULL || !track->has_extent)
    return FALSE;

  width = MAX (from->dur, 1) * GROWTH;
  for (;;)
    {
      g_autoptr(GArray) slices = NULL;
      const TesSlice *best = NULL;
      gint64 t0 = from->start, t1 = from->start;

      /* compared before adding: a grown width may not fit beside a time */
      if (direction > 0)
        t1 = track->t_max - from->start <= width ? track->t_max : from->start + width;
      else
        t0 = from->start - track->t_min <= width ? track->t_min : from->start - width;

      if (!(slices = tes_report_get_slices (report, track_id, t0, t1, NULL)))
        return FALSE;

      for (guint i = 0; i < slices->len; i++)
        {
          const TesSlice *slice = &g_array_index (slices, TesSlice, i);

          if (!depth_matches (slice, depth))
            continue;
          /* the next starts inside the window; the previous too, or a
           * later one starting before the window could be missed */
          if (direction > 0 ? slice->index > from->index && (best == NULL || slice->index < best->index)
                            : slice->index < from->index && (slice->start >= t0 || t0 <= track->t_min) &&
                              (best == NULL || slice->index > best->index))
            best = slice;
        }

      if (best != NULL)
        {
          *found = *best;
          return TRUE;
        }
      if (direction > 0 ? t1 >= track->t_max : t0 <= track->t_min)
        return FALSE;
      width = width > G_MAXINT64 / GROWTH ? G_MAXINT64 : width * GROWTH;
    }
}

static gint64
distance (const TesSlice *slice,
          gint64          t)
{
  if (t < slice->start)
    return slice->start - t;
  if (t > slice->start + slice->dur)
    return t - (slice->start + slice->dur);
  return 0;
}

/* The track's slice at @depth (-1: the outermost) under @t_ns, else the
 * one nearest to it within [@t0_ns, @t1_ns]. */
gboolean
tes_trace_nav_at (TesReport *report,
                  gint64     track_id,
                  int        depth,
                  gint64     t_ns,
                  gint64     t0_ns,
                  gint64     t1_ns,
                  TesSlice  *found)
{
  gint64 t, t0, t1, width;

  g_return_val_if_fail (TES_IS_REPORT (report), FALSE);

  if (tes_report_get_track (report, track_id) == NULL)
    return FALSE;

  t = to_ticks (report, track_id, t_ns);
  t0 = to_ticks (report, track_id, t0_ns);
  t1 = to_ticks (report, track_id, t1_ns);
  width = MAX ((t1 - t0) / 64, 1);
  for (;;)
    {
      g_autoptr(GArray) slices = NULL;
      gint64 w0 = t - t0 <= width ? t0 : t - width;
      gint64 w1 = t1 - t <= width ? t1 : t + width;
      const TesSlice *best = NULL;

      /* every slice overlapping the window is nearer than any outside */
      if (!(slices = tes_report_get_slices (report, track_id, w0, w1, NULL)))
        return FALSE;

      for (guint i = 0; i < slices->len; i++)
        {
          const TesSlice *slice = &g_array_index (slices, TesSlice, i);

          if (!depth_matches (slice, depth))
            continue;
          if (best == NULL || distance (slice, t) < distance (best, t) ||
              (distance (slice, t) == distance (best, t) && slice->depth < best->depth))
            best = slice;
        }

      if (best != NULL)
        {
          *found = *best;
          return TRUE;
        }
      if (w0 <= t0 && w1 >= t1)
        return FALSE;
      width = width > G_MAXINT64 / GROWTH ? G_MAXINT64 : width * GROWTH;
    }
}

/* A slice's start and end in ns of the report's base. */
gint64
tes_trace_nav_start (TesReport      *report,
                     gint64          track_id,
                     const TesSlice *slice)
{
  return tes_report_convert_time (report, tes_report_get_track (report, track_id)->clock_id, 0, slice->start);
}

gint64
tes_trace_nav_end (TesReport      *report,
                   gint64          track_id,
                   const TesSlice *slice)
{
  return tes_report_convert_time (report, tes_report_get_track (report, track_id)->clock_id, 0,
                                  slice->start + slice->dur);
}
