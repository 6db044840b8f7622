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
  int        ipu;
  guint      n_tiles;
  GPtrArray *steps;   /* TesBspStep */
  GArray    *spans;   /* TesBspSpan over steps, times in ns */
} TesBspIpu;

GPtrArray *tes_bsp_load_ipus              (TesReport      *report,
                                           GError        **error);
gboolean   tes_bsp_render                 (TesWorkspace   *workspace,
                                           GPtrArray      *ipus,
                                           cairo_t        *cr,
                                           int             width,
                                           int             height);
GPtrArray *tes_bsp_section_get_ipus       (TesBspSection  *self);
double     tes_bsp_section_get_magnify    (TesBspSection  *self);
void       tes_bsp_section_set_magnify    (TesBspSection  *self,
                                           double          magnify);
gboolean   tes_bsp_section_click          (TesBspSection  *self,
                                           double          x,
                                           double          y);

G_END_DECLS
