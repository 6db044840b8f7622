/* tes-lane.c
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tes-lane.h"

/* Pure geometry for lanes: merging slices into pixel columns so that
 * drawing costs what the pixels cost, whatever the number of slices.
 * No display needed; the core tests call these directly. Spans are taken
 * in 128 bits: a window may reach across all of gint64. */

static gint64
bucket_edge (gint64 t0,
             gint64 t1,
             guint  n_buckets,
             guint  b)
{
  /* all in 128 bits: the offset alone may be 2^63, the edge never leaves [t0, t1] */
  return (gint64)((__int128)t0 + ((__int128)t1 - t0) * b / n_buckets);
}

/* Busy time: slices that overlap at depth 0 (bad input) over a span near
 * 2^63 could add past gint64; such a column is simply all busy. */
static inline gint64
add_saturating (gint64 busy,
                gint64 covered)
{
  return covered > G_MAXINT64 - busy ? G_MAXINT64 : busy + covered;
}

void
tes_lane_bucket_bounds (gint64  t0,
                        gint64  t1,
                        guint   n_buckets,
                        guint   bucket,
                        gint64 *lo,
                        gint64 *hi)
{
  g_return_if_fail (n_buckets > 0 && t1 > t0 && bucket < n_buckets);

  *lo = bucket_edge (t0, t1, n_buckets, bucket);
  *hi = bucket_edge (t0, t1, n_buckets, bucket + 1);
}

static guint
bucket_of (gint64 t0,
           gint64 t1,
           guint  n_buckets,
           gint64 t)
{
  __int128 b;

  if (t <= t0)
    return 0;
  if (t >= t1)
    return n_buckets - 1;

  b = ((__int128)t - t0) * n_buckets / ((__int128)t1 - t0);
  /* bucket_edge rounds down, so t may sit just below the computed edge */
  while (b > 0 && bucket_edge (t0, t1, n_buckets, (guint)b) > t)
    b--;
  while (b + 1 < n_buckets && bucket_edge (t0, t1, n_buckets, (guint)b + 1) <= t)
    b++;

  return (guint)b;
}

void
tes_lane_add_slice (TesLaneBucket *buckets,
                    guint          n_buckets,
                    gint64         t0,
                    gint64         t1,
                    gint64         start,
                    gint64         dur,
                    guint32        name,
                    guint          depth)
{
  gint64 end = start + dur;
  guint first, last;

  g_return_if_fail (buckets != NULL && n_buckets > 0 && t1 > t0);

  if (end < t0 || start > t1 || (dur > 0 && end == t0))
    return;

  first = bucket_of (t0, t1, n_buckets, start);
  last = dur > 0 ? bucket_of (t0, t1, n_buckets, end - 1) : first;

  for (guint b = first; b <= last; b++)
    {
      TesLaneBucket *bucket = &buckets[b];
      gint64 lo = MAX (start, bucket_edge (t0, t1, n_buckets, b));
      gint64 hi = MIN (end, bucket_edge (t0, t1, n_buckets, b + 1));
      gint64 covered = MAX (0, hi - lo);

      bucket->count++;
      bucket->max_depth = MAX (bucket->max_depth, (guint16)MIN (depth, G_MAXUINT16));

      if (depth == 0)
        {
          bucket->busy = add_saturating (bucket->busy, covered);
          if (bucket->dominant == 0 || covered > bucket->dominant_time)
            {
              bucket->dominant = name;
              bucket->dominant_time = covered;
            }
        }
    }
}

/* tes_lane_add_slice() for columns of 2^shift ticks each from t0 (the
 * cache's lane summaries): t1 is t0 + (n_buckets << shift), so every edge
 * is t0 + (b << shift) exactly and a bucket is a shift, not a 128-bit
 * division. The result is the same, bucket for bucket. */
static inline gint64
pow2_edge (gint64 t0,
           guint  shift,
           guint  b)
{
  /* the last edge may be 2^63 ticks from t0; the sum itself fits */
  return (gint64)((guint64)t0 + ((guint64)b << shift));
}

static inline guint
pow2_bucket_of (gint64 t0,
                gint64 t1,
                guint  shift,
                guint  n_buckets,
                gint64 t)
{
  if (t <= t0)
    return 0;
  if (t >= t1)
    return n_buckets - 1;
  return (guint)(((guint64)t - (guint64)t0) >> shift);
}

void
tes_lane_add_slice_pow2 (TesLaneBucket *buckets,
                         guint          n_buckets,
                         gint64         t0,
                         guint          shift,
                         gint64         start,
                         gint64         dur,
                         guint32        name,
                         guint          depth)
{
  gint64 t1 = pow2_edge (t0, shift, n_buckets);
  gint64 end = start + dur;
  guint16 depth16 = (guint16)MIN (depth, G_MAXUINT16);
  guint first, last;

  g_return_if_fail (buckets != NULL && n_buckets > 0 && shift < 64 && t1 > t0);

  if (end < t0 || start > t1 || (dur > 0 && end == t0))
    return;

  first = pow2_bucket_of (t0, t1, shift, n_buckets, start);
  last = dur > 0 ? pow2_bucket_of (t0, t1, shift, n_buckets, end - 1) : first;

  for (guint b = first; b <= last; b++)
    {
      TesLaneBucket *bucket = &buckets[b];

      bucket->count++;
      bucket->max_depth = MAX (bucket->max_depth, depth16);

      if (depth == 0)
        {
          gint64 lo = MAX (start, pow2_edge (t0, shift, b));
          gint64 hi = MIN (end, pow2_edge (t0, shift, b + 1));
          gint64 covered = MAX (0, hi - lo);

          bucket->busy = add_saturating (bucket->busy, covered);
          if (bucket->dominant == 0 || covered > bucket->dominant_time)
            {
              bucket->dominant = name;
              bucket->dominant_time = covered;
            }
        }
    }
}

/* Folds a summary bucket covering [lo, hi) into the columns it overlaps:
 * busy time in proportion to the overlap (the remainder to the last column,
 * so the total is kept), the count into every column it touches. */
void
tes_lane_add_bucket (TesLaneBucket       *buckets,
                     guint                n_buckets,
                     gint64               t0,
                     gint64               t1,
                     gint64               lo,
                     gint64               hi,
                     const TesLaneBucket *src)
{
  gint64 vis_lo = MAX (lo, t0);
  gint64 vis_hi = MIN (hi, t1);
  gint64 visible_busy;
  gint64 given = 0;
  guint first, last;

  g_return_if_fail (buckets != NULL && n_buckets > 0 && t1 > t0 && hi > lo);

  if (src->count == 0 || vis_hi <= vis_lo)
    return;

  visible_busy = (gint64)((__int128)src->busy * ((__int128)vis_hi - vis_lo) / ((__int128)hi - lo));
  first = bucket_of (t0, t1, n_buckets, vis_lo);
  last = bucket_of (t0, t1, n_buckets, vis_hi - 1);

  for (guint b = first; b <= last; b++)
    {
      TesLaneBucket *bucket = &buckets[b];
      gint64 c_lo = MAX (vis_lo, bucket_edge (t0, t1, n_buckets, b));
      gint64 c_hi = MIN (vis_hi, bucket_edge (t0, t1, n_buckets, b + 1));
      gint64 share, dom;

      if (b == last)
        share = visible_busy - given;
      else
        share = (gint64)((__int128)visible_busy * MAX (0, c_hi - c_lo) / ((__int128)vis_hi - vis_lo));
      given += share;
      dom = (gint64)((__int128)src->dominant_time * MAX (0, c_hi - c_lo) / ((__int128)hi - lo));

      bucket->busy += share;
      bucket->count += src->count;
      bucket->max_depth = MAX (bucket->max_depth, src->max_depth);
      if (src->dominant != 0 && (bucket->dominant == 0 || dom > bucket->dominant_time))
        {
          bucket->dominant = src->dominant;
          bucket->dominant_time = dom;
        }
    }
}

/* Merges a neighbouring bucket of the same level into a coarser one. The
 * count becomes an upper bound: a slice touching both is counted twice. */
void
tes_lane_merge (TesLaneBucket       *into,
                const TesLaneBucket *from)
{
  into->busy += from->busy;
  into->count += from->count;
  into->max_depth = MAX (into->max_depth, from->max_depth);
  if (from->dominant != 0 && (into->dominant == 0 || from->dominant_time > into->dominant_time))
    {
      into->dominant = from->dominant;
      into->dominant_time = from->dominant_time;
    }
}
