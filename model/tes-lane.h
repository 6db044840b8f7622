/* tes-lane.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What one pixel column of a lane shows when many slices fall in it. */
typedef struct
{
  gint64  busy;       /* time covered by top-level slices, in track ticks */
  gint64  dominant_time;
  guint32 count;      /* slices touching the column */
  guint32 dominant;   /* string id of the name covering most of it */
  guint16 max_depth;
} TesLaneBucket;

void     tes_lane_bucket_bounds (gint64         t0,
                                 gint64         t1,
                                 guint          n_buckets,
                                 guint          bucket,
                                 gint64        *lo,
                                 gint64        *hi);
void     tes_lane_add_slice     (TesLaneBucket *buckets,
                                 guint          n_buckets,
                                 gint64         t0,
                                 gint64         t1,
                                 gint64         start,
                                 gint64         dur,
                                 guint32        name,
                                 guint          depth);
void     tes_lane_add_slice_pow2 (TesLaneBucket *buckets,
                                  guint          n_buckets,
                                  gint64         t0,
                                  guint          shift,
                                  gint64         start,
                                  gint64         dur,
                                  guint32        name,
                                  guint          depth);

void     tes_lane_add_bucket    (TesLaneBucket       *buckets,
                                 guint                n_buckets,
                                 gint64               t0,
                                 gint64               t1,
                                 gint64               lo,
                                 gint64               hi,
                                 const TesLaneBucket *src);
void     tes_lane_add_level     (TesLaneBucket       *buckets,
                                 guint                n_buckets,
                                 gint64               t0,
                                 gint64               t1,
                                 const TesLaneBucket *level,
                                 gint64               base,
                                 guint                shift,
                                 gint64               first,
                                 gint64               last);
void     tes_lane_merge         (TesLaneBucket       *into,
                                 const TesLaneBucket *from);

G_END_DECLS
