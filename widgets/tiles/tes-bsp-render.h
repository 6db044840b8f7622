/* tes-bsp-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-bsp-layout.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

/* What the cells' colour says. */
typedef enum
{
  TES_BSP_COLOR_STATE,      /* compute, exchange, sync, idle */
  TES_BSP_COLOR_CYCLES,     /* busy cycles per tile, on a scale */
} TesBspColoring;

/* What one frame of the heatmap leaves the next (tes_bsp_render_frame()). */
typedef struct _TesBspFrame TesBspFrame;

gboolean   tes_bsp_render                 (TesWorkspace   *workspace,
                                           GPtrArray      *ipus,
                                           TesBspColoring  coloring,
                                           cairo_t        *cr,
                                           int             width,
                                           int             height);
TesBspFrame *tes_bsp_frame_new           (void);
void       tes_bsp_frame_free             (TesBspFrame    *frame);
gboolean   tes_bsp_render_frame           (TesBspFrame    *frame,
                                           TesWorkspace   *workspace,
                                           GPtrArray      *ipus,
                                           TesBspColoring  coloring,
                                           cairo_t        *cr,
                                           int             width,
                                           int             height);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesBspFrame, tes_bsp_frame_free)

G_END_DECLS
