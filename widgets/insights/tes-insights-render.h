/* tes-insights-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-workspace.h"

G_BEGIN_DECLS

gboolean tes_insights_render          (TesWorkspace  *workspace,
                                       const char    *view,
                                       cairo_t       *cr,
                                       int            width,
                                       int            height,
                                       GError       **error);
void     tes_insights_render_rows     (GPtrArray     *insights,
                                       cairo_t       *cr,
                                       double         x,
                                       double         y,
                                       double         width,
                                       double         height);
gboolean tes_insights_render_report   (TesReport     *report,
                                       GPtrArray     *insights,
                                       cairo_t       *cr,
                                       int            width,
                                       int            height,
                                       GError       **error);
void     tes_insights_render_findings (GPtrArray     *insights,
                                       const char    *title,
                                       cairo_t       *cr,
                                       int            width,
                                       int            height);

G_END_DECLS
