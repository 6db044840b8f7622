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
  guint64 span = (guint64)t1 - (guint64)t0;

  /* the span times b within 64 bits (as for any window but the widest):
   * the same quotient, without a 128-bit division */
  if (t1 >= t0 && span <= G_MAXUINT64 / n_buckets)
    return (gint64)((guint64)t0 + span * b / n_buckets);

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

/* a·b/c as the 128-bit quotient, for a share of a bucket's time: within
 * 64 bits when the product fits (the same quotient, without a 128-bit
 * division, for all but spans near 2^63). */
static inline gint64
prorate (gint64   a,
         gint64   b,
         __int128 c)
{
  guint64 product;

  if (a >= 0 && b >= 0 && c > 0 && c <= (__int128)G_MAXUINT64 &&
      !__builtin_mul_overflow ((guint64)a, (guint64)b, &product))
    return (gint64)(product / (guint64)c);

  return (gint64)((__int128)a * b / c);
}

/* Every column's edge, bucket_edge (b) for b from 0 to @n_buckets, by
 * adding rather than dividing where bucket_edge () stays within 64 bits:
 * span·b/n is b·q + (b·r)/n for span = q·n + r. */
static void
column_edges (gint64  t0,
              gint64  t1,
              guint   n_buckets,
              gint64 *edges)
{
  guint64 span = (guint64)t1 - (guint64)t0;

  if (t1 >= t0 && span <= G_MAXUINT64 / n_buckets)
    {
      guint64 q = span / n_buckets, r = span % n_buckets;
      guint64 offset = 0, rest = 0;

      for (guint b = 0; b <= n_buckets; b++)
        {
          edges[b] = (gint64)((guint64)t0 + offset);
          offset += q;
          rest += r;
          if (rest >= n_buckets)
            {
              rest -= n_buckets;
              offset++;
            }
        }
      return;
    }

  for (guint b = 0; b <= n_buckets; b++)
    edges[b] = bucket_edge (t0, t1, n_buckets, b);
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
  guint64 span = (guint64)t1 - (guint64)t0;
  __int128 b;

  if (t <= t0)
    return 0;
  if (t >= t1)
    return n_buckets - 1;

  /* as in bucket_edge: within 64 bits the same quotient */
  if (t1 > t0 && span <= G_MAXUINT64 / n_buckets)
    b = ((guint64)t - (guint64)t0) * n_buckets / span;
  else
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

/* tes_lane_add_bucket() once its columns are known: @first to @last, the
 * edges of @first and @first + 1 given; the others' from @edges (every
 * column's, see column_edges ()) or, NULL, found here. */
static void
add_bucket_to (TesLaneBucket       *buckets,
               guint                n_buckets,
               gint64               t0,
               gint64               t1,
               const gint64        *edges,
               gint64               lo,
               gint64               hi,
               const TesLaneBucket *src,
               guint                first,
               guint                last,
               gint64               first_lo,
               gint64               first_hi)
{
  gint64 vis_lo = MAX (lo, t0);
  gint64 vis_hi = MIN (hi, t1);
  gint64 visible_busy;
  gint64 given = 0;

  /* whole, the bucket's own figures (what the proration below gives) */
  visible_busy = vis_lo == lo && vis_hi == hi
                 ? src->busy
                 : prorate (src->busy, vis_hi - vis_lo, (__int128)hi - lo);

  for (guint b = first; b <= last; b++)
    {
      TesLaneBucket *bucket = &buckets[b];
      gint64 edge_lo = b == first ? first_lo : edges != NULL ? edges[b] : bucket_edge (t0, t1, n_buckets, b);
      gint64 edge_hi = b == first ? first_hi : edges != NULL ? edges[b + 1] : bucket_edge (t0, t1, n_buckets, b + 1);
      gint64 c_lo = MAX (vis_lo, edge_lo);
      gint64 c_hi = MIN (vis_hi, edge_hi);
      gint64 width = MAX (0, c_hi - c_lo);
      gint64 share, dom;

      if (b == last)
        share = visible_busy - given;
      else
        share = prorate (visible_busy, width, (__int128)vis_hi - vis_lo);
      given += share;
      dom = width == hi - lo ? src->dominant_time : prorate (src->dominant_time, width, (__int128)hi - lo);

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
  guint first, last;

  g_return_if_fail (buckets != NULL && n_buckets > 0 && t1 > t0 && hi > lo);

  if (src->count == 0 || vis_hi <= vis_lo)
    return;

  first = bucket_of (t0, t1, n_buckets, vis_lo);
  last = bucket_of (t0, t1, n_buckets, vis_hi - 1);
  add_bucket_to (buckets, n_buckets, t0, t1, NULL, lo, hi, src, first, last,
                 bucket_edge (t0, t1, n_buckets, first), bucket_edge (t0, t1, n_buckets, first + 1));
}

/* The last column whose left edge is at or before @t (the first for t
 * at or before t0), from column @b on: bucket_of () for times that never
 * go back, on the columns' edges. */
static inline guint
seek_column (const gint64 *edges,
             gint64        t0,
             guint         n_buckets,
             guint         b,
             gint64        t)
{
  /* at or before t0, the first column (where empty columns share t0's edge) */
  while (t > t0 && b + 1 < n_buckets && edges[b + 1] <= t)
    b++;

  return b;
}

/* Folds buckets @first to @last of a summary level (bucket i covering
 * [base + i·2^shift, base + (i+1)·2^shift)) into the columns, exactly as
 * tes_lane_add_bucket() for each in turn, but each column's edges are
 * found once: a frame's cost is the level's buckets, not their divisions. */
void
tes_lane_add_level (TesLaneBucket       *buckets,
                    guint                n_buckets,
                    gint64               t0,
                    gint64               t1,
                    const TesLaneBucket *level,
                    gint64               base,
                    guint                shift,
                    gint64               first,
                    gint64               last)
{
  g_autofree gint64 *edges = NULL;
  guint from = 0, to = 0;

  g_return_if_fail (buckets != NULL && n_buckets > 0 && t1 > t0 && shift < 63);

  edges = g_new (gint64, (gsize)n_buckets + 1);
  column_edges (t0, t1, n_buckets, edges);

  for (gint64 i = first; i <= last; i++)
    {
      const TesLaneBucket *src = &level[i];
      gint64 lo = base + (i << shift);
      gint64 hi = lo + ((gint64)1 << shift);
      gint64 vis_lo = MAX (lo, t0);
      gint64 vis_hi = MIN (hi, t1);

      if (src->count == 0 || vis_hi <= vis_lo)
        continue;

      from = seek_column (edges, t0, n_buckets, from, vis_lo);
      to = seek_column (edges, t0, n_buckets, to, vis_hi - 1);
      add_bucket_to (buckets, n_buckets, t0, t1, edges, lo, hi, src, from, to, edges[from], edges[from + 1]);
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
