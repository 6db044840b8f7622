/* tes-bsp-layout.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <graphene.h>

#include "tes-report.h"

G_BEGIN_DECLS

/* The BSP heatmap without a display: one IPU's tiles (rows) over time
 * (columns), each cell the state that took most of that stretch of those
 * tiles. A cell is one device pixel: what falls in it is merged, so the
 * cost follows the pixels and the steps in view, not the run. */

#define TES_BSP_NO_STATE 0xff

/* The picture: a legend on top, per IPU a title and its heatmap, the
 * range's ends below; tile numbers left of the cells. */
#define TES_BSP_LEGEND_HEIGHT 30.0
#define TES_BSP_HEADER_HEIGHT 20.0
#define TES_BSP_AXIS_HEIGHT   20.0
#define TES_BSP_BLOCK_GAP     8.0
#define TES_BSP_LABEL_WIDTH   72.0
#define TES_BSP_MARGIN        16.0

typedef struct
{
  gint64         start;       /* ns */
  gint64         end;
  gint64         dur_cycles;  /* the step's length in its clock's cycles */
  guint          n_tiles;
  const guint32 *tile_cycles;
  const guint8  *tile_states;
} TesBspSpan;

typedef struct
{
  guint   width;              /* columns */
  guint   n_rows;             /* min (height, tiles) */
  guint   n_tiles;
  guint8 *states;             /* n_rows × width, row-major; TES_BSP_NO_STATE where no step */
} TesBspGrid;

TesBspGrid *tes_bsp_grid_build    (const TesBspSpan *spans,
                                   guint             n_spans,
                                   guint             n_tiles,
                                   gint64            t0,
                                   gint64            t1,
                                   guint             width,
                                   guint             height);
guint8      tes_bsp_grid_get      (const TesBspGrid *grid,
                                   guint             column,
                                   guint             row);
guint       tes_bsp_grid_row_of   (const TesBspGrid *grid,
                                   guint             tile);
int         tes_bsp_span_at       (const TesBspSpan *spans,
                                   guint             n_spans,
                                   gint64            t);
void        tes_bsp_grid_free     (TesBspGrid       *grid);
graphene_rect_t tes_bsp_heat_rect (guint             ipu_index,
                                   guint             n_ipus,
                                   double            width,
                                   double            height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesBspGrid, tes_bsp_grid_free)

G_END_DECLS
