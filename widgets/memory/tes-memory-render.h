/* tes-memory-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-memory-layout.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

typedef enum
{
  TES_MEMORY_VIEW_ALL,
  TES_MEMORY_VIEW_HISTOGRAM,
  TES_MEMORY_VIEW_TILES,
} TesMemoryView;

/* Where a histogram bin was drawn, for a click to find it. */
typedef struct
{
  double x;
  double y;
  double width;
  double height;
  guint  bin;
} TesMemoryBinRect;

double   tes_memory_render_model (cairo_t              *cr,
                                  const TesMemoryModel *model,
                                  TesMemoryView         view,
                                  double                width,
                                  GArray               *bin_rects);
double   tes_memory_render_model_selected (cairo_t              *cr,
                                           const TesMemoryModel *model,
                                           TesMemoryView         view,
                                           double                width,
                                           GArray               *bin_rects,
                                           int                   selected,
                                           TesMemoryPlot        *plot);
int      tes_memory_bin_at       (GArray               *bin_rects,
                                  double                x,
                                  double                y);
gboolean tes_memory_render       (TesWorkspace         *workspace,
                                  TesMemoryView         view,
                                  cairo_t              *cr,
                                  int                   width,
                                  int                   height,
                                  GError              **error);

G_END_DECLS
