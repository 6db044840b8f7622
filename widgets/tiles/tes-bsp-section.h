/* tes-bsp-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-bsp-layout.h"
#include "tes-section.h"

G_BEGIN_DECLS

#define TES_TYPE_BSP_SECTION (tes_bsp_section_get_type ())

G_DECLARE_FINAL_TYPE (TesBspSection, tes_bsp_section, TES, BSP_SECTION, TesSection)

/* One IPU's BSP steps, as the heatmap reads them. */
typedef struct
{
  int            ipu;
  guint          n_tiles;
  GPtrArray     *steps;     /* TesBspStep */
  GArray        *spans;     /* TesBspSpan over steps, times in ns */
  TesBspPyramid *pyramid;   /* over spans */
} TesBspIpu;

/* What the cells' colour says. */
typedef enum
{
  TES_BSP_COLOR_STATE,      /* compute, exchange, sync, idle */
  TES_BSP_COLOR_CYCLES,     /* busy cycles per tile, on a scale */
} TesBspColoring;

/* What one frame of the heatmap leaves the next (tes_bsp_render_frame()). */
typedef struct _TesBspFrame TesBspFrame;

GPtrArray *tes_bsp_load_ipus              (TesReport      *report,
                                           GError        **error);
gboolean   tes_bsp_render                 (TesWorkspace   *workspace,
                                           GPtrArray      *ipus,
                                           TesBspColoring  coloring,
                                           cairo_t        *cr,
                                           int             width,
                                           int             height);
void       tes_bsp_load_ipus_async        (TesReport           *report,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GPtrArray *tes_bsp_load_ipus_finish       (TesReport      *report,
                                           GAsyncResult   *result,
                                           GError        **error);
GPtrArray *tes_bsp_peek_ipus              (TesReport      *report);
GArray    *tes_bsp_get_tile_activity      (GPtrArray      *ipus,
                                           gint64          start_ns,
                                           gint64          end_ns);
TesBspFrame *tes_bsp_frame_new           (void);
void       tes_bsp_frame_free             (TesBspFrame    *frame);
gboolean   tes_bsp_render_frame           (TesBspFrame    *frame,
                                           TesWorkspace   *workspace,
                                           GPtrArray      *ipus,
                                           TesBspColoring  coloring,
                                           cairo_t        *cr,
                                           int             width,
                                           int             height);
GPtrArray *tes_bsp_section_get_ipus       (TesBspSection  *self);
TesBspColoring tes_bsp_section_get_coloring (TesBspSection *self);
void       tes_bsp_section_set_coloring   (TesBspSection  *self,
                                           TesBspColoring  coloring);
double     tes_bsp_section_get_magnify    (TesBspSection  *self);
void       tes_bsp_section_set_magnify    (TesBspSection  *self,
                                           double          magnify);
gboolean   tes_bsp_section_click          (TesBspSection  *self,
                                           double          x,
                                           double          y);
gboolean   tes_bsp_section_move_cursor    (TesBspSection  *self,
                                           int             steps,
                                           int             tiles);
gboolean   tes_bsp_section_activate       (TesBspSection  *self);
char      *tes_bsp_section_describe       (TesBspSection  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TesBspFrame, tes_bsp_frame_free)

G_END_DECLS
