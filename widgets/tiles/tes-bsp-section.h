/* tes-bsp-section.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "tes-bsp-layout.h"
#include "tes-bsp-render.h"
#include "tes-section.h"

G_BEGIN_DECLS

#define TES_TYPE_BSP_SECTION (tes_bsp_section_get_type ())

G_DECLARE_FINAL_TYPE (TesBspSection, tes_bsp_section, TES, BSP_SECTION, TesSection)

void       tes_bsp_load_ipus_async        (TesReport           *report,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GPtrArray *tes_bsp_load_ipus_finish       (TesReport      *report,
                                           GAsyncResult   *result,
                                           GError        **error);
GPtrArray *tes_bsp_peek_ipus              (TesReport      *report);
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


gboolean        tes_bsp_section_get_cursor   (TesBspSection  *self,
                                              int            *ipu,
                                              guint          *tile,
                                              gint64         *step);

G_END_DECLS
