/* tes-trace-summary-render.h
 *
 * Copyright 2026 The Tessera developers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <cairo.h>

#include "tes-trace-summary.h"

G_BEGIN_DECLS

typedef char *(*TesTraceFormatFunc) (gint64   ns,
                                     gpointer data);

double tes_trace_draw_proportions (cairo_t            *cr,
                                   GPtrArray          *proportions,
                                   double              width);
double tes_trace_draw_histogram   (cairo_t            *cr,
                                   GArray             *bins,
                                   const char         *name,
                                   TesTraceFormatFunc  format,
                                   gpointer            data,
                                   double              width,
                                   double              height);

G_END_DECLS
