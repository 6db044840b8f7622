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

/* Where a balance's chart of every tile was drawn, for a click to find
 * its tile (tes_tile_chart_new () over the same rectangle). */
typedef struct
{
  double x;
  double y;
  double width;
  double height;
  guint  balance;
} TesTileChartRect;

void          tes_tiles_balance_range   (TesWorkspace          *workspace,
                                         gint64                *t0,
                                         gint64                *t1);
double        tes_tiles_render_balances (cairo_t               *cr,
                                         TesWorkspace          *workspace,
                                         GPtrArray             *balances,
                                         double                 width,
                                         int                    selected,
                                         int                    selected_ipu,
                                         int                    selected_tile,
                                         gboolean               updating,
                                         GArray                *charts);
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
