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
 * No display needed; the core tests call these directly. */

static gint64
bucket_edge (gint64 t0,
             gint64 t1,
             guint  n_buckets,
             guint  b)
{
  return t0 + (gint64)((__int128)(t1 - t0) * b / n_buckets);
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

  b = (__int128)(t - t0) * n_buckets / (t1 - t0);
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
          bucket->busy += covered;
          if (bucket->dominant == 0 || covered > bucket->dominant_time)
            {
              bucket->dominant = name;
              bucket->dominant_time = covered;
            }
        }
    }
}
