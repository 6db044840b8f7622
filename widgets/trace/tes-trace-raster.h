/* tes-trace-raster.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "tes-trace-layout.h"

G_BEGIN_DECLS

/* The lanes' area of the Execution Trace as 32-bit pixels: an image of
 * its own or the picture's own pixels (tes-trace-render.c). Pure: no
 * cairo, no report; test-trace-raster checks it against the definition. */
typedef struct
{
  guint32 *data;
  int      stride;       /* in pixels */
  int      width;
  int      height;
  double   scale;        /* device pixels per unit */
  double   x_origin;     /* where the image sits in the picture */
  double   y_origin;
  double   lanes_top;    /* where lane y 0 is in the picture, before scroll_y */
  double   scroll_y;     /* lanes-area y at the image's top */
  guint32  background;   /* above, between and below the lanes */
  gboolean stream;       /* the pixels are not read back soon: written past the caches */
} TesTraceRaster;

typedef struct
{
  double             y;        /* as TesTraceLane's */
  double             height;
  guint32            stripe;   /* the lane's background */
  const TesTraceBox *boxes;    /* drawn in this order, later over earlier */
  guint              n_boxes;
  const guint32     *colors;   /* each box's pixel */
} TesTraceRasterLane;

void tes_trace_raster_lanes (const TesTraceRaster     *raster,
                             const TesTraceRasterLane *lanes,
                             guint                     n_lanes);

G_END_DECLS
