/* tes-share-chart.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "tes-report.h"
#include "tes-share-chart-layout.h"

G_BEGIN_DECLS

#define TES_TYPE_SHARE_CHART (tes_share_chart_get_type ())

G_DECLARE_FINAL_TYPE (TesShareChart, tes_share_chart, TES, SHARE_CHART, GtkWidget)

GtkWidget                 *tes_share_chart_new            (void);
GPtrArray                 *tes_share_chart_get_rows       (TesShareChart *self);
void                       tes_share_chart_set_rows       (TesShareChart *self,
                                                           GPtrArray     *rows);
const TesShareChartLayout *tes_share_chart_get_layout     (TesShareChart *self);
void                       tes_share_chart_get_row_color  (TesShareChart *self,
                                                           guint          row,
                                                           GdkRGBA       *color);
int                        tes_share_chart_get_selected   (TesShareChart *self);
void                       tes_share_chart_set_selected   (TesShareChart *self,
                                                           int            index);

G_END_DECLS
