/* tes-tiles-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-tiles-layout.h"
#include "tes-workspace.h"

G_BEGIN_DECLS

void          tes_tiles_balance_range   (TesWorkspace          *workspace,
                                         gint64                *t0,
                                         gint64                *t1);
double        tes_tiles_render_balances (cairo_t               *cr,
                                         TesWorkspace          *workspace,
                                         GPtrArray             *balances,
                                         double                 width,
                                         int                    selected,
                                         gboolean               updating);
int           tes_tiles_render_height   (TesWorkspace          *workspace,
                                         GPtrArray             *balances,
                                         double                 width,
                                         gboolean               updating);
gboolean      tes_tiles_render          (TesWorkspace          *workspace,
                                         cairo_t               *cr,
                                         int                    width,
                                         int                    height,
                                         GError               **error);
char         *tes_tiles_unit_name       (TesReport             *report,
                                         const TesTileActivity *tile);
char         *tes_tiles_balance_title   (TesReport             *report,
                                         const TesTileBalance  *balance);
char         *tes_tiles_busy_text       (TesWorkspace          *workspace,
                                         const TesTileBalance  *balance,
                                         const TesTileActivity *tile);
const gint64 *tes_tiles_balance_cycles  (const TesTileBalance  *balance);
gboolean      tes_tiles_legend_state    (const TesTileBalance  *balance,
                                         guint                  nth,
                                         TesTileState          *state,
                                         const char           **label);

G_END_DECLS
